"""Sokoban deadlock patterns of a small window, proved by exhaustive search of the window
(the deadlock tables of Festival and YASS, built lazily for the board at hand).

Take the boxes inside a 4x4 window of the board and drop every other box; treat every
cell outside the window as free floor that the player can always walk round, and a box
pushed out of the window as done. Any solution of the real state, cut down to those
boxes, stays legal in this relaxed window (fewer obstacles, more room) until each box
either leaves the window or ends on a goal inside it; and it never pushes a box onto a
dead square of the real board. So when a breadth-first search over the window's states
(box set, player region) that prunes pushes onto dead squares runs out of states before
every box left in the window stands on a goal, the real state is a deadlock: a proof.

The verdict depends only on the window's place, its boxes and the player's region in it,
so each is kept in a direct-mapped cache (``wcache``, entries compared whole), emptied for
each board. :func:`window_deadlock` looks at the windows that hold the pushed box in
their central 2x2 cells, when another box stands next to it (diagonals included) and the
window holds a box off its goal (a lone box is already covered by the dead squares).
The state cap ``WCAP`` is small: a window that needs more states to get its boxes out
is rarely dead, and the searches cost time on every push.

Window cells are numbered ``i = 4 * dy + dx``; the player region's *norm* is 16 when it
touches the window's border (the player can then walk round outside), else its smallest
cell. Work array ``wwork`` (int64): 16 board cells, 16 flags, 17 visited marks, a queue
of 17, the expanded state's 17 visited marks, ``WCAP`` states and a hash table of
``4 * WCAP`` slots, a generation counter, and the counters ``W_RUNS`` (window searches
run), ``W_PROVED`` (windows proved dead) and ``W_STUCK`` (stuck sets found, counted by
:func:`levelforge.engine.sokoban_deadlock.push_deadlock`): :data:`WWORK` slots in all.
"""
import numpy as np
from numba import njit

WCAP = 64
"""Most window states one search stores (then no verdict: the window is not proved)."""
WCACHE = 1 << 15
"""Entries of the verdict cache."""
_CELL, _FLAG, _VIS, _QUE, _PVIS, _ST = 0, 16, 32, 49, 66, 83
_TAB = _ST + WCAP
_GEN = _TAB + 4 * WCAP
W_RUNS, W_PROVED, W_STUCK = _GEN + 1, _GEN + 2, _GEN + 3
WWORK = _GEN + 4
"""Length of the work array ``wwork``."""
_WALL, _GOAL, _DEAD, _EDGE = 1, 2, 4, 8
_OUT = 16
_DX = (0, -1, 1, 0)
_DY = (-1, 0, 0, 1)


@njit(cache=True, _nrt=False)
def _flood(start, mask, wwork):
    """Mark the player's region from window cell ``start`` (or ``_OUT``: from outside)
    with boxes ``mask`` in ``wwork[_VIS:]``; return its norm."""
    for i in range(17):
        wwork[_VIS + i] = 0
    tail = 0
    if start == _OUT:
        wwork[_VIS + _OUT] = 1
    else:
        wwork[_VIS + start] = 1
        wwork[_QUE] = start
        tail = 1
    head = 0
    while True:
        if wwork[_VIS + _OUT] == 1:  # outside: every free border cell joins
            wwork[_VIS + _OUT] = 2
            for i in range(16):
                if wwork[_FLAG + i] & _EDGE and wwork[_FLAG + i] & _WALL == 0 \
                        and (mask >> i) & 1 == 0 and wwork[_VIS + i] == 0:
                    wwork[_VIS + i] = 1
                    wwork[_QUE + tail] = i
                    tail += 1
        if head == tail:
            break
        i = wwork[_QUE + head]
        head += 1
        if wwork[_FLAG + i] & _EDGE and wwork[_VIS + _OUT] == 0:
            wwork[_VIS + _OUT] = 1
        x = i & 3
        y = i >> 2
        for d in range(4):
            nx = x + _DX[d]
            ny = y + _DY[d]
            if nx < 0 or nx > 3 or ny < 0 or ny > 3:
                continue
            j = 4 * ny + nx
            if wwork[_FLAG + j] & _WALL == 0 and (mask >> j) & 1 == 0 and wwork[_VIS + j] == 0:
                wwork[_VIS + j] = 1
                wwork[_QUE + tail] = j
                tail += 1
    if wwork[_VIS + _OUT] != 0:
        return np.int64(_OUT)
    norm = np.int64(_OUT)
    for i in range(16):
        if wwork[_VIS + i] != 0 and i < norm:
            norm = i
    return norm


