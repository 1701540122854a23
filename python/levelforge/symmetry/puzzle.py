"""A symmetry puzzle: two mirrored boards, the answer, and its metadata; JSON in and out.

Board B is the mirror image of board A across the vertical axis (``(x, y) -> (N-1-x, y)``);
the path a player draws on A appears mirrored on B, so the puzzle is judged on the master
board: A's conditions plus the mirror of B's.

>>> a = Board(3, (0, 0), (2, 2), required={(1, 1)})
>>> b = Board(3, (2, 0), (0, 2), forbidden={((1, 0), (2, 0))})
>>> p = Puzzle(3, a, b, solution=((0, 0), (0, 1), (1, 1), (1, 2), (2, 2)))
>>> sorted(p.master().forbidden)
[((0, 0), (1, 0))]
>>> p.check([(0, 0), (0, 1), (1, 1), (2, 1), (2, 2)])
True
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Iterable, Sequence

from ..errors import ConfigError, LevelFormatError
from .board import Board, Point, _point, mirror_edge, mirror_point

FORMAT = "levelforge.symmetry/1"


@dataclass(frozen=True, eq=False)
class Puzzle:
    """Two mirrored boards and the answer ``solution`` (points on A).

    ``timings`` holds the stage times in ms (``path``, ``required``, ``uniqueness``,
    ``reduction``, ``proof`` (final proof and figures), ``split``, and the ``z3`` and
    ``dfs`` totals); ``difficulty`` the figures (branch points, DFS nodes of the uniqueness
    proof, counts); ``config`` the generator settings. Construction checks that B's start
    and goal mirror A's and that a given solution solves the puzzle.

    >>> p = Puzzle(2, Board(2, (0, 0), (1, 0)), Board(2, (1, 0), (0, 0), required={(1, 1)}),
    ...            solution=[(0, 0), (0, 1), (1, 1), (1, 0)])
    >>> p.master().required, p.check([(0, 0), (1, 0)])
    (frozenset({(0, 1)}), False)
    """

    size: int
    board_a: Board
    board_b: Board
    solution: tuple[Point, ...] = ()
    seed: int | None = None
    strategy: str | None = None
    waypoints: tuple[Point, ...] = ()
    elapsed_ms: float = 0.0
    timings: dict[str, float] = field(default_factory=dict)
    difficulty: dict[str, Any] = field(default_factory=dict)
    config: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self):
        a, b = self.board_a, self.board_b
        if not isinstance(a, Board) or not isinstance(b, Board):
            raise ConfigError("board_a and board_b must be Board objects")
        if a.size != self.size or b.size != self.size:
            raise ConfigError(f"boards of size {a.size} and {b.size} in a puzzle of size "
                              f"{self.size}")
        if b.start != mirror_point(a.start, self.size) or b.goal != mirror_point(a.goal,
                                                                                  self.size):
            raise ConfigError(f"board B's start {b.start} and goal {b.goal} must mirror A's "
                              f"{a.start} and {a.goal}")
        try:
            sol = tuple(_point(p, self.size, f"solution point {i}")
                        for i, p in enumerate(self.solution))
        except TypeError:
            raise ConfigError("solution must be a sequence of points") from None
        object.__setattr__(self, "solution", sol)
        if sol and not self.master().check(sol):
            raise ConfigError("the solution does not solve the puzzle (both boards at once)")

    def master(self) -> Board:
        """The board the puzzle is judged on: A's conditions plus the mirror of B's.

        >>> Puzzle(3, Board(3, (0, 0), (2, 0)), Board(3, (2, 0), (0, 0),
        ...        required={(0, 2)})).master().required
        frozenset({(2, 2)})
        """
        a, b = self.board_a, self.board_b.mirrored()
        return Board(self.size, a.start, a.goal, a.required | b.required,
                     a.forbidden | b.forbidden)

    def check(self, path: Iterable[Sequence[int]]) -> bool:
        """True if ``path`` (points drawn on A) solves both boards at once; a malformed
        path raises ConfigError.

        >>> Puzzle(2, Board(2, (0, 0), (1, 0)), Board(2, (1, 0), (0, 0))).check([(0, 0), (1, 0)])
        True
        """
        return self.master().check(path)

    def to_svg(self, path: Iterable[Sequence[int]] = (), cell: float = 40) -> str:
        """Boards A and B side by side as an SVG picture, ``path`` (points on A, e.g.
        ``self.solution``) drawn on A and mirrored on B (see ``levelforge.symmetry.svg``).

        >>> Puzzle(2, Board(2, (0, 0), (1, 0)), Board(2, (1, 0), (0, 0))).to_svg()[:4]
        '<svg'
        """
        from .svg import puzzle_svg
        return puzzle_svg(self, path, cell)

    def _repr_svg_(self):
        return self.to_svg()

    def to_dict(self, include_timings: bool = True) -> dict[str, Any]:
        """JSON-ready dict. ``include_timings=False`` drops the machine-dependent fields
        (``timings``, ``elapsed_ms``), leaving what the seed alone determines."""
        d = {
            "format": FORMAT,
            "size": self.size,
            "seed": self.seed,
            "strategy": self.strategy,
            "config": dict(self.config),
            "board_a": self.board_a.to_dict(),
            "board_b": self.board_b.to_dict(),
            "solution": [list(p) for p in self.solution],
            "waypoints": [list(p) for p in self.waypoints],
            "difficulty": dict(self.difficulty),
        }
        if include_timings:
            d["timings"] = {k: round(v, 3) for k, v in self.timings.items()}
            d["elapsed_ms"] = round(self.elapsed_ms, 3)
        return d

    def to_json(self, include_timings: bool = True) -> str:
        """One line of JSON (keys sorted), the same content as :meth:`to_dict`.

        >>> p = Puzzle(3, Board(3, (0, 0), (2, 0)), Board(3, (2, 0), (0, 0)))
        >>> Puzzle.from_json(p.to_json()).board_b.start
        (2, 0)
        """
        return json.dumps(self.to_dict(include_timings), sort_keys=True, separators=(",", ":"))

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Puzzle:
        """Inverse of :meth:`to_dict`; malformed data raises LevelFormatError."""
        if not isinstance(data, dict):
            raise LevelFormatError(f"a puzzle must be a JSON object, got {type(data).__name__}")
        if data.get("format", FORMAT) != FORMAT:
            raise LevelFormatError(f"unknown format {data.get('format')!r}, expected {FORMAT}")
        try:
            size = data["size"]
            a = Board.from_dict(size, data["board_a"], "board_a")
            b = Board.from_dict(size, data["board_b"], "board_b")
            return cls(size, a, b,
                       solution=tuple(tuple(p) for p in data.get("solution", [])),
                       seed=data.get("seed"), strategy=data.get("strategy"),
                       waypoints=tuple(tuple(p) for p in data.get("waypoints", [])),
                       elapsed_ms=float(data.get("elapsed_ms", 0.0)),
                       timings=dict(data.get("timings", {})),
                       difficulty=dict(data.get("difficulty", {})),
                       config=dict(data.get("config", {})))
        except KeyError as exc:
            raise LevelFormatError(f"missing field {exc}") from None
        except (TypeError, ValueError) as exc:
            raise LevelFormatError(str(exc)) from None

    @classmethod
    def from_json(cls, text: str | bytes, line: int | None = None) -> Puzzle:
        """Parse one JSON object (one line of a JSONL file; ``line`` for error messages)."""
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise LevelFormatError(exc.msg, line=line or exc.lineno, column=exc.colno) from None
        try:
            return cls.from_dict(data)
        except LevelFormatError as exc:
            raise LevelFormatError(str(exc), line=line) from None


def split_items(size, required, forbidden, to_b):
    """Boards-A/B condition sets: items with ``to_b[i]`` true go to B, mirrored.

    ``required`` and ``forbidden`` are sequences on the master board; ``to_b`` has one
    flag per required point then per forbidden edge. Returns ``(a_req, a_forb, b_req, b_forb)``.
    """
    nr = len(required)
    a_req = frozenset(p for i, p in enumerate(required) if not to_b[i])
    b_req = frozenset(mirror_point(p, size) for i, p in enumerate(required) if to_b[i])
    a_forb = frozenset(e for i, e in enumerate(forbidden) if not to_b[nr + i])
    b_forb = frozenset(mirror_edge(e, size) for i, e in enumerate(forbidden) if to_b[nr + i])
    return a_req, a_forb, b_req, b_forb
