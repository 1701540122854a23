"""Exact counting over constraint components and the assistant's whole analysis.

A component's groups are assigned one at a time in a breadth-first order; the state after
``d`` groups is the vector of partial mine counts of the rows that are *open* (some of
their groups assigned, some not). Equal states merge, so the work grows with the number
of distinct states (a frontier dynamic programme), not with the number of assignments.
The forward pass stores every state with its range of mines so far and the weighted
number of ways to reach it (``C(size, v)`` for ``v`` mines in a group of ``size``
interchangeable cells); the backward pass folds in a weight per total (the global mine
count) and yields, per group, the exact expected mines and whether a mine and a safe
cell occur in some admissible solution.

Work arrays (the caller grows them when a kernel reports ``NEED_*``):
``st`` int64 ``[states, 6]`` (key offset, lo, hi, weight offset, first edge, end edge),
``ed`` int32 ``[edges, 2]`` (target state, mines), ``keys`` int8, ``ht`` int64
``[2**k, 2]`` (stamp, state) a hash table whose stamps never repeat (``ep[0]``),
``fp``/``bq`` float64 and ``bf`` uint8 (forward weights, backward weights and backward
admissibility per state and total), ``gw``/``gb`` for the global combination.
"""
import math

import numpy as np
from numba import njit

from .mines import (CLOSED, COMP_NO_SOLUTION, COMP_OK, COMP_OVER_CELLS, COMP_OVER_NODES,
                    FLAGGED, MINE, SAFE, UNKNOWN, build_constraints, reduce_constraints,
                    split_components)

# columns of st
KOFF, LO, HI, FOFF, EBEG, EEND = 0, 1, 2, 3, 4, 5

# kernel results: >= 0 success, otherwise a pool to grow (or a contradiction)
NEED_STATES = -11
NEED_EDGES = -12
NEED_KEYS = -13
NEED_HASH = -14
NEED_WEIGHTS = -15
NEED_GLOBAL = -16
NEED_CODES = (NEED_STATES, NEED_EDGES, NEED_KEYS, NEED_HASH, NEED_WEIGHTS, NEED_GLOBAL)

# exact mode counts components of up to this many cells (weights stay below 2**1000)
MAX_EXACT_CELLS = 900

# params of analyze_position (P_EPOCH is the hash table's stamp, kept from call to call)
P_REMAINING, P_EXACT, P_MERGE, P_MAX_GROUPS, P_MAX_NODES, P_EPOCH = 0, 1, 2, 3, 4, 5
N_PARAMS = 6

# res of analyze_position
R_CODE, R_COMPS, R_SKIPPED, R_NODES, R_SAFE, R_MINES = 0, 1, 2, 3, 4, 5
N_RES = 6

# analysis outcome (res[R_CODE] when >= 0)
A_OK = 0
A_CONTRADICTION = 1
A_REDUCED = 2

_FNV_OFFSET = np.uint64(14695981039346656037)
_FNV_PRIME = np.uint64(1099511628211)


N_REGIONS = 34      # int32 regions of n + 2 after the four of 26 n (lay_ptr takes 3)


def int_work_size(n):
    """Length of the int32 work array of :func:`analyze_position` for ``n`` cells."""
    return 4 * 26 * n + N_REGIONS * (n + 2)


def byte_work_size(n):
    """Length of the uint8 work array of :func:`analyze_position`."""
    return 4 * (n + 2)


def float_work_size(n):
    """Length of the float64 work array of :func:`analyze_position`."""
    return 3 * (n + 2) + 2


