"""Sokoban generator kernels: the solved room, random legal pulls, and the reverse-play
generator that measures the push-optimal length with the solver while pulling.

Kept apart from the solver kernels (:mod:`levelforge.engine.sokoban`) so a process that
only solves never compiles them. The generator runs the search without symmetry tables
(``symtab=None``), so the symmetry code is not compiled on this path either.
"""
import numpy as np
from numba import njit

from .grid import flood_fill, rng_below, rng_choose
from .sokoban import reconstruct, search_run, search_start
from .sokoban_board import push_distances
from .sokoban_state import C_FILL2, C_GOAL, C_HALT, C_NODES, HALTED, RUNNING, SOLVED


@njit(cache=True, _nrt=False)
def _build_room(width, height, nbox, inner_walls, rng, walls, goals, occ, stamp, ctr,
                queue, cells):
    """A room with a wall border, ``inner_walls`` random inner walls keeping the floor
    connected, ``nbox`` goals with a box on each (``occ``) and a player cell (returned;
    -1 if the room is too small)."""
    n = width * height
    for c in range(n):
        x = c % width
        y = c // width
        walls[c] = 1 if (x == 0 or y == 0 or x == width - 1 or y == height - 1) else 0
        goals[c] = 0
        occ[c] = 0
    nfloor = np.int64(0)  # not a literal: one specialisation of rng_below
    for c in range(n):
        if walls[c] == 0:
            cells[nfloor] = c
            nfloor += 1
    placed = 0
    tries = 0
    while placed < inner_walls and tries < 8 * (inner_walls + 1) and nfloor > nbox + 2:
        tries += 1
        k = rng_below(rng, nfloor)
        c = cells[k]
        walls[c] = 1
        start = cells[0] if k != 0 else cells[1]
        ctr[C_FILL2] += 1
        reach = flood_fill(walls, width, np.int64(start), stamp, ctr[C_FILL2], queue)
        if reach != nfloor - 1:
            walls[c] = 0
            continue
        cells[k] = cells[nfloor - 1]
        nfloor -= 1
        placed += 1
    if nfloor < nbox + 1:
        return -1
    # goals and boxes on distinct floor cells, then the player on another one
    rng_choose(rng, cells, nfloor, nbox + 1)
    for i in range(nbox):
        goals[cells[i]] = 1
        occ[cells[i]] = 1
    return cells[nbox]


@njit(cache=True, _nrt=False)
def _random_pull(walls, occ, width, player, rng, stamp, ctr, queue, cand):
    """Walk to a random reachable cell next to a box and pull it one cell (the player
    steps back, the box follows into the cell the player left). Uniform over all legal
    pulls from the player's region. Returns the new player cell, -1 if no pull exists."""
    steps = (-width, -1, 1, width)  # cell offsets up, left, right, down
    # blocked = walls | boxes; occ holds the boxes, walls the walls: fill over both
    ctr[C_FILL2] += 1
    epoch = ctr[C_FILL2]
    stamp[player] = epoch
    queue[0] = player
    head = 0
    tail = 1
    while head < tail:
        c = queue[head]
        head += 1
        for d in range(4):
            nb = c + steps[d]
            if walls[nb] or occ[nb] or stamp[nb] == epoch:
                continue
            stamp[nb] = epoch
            queue[tail] = nb
            tail += 1
    m = np.int64(0)  # not a literal: one specialisation of rng_below
    for i in range(tail):
        q = queue[i]
        for d in range(4):
            s = steps[d]
            # box on q - s, player on q steps to q + s, box follows to q
            if occ[q - s] and not walls[q + s] and not occ[q + s]:
                cand[m] = q * 4 + d
                m += 1
    if m == 0:
        return -1
    pick = cand[rng_below(rng, m)]
    q = pick >> 2
    s = steps[pick & 3]
    occ[q - s] = 0
    occ[q] = 1
    return q + s



