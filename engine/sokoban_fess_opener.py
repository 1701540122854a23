"""The opener of the feature-space search (:mod:`levelforge.engine.sokoban_fess`): when
the packing macro finds no box it can push onto the next goal of the packing order,
which boxes stand in the way.

A relaxed route answers it: a box pushed onto the goal while every other box may be
walked or pushed *through* at a cost of one each. :func:`in_the_way` finds the cheapest
such route, the boxes it passes through counted both on the moving box's way and on the
player's (to the first pushing side, from the player's region), and marks those boxes.
The search then makes their pushes free, so that the few pushes that clear the way are
followed before the many that do not (written for states like XSokoban 40's, where the
solution's nine pushes of six boxes open the player's way round to the box that fills
the second goal).

Work array ``ow`` (int64, ``OW_PER_CELL`` entries per cell of the board): the route's
costs per (box cell, player side) and their links, the player's costs and links per
cell, a ring queue, and the marks of the boxes in the way.
"""
from numba import njit

from .sokoban_fess_macro import pull_step, unpacked

_FAR = 1 << 30
# where each part of ``ow`` starts, in entries per cell of the board
_RN = 4  # after the route's costs (4 per cell): its links, the state pulled towards
_PC = 8  # the player's costs
_PV = 9  # the player's links
_Q0 = 10  # the ring queue (8 per cell)
_REL = 18  # the marks of the boxes in the way
OW_PER_CELL = 19


@njit(cache=True, _nrt=False)
def _player_costs(occ, walls, width, stamp, epoch, ow, pc, pv, q0, qn):
    """0-1 breadth-first costs of the player from its region (``stamp == epoch``, cost
    0) to every cell: stepping onto a box's cell costs 1 (the box must go), a free cell
    0. ``ow[pc + c]`` holds the cost, ``ow[pv + c]`` the cell it came from. Returns
    False when the ring queue of ``qn`` entries fills (no verdict), else True."""
    steps = (-width, -1, 1, width)
    n = walls.shape[0]
    head = 0
    tail = 0
    for c in range(n):
        ow[pv + c] = -1
        if stamp[c] == epoch:
            ow[pc + c] = 0
            ow[q0 + tail] = c
            tail += 1
        else:
            ow[pc + c] = _FAR
    while head != tail:
        c = ow[q0 + head]
        head = (head + 1) % qn
        cost = ow[pc + c]
        for d in range(4):
            t = c + steps[d]
            if walls[t]:
                continue
            w = cost + occ[t]
            if w < ow[pc + t]:
                ow[pc + t] = w
                ow[pv + t] = c
                if (tail + 1) % qn == head:
                    return False
                if occ[t]:
                    ow[q0 + tail] = t
                    tail = (tail + 1) % qn
                else:
                    head = (head - 1) % qn
                    ow[q0 + head] = t
    return True


@njit(cache=True, _nrt=False)
def in_the_way(target, order, npacked, occ, walls, dead, compof, width, stamp, epoch, ow,
               mark):
    """Mark (``ow[_REL * n + cell] = mark``, ``n`` cells) the boxes in the way of the cheapest relaxed
    route that fills the empty ``target``: a pull search from ``target`` over (box
    cell, player side) states, the player's sides joined as around a lone box
    (``compof``), where a box's cell on the moving box's way or under the player's
    pushing side costs 1 (the source's start cell too, once it has left it, but for
    the player's cell of a second push the same way as the first: a straight start),
    and a source box (any box ``order``'s packed prefix does not hold) adds the player's cost
    to its first pushing side. Returns ``(cost, source cell)``: cost 0 when nothing is in
    the way (nothing marked), ``(-1, -1)`` when no route exists (or, never on a real
    board, a ring queue fills). The source is marked only when the player's way crosses
    it."""
    steps = (-width, -1, 1, width)
    n = walls.shape[0]
    rc = 0  # route cost per state
    rn = _RN * n
    pc = _PC * n
    pv = _PV * n
    q0 = _Q0 * n
    qn = (_REL - _Q0) * n
    rel = _REL * n
    if not _player_costs(occ, walls, width, stamp, epoch, ow, pc, pv, q0, qn):
        return -1, -1
    for s in range(4 * n):
        ow[rc + s] = _FAR
    head = 0
    tail = 0
    for k in range(4):
        if walls[target + steps[k]] == 0:
            s = 4 * target + k
            ow[rc + s] = 0
            ow[rn + s] = -1
            ow[q0 + tail] = s
            tail += 1
    best = _FAR
    best_s = -1
    best_d = -1
    while head != tail:
        s = ow[q0 + head]
        head = (head + 1) % qn
        cost = ow[rc + s]
        if cost > best:  # (at cost == best a straight start may still save 1)
            continue
        c = s >> 2
        for d in range(4):
            src, pl = pull_step(s, d, walls, compof, width)
            if src < 0:
                continue
            sd = steps[d]
            if occ[src] and unpacked(src, order, npacked, target):
                total = cost + ow[pc + pl]
                nxt = ow[rn + s]
                if nxt >= 0 and (nxt >> 2) - c == sd:
                    total -= 1  # a straight start: the player's next cell is src itself
                if total < best:
                    best = total
                    best_s = s
                    best_d = d
            if dead[src]:
                continue
            w = cost + occ[src] + occ[pl]
            s2 = 4 * src + (3 - d)
            if w < ow[rc + s2]:
                ow[rc + s2] = w
                ow[rn + s2] = s
                if (tail + 1) % qn == head:
                    return -1, -1  # the queue is full (never on a real board): no verdict
                if w > cost:
                    ow[q0 + tail] = s2
                    tail = (tail + 1) % qn
                else:
                    head = (head - 1) % qn
                    ow[q0 + head] = s2
    if best_s < 0:
        return -1, -1
    src = (best_s >> 2) - steps[best_d]
    if best == 0:
        return 0, src
    # the boxes on the player's way to the first pushing side (the source itself when
    # the player must get round it)
    c = src - steps[best_d]
    while c >= 0:
        if occ[c]:
            ow[rel + c] = mark
        c = ow[pv + c]
    # the boxes on the moving box's way and under the player's pushing sides
    s = best_s
    prev = src
    while s >= 0:
        c = s >> 2
        pl = 2 * prev - c
        if occ[c] and c != src:
            ow[rel + c] = mark
        if occ[pl] and pl != src:
            ow[rel + pl] = mark
        prev = c
        s = ow[rn + s]
    return best, src


@njit(cache=True, _nrt=False)
def in_the_way_mark(ow, n, cell, mark):
    """Whether :func:`in_the_way` marked the box on ``cell`` with ``mark``."""
    return ow[_REL * n + cell] == mark