@njit(cache=True)
def component_system(ci, comp_gptr, comp_kptr, comp_cons, group_of_cell, con_cells,
                     con_len, con_cnt, c_ptr, c_grp, g_ptr, g_con, ccnt, stamp):
    """The rows of component ``ci`` over its local groups (``0..G-1``).

    Row ``r`` holds groups ``c_grp[c_ptr[r]:c_ptr[r+1]]`` and needs ``ccnt[r]`` mines;
    group ``g`` lies in rows ``g_con[g_ptr[g]:g_ptr[g+1]]``. ``stamp`` (one per cell,
    all -1 on entry) is left all -1. Returns the number of rows.
    """
    g0 = comp_gptr[ci]
    ng = comp_gptr[ci + 1] - g0
    nk = comp_kptr[ci + 1] - comp_kptr[ci]
    p = 0
    for r in range(nk):
        k = comp_cons[comp_kptr[ci] + r]
        ccnt[r] = con_cnt[k]
        c_ptr[r] = p
        for i in range(con_len[k]):
            g = group_of_cell[con_cells[k, i]] - g0
            if stamp[g] != r:
                stamp[g] = r
                c_grp[p] = g
                p += 1
    c_ptr[nk] = p
    for g in range(ng + 1):
        g_ptr[g] = 0
    for q in range(p):
        g_ptr[c_grp[q] + 1] += 1
    for g in range(ng):
        g_ptr[g + 1] += g_ptr[g]
    for r in range(nk):
        for q in range(c_ptr[r], c_ptr[r + 1]):
            g = c_grp[q]
            g_con[g_ptr[g]] = r
            g_ptr[g] += 1
    for g in range(ng, 0, -1):
        g_ptr[g] = g_ptr[g - 1]
    g_ptr[0] = 0
    for g in range(ng):
        stamp[g] = -1
    return nk


@njit(cache=True)
def bfs_order(ng, start, c_ptr, c_grp, g_ptr, g_con, order, seen):
    """Groups in breadth-first order from ``start`` over shared rows (``seen`` is work);
    groups not reached (a system that is not connected) follow, each starting anew."""
    for g in range(ng):
        seen[g] = 0
    order[0] = start
    seen[start] = 1
    head = 0
    tail = 1
    nxt = 0
    while head < ng:
        if head == tail:
            while seen[nxt] != 0:
                nxt += 1
            order[tail] = nxt
            seen[nxt] = 1
            tail += 1
        g = order[head]
        head += 1
        for q in range(g_ptr[g], g_ptr[g + 1]):
            r = g_con[q]
            for q2 in range(c_ptr[r], c_ptr[r + 1]):
                h = c_grp[q2]
                if seen[h] == 0:
                    seen[h] = 1
                    order[tail] = h
                    tail += 1
    return tail


@njit(cache=True)
def _order_width(ng, nk, c_ptr, c_grp, order, pos, last):
    """Sum over the layers of the open rows an order leaves (a cost estimate)."""
    for i in range(ng):
        pos[order[i]] = i
    total = 0
    for r in range(nk):
        lo = ng
        hi = -1
        for q in range(c_ptr[r], c_ptr[r + 1]):
            p = pos[c_grp[q]]
            if p < lo:
                lo = p
            if p > hi:
                hi = p
        total += hi - lo
    return total


@njit(cache=True)
def choose_order(ng, nk, c_ptr, c_grp, g_ptr, g_con, order, alt, pos, last):
    """A breadth-first order of the groups: from group 0 or from the last group that
    order reaches (a pseudo-peripheral start), whichever leaves fewer open rows."""
    bfs_order(ng, 0, c_ptr, c_grp, g_ptr, g_con, order, pos)
    if ng < 3:
        return
    cost = _order_width(ng, nk, c_ptr, c_grp, order, pos, last)
    bfs_order(ng, order[ng - 1], c_ptr, c_grp, g_ptr, g_con, alt, pos)
    if _order_width(ng, nk, c_ptr, c_grp, alt, pos, last) < cost:
        for i in range(ng):
            order[i] = alt[i]


