"""A pattern database over box pairs for the push-optimal search: the exact pushes that
bring two boxes, alone on the board, onto two goals, for every pair of live cells and
every player cell (a retrograde breadth-first search of pulls from the goal pairs, built
once per solve), and the lower bound it gives on a state of many boxes. Built with
pushes from the start cells instead (``pair_build``'s ``pushes``), the same table holds
the pulls that bring two boxes home, and its dead pairs prune the backward search.

Why the bound is admissible. Take any solution of a state and two of its boxes ``i``,
``j``. Delete the other boxes: every walk of the player stays legal (fewer obstacles) and
the pushes of ``i`` and ``j`` happen in the same order, so they solve the two-box
problem from the same player cell; hence ``pushes(i) + pushes(j) >= pair(i, j)``. A
lone box likewise needs ``pushes(u) >= single(u)`` (its push distance from the side the
player reaches, as the matching uses). For disjoint pairs and the remaining singles the
pushes add up to at most the solution's total, so ``sum(pair) + sum(single)`` is a lower
bound for ANY choice of disjoint pairs (the greedy choice below is just one), and the
maximum of two lower bounds (this and the min-cost matching) is one too. A pair with no
two-box solution proves the whole state unsolvable (the same argument).

The A* of :mod:`levelforge.engine.sokoban` reopens states reached more cheaply; with an
admissible bound that keeps every solution push-optimal (the parent popped has
``f <= optimum`` and ``h >= 1``), consistency is not needed. It stores a child with its
matching cost and takes this bound lazily, when the child is popped (most stored
children are never expanded): a larger bound sends it back into the heap with the
larger key, a pair deadlock drops it; every key stays a lower bound, so the same
argument holds. A child whose pushed box has a dead pair is not even stored
(:func:`pair_dead`: only that box's pairs can have changed, one look-up each).

Two stronger-looking variants were measured and dropped: the best choice of disjoint
pairs (all subsets of the positive-gain pairs) instead of the greedy one, and the
unpaired boxes' min-cost assignment to distinct goals instead of their singles (also
admissible). Neither changed the bound at the start of any XSokoban (up to 30 boxes)
or Microban level, nor the search: XSokoban 43 expanded the same 3,486,305 states with
the best choice, and 3, 43, 51, 80 and 83 the same states with the assignment.

Layout of the one int32 array ``pdb`` (see :func:`pair_table_size`): ``pdb[0] = L`` live
cells, ``pdb[1] = F`` floor cells, ``pdb[2] = n`` cells, ``pdb[3] = k`` boxes, then
``lidx[n]`` (live index or -1), ``fidx[n]`` (floor index or -1), ``lcell[n]`` and
``fcell[n]`` (the cells of those indices), the table
``[(a * L + b) * F + p]`` for live indices ``a < b`` (-1: no solution), each distance
column's least push distance over the goals (``4 * n`` slots: a box's single cost in
one look-up), and a work area of ``2 * k + 3 * k * (k - 1) / 2`` slots for the pairing
(see :func:`pair_bound`).
"""
import numpy as np
from numba import njit

from .sokoban_heuristic import column_cost
from .sokoban_state import C_HALT, UNREACHABLE
from .sokoban_triples import triple_dead

HEAD = 4
PENALTY_SHIFT = 16
VALUE = (1 << PENALTY_SHIFT) - 1
"""A table entry's pushes (its low bits); the bits above hold the pair's penalty over
the matching (:func:`penalty_fold`), 0 where none was built."""


def pair_table_size(live, floor, cells, boxes):
    """Slots of the ``pdb`` array for ``live`` live cells, ``floor`` floor cells, a board
    of ``cells`` cells and ``boxes`` boxes."""
    return HEAD + 8 * cells + live * live * floor + 2 * boxes + 3 * boxes * (boxes - 1) // 2


