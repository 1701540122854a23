"""A puzzle designer's checks: how many solutions the drawn conditions leave (none, exactly
one, or at least two with a second one to look at), and the generator's own
forbid-until-unique step run on the designer's conditions.

>>> from levelforge.symmetry import Board, Puzzle, editor
>>> p = Puzzle(3, Board(3, (0, 0), (2, 0)), Board(3, (2, 0), (0, 0)))
>>> a = editor.check(p)
>>> a.status, len(a.solutions)
('several', 2)
>>> done = editor.finish(p, seed=1)
>>> editor.check(done.puzzle).status
'unique'
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, Sequence

from ..cancel import Cancel, Limit
from ..engine import paths as _paths
from ..errors import ConfigError
from ..seeding import check_seed
from ..timing import ms_since, now_ns
from .board import NODE_CAP, Board, Point, Workspace, board_arrays, mirror_point
from .generator import Generator, _Run
from .puzzle import Puzzle

__all__ = ["Answer", "Finished", "check", "finish"]

DEFAULT_MAX_NODES = 2_000_000
"""Default cap on the counting search's nodes; reaching it answers ``limit``."""


@dataclass(frozen=True)
class Answer:
    """The answer of :func:`levelforge.symmetry.check`: ``status`` is ``"none"`` (proved: no
    stroke solves both boards), ``"unique"`` (proved: exactly one), ``"several"`` (at least
    two) or ``"limit"`` (the node cap was reached first: unknown). ``solutions`` holds the
    strokes found (points on board A; at most two), ``nodes`` the search's effort."""

    status: Literal["none", "unique", "several", "limit"]
    solutions: tuple[tuple[Point, ...], ...]
    nodes: int
    elapsed_ms: float

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (points as ``[x, y]``)."""
        return {"status": self.status, "nodes": self.nodes, "elapsed_ms": self.elapsed_ms,
                "solutions": [[list(p) for p in s] for s in self.solutions]}


def _puzzle(puzzle, where):
    if not isinstance(puzzle, Puzzle):
        raise ConfigError(f"{where}() takes a symmetry Puzzle, not {type(puzzle).__name__}")
    return puzzle.master()


def check(puzzle: Puzzle, max_nodes: int = DEFAULT_MAX_NODES) -> Answer:
    """Count the strokes that solve both boards of ``puzzle`` (its master board), up to
    two, with the generator's counting search capped at ``max_nodes`` nodes.

    >>> from levelforge.symmetry import Board, Puzzle
    >>> p = Puzzle(3, Board(3, (0, 0), (2, 2), required={(1, 1)}),
    ...            Board(3, (2, 0), (0, 2), forbidden={((0, 0), (1, 0))}))
    >>> a = check(p)
    >>> a.status, a.solutions[0][:3]
    ('several', ((0, 0), (1, 0), (1, 1)))
    """
    master = _puzzle(puzzle, "check")
    if isinstance(max_nodes, bool) or not isinstance(max_nodes, int) or max_nodes < 1:
        raise ConfigError(f"max_nodes must be a positive integer, got {max_nodes!r}")
    t = now_ns()
    ws = Workspace(master.size, max_solutions=2)
    start, goal, adj, req = board_arrays(master, ws)
    res = ws.count(start, goal, adj, req, 2, max_nodes)
    found = tuple(tuple(master.point(i) for i in s) for s in res.solutions)
    if res.status == NODE_CAP:
        status = "limit"
    else:
        status = ("none", "unique", "several")[min(res.count, 2)]
    return Answer(status, found, res.nodes, ms_since(t))


@dataclass(frozen=True)
class Finished:
    """The result of :func:`levelforge.symmetry.finish`: the finished ``puzzle`` (unique,
    ``solution`` set), and what the step changed: edges it forbade (on board A), points it
    required (on A), points of trap pairs it stopped requiring, and the alternatives it
    removed."""

    puzzle: Puzzle
    forbidden_added: tuple[tuple[Point, Point], ...]
    required_added: tuple[Point, ...]
    required_dropped: tuple[Point, ...]
    rounds: int

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict: the puzzle's boards and solution, and the changes."""
        p = self.puzzle
        return {"size": p.size, "board_a": p.board_a.to_dict(), "board_b": p.board_b.to_dict(),
                "solution": [list(q) for q in p.solution],
                "forbidden_added": [[list(a), list(b)] for a, b in self.forbidden_added],
                "required_added": [list(q) for q in self.required_added],
                "required_dropped": [list(q) for q in self.required_dropped],
                "rounds": self.rounds}


