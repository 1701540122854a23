"""Exact counting over one constraint component: a frontier dynamic programme, and the
combination of the components with the global mine count.

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

# columns of st
KOFF, LO, HI, FOFF, EBEG, EEND = 0, 1, 2, 3, 4, 5

# kernel results: >= 0 success, otherwise a pool to grow (or a contradiction)
NEED_STATES = -11
NEED_EDGES = -12
NEED_KEYS = -13
NEED_HASH = -14
NEED_WEIGHTS = -15
NEED_GLOBAL = -16

_FNV_OFFSET = np.uint64(14695981039346656037)
_FNV_PRIME = np.uint64(1099511628211)


@njit(cache=True, no_cpython_wrapper=True)
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



@njit(cache=True, no_cpython_wrapper=True)
def _log_choose(n, k):
    return math.lgamma(n + 1.0) - math.lgamma(k + 1.0) - math.lgamma(n - k + 1.0)


@njit(cache=True, no_cpython_wrapper=True)
def _log_or_zero(x):
    return math.log(x) if x > 0.0 else 0.0


@njit(cache=True, no_cpython_wrapper=True)
def _mix(gw, gb, a, alen, b, blen, c, clen, sign):
    """``gw[c + x] = sum_i gw[a + i] * gw[b + x + sign * i]`` for ``x < clen`` (terms
    outside ``b``'s ``blen`` entries left out), scaled to a largest value of 1; ``gb``
    gets whether some term is admissible on both sides. Returns the scale (the largest
    value before scaling)."""
    top = 0.0
    for x in range(clen):
        acc = 0.0
        ok = 0
        for i in range(alen):
            j = x + sign * i
            if j >= 0 and j < blen:
                acc += gw[a + i] * gw[b + j]
                if gb[a + i] != 0 and gb[b + j] != 0:
                    ok = 1
        gw[c + x] = acc
        gb[c + x] = ok
        if acc > top:
            top = acc
    if top > 0.0:
        for x in range(clen):
            gw[c + x] /= top
    return top


@njit(cache=True)
def global_combine(k, comp_final, st, fp, r, u, gw, gb, qoff, out):
    """Combine ``k`` enumerated components with the global mine count.

    Component ``c``'s totals are ``fp`` over its final state's range ``[lo_c, hi_c]``;
    ``r`` mines are left for the components and the ``u`` cells off the frontier. With
    ``t_c`` the totals, the prefix products ``P_c = t_0 * ... * t_{c-1}`` and the suffix
    products folded with the off-frontier binomials ``Y_c``, component ``c``'s weight of
    total ``lo_c + i`` is ``q_c[i] = sum_a P_c[a] Y_{c+1}[a + i]``, written with its
    admissibility to ``gw``/``gb`` at ``qoff[c]``. Every array is scaled on the way (the
    factors cancel within a component) and admissibility is kept apart, exactly.
    ``out`` gets the off-frontier mine probability (NaN when ``u == 0``), ``out[1]`` =
    1 when those cells are all safe, 2 all mines, 0 neither, and ``out[2]`` the natural
    log of the total weight (the number of mine placements; the scales put back).
    Returns 1, 0 when no total is admissible (a contradiction), or ``NEED_GLOBAL``.
    """
    lsum = 0
    s_all = 0
    for c in range(k):
        lsum += st[comp_final[c], LO]
        s_all += st[comp_final[c], HI] - st[comp_final[c], LO]
    # layout: t_c (span_c + 1 each), then Y_c (pre_c + 1, c = 0..k), q_c, P_c, P_{c+1}
    need = s_all + k
    ybase = need
    need += (k + 1) * (s_all + 1)
    qbase = need
    need += s_all + k
    pa = need
    need += 2 * (s_all + 1)
    if need > gw.shape[0]:
        return NEED_GLOBAL
    o = 0
    log_scale = 0.0
    for c in range(k):
        f = comp_final[c]
        qoff[c] = o                    # t_c here for now, q_c at qbase + o later
        span = st[f, HI] - st[f, LO] + 1
        fo = st[f, FOFF]
        top = 0.0
        for b in range(span):
            if fp[fo + b] > top:
                top = fp[fo + b]
        log_scale += math.log(top)
        for b in range(span):
            gw[o + b] = fp[fo + b] / top
            gb[o + b] = fp[fo + b] > 0.0
        o += span
    # Y_k: binomials of the off-frontier cells, scaled by the largest admissible one
    yk = ybase + k * (s_all + 1)
    shift = -1e300
    for x in range(s_all + 1):
        y = r - lsum - x
        if y >= 0 and y <= u and _log_choose(u, y) > shift:
            shift = _log_choose(u, y)
    for x in range(s_all + 1):
        y = r - lsum - x
        gw[yk + x] = 0.0
        gb[yk + x] = 0
        if y >= 0 and y <= u:
            gw[yk + x] = math.exp(_log_choose(u, y) - shift)
            gb[yk + x] = 1
    log_scale += shift
    pre = s_all
    for c in range(k - 1, -1, -1):
        span = st[comp_final[c], HI] - st[comp_final[c], LO]
        pre -= span
        top = _mix(gw, gb, np.int64(qoff[c]), span + 1, ybase + (c + 1) * (s_all + 1),
                   pre + span + 1, ybase + c * (s_all + 1), pre + 1, np.int64(1))
        log_scale += _log_or_zero(top)
    if gb[ybase] == 0:
        return 0
    out[2] = log_scale + math.log(gw[ybase])
    gw[pa] = 1.0
    gb[pa] = 1
    plen = np.int64(1)
    pb = pa + s_all + 1
    for c in range(k):
        span = st[comp_final[c], HI] - st[comp_final[c], LO]
        t = np.int64(qoff[c])
        qoff[c] = qbase + t
        _mix(gw, gb, pa, plen, ybase + (c + 1) * (s_all + 1), plen + span, qbase + t, span + 1,
             np.int64(1))
        _mix(gw, gb, t, span + 1, pa, plen, pb, plen + span, np.int64(-1))
        t = pa
        pa = pb
        pb = t
        plen += span
    # off-frontier cells
    out[0] = np.nan
    out[1] = 0
    if u > 0:
        z = 0.0
        e = 0.0
        lo_y = u
        hi_y = 0
        for x in range(plen):
            y = r - lsum - x
            if y >= 0 and y <= u and gb[pa + x] != 0:
                wgt = gw[pa + x] * math.exp(_log_choose(u, y) - shift)
                z += wgt
                e += wgt * y
                if y < lo_y:
                    lo_y = y
                if y > hi_y:
                    hi_y = y
        out[0] = e / z / u
        if hi_y == 0:
            out[0] = 0.0
            out[1] = 1
        elif lo_y == u:
            out[0] = 1.0
            out[1] = 2
    return 1

