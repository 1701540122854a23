"""Plain-Python reference of the stuck-set deadlock test
(levelforge.engine.sokoban_deadlock): the largest set of boxes around one box that can
never move while it stays put, with sealed pockets, by whole-board flood fills.

Cells are ``(x, y)`` tuples; ``walls``, ``goals``, ``boxes``, ``dead`` are sets of cells.
"""
from naive_sokoban import add

POCKET_CELLS = 24
STEPS = ((0, -1), (-1, 0), (1, 0), (0, 1))


def _area(walls, stuck, cell, within=None):
    """The connected area of ``cell`` through cells that are neither walls nor stuck
    (and lie in ``within``, when given)."""
    seen = {cell}
    todo = [cell]
    while todo:
        c = todo.pop()
        for step in STEPS:
            nb = add(c, step)
            if nb not in seen and nb not in walls and nb not in stuck \
                    and (within is None or nb in within):
                seen.add(nb)
                todo.append(nb)
    return seen


def _sealed(walls, stuck, player, cell):
    area = _area(walls, stuck, cell)
    return player not in area and len(area) <= POCKET_CELLS, area


def _can_move(walls, boxes, dead, stuck, player, c):
    for step in STEPS:
        p, q = add(c, step), add(c, step, -1)
        if p in walls or p in stuck or q in walls or q in stuck or p in dead:
            continue
        if _sealed(walls, stuck, player, q)[0]:
            continue
        if p in boxes and _sealed(walls, stuck, player, p)[0]:
            continue
        return True
    return False


def stuck_deadlock(walls, goals, boxes, dead, player, t):
    """True when the boxes joined to ``t`` through their eight neighbours hold a stuck
    set with a box off its goal, or a sealed pocket beside it with a box off its goal
    or an empty goal."""
    cluster = {t}
    todo = [t]
    while todo:
        c = todo.pop()
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                v = (c[0] + dx, c[1] + dy)
                if v in boxes and v not in cluster:
                    cluster.add(v)
                    todo.append(v)
    stuck = set(cluster)
    while True:
        movable = {c for c in stuck if _can_move(walls, boxes, dead, stuck, player, c)}
        if not movable:
            break
        stuck -= movable
    if any(c not in goals for c in stuck):
        return True
    for c in stuck:
        for step in STEPS:
            v = add(c, step)
            if v in walls or v in stuck:
                continue
            sealed, area = _sealed(walls, stuck, player, v)
            if sealed and any((a in goals) != (a in boxes) for a in area):
                return True
    return False


def _window_search(walls, goals, dead, boxes, player, ox, oy):
    """Plain BFS of the relaxed 4x4 window at (ox, oy): the window's walls, goals and
    dead squares, ringed by free floor where a box pushed out vanishes. Returns
    (deadlock, states seen)."""
    inside = {(ox + dx, oy + dy) for dx in range(4) for dy in range(4)}
    ring = {(ox + dx, oy + dy) for dx in range(-1, 5) for dy in range(-1, 5)} - inside
    wall = {c for c in inside if c in walls}

    def key(bs, p):
        reg = _area(wall, bs, p, inside | ring)
        return bs, (None if reg & ring else min(reg)), reg

    start = frozenset(b for b in boxes if b in inside)
    p0 = player if player in inside else next(iter(ring))
    first = key(start, p0)
    seen = {first[:2]}
    todo = [first]
    while todo:
        bs, _, reg = todo.pop()
        for b in bs:
            for step in STEPS:
                t, q = add(b, step), add(b, step, -1)
                if q not in reg:
                    continue
                if t in ring:
                    nb = bs - {b}
                elif t in wall or t in bs or t in dead:
                    continue
                else:
                    nb = (bs - {b}) | {t}
                if all(c in goals for c in nb):
                    return False, len(seen)
                k = key(nb, b)
                if k[:2] not in seen:
                    seen.add(k[:2])
                    todo.append(k)
    return True, len(seen)


def window_deadlock(walls, goals, dead, boxes, player, t, width, height):
    """The windows the kernel looks at around ``t``: a list of (deadlock, states) of
    those it searches (at least two boxes, one off its goal), none when no box stands
    next to ``t`` (diagonals included)."""
    out = []
    if not any((t[0] + dx, t[1] + dy) in boxes for dx in (-1, 0, 1) for dy in (-1, 0, 1)
               if dx or dy):
        return out
    for p in range(4):
        ox = min(max(t[0] - 1 - (p & 1), 0), width - 4)
        oy = min(max(t[1] - 1 - (p >> 1), 0), height - 4)
        inside = [(ox + dx, oy + dy) for dx in range(4) for dy in range(4)]
        mine = [c for c in inside if c in boxes]
        if len(mine) >= 2 and any(c not in goals for c in mine):
            out.append(_window_search(walls, goals, dead, boxes, player, ox, oy))
    return out
