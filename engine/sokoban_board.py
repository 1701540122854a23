"""Sokoban board analysis kernels: dead squares and push distances of a board, the freeze
deadlock test, and PI-corral pruning (the boxes worth pushing, or a proof of deadlock).

Boards are flat arrays of ``height * width`` cells (cell ``i = y * width + x``), enclosed
(see :mod:`levelforge.engine.sokoban`). Directions are numbered 0..3 = up, left, right, down.
"""
import numpy as np
from numba import njit

from .sokoban_state import C_FILL2, C_HALT, UNREACHABLE


@njit(cache=True, _nrt=False, nogil=True)
def push_distances(walls, goal_cells, width, dist, dead, sides, lab, compof, ctr=None):
    """Push distance of every cell to every goal, and the dead squares.

    ``dist[k, 4 * c + s]`` is the least number of pushes that bring a lone box from
    ``c`` onto goal ``goal_cells[k]`` with the player next to it on side ``s`` (other
    boxes ignored; the player walks around the box between pushes), ``UNREACHABLE`` if
    none: a breadth-first search of *pulls* from the goal over (box cell, player side)
    states. Sides the player can walk between share one distance.
    ``dead[c]`` is 1 for non-wall cells from which no goal is reachable by pushing (this
    covers dead corners), 0 elsewhere. ``sides`` is an int32 work array of ``12 * n``
    slots, ``lab`` an int64 work array of ``n``; ``compof`` (int8, ``n * n`` slots)
    receives the side components. With the search counters ``ctr`` (not None), a set
    ``ctr[C_HALT]`` (a time limit, a cancel) stops the work half done (the caller
    drops it): it can take 0.1 s on a 64x64 board.

    Side components first: which sides of a box the player can walk between. With only
    the box on ``b`` blocking, ``comp[4 * b + k]`` is the smallest side index ``k'``
    whose neighbour cell is connected to side ``k``'s neighbour, -1 where that neighbour
    is a wall; ``compof[b * n + c]`` is that side index for the component holding cell
    ``c`` (-1 when ``c`` touches no side of ``b``).
    """
    steps = (-width, -1, 1, width)  # cell offsets up, left, right, down
    n = walls.shape[0]
    comp = sides[:4 * n]
    sdist = sides[4 * n:8 * n]
    squeue = sides[8 * n:12 * n]
    for c in range(n):
        lab[c] = 0
    for b in range(n):
        if ctr is not None and ctr[C_HALT] != 0:
            return
        for k in range(4):
            comp[4 * b + k] = -1
        rb = b * n
        for c in range(n):
            compof[rb + c] = -1
        if walls[b]:
            continue
        for k in range(4):
            start = b + steps[k]
            if walls[start]:
                continue
            mark = lab[start]
            if mark > 4 * b:  # filled from an earlier side of this same box
                comp[4 * b + k] = comp[4 * b + (mark - 4 * b - 1)]
                continue
            comp[4 * b + k] = k
            epoch = 4 * b + k + 1
            lab[start] = epoch
            squeue[0] = start
            head = 0
            tail = 1
            while head < tail:
                c = squeue[head]
                head += 1
                compof[rb + c] = k
                for d in range(4):
                    nb = c + steps[d]
                    if nb == b or walls[nb] or lab[nb] == epoch:
                        continue
                    lab[nb] = epoch
                    squeue[tail] = nb
                    tail += 1
    # then push distances: a BFS of pulls from each goal
    for c in range(n):
        dead[c] = 0 if walls[c] else 1
    for gi in range(goal_cells.shape[0]):
        if ctr is not None and ctr[C_HALT] != 0:
            return
        for s in range(4 * n):
            sdist[s] = UNREACHABLE
        g = goal_cells[gi]
        tail = 0
        for k in range(4):
            if comp[4 * g + k] >= 0:
                sdist[4 * g + k] = 0
                squeue[tail] = 4 * g + k
                tail += 1
        head = 0
        while head < tail:
            st = squeue[head]
            head += 1
            b = st >> 2
            k = st & 3
            step = steps[k]
            b2 = b + step       # the box came from the player's cell ...
            if walls[b2 + step]:  # ... pushed by a player standing one further
                continue
            c = comp[4 * b2 + k]
            nd = sdist[st] + 1
            for k2 in range(4):
                s2 = 4 * b2 + k2
                if comp[s2] == c and sdist[s2] == UNREACHABLE:
                    sdist[s2] = nd
                    squeue[tail] = s2
                    tail += 1
        row = dist[gi]
        for s in range(4 * n):
            row[s] = sdist[s]
            if sdist[s] < UNREACHABLE:
                dead[s >> 2] = 0
        for k in range(4):
            row[4 * g + k] = 0
        dead[g] = 0


