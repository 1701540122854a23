"""Shortening a Sokoban solution: fewer pushes first, then fewer moves.

A solution is a sequence of pushes with walks between them. :func:`optimize` takes
*windows* of it, pushes ``i`` to ``j``, and re-solves each push-optimally (A*) from the
state after push ``i`` to the state after push ``j``: the boxes where push ``j`` left
them and the player in the same region (a target configuration, not the level's goals;
the last window only needs the boxes on the goals). A shorter way replaces the window's
pushes; the walks between pushes are then recomputed as shortest walks. Windows slide
by half their length and double in length after each pass (8, 16, 32, ... pushes)
until one window covers the whole solution: if that last search finishes, the result is
push-optimal. This is how the community's optimisers shorten solutions found by
non-optimal solvers.

>>> from levelforge.sokoban import Level, optimize
>>> level = Level.from_xsb('#######\\n#@$  .#\\n#     #\\n#######')
>>> r = optimize(level, 'R' + 'drru' + 'L' + 'dllu' + 'RRR')  # a detour: 5 pushes
>>> r.solution, r.pushes, r.optimal
('RRR', 3, True)
"""
from __future__ import annotations

from collections import deque

from ..cancel import Cancel
from ..errors import ConfigError
from ..timing import ms_since, now_ns
from .level import Level
from .replay import replay
from .solver import LIMIT, SOLVED, SolveResult, Solver

WINDOW_NODES = 200_000
"""Default node cap of each window's search."""
_FIRST_WINDOW = 8
_LOWER = "ulrd"


