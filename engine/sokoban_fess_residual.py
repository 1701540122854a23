"""The packing plan's residual test for the feature-space search
(:mod:`levelforge.engine.sokoban_fess`): does a state that has just packed ``k``
entries of the packing order leave a problem its other boxes can still finish?

With the goals of the first ``k`` entries held by their boxes as if they were walls,
every other box must be matched to one of the goals still empty, each to a goal it
can reach by pushes as a lone box (other boxes ignored, the player on any side). A
state where no such matching exists has packed goals with boxes that the rest of the
plan needed (XSokoban 41: boxes from the top filled goals that the two boxes of the
right-hand area could have filled, and the goal that only a box from the top can
reach is left to them). The test is not a proof (the packed boxes could move again), so
the search defers such states rather than dropping them.

The goals each box can reach are tabulated per ``k`` and goal on first use
(:func:`_basin`: every (cell, player side) state from which a lone box can be pushed
onto that goal, by a breadth-first search of pulls back from it). The player's regions
around a lone box on each cell are tabulated once per ``k`` (:func:`_sides`) and shared
by the goals' rows: a flood fill per cell and goal made the first rows of a 32x32 room
with 30 goals cost the feature-space search about a second.
"""
import numpy as np
from numba import njit

from .grid import flood_fill
from .sokoban_state import C_HALT

# slots of ``rctr`` (int64[N_RCOUNTERS])
R_FILL = 0    # flood-fill epoch of ``bstamp``
R_SEEN = 1    # epoch of ``gseen`` (one per augmenting search)
R_CHECKS = 2  # states tested
R_STUCK = 3   # states found stuck
N_RCOUNTERS = 4

BASIN_BYTES = 64 << 20
"""Most bytes of the per-``k`` tables (``(goals + 1) * goals * 4 * cells``); on larger
boards the test is off."""


@njit(cache=True, _nrt=False)
def _sides(k, bblk, width, sides, bstamp, bqueue, rctr, ctr):
    """Fill table ``k`` of ``sides`` for the blocked cells ``bblk`` (walls and table
    ``k``'s walled-in goals): ``sides[k * 4 n + 4 c + s]`` is 1 + the index of the
    player's region on side ``s`` of a lone box on cell ``c`` among that cell's regions
    (sides in one region share it), 0 where that side is blocked. A cell whose free
    neighbours are joined around it (:func:`_one_arc`) needs no fill; the others one
    flood fill per region. Shared by every goal's row of ``basin``. False, the table
    unfinished, when ``ctr[C_HALT]`` is set on the way."""
    n = bblk.shape[0]
    steps = (-width, -1, 1, width)
    base = k * 4 * n
    for c in range(n):
        if bblk[c]:
            continue
        if ctr[C_HALT] != 0:
            return False
        if _one_arc(c, bblk, width):  # most cells of open floor: no fill needed
            for s in range(4):
                sides[base + 4 * c + s] = 1 - bblk[c + steps[s]]
            continue
        bblk[c] = 1
        first = rctr[R_FILL] + 1  # this cell's fills: region i has epoch first + i
        for s in range(4):
            p = c + steps[s]
            sides[base + 4 * c + s] = 0
            if bblk[p]:
                continue
            if bstamp[p] < first:  # not in a region of this cell yet
                rctr[R_FILL] += 1
                flood_fill(bblk, width, np.int64(p), bstamp, rctr[R_FILL], bqueue)
            sides[base + 4 * c + s] = bstamp[p] - first + 1
        bblk[c] = 0
    return True


@njit(cache=True, _nrt=False)
def _one_arc(c, bblk, width):
    """Whether the free neighbours of cell ``c`` (up, left, right, down) are joined
    around it by the free cells of its 3x3 ring (each next ring cell is beside the one
    before): then a box on ``c`` leaves them one region (the converse needs a fill)."""
    ring = (c - width, c - width + 1, c + 1, c + width + 1, c + width, c + width - 1,
            c - 1, c - width - 1)
    start = -1  # a blocked ring cell to start from: none, the ring is one arc
    for i in range(8):
        if bblk[ring[i]]:
            start = i
            break
    if start < 0:
        return True
    arcs = 0  # free arcs that hold a neighbour of c (the ring's even cells)
    inside = False
    held = False
    for j in range(1, 9):
        i = (start + j) % 8
        if bblk[ring[i]]:
            if inside and held:
                arcs += 1
            inside = held = False
        else:
            inside = True
            held = held or i % 2 == 0
    return arcs <= 1