@njit(cache=True)
def forward_pass(ng, gsize, nk, ccnt, c_ptr, c_grp, g_ptr, g_con, order, track_m,
                 max_states, top, st, ed, keys, ht, ep, fp, binom, lay_ptr,
                 pos, last, rem, slot, open_a, open_b, src, addg, keybuf, chk):
    """Forward pass over one component; states are appended at ``top`` (4 counters:
    states, edges, keys, weights), which is advanced.

    ``lay_ptr[d]`` gets the first state of layer ``d`` (``lay_ptr[ng + 1]`` the end).
    With ``track_m`` the states keep their range of mines so far and weighted counts;
    otherwise every state has one slot (weight 1: reachable). Returns the number of
    states, ``-1`` past ``max_states``, ``-2`` when there is no solution, or a
    ``NEED_*`` code.
    """
    for i in range(ng):
        pos[order[i]] = i
    for r in range(nk):
        lst = -1
        cap = 0
        for q in range(c_ptr[r], c_ptr[r + 1]):
            g = c_grp[q]
            cap += gsize[g]
            if pos[g] > lst:
                lst = pos[g]
        last[r] = lst
        rem[r] = cap
        slot[r] = -1
    ns = top[0]
    ne = top[1]
    nkey = top[2]
    nf = top[3]
    s0 = ns
    if ns >= st.shape[0]:
        return NEED_STATES
    if nf >= fp.shape[0]:
        return NEED_WEIGHTS
    st[ns, KOFF] = nkey
    st[ns, LO] = 0
    st[ns, HI] = 0
    st[ns, FOFF] = nf
    fp[nf] = 1.0
    nf += 1
    lay_ptr[0] = ns
    ns += 1
    lay_beg = s0
    lay_end = ns
    w = 0
    mask = ht.shape[0] - 1
    for d in range(ng):
        g = order[d]
        sz = gsize[g]
        # rows of g: the checks (old slot, count, capacity left after g)
        nchk = 0
        for q in range(g_ptr[g], g_ptr[g + 1]):
            r = g_con[q]
            rem[r] -= sz
            chk[nchk, 0] = slot[r]
            chk[nchk, 1] = ccnt[r]
            chk[nchk, 2] = rem[r]
            nchk += 1
        # open rows of the next layer: the kept ones in order, then g's new ones
        w2 = 0
        for k in range(w):
            r = open_a[k]
            if last[r] != d:
                open_b[w2] = r
                src[w2] = k
                addg[w2] = 0
                w2 += 1
        for q in range(g_ptr[g], g_ptr[g + 1]):
            r = g_con[q]
            if slot[r] >= 0:
                if last[r] != d:
                    # find its new slot (kept rows keep their relative order)
                    for k in range(w2):
                        if open_b[k] == r:
                            addg[k] = 1
                            break
            elif last[r] > d:
                open_b[w2] = r
                src[w2] = -1
                addg[w2] = 1
                w2 += 1
        ep[0] += 1
        epoch = ep[0]
        new_beg = ns
        for i in range(lay_beg, lay_end):
            ko = st[i, KOFF]
            st[i, EBEG] = ne
            for v in range(sz + 1):
                ok = True
                over = False
                for j in range(nchk):
                    sl = chk[j, 0]
                    part = v
                    if sl >= 0:
                        part += keys[ko + sl]
                    if part > chk[j, 1]:
                        over = True
                        break
                    if part + chk[j, 2] < chk[j, 1]:
                        ok = False
                if over:
                    break
                if not ok:
                    continue
                h = _FNV_OFFSET
                for k in range(w2):
                    val = 0
                    if src[k] >= 0:
                        val = keys[ko + src[k]]
                    if addg[k] != 0:
                        val += v
                    keybuf[k] = val
                    h = (h ^ np.uint64(val)) * _FNV_PRIME
                idx = np.int64(h & np.uint64(mask))
                while True:
                    if ht[idx, 0] != epoch:
                        if ns >= st.shape[0]:
                            return NEED_STATES
                        if nkey + w2 > keys.shape[0]:
                            return NEED_KEYS
                        if 2 * (ns - new_beg + 1) > ht.shape[0]:
                            return NEED_HASH
                        ht[idx, 0] = epoch
                        ht[idx, 1] = ns
                        st[ns, KOFF] = nkey
                        for k in range(w2):
                            keys[nkey + k] = keybuf[k]
                        nkey += w2
                        st[ns, LO] = 1 << 40
                        st[ns, HI] = -1
                        j = ns
                        ns += 1
                        break
                    j = ht[idx, 1]
                    ko2 = st[j, KOFF]
                    same = True
                    for k in range(w2):
                        if keys[ko2 + k] != keybuf[k]:
                            same = False
                            break
                    if same:
                        break
                    idx = (idx + 1) & mask
                if ne >= ed.shape[0]:
                    return NEED_EDGES
                ed[ne, 0] = j
                ed[ne, 1] = v
                ne += 1
                if track_m:
                    lo = st[i, LO] + v
                    hi = st[i, HI] + v
                    if lo < st[j, LO]:
                        st[j, LO] = lo
                    if hi > st[j, HI]:
                        st[j, HI] = hi
                else:
                    st[j, LO] = 0
                    st[j, HI] = 0
            st[i, EEND] = ne
        if ns == new_beg:
            return -2
        if ns - s0 > max_states:
            return -1
        # weights of the new layer
        for j in range(new_beg, ns):
            ln = st[j, HI] - st[j, LO] + 1
            if nf + ln > fp.shape[0]:
                return NEED_WEIGHTS
            st[j, FOFF] = nf
            for t in range(ln):
                fp[nf + t] = 0.0
            nf += ln
        for i in range(lay_beg, lay_end):
            fo = st[i, FOFF]
            lo_i = st[i, LO]
            ln = st[i, HI] - lo_i + 1
            for e in range(st[i, EBEG], st[i, EEND]):
                j = ed[e, 0]
                if track_m:
                    v = ed[e, 1]
                    c = binom[sz, v]
                    base = st[j, FOFF] + lo_i + v - st[j, LO]
                    for t in range(ln):
                        fp[base + t] += c * fp[fo + t]
                else:
                    fp[st[j, FOFF]] = 1.0
        for k in range(w):
            slot[open_a[k]] = -1
        for k in range(w2):
            open_a[k] = open_b[k]
            slot[open_b[k]] = k
        w = w2
        lay_beg = new_beg
        lay_end = ns
        lay_ptr[d + 1] = new_beg
    lay_ptr[ng + 1] = ns
    top[0] = ns
    top[1] = ne
    top[2] = nkey
    top[3] = nf
    return ns - s0