@njit(cache=True, _nrt=False, nogil=True)
def pair_build(walls, dead, goal_cells, width, pdb, cur, nxt, ctr, pushes):
    """Fill ``pdb`` (header, indices and table already sized by the caller: ``pdb[:4]``
    and the index maps set, the table to be written) by a layered breadth-first search
    of pulls from every state with both boxes on goals: walking costs 0, a pull 1.
    ``cur`` and ``nxt`` are int32 work arrays of ``L * L * F`` slots each. A state's
    value is the least number of pushes that puts both boxes on goals. Returns False,
    the table unfinished, when ``ctr[C_HALT]`` was set (looked at every 2^14 states and
    every layer).

    ``pushes`` (nonzero) turns every move round, for the backward search over pulls
    (:mod:`levelforge.engine.sokoban_backward`): the search goes by *pushes* from the
    states with both boxes on ``goal_cells`` (there the start cells), so a state's value
    is the least number of pulls that brings both boxes onto those cells, and -1 (the
    pair is dead) where no pulls do."""
    steps = (-width, -1, 1, width)
    L = pdb[0]
    F = pdb[1]
    n = pdb[2]
    lidx = HEAD
    fidx = HEAD + n
    lcell = HEAD + 2 * n
    fcell = HEAD + 3 * n
    tab = HEAD + 4 * n
    size = L * L * F
    for i in range(size):
        pdb[tab + i] = -1
    ncur = 0
    ng = goal_cells.shape[0]
    for x in range(ng):
        for y in range(x + 1, ng):
            a = pdb[lidx + goal_cells[x]]
            b = pdb[lidx + goal_cells[y]]
            if a < 0 or b < 0:
                continue
            if a > b:
                a, b = b, a
            for c in range(n):
                p = pdb[fidx + c]
                if p < 0 or c == goal_cells[x] or c == goal_cells[y]:
                    continue
                s = (a * L + b) * F + p
                if pdb[tab + s] < 0:
                    pdb[tab + s] = 0
                    cur[ncur] = s
                    ncur += 1
    d = 0
    while ncur > 0:
        if ctr[C_HALT] != 0:  # each layer too: a goal pair's search may be smaller than 2^14
            return False
        nnxt = 0
        i = 0
        while i < ncur:
            s = cur[i]
            i += 1
            if (i & 0x3FFF) == 0 and ctr[C_HALT] != 0:
                return False
            if pdb[tab + s] != d:
                continue
            p = s % F
            ab = s // F
            a = ab // L
            b = ab % L
            pc = pdb[fcell + p]
            ca = pdb[lcell + a]
            cb = pdb[lcell + b]
            for k in range(4):
                q = pc + steps[k]
                if walls[q] or pdb[fidx + q] < 0:
                    continue
                if q == ca or q == cb:
                    other = b if q == ca else a
                    if pushes:  # a push: the box on q goes on to q + step, the player to q
                        to = q + steps[k]
                        if walls[to] or to == ca or to == cb:
                            continue
                        moved = pdb[lidx + to]
                        at = q
                    else:  # a pull: the box on q follows the player stepping to pc - step
                        at = pc - steps[k]
                        if walls[at] or at == ca or at == cb:
                            continue
                        moved = pdb[lidx + pc]
                    if moved < 0 or pdb[fidx + at] < 0:
                        continue
                    na, nb = (moved, other) if moved < other else (other, moved)
                    t = (na * L + nb) * F + pdb[fidx + at]
                    if pdb[tab + t] < 0 or pdb[tab + t] > d + 1:
                        pdb[tab + t] = d + 1
                        nxt[nnxt] = t
                        nnxt += 1
                else:  # a walk: same distance
                    t = ab * F + pdb[fidx + q]
                    if pdb[tab + t] < 0 or pdb[tab + t] > d:
                        pdb[tab + t] = d
                        cur[ncur] = t
                        ncur += 1
        d += 1
        ncur = 0
        for j in range(nnxt):  # each state once: drop those settled nearer since
            if pdb[tab + nxt[j]] == d:
                cur[ncur] = nxt[j]
                ncur += 1
    return True


@njit(cache=True, _nrt=False)
def pair_bound(h, wbox, nbox, player, cols, pdb):
    """The larger of ``h`` (the matching cost of boxes ``wbox[:nbox]``, columns ``cols``
    from :func:`levelforge.engine.sokoban_heuristic.box_columns`) and the pair bound:
    each box's single cost (its column's least push distance over the goals, kept in the
    database) plus, over disjoint pairs chosen greedily by largest gain,
    ``pair - single - single`` where a pair's table value beats its two singles.
    ``UNREACHABLE`` when a pair of boxes has no two-box solution from the player cell
    ``player``. Any choice of disjoint pairs gives a lower bound (module docstring), so
    the greedy choice keeps admissibility."""
    if h >= UNREACHABLE or pdb.shape[0] <= 1:
        return h  # a dead end already, or no database (an empty or one-slot array)
    L = pdb[0]
    F = pdb[1]
    n = pdb[2]
    tab = HEAD + 4 * n
    least = tab + L * L * F
    single = least + 4 * n
    used = single + nbox
    pairs = used + nbox
    p = pdb[HEAD + n + player]
    total = np.int64(0)
    for i in range(nbox):
        if pdb[HEAD + wbox[i]] < 0:
            return h  # a box off the live cells: the table says nothing
        col = cols[i]
        if col >= 0:
            best = np.int64(pdb[least + col])
        else:  # the best side
            b4 = least + 4 * (-col - 1)
            best = np.int64(min(min(pdb[b4], pdb[b4 + 1]), min(pdb[b4 + 2], pdb[b4 + 3])))
        pdb[single + i] = best
        total += best
    m = 0
    for i in range(nbox):
        a = pdb[HEAD + wbox[i]]
        for j in range(i + 1, nbox):
            b = pdb[HEAD + wbox[j]]
            v = pdb[tab + ((a * L + b) if a < b else (b * L + a)) * F + p]
            if v < 0:
                return np.int64(UNREACHABLE)
            gain = (v & VALUE) - pdb[single + i] - pdb[single + j]
            if gain > 0 or v > VALUE:  # beats its singles, or a penalty (high bits)
                pdb[pairs + 3 * m] = i
                pdb[pairs + 3 * m + 1] = j
                pdb[pairs + 3 * m + 2] = max(gain, 0) | (v & ~VALUE)
                m += 1
    total += _greedy(pdb, used, pairs, m, nbox, VALUE, 0)
    return max(h, total, h + _greedy(pdb, used, pairs, m, nbox, ~VALUE, PENALTY_SHIFT))