@njit(cache=True, _nrt=False)
def _insert(mask, norm, nodes, wwork):
    """Store the state (``mask``, ``norm``) unless seen: the new node count, or -1 when
    it is new and ``WCAP`` states are stored already."""
    key = (mask << 5) | norm
    tmask = 4 * WCAP - 1
    slot = ((key * 0x9E3779B1) >> 7) & tmask
    gen = wwork[_GEN]
    while True:
        e = wwork[_TAB + slot]
        if (e >> 32) != gen:
            break
        if (e & 0xFFFFFFFF) == key + 1:
            return nodes
        slot = (slot + 1) & tmask
    if nodes == WCAP:
        return -1
    wwork[_TAB + slot] = (gen << 32) | (key + 1)
    wwork[_ST + nodes] = key
    return nodes + 1


@njit(cache=True, _nrt=False)
def _search(mask, norm, goalmask, wwork):
    """The window search from boxes ``mask`` and player norm ``norm``: 1 a deadlock,
    0 some state has every box left on a goal, 2 the state cap was reached."""
    wwork[_GEN] += 1
    nodes = _insert(mask, norm, 0, wwork)
    head = 0
    while head < nodes:
        key = wwork[_ST + head]
        head += 1
        m = key >> 5
        _flood(key & 31, m, wwork)
        for i in range(17):
            wwork[_PVIS + i] = wwork[_VIS + i]
        for i in range(16):
            if (m >> i) & 1 == 0:
                continue
            x = i & 3
            y = i >> 2
            for d in range(4):
                qx = x - _DX[d]
                qy = y - _DY[d]
                if qx < 0 or qx > 3 or qy < 0 or qy > 3:
                    if wwork[_PVIS + _OUT] == 0:
                        continue
                elif wwork[_PVIS + 4 * qy + qx] == 0:
                    continue
                tx = x + _DX[d]
                ty = y + _DY[d]
                if tx < 0 or tx > 3 or ty < 0 or ty > 3:
                    m2 = m & ~(np.int64(1) << i)  # out of the window: done
                else:
                    j = 4 * ty + tx
                    if wwork[_FLAG + j] & (_WALL | _DEAD) or (m >> j) & 1:
                        continue
                    m2 = (m & ~(np.int64(1) << i)) | (np.int64(1) << j)
                if m2 & ~goalmask == 0:
                    return 0
                # the player stands on i after the push
                nodes = _insert(m2, _flood(i, m2, wwork), nodes, wwork)
                if nodes < 0:
                    return 2
    return 1


@njit(cache=True, _nrt=False)
def window_deadlock(t, player, walls, goals, occ, dead, width, wcache, wwork):
    """True when a 4x4 window holding the box on ``t`` in its central cells is proved a
    deadlock (see the module docstring), the boxes marked in ``occ`` and the player on
    ``player``. ``wcache`` (int64, a power of two of entries, -1 where empty: set it so
    for a new board) keeps the verdicts; ``wwork`` (int64, :data:`WWORK` slots) is the
    search's work array."""
    n = walls.shape[0]
    height = n // width
    if width < 4 or height < 4:
        return False
    near = False  # a box among the eight neighbours of t (else no window is searched)
    for o in (-width - 1, -width, -width + 1, -1, 1, width - 1, width, width + 1):
        if occ[t + o]:
            near = True
            break
    if not near:
        return False
    tx = t % width
    ty = t // width
    cmask = wcache.shape[0] - 1
    for p in range(4):
        ox = min(max(tx - 1 - (p & 1), 0), width - 4)
        oy = min(max(ty - 1 - (p >> 1), 0), height - 4)
        origin = oy * width + ox
        mask = np.int64(0)
        goalmask = np.int64(0)
        start = np.int64(_OUT)
        for i in range(16):
            c = origin + (i >> 2) * width + (i & 3)
            wwork[_CELL + i] = c
            f = 0
            if walls[c]:
                f |= _WALL
            if goals[c]:
                f |= _GOAL
                goalmask |= np.int64(1) << i
            if dead[c]:
                f |= _DEAD
            if (i & 3) == 0 or (i & 3) == 3 or i < 4 or i >= 12:
                f |= _EDGE
            wwork[_FLAG + i] = f
            if occ[c]:
                mask |= np.int64(1) << i
            if c == player:
                start = i
        if mask & (mask - 1) == 0 or mask & ~goalmask == 0:
            continue  # fewer than two boxes, or all of them on goals
        norm = _flood(start, mask, wwork)
        key = (np.int64(origin) << 21) | (norm << 16) | mask
        slot = ((key * 0x9E3779B1) >> 16) & cmask
        e = wcache[slot]
        if e >= 0 and (e >> 2) == key:
            verdict = e & 3
        else:
            verdict = _search(mask, norm, goalmask, wwork)
            wcache[slot] = (key << 2) | verdict
            wwork[W_RUNS] += 1
        if verdict == 1:
            wwork[W_PROVED] += 1
            return True
    return False
