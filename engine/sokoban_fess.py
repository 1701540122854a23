"""Sokoban kernels of the search for any solution: the packing order by retrograde
analysis and a feature-space search (after Shoham and Schaeffer, "The FESS Algorithm: A
Feature Based Approach to Single-Agent Search", IEEE CoG 2020).

Kept apart from the push-optimal search (:mod:`levelforge.engine.sokoban`, whose helpers
and node arrays it shares) so that neither the generator nor a push-optimal solve
compiles it.

The feature-space search projects every stored state onto a cell of a small *feature
space*: (goals packed in the packing order, regions of free floor; room connectivity
and out of plan can be added, see ``USE_ROOMS``, ``USE_OOP`` and
:mod:`levelforge.engine.sokoban_fess_features`). It cycles through the cells that have
open states, one expansion per cell in turn, so progress made in a rare cell is
followed as eagerly as the crowd in a common one. Inside a cell it expands the state of
least *weight*: a move that improves a feature (more goals packed, fewer regions) or
that an advisor proposes (the packing macro: a box pushed along a whole path onto the
next goal of the packing order; the advisors of ``ADVISORS``, each one push per
expansion) costs 0, any other push 1; ties go to the smaller matching cost. The
children of an expansion are recorded in ``kids`` and put into their cells once the
advisors have seen them all. Each cell's open states are a pairing heap threaded through
per-node arrays (``pkey``, ``pchild``, ``psib``); cells are found by their feature key in
a small open-addressing table.
"""
import numpy as np
from numba import njit

from .grid import flood_fill
from .sokoban_match import child_matching, parent_matching
from .sokoban import (_child_norm, _entry, _moved, _region_min, _tunnel, _way, place_boxes,
                      tunnel_room)
from .sokoban_board import frozen_state, pi_corral
from .sokoban_corral import corral_deadlock
from .sokoban_deadlock import push_deadlock
from .sokoban_fess_residual import residual_stuck
from .sokoban_pairs import pair_dead
from .sokoban_fess_features import (ADV_OUT_OF_PLAN, ADV_ROOMS, FEATURE_MAX, K_ADV, K_FEAT,
                                     K_FIELDS, K_FROM, K_H, K_HOT, K_LINKS, K_NODE, K_OOP,
                                     K_REACH, K_REG, advise, blocked_links, feature_key, hotspot,
                                     loose_around, out_of_plan, regions_reach)
from .sokoban_heuristic import box_columns, matching_cost
from .sokoban_state import (C_BOXES, C_CAP, C_EXPANDED, C_FILL, C_FILL2, C_GOAL, C_HALT, C_HEAP,
                            C_NODES, C_START, C_STATUS, C_TEPOCH, GROW, HALTED, LIMIT, MAX_G,
                            MAX_GENERATION, RUNNING, SOLVED, UNREACHABLE, UNSOLVABLE,
                            _T_FP_MASK, _T_GEN_SHIFT, _T_NODE_MASK)

# slots of ``fctr`` (int64[N_FCOUNTERS]), the feature-space search's own counters
F_NCELLS = 0   # cells created
F_CURSOR = 1   # the cell whose turn is next
F_OPEN = 2     # open states in all cells
F_FILL = 3     # flood-fill epoch of ``stamp3``
F_MACROS = 4   # packing macros made
F_DEFER = 5    # the cell of deferred states (-1 until one is made)
F_DEFERRED = 6  # open states in it
N_FCOUNTERS = 7
DEFER_KEY = np.int64(1) << 40  # the cell key of deferred states (no feature key is as large)

# What the search uses of levelforge.engine.sokoban_fess_features, as measured on the
# XSokoban 90 under a node cap (the feature-space search alone, asv_bench/report_fess.py;
# 100,000 states: 34 solved before, 36 now; 300,000 states: 42 before, 43 now): room
# connectivity or out of plan as coordinates of the cells lose levels (33 and 14 of 90
# at 100,000), and so do the hotspot (with the opener) and explorer advisors (32 each);
# the out-of-plan advisor is even at 100,000 states and loses two levels at 300,000.
# The room-connectivity advisor, the one that gained under a node cap, is off too: under
# the 10 s limit (quiet machine, XSokoban 90, any mode) it solved 47/90 against 48/90
# without it (its features cost time on every expansion). Re-measured once the packing
# macro fired as it should (its straight starts, 2026-12-02; 300,000 states: 48/90 with
# no advisor): the room-connectivity advisor 48, the out-of-plan advisor 47. Measured
# again on 2026-12-04 (feature-space then backward search, 300,000 states: 61/90 as set
# here): no switch gains more than it loses, and all four features as cell coordinates
# with all five advisors solve 42/90 (docs/figures/sokoban-solving.md).
USE_ROOMS = False  # the room-connectivity feature in the cell key
USE_OOP = False  # the out-of-plan feature in the cell key
ADVISORS = 0  # the advisors (ADV_* bits) whose pushes are free; ADV_ROOMS: see above
FREE_BETTER = True  # every push that packs a goal or joins regions is free too
MACRO_TRIES = 3  # path searches of one packing macro (each bars the pushes that failed before)
MACRO_BOXES = 3  # more boxes a packing macro tries while its state fails the residual test
CELL_SLOTS = 1 << 15  # size of the cell table: at most CELL_SLOTS // 2 cells
_KEY_W = 42  # heap key: weight << 42 | matching cost << 26 | node
_KEY_H = 26