@njit(cache=True, _nrt=False)
def _greedy(pdb, used, pairs, m, nbox, bits, shift):
    """The sum over disjoint pairs chosen greedily, largest first, of the value in
    ``bits`` (shifted down by ``shift``) of the ``m`` candidates at ``pairs``
    (``i, j, value`` each); ``used`` (``nbox`` slots) is cleared first."""
    for i in range(nbox):
        pdb[used + i] = 0
    total = np.int64(0)
    while True:
        best = 0
        pick = -1
        for q in range(m):
            g = (pdb[pairs + 3 * q + 2] & bits) >> shift
            if g > best and pdb[used + pdb[pairs + 3 * q]] == 0 \
                    and pdb[used + pdb[pairs + 3 * q + 1]] == 0:
                best = g
                pick = q
        if pick < 0:
            break
        pdb[used + pdb[pairs + 3 * pick]] = 1
        pdb[used + pdb[pairs + 3 * pick + 1]] = 1
        total += best
    return total


@njit(cache=True, _nrt=False)
def pair_dead(pdb, wbox, nbox, cell, player):
    """True when the box on ``cell`` and another box of ``wbox[:nbox]`` (sorted cells)
    have no two-box solution from the player cell ``player``: a deadlock, by the
    argument of the module docstring (delete every other box). The searches prune each
    child with it (not the generator's), checking only the pairs of the box just moved:
    the others, and their player area, are as they were in the parent. False without a
    database (an array of at most one slot) or with ``cell`` off its live cells."""
    if pdb.shape[0] <= 1:
        return False
    L = pdb[0]
    F = pdb[1]
    n = pdb[2]
    a = pdb[HEAD + cell]
    p = pdb[HEAD + n + player]
    if a < 0 or p < 0:
        return False
    tab = HEAD + 4 * n
    for i in range(nbox):
        c = wbox[i]
        if c == cell:
            continue
        b = pdb[HEAD + c]
        if b >= 0 and pdb[tab + ((a * L + b) if a < b else (b * L + a)) * F + p] < 0:
            return True
    return triple_dead(pdb, wbox, nbox, cell, player)


@njit(cache=True, _nrt=False, nogil=True)
def penalty_fold(pdb, work, g1, g2, dist, compof, pen):
    """Fold one goal pair into the penalties ``pen`` (one slot per table state, start
    large): ``work`` holds the pair table of a search of pulls from goals ``g1`` and
    ``g2`` only (:func:`pair_build` with those two goal cells), so its value is the
    exact pushes that put the two boxes onto exactly those goals. Each state's penalty
    becomes the least, over goal pairs, of that value less the boxes' cheaper
    assignment to the two goals by lone push distances (``dist`` rows ``g1``, ``g2``,
    the column of each box's side the player reaches, as the matching takes it:
    ``compof``).

    Why the matching plus the penalties of disjoint pairs is a lower bound: a solution
    puts every box on a goal; for each pair, its pushes are at least the exact value for
    its two final goals, which is at least the pair's assignment to them plus the
    penalty; the pairs' assignments and the other boxes' distances to their final goals
    make a perfect matching, which costs at least the min-cost one."""
    L = pdb[0]
    F = pdb[1]
    n = pdb[2]
    tab = HEAD + 4 * n
    lcell = HEAD + 2 * n
    fcell = HEAD + 3 * n
    for a in range(L):
        ca = pdb[lcell + a]
        for b in range(a + 1, L):
            cb = pdb[lcell + b]
            for p in range(F):
                s = (a * L + b) * F + p
                e = work[tab + s]
                if e < 0:
                    continue
                pc = pdb[fcell + p]
                a1 = _lone(dist, g1, ca, compof[ca * n + pc])
                a2 = _lone(dist, g2, ca, compof[ca * n + pc])
                b1 = _lone(dist, g1, cb, compof[cb * n + pc])
                b2 = _lone(dist, g2, cb, compof[cb * n + pc])
                least = min(a1 + b2, a2 + b1)
                if least >= UNREACHABLE:
                    continue
                v = e - least
                if v < pen[s]:
                    pen[s] = v


@njit(cache=True, _nrt=False)
def _lone(dist, g, c, k):
    """Box on ``c``'s push distance to goal row ``g`` from side ``k`` (the best side
    when ``k < 0``), as the matching reads it
    (:func:`levelforge.engine.sokoban_heuristic.column_cost`)."""
    return column_cost(dist, 4 * c + k if k >= 0 else -(c + 1), g)
