"""The push-optimal Sokoban solver: A* over pushes with a reusable workspace.

>>> from levelforge.sokoban import Level, solve
>>> result = solve(Level.from_xsb('''
... ######
... #@$ .#
... ######'''))
>>> result.status, result.pushes, result.solution
('solved', 2, 'RR')
"""
from dataclasses import dataclass

import numpy as np

from ..engine import sokoban as _k
from ..engine.grid import flood_fill
from ..errors import ConfigError
from ..timing import ms_since, now_ns
from .level import Level

SOLVED = "solved"
UNSOLVABLE = "unsolvable"
LIMIT = "limit"
_STATUS = {_k.SOLVED: SOLVED, _k.UNSOLVABLE: UNSOLVABLE, _k.LIMIT: LIMIT}

MAX_BOXES = 32
"""Most boxes the solver accepts (the Hungarian heuristic is cubic in the box count)."""
MAX_PUSHES = _k.MAX_G - 1
"""Longest solution, in pushes, the solver can represent (the heap key packs 15 bits)."""
DEFAULT_MAX_NODES = 1_000_000
"""Default cap on stored search states; reaching it returns status ``limit``."""
MAX_NODES = 1 << 26
"""Largest accepted ``max_nodes``."""
_BUDGET = 512  # expansions between two looks at the clock


@dataclass(frozen=True)
class SolveResult:
    """The outcome of :func:`solve`.

    ``status`` is ``"solved"``, ``"unsolvable"`` (proved: the whole space was searched)
    or ``"limit"`` (``max_nodes`` or ``time_limit`` was reached: unknown). ``pushes``
    (optimal), ``moves`` and ``solution`` (LURD: lower-case walks, upper-case pushes) are
    ``None`` unless solved. ``nodes`` counts stored states, ``expanded`` expanded ones.

    >>> r = solve(Level.from_xsb('#####\\n#@$.#\\n#####'))
    >>> r.status, r.pushes, r.moves, r.solution
    ('solved', 1, 1, 'R')
    """

    status: str
    pushes: int | None
    moves: int | None
    solution: str | None
    nodes: int
    expanded: int
    elapsed_ms: float

    @property
    def solved(self):
        """True when a solution was found."""
        return self.status == SOLVED

    def to_dict(self):
        """The result as a JSON-ready dict."""
        return {"status": self.status, "pushes": self.pushes, "moves": self.moves,
                "solution": self.solution, "nodes": self.nodes, "expanded": self.expanded,
                "elapsed_ms": self.elapsed_ms}


def _pow2_at_least(n):
    return 1 << max(4, int(n - 1).bit_length())


