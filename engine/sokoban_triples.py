"""Deadlocks of three boxes, by a table of every three-box position that can be solved,
found by a retrograde search (a small-pattern deadlock table, as Festival and YASS keep).

Take any solution of a state and three of its boxes. Delete the other boxes: every walk
of the player stays legal (fewer obstacles) and the three boxes' pushes happen in the
same order, so they solve the three-box problem (three boxes, alone on the board, onto
any three goals) from the same player cell. So when that problem has no solution, the
state has none: a proof, which keeps push-optimality and the ``unsolvable`` verdict.
The pair table (:mod:`levelforge.engine.sokoban_pairs`) proves the same of two boxes;
three see what two cannot, e.g. two boxes that each could reach a goal alone, and a third
that walls one of them in.

The table holds one bit per three live cells and player floor cell: set when a search
of pulls from every position with the three boxes on goals reaches it (walking is free,
a pull moves one box onto the cell the player leaves). It is a section at the end of
the pair database's ``pdb`` array (:func:`levelforge.sokoban.pairs.pair_database`
builds both), so every search that prunes dead pairs prunes dead triples with the same
call (:func:`levelforge.engine.sokoban_pairs.pair_dead`). Three live indices
``a < b < c`` are numbered ``C3[c] + C2[b] + a`` (binomial coefficients), a state
``number * F + p`` for the player's floor index ``p``.

Layout of the section at ``off`` (:func:`triple_section`): ``pdb[off] = T`` (triples),
``C2[L + 1]``, ``C3[L + 1]``, then ``(T * F + 31) // 32`` words of bits.
"""
import numpy as np
from numba import njit

from .sokoban_state import C_HALT


def triple_words(live, floor):
    """Slots of the triple section for ``live`` live and ``floor`` floor cells."""
    t = live * (live - 1) * (live - 2) // 6
    return 1 + 2 * (live + 1) + (t * floor + 31) // 32


@njit(cache=True, _nrt=False)
def triple_section(pdb):
    """Where the triple section of ``pdb`` starts, or -1 when it has none (a pair
    database built without it, or no database)."""
    if pdb.shape[0] <= 1:
        return -1
    L = pdb[0]
    F = pdb[1]
    n = pdb[2]
    k = pdb[3]
    off = 4 + 8 * n + L * L * F + 2 * k + 3 * k * (k - 1) // 2  # pair_table_size
    return off if pdb.shape[0] > off else -1


@njit(cache=True, _nrt=False)
def _number(pdb, c2, c3, a, b, c):
    """The number of the live indices ``a``, ``b``, ``c`` (any order)."""
    if a > b:
        a, b = b, a
    if b > c:
        b, c = c, b
    if a > b:
        a, b = b, a
    return np.int64(pdb[c3 + c]) + pdb[c2 + b] + a


@njit(cache=True, _nrt=False)
def _reach(pdb, bits, s, queue, tail):
    """Set state ``s``'s bit and queue it, unless it is set already; the queue's new
    length."""
    w = bits + (s >> 5)
    m = np.int32(1) << np.int32(s & 31)
    if pdb[w] & m == 0:
        pdb[w] |= m
        queue[tail] = s
        tail += 1
    return tail