# --------------------------------------------------------------------------- packing order

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


# --------------------------------------------------------------------------- cells

@njit(cache=True, _nrt=False)
def _meld(a, b, pkey, pchild, psib):
    """Meld two pairing-heap roots (sibling links -1); returns the new root."""
    if pkey[b] < pkey[a]:
        a, b = b, a
    psib[b] = pchild[a]
    pchild[a] = b
    return a


@njit(cache=True, _nrt=False)
def _cell_pop(cell, croot, pkey, pchild, psib):
    """Remove and return the least node of a cell's pairing heap (two-pass pairing)."""
    r = croot[cell]
    c = pchild[r]
    acc = -1  # the pairs of the first pass, linked through psib, last pair first
    while c >= 0:
        a = c
        b = psib[a]
        if b < 0:
            psib[a] = acc
            acc = a
            break
        nxt = psib[b]
        psib[a] = -1
        psib[b] = -1
        m = _meld(a, b, pkey, pchild, psib)
        psib[m] = acc
        acc = m
        c = nxt
    res = -1
    while acc >= 0:
        nxt = psib[acc]
        psib[acc] = -1
        res = acc if res < 0 else _meld(res, acc, pkey, pchild, psib)
        acc = nxt
    croot[cell] = res
    pchild[r] = -1
    return r


@njit(cache=True, _nrt=False)
def _cell_insert(j, key, cell, croot, pkey, pchild, psib):
    """Put node ``j`` with heap key ``key`` into the pairing heap of ``cell``."""
    pkey[j] = key
    pchild[j] = -1
    psib[j] = -1
    croot[cell] = j if croot[cell] < 0 else _meld(croot[cell], j, pkey, pchild, psib)


@njit(cache=True, _nrt=False)
def _cell_push(j, feat, w, h, ckey, cidx, croot, pkey, pchild, psib, fctr):
    """Put node ``j`` (weight ``w``, matching cost ``h``) into the cell of feature key
    ``feat`` (created when new). Returns False when the cell table is full."""
    mask = ckey.shape[0] - 1
    slot = np.int64((feat * 0x9E3779B1) & mask)
    while True:
        if ckey[slot] == feat:
            cell = cidx[slot]
            break
        if ckey[slot] < 0:
            if 2 * fctr[F_NCELLS] >= ckey.shape[0]:
                return False
            cell = fctr[F_NCELLS]
            fctr[F_NCELLS] = cell + 1
            ckey[slot] = feat
            cidx[slot] = cell
            croot[cell] = -1
            break
        slot = (slot + 1) & mask
    if w > 0xFFFF:
        w = 0xFFFF
    if h > 0xFFFF:
        h = 0xFFFF
    _cell_insert(j, (np.int64(w) << _KEY_W) | (np.int64(h) << _KEY_H) | np.int64(j), cell,
                 croot, pkey, pchild, psib)
    fctr[F_OPEN] += 1
    if feat == DEFER_KEY:
        fctr[F_DEFER] = cell
        fctr[F_DEFERRED] += 1
    return True


# --------------------------------------------------------------------------- features

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


@njit(cache=True, _nrt=False)
def _features(occ, blk, pool, base, nbox, player, order, floor, width, stamp3, fctr, queue,
              plan, rpar):
    """``(cell key, feature key, player region cells)`` of the state whose boxes are
    ``pool[base:base + nbox]`` (marked in ``occ`` and ``blk``) and whose player stands on
    the free cell ``player``; ``plan`` holds the level's room links and out-of-plan areas
    (see :mod:`levelforge.engine.sokoban_fess_features`)."""
    packed = _packed(occ, order)
    fctr[F_FILL] += 1
    regions, reach = regions_reach(blk, floor, width, np.int64(player), stamp3, fctr[F_FILL],
                                   queue)
    links = 0  # computed only when the cell key or an advisor uses it
    if USE_ROOMS or ADVISORS & ADV_ROOMS:
        fctr[F_FILL] += 1
        links = blocked_links(occ, width, plan[0], plan[1], plan[2], plan[3], rpar, stamp3,
                              fctr[F_FILL], queue)
    oop = 0
    if USE_OOP or ADVISORS & ADV_OUT_OF_PLAN:
        oop = out_of_plan(pool, base, nbox, packed, plan[4], occ.shape[0], order.shape[0])
    return (feature_key(packed, regions, links if USE_ROOMS else 0, oop if USE_OOP else 0),
            feature_key(packed, regions, links, oop), reach)


# --------------------------------------------------------------------------- packing macro

