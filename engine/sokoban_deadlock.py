"""Sokoban deadlocks of boxes that can never move again, with sealed pockets: the freeze
test generalised to closed diagonals (as Festival and YASS detect them), for the search
for any solution.

A set ``S`` of boxes is *stuck* when, assuming every box of ``S`` stays where it is,
none of them can ever be pushed without a deadlock. A push of a box from ``c`` to ``p``
(the player on ``q``, on the other side) can never happen while ``S`` stays put when:

- ``p`` or ``q`` is a wall or a box of ``S``;
- ``p`` is a dead square (a solution never pushes a box there);
- ``q``, or the box on ``p``, lies in a *sealed pocket*: a connected area of cells that
  are neither walls nor boxes of ``S`` (other boxes count as free, they may move) which
  does not hold the player. Its border is walls and boxes of ``S`` only, so the player
  never enters it and no box in it ever moves.

By induction over any sequence of pushes, the first box of ``S`` to move would need one
of those pushes: so no box of ``S`` ever moves, and no box enters or leaves a pocket.
The state is then a deadlock when a box of ``S`` is off its goal, or a pocket next to
``S`` holds a box off its goal or an empty goal (boxes and goals are as many). This is a
proof: it keeps the ``unsolvable`` verdict (and push-optimality, though only the search
for any solution calls it).

The freeze test (:func:`levelforge.engine.sokoban_board.frozen_state`) finds the sets
held by walls, dead squares and each other; the pockets add the *closed diagonals*::

    #          the empty cell between the two boxes is sealed (walls above and left,
   # $         the boxes right and below); neither box can be pushed into it (a dead
    $#         corner) nor pushed away from it (the player cannot stand there)

The candidates for ``S`` are the boxes connected to the pushed box through their eight
neighbours (at most ``slist.shape[0]``); the largest stuck subset is the greatest fixed
point of removing any box with a possible push (the pockets recomputed each round: a
smaller ``S`` only opens them). Pockets are filled up to ``POCKET_CELLS`` cells; a larger
area counts as open (no proof from it).
"""
from numba import njit

from .sokoban_window import W_STUCK, window_deadlock

# Both tests are sound and cut the stored states under a node cap (XSokoban 90, any mode,
# 200,000 states: -5.0% on the levels solved; the feature-space search alone at 100,000
# states: 36 -> 37 solved, -21% expansions), but under the 10 s limit they cost more time
# than they save (46/90 solved with both on, 48/90 with both off, quiet machine), so the
# search runs without them. Set one to True to measure it again (and delete
# engine/__pycache__/sokoban_fess.* : the cache does not see a change to this file).
STUCK_SETS = False  # stuck sets with sealed pockets on each child of the search
WINDOWS = False  # 4x4 window deadlocks on each child of the search
POCKET_CELLS = 24
"""Largest area treated as a sealed pocket (a larger one counts as reachable)."""


@njit(cache=True, _nrt=False)
def _pocket(c, player, walls, goals, occ, inset, width, stamp, ectr, slot, queue, pock, bad,
            opened):
    """Classify the area of cell ``c`` (not a wall, not in ``S``): the epoch ``opened``
    when it holds the player or has more than ``POCKET_CELLS`` cells, ``bad`` when it is
    a pocket holding a box off its goal or an empty goal, else ``pock``. The cells
    filled are stamped with the answer, so an area is filled once per round (a fill
    stopped early stamps part of an open area: all of it is open)."""
    s = stamp[c]
    if s == pock or s == bad or s == opened:
        return s
    ectr[slot] += 1
    ep = ectr[slot]
    stamp[c] = ep
    queue[0] = c
    head = 0
    tail = 1
    res = pock
    while head < tail:
        v = queue[head]
        head += 1
        if v == player or tail > POCKET_CELLS:
            res = opened
            break
        if goals[v] != occ[v]:
            res = bad
        for nb in (v - width, v - 1, v + 1, v + width):
            if walls[nb] == 0 and inset[nb] == 0 and stamp[nb] != ep:
                stamp[nb] = ep
                queue[tail] = nb
                tail += 1
    for i in range(tail):
        stamp[queue[i]] = res
    return res


@njit(cache=True, _nrt=False)
def stuck_deadlock(t, player, walls, goals, occ, dead, width, inset, slist, stamp, ectr, slot,
                   queue):
    """True when the state with boxes marked in ``occ`` and the player on ``player`` is a
    deadlock by a stuck set of boxes around the box on ``t`` (see the module docstring).
    Work arrays: ``inset`` (uint8, zero on entry and on return), ``slist`` (int64, its
    length caps the candidates), ``stamp``/``queue`` (one slot per cell; fills take the
    epochs ``ectr[slot] + 1, ...``)."""
    steps = (-width, -1, 1, width)
    ring = (-width - 1, -width, -width + 1, -1, 1, width - 1, width, width + 1)
    cap = slist.shape[0]
    # the candidates: boxes joined to t through their eight neighbours
    slist[0] = t
    inset[t] = 1
    k = 1
    head = 0
    while head < k:
        c = slist[head]
        head += 1
        for o in ring:
            v = c + o
            if occ[v] and inset[v] == 0 and k < cap:
                inset[v] = 1
                slist[k] = v
                k += 1
    # the greatest stuck subset: drop every box with a possible push, round after round
    left = k
    changed = True
    while changed and left > 0:
        changed = False
        ectr[slot] += 3
        opened = ectr[slot]
        bad = opened - 1
        pock = opened - 2
        for i in range(k):
            c = slist[i]
            if inset[c] == 0:
                continue
            for d in range(4):
                p = c + steps[d]
                q = c - steps[d]
                if walls[p] or inset[p] or walls[q] or inset[q] or dead[p]:
                    continue
                if _pocket(q, player, walls, goals, occ, inset, width, stamp, ectr, slot,
                           queue, pock, bad, opened) != opened:
                    continue
                if occ[p] and _pocket(p, player, walls, goals, occ, inset, width, stamp, ectr,
                                      slot, queue, pock, bad, opened) != opened:
                    continue
                inset[c] = 0  # a possible push: c may move
                left -= 1
                changed = True
                break
    # the verdict, on the last round's pockets (S did not change in it)
    found = False
    if left > 0:
        for i in range(k):
            c = slist[i]
            if inset[c] == 0:
                continue
            if goals[c] == 0:
                found = True
                break
            for d in range(4):
                v = c + steps[d]
                if walls[v] == 0 and inset[v] == 0 and _pocket(
                        v, player, walls, goals, occ, inset, width, stamp, ectr, slot, queue,
                        pock, bad, opened) == bad:
                    found = True
                    break
            if found:
                break
    for i in range(k):
        inset[slist[i]] = 0
    return found


@njit(cache=True, _nrt=False)
def push_deadlock(t, player, walls, goals, occ, dead, width, inset, slist, stamp, ectr, slot,
                  queue, wcache, wwork):
    """The deadlock tests of a child state after a push onto ``t`` (the player on
    ``player``): a stuck set (:func:`stuck_deadlock`, work arrays ``inset`` to ``queue``)
    or a window deadlock (:func:`levelforge.engine.sokoban_window.window_deadlock`,
    ``wcache`` and ``wwork``, which also counts the stuck sets found). True is a proof."""
    if STUCK_SETS and stuck_deadlock(t, player, walls, goals, occ, dead, width, inset, slist,
                                     stamp, ectr, slot, queue):
        wwork[W_STUCK] += 1
        return True
    return WINDOWS and window_deadlock(t, player, walls, goals, occ, dead, width, wcache, wwork)
