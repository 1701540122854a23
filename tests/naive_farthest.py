"""Plain-Python references for the farthest-state generator: a breadth-first search over
pulls from the solved state, and the box-change count of a solution. Slow and obviously
correct. Cells are ``(x, y)`` tuples, as in ``naive_sokoban``.
"""
import naive_sokoban as naive


def regions(walls, boxes, cells):
    """The player regions of a box placement: each as its smallest cell in (y, x) order."""
    seen, out = set(), []
    for c in sorted(cells, key=lambda c: (c[1], c[0])):
        if c in walls or c in boxes or c in seen:
            continue
        region = naive.reachable(walls, boxes, c)
        seen |= region
        out.append(c)
    return out


def pull_distances(level):
    """``{(boxes, region's smallest cell): pushes to solved}`` for every state that can be
    pushed to solved, by breadth-first search over pulls from every solved state."""
    walls = set(level.walls)
    goals = frozenset(level.goals)
    cells = [(x, y) for y in range(level.height) for x in range(level.width)]
    dist = {(goals, p): 0 for p in regions(walls, goals, cells)}
    frontier = list(dist)
    depth = 0
    while frontier:
        depth += 1
        nxt = []
        for boxes, norm in frontier:
            for q in naive.reachable(walls, boxes, norm):
                for letter in "ulrd":
                    res = naive.pull(walls, boxes, q, letter)
                    if res is None:
                        continue
                    nb, player = res
                    key = (nb, naive._norm(walls, nb, player)[0])
                    if key not in dist:
                        dist[key] = depth
                        nxt.append(key)
        frontier = nxt
    return dist


def box_changes(level, solution):
    """How often consecutive pushes of ``solution`` move different boxes (boxes followed
    by identity as they move)."""
    boxes = {b: i for i, b in enumerate(level.boxes)}
    player = level.player
    last, changes = None, 0
    for letter in solution:
        step = naive.DIRS[letter.lower()]
        nxt = naive.add(player, step)
        if letter.isupper():
            box = boxes.pop(nxt)
            boxes[naive.add(nxt, step)] = box
            if last is not None and box != last:
                changes += 1
            last = box
        player = nxt
    return changes
