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

from .mines import (CLOSED, COMP_OK, COMP_OVER_CELLS, COMP_OVER_NODES,
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

# exact mode counts components of up to this many cells (weights stay below 2**1000)
MAX_EXACT_CELLS = 900

# params of analyze_position (P_EPOCH is the hash table's stamp, kept from call to call;
# P_REDUCE_FIRST: stop before counting when the reduction proved a cell; P_PUBLIC: the
# position is a public observation, see analyze_position; P_WITNESS: a component over
# the state budget still gets its certain cells, by witness_search)
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

_FNV_OFFSET = np.uint64(14695981039346656037)
_FNV_PRIME = np.uint64(1099511628211)


N_REGIONS = 34      # int32 rows of n + 2 (the last three hold the layers of every component)


def int_work_shapes(n):
    """Shapes of the two int32 work arrays of :func:`analyze_position` for ``n`` cells."""
    return (4, 26 * n), (N_REGIONS, n + 2)


def byte_work_size(n):
    """Length of the uint8 work array of :func:`analyze_position`."""
    return 4 * (n + 2)


def float_work_size(n):
    """Length of the float64 work array of :func:`analyze_position`."""
    return 3 * (n + 2) + 2


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
def _window(ng, t, radius, c_ptr, c_grp, g_ptr, g_con, order, gmark, rmark, stamp):
    """The groups within ``radius`` rows of group ``t``, breadth-first into ``order``; the
    rows reached get ``rmark == stamp`` (all their groups are in the window). Returns
    (groups, rows) of the window."""
    order[0] = t
    gmark[t] = stamp
    nw = 1
    nr = 0
    head = 0
    for _ in range(radius):
        end = nw
        for i in range(head, end):
            g = order[i]
            for p in range(g_ptr[g], g_ptr[g + 1]):
                r = g_con[p]
                if rmark[r] == stamp:
                    continue
                rmark[r] = stamp
                nr += 1
                for q in range(c_ptr[r], c_ptr[r + 1]):
                    h = c_grp[q]
                    if gmark[h] != stamp:
                        gmark[h] = stamp
                        order[nw] = h
                        nw += 1
        head = end
        if nw == end:
            break
    return nw, nr


@njit(cache=True, no_cpython_wrapper=True)
def _assign(g, v, gsize, g_ptr, g_con, ccnt, rmark, stamp, val, cur, rem, trail, tops, queue):
    """Set group ``g`` to ``v`` (on the trail); rows it settles are queued. False when a
    row of the window can no longer be met."""
    val[g] = v
    trail[tops[0]] = g
    tops[0] += 1
    tops[2] += v
    ok = True
    for p in range(g_ptr[g], g_ptr[g + 1]):
        r = g_con[p]
        cur[r] += v
        rem[r] -= gsize[g]
        if rmark[r] != stamp:
            continue
        if cur[r] > ccnt[r] or cur[r] + rem[r] < ccnt[r]:
            ok = False
        elif rem[r] > 0 and (cur[r] == ccnt[r] or cur[r] + rem[r] == ccnt[r]):
            queue[tops[1]] = r
            tops[1] += 1
    return ok


@njit(cache=True, no_cpython_wrapper=True)
def _search(nw, gsize, nk, ccnt, c_ptr, c_grp, g_ptr, g_con, order, rmark, stamp, t, t_lo,
            t_hi, m_hi, budget, dynamic, val, cur, rem, trail, queue, dstk):
    """Depth-first search with propagation over the groups ``order[:nw]`` for one
    assignment that meets the rows marked ``stamp`` (the others are left out: a
    relaxation), with ``t_lo <= v[t] <= t_hi`` and at most ``m_hi`` mines. A row whose
    count is reached sets its other groups to 0, one that needs all its free cells sets
    them full. The group ``t`` is decided first; then, with ``dynamic``, a group of the
    row with the least room either way, trying the value its row leans to first (good at
    finding a solution), else the next group in ``order`` (breadth-first from ``t``: good
    at proving there is none nearby). Returns (found, nodes), ``val[g]`` the values;
    past ``budget`` nodes the search stops."""
    for i in range(nw):
        val[order[i]] = -1
    for r in range(nk):
        cur[r] = 0
        rem[r] = 0
        if rmark[r] == stamp:
            for p in range(c_ptr[r], c_ptr[r + 1]):
                rem[r] += gsize[c_grp[p]]
    tops = np.zeros(3, np.int64)        # trail top, queue top, mines
    nodes = 0
    d = 0                               # decisions: group, value, trail top, step
    while True:
        g = -1
        step = 1
        if t >= 0 and val[t] < 0:
            g = t
        elif not dynamic:
            nxt = 0
            while nxt < nw and val[order[nxt]] >= 0:
                nxt += 1
            if nxt == nw:
                return True, nodes
            g = order[nxt]
        else:
            best = 1 << 30
            for r in range(nk):
                if rmark[r] == stamp and rem[r] > 0:
                    need = ccnt[r] - cur[r]
                    room = min(need, rem[r] - need)
                    if room < best:
                        best = room
                        g = r
            if g < 0:
                return True, nodes      # every row of the window is met
            r = g
            for q in range(c_ptr[r], c_ptr[r + 1]):
                if val[c_grp[q]] < 0:
                    g = c_grp[q]
                    break
            if 2 * (ccnt[r] - cur[r]) > rem[r]:
                step = -1
        lo = t_lo if g == t else 0
        hi = t_hi if g == t else gsize[g]
        dstk[d, 0] = g
        dstk[d, 1] = lo if step > 0 else hi
        dstk[d, 2] = tops[0]
        dstk[d, 3] = step
        d += 1
        while True:
            # try the value on top of the decision stack; on failure the next, or back up
            g = dstk[d - 1, 0]
            v = dstk[d - 1, 1]
            lo = t_lo if g == t else 0
            hi = t_hi if g == t else gsize[g]
            if v > hi or v < lo:
                d -= 1
                if d == 0:
                    return False, nodes
                _undo(dstk[d - 1, 2], gsize, g_ptr, g_con, val, cur, rem, trail, tops)
                dstk[d - 1, 1] += dstk[d - 1, 3]
                continue
            nodes += 1
            if nodes > budget:
                return False, nodes
            tops[1] = 0
            ok = _assign(g, v, gsize, g_ptr, g_con, ccnt, rmark, stamp, val, cur, rem, trail,
                         tops, queue)
            while ok and tops[1] > 0:
                tops[1] -= 1
                r = queue[tops[1]]
                fill = cur[r] + rem[r] == ccnt[r]
                for q in range(c_ptr[r], c_ptr[r + 1]):
                    h = c_grp[q]
                    if val[h] < 0:
                        if not _assign(np.int64(h), np.int64(gsize[h] if fill else 0),
                                       gsize, g_ptr, g_con, ccnt,
                                       rmark, stamp, val, cur, rem, trail, tops, queue):
                            ok = False
                            break
            if ok and tops[2] <= m_hi:
                break
            _undo(dstk[d - 1, 2], gsize, g_ptr, g_con, val, cur, rem, trail, tops)
            dstk[d - 1, 1] += dstk[d - 1, 3]


@njit(cache=True, no_cpython_wrapper=True)
def _undo(to, gsize, g_ptr, g_con, val, cur, rem, trail, tops):
    while tops[0] > to:
        tops[0] -= 1
        g = trail[tops[0]]
        v = val[g]
        tops[2] -= v
        for p in range(g_ptr[g], g_ptr[g + 1]):
            cur[g_con[p]] -= v
            rem[g_con[p]] += gsize[g]
        val[g] = -1


QUICK_NODES = 2000      # witness_search: a look for a whole solution per question
WINDOW_NODES = 20_000   # and per window around the group
MAX_RADIUS = 4          # windows of 1 .. 4 rows around the group


@njit(cache=True)
def witness_search(ng, gsize, nk, ccnt, c_ptr, c_grp, g_ptr, g_con, m_hi, max_nodes, hm, hs,
                   order, gmark, rmark, val, cur, rem, trail, queue, dstk):
    """Certain cells of a component too large to count, without counting.

    For every group, two questions: can it hold a mine (``hm``), a safe cell (``hs``)?
    A whole solution found answers yes for every group at once; each question still open
    gets a short search for a whole solution, then searches of windows of 1 to
    ``MAX_RADIUS`` rows around the group: a window with no solution answers no (it has
    fewer rows, so more solutions, than the component). A question left open is
    answered yes (nothing is claimed). Returns ``(nodes, open questions)``, ``nodes`` -1
    past ``max_nodes`` and -2 when a window proves there is no solution at all.
    """
    for g in range(ng):
        hm[g] = 0
        hs[g] = 0
        gmark[g] = 0
    for r in range(nk):
        rmark[r] = 0
    used = 0
    stamp = 0
    unresolved = 0
    for t in range(-1, ng):
        for want_mine in range(2):
            if t < 0:
                if want_mine == 1:
                    continue
                t_lo = 0
                t_hi = 0
            elif want_mine == 1:
                if hm[t] != 0:
                    continue
                t_lo = 1
                t_hi = gsize[t]
            else:
                if hs[t] != 0:
                    continue
                t_lo = 0
                t_hi = gsize[t] - 1
            radius = ng                 # first the whole component
            answered = False
            while not answered:
                stamp += 1
                nw, nr = _window(ng, np.int64(max(t, 0)), radius, c_ptr, c_grp, g_ptr, g_con,
                                 order, gmark, rmark, np.int64(stamp))
                whole = nw == ng and nr == nk
                budget = min(max_nodes - used, QUICK_NODES if radius == ng else WINDOW_NODES)
                found, nodes = _search(nw, gsize, nk, ccnt, c_ptr, c_grp, g_ptr, g_con, order,
                                       rmark, np.int64(stamp), np.int64(t), np.int64(t_lo),
                                       np.int64(t_hi), m_hi, budget, radius == ng, val, cur,
                                       rem, trail, queue, dstk)
                used += nodes
                if used > max_nodes:
                    return -1, unresolved
                if found and whole:
                    for g in range(ng):
                        if val[g] > 0:
                            hm[g] = 1
                        if val[g] < gsize[g]:
                            hs[g] = 1
                    answered = True
                elif not found and nodes <= budget:
                    if t < 0:
                        return -2, unresolved
                    answered = True     # no solution in the window: the answer is no
                elif t < 0 or radius == MAX_RADIUS or (radius != ng and whole):
                    if t >= 0:          # left open: answered yes, nothing claimed
                        unresolved += 1
                        if want_mine == 1:
                            hm[t] = 1
                        else:
                            hs[t] = 1
                    answered = True
                else:
                    radius = 1 if radius == ng else radius + 1
    return used, unresolved


@njit(cache=True, no_cpython_wrapper=True)
def _log_choose(n, k):
    return math.lgamma(n + 1.0) - math.lgamma(k + 1.0) - math.lgamma(n - k + 1.0)


@njit(cache=True, no_cpython_wrapper=True)
def _mix(gw, gb, a, alen, b, blen, c, clen, sign):
    """``gw[c + x] = sum_i gw[a + i] * gw[b + x + sign * i]`` for ``x < clen`` (terms
    outside ``b``'s ``blen`` entries left out), scaled to a largest value of 1; ``gb``
    gets whether some term is admissible on both sides."""
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
    ``out`` gets the off-frontier mine probability (NaN when ``u == 0``) and ``out[1]`` =
    1 when those cells are all safe, 2 all mines, 0 neither. Returns 1, 0 when no total
    is admissible (a contradiction), or ``NEED_GLOBAL``.
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
    for c in range(k):
        f = comp_final[c]
        qoff[c] = o                    # t_c here for now, q_c at qbase + o later
        span = st[f, HI] - st[f, LO] + 1
        fo = st[f, FOFF]
        top = 0.0
        for b in range(span):
            if fp[fo + b] > top:
                top = fp[fo + b]
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
    pre = s_all
    for c in range(k - 1, -1, -1):
        span = st[comp_final[c], HI] - st[comp_final[c], LO]
        pre -= span
        _mix(gw, gb, np.int64(qoff[c]), span + 1, ybase + (c + 1) * (s_all + 1),
             pre + span + 1, ybase + c * (s_all + 1), pre + 1, np.int64(1))
    if gb[ybase] == 0:
        return 0
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
    skipped). With ``P_REDUCE_FIRST`` the counting is left out when the reduction alone
    proved a cell (``res[R_CODE] = A_REDUCED``). ``res`` gets the outcome (``A_OK``,
    ``A_CONTRADICTION``, ``A_REDUCED`` or a ``NEED_*`` code: grow that array and call
    again), the components, those skipped over a cap and the states visited.
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
    out2 = fw[3 * (n + 2):3 * (n + 2) + 2]
    qoff = work3
    chk = np.empty((27, 3), np.int64)
    top = np.zeros(4, np.int64)
    top_save = np.zeros(4, np.int64)
    for i in range(N_RES):
        res[i] = 0
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
            if params[P_WITNESS] != 0:
                m_hi = np.int64(grp_cptr[g0 + ng] - grp_cptr[g0])
                if exact and remaining < m_hi:
                    m_hi = remaining
                w, _ = witness_search(ng, grp_size[g0:g0 + ng], nk, ccnt, c_ptr, c_grp, g_ptr,
                                      g_con, m_hi, max_nodes, hm, hs, order, pos, last, open_a,
                                      open_b, rem, np.empty(ng + 1, np.int32),
                                      np.empty(26 * ng + 27, np.int32),
                                      np.empty((ng + 1, 4), np.int64))
                if w == -2:
                    res[R_CODE] = A_CONTRADICTION
                    return
                if w >= 0:
                    nodes += w
                    for g in range(ng):
                        mark = SAFE if hm[g] == 0 else (MINE if hs[g] == 0 else UNKNOWN)
                        for q2 in range(grp_cptr[g0 + g], grp_cptr[g0 + g + 1]):
                            known[grp_cells[q2]] = mark
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