@njit(cache=True, _nrt=False, nogil=True)
def generate_level(width, height, nbox, inner_walls, lo, hi, aim, skip, rebuilds, max_pulls,
                   every, node_cap, rng, zob,
                   walls, goals, dead, dist, goal_cells, cells, cand, sides, lab,
                   nbox_pool, nplayer, nparent, ng, nhash, nmove, heap, table, ctr,
                   occ, blk, stamp, queue, stamp2, queue2, tmp, wbox,
                   hu, hv, hp, hway, hminv, hused, fstack, hside, compof, prev, chain,
                   best_walls, best_goals, best_boxes, stats, out):
    """Reverse-play generator (see :func:`levelforge.sokoban.generate`).

    Fills ``best_walls``/``best_goals`` (uint8 per cell) and ``best_boxes`` (``nbox``
    cells), and ``stats``: [0] player cell, [1] pushes, [2] solution length in ``out``
    (-1 if ``out`` is too small: give it ``(max_pulls + 1) * (cells + 1)`` bytes), [3]
    boards built, [4] pulls, [5] solver calls, [6] solver nodes, [7] inner walls used,
    [8] capped solver calls, [9] boxes actually placed. Returns 1 (in target), 2
    (closest candidate outside the target), 0 (nothing solvable was found) or 3
    (``ctr[C_HALT]`` was set, looked at on every pull, in the push distances and in
    the solver: a time limit or a cancel; runs without the GIL so that a watchdog
    thread can set it). The
    search arrays must hold ``node_cap`` states (a search never asks to grow them).

    After ``skip`` pulls the optimum is measured every ``every`` pulls and once more
    when pulling stops (no legal pull, or ``max_pulls``). A board stops at the first
    measured optimum in ``[aim, hi]`` (``lo <= aim <= hi``; ``aim == lo`` is the plain
    rule "stop as soon as it is in the target"), past ``hi``, or at the node cap
    (unknown, not unsolvable). When a board ends short of ``aim`` but its best
    candidate is in ``[lo, hi]``, that one is taken. Each new closest candidate's
    solution is written to ``out`` at once, so nothing is solved twice.
    """
    n = width * height
    budget = np.int64(node_cap) + 1  # a run argument, not a constant: one specialisation
    for i in range(10):
        stats[i] = 0
    best_gap = -1
    found_in_target = False
    iw = inner_walls
    halted = False
    while iw >= 0 and not found_in_target and best_gap < 0 and not halted:
        for rebuild in range(rebuilds):
            player = _build_room(width, height, nbox, iw, rng, walls, goals, occ, stamp2,
                                 ctr, queue2, cells)
            stats[3] += 1
            if player < 0:
                break
            ng_ = 0
            for c in range(n):
                if goals[c]:
                    goal_cells[ng_] = c
                    ng_ += 1
            push_distances(walls, goal_cells[:nbox], width, dist, dead, sides, lab, compof,
                           ctr)
            if ctr[C_HALT] != 0:  # the distances are unfinished
                halted = True
                break
            pulls = 0
            stop = False
            while not stop:
                if ctr[C_HALT] != 0:
                    halted = True
                    break
                newp = _random_pull(walls, occ, width, player, rng, stamp2, ctr, queue2,
                                    cand)
                if newp >= 0:
                    player = newp
                    pulls += 1
                    stats[4] += 1
                last = newp < 0 or pulls >= max_pulls
                if not last and (pulls < skip or (pulls - skip) % every != 0):
                    continue
                stop = last
                # measure: never a still-solved state
                k = 0
                solved_now = True
                for c in range(n):
                    if occ[c]:
                        wbox[k] = c
                        k += 1
                        if not goals[c]:
                            solved_now = False
                if solved_now:
                    continue
                # the box list goes through chain (search_start sorts it into wbox)
                for i in range(nbox):
                    chain[i] = wbox[i]
                for c in range(n):
                    occ[c] = 0
                st = search_start(chain, nbox, player, node_cap, np.int64(1), walls, goals,
                                  dead, dist, zob, width, nbox_pool, nplayer, nparent, ng,
                                  nhash, nmove, heap, table, ctr, occ, blk, stamp, queue,
                                  stamp2, queue2, tmp, wbox, hu, hv, hp, hway, hminv, hused,
                                  fstack, hside, compof, None, None, None)
                stats[5] += 1
                while st == RUNNING:
                    st = search_run(budget, walls, goals, dead, dist, zob, width,
                                    nbox_pool, nplayer, nparent, ng, nhash, nmove, heap,
                                    table, ctr, occ, blk, stamp, queue, stamp2,
                                    queue2, tmp, wbox, hu, hv, hp, hway, hminv, hused,
                                    fstack, hside, compof, None, None, None)
                stats[6] += ctr[C_NODES]
                if st == HALTED:
                    halted = True
                    break
                if st != SOLVED:  # the cap (or no room): unknown, not unsolvable
                    for i in range(nbox):
                        occ[chain[i]] = 1
                    stats[8] += 1
                    stop = True  # leave this board
                    continue
                p = ng[ctr[C_GOAL]]
                gap = 0
                if p < aim:
                    gap = aim - p
                elif p > hi:
                    gap = p - hi
                if best_gap < 0 or gap < best_gap:
                    best_gap = gap
                    for c in range(n):
                        best_walls[c] = walls[c]
                        best_goals[c] = goals[c]
                    for i in range(nbox):
                        best_boxes[i] = chain[i]
                    stats[0] = player
                    stats[1] = p
                    stats[7] = iw
                    stats[2] = reconstruct(walls, width, nbox_pool, nparent, nmove, ctr, occ,
                                           stamp2, queue2, prev, chain, out, None)
                    for i in range(nbox):
                        occ[best_boxes[i]] = 1
                else:
                    for i in range(nbox):
                        occ[chain[i]] = 1
                if gap == 0:
                    found_in_target = True
                    stop = True
                elif p > hi:
                    stop = True
            if halted:
                break
            if found_in_target or (best_gap >= 0 and lo <= stats[1] <= hi):
                found_in_target = True  # in the target range, if short of the aim
                break
        iw -= 1
    for c in range(n):
        occ[c] = 0
    if halted:
        return 3
    if best_gap < 0:
        return 0
    stats[9] = nbox
    return 1 if found_in_target else 2