@njit(cache=True)
def backward_pass(ng, gsize, order, track_m, lay_ptr, st, ed, fp, bq, bf, binom, q, qf,
                  ge, gz, hm, hs):
    """Backward pass: per group ``g``, ``ge[g]``/``gz[g]`` the weighted mines and total
    weight, ``hm[g]``/``hs[g]`` whether an admissible solution has a mine / a safe cell
    in ``g``. ``q``/``qf`` (over the final state's range of totals) weight and admit
    each total; pass ones for no global constraint.
    """
    fin = lay_ptr[ng]
    fo = st[fin, FOFF]
    for t in range(st[fin, HI] - st[fin, LO] + 1):
        bq[fo + t] = q[t]
        bf[fo + t] = qf[t]
    for d in range(ng - 1, -1, -1):
        g = order[d]
        sz = gsize[g]
        esum = 0.0
        zsum = 0.0
        mine = 0
        safe = 0
        for i in range(lay_ptr[d], lay_ptr[d + 1]):
            fo = st[i, FOFF]
            lo_i = st[i, LO]
            ln = st[i, HI] - lo_i + 1
            for t in range(ln):
                bq[fo + t] = 0.0
                bf[fo + t] = 0
            for e in range(st[i, EBEG], st[i, EEND]):
                j = ed[e, 0]
                v = ed[e, 1]
                c = 1.0
                base = st[j, FOFF]
                if track_m:
                    c = binom[sz, v]
                    base += lo_i + v - st[j, LO]
                wsum = 0.0
                feas = False
                for t in range(ln):
                    b = bq[base + t]
                    bq[fo + t] += c * b
                    wsum += fp[fo + t] * b
                    if bf[base + t] != 0:
                        bf[fo + t] = 1
                        if fp[fo + t] > 0.0:
                            feas = True
                wsum *= c
                zsum += wsum
                esum += wsum * v
                if feas:
                    if v > 0:
                        mine = 1
                    if v < sz:
                        safe = 1
        ge[g] = esum
        gz[g] = zsum
        hm[g] = mine
        hs[g] = safe


@njit(cache=True)
def _log_choose(n, k):
    return math.lgamma(n + 1.0) - math.lgamma(k + 1.0) - math.lgamma(n - k + 1.0)


