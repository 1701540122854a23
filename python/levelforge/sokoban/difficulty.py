"""How hard a Sokoban level is, beyond its push count: the solver's effort, the box
changes of its optimal solution and its dead squares.

>>> d = difficulty(Level.from_xsb("######\\n#@$ .#\\n######"))
>>> d.pushes, d.nodes >= 1
(2, True)
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..engine import sokoban_board as _b
from ..engine.grid import flood_fill
from ..errors import ConfigError, GenerationError
from .level import Level
from .solver import Solver


@dataclass(frozen=True)
class Difficulty:
    """How hard a level is, beyond its push count: ``pushes`` (optimal), the push-optimal
    solver's effort (``nodes`` stored and ``expanded`` states), ``box_changes`` (how
    often the solver's optimal solution switches to another box) and ``dead_squares``
    (floor cells the player can reach from which no box can be pushed onto a goal).

    >>> d = difficulty(Level.from_xsb("######\\n#@$ .#\\n######"))
    >>> d.pushes, d.box_changes, d.dead_squares
    (2, 0, 1)
    """

    pushes: int
    nodes: int
    expanded: int
    box_changes: int
    dead_squares: int

    def to_dict(self) -> dict[str, int]:
        """The figures as a JSON-ready dict."""
        return dict(self.__dict__)



def box_changes(level: Level, solution: str) -> int:
    """How often the pushes of ``solution`` (LURD) switch from one box to another.

    >>> box_changes(Level.from_xsb("######\\n#    #\\n#@$$.#\\n#   .#\\n######"),
    ...             "urDRlldRR")
    2
    >>> box_changes(Level.from_xsb("#######\\n#@$.$.#\\n#######"), "RRR")
    Traceback (most recent call last):
    ...
    levelforge.errors.ConfigError: solution move 1 ('R') is blocked
    """
    steps = {"u": (0, -1), "l": (-1, 0), "r": (1, 0), "d": (0, 1)}
    ids = {cell: i for i, cell in enumerate(sorted(level.boxes))}
    x, y = level.player
    last, changes = None, 0
    for k, ch in enumerate(solution):
        dx, dy = steps[ch.lower()]
        nxt = (x + dx, y + dy)
        if nxt in ids:
            beyond = (nxt[0] + dx, nxt[1] + dy)
            if beyond in ids or beyond in level.walls:
                raise ConfigError(f"solution move {k} ({ch!r}) is blocked")
            box = ids.pop(nxt)
            ids[beyond] = box
            changes += last is not None and box != last
            last = box
        elif nxt in level.walls:
            raise ConfigError(f"solution move {k} ({ch!r}) is blocked")
        x, y = nxt
    return changes


def dead_squares(level: Level) -> frozenset[tuple[int, int]]:
    """The floor cells the player can reach (boxes aside) from which no box can ever be
    pushed onto a goal: the squares the solver prunes.

    >>> sorted(dead_squares(Level.from_xsb("#####\\n#@$.#\\n#   #\\n#####")))
    [(1, 1), (1, 2), (2, 2), (3, 2)]
    """
    if not isinstance(level, Level):
        raise ConfigError(f"dead_squares() takes a sokoban Level, not {type(level).__name__}")
    walls, goals, _, player = level.arrays()
    inside = _reachable(walls, level.width, player)
    walls[~inside] = 1
    n = walls.shape[0]
    goal_cells = np.flatnonzero(goals & inside).astype(np.int32)
    if goal_cells.shape[0] == 0:
        return frozenset((int(c) % level.width, int(c) // level.width)
                         for c in np.flatnonzero(inside))
    dist = np.zeros((goal_cells.shape[0], 4 * n), np.int32)
    dead = np.zeros(n, np.uint8)
    _b.push_distances(walls, goal_cells, level.width, dist, dead, np.zeros(12 * n, np.int32),
                      np.zeros(n, np.int64), np.zeros(n * n, np.int8))
    return frozenset((int(c) % level.width, int(c) // level.width)
                     for c in np.flatnonzero(dead & inside))


def _reachable(walls, width, start):
    """Boolean mask of the cells connected to ``start`` through cells where ``walls`` (uint8)
    is 0: one :func:`levelforge.engine.grid.flood_fill`."""
    n = walls.shape[0]
    queue = np.zeros(n, np.int32)
    count = flood_fill(walls, width, start, np.zeros(n, np.int64), np.int64(1), queue)
    inside = np.zeros(n, bool)
    inside[queue[:count]] = True
    return inside


def difficulty(level: Level, solver: Solver | None = None,
               max_nodes: int = 1_000_000) -> Difficulty:
    """The :class:`Difficulty` of ``level``: a push-optimal solve (``solver``, or a new
    one capped at ``max_nodes`` stored states) and the figures of its solution. Raises
    :class:`~levelforge.GenerationError` when the solve does not finish (``limit``) or
    proves the level unsolvable."""
    solver = solver or Solver(max_nodes=max_nodes)
    r = solver.solve(level)
    if not r.solved:
        raise GenerationError(f"the level is not solved ({r.status}, {r.nodes} states)")
    return Difficulty(r.pushes, r.nodes, r.expanded, box_changes(level, r.solution),
                      len(dead_squares(level)))
