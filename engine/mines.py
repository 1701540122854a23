"""Kernels of 3D minesweeper: the game, and the assistant's constraints (building, reducing,
splitting into components; the counting is in ``mines_count``, the analysis in
``mines_enum``, no-guess boards in ``mines_gen``).

A board of ``width x height x depth`` cells is a flat array in C order of ``[z, y, x]``:
cell ``i = (z * height + y) * width + x``. Cell states are ``CLOSED``, ``OPEN``,
``FLAGGED`` (uint8); numbers are int8 (-1 where not known). The assistant marks cells
``UNKNOWN``, ``SAFE`` or ``MINE`` (int8) and works only on public arrays: cell states and
revealed numbers, never the minefield.

Constraints are rows of ``con_cells`` (at most 26 cells each, sorted ascending) with a
mine count ``con_cnt``; ``con_alive`` says which rows are still in use.
"""
from functools import lru_cache

import numpy as np
from numba import njit

from .grid import box_neighbours, rng_choose

CLOSED = 0
OPEN = 1
FLAGGED = 2

UNKNOWN = 0
SAFE = 1
MINE = 2

# per-component outcome of the count
COMP_OK = 0
COMP_OVER_CELLS = 1
COMP_OVER_NODES = 2

MAX_NB = 26


@lru_cache(maxsize=64)
def board_tables(width, height, depth):
    """Neighbour tables of a board, built once per shape (not a kernel).

    Returns ``(nb26, nb6, boundary)``: int32 ``[n, 26]`` and ``[n, 6]`` flat neighbour
    indices (-1 past the edge) and uint8 ``[n]`` (1 on the surface of the box).
    """
    shape = (int(depth), int(height), int(width))
    nb26 = np.ascontiguousarray(box_neighbours(shape, True))
    nb6 = np.ascontiguousarray(box_neighbours(shape, False))
    boundary = (nb6 < 0).any(axis=1).astype(np.uint8)
    for a in (nb26, nb6, boundary):
        a.setflags(write=False)
    return nb26, nb6, boundary


def binomial_table(size=MAX_NB + 1):
    """``table[n, k]`` = C(n, k) as float64 for ``0 <= k <= n < size``."""
    t = np.zeros((size, size), np.float64)
    for n in range(size):
        t[n, 0] = 1.0
        for k in range(1, n + 1):
            t[n, k] = t[n - 1, k - 1] + t[n - 1, k]
    return t


# --------------------------------------------------------------------------- game

@njit(cache=True)
def place_mines(nb26, start, n_mines, state, mine, cand):
    """Place ``n_mines`` mines uniformly, never on ``start`` or its 26 neighbours.

    ``state`` is the PRNG state (uint64[1]); ``mine`` (uint8, one per cell) is
    overwritten; ``cand`` is an int32 work array of one slot per cell. The caller
    guarantees enough free cells. Returns the number of candidate cells.
    """
    n = mine.shape[0]
    for i in range(n):
        mine[i] = 0
    mine[start] = 1
    for k in range(nb26.shape[1]):
        c = nb26[start, k]
        if c >= 0:
            mine[c] = 1
    m = 0
    for i in range(n):
        if mine[i] == 0:
            cand[m] = i
            m += 1
    for i in range(n):
        mine[i] = 0
    rng_choose(state, cand, np.int64(m), np.int64(n_mines))
    for i in range(n_mines):
        mine[cand[i]] = 1
    return m


@njit(cache=True)
def compute_numbers(mine, nb26, numbers):
    """``numbers[c]`` = mines among the up to 26 neighbours of ``c`` (int8 out)."""
    n = mine.shape[0]
    for c in range(n):
        s = 0
        for k in range(nb26.shape[1]):
            nb = nb26[c, k]
            if nb >= 0 and mine[nb] != 0:
                s += 1
        numbers[c] = s


