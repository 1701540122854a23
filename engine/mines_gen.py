"""No-guess boards: play certain moves on a known minefield, and place mines until that wins.

The play (in :func:`generate_board`) goes from the first open with certain moves only,
as a player who never guesses: single numbers through counters kept per open cell (a
number whose unknown neighbours are all safe or all mines), and when those run dry one
full analysis of the known position (subsets, then exact counting of each component;
the global mine count is never used). Proved cells are opened or flagged as soon as they
are selectable (the surface rule). It counts the analyses that needed subsets and those
that needed counting.

:func:`generate_board` places mines uniformly until that play wins (rejection) and, with
perturbation, moves mines where a play got stuck (after Simon Tatham's Mines: empty or
fill the unknown neighbours of one number, swapping with unknown cells elsewhere chosen
at random), then replays the changed board from the start until a replay wins
unchanged. The mine count never changes, and the first cell and its
neighbours stay free of mines.
"""
import numpy as np
from numba import njit

from .grid import rng_below, rng_choose
from .mines import (CLOSED, FLAGGED, MINE, OPEN, SAFE, UNKNOWN, compute_numbers, open_cascade,
                    place_mines)
from .mines_enum import A_CONTRADICTION, A_REDUCED, NEED_STATES, R_CODE, analyze_position

# logic of the play
LOGIC_SINGLE = 0        # single numbers only (no_guess="easy")
LOGIC_FULL = 1          # and subsets and exact counting of components

# generation strategies
STRATEGY_REJECT = 0     # new uniform placements until one is won
STRATEGY_PERTURB = 1    # perturb the first placement until it is won
STRATEGY_HYBRID = 2     # rejection for ``hybrid_after`` placements, then perturbation
STRATEGY_RATE = 3       # no placement: play the given board once

# phases of generate_board
PHASE_PLACE, PHASE_PERTURB, PHASE_REPLAY, PHASE_RATE = 0, 1, 2, 3

# out of generate_board (then 3 slots of the play: queue top, stack top, epoch; then
# O_HALT, set from outside while the kernel runs: levelforge.cancel's watchdog)
O_STATUS, O_OPENED, O_SUBSET, O_ENUM, O_ATTEMPTS, O_PERTURB, O_REPLAYS = 0, 1, 2, 3, 4, 5, 6
N_OUT = 7
O_HALT = N_OUT + 3
WON = 0
STUCK = 1
FAILED = 2
HALTED = 3

# play work array (int32, times n): need, unk, queue, stamps, cascade queue, fresh stamps,
# then the stack of cells to play (each cell is pushed at most 14 times in a play)
N_PLAY_INT = 20
# play byte array: cell state, in-queue flag
N_PLAY_BYTE = 2


@njit(cache=True, no_cpython_wrapper=True)
def _selectable(c, cell_state, boundary, nb6):
    if boundary[c] != 0:
        return True
    for k in range(nb6.shape[1]):
        nb = nb6[c, k]
        if nb >= 0 and cell_state[nb] != CLOSED:
            return True
    return False


@njit(cache=True, no_cpython_wrapper=True)
def _push(y, queue, inq, tops):
    if inq[y] == 0:
        inq[y] = 1
        queue[tops[0]] = y
        tops[0] += 1


@njit(cache=True, no_cpython_wrapper=True)
def _mark(x, val, known, cell_state, nb26, need, unk, queue, inq, stack, tops):
    """Record a proved cell: counters of its open neighbours, and try to play it."""
    known[x] = val
    for k in range(nb26.shape[1]):
        y = nb26[x, k]
        if y >= 0 and cell_state[y] == OPEN:
            unk[y] -= 1
            if val == MINE:
                need[y] -= 1
            _push(y, queue, inq, tops)
    stack[tops[1]] = x
    tops[1] += 1


