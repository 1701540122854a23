"""Judging a drawn stroke: solved, or the first rule it breaks and where.

:meth:`Puzzle.check` answers yes or no; :func:`judge` says why not, the way a player
needs it: the stroke is drawn on board A and mirrored on board B, so a forbidden edge or
a required point belongs to one board and is named in that board's coordinates.
``judge(p, path).solved == p.check(path)`` for every well-formed path.

>>> from levelforge.symmetry import Board, Puzzle
>>> p = Puzzle(3, Board(3, (0, 0), (2, 0), required={(1, 1)}), Board(3, (2, 0), (0, 0)))
>>> judge(p, [(0, 0), (1, 0), (2, 0)]).message
'the required point (1, 1) on board A is not visited'
>>> judge(p, [(0, 0), (0, 1), (1, 1), (2, 1), (2, 0)]).solved
True
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Sequence

from ..errors import ConfigError
from .board import Edge, Point, _point, mirror_edge, mirror_point
from .puzzle import Puzzle

RULES = ("start", "step", "revisit", "forbidden", "goal", "required")
"""The rules a stroke can break, in the order they are checked along it."""


@dataclass(frozen=True)
class Verdict:
    """The judgement of a stroke.

    ``rule`` is None when solved, else one of :data:`~levelforge.symmetry.judge.RULES`; ``board`` (``"A"`` or
    ``"B"``) is the board the broken rule belongs to; ``where`` the points or edges
    involved, in that board's coordinates; ``message`` says it in words.
    """

    solved: bool
    rule: str | None
    board: str | None
    where: tuple[Point | Edge, ...]
    message: str

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (points and edges as lists)."""
        def plain(item):
            return [plain(v) for v in item] if isinstance(item, tuple) else item
        return {"solved": self.solved, "rule": self.rule, "board": self.board,
                "where": [plain(w) for w in self.where], "message": self.message}


def _broken(rule, board, where, message):
    return Verdict(False, rule, board, tuple(where), message)


def judge(puzzle: Puzzle, path: Iterable[Sequence[int]]) -> Verdict:
    """The :class:`Verdict` on ``path`` (points drawn on board A) for ``puzzle``.

    Rules are checked along the stroke and the first broken one is reported: it must
    start at the start point, move one lattice step at a time, never visit a point twice
    and use no forbidden edge of A nor (mirrored) of B; then it must end at the goal and
    have passed every required point of both boards. A malformed path (not points, or
    points off the board) raises :class:`~levelforge.ConfigError`.
    """
    n = puzzle.size
    try:
        pts = [_point(p, n, f"path point {i}") for i, p in enumerate(path)]
    except TypeError:
        raise ConfigError(f"path must be a sequence of points, got {path!r}") from None
    a, b = puzzle.board_a, puzzle.board_b
    if not pts or pts[0] != a.start:
        got = f", not at {pts[0]}" if pts else ""
        return _broken("start", "A", [a.start],
                       f"the stroke must start at the start point {a.start}{got}")
    seen = {pts[0]}
    for p, q in zip(pts, pts[1:]):
        if abs(p[0] - q[0]) + abs(p[1] - q[1]) != 1:
            return _broken("step", "A", [p, q],
                           f"{p} to {q} is not one step along a grid line")
        if q in seen:
            return _broken("revisit", "A", [q], f"the stroke visits {q} twice")
        seen.add(q)
        edge = (p, q) if p <= q else (q, p)
        if edge in a.forbidden:
            return _broken("forbidden", "A", [edge],
                           f"the stroke uses the forbidden edge {edge[0]}-{edge[1]} on board A")
        mirrored = mirror_edge(edge, n)
        if mirrored in b.forbidden:
            return _broken("forbidden", "B", [mirrored],
                           f"the mirrored stroke uses the forbidden edge "
                           f"{mirrored[0]}-{mirrored[1]} on board B")
    if pts[-1] != a.goal:
        return _broken("goal", "A", [pts[-1]],
                       f"the stroke ends at {pts[-1]}, not at the goal {a.goal}")
    for name, board, visited in (("A", a, seen), ("B", b, {mirror_point(p, n) for p in seen})):
        missed = sorted(board.required - visited)
        if missed:
            more = f" (and {len(missed) - 1} more)" if len(missed) > 1 else ""
            return _broken("required", name, missed, f"the required point {missed[0]} on "
                           f"board {name} is not visited{more}")
    return Verdict(True, None, None, (), "solved: every rule of both boards holds")
