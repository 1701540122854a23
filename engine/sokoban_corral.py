"""Corral deadlocks by a small search (as Festival and YASS detect them): the boxes of a
corral, alone on the board, can never all reach goals.

A *corral* is an area the player cannot enter (see
:func:`levelforge.engine.sokoban_board.pi_corral`). Take only its boxes and drop every
other box: the pushes of the corral's boxes in any solution of the real state stay legal
(fewer obstacles, a larger player region) and end with those boxes on goals. So when a
breadth-first search over pushes of the corral's boxes alone, pruned by dead squares and
freeze deadlocks of that smaller set, runs out of states without putting them all on
goals (any goals), the real state is a deadlock: a proof, which keeps push-optimality
and the ``unsolvable`` verdict. The search stops, proving nothing, at its node cap or
when the corral has more boxes than its node arrays hold.

The search depends only on the corral's boxes and the player's region among them, and a
corral stays as it is while the boxes elsewhere move, so each verdict is kept in a
direct-mapped cache of such configurations (each entry stored whole and compared whole
on a hit: a verdict is never taken from another configuration).

Used by the feature-space search (:mod:`levelforge.engine.sokoban_fess`) on the PI-corral
of each expanded state; compiled on the first ``optimal=False`` solve only.
"""
import numpy as np
from numba import njit

from .grid import flood_fill
from .sokoban_board import frozen_state

# slots of ``cctr`` (int64[N_CCOUNTERS])
CC_GEN = 0    # table generation of the running search
CC_FILL = 1   # flood-fill epoch of ``cstamp``
CC_FILL2 = 2  # flood-fill epoch of ``cstamp2``
CC_RUNS = 3   # searches run
CC_PROVED = 4  # deadlocks proved
N_CCOUNTERS = 5
_GEN_SHIFT = 32


@njit(cache=True, _nrt=False)
def corral_deadlock(nbox_pool, base, nbox, zmark, stamp2, player, walls, goals, dead, zob,
                    width, tmp, fstack, cblk, cocc, cstamp, cstamp2, cqueue, cpool, cplayer,
                    ctable, cctr, dkey, dnorm, dbox, dres):
    """True when the boxes of ``nbox_pool[base:base + nbox]`` on cells with
    ``stamp2 == zmark`` (a corral), alone on the board with the player on ``player``,
    can never all stand on goals (see the module docstring); False when they can, or
    when the search gave up (more boxes than ``cpool.shape[0] // cplayer.shape[0]``,
    or ``cplayer.shape[0]`` states stored). Work arrays: ``cblk`` (uint8, equal to
    ``walls`` on entry and on return), ``cocc`` (uint8, zero on entry and on return),
    ``cstamp``/``cstamp2``/``cqueue`` (one slot per cell), ``cpool`` (int16, the
    states' boxes), ``cplayer`` (int32, the node cap), ``ctable`` (int64, a power of
    two of at least twice the node cap), ``cctr`` (the counters above); the cache:
    ``dkey`` (int64, a power of two of entries), ``dnorm`` (int32, -1 where empty: set
    it so for a new board), ``dbox`` (int16, as many boxes per entry as ``cpool``
    holds per state) and ``dres`` (int16: ``2 * boxes + verdict``)."""
    maxk = cpool.shape[0] // cplayer.shape[0]
    k = 0
    off = 0
    for i in range(nbox):
        b = nbox_pool[base + i]
        if stamp2[b] == zmark:
            if k == maxk:
                return False
            cpool[k] = b
            k += 1
            if goals[b] == 0:
                off += 1
    if k == 0 or off == 0:
        return False
    # the root: its normalised player cell, then the cache
    for q in range(k):
        cblk[cpool[q]] = 1
    cctr[CC_FILL2] += 1
    m = flood_fill(cblk, width, np.int64(player), cstamp2, cctr[CC_FILL2], cqueue)
    norm = cqueue[0]
    for i in range(1, m):
        if cqueue[i] < norm:
            norm = cqueue[i]
    for q in range(k):
        cblk[cpool[q]] = 0
    key = zob[1, norm]
    for q in range(k):
        key ^= zob[0, cpool[q]]
    entry = np.int64(key & np.uint64(dkey.shape[0] - 1))
    if dnorm[entry] == norm and dkey[entry] == np.int64(key) and dres[entry] >> 1 == k:
        same = True
        for q in range(k):
            if dbox[entry * maxk + q] != cpool[q]:
                same = False
                break
        if same:
            return dres[entry] & 1 == 1
    proved = _search(k, norm, key, walls, goals, dead, zob, width, tmp, fstack, cblk, cocc,
                     cstamp, cstamp2, cqueue, cpool, cplayer, ctable, cctr)
    dkey[entry] = np.int64(key)
    dnorm[entry] = norm
    dres[entry] = 2 * k + (1 if proved else 0)
    for q in range(k):
        dbox[entry * maxk + q] = cpool[q]
    return proved


