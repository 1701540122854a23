"""Incremental min-cost matching of boxes to goals for the solver's searches.

:func:`levelforge.engine.sokoban.matching_cost` solves the assignment from scratch, in
``O(n^3)`` for ``n`` boxes. A push moves one box, and the player's new region may change
which side of a few other boxes it reaches: only a few rows of the cost matrix change.
:func:`parent_matching` solves the expanded state once and keeps its optimal potentials
and assignment; :func:`child_matching` then repairs them for each child in ``O(k n^2)``
for ``k`` changed rows (each row is taken out, its potential lowered until every reduced
cost is non-negative again, and put back by one augmenting path), with the same optimal
cost as a fresh solve.

Work array ``mw`` (int64, ``8 * (n + 1)`` slots): the parent's potentials and
assignment (``pu``, ``pv``, ``pp``), its columns, the child's columns and boxes, and the
changed rows.
"""
import numpy as np
from numba import njit

from .sokoban_heuristic import box_columns, column_cost
from .sokoban_state import UNREACHABLE, _BIG


@njit(cache=True, _nrt=False)
def _add_row(i, cols, n, dist, hu, hv, hp, hway, hminv, hused):
    """Insert row ``i`` (1-based) into a partial optimal assignment by one shortest
    augmenting path (the Hungarian method's step; potentials ``hu``, ``hv``, ``hp[j]``
    the row of column ``j``, 0 if free)."""
    hp[0] = i
    j0 = 0
    for j in range(n + 1):
        hminv[j] = _BIG
        hused[j] = 0
    while True:
        hused[j0] = 1
        i0 = hp[j0]
        delta = _BIG
        j1 = 0
        col = cols[i0 - 1]
        for j in range(1, n + 1):
            if hused[j] == 0:
                cur = column_cost(dist, col, j - 1) - hu[i0] - hv[j]
                if cur < hminv[j]:
                    hminv[j] = cur
                    hway[j] = j0
                if hminv[j] < delta:
                    delta = hminv[j]
                    j1 = j
        for j in range(n + 1):
            if hused[j]:
                hu[hp[j]] += delta
                hv[j] -= delta
            else:
                hminv[j] -= delta
        j0 = j1
        if hp[j0] == 0:
            break
    while True:
        j1 = hway[j0]
        hp[j0] = hp[j1]
        j0 = j1
        if j0 == 0:
            break


@njit(cache=True, _nrt=False)
def _total(cols, n, dist, hp):
    total = np.int64(0)
    for j in range(1, n + 1):
        total += column_cost(dist, cols[hp[j] - 1], j - 1)
    return total if total < UNREACHABLE else np.int64(UNREACHABLE)


@njit(cache=True, _nrt=False)
def parent_matching(boxes, base, nbox, norm, compof, n, dist, mw, hway, hminv, hused):
    """Solve the matching of the state with boxes ``boxes[base:base + nbox]`` and
    normalised player ``norm`` from scratch and keep it in ``mw`` for
    :func:`child_matching`. Returns its cost (``UNREACHABLE`` if none)."""
    m = nbox + 1
    cbox = mw[5 * m:6 * m]
    for q in range(nbox):
        cbox[q] = boxes[base + q]
    box_columns(cbox, nbox, norm, compof, n, mw[3 * m:4 * m])
    return _solve_kept(nbox, dist, mw, hway, hminv, hused)


@njit(cache=True, _nrt=False)
def _solve_kept(nbox, dist, mw, hway, hminv, hused):
    """Solve the matching of the columns ``mw[3 m:4 m]`` (``m = nbox + 1``) from scratch,
    its potentials and assignment kept in ``mw[:3 m]``. Returns its cost."""
    m = nbox + 1
    pu = mw[0:m]
    pv = mw[m:2 * m]
    pp = mw[2 * m:3 * m]
    for j in range(m):
        pu[j] = 0
        pv[j] = 0
        pp[j] = 0
    for i in range(1, m):
        _add_row(i, mw[3 * m:4 * m], nbox, dist, pu, pv, pp, hway, hminv, hused)
    return _total(mw[3 * m:4 * m], nbox, dist, pp)


