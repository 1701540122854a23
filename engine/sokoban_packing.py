"""The packing order of the search for any solution: in which order to fill the goals,
found by retrograde analysis from the solved state (as Festival and YASS compute theirs),
with the pockets where a box must be parked before the goals around them close the way
in; and how much of that order a state has filled. Used by the feature-space search
(:mod:`levelforge.engine.sokoban_fess`) and its packing macro
(:mod:`levelforge.engine.sokoban_fess_macro`).
"""
import numpy as np
from numba import njit

from .grid import flood_fill
from .sokoban_state import C_FILL2, C_HALT, F_FILL

REACH_WORK = 50_000_000
"""Most ``4 * floor cells**2 * goals`` (the worst case of the lone-box reach over all
rounds of :func:`packing_order`, a few hundredths of a second) for which the packing
order uses it; beyond (64x64 rooms: 20 s), a box counts as out on any floor off the
goals."""


@njit(cache=True, _nrt=False)
def _box_reach(starts, blk, width, reach, mark, rqueue, stamp2, ctr, queue2):
    """Mark ``reach[4 * c + k] = mark`` for every cell ``c`` a lone box can be pushed to
    from a start cell in ``starts`` (those free in ``blk``), the boxes marked in ``blk``
    in place, with the player in the region of side ``k`` (``steps[k]`` from ``c``). The
    player may start on any free side of a start cell. A breadth-first search over
    (box cell, side) states, ``rqueue`` its queue; the player's region around each box
    cell comes from a flood fill (``stamp2``, ``ctr[C_FILL2]``), and every side in it is
    marked with the state taken."""
    steps = (-width, -1, 1, width)
    tail = 0
    for i in range(starts.shape[0]):
        b = starts[i]
        if blk[b]:
            continue
        for k in range(4):
            if blk[b + steps[k]] == 0 and reach[4 * b + k] != mark:
                reach[4 * b + k] = mark
                rqueue[tail] = 4 * b + k
                tail += 1
    head = 0
    while head < tail:
        s = rqueue[head]
        head += 1
        c = s >> 2
        blk[c] = 1
        ctr[C_FILL2] += 1
        flood_fill(blk, width, np.int64(c + steps[s & 3]), stamp2, ctr[C_FILL2], queue2)
        blk[c] = 0
        for k in range(4):
            p = c + steps[k]
            if blk[p] or stamp2[p] != ctr[C_FILL2]:
                continue
            reach[4 * c + k] = mark  # the same region: the same state
            # the player on side k pushes the box away from it, and stands on c after
            c2 = c - steps[k]
            if blk[c2] or reach[4 * c2 + k] == mark:
                continue
            reach[4 * c2 + k] = mark
            rqueue[tail] = 4 * c2 + k
            tail += 1


@njit(cache=True, _nrt=False)
def _pull_out(g, walls, goals, blk, width, stamp2, ctr, queue2, seen, fctr, bqueue, reach,
              rmark):
    """How a lone box leaves goal ``g`` by pulls, with the boxes marked in ``blk`` in
    place and the player starting on any free side of it: ``(1 << 20) | pulls`` for the
    fewest pulls that bring it to a state a box from the start can reach
    (``reach[4 * cell + side] == rmark``, see :func:`_box_reach`) off the goals; failing
    that ``(2 << 20) | pulls`` for the fewest that bring it to any floor cell that is
    not a goal (a pocket no box comes to: filling ``g`` last would need a box from
    there); ``3 << 20`` if it cannot leave the goals. Returned with the pocket: the
    smallest cell such a fewest-pull state puts the box on (-1 when there is none). A
    breadth-first search over (box cell, player side) states, ``seen`` stamped with a
    fresh ``fctr[F_FILL]`` epoch; the player's sides around each box cell come from a
    flood fill (``stamp2``, ``ctr[C_FILL2]``)."""
    steps = (-width, -1, 1, width)
    n = walls.shape[0]
    blk[g] = 0
    fctr[F_FILL] += 1
    mark = fctr[F_FILL]
    tail = 0
    for k in range(4):
        if blk[g + steps[k]] == 0:
            seen[4 * g + k] = mark
            bqueue[tail] = 4 * g + k
            tail += 1
    head = 0
    found = np.int64(3) << 20
    pocket = -1
    while head < tail and found >> 20 > 1:
        # states come in rounds of equal pull counts: bqueue entries pack count * 4n
        st = bqueue[head]
        head += 1
        depth = st // (4 * n)
        s = st % (4 * n)
        c = s >> 2
        k = s & 3
        # the sides the player reaches around the box on c, starting from side k
        blk[c] = 1
        ctr[C_FILL2] += 1
        flood_fill(blk, width, np.int64(c + steps[k]), stamp2, ctr[C_FILL2], queue2)
        blk[c] = 0
        for k2 in range(4):
            p = c + steps[k2]
            if blk[p] or stamp2[p] != ctr[C_FILL2]:
                continue
            # pull towards side k2: the box goes to p, the player to p + step
            q = p + steps[k2]
            if blk[q]:
                continue
            s2 = 4 * p + k2
            if seen[s2] == mark:
                continue
            seen[s2] = mark
            if goals[p] == 0:
                if rmark < 0 or reach[s2] == rmark:
                    found = (np.int64(1) << 20) | (depth + 1)
                    break
                if found >> 20 == 3:
                    found = (np.int64(2) << 20) | (depth + 1)
                    pocket = p
                elif found >> 20 == 2 and (found & 0xFFFFF) == depth + 1 and p < pocket:
                    pocket = p
            bqueue[tail] = (depth + 1) * 4 * n + s2
            tail += 1
    blk[g] = 1
    return found, pocket


