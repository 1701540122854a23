"""The search for any solution (``solve(level, optimal=False)``), a portfolio: goals
packed in a planned order one stage at a time, then the feature-space search
(:mod:`levelforge.sokoban.fess`), two backward searches over pulls
(:mod:`levelforge.sokoban.backward`), weighted A* and the waypoint search
(:mod:`levelforge.sokoban.waypoint`) in turn, then A* over the whole level.

Levels built around a goal room jam when a box fills a goal near the room's entrance
before the goals behind it; strong solvers (Festival's packing order, YASS's goal-room
packing) fill such a room deepest goal first. Here the order comes from the goals'
depth inside their goal area (:func:`packing_plan`). Stage ``m`` is a best-first
search from the current state (``g + STAGE_WEIGHT * guide``, no reopening) whose goal
is "``m`` goals packed in plan order", guided by the push distance from the nearest
free box to an empty goal of the next layer (``levelforge.engine.sokoban._any_h``).
Each stage starts where the last one ended, so no search wanders over the whole
level, and all stages together store at most ``STAGE_NODES`` states: cheap where they
work, soon given up where a stage jams.

When a stage fails, four whole-level searches take turns from the start
(:mod:`levelforge.sokoban.turns`), each kept between its turns, storing states in the
proportion :data:`TURNS`: the feature-space search, two backward searches over pulls
(:mod:`levelforge.sokoban.backward`), greedy and over feature cells, and weighted A* on
``g + ANY_WEIGHT * (h + a penalty per goal not packed in plan order)``, pruning pair
deadlocks; and with them, at :data:`WAYPOINT_TURN`, the waypoint search, which runs
those four towards a state a backward search of its own reached from the goals. Played
backwards, the boxes leave the goal rooms instead of packing them, so they solve levels
whose goal rooms stall the forward searches, and they stop where they meet a state the
feature-space search stored. Weighted A* solves small levels whose boxes must make
room for one another, where the feature-space search's plan wanders (Microban III 46:
108,000 states against more than 3M without it). Taking turns, none of them waits for
another: a level one of them solves in ``t`` seconds alone is solved within about ``t``
over its share of the time, at any limit. Only if all of them stop at their node caps or
the backward searches run out of states (not at the time limit or a cancel) does the
push-optimal A* get the time left (a solution it finds is marked optimal).

>>> from levelforge.sokoban import Level, solve
>>> level = Level.from_xsb('########\\n#@$  . #\\n#  $ . #\\n#      #\\n########')
>>> r = solve(level, optimal=False)
>>> r.status, r.optimal, r.pushes >= solve(level).pushes
('solved', False, True)
"""
import numpy as np

from ..engine import sokoban_state as _s
from ..timing import now_ns
from .turns import take_turns

ANY_WEIGHT = 3
"""Heuristic weight of the whole-level search for any solution: best-first on
``g + 3 h``."""
STAGE_WEIGHT = 2
"""Weight of the guide in a packing stage: best-first on ``g + 2 guide``."""
STAGE_NODES = 20_000
"""Node cap of all packing stages together (at most ``max_nodes``)."""
TURNS = (4, 1, 3, 1)
"""Weights of the feature-space search, the greedy backward search, the backward search
over feature cells and weighted A* as they take turns
(:func:`levelforge.sokoban.turns.take_turns`): each stores states in this proportion.
On XSokoban's hard levels the feature-space search stores about 150,000-250,000 states
a second, the greedy backward search 200,000-600,000, the one over cells
150,000-350,000 and weighted A* 230,000-480,000, so the feature-space search gets
about half of the time, the search over cells about a third and weighted A* about a
tenth. The feature-space search's and weighted A*'s shares were chosen by the
time-limited runs in ``docs/figures/sokoban-solving-journal.md`` (three searches in turn;
weighted A* takes turns). The greedy backward search solves its levels early (XSokoban
15, 49, 86 with 30,000-93,000 of its states) while the one over cells solves the hard
ones late (XSokoban 14, 16, 87, 29, 85 with 1.7M-5.7M), so since 2026-12-05 the greedy
one gives a share to the one over cells (4 : 2 : 2 : 1 before; see "The backward
search over cells gets a third" there)."""
WAYPOINT_TURN = 2
"""Weight of the waypoint search (:mod:`levelforge.sokoban.waypoint`) in the turns of
:data:`TURNS`, after those four; 0 leaves it out."""