@njit(cache=True, _nrt=False)
def _source(b, sd, order, npacked, target, walls, occ, stamp, epoch, mseen, mark):
    """Whether the box on ``b`` can start a macro path onto ``target`` with a push by
    ``sd``: not barred (all four of its pull-search states marked ``mark`` in
    ``mseen``, see :func:`_macro_route`), not on the first ``npacked`` entries of
    ``order`` (a box parked in the pocket of ``target`` excepted), its pushing side
    ``b - sd`` free and in the player's region (``stamp == epoch``)."""
    pl = b - sd
    if walls[pl] or occ[pl] or stamp[pl] != epoch:
        return False
    if mseen[4 * b] == mark and mseen[4 * b + 1] == mark and mseen[4 * b + 2] == mark \
            and mseen[4 * b + 3] == mark:
        return False
    for q in range(npacked):
        c, g = parking(order[q])
        if c == b and g != target:
            return False
    return True


@njit(cache=True, _nrt=False)
def _path_from(s, push, length, mnext, steps, path):
    """Write ``push`` at ``path[length]``, then the pushes along the ``mnext`` links
    from the pull-search state ``s`` (``cell * 4 + side``) to the target; returns the
    path's length."""
    path[length] = push
    length += 1
    t = s
    while mnext[t] >= 0:
        nx = mnext[t]
        cb = t >> 2
        nb = nx >> 2
        for e in range(4):
            if cb + steps[e] == nb:
                path[length] = cb * 4 + e
                length += 1
                break
        t = nx
    return length


@njit(cache=True, _nrt=False)
def _macro_path(target, order, npacked, occ, blk, walls, dead, compof, width, stamp, epoch,
                mseen, mnext, mqueue, fctr, path):
    """A box path onto the empty goal ``target``: a breadth-first search of pulls from
    the target over (box cell, player side) states, other boxes as obstacles and the
    player's sides joined as with a lone box (``compof``; the caller replays the path and
    drops it if the player cannot walk as assumed). The source is any box not on the
    first ``npacked`` goals of ``order`` whose pushing side the player reaches now
    (``stamp == epoch``). The player's cell of a push must be free, except the
    source's own cell: a source whose first two pushes go the same way stands where
    the player pushes from the second time (without that exception no path starts
    with a straight run, the commonest start). Writes the pushes (``cell * 4 +
    direction``) into ``path`` and returns their number, 0 when there is none."""
    steps = (-width, -1, 1, width)
    n = walls.shape[0]
    fctr[F_FILL] += 1
    mark = fctr[F_FILL]
    tail = 0
    for k in range(4):  # the player ends on any side (another box there or not: the
        p = target + steps[k]  # side stands for the area the player walks in)
        if walls[p] == 0:
            s = 4 * target + k
            mseen[s] = mark
            mnext[s] = -1
            mqueue[tail] = s
            tail += 1
    head = 0
    while head < tail:
        s = mqueue[head]
        head += 1
        c = s >> 2
        k = s & 3
        comp = compof[c * n + c + steps[k]]
        for d in range(4):
            # the last push went in direction d: the box came from c - step, the player
            # ends on c - step (side 3 - d of c), which must join side k
            sd = steps[d]
            src = c - sd
            if walls[src] or compof[c * n + src] != comp:
                continue
            pl = src - sd
            if walls[pl]:
                continue
            if occ[pl]:
                # the player's cell holds a box: the source itself, when its first two
                # pushes both go in direction d (pl to src to c); any other box blocks
                if occ[src] or not _source(pl, sd, order, npacked, target, walls, occ,
                                           stamp, epoch, mseen, mark):
                    continue
                path[0] = pl * 4 + d
                return _path_from(s, src * 4 + d, 1, mnext, steps, path)
            if occ[src]:
                if not _source(src, sd, order, npacked, target, walls, occ, stamp,
                               epoch, mseen, mark):
                    continue
                return _path_from(s, src * 4 + d, 0, mnext, steps, path)
            if dead[src]:
                continue
            s2 = 4 * src + (3 - d)
            if mseen[s2] == mark:
                continue
            mseen[s2] = mark
            mnext[s2] = s
            mqueue[tail] = s2
            tail += 1
    return 0


# --------------------------------------------------------------------------- search

@njit(cache=True, _nrt=False)
def _lookup(table, mask, tepoch, key, norm, wbox, nbox, nplayer, nbox_pool):
    """The node of a stored state (sorted boxes ``wbox``, normalised player ``norm``,
    hash ``key``) and its free table slot: ``(node or -1, slot)``."""
    slot = np.int64(key & np.uint64(mask))
    want = _entry(tepoch, key, np.int64(0))
    while True:
        e = table[slot]
        if (e >> _T_GEN_SHIFT) != tepoch:
            return -1, slot
        j = e & _T_NODE_MASK
        if (e & _T_FP_MASK) == want & _T_FP_MASK and nplayer[j] == norm:
            same = True
            jb = j * nbox
            for q in range(nbox):
                if nbox_pool[jb + q] != wbox[q]:
                    same = False
                    break
            if same:
                return j, slot
        slot = (slot + 1) & mask