@njit(cache=True, _nrt=False)
def _search(k, norm, key, walls, goals, dead, zob, width, tmp, fstack, cblk, cocc, cstamp,
            cstamp2, cqueue, cpool, cplayer, ctable, cctr):
    """The breadth-first search of :func:`corral_deadlock` from the ``k`` boxes
    ``cpool[:k]`` and the normalised player cell ``norm`` (state hash ``key``)."""
    steps = (-width, -1, 1, width)
    cap = cplayer.shape[0]
    mask = ctable.shape[0] - 1
    cctr[CC_RUNS] += 1
    if cctr[CC_GEN] >= (1 << 30):
        for i in range(ctable.shape[0]):
            ctable[i] = 0
        cctr[CC_GEN] = 0
    cctr[CC_GEN] += 1
    gen = cctr[CC_GEN]
    ctable[np.int64(key & np.uint64(mask))] = (gen << _GEN_SHIFT) | 1
    cplayer[0] = norm
    nodes = 1
    head = 0
    proved = True
    while head < nodes and proved:
        jb = head * k
        for q in range(k):
            c = cpool[jb + q]
            cblk[c] = 1
            cocc[c] = 1
        cctr[CC_FILL] += 1
        ep = cctr[CC_FILL]
        flood_fill(cblk, width, np.int64(cplayer[head]), cstamp, ep, cqueue)
        for i in range(k):
            b = np.int64(cpool[jb + i])
            for d in range(4):
                s = steps[d]
                t = b + s
                if cblk[t] or dead[t] or cstamp[b - s] != ep:
                    continue
                cocc[b] = 0
                cblk[b] = 0
                cocc[t] = 1
                cblk[t] = 1
                if frozen_state(t, walls, cocc, dead, goals, tmp, width, fstack) != 2:
                    if nodes == cap:
                        proved = False  # the node cap: unknown
                    else:
                        # the child's boxes, sorted, into the next free node
                        cb = nodes * k
                        w = 0
                        off = 0
                        for q in range(k):
                            v = cpool[jb + q]
                            if q != i:
                                cpool[cb + w] = v
                                w += 1
                        w = k - 1
                        while w > 0 and cpool[cb + w - 1] > t:
                            cpool[cb + w] = cpool[cb + w - 1]
                            w -= 1
                        cpool[cb + w] = t
                        for q in range(k):
                            if goals[cpool[cb + q]] == 0:
                                off += 1
                        if off == 0:
                            proved = False  # every box of the corral on a goal
                        else:
                            cctr[CC_FILL2] += 1
                            m = flood_fill(cblk, width, b, cstamp2, cctr[CC_FILL2], cqueue)
                            cnorm = cqueue[0]
                            for q in range(1, m):
                                if cqueue[q] < cnorm:
                                    cnorm = cqueue[q]
                            ckey = zob[1, cnorm]
                            for q in range(k):
                                ckey ^= zob[0, cpool[cb + q]]
                            slot = np.int64(ckey & np.uint64(mask))
                            seen = False
                            while True:
                                e = ctable[slot]
                                if (e >> _GEN_SHIFT) != gen:
                                    break
                                j = (e & 0xFFFFFFFF) - 1
                                if cplayer[j] == cnorm:
                                    same = True
                                    for q in range(k):
                                        if cpool[j * k + q] != cpool[cb + q]:
                                            same = False
                                            break
                                    if same:
                                        seen = True
                                        break
                                slot = (slot + 1) & mask
                            if not seen:
                                ctable[slot] = (gen << _GEN_SHIFT) | (nodes + 1)
                                cplayer[nodes] = cnorm
                                nodes += 1
                cocc[t] = 0
                cblk[t] = 0
                cocc[b] = 1
                cblk[b] = 1
                if not proved:
                    break
            if not proved:
                break
        for q in range(k):
            c = cpool[jb + q]
            cblk[c] = 0
            cocc[c] = 0
        head += 1
    if proved:
        cctr[CC_PROVED] += 1
    return proved
