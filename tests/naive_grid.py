"""Plain-Python references for engine/grid.py."""
from collections import deque
from itertools import product


def bfs_distance(blocked, width, target):
    """Distances by textbook BFS over (x, y) tuples; -1 where unreachable."""
    height = len(blocked) // width
    dist = {(target % width, target // width): 0}
    todo = deque([(target % width, target // width)])
    while todo:
        x, y = todo.popleft()
        for dx, dy in ((0, -1), (-1, 0), (1, 0), (0, 1)):
            nx, ny = x + dx, y + dy
            if 0 <= nx < width and 0 <= ny < height and (nx, ny) not in dist \
                    and not blocked[ny * width + nx]:
                dist[(nx, ny)] = dist[(x, y)] + 1
                todo.append((nx, ny))
    return [dist.get((i % width, i // width), -1) for i in range(len(blocked))]


def neighbours(shape, diagonal):
    """For each cell (C order), the set of its neighbours' flat indices."""
    cells = list(product(*(range(s) for s in shape)))
    index = {c: i for i, c in enumerate(cells)}
    out = []
    for c in cells:
        nbs = set()
        for d in product((-1, 0, 1), repeat=len(shape)):
            steps = sum(abs(v) for v in d)
            if steps == 0 or (not diagonal and steps != 1):
                continue
            n = tuple(a + b for a, b in zip(c, d))
            if n in index:
                nbs.add(index[n])
        out.append(nbs)
    return out