@njit(cache=True, _nrt=False)
def fess_start(boxes, nbox, player, cap, walls, goals, dead, dist, zob, width,
               nbox_pool, nplayer, nparent, ng, nhash, nmove, table, ctr,
               occ, blk, stamp, queue, stamp2, queue2, tmp, wbox,
               hu, hv, hp, hway, hminv, hused, fstack, hside, compof,
               nw, pkey, pchild, psib, ckey, cidx, croot, fctr, stamp3, order, floor, plan,
               rpar, pdb):
    """Reset the workspace and store the start state (box cells ``boxes[:nbox]``, player
    cell ``player``) with a node cap ``cap``. Returns RUNNING, SOLVED (already solved) or
    UNSOLVABLE (a dead square, frozen box, no matching or a pair of boxes without a
    two-box solution in the pair database ``pdb``, see
    :func:`levelforge.engine.sokoban_pairs.pair_dead`)."""
    ctr[C_NODES] = 0
    ctr[C_HEAP] = 0  # not used: each cell has its own heap
    if ctr[C_TEPOCH] >= MAX_GENERATION:
        for i in range(table.shape[0]):
            table[i] = 0
        ctr[C_TEPOCH] = 0
    ctr[C_TEPOCH] += 1
    ctr[C_GOAL] = -1
    ctr[C_EXPANDED] = 0
    ctr[C_BOXES] = nbox
    ctr[C_CAP] = cap
    ctr[C_START] = player
    ctr[C_STATUS] = RUNNING
    fctr[F_NCELLS] = 0
    fctr[F_CURSOR] = 0
    fctr[F_OPEN] = 0
    fctr[F_MACROS] = 0
    fctr[F_DEFER] = -1
    fctr[F_DEFERRED] = 0
    for i in range(ckey.shape[0]):
        ckey[i] = -1
    bad = place_boxes(boxes, nbox, walls, goals, dead, occ, blk, wbox, tmp, width, fstack)
    norm = _region_min(blk, width, np.int64(player), stamp2, ctr, C_FILL2, queue2)
    feat, _, _ = _features(occ, blk, wbox, 0, nbox, norm, order, floor, width, stamp3, fctr,
                           queue2, plan, rpar)
    for i in range(nbox):
        occ[wbox[i]] = 0
        blk[wbox[i]] = 0
    box_columns(wbox, nbox, np.int64(norm), compof, walls.shape[0], hside)
    h = matching_cost(hside, nbox, dist, hu, hv, hp, hway, hminv, hused)
    for i in range(nbox):
        bad = bad or pair_dead(pdb, wbox, nbox, wbox[i], norm)
    if bad or h >= UNREACHABLE:
        ctr[C_STATUS] = UNSOLVABLE
        return UNSOLVABLE
    bh = np.uint64(0)
    for i in range(nbox):
        nbox_pool[i] = wbox[i]
        bh ^= zob[0, wbox[i]]
    nplayer[0] = norm
    nparent[0] = -1
    ng[0] = 0
    nhash[0] = bh
    nmove[0] = 0
    nw[0] = 0
    ctr[C_NODES] = 1
    mask = table.shape[0] - 1
    key = bh ^ zob[1, norm]
    table[np.int64(key & np.uint64(mask))] = _entry(ctr[C_TEPOCH], key, np.int64(0))
    if h == 0:
        ctr[C_GOAL] = 0
        ctr[C_STATUS] = SOLVED
        return SOLVED
    _cell_push(0, feat, 0, h, ckey, cidx, croot, pkey, pchild, psib, fctr)
    return RUNNING


@njit(cache=True, _nrt=False)
def _store(u, wbox, nbox, norm, bh, move, g1, w, feat, h, slot, want,
           nbox_pool, nplayer, nparent, ng, nhash, nmove, table, ctr,
           nw, pkey, pchild, psib, ckey, cidx, croot, fctr):
    """Store a new child of ``u`` and put it into its cell; returns its node, or -1
    when the cell table is full."""
    j = _store_node(u, wbox, nbox, norm, bh, move, g1, slot, want, nbox_pool, nplayer,
                    nparent, ng, nhash, nmove, table, ctr)
    nw[j] = w
    if h > 0 and not _cell_push(j, feat, w, h, ckey, cidx, croot, pkey, pchild, psib, fctr):
        return -1  # the cell table is full: the search stops (a limit, not a proof)
    return j


@njit(cache=True, _nrt=False)
def _store_node(u, wbox, nbox, norm, bh, move, g1, slot, want, nbox_pool, nplayer, nparent,
                ng, nhash, nmove, table, ctr):
    """Store a new child of ``u`` (not yet in any cell); returns its node."""
    j = ctr[C_NODES]
    ctr[C_NODES] = j + 1
    jb = j * nbox
    for q in range(nbox):
        nbox_pool[jb + q] = wbox[q]
    nplayer[j] = norm
    nparent[j] = u
    ng[j] = g1
    nhash[j] = bh
    nmove[j] = move
    table[slot] = want | j
    return j


@njit(cache=True, _nrt=False)
def expansion_room(nbox, n):
    """The most nodes one expansion adds on a board of ``n`` cells: its pushes, a
    packing macro's (at most ``n``) and the tunnel pushes on the way
    (:func:`levelforge.engine.sokoban.tunnel_room`)."""
    return 2 + 4 * n + tunnel_room(nbox, n)