@njit(cache=True, _nrt=False)
def frozen_state(c0, walls, occ, dead, goals, tmp, width, fstack):
    """Freeze test of the box on ``c0``: 0 movable, 1 frozen (every frozen box involved on
    a goal), 2 frozen with a box off its goal (a deadlock).

    A box is frozen when it is blocked on both axes; an axis is blocked by a wall on
    either side, by dead squares on both sides, or by a frozen box on either side
    (tested recursively, with the boxes under test counted as walls). The recursion runs
    on the explicit stack ``fstack`` (int64, one frame per box, packed as
    ``cell * 64 + axis * 16 + stage * 4 + result``). ``tmp`` is a zeroed uint8 work
    array; it is zero again on return.
    """
    tmp[c0] = 1
    fstack[0] = np.int64(c0) * 64 + (1 if goals[c0] else 2)
    sp = 1
    ret = 0
    while sp > 0:
        fr = fstack[sp - 1]
        c = fr >> 6
        axis = (fr >> 4) & 1
        stage = (fr >> 2) & 3
        result = fr & 3
        s = 1 if axis == 0 else width
        a = c - s
        b = c + s
        child = -1
        blocked = 0
        if stage == 0:
            if walls[a] or walls[b] or tmp[a] or tmp[b] or (dead[a] and dead[b]):
                blocked = 1
            elif occ[a]:
                stage = 1
                child = a
            elif occ[b]:
                stage = 2
                child = b
        elif stage == 1:
            if ret:
                blocked = ret
            elif occ[b]:
                stage = 2
                child = b
        else:
            blocked = ret
        if child >= 0:
            fstack[sp - 1] = c * 64 + axis * 16 + stage * 4 + result
            tmp[child] = 1
            fstack[sp] = np.int64(child) * 64 + (1 if goals[child] else 2)
            sp += 1
            continue
        if blocked == 0:
            tmp[c] = 0
            sp -= 1
            ret = 0
            continue
        if blocked > result:
            result = blocked
        if axis == 0:
            fstack[sp - 1] = c * 64 + 16 + result
            continue
        tmp[c] = 0
        sp -= 1
        ret = result
    return ret


@njit(cache=True, _nrt=False)
def pi_corral(nbox_pool, base, nbox, walls, goals, occ, dead, stamp, epoch, width, stamp2,
              ctr, queue2):
    """The boxes worth pushing in the state whose boxes are ``nbox_pool[base:base+nbox]``
    (marked in ``occ``) and whose player region is ``stamp == epoch``: -1 for all of
    them, 0 when the state is a deadlock, else an epoch ``e > 0``: push only the boxes
    on cells with ``stamp2 == e`` (the chosen corral; no box count limit).

    A *corral* ``Z`` is a connected area of non-wall cells outside the player's region
    (its boxes included). It is chosen when it holds a box off its goal or an empty goal
    (so every solution pushes one of its boxes) and every push of each of its boxes is
    either possible now and into a free cell of ``Z``, or impossible until one of its
    boxes moves (the player would stand on a wall or in ``Z``; the box would go onto a
    wall, a box of ``Z`` or a dead square). Then in any solution the first push of a
    ``Z`` box is possible now and can be made first without changing the pushes around
    it: no other box enters ``Z`` and the player never walks in it before, so only the
    pushes of ``Z``'s boxes need be expanded, which keeps push-optimality. With no such
    push at all the state is a deadlock. Among several such corrals the one with the
    fewest pushes is taken. ``stamp2`` and ``queue2`` are work arrays (their epochs
    come from ``ctr[C_FILL2]``)."""
    steps = (-width, -1, 1, width)  # cell offsets up, left, right, down
    first = ctr[C_FILL2] + 1
    best = np.int64(-1)
    best_count = 1 << 30
    for i in range(nbox):
        b0 = nbox_pool[base + i]
        if stamp2[b0] >= first:
            continue  # in a corral seen already
        ctr[C_FILL2] += 1
        ep = ctr[C_FILL2]
        stamp2[b0] = ep
        queue2[0] = b0
        head = 0
        tail = 1
        need = False
        while head < tail:
            c = queue2[head]
            head += 1
            if goals[c] != occ[c]:
                need = True
            for d in range(4):
                nb = c + steps[d]
                if walls[nb] or stamp[nb] == epoch or stamp2[nb] == ep:
                    continue
                stamp2[nb] = ep
                queue2[tail] = nb
                tail += 1
        if not need:
            continue
        ok = True
        count = 0
        for j in range(i, nbox):
            bj = nbox_pool[base + j]
            if stamp2[bj] != ep:
                continue
            for d in range(4):
                sd = steps[d]
                pb = bj - sd
                tb = bj + sd
                if walls[pb] or stamp2[pb] == ep or walls[tb] or dead[tb] \
                        or (occ[tb] and stamp2[tb] == ep):
                    continue  # impossible until a box of the corral moves
                if stamp[pb] == epoch and stamp2[tb] == ep and not occ[tb]:
                    count += 1  # possible now, into the corral
                    continue
                ok = False
                break
            if not ok:
                break
        if ok and count < best_count:
            best_count = count
            best = ep if count > 0 else np.int64(0)
    return best
