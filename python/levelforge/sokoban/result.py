"""What a Sokoban generator hands back: the level with its proof
(:class:`GenerateResult`), what it cost (:class:`Attempts`), and the checks of the
generators' integer options. Shared by the reverse-play generator
(:mod:`levelforge.sokoban.generator`) and the farthest-state generator
(:mod:`levelforge.sokoban.farthest`).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..errors import ConfigError
from .level import Level


@dataclass(frozen=True)
class Attempts:
    """What one generation cost: boards built, pulls made, solver calls (and how many hit
    the node cap), stored solver states, the inner walls of the emitted board (fewer
    than asked when no board with that many gave a candidate), and
    whether the closest candidate was taken instead of an in-target level.

    >>> from levelforge.sokoban import generate
    >>> a = generate(2).attempts
    >>> a.boards >= 1 and a.solver_calls >= 1 and not a.fallback
    True
    """

    boards: int
    pulls: int
    solver_calls: int
    solver_capped: int
    solver_nodes: int
    inner_walls: int
    fallback: bool

    def to_dict(self) -> dict[str, int | bool]:
        """The statistics as a JSON-ready dict."""
        return dict(self.__dict__)


@dataclass(frozen=True)
class GenerateResult:
    """A generated level with its proof: the push-optimal ``solution`` (LURD) that replays
    to solved with exactly ``pushes`` pushes.

    ``in_target`` is False when no board reached the target range and the closest
    solvable candidate was returned instead. Levels of ``method="farthest"`` also carry
    their :class:`~levelforge.sokoban.difficulty.Difficulty` and the
    :class:`~levelforge.sokoban.farthest.PullSearch` that found them (None otherwise).

    >>> from levelforge.sokoban import generate
    >>> r = generate(3)
    >>> r.seed, r.level.is_solved, len([c for c in r.solution if c.isupper()]) == r.pushes
    (3, False, True)
    """

    level: Level
    pushes: int
    solution: str
    in_target: bool
    seed: int
    elapsed_ms: float
    attempts: Attempts
    config: dict[str, Any] = field(default_factory=dict)
    difficulty: Any = None  # a difficulty.Difficulty (not imported: the default path skips it)
    search: Any = None  # a farthest.PullSearch

    @property
    def moves(self) -> int:
        """Length of the solution in moves (walks plus pushes)."""
        return len(self.solution)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready metadata: the level as XSB, seed, configuration, pushes, moves,
        solution, in_target, elapsed_ms and attempt statistics."""
        d = {"seed": self.seed, "config": dict(self.config), "level": self.level.to_xsb(),
             "pushes": self.pushes, "moves": self.moves, "solution": self.solution,
             "in_target": self.in_target, "elapsed_ms": self.elapsed_ms,
             "attempts": self.attempts.to_dict()}
        if self.difficulty is not None:
            d["difficulty"] = self.difficulty.to_dict()
        if self.search is not None:
            d["search"] = self.search.to_dict()
        return d


def bounded_int(name: str, value: Any, lo: int, hi: int) -> int:
    """``value`` as an int when it is an integer (not a bool) in ``[lo, hi]``; else a
    :class:`~levelforge.ConfigError` naming ``name``."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) \
            or not lo <= value <= hi:
        raise ConfigError(f"{name} must be an integer in [{lo}, {hi}], got {value!r}")
    return int(value)