@njit(cache=True)
def global_combine(k, comp_final, st, fp, r, u, gw, gb, qoff, out):
    """Combine ``k`` enumerated components with the global mine count.

    Component ``c``'s totals are ``fp`` over its final state's range ``[lo_c, hi_c]``;
    ``r`` mines are left for the components and the ``u`` cells off the frontier. Writes
    each component's weight and admissibility per total to ``gw``/``gb`` at ``qoff[c]``
    (``span_c + 1`` entries). ``out`` gets the off-frontier mine probability (NaN when
    ``u == 0``) and ``out[1]`` = 1 when those cells are all safe, 2 all mines, 0 neither.
    Returns 1, 0 when no total is admissible (a contradiction), or ``NEED_GLOBAL``.
    """
    lsum = 0
    s_all = 0
    for c in range(k):
        f = comp_final[c]
        lsum += st[f, LO]
        s_all += st[f, HI] - st[f, LO]
    # layout: Y_c at yoff (pre_c + 1 each, c = 0..k), q per component, two P buffers
    need = 0
    pre = 0
    for c in range(k + 1):
        need += pre + 1
        if c < k:
            f = comp_final[c]
            pre += st[f, HI] - st[f, LO]
    yend = need
    for c in range(k):
        f = comp_final[c]
        qoff[c] = need
        need += st[f, HI] - st[f, LO] + 1
    pa = need
    pb = need + s_all + 1
    need = pb + s_all + 1
    if need > gw.shape[0]:
        return NEED_GLOBAL
    # Y_k: binomial of the off-frontier cells, scaled by its largest admissible value
    y0 = yend - (s_all + 1)
    shift = -1e300
    for x in range(s_all + 1):
        y = r - lsum - x
        if 0 <= y <= u:
            lc = _log_choose(u, y)
            if lc > shift:
                shift = lc
    for x in range(s_all + 1):
        y = r - lsum - x
        if 0 <= y <= u:
            gw[y0 + x] = math.exp(_log_choose(u, y) - shift)
            gb[y0 + x] = 1
        else:
            gw[y0 + x] = 0.0
            gb[y0 + x] = 0
    # Y_c[x] = sum_b t_c[b] Y_{c+1}[x + b], x <= pre_c; normalised
    ynext = y0
    pre_c = s_all
    for c in range(k - 1, -1, -1):
        f = comp_final[c]
        fo = st[f, FOFF]
        span = st[f, HI] - st[f, LO]
        tmax = 0.0
        for b in range(span + 1):
            if fp[fo + b] > tmax:
                tmax = fp[fo + b]
        pre_c -= span           # the spans of the components before c
        ycur = ynext - (pre_c + 1)
        ymax = 0.0
        for x in range(pre_c + 1):
            acc = 0.0
            ok = 0
            for b in range(span + 1):
                t = fp[fo + b]
                if t > 0.0:
                    acc += t / tmax * gw[ynext + x + b]
                    if gb[ynext + x + b] != 0:
                        ok = 1
            gw[ycur + x] = acc
            gb[ycur + x] = ok
            if acc > ymax:
                ymax = acc
        if ymax > 0.0:
            for x in range(pre_c + 1):
                gw[ycur + x] /= ymax
        ynext = ycur
    if gb[0] == 0:
        return 0
    # forward: P_c; q_c[i] = sum_a P_c[a] Y_{c+1}[a + i]
    gw[pa] = 1.0
    gb[pa] = 1
    plen = 1
    ybeg = 0
    for c in range(k):
        f = comp_final[c]
        fo = st[f, FOFF]
        span = st[f, HI] - st[f, LO]
        ybeg += plen          # Y_{c+1} starts after Y_c (length pre_c + 1 == plen)
        qo = qoff[c]
        qmax = 0.0
        for i in range(span + 1):
            acc = 0.0
            ok = 0
            for a in range(plen):
                acc += gw[pa + a] * gw[ybeg + a + i]
                if gb[pa + a] != 0 and gb[ybeg + a + i] != 0:
                    ok = 1
            gw[qo + i] = acc
            gb[qo + i] = ok
            if acc > qmax:
                qmax = acc
        if qmax > 0.0:
            for i in range(span + 1):
                gw[qo + i] /= qmax
        tmax = 0.0
        for b in range(span + 1):
            if fp[fo + b] > tmax:
                tmax = fp[fo + b]
        nlen = plen + span
        pmax = 0.0
        for x in range(nlen):
            acc = 0.0
            ok = 0
            for b in range(span + 1):
                a = x - b
                if 0 <= a < plen:
                    t = fp[fo + b]
                    if t > 0.0:
                        acc += gw[pa + a] * t / tmax
                        if gb[pa + a] != 0:
                            ok = 1
            gw[pb + x] = acc
            gb[pb + x] = ok
            if acc > pmax:
                pmax = acc
        for x in range(nlen):
            gw[pa + x] = gw[pb + x] / pmax
            gb[pa + x] = gb[pb + x]
        plen = nlen
    # off-frontier cells
    out[0] = np.nan
    out[1] = 0
    if u > 0:
        z = 0.0
        e = 0.0
        all_zero = True
        all_full = True
        for x in range(plen):
            y = r - lsum - x
            if 0 <= y <= u and gb[pa + x] != 0:
                wgt = gw[pa + x] * math.exp(_log_choose(u, y) - shift)
                z += wgt
                e += wgt * y
                if y != 0:
                    all_zero = False
                if y != u:
                    all_full = False
        out[0] = e / z / u
        if all_zero:
            out[0] = 0.0
            out[1] = 1
        elif all_full:
            out[0] = 1.0
            out[1] = 2
    return 1


