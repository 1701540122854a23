"""The waypoint search of the any-solution mode: forwards to a state that a backward
search reached from the goals, then along that search's pulls, undone, to the goals.

The any mode's other searches meet in the middle only by chance: a backward state must
be one the forward search happened to store. This one aims. It pulls from the solved
state (the greedy backward search of :mod:`levelforge.sokoban.backward`, its own run of
:data:`PULLS` states), then picks among the stored states a *waypoint*: one whose boxes
cut the free floor into at most :data:`MOST_AREAS` areas, with few boxes that no pull can
move, and whose box cells the start's boxes reach by the least total walk (a min-cost
assignment; :mod:`levelforge.engine.sokoban_waypoint`). Every stored state has a known
way to the goals; so the level is solved as soon as the start's boxes stand on the
waypoint's cells with the player in its area. That is a level of its own, the
waypoint's cells as its goals and the player's area as its target, which the any
mode's four whole-level searches solve in turn
(:meth:`levelforge.sokoban.Solver._any_steps`) with at most :data:`NODES` stored states
each; failing that, the next waypoint that differs from each one tried in at least
:data:`DIFFER` box cells, up to :data:`TRIES` of them. Each of the four
keeps to the target: the feature-space search and weighted A* go on past a state with
the boxes placed and the player elsewhere (its bound is 1, ``C_TARGET``), and the
backward searches pull from the solved state in the target's area only
(``backward_steps(..., root=...)``).

Festival (Shoham and Schaeffer's FESS solver) runs a related strategy: a backward
search chooses an open, well-connected intermediate position, and the forward search is
guided towards it. Here the forward part is a solve in its own right, and the waypoint
is chosen for its nearness to the start: the backward searches stall where a few boxes
are left to bring home, and the forward search can often bring them (XSokoban 16:
solved in under 2 s this way, where the any mode needed about three minutes).

>>> from levelforge.sokoban import Level, solve
>>> solve(Level.from_xsb("#######\\n#.$ @ #\\n#######"), optimal=False).status
'solved'
"""
from __future__ import annotations

import numpy as np

from ..engine import sokoban_waypoint as _wp
from ..cancel import Limit
from ..engine.grid import bfs_distance
from .backward import WEIGHT, _outcome, _pull_search, undone
from .optimizer import _Board
from .replay import replay

PULLS = 300_000
"""Stored states of the waypoint search's backward search (its first part)."""
MOST_AREAS = 2
"""Most areas of free floor a waypoint's boxes may cut the board into."""
CANDIDATES = 3000
"""Waypoints scored by their distance from the start: the stored states within
:data:`MOST_AREAS` with the fewest boxes no pull moves (ties: the states stored first)."""
TRIES = 8
"""Most waypoints searched towards (their box cells apart by :data:`DIFFER`)."""
DIFFER = 2
"""Fewest box cells in which a waypoint must differ from each one searched towards
before it: the best-scored states are mostly near-twins, a few box cells apart, and
such a near-twin of a waypoint not reached is seldom reached either (XSokoban 74: its
second waypoint with this rule, its fourth without)."""
NODES = 150_000
"""Stored states of each of the four searches towards one waypoint: a waypoint not
reached costs about 600,000, so that the search's share of a 60 s solve on XSokoban
(about 1.8M of some 10M stored states) tries three waypoints, not two (XSokoban 74 is
reached through its second, with 506,268)."""