@njit(cache=True)
def open_cascade(queue, n_seeds, mine, numbers, cell_state, nb26):
    """Open the cells ``queue[:n_seeds]``; a 0 opens its closed neighbours, recursively.

    Flagged cells are never opened by the cascade. Returns the number of cells opened
    (their indices are ``queue[:result]``), or ``-1 - c`` when seed ``c`` is a mine, in
    which case nothing is opened.
    """
    for i in range(n_seeds):
        if mine[queue[i]] != 0:
            return -1 - queue[i]
    tail = 0
    for i in range(n_seeds):
        c = queue[i]
        if cell_state[c] == CLOSED:
            cell_state[c] = OPEN
            queue[tail] = c
            tail += 1
    head = 0
    while head < tail:
        c = queue[head]
        head += 1
        if numbers[c] == 0:
            for k in range(nb26.shape[1]):
                nb = nb26[c, k]
                if nb >= 0 and cell_state[nb] == CLOSED:
                    cell_state[nb] = OPEN
                    queue[tail] = nb
                    tail += 1
    return tail


@njit(cache=True)
def selectable_mask(cell_state, boundary, nb6, out):
    """``out[c]`` = 1 when ``c`` may be chosen: flagged, or closed and on the surface.

    A closed cell is on the surface when it lies on the boundary of the box or one of
    its face neighbours is open or flagged. Open cells are never selectable.
    """
    n = cell_state.shape[0]
    for c in range(n):
        s = cell_state[c]
        if s == OPEN:
            out[c] = 0
        elif s == FLAGGED or boundary[c] != 0:
            out[c] = 1
        else:
            r = 0
            for k in range(nb6.shape[1]):
                nb = nb6[c, k]
                if nb >= 0 and cell_state[nb] != CLOSED:
                    r = 1
                    break
            out[c] = r


# ---------------------------------------------------------------- assistant: phase 1

@njit(cache=True, no_cpython_wrapper=True)
def _is_subset(con_cells, a, la, b, lb):
    """Whether the sorted row ``a`` (length la) is a subset of row ``b`` (length lb)."""
    j = 0
    for i in range(la):
        v = con_cells[a, i]
        while j < lb and con_cells[b, j] < v:
            j += 1
        if j == lb or con_cells[b, j] != v:
            return False
        j += 1
    return True


@njit(cache=True)
def build_constraints(cell_state, numbers, known, nb26, con_cells, con_len, con_cnt,
                      con_alive):
    """One constraint per open cell over its neighbours that are not known yet.

    Neighbours marked ``MINE`` in ``known`` (the caller marks flags so) count as mines,
    neighbours marked ``SAFE`` are left out. Returns the number of rows written, or -1
    when some open number cannot be met (more known mines than its value, or too few
    unknown neighbours left): a contradiction.
    """
    n = cell_state.shape[0]
    k = 0
    for c in range(n):
        if cell_state[c] != OPEN:
            continue
        mines = 0
        ln = 0
        for j in range(nb26.shape[1]):
            nb = nb26[c, j]
            if nb < 0 or cell_state[nb] == OPEN:
                continue
            kn = known[nb]
            if kn == MINE:
                mines += 1
            elif kn == UNKNOWN:
                # insertion keeps the row sorted
                p = ln
                while p > 0 and con_cells[k, p - 1] > nb:
                    con_cells[k, p] = con_cells[k, p - 1]
                    p -= 1
                con_cells[k, p] = nb
                ln += 1
        cnt = numbers[c] - mines
        if cnt < 0 or cnt > ln:
            return -1
        if ln == 0:
            continue
        con_len[k] = ln
        con_cnt[k] = cnt
        con_alive[k] = 1
        k += 1
    return k


@njit(cache=True, no_cpython_wrapper=True)
def _incidence(n, n_con, con_alive, con_len, con_cells, inc_ptr, inc_list):
    """CSR incidence of cells in the live constraint rows: the rows holding cell ``c``
    are ``inc_list[inc_ptr[c]:inc_ptr[c + 1]]``, in ascending order."""
    for c in range(n + 1):
        inc_ptr[c] = 0
    for k in range(n_con):
        if con_alive[k] != 0:
            for i in range(con_len[k]):
                inc_ptr[con_cells[k, i] + 1] += 1
    for c in range(n):
        inc_ptr[c + 1] += inc_ptr[c]
    for k in range(n_con):
        if con_alive[k] != 0:
            for i in range(con_len[k]):
                c = con_cells[k, i]
                inc_list[inc_ptr[c]] = k
                inc_ptr[c] += 1
    for c in range(n, 0, -1):
        inc_ptr[c] = inc_ptr[c - 1]
    inc_ptr[0] = 0


