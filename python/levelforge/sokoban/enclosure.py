"""Which cells of a level lie outside its walls: the floor a player can never reach,
left out of validation, pictures and observations alike.

>>> walls = {(x, y) for x in range(3) for y in range(3)} - {(1, 1)}
>>> sorted(outside(3, 3, walls)), sorted(outside(3, 3, set()))[:2]
([], [(0, 0), (0, 1)])
"""


def outside(w, h, walls):
    """Cells connected to the grid's border through non-wall cells (4-neighbour)."""
    todo = [(x, y) for x in range(w) for y in (0, h - 1)] + \
           [(x, y) for y in range(h) for x in (0, w - 1)]
    seen = set()
    while todo:
        cell = todo.pop()
        if cell in seen or cell in walls:
            continue
        seen.add(cell)
        x, y = cell
        for nx, ny in ((x, y - 1), (x - 1, y), (x + 1, y), (x, y + 1)):
            if 0 <= nx < w and 0 <= ny < h:
                todo.append((nx, ny))
    return seen