def waypoints(pool, nodes, nbox, walls, width, box_cells, limit=None):
    """Indices of the first ``nodes`` states of ``pool`` (a backward search's boxes,
    ``nbox`` per state) to search towards, best first (see the module docstring):
    within :data:`MOST_AREAS` areas, the :data:`CANDIDATES` with the fewest unpullable
    boxes (the earliest stored first), by the least total walk from ``box_cells`` (the
    start's boxes) to their cells. ``limit`` (a :class:`levelforge.cancel.Limit`) stops
    the scoring (on the largest boards it takes seconds); then none are returned."""
    n = walls.shape[0]
    halt = np.zeros(1, np.int64)
    with (limit or Limit(None)).watch(halt, 0):
        floor = np.flatnonzero(walls == 0).astype(np.int32)
        scores = np.zeros((nodes, 2), np.int64)
        if _wp.open_scores(pool, nodes, nbox, walls, floor, width, walls.copy(),
                           np.zeros(n, np.int64), np.zeros(n, np.int32), scores,
                           halt) < nodes:
            return np.zeros(0, np.int64)
        cand = np.flatnonzero(scores[:, 0] <= MOST_AREAS)
        cand = cand[np.argsort(scores[cand, 1], kind="stable")][:CANDIDATES].astype(np.int64)
        wd = np.zeros((nbox, n), np.int64)
        dist = np.zeros(n, np.int32)
        pad = np.zeros((n // width + 2) * (width + 2), np.int32)
        queue = np.zeros(pad.shape[0], np.int32)
        for i in range(nbox):
            bfs_distance(walls, width, int(box_cells[i]), dist, pad, queue)
            wd[i] = dist  # every floor cell is reached: the board is the player's area
        work = [np.zeros(nbox + 1, np.int64) for _ in range(6)]
        cost = np.zeros(cand.shape[0], np.int64)
        if _wp.walk_costs(pool, cand, nbox, wd, np.zeros((nbox, nbox), np.int64),
                          np.zeros(nbox, np.int64), *work, cost, halt) < cand.shape[0]:
            return np.zeros(0, np.int64)
    return cand[np.argsort(cost, kind="stable")]


def waypoint_steps(child, level, board, box_cells, player, cap, limit):
    """The waypoint search on ``level`` (prepared as ``board``, its boxes ``box_cells``
    and player cell ``player`` on it) with at most ``cap`` stored states in all, until
    ``limit`` stops it; ``child`` is the :class:`~levelforge.sokoban.Solver` whose
    :meth:`_any_steps` searches towards each waypoint. A generator for
    :mod:`levelforge.sokoban.turns` returning ``(status, solution, nodes, expanded)``:
    ``solved`` with a LURD solution of ``level``, else ``limit`` (every waypoint
    tried; not a proof) or the limit's reason."""
    walls, goals, width = board[0], board[1], board[5]
    nbox = box_cells.shape[0]
    status, a, ctr = yield from _pull_search(
        walls, np.flatnonzero(goals).astype(np.int32), box_cells, player, width,
        min(cap, PULLS), limit, WEIGHT, None, None, False, None)
    found, pushes, nodes, expanded = _outcome(status, a, ctr, width, limit)
    if found == "solved":  # the backward search reached the start itself
        return found, _Board(level).moves(pushes), nodes, expanded
    if limit.reason() is not None:
        return limit.reason(), None, nodes, expanded
    sealed = {(c % width, c // width) for c in np.flatnonzero(walls)} & level.goals
    tried = []
    for j in waypoints(a.pool, nodes, nbox, walls, width, box_cells, limit):
        cells = a.pool[j * nbox:(j + 1) * nbox]
        key = frozenset(int(c) for c in cells)
        if any(len(key - t) < DIFFER for t in tried):
            continue
        share = min(NODES, (cap - nodes) // 4)  # each of the four searches' cap
        if len(tried) == TRIES or share <= 0:
            break
        tried.append(key)
        target = level.replace(goals=frozenset((c % width, c // width) for c in key) | sealed)
        area = min(_Board(level).region(key, int(a.nplayer[j])))  # the player ends there
        steps = child._any_steps(target, share, limit, area)
        status, way, n, e = yield from _offset(steps, nodes, expanded)
        nodes += n
        expanded += e
        if limit.reason() is not None:
            return limit.reason(), None, nodes, expanded
        if status == "solved":
            return "solved", _join(level, way, a, int(j), width), nodes, expanded
    return limit.reason() or "limit", None, nodes, expanded


def _offset(steps, nodes, expanded):
    """``steps`` (a search's generator) with ``nodes`` and ``expanded`` added to what it
    yields; returns what it returns (closed with it)."""
    try:
        while True:
            try:
                n, e = next(steps)
            except StopIteration as done:
                return done.value
            yield nodes + n, expanded + e
    finally:
        steps.close()


def _join(level, way, a, j, width):
    """The LURD solution of ``level`` that plays ``way`` (which brings the boxes onto
    the cells of stored backward state ``j``, arrays ``a``, with the player in its
    area) and then undoes the pulls that led to state ``j``."""
    return way + _Board(replay(level, way)).moves(undone(a, j, width))


def warm_up():
    """Compile (or load from Numba's cache) the kernels of :func:`waypoints`, so that no
    time-limited solve pays for them."""
    walls = np.ones(16, np.uint8)
    walls[5:7] = 0  # two floor cells inside a 4x4 wall
    waypoints(np.array([5], np.int16), 1, 1, walls, 4, np.array([6], np.int32))