@njit(cache=True, _nrt=False)
def _record(kids, r, j, h, feat, full, reach, src, hot):
    """Write child record ``r`` of ``kids`` (see sokoban_fess_features.K_FIELDS): cell
    key ``feat``, all four features in ``full``."""
    rec = r * K_FIELDS
    kids[rec + K_NODE] = j
    kids[rec + K_H] = h
    kids[rec + K_FEAT] = feat
    kids[rec + K_REG] = (full >> 8) & FEATURE_MAX
    kids[rec + K_LINKS] = (full >> 16) & FEATURE_MAX
    kids[rec + K_OOP] = (full >> 24) & FEATURE_MAX
    kids[rec + K_REACH] = reach
    kids[rec + K_FROM] = src
    kids[rec + K_HOT] = hot
    kids[rec + K_ADV] = 0


@njit(cache=True, _nrt=False)
def _push_kids(kids, nk, wu, fu, ureach, pool, base, nbox, occ, goals, width, nw, pkey, pchild,
               psib, ckey, cidx, croot, fctr):
    """Put the ``nk`` recorded children of a parent of weight ``wu`` (features ``fu``,
    player region ``ureach`` cells, boxes ``pool[base:base + nbox]`` marked in ``occ``)
    into their cells: an advised push (or, with ``FREE_BETTER``, one that packs a goal or
    joins regions) costs no weight, any other 1. Returns LIMIT when the cell table is
    full, else RUNNING."""
    if ADVISORS:
        hot_cell, hot = hotspot(pool, base, nbox, occ, goals, width)
        advise(kids, nk, fu, ureach, hot_cell, hot, width, ADVISORS)
    for r in range(nk):
        rec = r * K_FIELDS
        fc = kids[rec + K_FEAT]
        free = kids[rec + K_ADV] == 1
        if FREE_BETTER and ((fc & FEATURE_MAX) > (fu & FEATURE_MAX)
                            or kids[rec + K_REG] < ((fu >> 8) & FEATURE_MAX)):
            free = True
        j = kids[rec + K_NODE]
        w = wu if free else wu + 1
        nw[j] = w
        if kids[rec + K_H] > 0 and not _cell_push(j, fc, w, kids[rec + K_H], ckey, cidx, croot,
                                                  pkey, pchild, psib, fctr):
            return LIMIT  # the cell table is full: the search stops (a limit, not a proof)
    return RUNNING


