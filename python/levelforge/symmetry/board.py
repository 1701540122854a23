"""Boards of the symmetry line puzzles: points, edges, mirror, validation, solution counting.

A board is an ``N x N`` lattice of points ``(x, y)``, x to the right, y down, with a start,
a goal, required points and forbidden edges (an edge is a sorted pair of lattice-adjacent
points). A solution is a self-avoiding lattice path from start to goal that passes every
required point and uses no forbidden edge.

>>> b = Board(3, start=(0, 0), goal=(2, 2))
>>> count_solutions(b, limit=100)
12
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Mapping, NamedTuple, Sequence

import numpy as np

from levelforge.engine import paths as _k
from ..cells import check_cell
from ..errors import ConfigError, LevelFormatError

MIN_SIZE = 1
MAX_SIZE = 9
EXACT, AT_LIMIT, NODE_CAP, HALTED = "exact", "at_limit", "node_cap", "halted"
_STATUS = {_k.COMPLETE: EXACT, _k.AT_LIMIT: AT_LIMIT, _k.NODE_CAP: NODE_CAP,
           _k.HALTED: HALTED}

Point = tuple[int, int]
"""A lattice point ``(x, y)``."""
Edge = tuple[Point, Point]
"""A lattice edge: a sorted pair of adjacent points."""


class CountResult(NamedTuple):
    """One counting-DFS run: ``count`` (exact when ``status`` is ``exact``; ``at_limit``:
    the limit was reached; ``node_cap``: stopped at the node cap, a lower bound;
    ``halted``: stopped by a time limit or a cancel, a lower bound), search
    ``nodes``, and the first solutions found (flat point indices)."""

    count: int
    nodes: int
    status: str
    solutions: list


def _point(value, size, what):
    """``value`` as an in-range ``(x, y)`` tuple of ints, else ConfigError naming ``what``."""
    return check_cell(value, (size, size), what, noun="point")


def _edge(value, size, what):
    """``value`` as a sorted pair of lattice-adjacent points, else ConfigError."""
    try:
        a, b = value
    except (TypeError, ValueError):
        raise ConfigError(f"{what}: expected an edge (point, point), got {value!r}") from None
    a = _point(a, size, what)
    b = _point(b, size, what)
    if abs(a[0] - b[0]) + abs(a[1] - b[1]) != 1:
        raise ConfigError(f"{what}: {a} and {b} are not lattice-adjacent")
    return (a, b) if a <= b else (b, a)


def mirror_point(point, size):
    """The mirror image of ``point`` across the vertical axis: ``(N-1-x, y)``.

    >>> mirror_point((0, 1), 5)
    (4, 1)
    """
    return (size - 1 - point[0], point[1])


def mirror_edge(edge, size):
    """The mirror image of an edge, as a sorted pair.

    >>> mirror_edge(((0, 0), (1, 0)), 5)
    ((3, 0), (4, 0))
    """
    a, b = mirror_point(edge[0], size), mirror_point(edge[1], size)
    return (a, b) if a <= b else (b, a)


@dataclass(frozen=True)
class Board:
    """One board: size, start, goal, required points, forbidden edges (validated, normalised).

    Points are ``(x, y)`` tuples; ``required`` becomes a frozenset of points, ``forbidden``
    a frozenset of sorted point pairs. Invalid input raises :class:`~levelforge.ConfigError`.

    >>> Board(4, (0, 0), (3, 3), required={(1, 1)}, forbidden={((1, 0), (0, 0))}).forbidden
    frozenset({((0, 0), (1, 0))})
    """

    size: int
    start: Point
    goal: Point
    required: frozenset[Point] = frozenset()
    forbidden: frozenset[Edge] = frozenset()

    def __post_init__(self):
        size = self.size
        if isinstance(size, (bool, np.bool_)) or not isinstance(size, (int, np.integer)) \
                or not MIN_SIZE <= size <= MAX_SIZE:
            raise ConfigError(f"board size must be an integer in [{MIN_SIZE}, {MAX_SIZE}], "
                              f"got {size!r}")
        size = int(size)
        object.__setattr__(self, "size", size)
        object.__setattr__(self, "start", _point(self.start, size, "start"))
        object.__setattr__(self, "goal", _point(self.goal, size, "goal"))
        try:
            req = list(self.required)
            forb = list(self.forbidden)
        except TypeError:
            raise ConfigError("required and forbidden must be collections") from None
        object.__setattr__(self, "required", frozenset(
            _point(p, size, f"required point {i}") for i, p in enumerate(req)))
        object.__setattr__(self, "forbidden", frozenset(
            _edge(e, size, f"forbidden edge {i}") for i, e in enumerate(forb)))

    def index(self, point: Sequence[int]) -> int:
        """The flat index ``y * N + x`` of a point."""
        return point[1] * self.size + point[0]

    def point(self, index: int) -> Point:
        """The point ``(x, y)`` of a flat index."""
        return (index % self.size, index // self.size)

    def mirrored(self) -> Board:
        """This board mirrored across the vertical axis.

        >>> Board(3, (0, 0), (2, 1)).mirrored().goal
        (0, 1)
        """
        n = self.size
        return Board(n, mirror_point(self.start, n), mirror_point(self.goal, n),
                     frozenset(mirror_point(p, n) for p in self.required),
                     frozenset(mirror_edge(e, n) for e in self.forbidden))

    def check(self, path: Iterable[Sequence[int]]) -> bool:
        """True if ``path`` (a sequence of points) is a solution of this board.

        A malformed path (not points, or points off the board) raises ConfigError; a
        well-formed path that breaks a rule returns False.

        >>> Board(2, (0, 0), (1, 0)).check([(0, 0), (0, 1), (1, 1), (1, 0)])
        True
        """
        try:
            pts = [_point(p, self.size, f"path point {i}") for i, p in enumerate(path)]
        except TypeError:
            raise ConfigError(f"path must be a sequence of points, got {path!r}") from None
        if not pts or pts[0] != self.start or pts[-1] != self.goal:
            return False
        if len(set(pts)) != len(pts):
            return False
        for a, b in zip(pts, pts[1:]):
            if abs(a[0] - b[0]) + abs(a[1] - b[1]) != 1:
                return False
            if ((a, b) if a <= b else (b, a)) in self.forbidden:
                return False
        return self.required <= set(pts)

    def to_dict(self) -> dict[str, list[Any]]:
        """JSON-ready form: points as ``[x, y]`` lists, sets sorted."""
        return {
            "start": list(self.start),
            "goal": list(self.goal),
            "required": [list(p) for p in sorted(self.required)],
            "forbidden": [[list(a), list(b)] for a, b in sorted(self.forbidden)],
        }

    @classmethod
    def from_dict(cls, size: int, data: Mapping[str, Any], where: str = "board") -> Board:
        """Inverse of :meth:`to_dict`; malformed data raises LevelFormatError naming ``where``."""
        if not isinstance(data, Mapping) or "start" not in data or "goal" not in data:
            raise LevelFormatError(f"{where}: expected an object with a start and a goal")
        try:
            parts = (tuple(data["start"]), tuple(data["goal"]),
                     frozenset(tuple(p) for p in data.get("required") or []),
                     frozenset((tuple(a), tuple(b)) for a, b in data.get("forbidden") or []))
        except (TypeError, ValueError):
            raise LevelFormatError(f"{where}: start and goal must be points [x, y], required "
                                   "a list of points, forbidden a list of pairs of points"
                                   ) from None
        try:
            return cls(size, *parts)
        except (TypeError, ValueError) as exc:
            raise LevelFormatError(f"{where}: {exc}") from None


class Workspace:
    """Kernel arrays for boards of one size, allocated once and reused (not thread-safe)."""

    def __init__(self, size, max_solutions=2):
        n = size * size
        self.size = size
        self.n = n
        self.base_adj = _lattice(size)
        self.sols = np.zeros((max_solutions, n), np.int32)
        self.sol_len = np.zeros(max_solutions, np.int32)
        self.vis = np.zeros(2, np.uint64)
        self.stack_pt = np.zeros(n, np.int32)
        self.stack_k = np.zeros(n, np.int32)
        self.stamp = np.zeros(n, np.int64)
        self.queue = np.zeros(n, np.int32)
        self.stats = np.zeros(4, np.int64)  # count, nodes, status, halt (_k.S_HALT)
        self.prof = np.zeros(3, np.int64)

    def arrays(self, start, goal, required, forbidden):
        """``(adj, req)`` for flat start/goal, required indices and forbidden index pairs."""
        adj = self.base_adj.copy()
        for a, b in forbidden:
            if b == a + 1:
                adj[a, 2] = -1
                adj[b, 1] = -1
            else:
                adj[a, 3] = -1
                adj[b, 0] = -1
        req = np.zeros(self.n, np.uint8)
        for p in required:
            req[p] = 1
        return adj, req

    def count(self, start, goal, adj, req, limit, max_nodes):
        """Run the counting DFS; returns a :class:`CountResult`."""
        _k.count_paths(adj, start, goal, req, limit, max_nodes, self.sols, self.sol_len,
                       self.vis, self.stack_pt, self.stack_k, self.stamp, self.queue, self.stats)
        count, nodes, status = (int(v) for v in self.stats[:3])
        found = [self.sols[i, :self.sol_len[i]].tolist()
                 for i in range(min(count, self.sols.shape[0]))]
        return CountResult(count, nodes, _STATUS[status], found)

    def profile(self, start, goal, adj, req, path):
        """Branch-point figures of a solution ``path`` (flat indices)."""
        arr = np.asarray(path, np.int32)
        _k.branch_profile(adj, start, goal, req, arr, arr.shape[0], self.vis, self.stamp,
                          self.queue, self.prof)
        return [int(v) for v in self.prof]


def _lattice(size):
    """Neighbour table int32[n, 4] (up, left, right, down; -1 off the board)."""
    n = size * size
    adj = np.full((n, 4), -1, np.int32)
    idx = np.arange(n)
    x, y = idx % size, idx // size
    adj[y > 0, 0] = idx[y > 0] - size
    adj[x > 0, 1] = idx[x > 0] - 1
    adj[x < size - 1, 2] = idx[x < size - 1] + 1
    adj[y < size - 1, 3] = idx[y < size - 1] + size
    return adj


def board_arrays(board, ws):
    """Kernel arrays of ``board`` in workspace ``ws``: ``(start, goal, adj, req)``."""
    ix = board.index
    adj, req = ws.arrays(ix(board.start), ix(board.goal), [ix(p) for p in board.required],
                         [tuple(sorted((ix(a), ix(b)))) for a, b in board.forbidden])
    return ix(board.start), ix(board.goal), adj, req


def count_solutions(board: Board, limit: int = 2) -> int:
    """The number of solutions of ``board``, exact below ``limit`` (``limit`` means "at least").

    The counting DFS stops as soon as ``limit`` solutions are found.

    >>> count_solutions(Board(3, (0, 0), (2, 2), required={(x, y) for x in range(3)
    ...                                                    for y in range(3)}), limit=10)
    2
    """
    if not isinstance(board, Board):
        raise ConfigError(f"count_solutions needs a Board, got {type(board).__name__}")
    if isinstance(limit, (bool, np.bool_)) or not isinstance(limit, (int, np.integer)) \
            or limit < 1:
        raise ConfigError(f"limit must be a positive integer, got {limit!r}")
    ws = Workspace(board.size, max_solutions=0)
    start, goal, adj, req = board_arrays(board, ws)
    return ws.count(start, goal, adj, req, int(limit), np.iinfo(np.int64).max).count
