"""Kernels of the waypoint search of the any-solution mode
(:mod:`levelforge.sokoban.waypoint`): how open each state of a backward search is, and
how far the start's boxes are from its boxes.

A backward search (pulls from the solved state) stores states from which the goals are
reachable, with the pushes that reach them. The waypoint search picks among them a state
that is open (its boxes cut the free floor into few areas and each can still be pulled
somewhere) and near the start (a cheap assignment of the start's boxes to its cells by
walking distance), and searches forwards to it. These kernels score the stored states;
the choice is made in Python.
"""
import numpy as np
from numba import njit

from .grid import flood_fill
from .sokoban_heuristic import matching_cost


@njit(cache=True, _nrt=False, nogil=True)
def open_scores(pool, nodes, nbox, walls, floor, width, blk, stamp, queue, out, halt):
    """For each of the first ``nodes`` states of ``pool`` (``nbox`` box cells each), the
    number of areas of free floor its boxes cut the board into (``out[j, 0]``: 4-connected
    components of the ``floor`` cells that hold no box) and the number of its boxes no
    pull can move as they stand (``out[j, 1]``: on every side a wall, or a box or wall
    two cells away, where the player would step back to). ``blk`` (uint8, one per
    cell, a copy of ``walls`` on entry and on return), ``stamp`` (int64, zero on
    entry) and ``queue`` (int32) are work arrays of one entry per cell. Returns the
    number of states scored: fewer when ``halt[0]`` is set (looked at every 256 states;
    a time limit's watchdog sets it: on a 64x64 board a state's fills cost about 4,000
    cell visits)."""
    steps = (-width, -1, 1, width)
    for j in range(nodes):
        if (j & 255) == 0 and halt[0] != 0:
            return j
        base = j * nbox
        for i in range(nbox):
            blk[pool[base + i]] = 1
        epoch = np.int64(j + 1)
        regions = 0
        for f in range(floor.shape[0]):
            c = floor[f]
            if blk[c] or stamp[c] == epoch:
                continue
            regions += 1
            flood_fill(blk, width, np.int64(c), stamp, epoch, queue)
        stuck = 0
        for i in range(nbox):
            b = pool[base + i]
            free = False
            for d in range(4):
                p = b + steps[d]
                if blk[p] == 0 and blk[p + steps[d]] == 0:
                    free = True
                    break
            if not free:
                stuck += 1
        out[j, 0] = regions
        out[j, 1] = stuck
        for i in range(nbox):
            blk[pool[base + i]] = 0
    return nodes


@njit(cache=True, _nrt=False, nogil=True)
def walk_costs(pool, cand, nbox, wd, cost, cols, hu, hv, hp, hway, hminv, hused, out, halt):
    """For each state ``cand[k]`` of ``pool``, the least total walking distance of an
    assignment of the start's boxes to its box cells (``wd[i, c]``: steps from start
    box ``i`` to cell ``c``, boxes ignored) into ``out[k]``: the solver's Hungarian
    method (:func:`levelforge.engine.sokoban_heuristic.matching_cost`) over ``cost``
    (``nbox x nbox`` int64, row ``t`` the walks to the state's ``t``-th cell), start
    box ``i`` its column ``cols[i] = i``; ``hu`` .. ``hused`` are its work arrays
    (int64, ``nbox + 1`` entries). Returns the number of states costed: fewer when
    ``halt[0]`` is set (looked at every 16 states: with 128 boxes a state costs about
    2M steps)."""
    for i in range(nbox):
        cols[i] = i
    for k in range(cand.shape[0]):
        if (k & 15) == 0 and halt[0] != 0:
            return k
        base = cand[k] * nbox
        for t in range(nbox):
            c = pool[base + t]
            for i in range(nbox):
                cost[t, i] = wd[i, c]
        out[k] = matching_cost(cols, nbox, cost, hu, hv, hp, hway, hminv, hused)
    return cand.shape[0]