@njit(cache=True, _nrt=False, nogil=True)
def fess_run(budget, walls, goals, dead, dist, zob, width,
             nbox_pool, nplayer, nparent, ng, nhash, nmove, table, ctr,
             occ, blk, stamp, queue, stamp2, queue2, tmp, wbox,
             hu, hv, hp, hway, hminv, hused, fstack, hside, compof,
             nw, pkey, pchild, psib, ckey, cidx, croot, fctr, stamp3, order, floor,
             mseen, mnext, mqueue, path, mw,
             cblk, cocc, cstamp, cstamp2, cqueue, cpool, cplayer, ctable, cctr,
             dkey, dnorm, dbox, dres, plan, rpar, kids, wcache, wwork, tun, res, pdb):
    """Continue the feature-space search for at most ``budget`` expansions. A state
    whose PI-corral's boxes alone can never reach goals
    (:func:`levelforge.engine.sokoban_corral.corral_deadlock`, work arrays ``cblk`` to
    ``dres``) is a deadlock: none of its children is made. A child (or packing macro)
    that :func:`levelforge.engine.sokoban_deadlock.push_deadlock` proves a deadlock (a
    stuck set, or a window deadlock with the cache ``wcache`` and work array ``wwork``)
    is not stored, nor is one whose moved box and another box have no two-box solution
    in the pair database ``pdb`` (:func:`levelforge.engine.sokoban_pairs.pair_dead`; a
    one-slot array: none). A push onto a tunnel cell (``tun``, see
    :func:`levelforge.sokoban.fess.tunnel_cells`) goes on along the tunnel in one move
    (the pushes on the way are nodes outside the table and the cells); one that must go
    on against a box or onto a dead square is a deadlock. Returns
    RUNNING (budget used), SOLVED (``ctr[C_GOAL]``), UNSOLVABLE (no open state left:
    every reachable state was expanded, a proof), LIMIT (node cap, cell table full or
    pushes past ``MAX_G``), GROW (the node arrays or the table need room: grow them
    and call again) or HALTED (``ctr[C_HALT]`` was set, looked at before each
    expansion; runs without the GIL)."""
    steps = (-width, -1, 1, width)
    if ctr[C_STATUS] != RUNNING:
        return ctr[C_STATUS]
    n = walls.shape[0]
    nbox = ctr[C_BOXES]
    cap = ctr[C_CAP]
    mask = table.shape[0] - 1
    tepoch = ctr[C_TEPOCH]
    room = expansion_room(nbox, n)
    done = 0
    while done < budget:
        nodes = ctr[C_NODES]
        if nodes + room > nplayer.shape[0] or 2 * (nodes + room) > table.shape[0]:
            return GROW
        if fctr[F_OPEN] == 0:
            ctr[C_STATUS] = UNSOLVABLE
            return UNSOLVABLE
        if ctr[C_HALT] != 0:
            ctr[C_STATUS] = HALTED
            return HALTED
        # the next cell with open states, in turn
        ncells = fctr[F_NCELLS]
        cell = fctr[F_CURSOR]
        only_deferred = fctr[F_OPEN] == fctr[F_DEFERRED]
        for _ in range(ncells):
            if cell >= ncells:
                cell = 0
            if croot[cell] >= 0 and (cell != fctr[F_DEFER] or only_deferred):
                break
            cell += 1
        fctr[F_CURSOR] = cell + 1
        u = _cell_pop(cell, croot, pkey, pchild, psib)
        fctr[F_OPEN] -= 1
        if cell == fctr[F_DEFER]:
            fctr[F_DEFERRED] -= 1
        gu = np.int64(ng[u])
        if gu + n + 2 >= MAX_G:
            ctr[C_STATUS] = LIMIT
            return LIMIT
        done += 1
        ctr[C_EXPANDED] += 1
        wu = np.int64(nw[u])
        base = u * nbox
        for i in range(nbox):
            c = nbox_pool[base + i]
            occ[c] = 1
            blk[c] = 1
        ctr[C_FILL] += 1
        epoch = ctr[C_FILL]
        flood_fill(blk, width, np.int64(nplayer[u]), stamp, epoch, queue)
        _, fu, ureach = _features(occ, blk, nbox_pool, base, nbox, nplayer[u], order, floor, width,
                               stamp3, fctr, queue2, plan, rpar)
        nk = 0  # children recorded in kids, put into their cells after the advisors
        parent_matching(nbox_pool, base, nbox, np.int64(nplayer[u]), compof, n, dist, mw,
                        hway, hminv, hused)
        zmask = pi_corral(nbox_pool, base, nbox, walls, goals, occ, dead, stamp, epoch,
                          width, stamp2, ctr, queue2)
        if zmask > 0 and corral_deadlock(nbox_pool, base, nbox, zmask, stamp2,
                                         np.int64(nplayer[u]), walls, goals, dead, zob, width,
                                         tmp, fstack, cblk, cocc, cstamp, cstamp2, cqueue,
                                         cpool, cplayer, ctable, cctr, dkey, dnorm, dbox,
                                         dres):
            zmask = 0
        g1 = gu + 1
        status = RUNNING
        for i in range(nbox):
            b = np.int64(nbox_pool[base + i])
            if zmask == 0 or (zmask > 0 and stamp2[b] != zmask):
                continue
            for d in range(4):
                s = steps[d]
                t = b + s
                if blk[t] or dead[t] or stamp[b - s] != epoch:
                    continue
                occ[b] = 0
                blk[b] = 0
                occ[t] = 1
                blk[t] = 1
                e, extra = _tunnel(t, s, tun, occ, blk, dead)
                if e >= 0 and frozen_state(e, walls, occ, dead, goals, tmp, width,
                                           fstack) != 2 \
                        and not push_deadlock(e, e - s, walls, goals, occ, dead, width, tmp,
                                              fstack, stamp3, fctr, F_FILL, queue2, wcache,
                                              wwork):
                    _moved(nbox_pool, u, nbox, b, e, wbox)
                    norm = -1
                    if extra == 0:
                        norm = _child_norm(blk, width, b, t, np.int64(nplayer[u]), stamp,
                                           epoch, stamp2, ctr, queue2)
                    if norm < 0:
                        norm = _region_min(blk, width, e - s, stamp2, ctr, C_FILL2, queue2)
                    bh = nhash[u] ^ zob[0, b] ^ zob[0, e]
                    key = bh ^ zob[1, norm]
                    found, slot = _lookup(table, mask, tepoch, key, norm, wbox, nbox, nplayer,
                                          nbox_pool)
                    if found < 0 and not pair_dead(pdb, wbox, nbox, e, norm):
                        h = child_matching(nbox_pool, base, nbox, i, e, norm, compof, n, dist,
                                           mw, hu, hv, hp, hway, hminv, hused)
                        if h < UNREACHABLE:
                            if ctr[C_NODES] + extra >= cap:
                                status = LIMIT
                            else:
                                fc, full, reach = _features(occ, blk, wbox, 0, nbox, norm, order,
                                                      floor, width, stamp3, fctr, queue2,
                                                      plan, rpar)
                                if (fc & FEATURE_MAX) > (fu & FEATURE_MAX) and residual_stuck(
                                        wbox, 0, nbox, fc & FEATURE_MAX, walls, order, width,
                                        res, ctr):
                                    fc = DEFER_KEY
                                last = _way(u, b, s, d, extra, g1, nplayer, nparent, ng,
                                            nhash, nmove, ctr)
                                j = _store_node(last, wbox, nbox, norm, bh, (e - s) * 4 + d,
                                                g1 + extra, slot,
                                                _entry(tepoch, key, np.int64(0)), nbox_pool,
                                                nplayer, nparent, ng, nhash, nmove, table, ctr)
                                _record(kids, nk, j, h, fc, full, reach, b,
                                        loose_around(occ, goals, e, width) if ADVISORS else 0)
                                nk += 1
                                if h == 0:
                                    ctr[C_GOAL] = j
                                    status = SOLVED
                if e < 0:
                    e = -e - 1
                occ[e] = 0
                blk[e] = 0
                occ[b] = 1
                blk[b] = 1
                if status != RUNNING:
                    break
            if status != RUNNING:
                break
        if status == RUNNING:
            status = _push_kids(kids, nk, wu, fu, ureach, nbox_pool, base, nbox, occ, goals,
                                width, nw, pkey, pchild, psib, ckey, cidx, croot, fctr)
        if status == RUNNING:
            status = _macro(u, _packed(occ, order), occ, blk, walls, goals, dead, dist, zob, width,
                            nbox, cap, nbox_pool, nplayer, nparent, ng, nhash, nmove, table,
                            ctr, stamp, epoch, stamp2, queue2, tmp, wbox, hu, hv, hp, hway,
                            hminv, hused, fstack, hside, compof, nw, pkey, pchild, psib,
                            ckey, cidx, croot, fctr, stamp3, order, floor, mseen, mnext,
                            mqueue, path, mw, plan, rpar, wcache, wwork, res, pdb)
        for i in range(nbox):
            c = nbox_pool[base + i]
            occ[c] = 0
            blk[c] = 0
        if status != RUNNING:
            ctr[C_STATUS] = status
            return status
    return RUNNING