@njit(cache=True, _nrt=False)
def _basin(k, gi, walls, order, goal_cells, width, basin, bblk, bstamp, bqueue, bq4, sides,
           sdone, rctr, ctr):
    """Fill row ``gi`` of table ``k`` of ``basin``: ``basin[(k * G + gi) * 4 n + 4 c + s]
    > 0`` when a lone box on cell ``c`` with the player on side ``s`` can be pushed onto
    goal ``goal_cells[gi]``, the walls and the goals of the goal entries (``>= 0``) among
    ``order[:k]`` blocked (a row of such a goal stays 0). A breadth-first search of
    pulls back from the goal over the player's regions around each cell (table ``k`` of
    ``sides``, made by :func:`_sides` on the first row of ``k``, ``sdone[k]`` set); 2
    marks a state whose region was taken. Returns False, the row left at 0, when
    ``ctr[C_HALT]`` is set while the sides are made (a table of a 48x48 board takes
    about a hundredth of a second)."""
    n = walls.shape[0]
    ng = goal_cells.shape[0]
    steps = (-width, -1, 1, width)
    for c in range(n):
        bblk[c] = walls[c]
    for i in range(k):
        if order[i] >= 0:
            bblk[order[i]] = 1
    if sdone[k] == 0:
        if not _sides(k, bblk, width, sides, bstamp, bqueue, rctr, ctr):
            return False
        sdone[k] = 1
    g = goal_cells[gi]
    if bblk[g]:
        return True
    base = (k * ng + gi) * 4 * n
    sb = k * 4 * n
    tail = 0
    for s in range(4):
        if bblk[g + steps[s]] == 0 and basin[base + 4 * g + s] == 0:
            basin[base + 4 * g + s] = 1
            bq4[tail] = 4 * g + s
            tail += 1
    head = 0
    while head < tail:
        st = bq4[head]
        head += 1
        if basin[base + st] == 2:
            continue  # its region was taken from another side
        c = st >> 2
        label = sides[sb + st]
        for s2 in range(4):
            if sides[sb + 4 * c + s2] != label:
                continue
            basin[base + 4 * c + s2] = 2  # the same region: the same state, taken
            # pull towards side s2: the box goes to p, the player to p + step
            p = c + steps[s2]
            q = p + steps[s2]
            if bblk[q] or basin[base + 4 * p + s2] != 0:
                continue
            basin[base + 4 * p + s2] = 1
            bq4[tail] = 4 * p + s2
            tail += 1
    return True


@njit(cache=True, _nrt=False)
def residual_stuck(pool, base, nbox, k, walls, order, width, res, ctr):
    """Whether the boxes ``pool[base:base + nbox]`` cannot finish the plan once the first
    ``k`` entries of ``order`` are packed (see the module doc). ``res`` holds the
    level's tables and work arrays (:func:`levelforge.sokoban.fess.residual_arrays`):
    ``(basin, bdone, goal_cells, gidx, opos, mg, mb, gseen, via, bq, bblk, bstamp,
    bqueue, bq4, sides, sdone, rctr)``; ``opos[gi]`` is the position of goal ``gi``'s entry in
    ``order``, ``gidx[c]`` the goal index of cell ``c`` (-1 off the goals). False when
    ``ctr[C_HALT]`` stops a table's row on the way (the search stops before its next
    expansion)."""
    basin, bdone, goal_cells, gidx, opos, mg, mb, gseen, via, bq = res[:10]
    bblk, bstamp, bqueue, bq4, sides, sdone, rctr = res[10:]
    if k <= 0 or basin.shape[0] == 0 or (k + 1) * goal_cells.shape[0] > bdone.shape[0]:
        return False
    n = walls.shape[0]
    ng = goal_cells.shape[0]
    rctr[R_CHECKS] += 1
    for gi in range(ng):
        mg[gi] = -1
    for q in range(nbox):
        gi = gidx[pool[base + q]]
        if gi >= 0 and opos[gi] < k:
            continue  # on a packed goal
        # an augmenting path from box q (breadth-first over boxes)
        mb[q] = -1
        rctr[R_SEEN] += 1
        ep = rctr[R_SEEN]
        bq[0] = q
        head = 0
        tail = 1
        found = -1
        while head < tail and found < 0:
            b = bq[head]
            head += 1
            off = k * ng * 4 * n + 4 * np.int64(pool[base + b])
            for g2 in range(ng):
                if opos[g2] < k or gseen[g2] == ep:
                    continue
                if bdone[k * ng + g2] == 0:  # this goal's row of table k, on first use
                    if not _basin(k, g2, walls, order, goal_cells, width, basin, bblk,
                                  bstamp, bqueue, bq4, sides, sdone, rctr, ctr):
                        return False
                    bdone[k * ng + g2] = 1
                o = off + g2 * 4 * n
                if basin[o] == 0 and basin[o + 1] == 0 and basin[o + 2] == 0 \
                        and basin[o + 3] == 0:
                    continue
                gseen[g2] = ep
                via[g2] = b
                if mg[g2] < 0:
                    found = g2
                    break
                bq[tail] = mg[g2]
                tail += 1
        if found < 0:
            rctr[R_STUCK] += 1
            return True
        g2 = found
        while True:
            b = via[g2]
            prev = mb[b]
            mg[g2] = b
            mb[b] = g2
            if b == q:
                break
            g2 = prev
    return False