@njit(cache=True, no_cpython_wrapper=True)
def _open(x, mine, numbers, nb26, nb6, cell_state, known, need, unk, cq, fresh, queue, inq,
          stack, tops):
    """Open the safe cell ``x`` and its cascade; set up their counters. Returns the count."""
    cq[0] = x
    cnt = open_cascade(cq, np.int64(1), mine, numbers, cell_state, nb26)
    tops[2] += 1
    epoch = tops[2]
    for i in range(cnt):
        fresh[cq[i]] = epoch
    for i in range(cnt):
        x2 = cq[i]
        if known[x2] == UNKNOWN:
            known[x2] = SAFE
            for k in range(nb26.shape[1]):
                y = nb26[x2, k]
                if y >= 0 and cell_state[y] == OPEN and fresh[y] != epoch:
                    unk[y] -= 1
                    _push(y, queue, inq, tops)
    for i in range(cnt):
        x2 = cq[i]
        m = 0
        u = 0
        for k in range(nb26.shape[1]):
            y = nb26[x2, k]
            if y < 0 or cell_state[y] == OPEN:
                continue
            if known[y] == MINE:
                m += 1
            elif known[y] == UNKNOWN:
                u += 1
        need[x2] = numbers[x2] - m
        unk[x2] = u
        _push(x2, queue, inq, tops)
        for k in range(nb6.shape[1]):
            z = nb6[x2, k]
            if z >= 0 and cell_state[z] == CLOSED and known[z] != UNKNOWN:
                stack[tops[1]] = z
                tops[1] += 1
    return cnt


@njit(cache=True, no_cpython_wrapper=True)
def perturb(mine, numbers, nb26, start, known, pw, pb, rng, cand, out):
    """Move mines where the play is stuck; True when the board changed.

    Picks a random open cell with unknown neighbours and empties those neighbours of
    mines or fills them, whichever the unknown cells elsewhere allow first (taken in
    random order; never the first cell's neighbourhood nor a known cell), so that its
    number alone settles them. Numbers and the play's counters are
    updated and the changed open cells queued.
    """
    n = mine.shape[0]
    need = pw[0:n]
    unk = pw[n:2 * n]
    queue = pw[2 * n:3 * n]
    stamp = pw[3 * n:4 * n]
    cell_state = pb[0:n]
    inq = pb[n:2 * n]
    tops = out[N_OUT:N_OUT + 3]
    # a random open cell with unknown neighbours
    m = 0
    for c in range(n):
        if cell_state[c] == OPEN and unk[c] > 0:
            cand[m] = c
            m += 1
    if m == 0:
        return False
    y = cand[rng_below(rng, np.int64(m))]
    for c in range(n):
        stamp[c] = 0
    stamp[start] = 1
    for k in range(nb26.shape[1]):
        if nb26[start, k] >= 0:
            stamp[nb26[start, k]] = 1
    n_full = 0
    n_empty = 0
    for k in range(nb26.shape[1]):
        z = nb26[y, k]
        if z >= 0 and cell_state[z] == CLOSED and known[z] == UNKNOWN:
            stamp[z] = 2
            if mine[z] != 0:
                n_full += 1
            else:
                n_empty += 1
    # unknown cells elsewhere, in random order
    m = 0
    for c in range(n):
        if stamp[c] != 0 or cell_state[c] != CLOSED or known[c] != UNKNOWN:
            continue
        cand[m] = c
        m += 1
    rng_choose(rng, cand, np.int64(m), np.int64(m))
    # first class to complete: n_full safe cells to empty the set, n_empty mines to fill it
    got_safe = 0
    got_mine = 0
    cut = -1
    fill = False
    for i in range(m):
        if mine[cand[i]] == 0:
            got_safe += 1
        else:
            got_mine += 1
        if got_safe == n_full:
            cut = i + 1
            break
        if got_mine == n_empty:
            cut = i + 1
            fill = True
            break
    if cut < 0:
        return False
    for i in range(cut):
        c = cand[i]
        if (mine[c] != 0) == fill:
            _flip(c, mine, numbers, nb26, cell_state, need, queue, inq, tops)
    for k in range(nb26.shape[1]):
        z = nb26[y, k]
        if z >= 0 and stamp[z] == 2 and (mine[z] == 0) == fill:
            _flip(z, mine, numbers, nb26, cell_state, need, queue, inq, tops)
    out[O_PERTURB] += 1
    return True