_STEPS = {"u": (0, -1), "l": (-1, 0), "r": (1, 0), "d": (0, 1)}


def goal_depth(walls, goals, width):
    """Steps from each goal to the nearest floor cell that is not a goal, walking over
    goals (int64 per cell, 0 off the goals); goals walled in by goals only get the
    largest depth + 1.

    >>> w = np.array([1] * 6 + [1, 0, 0, 0, 0, 1] + [1] * 6, np.uint8)
    >>> goal_depth(w, np.array([0] * 7 + [1, 1] + [0] * 9, np.uint8), 6)[6:12].tolist()
    [0, 2, 1, 0, 0, 0]
    """
    n = walls.shape[0]
    depth = np.full(n, -1, np.int64)
    frontier = [c for c in range(n) if not walls[c] and not goals[c]]
    depth[frontier] = 0
    steps = (-width, -1, 1, width)
    while frontier:
        nxt = []
        for c in frontier:
            for s in steps:
                if goals[c + s] and depth[c + s] < 0:
                    depth[c + s] = depth[c] + 1
                    nxt.append(c + s)
        frontier = nxt
    depth[(depth < 0) & (goals == 1)] = depth.max() + 1
    return np.maximum(depth, 0)


def packing_plan(walls, goals, width):
    """The fill order of the goals: goals deeper inside a goal area (further from the
    nearest floor cell that is not a goal, walking over goals) come first; goals next to
    free floor form the last layer, so goals that stand apart share one layer. Returns
    the goal cells in fill order, each one's layer, and each one's index among the goal
    cells in cell order (its row of the push distances): int32, ``3 k`` entries.

    >>> w = np.array([1] * 7 + [1, 0, 0, 0, 0, 1, 1] + [1] * 7, np.uint8)
    >>> g = np.array([0] * 7 + [0, 1, 1, 0, 0, 0, 0] + [0] * 7, np.uint8)
    >>> packing_plan(w, g, 7).tolist()  # cell 8 (deeper) before cell 9
    [8, 9, 0, 1, 0, 1]
    """
    cells = np.flatnonzero(goals)
    d = goal_depth(walls, goals, width)[cells]
    order = np.argsort(-d, kind="stable")
    return np.concatenate([cells[order], d.max() - d[order], order]).astype(np.int32)


def _play(solution, boxes, player, width):
    """Box cells (a set, changed in place) and player cell after a LURD solution."""
    for letter in solution:
        dx, dy = _STEPS[letter.lower()]
        step = dy * width + dx
        player += step
        if letter.isupper():
            boxes.remove(player)
            boxes.add(player + step)
    return player


def _share(limit, part):
    """``limit`` with its deadline moved to ``part`` of the time left (itself without a
    deadline)."""
    if limit.deadline is None:
        return limit
    now = now_ns()
    return limit.until(now + int((limit.deadline - now) * part))


def whole_level_runs(fess, backward, weighted, board, box_cells, player, cap, limit, plan,
                     waypoint=None):
    """The whole-level searches of :func:`solve_any` as ``(generator, weight)`` pairs for
    :func:`levelforge.sokoban.turns.take_turns` (its arguments; ``plan`` the packing
    plan weighted A* penalises), in :data:`TURNS`' order, then ``waypoint``'s search
    (:mod:`levelforge.sokoban.waypoint`) with :data:`WAYPOINT_TURN` when it is given and
    that weight is not 0."""
    runs = [(fess(board, box_cells, player, cap, limit), TURNS[0]),
            (backward(board, box_cells, player, cap, limit), TURNS[1]),
            (backward(board, box_cells, player, cap, limit, cells=True), TURNS[2]),
            (weighted(board, box_cells, player, cap, limit, ANY_WEIGHT, plan), TURNS[3])]
    if waypoint is not None and WAYPOINT_TURN > 0:
        runs.append((waypoint(board, box_cells, player, cap, limit), WAYPOINT_TURN))
    return runs


