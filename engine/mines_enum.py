"""The assistant's analysis of a position, in one kernel: constraints from the open numbers,
reduction, components, exact counting (``mines_count``) or, over the state budget, the
witness search (``mines_witness``), and the global mine count.
"""
import numpy as np
from numba import njit

from .mines import (CLOSED, COMP_OK, COMP_OVER_CELLS, COMP_OVER_NODES,
                    FLAGGED, MINE, SAFE, UNKNOWN, build_constraints, reduce_constraints,
                    split_components)
from .mines_count import (HI, LO, NEED_STATES, backward_pass, bfs_order, component_system,
                          forward_pass, global_combine)
from .mines_witness import witness_search

# exact mode counts components of up to this many cells (weights stay below 2**1000)
MAX_EXACT_CELLS = 900

# params of analyze_position (P_EPOCH is the hash table's stamp, kept from call to call;
# P_REDUCE_FIRST: stop before counting when the reduction proved a cell; P_PUBLIC: the
# position is a public observation, see analyze_position; P_WITNESS: a component over
# the state budget still gets its certain cells, by witness_components called after it)
(P_REMAINING, P_EXACT, P_MERGE, P_MAX_GROUPS, P_MAX_NODES, P_EPOCH, P_REDUCE_FIRST,
 P_PUBLIC, P_WITNESS) = range(9)
N_PARAMS = 9

# res of analyze_position
R_CODE, R_COMPS, R_SKIPPED, R_NODES, R_SAFE, R_MINES = 0, 1, 2, 3, 4, 5
N_RES = 6

# analysis outcome (res[R_CODE] when >= 0)
A_OK = 0
A_CONTRADICTION = 1
A_REDUCED = 2

N_REGIONS = 34      # int32 rows of n + 2 (the last three hold the layers of every component)


def int_work_shapes(n):
    """Shapes of the two int32 work arrays of :func:`analyze_position` for ``n`` cells."""
    return (4, 26 * n), (N_REGIONS, n + 2)


def byte_work_size(n):
    """Length of the uint8 work array of :func:`analyze_position`."""
    return 4 * (n + 2)


def float_work_size(n):
    """Length of the float64 work array of :func:`analyze_position`."""
    return 3 * (n + 2) + 3


def log_count_index(n):
    """Where :func:`analyze_position` leaves, in its float64 work array, the natural log of
    the number of mine placements the position allows (exact mode with every component
    counted; NaN otherwise)."""
    return 3 * (n + 2) + 2