class Workspace:
    """Search arrays sized for ``cells`` cells, ``boxes`` boxes and ``nodes`` states,
    allocated once and reused by every search (grown only when a bigger one is asked)."""

    def __init__(self):
        self.cells = self.boxes = self.nodes = 0
        self.zob = np.zeros((2, 0), np.uint64)
        self.ctr = np.zeros(_k.N_COUNTERS, np.int64)
        self.pool = np.zeros(0, np.int16)
        self.distbuf = np.zeros(0, np.int32)
        self.symtab = _IDENTITY

    def ensure(self, cells, boxes, nodes):
        """Grow the arrays so a search of this size fits; keep them if they already do."""
        if cells > self.cells:
            self.cells = cells
            rng = np.random.default_rng(0x50C0BA)  # fixed: results never depend on it
            self.zob = rng.integers(0, 2**64 - 1, size=(2, cells), dtype=np.uint64,
                                    endpoint=True)
            self.occ = np.zeros(cells, np.uint8)
            self.blk = np.zeros(cells, np.uint8)
            self.tmp = np.zeros(cells, np.uint8)
            self.stamp = np.zeros(cells, np.int64)
            self.stamp2 = np.zeros(cells, np.int64)
            self.queue = np.zeros(cells, np.int32)
            self.queue2 = np.zeros(cells, np.int32)
            self.prev = np.zeros(cells, np.int32)
            self.sides = np.zeros(12 * cells, np.int32)
            self.lab = np.zeros(cells, np.int64)
            self.dead = np.zeros(cells, np.uint8)
            self.compof = np.zeros(cells * cells, np.int8)
            self.ctr[_k.C_FILL] = 0
            self.ctr[_k.C_FILL2] = 0
        if boxes > self.boxes:
            self.boxes = max(boxes, 4, 2 * self.boxes if self.nodes else 0)
            self.wbox = np.zeros(self.boxes, np.int16)
            self.hung = [np.zeros(self.boxes + 1, np.int64) for _ in range(8)]
        if nodes > self.nodes or self.pool.shape[0] < nodes * boxes:
            self._grow(nodes, boxes)
        if self.distbuf.shape[0] < 4 * self.boxes * self.cells:
            self.distbuf = np.zeros(4 * self.boxes * self.cells, np.int32)
        return self

    def _grow(self, nodes, boxes):
        self.nodes = max(nodes, self.nodes)
        self.pool = np.zeros(self.nodes * self.boxes, np.int16)
        self.nplayer = np.zeros(self.nodes, np.int32)
        self.nparent = np.zeros(self.nodes, np.int32)
        self.ng = np.zeros(self.nodes, np.int32)
        self.nhash = np.zeros(self.nodes, np.uint64)
        self.nmove = np.zeros(self.nodes, np.int32)
        self.heap = np.zeros(2 * self.nodes + 16, np.int64)
        size = _pow2_at_least(2 * self.nodes)
        self.table = np.zeros(size, np.int64)  # entries stamped with search generations
        self.chain = np.zeros(max(_k.MAX_G + 1, 64), np.int32)
        self.ctr[_k.C_TEPOCH] = 0

    def search_arrays(self):
        """The arrays of the search kernels, in their argument order (after ``zob``)."""
        return (self.pool, self.nplayer, self.nparent, self.ng, self.nhash, self.nmove,
                self.heap, self.table, self.ctr, self.occ, self.blk,
                self.stamp, self.queue, self.stamp2, self.queue2, self.tmp, self.wbox,
                *self.hung, self.compof, self.symtab)


_IDENTITY = np.zeros((1, 1), np.int32)  # no symmetry: the kernels never read it
# the isometries of a grid: (x, y) -> (a*x + b*y + c, d*x + e*y + f) with c, f from the size;
# the first four keep the shape, the last four swap width and height (square boards only)
_ISOMETRIES = ((1, 0, 0, 1), (-1, 0, 0, 1), (1, 0, 0, -1), (-1, 0, 0, -1),
               (0, 1, 1, 0), (0, -1, 1, 0), (0, 1, -1, 0), (0, -1, -1, 0))
_STEPS = ((0, -1), (-1, 0), (1, 0), (0, 1))  # directions u, l, r, d


def board_symmetries(walls, goals, width, height):
    """The symmetries of a board (isometries of the grid that map walls to walls and
    goals to goals) as the kernels' table: one row per symmetry (the identity first),
    holding the cell permutation, the direction map, the composition row (entry ``j``:
    this symmetry after symmetry ``j``) and the index of the inverse. Returns
    :data:`_IDENTITY` when the board has no other symmetry.

    >>> w = np.array([1, 1, 1, 1, 0, 1, 1, 1, 1], np.uint8)
    >>> board_symmetries(w, np.zeros(9, np.uint8), 3, 3).shape
    (8, 22)
    """
    n = width * height
    x = np.arange(n) % width
    y = np.arange(n) // width
    perms, dirs = [], []
    for a, b, d, e in _ISOMETRIES:
        if b != 0 and width != height:
            continue
        nx = a * x + b * y
        ny = d * x + e * y
        nx -= nx.min()
        ny -= ny.min()
        perm = ny * width + nx
        if not (np.array_equal(walls[perm], walls) and np.array_equal(goals[perm], goals)):
            continue
        perms.append(perm)
        dirs.append([_STEPS.index((a * sx + b * sy, d * sx + e * sy)) for sx, sy in _STEPS])
    k = len(perms)
    if k == 1:
        return _IDENTITY
    index = {p.tobytes(): i for i, p in enumerate(perms)}
    table = np.zeros((k, n + 4 + k + 1), np.int32)
    ident = np.arange(n)
    for i, p in enumerate(perms):
        table[i, :n] = p
        table[i, n:n + 4] = dirs[i]
        for j, q in enumerate(perms):
            table[i, n + 4 + j] = index[p[q].tobytes()]  # cell c -> p[q[c]]
        table[i, n + 4 + k] = next(j for j, q in enumerate(perms)
                                   if np.array_equal(q[p], ident))
    return table