def solve_any(search, fess, backward, weighted, ctr, board, box_cells, player, cap, limit,
              symtab, stages=True, waypoint=None):
    """Packing stages, then the whole-level searches (see the module docstring), each
    stopped by ``limit`` (a :class:`levelforge.cancel.Limit`; then the status is
    ``limit`` or ``cancelled``). ``search(board, boxes, player, cap, weight, plan, symtab,
    limit)`` runs one search on the workspace whose counters are ``ctr``
    (:meth:`Solver._search`); ``fess(board, boxes, player, cap, limit)`` returns the
    feature-space search as a generator (:meth:`Solver._fess_steps`, see
    :mod:`levelforge.sokoban.turns`), ``backward`` (the same arguments and ``cells``)
    the backward search (:meth:`Solver._backward_steps`) and ``weighted`` (the same
    arguments, ``weight`` and ``plan``) weighted A* (:meth:`Solver._weighted_steps`);
    ``waypoint`` (the arguments of ``fess``), when given, the waypoint search
    (:meth:`Solver._waypoint_steps`).
    Returns ``(status, solution, nodes, expanded, optimal)``, ``optimal`` True when the last
    resort, A*, found the solution. ``unsolvable`` only comes from a whole-level
    search, which drops no state a solution needs; a failed stage proves nothing.
    ``stages=False`` (for measuring the feature-space search) skips the packing stages
    and runs the searches one after the other: the feature-space search to its end,
    then the greedy backward search, then weighted A* and A* as the last resort."""
    walls, goals, width = board[0], board[1], board[5]
    plan = packing_plan(walls, goals, width)
    boxes = set(int(c) for c in box_cells)
    at = player
    moves = []
    nodes = expanded = 0
    status = "solved"
    for stage in range(1, plan.shape[0] // 3 + 1 if stages else 1):
        ctr[_s.C_STAGE] = stage  # a stage packed already ends at its start
        cells = np.array(sorted(boxes), np.int32)
        budget = min(cap, STAGE_NODES) - nodes
        if budget <= 0 or limit.reason() is not None:  # a stage can be one long expansion
            status = "limit"
            break
        status, solution, n, e = search(board, cells, at, budget, STAGE_WEIGHT, plan, None,
                                        limit)
        nodes += n
        expanded += e
        if status != "solved":
            break
        at = _play(solution, boxes, at, width)
        moves.append(solution)
    ctr[_s.C_STAGE] = 0
    if stages and status == "solved":  # every stage: every goal holds a box
        return "solved", "".join(moves), nodes, expanded, False
    # the feature-space search, the two backward searches and weighted A* in turn
    # (stages=False: the feature-space search to its end first, then the greedy
    # backward search alone)
    if stages:
        runs = whole_level_runs(fess, backward, weighted, board, box_cells, player, cap,
                                limit, plan, waypoint)
    else:
        runs = [(fess(board, box_cells, player, cap, limit), TURNS[0]),
                (backward(board, box_cells, player, cap, limit), TURNS[1])]
    for turns in [runs] if stages else [[run] for run in runs]:
        status, solution, n, e = take_turns(turns, limit)
        nodes += n
        expanded += e
        if status != "limit" or limit.reason() is not None:
            return status, solution, nodes, expanded, False
    for weight in (1,) if stages else (ANY_WEIGHT, 1):  # weighted A* had its turns
        if limit.reason() is not None:
            return limit.reason(), None, nodes, expanded, False
        # (stages=False) weighted A* gets half the time left, A* (with symmetries) the rest
        sub = limit if weight == 1 else _share(limit, 0.5)
        status, solution, n, e = search(board, box_cells, player, cap, weight,
                                        None if weight == 1 else plan,
                                        symtab if weight == 1 else None, sub)
        nodes += n
        expanded += e
        if status != "limit":
            break
    return status, solution, nodes, expanded, weight == 1 and status == "solved"