@njit(cache=True)
def reduce_constraints(n_con, con_cells, con_len, con_cnt, con_alive, known,
                       inc_ptr, inc_list):
    """Settle trivial constraints and subtract subsets, to a fixed point.

    A row whose count is 0 makes its cells SAFE, one whose count equals its length makes
    them MINE (written to ``known``); a row ``a`` contained in row ``b`` replaces ``b`` by
    ``b - a`` with count ``cnt[b] - cnt[a]`` (equal rows are merged). Known cells are
    removed from rows. ``inc_ptr`` (n + 1) and ``inc_list`` (26 per row) are work arrays.
    Returns the number of passes, or -1 on a contradiction.
    """
    n = known.shape[0]
    passes = 0
    while True:
        passes += 1
        changed = False
        # settle pass: drop known cells, settle all-safe / all-mine rows
        for k in range(n_con):
            if con_alive[k] == 0:
                continue
            ln = con_len[k]
            w = 0
            cnt = con_cnt[k]
            for i in range(ln):
                c = con_cells[k, i]
                kn = known[c]
                if kn == UNKNOWN:
                    con_cells[k, w] = c
                    w += 1
                elif kn == MINE:
                    cnt -= 1
            con_len[k] = w
            con_cnt[k] = cnt
            if cnt < 0 or cnt > w:
                return -1
            if w == 0:
                con_alive[k] = 0
            elif cnt == 0 or cnt == w:
                val = SAFE if cnt == 0 else MINE
                for i in range(w):
                    known[con_cells[k, i]] = val
                con_alive[k] = 0
                changed = True
        if changed:
            continue
        # subset pass over an incidence list of the live rows
        _incidence(n, n_con, con_alive, con_len, con_cells, inc_ptr, inc_list)
        for a in range(n_con):
            if con_alive[a] == 0:
                continue
            first = con_cells[a, 0]
            for p in range(inc_ptr[first], inc_ptr[first + 1]):
                b = inc_list[p]
                if b == a or con_alive[b] == 0 or con_alive[a] == 0:
                    continue
                la = con_len[a]
                lb = con_len[b]
                if lb < la or not _is_subset(con_cells, a, la, b, lb):
                    continue
                if lb == la:
                    if con_cnt[a] != con_cnt[b]:
                        return -1
                    con_alive[b] = 0
                    continue
                # b := b - a
                w = 0
                i = 0
                for j in range(lb):
                    v = con_cells[b, j]
                    while i < la and con_cells[a, i] < v:
                        i += 1
                    if i < la and con_cells[a, i] == v:
                        continue
                    con_cells[b, w] = v
                    w += 1
                con_len[b] = w
                con_cnt[b] -= con_cnt[a]
                changed = True
        if not changed:
            return passes


@njit(cache=True, no_cpython_wrapper=True)
def _find(parent, x):
    while parent[x] != x:
        parent[x] = parent[parent[x]]
        x = parent[x]
    return x


