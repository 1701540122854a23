"""Certain cells of a component too large to count: depth-first searches for a whole
solution and for solutions of small windows of rows around each group (a window without
a solution proves its group certain), within a node budget.
"""
import numpy as np
from numba import njit


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