@njit(cache=True)
def solve_known(state, numbers, nb26, known, prob, exact, merge, max_groups, max_nodes,
                remaining, reduce_first, res, iw, u8, fw, st, ed, keys, ht, ep, fp, bq, bf,
                gw, gb, binom):
    """Prove what the open numbers allow, given ``known`` (updated in place).

    Rows come from the open cells over their neighbours not known yet; they are reduced
    (single numbers, subsets), split into components and counted. In exact mode the
    components are combined with ``remaining`` mines (known closed mines included) and
    ``prob`` gets every closed cell's mine probability (NaN when a component was
    skipped). With ``reduce_first`` the counting is left out when the reduction alone
    proved a cell (``res[R_CODE] = A_REDUCED``). ``res`` as in :func:`analyze_position`.
    """
    n = state.shape[0]
    m26 = 26 * n
    con_cells = iw[0:m26].reshape((n, 26))
    inc_list = iw[m26:2 * m26]
    c_grp = iw[2 * m26:3 * m26]
    g_con = iw[3 * m26:4 * m26]
    base = 4 * m26
    stride = n + 2
    con_len = iw[base + 0 * stride:base + 1 * stride]
    con_cnt = iw[base + 1 * stride:base + 2 * stride]
    inc_ptr = iw[base + 2 * stride:base + 3 * stride]
    parent = iw[base + 3 * stride:base + 4 * stride]
    gcell = iw[base + 4 * stride:base + 5 * stride][:n]
    comp_gptr = iw[base + 5 * stride:base + 6 * stride]
    comp_kptr = iw[base + 6 * stride:base + 7 * stride]
    comp_cons = iw[base + 7 * stride:base + 8 * stride]
    grp_cptr = iw[base + 8 * stride:base + 9 * stride]
    grp_cells = iw[base + 9 * stride:base + 10 * stride]
    grp_size = iw[base + 10 * stride:base + 11 * stride]
    stamp = iw[base + 11 * stride:base + 12 * stride]
    work = iw[base + 12 * stride:base + 13 * stride]
    work2 = iw[base + 13 * stride:base + 14 * stride]
    work3 = iw[base + 14 * stride:base + 15 * stride]
    c_ptr = iw[base + 15 * stride:base + 16 * stride]
    g_ptr = iw[base + 16 * stride:base + 17 * stride]
    order_all = iw[base + 17 * stride:base + 18 * stride]
    alt = iw[base + 18 * stride:base + 19 * stride]
    pos = iw[base + 19 * stride:base + 20 * stride]
    last = iw[base + 20 * stride:base + 21 * stride]
    rem = iw[base + 21 * stride:base + 22 * stride]
    slot = iw[base + 22 * stride:base + 23 * stride]
    open_a = iw[base + 23 * stride:base + 24 * stride]
    open_b = iw[base + 24 * stride:base + 25 * stride]
    src = iw[base + 25 * stride:base + 26 * stride]
    addg = iw[base + 26 * stride:base + 27 * stride]
    keybuf = iw[base + 27 * stride:base + 28 * stride]
    comp_final = iw[base + 28 * stride:base + 29 * stride]
    ccnt = iw[base + 29 * stride:base + 30 * stride]
    cstat = iw[base + 30 * stride:base + 31 * stride]
    lay_all = iw[base + 31 * stride:base + 34 * stride]
    con_alive = u8[0:n + 2]
    hm = u8[n + 2:2 * (n + 2)]
    hs = u8[2 * (n + 2):3 * (n + 2)]
    ones_b = u8[3 * (n + 2):4 * (n + 2)]
    ge = fw[0:n + 2]
    gz = fw[n + 2:2 * (n + 2)]
    ones = fw[2 * (n + 2):3 * (n + 2)]
    out2 = fw[3 * (n + 2):3 * (n + 2) + 2]
    qoff = work3
    chk = np.empty((27, 3), np.int64)
    top = np.zeros(4, np.int64)
    for i in range(N_RES):
        res[i] = 0
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
        choose_order(ng, nk, c_ptr, c_grp, g_ptr, g_con, order, alt, pos, last)
        lay = lay_all[g0 + 2 * ci:g0 + 2 * ci + ng + 2]
        r = forward_pass(ng, grp_size[g0:g0 + ng], nk, ccnt, c_ptr, c_grp, g_ptr, g_con, order,
                         exact, max_nodes, top, st, ed, keys, ht, ep, fp, binom, lay, pos,
                         last, rem, slot, open_a, open_b, src, addg, keybuf, chk)
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
        code = global_combine(n_comps, comp_final, st, fp, remaining - settled, u, gw, gb,
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


@njit(cache=True)
def analyze_position(state, numbers, nb26, params, known, prob, res, cells_out, iw, u8, fw,
                     st, ed, keys, ht, fp, bq, bf, gw, gb, binom):
    """The assistant's analysis of a public position, in one call.

    ``state``/``numbers`` are the flat public arrays; ``params`` holds the remaining mine
    count (mines minus flags), exact mode, whether interchangeable cells merge into
    groups, the caps (groups per component, states per component) and the hash epoch.
    The count is used when it is 0 or equals the closed cells, and in exact mode.
    Writes ``known`` (SAFE / MINE / UNKNOWN per cell; flags are MINE), ``prob`` (exact
    mode: the mine probability of every closed cell, NaN elsewhere or when a component
    was skipped) and ``cells_out`` (the closed cells proved safe, then those proved
    mines, each in index order). ``res`` gets the outcome (``A_OK``, ``A_CONTRADICTION``
    or a ``NEED_*`` code: grow that array and call again), the components, those
    skipped over a cap, the states visited and the counts of safe cells and mines.
    """
    n = state.shape[0]
    for i in range(N_RES):
        res[i] = 0
    remaining = params[P_REMAINING]
    n_closed = 0
    for c in range(n):
        s = state[c]
        known[c] = MINE if s == FLAGGED else UNKNOWN
        prob[c] = np.nan
        if s == CLOSED:
            n_closed += 1
    if remaining < 0 or remaining > n_closed:
        res[R_CODE] = A_CONTRADICTION
        return
    if remaining == 0 or remaining == n_closed:
        mark = SAFE if remaining == 0 else MINE
        for c in range(n):
            if state[c] == CLOSED:
                known[c] = mark
    solve_known(state, numbers, nb26, known, prob, params[P_EXACT] != 0, params[P_MERGE] != 0,
                params[P_MAX_GROUPS], params[P_MAX_NODES], remaining, False, res, iw, u8, fw,
                st, ed, keys, ht, params[P_EPOCH:P_EPOCH + 1], fp, bq, bf, gw, gb, binom)
    if res[R_CODE] != A_OK:
        return
    ns = 0
    for c in range(n):
        if state[c] == CLOSED and known[c] == SAFE:
            cells_out[ns] = c
            ns += 1
    nm = 0
    for c in range(n):
        if state[c] == CLOSED and known[c] == MINE:
            cells_out[ns + nm] = c
            nm += 1
    res[R_SAFE] = ns
    res[R_MINES] = nm