@njit(cache=True)
def split_components(n_con, con_cells, con_len, con_alive, merge_groups,
                     parent, group_of_cell, comp_gptr, comp_kptr, comp_cons,
                     grp_cptr, grp_cells, grp_size, inc_ptr, inc_list, stamp, work,
                     comp_start, fill):
    """Split live rows into connected components of cells, cells into groups.

    With ``merge_groups`` cells of a component that lie in exactly the same live rows
    form one group (interchangeable cells); otherwise every cell is its own group.
    Components are numbered by their smallest cell; groups are contiguous per component
    (``comp_gptr``), rows too (``comp_kptr``/``comp_cons``); ``grp_cptr``/``grp_cells``
    list the cells of each group. ``group_of_cell`` is -1 off the frontier.
    Returns ``(n_comps, n_groups)``.
    """
    n = group_of_cell.shape[0]
    for c in range(n):
        parent[c] = c
        group_of_cell[c] = -1
        stamp[c] = 0
    # union the cells of each row; mark frontier cells
    for k in range(n_con):
        if con_alive[k] == 0:
            continue
        r0 = _find(parent, np.int64(con_cells[k, 0]))
        stamp[con_cells[k, 0]] = 1
        for i in range(1, con_len[k]):
            c = con_cells[k, i]
            stamp[c] = 1
            r = _find(parent, np.int64(c))
            if r != r0:
                if r < r0:
                    parent[r0] = r
                    r0 = r
                else:
                    parent[r] = r0
    # incidence of cells in live rows (rows sorted ascending per cell)
    _incidence(n, n_con, con_alive, con_len, con_cells, inc_ptr, inc_list)
    # component id of each root, in order of smallest cell (work = comp id of root)
    n_comps = 0
    for c in range(n):
        work[c] = -1
    for c in range(n):
        if stamp[c] != 0 and _find(parent, c) == c:
            work[c] = n_comps
            n_comps += 1
    # count cells per component -> cell order by component (reuse parent as roots)
    for c in range(n):
        if stamp[c] != 0:
            group_of_cell[c] = _find(parent, c)
    for c in range(n):
        if stamp[c] != 0:
            parent[c] = work[group_of_cell[c]]
            group_of_cell[c] = -1
        else:
            parent[c] = -1
    # now parent[c] = comp id or -1. Build groups component by component.
    # cells of comp in ascending order: counting sort into grp_cells order buffer
    for i in range(n_comps + 1):
        comp_start[i] = 0
    for c in range(n):
        if parent[c] >= 0:
            comp_start[parent[c] + 1] += 1
    for i in range(n_comps):
        comp_start[i + 1] += comp_start[i]
    for i in range(n_comps):
        fill[i] = comp_start[i]
    for c in range(n):
        if parent[c] >= 0:
            work[fill[parent[c]]] = c
            fill[parent[c]] += 1
    n_groups = 0
    n_gcells = 0
    comp_gptr[0] = 0
    for ci in range(n_comps):
        g0 = n_groups
        for p in range(comp_start[ci], comp_start[ci + 1]):
            c = work[p]
            found = -1
            if merge_groups:
                lc = inc_ptr[c + 1] - inc_ptr[c]
                for g in range(g0, n_groups):
                    r = grp_cells[grp_cptr[g]]
                    if inc_ptr[r + 1] - inc_ptr[r] != lc:
                        continue
                    same = True
                    for i in range(lc):
                        if inc_list[inc_ptr[r] + i] != inc_list[inc_ptr[c] + i]:
                            same = False
                            break
                    if same:
                        found = g
                        break
            if found < 0:
                grp_size[n_groups] = 1
                grp_cptr[n_groups] = n_gcells
                grp_cells[n_gcells] = c
                n_gcells += 1
                group_of_cell[c] = n_groups
                n_groups += 1
            else:
                group_of_cell[c] = found
                grp_size[found] += 1
        # lay out group cells contiguously (groups other than the last may have grown)
        base = grp_cptr[g0]
        pos = base
        for g in range(g0, n_groups):
            grp_cptr[g] = pos
            pos += grp_size[g]
        grp_cptr[n_groups] = pos
        for g in range(g0, n_groups):
            grp_size[g] = 0
        for p in range(comp_start[ci], comp_start[ci + 1]):
            c = work[p]
            g = group_of_cell[c]
            grp_cells[grp_cptr[g] + grp_size[g]] = c
            grp_size[g] += 1
        n_gcells = pos
        comp_gptr[ci + 1] = n_groups
    # rows per component
    comp_kptr[0] = 0
    for ci in range(n_comps):
        comp_kptr[ci + 1] = 0
    for k in range(n_con):
        if con_alive[k] != 0:
            comp_kptr[parent[con_cells[k, 0]] + 1] += 1
    for ci in range(n_comps):
        comp_kptr[ci + 1] += comp_kptr[ci]
    for ci in range(n_comps):
        fill[ci] = comp_kptr[ci]
    for k in range(n_con):
        if con_alive[k] != 0:
            ci = parent[con_cells[k, 0]]
            comp_cons[fill[ci]] = k
            fill[ci] += 1
    return n_comps, n_groups