def optimize(level: Level, solution: str, time_limit: float | None = None,
             max_nodes: int = WINDOW_NODES, cancel: Cancel | None = None) -> SolveResult:
    """A solution of ``level`` at most as long as ``solution`` (pushes, then moves), by
    push-optimal re-solving of its windows (see the module docstring). ``time_limit``
    (seconds) bounds the work; None runs every pass (each window capped at
    ``max_nodes`` states); a ``cancel`` token stops it too (the best solution so far is
    returned either way). The result's ``optimal`` is True when the push count is
    proved optimal (the window over the whole solution was searched to the end);
    ``nodes`` and ``expanded`` add up the windows' searches.

    >>> from levelforge.sokoban import Level
    >>> optimize(Level.from_xsb('#####\\n#@$.#\\n#####'), 'R').pushes
    1
    """
    start = now_ns()
    if not isinstance(level, Level):
        raise ConfigError(f"optimize() takes a sokoban Level, not {type(level).__name__}")
    if time_limit is not None and (isinstance(time_limit, bool)
                                   or not isinstance(time_limit, (int, float))
                                   or not time_limit > 0):
        raise ConfigError(f"time_limit must be a positive number of seconds or None, "
                          f"got {time_limit!r}")
    if not replay(level, solution).is_solved:  # raises InvalidMoveError on a bad move
        raise ConfigError("the moves do not solve the level: nothing to optimise")
    deadline = None if time_limit is None else start + int(time_limit * 1e9)
    board = _Board(level)
    pushes = board.pushes(solution)
    best = board.moves(pushes)
    if len(best) > len(solution):  # never the case (shortest walks), but never longer
        best = solution
    solver = Solver(max_nodes=max_nodes)
    nodes = expanded = 0
    optimal = not pushes
    size = _FIRST_WINDOW
    covered = False  # a window over the whole solution was searched
    while pushes and not covered:
        length = min(size, len(pushes))
        i = 0
        while i < len(pushes):  # a shortened solution may end before the next window
            if deadline is not None and now_ns() >= deadline:
                return _result(best, nodes, expanded, start, False)
            j = min(i + length, len(pushes))
            status, sub, n, e = board.window(solver, pushes, i, j, deadline, cancel)
            nodes += n
            expanded += e
            if status == "cancelled":
                return _result(best, nodes, expanded, start, False)
            covered = i == 0 and j == len(pushes)
            if status == SOLVED:
                candidate = pushes[:i] + sub + pushes[j:]
                moves = board.moves(candidate)
                if (len(candidate), len(moves)) < (len(pushes), len(best)):
                    pushes, best = candidate, moves
                optimal = covered  # the whole solution searched: its push count is proved
            if j >= len(pushes):
                break
            i += max(1, length // 2)
        size *= 2
    return _result(best, nodes, expanded, start, optimal)


def _result(solution, nodes, expanded, start, optimal):
    pushes = sum(ch.isupper() for ch in solution)
    return SolveResult(SOLVED, pushes, len(solution), solution, nodes, expanded,
                       ms_since(start), optimal)


class _Board:
    """The level's walls as flat cells, and the states along a list of pushes (each a
    ``(box cell, direction)`` pair, directions 0..3 = up, left, right, down)."""

    def __init__(self, level):
        self.level = level
        self.width = w = level.width
        walls, _, boxes, player = level.arrays()
        self.walls = walls
        self.boxes = frozenset(int(c) for c in boxes.nonzero()[0])
        self.player = player
        self.steps = (-w, -1, 1, w)

    def pushes(self, solution):
        """The pushes of a LURD solution (checked legal by the caller)."""
        out = []
        player = self.player
        for letter in solution:
            d = _LOWER.index(letter.lower())
            player += self.steps[d]
            if letter.isupper():
                out.append((player, d))
        return out

    def states(self, pushes, upto):
        """Boxes and player cell after each of the first ``upto`` pushes (index 0: the
        start), as lists."""
        boxes, player = set(self.boxes), self.player
        out = [(frozenset(boxes), player)]
        for b, d in pushes[:upto]:
            boxes.remove(b)
            boxes.add(b + self.steps[d])
            player = b
            out.append((frozenset(boxes), player))
        return out

    def region(self, boxes, player):
        """The cells the player walks to among ``boxes``; a dict cell -> (previous cell,
        direction) for the walk back."""
        seen = {player: None}
        todo = deque([player])
        while todo:
            c = todo.popleft()
            for d, s in enumerate(self.steps):
                nb = c + s
                if nb not in seen and not self.walls[nb] and nb not in boxes:
                    seen[nb] = (c, d)
                    todo.append(nb)
        return seen

    def moves(self, pushes):
        """The LURD string of ``pushes`` with shortest walks between them."""
        boxes, player = set(self.boxes), self.player
        out = []
        for b, d in pushes:
            prev = self.region(boxes, player)
            walk = []
            c = b - self.steps[d]
            while c != player:
                c, e = prev[c]
                walk.append(_LOWER[e])
            out.extend(reversed(walk))
            out.append(_LOWER[d].upper())
            boxes.remove(b)
            boxes.add(b + self.steps[d])
            player = b
        return "".join(out)

    def window(self, solver, pushes, i, j, deadline, cancel=None):
        """Re-solve pushes ``i`` to ``j`` push-optimally: ``(status, pushes, nodes,
        expanded)``; the pushes only when solved."""
        states = self.states(pushes, j)
        (bi, pi), (bj, pj) = states[i], states[j]
        h, w = self.level.height, self.width
        goals = [0] * (w * h)
        boxes = [0] * (w * h)
        for c in bj:
            goals[c] = 1
        for c in bi:
            boxes[c] = 1
        sub = Level.from_arrays(w, h, self.walls, goals, boxes, pi)
        left = None if deadline is None else (deadline - now_ns()) / 1e9
        if left is not None and left <= 0:
            return LIMIT, None, 0, 0
        # the player must end in push j's region, unless nothing follows
        solver._target = None if j == len(pushes) else min(self.region(bj, pj))
        try:
            r = solver.solve(sub, time_limit=left, cancel=cancel)
        finally:
            solver._target = None
        if not r.solved:
            return r.status, None, r.nodes, r.expanded
        return SOLVED, _Board(sub).pushes(r.solution), r.nodes, r.expanded