@njit(cache=True)
def analyze_position(state, numbers, nb26, known, prob, cells_out, params, res, iw, ir, u8,
                     fw, st, ed, keys, ht, fp, bq, bf, gw, gb, binom):
    """Prove what the open numbers allow: the assistant's analysis, in one call.

    Rows come from the open cells over their neighbours not known yet; they are reduced
    (single numbers, subsets), split into components and counted. ``params`` holds the
    remaining mine count, exact mode, whether interchangeable cells merge into groups,
    the caps (groups per component, states per component), the hash epoch,
    ``P_REDUCE_FIRST`` and ``P_PUBLIC``.

    With ``P_PUBLIC`` the position is a public observation (``state``/``numbers`` flat;
    ``params[P_REMAINING]`` is mines minus flags): ``known`` starts from the flags, the
    count is used when it is 0 or equals the closed cells, and ``cells_out`` gets the
    closed cells proved safe, then those proved mines (``res[R_SAFE]``/``res[R_MINES]``).
    Otherwise ``known`` is given (updated in place) and the count is not used unless in
    exact mode. In exact mode the components are combined with the remaining mines and
    ``prob`` gets every closed cell's mine probability (NaN when a component was
    skipped) and ``fw[log_count_index(n)]`` the log of the number of placements. With
    ``P_REDUCE_FIRST`` the counting is left out when the reduction alone proved a cell
    (``res[R_CODE] = A_REDUCED``). ``res`` gets the outcome (``A_OK``,
    ``A_CONTRADICTION``, ``A_REDUCED`` or a ``NEED_*`` code: grow that array and call
    again), the components, those skipped over a cap and the states visited. The witness
    search (``P_WITNESS``) is :func:`witness_components`, called after this.
    """
    n = state.shape[0]
    exact = params[P_EXACT] != 0
    merge = params[P_MERGE] != 0
    max_groups = params[P_MAX_GROUPS]
    max_nodes = params[P_MAX_NODES]
    remaining = params[P_REMAINING]
    reduce_first = params[P_REDUCE_FIRST] != 0
    ep = params[P_EPOCH:P_EPOCH + 1]
    con_cells = iw[0].reshape((n, 26))
    inc_list = iw[1]
    c_grp = iw[2]
    g_con = iw[3]
    con_len = ir[0]
    con_cnt = ir[1]
    inc_ptr = ir[2]
    parent = ir[3]
    gcell = ir[4][:n]
    comp_gptr = ir[5]
    comp_kptr = ir[6]
    comp_cons = ir[7]
    grp_cptr = ir[8]
    grp_cells = ir[9]
    grp_size = ir[10]
    stamp = ir[11]
    work = ir[12]
    work2 = ir[13]
    work3 = ir[14]
    c_ptr = ir[15]
    g_ptr = ir[16]
    order_all = ir[17]
    alt = ir[18]
    pos = ir[19]
    last = ir[20]
    rem = ir[21]
    slot = ir[22]
    open_a = ir[23]
    open_b = ir[24]
    src = ir[25]
    addg = ir[26]
    keybuf = ir[27]
    comp_final = ir[28]
    ccnt = ir[29]
    cstat = ir[30]
    lay_all = ir[31:34].reshape(3 * (n + 2))
    con_alive = u8[0:n + 2]
    hm = u8[n + 2:2 * (n + 2)]
    hs = u8[2 * (n + 2):3 * (n + 2)]
    ones_b = u8[3 * (n + 2):4 * (n + 2)]
    ge = fw[0:n + 2]
    gz = fw[n + 2:2 * (n + 2)]
    ones = fw[2 * (n + 2):3 * (n + 2)]
    out2 = fw[3 * (n + 2):3 * (n + 2) + 3]
    qoff = work3
    chk = np.empty((27, 3), np.int64)
    top = np.zeros(4, np.int64)
    top_save = np.zeros(4, np.int64)
    for i in range(N_RES):
        res[i] = 0
    out2[2] = np.nan
    if params[P_PUBLIC] != 0:
        n_closed = 0
        for c in range(n):
            known[c] = MINE if state[c] == FLAGGED else UNKNOWN
            prob[c] = np.nan
            if state[c] == CLOSED:
                n_closed += 1
        if remaining < 0 or remaining > n_closed:
            res[R_CODE] = A_CONTRADICTION
            return
        if remaining == 0 or remaining == n_closed:
            mark = SAFE if remaining == 0 else MINE
            for c in range(n):
                if state[c] == CLOSED:
                    known[c] = mark
    n_con = build_constraints(state, numbers, known, nb26, con_cells, con_len, con_cnt,
                              con_alive)
    unknown_before = 0
    if reduce_first:
        for c in range(n):
            if known[c] == UNKNOWN:
                unknown_before += 1
    if n_con < 0 or reduce_constraints(n_con, con_cells, con_len, con_cnt, con_alive, known,
                                       inc_ptr, inc_list) < 0:
        res[R_CODE] = A_CONTRADICTION
        return
    if reduce_first:
        for c in range(n):
            if known[c] == UNKNOWN:
                unknown_before -= 1
        if unknown_before > 0:
            res[R_CODE] = A_REDUCED
            return
    n_comps, _ = split_components(n_con, con_cells, con_len, con_alive, merge, parent, gcell,
                                  comp_gptr, comp_kptr, comp_cons, grp_cptr, grp_cells,
                                  grp_size, inc_ptr, inc_list, stamp, work, work2, work3)
    res[R_COMPS] = n_comps
    for i in range(n + 2):
        stamp[i] = -1
    skipped = 0
    nodes = 0
    for ci in range(n_comps):
        g0 = comp_gptr[ci]
        ng = comp_gptr[ci + 1] - g0
        if ng > max_groups or (exact and grp_cptr[g0 + ng] - grp_cptr[g0] > MAX_EXACT_CELLS):
            cstat[ci] = COMP_OVER_CELLS
            skipped += 1
            continue
        nk = component_system(ci, comp_gptr, comp_kptr, comp_cons, gcell, con_cells, con_len,
                              con_cnt, c_ptr, c_grp, g_ptr, g_con, ccnt, stamp)
        order = order_all[g0:g0 + ng]
        lay = lay_all[g0 + 2 * ci:g0 + 2 * ci + ng + 2]
        # breadth-first from group 0, or from where that order ends; each with a sixteenth
        # of the budget first (one of the two is often far cheaper), then the whole budget
        for i in range(4):
            top_save[i] = top[i]
        for attempt in range(4):
            if attempt > 0:
                if ng < 3:
                    break
                for i in range(4):
                    top[i] = top_save[i]
            bfs_order(ng, np.int64(0), c_ptr, c_grp, g_ptr, g_con, order, pos)
            if attempt % 2 == 1:
                bfs_order(ng, np.int64(order[ng - 1]), c_ptr, c_grp, g_ptr, g_con, alt, pos)
                for i in range(ng):
                    order[i] = alt[i]
            budget = max_nodes if attempt >= 2 or ng < 3 else max(max_nodes // 16, 1)
            r = forward_pass(ng, grp_size[g0:g0 + ng], nk, ccnt, c_ptr, c_grp, g_ptr, g_con,
                             order, exact, budget, top, st, ed, keys, ht, ep, fp, binom, lay,
                             pos, last, rem, slot, open_a, open_b, src, addg, keybuf, chk)
            if r != -1:
                break
        if r <= NEED_STATES:
            res[R_CODE] = r
            return
        if r == -1:
            cstat[ci] = COMP_OVER_NODES
            skipped += 1
            nodes += max_nodes
        elif r == -2:
            res[R_CODE] = A_CONTRADICTION
            return
        else:
            cstat[ci] = COMP_OK
            nodes += r
            comp_final[ci] = lay[ng]
    res[R_SKIPPED] = skipped
    res[R_NODES] = nodes
    use_global = exact and skipped == 0
    for i in range(n + 2):
        ones[i] = 1.0
        ones_b[i] = 1
    if use_global:
        settled = 0
        u = 0
        for c in range(n):
            if state[c] == CLOSED and gcell[c] < 0:
                if known[c] == MINE:
                    settled += 1
                elif known[c] == UNKNOWN:
                    u += 1
        code = global_combine(np.int64(n_comps), comp_final, st, fp,
                              np.int64(remaining - settled), np.int64(u), gw, gb,
                              qoff, out2)
        if code < 0:
            res[R_CODE] = code
            return
        if code == 0:
            res[R_CODE] = A_CONTRADICTION
            return
        if u > 0:
            mark = SAFE if out2[1] == 1 else (MINE if out2[1] == 2 else UNKNOWN)
            for c in range(n):
                if state[c] == CLOSED and gcell[c] < 0 and known[c] == UNKNOWN:
                    prob[c] = out2[0]
                    known[c] = mark
    for ci in range(n_comps):
        if cstat[ci] != COMP_OK:
            continue
        g0 = comp_gptr[ci]
        ng = comp_gptr[ci + 1] - g0
        gsize = grp_size[g0:g0 + ng]
        lay = lay_all[g0 + 2 * ci:g0 + 2 * ci + ng + 2]
        if use_global:
            fin = comp_final[ci]
            span = st[fin, HI] - st[fin, LO] + 1
            q = gw[qoff[ci]:qoff[ci] + span]
            qf = gb[qoff[ci]:qoff[ci] + span]
        else:
            q = ones
            qf = ones_b
        backward_pass(ng, gsize, order_all[g0:g0 + ng], exact, lay, st, ed, fp, bq, bf, binom,
                      q, qf, ge, gz, hm, hs)
        for g in range(ng):
            mark = UNKNOWN
            if hm[g] == 0:
                mark = SAFE
            elif hs[g] == 0:
                mark = MINE
            p = np.nan
            if use_global:
                p = ge[g] / gz[g] / gsize[g]
                p = min(max(p, 0.0), 1.0)
            for q2 in range(grp_cptr[g0 + g], grp_cptr[g0 + g + 1]):
                c = grp_cells[q2]
                known[c] = mark
                prob[c] = p
    if use_global:
        for c in range(n):
            if state[c] == CLOSED:
                if known[c] == SAFE:
                    prob[c] = 0.0
                elif known[c] == MINE:
                    prob[c] = 1.0
    res[R_CODE] = A_OK
    if params[P_PUBLIC] != 0:
        _list_proved(state, known, cells_out, res)


@njit(cache=True, no_cpython_wrapper=True)
def _list_proved(state, known, cells_out, res):
    """``cells_out``: the closed cells proved safe, then those proved mines."""
    ns = 0
    for c in range(state.shape[0]):
        if state[c] == CLOSED and known[c] == SAFE:
            cells_out[ns] = c
            ns += 1
    nm = 0
    for c in range(state.shape[0]):
        if state[c] == CLOSED and known[c] == MINE:
            cells_out[ns + nm] = c
            nm += 1
    res[R_SAFE] = ns
    res[R_MINES] = nm


@njit(cache=True)
def witness_components(state, known, cells_out, params, res, iw, ir, u8):
    """The witness search (``mines_witness``) on every component that
    :func:`analyze_position` left over its state budget, after it returned ``A_OK``
    (its work arrays as it left them): proved cells join ``known`` and, with
    ``P_PUBLIC``, ``cells_out``; ``res`` gets the nodes, or ``A_CONTRADICTION``. A kernel
    of its own, so that only the complete assistant compiles the witness search."""
    n = state.shape[0]
    exact = params[P_EXACT] != 0
    max_nodes = params[P_MAX_NODES]
    remaining = params[P_REMAINING]
    con_cells = iw[0].reshape((n, 26))
    c_grp = iw[2]
    g_con = iw[3]
    gcell = ir[4][:n]
    grp_cptr = ir[8]
    grp_cells = ir[9]
    grp_size = ir[10]
    c_ptr = ir[15]
    g_ptr = ir[16]
    order_all = ir[17]
    ccnt = ir[29]
    cstat = ir[30]
    hm = u8[n + 2:2 * (n + 2)]
    hs = u8[2 * (n + 2):3 * (n + 2)]
    for ci in range(res[R_COMPS]):
        if cstat[ci] != COMP_OVER_NODES:
            continue
        g0 = ir[5][ci]
        ng = ir[5][ci + 1] - g0
        nk = component_system(ci, ir[5], ir[6], ir[7], gcell, con_cells, ir[0], ir[1], c_ptr,
                              c_grp, g_ptr, g_con, ccnt, ir[11])
        m_hi = np.int64(grp_cptr[g0 + ng] - grp_cptr[g0])
        if exact and remaining < m_hi:
            m_hi = remaining
        w, _ = witness_search(ng, grp_size[g0:g0 + ng], nk, ccnt, c_ptr, c_grp, g_ptr, g_con,
                              m_hi, max_nodes, hm, hs, order_all[g0:g0 + ng], ir[19], ir[20],
                              ir[23], ir[24], ir[21], np.empty(ng + 1, np.int32),
                              np.empty(26 * ng + 27, np.int32), np.empty((ng + 1, 4), np.int64))
        if w == -2:
            res[R_CODE] = A_CONTRADICTION
            res[R_SKIPPED] = 0
            res[R_NODES] = 0
            res[R_SAFE] = 0
            res[R_MINES] = 0
            return
        if w >= 0:
            res[R_NODES] += w
            for g in range(ng):
                mark = SAFE if hm[g] == 0 else (MINE if hs[g] == 0 else UNKNOWN)
                for q2 in range(grp_cptr[g0 + g], grp_cptr[g0 + g + 1]):
                    known[grp_cells[q2]] = mark
    if params[P_PUBLIC] != 0:
        _list_proved(state, known, cells_out, res)