@njit(cache=True, no_cpython_wrapper=True)
def _flip(c, mine, numbers, nb26, cell_state, need, queue, inq, tops):
    """Add or remove the mine at ``c``; numbers and open counters follow."""
    delta = 1 if mine[c] == 0 else -1
    mine[c] = 1 if delta > 0 else 0
    for k in range(nb26.shape[1]):
        y = nb26[c, k]
        if y >= 0:
            numbers[y] += delta
            if cell_state[y] == OPEN:
                need[y] += delta
                _push(y, queue, inq, tops)


@njit(cache=True, nogil=True)
def generate_board(nb26, nb6, boundary, start, n_mines, logic, strategy, hybrid_after,
                   max_attempts, rng, mine, numbers, cand, known, known2, prob, pw, pb, out,
                   params, res, iw, ir, u8, fw, st, ed, keys, ht, fp, bq, bf, gw, gb, binom):
    """Place ``n_mines`` so that certain moves win from the open ``start``.

    A play opens ``start`` and plays certain moves until won or stuck: single numbers
    through counters kept per open cell, and when those run dry one analysis of the
    known position (:func:`~levelforge.engine.mines_enum.analyze_position` with
    ``params`` set up by the caller: plain, merged groups, no cell cap,
    ``P_REDUCE_FIRST``); ``logic`` ``LOGIC_SINGLE`` stops before that analysis. Proved
    cells are opened or flagged once selectable.

    ``strategy`` picks how placements go on (see the module); ``STRATEGY_RATE`` plays the
    board already in ``mine``/``numbers`` once. ``rng`` is the PRNG state (advanced).
    ``out[O_STATUS]`` is ``WON``, ``FAILED`` (``max_attempts`` placements used up; with
    ``STRATEGY_RATE``: stuck) or a ``NEED_*`` code (grow that work array and start again
    from the same PRNG state); ``out`` also gets the placements, perturbations and
    replays, and the last play's cells opened and analyses that needed subsets /
    counting. ``pw`` (int32, ``N_PLAY_INT * n``) and ``pb`` (uint8, ``N_PLAY_BYTE * n``)
    hold the play. A set ``out[O_HALT]`` (a time limit or a cancel; the kernel runs
    without the GIL so that a watchdog thread can set it) ends the call with status
    ``HALTED``, looked at before each play and after each analysis.
    """
    n = mine.shape[0]
    n_safe = n - n_mines
    need = pw[0:n]
    unk = pw[n:2 * n]
    queue = pw[2 * n:3 * n]
    cq = pw[4 * n:5 * n]
    fresh = pw[5 * n:6 * n]
    stack = pw[6 * n:N_PLAY_INT * n]
    cell_state = pb[0:n]
    inq = pb[n:2 * n]
    tops = out[N_OUT:N_OUT + 3]     # queue top, stack top, fresh epoch
    attempts = 0
    perturbs = 0
    replays = 0
    done = 0
    best = n + 1
    won = False
    phase = PHASE_RATE if strategy == STRATEGY_RATE else PHASE_PLACE
    while True:
        # the next play: a new placement, a perturbed board (resumed) or a replay
        resume = False
        if out[O_HALT] != 0:
            out[O_STATUS] = HALTED
            return
        if phase == PHASE_PLACE:
            if attempts >= max_attempts:
                break
            attempts += 1
            place_mines(nb26, start, n_mines, rng, mine, cand)
            compute_numbers(mine, nb26, numbers)
            best = n + 1
        elif phase == PHASE_PERTURB:
            if done > n or not perturb(mine, numbers, nb26, start, known, pw, pb, rng, cand,
                                       out):
                phase = PHASE_PLACE
                continue
            done += 1
            perturbs += 1
            resume = True
        elif phase == PHASE_REPLAY:
            replays += 1
        if not resume:
            for c in range(n):
                cell_state[c] = CLOSED
                known[c] = UNKNOWN
                inq[c] = 0
                fresh[c] = 0
            for i in range(N_OUT + 3):
                out[i] = 0
            known[start] = SAFE
            stack[0] = start
            tops[1] = 1
        # the play
        status = STUCK
        while True:
            while tops[0] > 0 or tops[1] > 0:
                if tops[1] > 0:
                    tops[1] -= 1
                    x = stack[tops[1]]
                    if cell_state[x] != CLOSED or not _selectable(x, cell_state, boundary, nb6):
                        continue
                    if known[x] == SAFE:
                        out[O_OPENED] += _open(x, mine, numbers, nb26, nb6, cell_state, known,
                                               need, unk, cq, fresh, queue, inq, stack, tops)
                    elif known[x] == MINE:
                        cell_state[x] = FLAGGED
                        for k in range(nb6.shape[1]):
                            z = nb6[x, k]
                            if z >= 0 and cell_state[z] == CLOSED and known[z] != UNKNOWN:
                                stack[tops[1]] = z
                                tops[1] += 1
                    continue
                tops[0] -= 1
                y = queue[tops[0]]
                inq[y] = 0
                if cell_state[y] != OPEN or unk[y] <= 0:
                    continue
                if need[y] == 0 or need[y] == unk[y]:
                    val = SAFE if need[y] == 0 else MINE
                    for k in range(nb26.shape[1]):
                        z = nb26[y, k]
                        if z >= 0 and cell_state[z] != OPEN and known[z] == UNKNOWN:
                            _mark(np.int64(z), val, known, cell_state, nb26, need, unk, queue,
                                  inq, stack, tops)
            if out[O_OPENED] >= n_safe:
                status = WON
                break
            if logic == LOGIC_SINGLE:
                break
            for c in range(n):
                known2[c] = known[c]
            analyze_position(cell_state, numbers, nb26, known2, prob, cand, params, res, iw, ir,
                             u8, fw, st, ed, keys, ht, fp, bq, bf, gw, gb, binom)
            code = res[R_CODE]
            if code <= NEED_STATES:
                out[O_STATUS] = code
                return
            if out[O_HALT] != 0:
                out[O_STATUS] = HALTED
                return
            if code == A_CONTRADICTION:
                break
            found = False
            for c in range(n):
                if known[c] == UNKNOWN and known2[c] != UNKNOWN and cell_state[c] != OPEN:
                    _mark(c, np.int64(known2[c]), known, cell_state, nb26, need, unk, queue, inq,
                          stack, tops)
                    found = True
            if not found:
                break
            if code == A_REDUCED:
                out[O_SUBSET] += 1
            else:
                out[O_ENUM] += 1
        # what the play means
        if phase == PHASE_RATE:
            won = status == WON
            break
        if status == WON:
            if not resume:
                won = True
                break
            if done >= best:            # replays must need fewer perturbations each time
                phase = PHASE_PLACE
            else:
                best = done
                phase = PHASE_REPLAY
        elif strategy == STRATEGY_REJECT or (strategy == STRATEGY_HYBRID
                                              and attempts <= hybrid_after):
            phase = PHASE_PLACE
        else:
            if not resume:
                done = 0
            phase = PHASE_PERTURB
    out[O_STATUS] = WON if won else FAILED
    out[O_ATTEMPTS] = attempts
    out[O_PERTURB] = perturbs
    out[O_REPLAYS] = replays


@njit(cache=True)
def board_figures(mine, numbers, nb26, mark, queue):
    """``(3BV, openings)`` of a board: an opening is a connected set of zeros (26
    neighbours) with its border, 3BV the openings plus the safe cells no zero touches
    (the fewest opens that clear the board, flags aside)."""
    n = mine.shape[0]
    for c in range(n):
        mark[c] = 0
    openings = 0
    for c in range(n):
        if mine[c] != 0 or numbers[c] != 0 or mark[c] == 1:
            continue
        openings += 1
        mark[c] = 1
        queue[0] = c
        head = 0
        tail = 1
        while head < tail:
            x = queue[head]
            head += 1
            for k in range(nb26.shape[1]):
                y = nb26[x, k]
                if y < 0 or mark[y] == 1:
                    continue
                if numbers[y] == 0:
                    mark[y] = 1
                    queue[tail] = y
                    tail += 1
                else:
                    mark[y] = 2
    bbbv = openings
    for c in range(n):
        if mine[c] == 0 and mark[c] == 0:
            bbbv += 1
    return bbbv, openings