@njit(cache=True, _nrt=False)
def child_matching(boxes, base, nbox, moved, t, norm, compof, n, dist, mw, hu, hv, hp, hway,
                   hminv, hused):
    """The matching cost of the child where box ``moved`` (its index among
    ``boxes[base:base + nbox]``) stands on ``t`` and the player's region is normalised
    to ``norm``, repaired from the parent's in ``mw`` (:func:`parent_matching`)."""
    m = nbox + 1
    pcols = mw[3 * m:4 * m]
    ccols = mw[4 * m:5 * m]
    cbox = mw[5 * m:6 * m]
    changed = mw[6 * m:7 * m]
    for q in range(nbox):
        cbox[q] = boxes[base + q]
    cbox[moved] = t
    box_columns(cbox, nbox, norm, compof, n, ccols)
    _from_kept(m, mw, hu, hv, hp)
    k = 0
    for q in range(nbox):
        if ccols[q] != pcols[q]:
            changed[k] = q + 1
            k += 1
    for c in range(k):
        _reopen(changed[c], ccols[changed[c] - 1], m, dist, hu, hv, hp)
    for c in range(k):
        _add_row(changed[c], ccols, nbox, dist, hu, hv, hp, hway, hminv, hused)
    return _total(ccols, nbox, dist, hp)


@njit(cache=True, _nrt=False)
def _from_kept(m, mw, hu, hv, hp):
    """Start a child's repair from the potentials and assignment kept in ``mw``."""
    for j in range(m):
        hu[j] = mw[j]
        hv[j] = mw[m + j]
        hp[j] = mw[2 * m + j]


@njit(cache=True, _nrt=False)
def _reopen(r, col, m, dist, hu, hv, hp):
    """Take row ``r`` out of the assignment ``hp`` for its new column ``col``, its
    potential lowered until every reduced cost of the row is non-negative again (to be
    put back by :func:`_add_row`)."""
    for j in range(1, m):
        if hp[j] == r:
            hp[j] = 0
            break
    best = _BIG
    for j in range(1, m):
        v = column_cost(dist, col, j - 1) - hv[j]
        if v < best:
            best = v
    hu[r] = best


@njit(cache=True, _nrt=False)
def cells_matching(cells, base, nbox, dist, mw, hway, hminv, hused):
    """:func:`parent_matching` for costs that depend on the box's cell alone
    (``dist[target, cell]``, the backward search's pull distances): solve the matching
    of the boxes on ``cells[base:base + nbox]`` from scratch and keep it in ``mw``
    (``5 * (nbox + 1)`` slots) for :func:`moved_matching`. Returns its cost."""
    m = nbox + 1
    for q in range(nbox):
        mw[3 * m + q] = cells[base + q]
    return _solve_kept(nbox, dist, mw, hway, hminv, hused)


@njit(cache=True, _nrt=False)
def moved_matching(nbox, moved, t, dist, mw, hu, hv, hp, hway, hminv, hused):
    """The matching cost once box ``moved`` (its index in the cells given to
    :func:`cells_matching`) stands on cell ``t``, repaired from the one kept in ``mw``
    by one augmenting path (``O(n^2)``): the same cost as a fresh solve."""
    m = nbox + 1
    ccols = mw[4 * m:5 * m]
    for j in range(m):
        ccols[j] = mw[3 * m + j]
    ccols[moved] = t
    _from_kept(m, mw, hu, hv, hp)
    _reopen(moved + 1, t, m, dist, hu, hv, hp)
    _add_row(moved + 1, ccols, nbox, dist, hu, hv, hp, hway, hminv, hused)
    return _total(ccols, nbox, dist, hp)