def _player_area(walls, width, player, ws):
    """Mask every cell the player cannot reach (boxes ignored) as a wall."""
    blocked = walls.copy()
    epoch = ws.ctr[_k.C_FILL2] + 1
    ws.ctr[_k.C_FILL2] = epoch
    n = flood_fill(blocked, width, player, ws.stamp2, epoch, ws.queue2)
    inside = np.zeros(walls.shape[0], bool)
    inside[ws.queue2[:n]] = True
    return inside


class Solver:
    """A push-optimal solver that keeps its work arrays between solves.

    Limits: at most :data:`MAX_BOXES` boxes, levels up to ``MAX_SIDE`` x ``MAX_SIDE``
    (the :class:`Level` limit), solutions up to :data:`MAX_PUSHES` pushes; larger
    inputs raise :class:`~levelforge.ConfigError`. Not thread-safe: use one per thread.

    >>> solver = Solver(max_nodes=100_000)
    >>> solver.solve(Level.from_xsb('#####\\n#@$.#\\n#####')).pushes
    1
    """

    def __init__(self, max_nodes=DEFAULT_MAX_NODES):
        self.max_nodes = _check_nodes(max_nodes)
        self.workspace = Workspace()

    def warm_up(self):
        """Compile (or load from the cache) the kernels by solving a tiny level."""
        self.solve(Level.from_xsb("#####\n#@$.#\n#####"))
        return self

    def solve(self, level, max_nodes=None, time_limit=None):
        """Solve ``level`` push-optimally; see :func:`solve`."""
        _load_kernels()  # once per process, outside the timing and the time limit
        start = now_ns()
        if not isinstance(level, Level):
            raise ConfigError(f"solve() takes a sokoban Level, not {type(level).__name__}")
        cap = self.max_nodes if max_nodes is None else _check_nodes(max_nodes)
        if time_limit is not None:
            if isinstance(time_limit, bool) or not isinstance(time_limit, (int, float)) \
                    or not time_limit > 0:
                raise ConfigError(f"time_limit must be a positive number of seconds or None, "
                                  f"got {time_limit!r}")
        if len(level.boxes) > MAX_BOXES:
            raise ConfigError(f"the solver handles at most {MAX_BOXES} boxes; "
                              f"the level has {len(level.boxes)}")
        walls, goals, boxes, player = level.arrays()
        width = level.width
        ws = self.workspace.ensure(walls.shape[0], len(level.boxes), cap)
        inside = _player_area(walls, width, player, ws)
        walls[~inside] = 1
        # boxes and goals the player can never reach: a box parked on its goal is a
        # wall; any other is a proof of unsolvability
        sealed_box = (boxes == 1) & ~inside
        sealed_goal = (goals == 1) & ~inside
        if np.any(sealed_box != sealed_goal):
            return SolveResult(UNSOLVABLE, None, None, None, 0, 0, ms_since(start))
        goals[sealed_goal] = 0
        boxes[sealed_box] = 0
        box_cells = np.flatnonzero(boxes).astype(np.int32)
        goal_cells = np.flatnonzero(goals).astype(np.int32)
        nbox = box_cells.shape[0]
        if nbox == 0:
            return SolveResult(SOLVED, 0, 0, "", 1, 0, ms_since(start))
        n = walls.shape[0]
        dist = ws.distbuf[:4 * nbox * n].reshape(nbox, 4 * n)  # C-contiguous, no copy
        dead = ws.dead[:n]
        _k.push_distances(walls, goal_cells, width, dist, dead, ws.sides, ws.lab, ws.compof)
        ws.symtab = board_symmetries(walls, goals, width, level.height)
        arrays = ws.search_arrays()
        board = (walls, goals, dead, dist, ws.zob, width)
        status = _k.search_start(box_cells, nbox, player, cap, *board, *arrays)
        deadline = None if time_limit is None else start + int(time_limit * 1e9)
        timed_out = False
        while status == _k.RUNNING:
            status = _k.search_run(_BUDGET, *board, *arrays)
            if status == _k.RUNNING and deadline is not None and now_ns() >= deadline:
                timed_out = True
                break
        nodes = int(ws.ctr[_k.C_NODES])
        expanded = int(ws.ctr[_k.C_EXPANDED])
        if timed_out:
            return SolveResult(LIMIT, None, None, None, nodes, expanded, ms_since(start))
        if status != _k.SOLVED:
            return SolveResult(_STATUS[status], None, None, None, nodes, expanded,
                               ms_since(start))
        pushes = int(ws.ng[ws.ctr[_k.C_GOAL]])
        out = np.empty(pushes * (walls.shape[0] + 1) + 1, np.uint8)
        length = _k.reconstruct_sym(walls, width, ws.pool, ws.nparent, ws.nmove, ws.ctr,
                                    ws.occ, ws.stamp2, ws.queue2, ws.prev, ws.chain, out,
                                    ws.symtab, ws.symtab.shape[0])
        solution = out[:length].tobytes().decode("ascii")
        return SolveResult(SOLVED, pushes, len(solution), solution, nodes, expanded,
                           ms_since(start))