@njit(cache=True, _nrt=False, nogil=True)
def triple_build(walls, goal_cells, width, pdb, queue, ta, tb, tc, ctr):
    """Fill the triple section of ``pdb`` (its header and binomial rows set, its bits
    zero; the pair section's index maps set) by a search of pulls from every position
    with the three boxes on goals. ``queue`` (int32, one slot per state) and ``ta``,
    ``tb``, ``tc`` (each triple's live indices, by number) are work arrays. Returns
    False, the table unfinished, when ``ctr[C_HALT]`` was set (looked at every 2^14
    states)."""
    steps = (-width, -1, 1, width)
    L = pdb[0]
    F = pdb[1]
    n = pdb[2]
    lidx = 4
    fidx = 4 + n
    lcell = 4 + 2 * n
    fcell = 4 + 3 * n
    off = triple_section(pdb)
    c2 = off + 1
    c3 = c2 + L + 1
    bits = c3 + L + 1
    head = 0
    tail = 0
    ng = goal_cells.shape[0]
    for x in range(ng):
        for y in range(x + 1, ng):
            for z in range(y + 1, ng):
                a = pdb[lidx + goal_cells[x]]
                b = pdb[lidx + goal_cells[y]]
                c = pdb[lidx + goal_cells[z]]
                if a < 0 or b < 0 or c < 0:
                    continue
                t = _number(pdb, c2, c3, a, b, c)
                for cell in range(n):
                    p = pdb[fidx + cell]
                    if p < 0 or cell == goal_cells[x] or cell == goal_cells[y] \
                            or cell == goal_cells[z]:
                        continue
                    tail = _reach(pdb, bits, t * F + p, queue, tail)
    while head < tail:
        s = np.int64(queue[head])
        head += 1
        if (head & 0x3FFF) == 0 and ctr[C_HALT] != 0:
            return False
        p = s % F
        t = s // F
        a = ta[t]
        b = tb[t]
        c = tc[t]
        pc = pdb[fcell + p]
        ca = pdb[lcell + a]
        cb = pdb[lcell + b]
        cc = pdb[lcell + c]
        for k in range(4):
            q = pc + steps[k]
            if walls[q] or pdb[fidx + q] < 0:
                continue
            if q == ca or q == cb or q == cc:
                # a pull: the box on q follows the player stepping from pc to pc - step
                back = pc - steps[k]
                if walls[back] or back == ca or back == cb or back == cc:
                    continue
                moved = pdb[lidx + pc]
                if moved < 0 or pdb[fidx + back] < 0:
                    continue
                if q == ca:
                    u = _number(pdb, c2, c3, moved, b, c)
                elif q == cb:
                    u = _number(pdb, c2, c3, a, moved, c)
                else:
                    u = _number(pdb, c2, c3, a, b, moved)
                r = u * F + pdb[fidx + back]
            else:  # a walk
                r = t * F + pdb[fidx + q]
            tail = _reach(pdb, bits, r, queue, tail)
    return True


@njit(cache=True, _nrt=False)
def _other(pdb, box, cell):
    """The live index of the box on ``box``, or -1 when it is the moved box on ``cell``
    or off the live cells."""
    return np.int64(-1) if box == cell else np.int64(pdb[4 + box])


@njit(cache=True, _nrt=False)
def triple_dead(pdb, wbox, nbox, cell, player):
    """True when the box on ``cell`` and two other boxes of ``wbox[:nbox]`` have no
    three-box solution from the player cell ``player`` (a deadlock: module docstring).
    Only the moved box's triples are looked at: the others, and their player area, are
    as they were in the parent. False without a triple section or with ``cell`` or
    ``player`` off the table's cells."""
    off = triple_section(pdb)
    if off < 0:
        return False
    L = pdb[0]
    F = pdb[1]
    n = pdb[2]
    c2 = off + 1
    c3 = c2 + L + 1
    bits = c3 + L + 1
    a = pdb[4 + cell]
    p = pdb[4 + n + player]
    if a < 0 or p < 0:
        return False
    for j in range(nbox):
        b = _other(pdb, wbox[j], cell)
        if b < 0:
            continue
        for k in range(j + 1, nbox):
            c = _other(pdb, wbox[k], cell)
            if c < 0:
                continue
            s = _number(pdb, c2, c3, a, b, c) * F + p
            if pdb[bits + (s >> 5)] & (np.int32(1) << np.int32(s & 31)) == 0:
                return True
    return False


@njit(cache=True, _nrt=False)
def triples_dead(pdb, wbox, nbox, player):
    """True when some three boxes of ``wbox[:nbox]`` have no three-box solution from
    the player cell ``player``: :func:`triple_dead` over every box, for a state stored
    before the table was built (whose boxes were never looked at)."""
    for i in range(nbox):
        if triple_dead(pdb, wbox[i:], nbox - i, wbox[i], player):
            return True
    return False