@njit(cache=True, _nrt=False)
def _macro(u, npacked, occ, blk, walls, goals, dead, dist, zob, width, nbox, cap,
           nbox_pool, nplayer, nparent, ng, nhash, nmove, table, ctr, stamp, epoch,
           stamp2, queue2, tmp, wbox, hu, hv, hp, hway, hminv, hused, fstack, hside,
           compof, nw, pkey, pchild, psib, ckey, cidx, croot, fctr, stamp3, order, floor,
           mseen, mnext, mqueue, path, mw, plan, rpar, wcache, wwork, res, pdb):
    """The packing advisor on the expanded node ``u`` (its boxes marked in ``occ`` and
    ``blk``, its region ``stamp == epoch``): push a box along a whole path onto the next
    goal of the packing order, a child of weight 0 (the pushes on the way are stored as
    nodes outside the table and the cells, for the solution's reconstruction). Returns
    the search status. ``occ`` and ``blk`` are as they were on return."""
    steps = (-width, -1, 1, width)
    n = walls.shape[0]
    if npacked >= order.shape[0]:
        return RUNNING
    target, _ = parking(order[npacked])
    length, player, stuck = _macro_choice(u, target, order, npacked, occ, blk, walls, dead,
                                          compof, width, stamp, epoch, mseen, mnext, mqueue,
                                          fctr, path, nplayer, stamp2, ctr, queue2, nbox,
                                          nbox_pool, wbox, res)
    if length == 0:
        return RUNNING
    first = path[0] >> 2
    last = np.int64(path[length - 1] >> 2) + steps[path[length - 1] & 3]
    status = RUNNING
    if frozen_state(last, walls, occ, dead, goals, tmp, width, fstack) != 2 \
            and not push_deadlock(last, player, walls, goals, occ, dead, width, tmp, fstack,
                                  stamp3, fctr, F_FILL, queue2, wcache, wwork):
        _moved(nbox_pool, u, nbox, first, last, wbox)
        norm = _region_min(blk, width, player, stamp2, ctr, C_FILL2, queue2)
        bh = nhash[u] ^ zob[0, first] ^ zob[0, last]
        key = bh ^ zob[1, norm]
        mask = table.shape[0] - 1
        tepoch = ctr[C_TEPOCH]
        found, slot = _lookup(table, mask, tepoch, key, norm, wbox, nbox, nplayer, nbox_pool)
        if found < 0 and not pair_dead(pdb, wbox, nbox, last, norm):
            mi = 0  # the moved box's index among u's boxes
            while nbox_pool[u * nbox + mi] != first:
                mi += 1
            h = child_matching(nbox_pool, u * nbox, nbox, mi, last, norm, compof, n, dist,
                               mw, hu, hv, hp, hway, hminv, hused)
            if h < UNREACHABLE:
                if ctr[C_NODES] + length > cap:
                    status = LIMIT
                else:
                    fc, _, _ = _features(occ, blk, wbox, 0, nbox, norm, order, floor, width,
                                      stamp3, fctr, queue2, plan, rpar)
                    if stuck:
                        fc = DEFER_KEY
                    parent = u
                    g = np.int64(ng[u])
                    for q in range(length - 1):  # the pushes on the way
                        j = ctr[C_NODES]
                        ctr[C_NODES] = j + 1
                        nplayer[j] = -1  # not a stored state: never looked up
                        nparent[j] = parent
                        g += 1
                        ng[j] = g
                        nmove[j] = path[q]
                        nhash[j] = 0
                        nw[j] = nw[u]
                        parent = j
                    j = _store(parent, wbox, nbox, norm, bh, path[length - 1], g + 1,
                               np.int64(nw[u]), fc, h, slot, _entry(tepoch, key, np.int64(0)),
                               nbox_pool, nplayer, nparent, ng, nhash, nmove, table, ctr,
                               nw, pkey, pchild, psib, ckey, cidx, croot, fctr)
                    fctr[F_MACROS] += 1
                    if j < 0:
                        status = LIMIT
                    elif h == 0:
                        ctr[C_GOAL] = j
                        status = SOLVED
    _undo(path, length, occ, blk, width)
    return status