@njit(cache=True, _nrt=False, nogil=True)
def packing_order(walls, goals, goal_cells, box_cells, width, order, pocket, blk, stamp2, ctr,
                  queue2, seen, fctr, bqueue, depth, reach, rqueue):
    """The order in which to fill the goals, by retrograde analysis (as Festival and
    YASS compute theirs): from the solved state, take out one box at a time, until none
    is left; the packing order is the reverse. The box taken out is the one that leaves
    the goals in the fewest pulls, with the others in place, for a state that a box
    from the start (``box_cells``) can be pushed to (:func:`_box_reach`, up to
    ``REACH_WORK``: a goal that
    only lets its box out into a pocket no box comes to must be filled before the goals
    around it close its way in); failing such a box, the one that leaves in the fewest
    pulls at all; failing that, the shallowest goal still filled. Ties: the shallower
    goal (``depth``: steps over goals to the nearest other floor), then the smaller
    cell. ``order`` receives the goal cells, first to fill first, and ``pocket`` beside
    each the pocket cell its box left into when that was the best there was (-1 for
    the others, and -1 unless a lone box from the start reaches the pocket only through
    that goal and no other goal leaves into it): such a goal is filled from its pocket,
    where a box must be parked before the goals ahead of it close the way in. Work
    arrays: ``blk``
    (uint8; left equal to ``walls``), ``stamp2``/``queue2`` (one slot per cell),
    ``seen``/``bqueue``/``reach``/``rqueue`` (four per cell). A set ``ctr[C_HALT]`` (a
    time limit, a cancel) stops it with ``order`` unfinished: it can take 0.2 s on a
    64x64 board with 128 boxes."""
    n = walls.shape[0]
    k = goal_cells.shape[0]
    nfloor = 0
    for c in range(n):
        blk[c] = walls[c]
        nfloor += 1 - walls[c]
    for i in range(k):
        blk[goal_cells[i]] = 1
    for r in range(k):
        if ctr[C_HALT] != 0:
            return
        rmark = np.int64(-1)  # every state counts (see REACH_WORK)
        if 4.0 * nfloor * nfloor * k <= REACH_WORK:
            fctr[F_FILL] += 1
            rmark = fctr[F_FILL]
            _box_reach(box_cells, blk, width, reach, rmark, rqueue, stamp2, ctr, queue2)
        best = -1
        best_d = np.int64(0)
        best_p = -1
        for i in range(k):
            g = goal_cells[i]
            if blk[g] == 0:
                continue
            d, p = _pull_out(np.int64(g), walls, goals, blk, width, stamp2, ctr, queue2, seen,
                             fctr, bqueue, reach, rmark)
            rank = (d << 20) | (np.int64(depth[g]) << 12)
            if best < 0 or rank < best_d:
                best = g
                best_d = rank
                best_p = p if d >> 20 == 2 else -1
        order[k - 1 - r] = best
        pocket[k - 1 - r] = best_p
        blk[best] = 0
    # a pocket is a parking place when a lone box from the start reaches it with no goal
    # filled, but not with its own goal blocked (only through that goal), and when no
    # other goal leaves into it (one box parks there); ``bqueue`` counts, free by now
    for i in range(k):
        if pocket[i] >= 0:
            bqueue[pocket[i]] = 0
    for i in range(k):
        if pocket[i] >= 0:
            bqueue[pocket[i]] += 1
    for i in range(k):
        p = pocket[i]
        if p < 0:
            continue
        if bqueue[p] > 1 or ctr[C_HALT] != 0:
            pocket[i] = -1
            continue
        seen_free = _reaches(box_cells, p, blk, width, reach, rqueue, stamp2, ctr, queue2, fctr)
        blk[order[i]] = 1
        seen_shut = _reaches(box_cells, p, blk, width, reach, rqueue, stamp2, ctr, queue2, fctr)
        blk[order[i]] = 0
        if not seen_free or seen_shut:
            pocket[i] = -1


@njit(cache=True, _nrt=False)
def _reaches(box_cells, p, blk, width, reach, rqueue, stamp2, ctr, queue2, fctr):
    """Whether a lone box from a start cell can be pushed onto ``p`` (``blk`` marks the
    walls and the cells closed; see :func:`_box_reach`)."""
    fctr[F_FILL] += 1
    mark = fctr[F_FILL]
    _box_reach(box_cells, blk, width, reach, mark, rqueue, stamp2, ctr, queue2)
    return (reach[4 * p] == mark or reach[4 * p + 1] == mark or reach[4 * p + 2] == mark
            or reach[4 * p + 3] == mark)


@njit(cache=True, _nrt=False)
def parking(v):
    """An entry ``v`` of the packing order: ``(cell, goal)``, the cell to fill and, for
    a parking entry (``v < 0``: ``-(cell << 16 | goal) - 1``, a box parked in the
    pocket ``cell`` of ``goal``, see :func:`levelforge.sokoban.fess.packing_order`), the
    goal whose box satisfies it too (-1 for a goal entry)."""
    if v >= 0:
        return np.int64(v), np.int64(-1)
    w = np.int64(-v - 1)
    return w >> 16, w & 0xFFFF


@njit(cache=True, _nrt=False)
def _packed(occ, order):
    """Entries of the packing order filled: the length of its filled prefix (a parking
    entry counts while its pocket or its goal holds a box)."""
    for i in range(order.shape[0]):
        c, g = parking(order[i])
        if occ[c] == 0 and (g < 0 or occ[g] == 0):
            return i
    return order.shape[0]