def _check_nodes(max_nodes):
    if isinstance(max_nodes, bool) or not isinstance(max_nodes, (int, np.integer)) \
            or not 1 <= max_nodes <= MAX_NODES:
        raise ConfigError(f"max_nodes must be an integer in [1, {MAX_NODES}], got {max_nodes!r}")
    return int(max_nodes)


_DEFAULT = None


_KERNELS_LOADED = False


def _load_kernels():
    """Compile (cold cache) or load the solver kernels once per process, so that no
    solve's ``elapsed_ms`` or ``time_limit`` pays for it."""
    global _KERNELS_LOADED
    if not _KERNELS_LOADED:
        _KERNELS_LOADED = True
        Solver(max_nodes=1000).warm_up()


def solve(level, max_nodes=DEFAULT_MAX_NODES, time_limit=None):
    """Solve ``level`` push-optimally with A* over pushes.

    A state is the box set plus the player's region (normalised to its smallest cell);
    the heuristic is a min-cost matching of boxes to goals under precomputed push
    distances; dead squares and freeze deadlocks are pruned, where a PI-corral exists
    only its boxes are pushed, and on a symmetric board (mirrors, rotations) states are
    stored as one canonical image per symmetry class (all of this keeps push-optimality,
    so an exhausted search proves ``unsolvable``). ``max_nodes`` caps stored states and
    ``time_limit`` (seconds) the wall time; reaching either gives status ``limit``, never
    ``unsolvable``.

    The solution has the optimal number of pushes and replays move by move to the solved
    state; its walks between pushes are shortest walks, but the total *moves* may be
    suboptimal (another push-optimal solution may walk less). Uses a shared
    :class:`Solver` workspace; use your own :class:`Solver` per thread.

    >>> solve(Level.from_xsb('######\\n#@$ .#\\n######')).solution
    'RR'
    """
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = Solver()
    return _DEFAULT.solve(level, max_nodes=max_nodes, time_limit=time_limit)