@njit(cache=True, _nrt=False)
def _macro_choice(u, target, order, npacked, occ, blk, walls, dead, compof, width, stamp,
                  epoch, mseen, mnext, mqueue, fctr, path, nplayer, stamp2, ctr, queue2, nbox,
                  nbox_pool, wbox, res):
    """The packing macro's route for the box that fills ``target``: ``(length, player
    cell, stuck)``, the first two as :func:`_macro_route` returns them. While the state
    it leaves fails the residual test
    (:func:`levelforge.engine.sokoban_fess_residual.residual_stuck`: the box was one
    the rest of the plan needs, or others are shut in by it), the next box the path
    search finds, up to ``MACRO_BOXES`` more; when all fail, the first route, ``stuck``
    True (its state is deferred)."""
    player = np.int64(nplayer[u])
    end = path.shape[0] - 1
    for tries in range(MACRO_BOXES + 1):
        length, at = _macro_route(target, order, npacked, occ, blk, walls, dead, compof,
                                  width, stamp, epoch, mseen, mnext, mqueue, fctr, path,
                                  player, stamp2, ctr, queue2, tries)
        if length == 0:
            break
        first = path[0] >> 2
        last = np.int64(path[length - 1] >> 2) + (-width, -1, 1, width)[path[length - 1] & 3]
        _moved(nbox_pool, u, nbox, first, last, wbox)
        stuck = residual_stuck(wbox, 0, nbox, _packed(occ, order), walls, order, width, res,
                               ctr)
        if tries == MACRO_BOXES or not stuck:
            return length, at, stuck
        _undo(path, length, occ, blk, width)
        path[end - tries] = first  # barred from the next search on
    if tries == 0:
        return 0, player, False
    length, at = _macro_route(target, order, npacked, occ, blk, walls, dead, compof, width,
                              stamp, epoch, mseen, mnext, mqueue, fctr, path, player, stamp2,
                              ctr, queue2, 0)
    return length, at, True


@njit(cache=True, _nrt=False)
def _macro_route(target, order, npacked, occ, blk, walls, dead, compof, width, stamp, epoch,
                 mseen, mnext, mqueue, fctr, path, player, stamp2, ctr, queue2, nboxes):
    """A packing macro's path onto ``target`` that holds with every box in place:
    ``(length, player cell)``, the pushes in ``path`` and played on ``occ`` and ``blk``
    (``(0, player)`` and nothing played when there is none). The path search
    (:func:`_macro_path`) lets the player walk as if the moving box were alone: when the
    replay finds a pushing side out of the player's reach, that push is barred and the
    search runs again, at most ``MACRO_TRIES`` times. The boxes on the cells
    ``path[-nboxes:]`` are barred as sources. ``path`` holds ``4 n + 1 + MACRO_TRIES +
    MACRO_BOXES`` entries (``n`` cells): a path has at most ``4 n + 1`` pushes, the
    barred pushes are kept past it, the barred boxes at its very end."""
    nbar = 0  # the pushes barred so far, kept past the path in ``path``
    top = path.shape[0] - 1 - MACRO_BOXES
    for attempt in range(MACRO_TRIES):
        for q in range(nbar):
            mseen[path[top - q]] = fctr[F_FILL] + 1  # the next search's mark
        for q in range(nboxes):
            b = path[path.shape[0] - 1 - q]
            for k in range(4):
                mseen[4 * b + k] = fctr[F_FILL] + 1
        length = _macro_path(target, order, npacked, occ, blk, walls, dead, compof, width,
                             stamp, epoch, mseen, mnext, mqueue, fctr, path)
        if length == 0:
            break
        end, moved = _replay(path, length, player, occ, blk, width, stamp2, ctr, queue2)
        if moved == length:
            return length, end
        _undo(path, moved, occ, blk, width)
        # the push that failed: its box's cell and pushing side, a pull-search state
        path[top - nbar] = 4 * (path[moved] >> 2) + 3 - (path[moved] & 3)
        nbar += 1
    return 0, player


@njit(cache=True, _nrt=False)
def _replay(path, length, player, occ, blk, width, stamp2, ctr, queue2):
    """Play the macro path's pushes on ``occ`` and ``blk`` while the player can walk to
    each pushing side: ``(player cell, pushes played)``, all ``length`` of them when
    the path holds."""
    steps = (-width, -1, 1, width)
    for q in range(length):
        b = np.int64(path[q] >> 2)
        s = steps[path[q] & 3]
        ctr[C_FILL2] += 1
        flood_fill(blk, width, player, stamp2, ctr[C_FILL2], queue2)
        if stamp2[b - s] != ctr[C_FILL2] or blk[b + s]:
            return player, q
        occ[b] = 0
        blk[b] = 0
        occ[b + s] = 1
        blk[b + s] = 1
        player = b
    return player, length


@njit(cache=True, _nrt=False)
def _undo(path, moved, occ, blk, width):
    """Take back the first ``moved`` pushes of ``path`` that :func:`_replay` played."""
    steps = (-width, -1, 1, width)
    for q in range(moved - 1, -1, -1):
        b = np.int64(path[q] >> 2)
        s = steps[path[q] & 3]
        occ[b + s] = 0
        blk[b + s] = 0
        occ[b] = 1
        blk[b] = 1