def finish(puzzle: Puzzle, seed: int = 0, answer: Sequence[Point] | None = None,
           max_nodes: int = 200_000, time_limit: float | None = None,
           cancel: Cancel | None = None) -> Finished:
    """Make ``puzzle`` unique around ``answer`` (a stroke on A that solves it; default:
    the first one :func:`levelforge.symmetry.check` finds) with the generator's own
    forbid-until-unique step (:class:`~levelforge.symmetry.Generator`, stage 3) started from
    the designer's conditions: it forbids an edge of each other solution, never a trap
    pair's edge (two required points that are lattice neighbours but not consecutive on the
    answer), and may require a point of the answer or stop requiring one point of a trap
    pair. New conditions go on board A; the designer's stay where they are. Reproducible
    from ``seed``; ``max_nodes`` caps each count (see
    :class:`levelforge.symmetry.Generator`); ``time_limit`` (seconds, default None: no
    limit) and ``cancel`` stop it as they stop :meth:`levelforge.symmetry.Generator.generate`
    (:class:`~levelforge.GenerationError` naming the limit, or
    :class:`~levelforge.Cancelled`).

    >>> from levelforge.symmetry import Board, Puzzle, count_solutions
    >>> p = Puzzle(4, Board(4, (0, 0), (3, 3)), Board(4, (3, 0), (0, 3)))
    >>> done = finish(p, seed=2)
    >>> count_solutions(done.puzzle.master()), done.puzzle.check(done.puzzle.solution)
    (1, True)
    """
    master = _puzzle(puzzle, "finish")
    seed = check_seed(seed)
    n = master.size
    if answer is None:
        found = check(puzzle, max_nodes=max(max_nodes, DEFAULT_MAX_NODES))
        if not found.solutions:
            raise ConfigError("finish: the puzzle has no solution to keep"
                              if found.status == "none" else
                              "finish: no solution found within the node cap; give one")
        answer = found.solutions[0]
    answer = tuple(tuple(p) for p in answer)
    if not master.check(answer):
        raise ConfigError("finish: the answer does not solve the puzzle (both boards)")
    limit = Limit(time_limit, cancel)
    run = _Run(Generator(n, max_nodes=max_nodes), seed, limit)
    flat = [master.index(p) for p in answer]
    run.s, run.g = flat[0], flat[-1]
    required = sorted(master.index(p) for p in master.required)
    forbidden = sorted(tuple(sorted((master.index(a), master.index(b))))
                       for a, b in master.forbidden)
    with limit.watch(run.ws.stats, _paths.S_HALT):
        req, forb, rounds, _, _ = run._forbid_until_unique(flat, required, forbidden)
    added_f = sorted((master.point(a), master.point(b)) for a, b in set(forb) - set(forbidden))
    added_r = sorted(master.point(p) for p in set(req) - set(required))
    dropped = sorted(master.point(p) for p in set(required) - set(req))
    a, b = puzzle.board_a, puzzle.board_b
    board_a = Board(n, a.start, a.goal, (a.required - set(dropped)) | set(added_r),
                    a.forbidden | set(added_f))
    board_b = Board(n, b.start, b.goal,
                    b.required - {mirror_point(p, n) for p in dropped}, b.forbidden)
    done = Puzzle(n, board_a, board_b, solution=answer, seed=seed)
    return Finished(done, tuple(added_f), tuple(added_r), tuple(dropped), rounds)

