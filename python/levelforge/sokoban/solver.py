"""The Sokoban solver: push-optimal A* over pushes (the default) or a faster search for
any solution (``optimal=False``), with a reusable workspace that grows with the search.

>>> from levelforge.sokoban import Level, solve
>>> result = solve(Level.from_xsb('''
... ######
... #@$ .#
... ######'''))
>>> result.status, result.pushes, result.solution, result.optimal
('solved', 2, 'RR', True)
"""
from __future__ import annotations

import functools

from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from ..engine import sokoban as _k
from ..engine import sokoban_board as _b
from ..engine import sokoban_state as _s
from ..engine.grid import flood_fill
from ..cancel import (CANCELLED, Cancel, Limit, check_time_limit,  # noqa: F401 (a status name)
                      copy_unless_halted, replace_unless_halted)
from ..errors import ConfigError
from .. import memory
from ..timing import ms_since, now_ns
from .level import Level
from .fess import FessWorkspace, fess_steps, pair_deadlocks
from .optimizer import WINDOW_NODES, _Board, shorten
from .packing import packing_plan, solve_any, whole_level_runs
from .replay import replay
from .turns import drain, take_turns, turn_steps, whole_steps
from . import pairs as _pairs

SOLVED = "solved"
UNSOLVABLE = "unsolvable"
LIMIT = "limit"
_STATUS = {_s.SOLVED: SOLVED, _s.UNSOLVABLE: UNSOLVABLE, _s.LIMIT: LIMIT}

MAX_BOXES = 128
"""Most boxes the solver accepts (the Hungarian heuristic is cubic in the box count)."""
MAX_PUSHES = _s.MAX_G - 1
"""Longest solution, in pushes, the solver can represent (the heap key packs 15 bits)."""
DEFAULT_MAX_NODES = 1_000_000
"""Default cap on stored search states; reaching it returns status ``limit``."""
MAX_NODES = 1 << _s._T_NODE_BITS
"""Largest accepted ``max_nodes`` (2**27: the node field of the search's heap keys and
table entries)."""
INCREMENTAL_FROM = 8
"""Boxes from which the best-first searches repair each child's matching from its
parent's instead of solving it from scratch. Measured (push-optimal kernel time, the
same states either way; docs/figures/sokoban-solving-journal.md): the repair costs 5-16% more
with 2 to 6 boxes (Boxoban's 4: 15%) and saves 3-15% with 8 (XSokoban 38: 15%), 12-44%
from 9 on."""
RESTART_AT = 1 << 21
"""Stored states after which an unsolved push-optimal search starts again in a second
way. The first search is plain A* (ties of ``f`` and ``g`` to the oldest node, and
from 8 boxes first to the state with fewer boxes off goals; every child stored); the
second, with the whole node cap and the time left, expands in part and gives ties to
the newest node (see :func:`levelforge.engine.sokoban.search_run`):
it stores a quarter to a half fewer states and searches the last ``f`` layer depth
first, which solves levels the first cannot (XSokoban 55) and is far slower on others
(XSokoban 4, Microban 153), so it comes second. 0: the second search only."""
INCUMBENT_SHARE = 0.25
"""Share of the time left that a push-optimal solve which reaches ``RESTART_AT`` stored
states spends, before its second search, on finding a solution with the any-solution
search and shortening it (``solve(optimal=False, optimize=True)``). The second search
then stores no state that cannot lead to a shorter solution, and that solution is proved
push-optimal as soon as the bound reaches its pushes (see :meth:`Solver._optimal`).
Without a time limit the phase is capped by nodes instead (``RESTART_AT``), so it stays
deterministic. 0: no such phase."""
PULLS_FROM = 1 << 16
"""Stored states of the first push-optimal search after which the push-optimal backward
search (A* over pulls, :func:`levelforge.sokoban.backward.optimal_steps`) takes turns
with it (``PULLS_LEAD``), up to ``RESTART_AT``. Some levels are far easier backwards:
on Microban 144, whose arms of boxes get in each other's way, both bounds start at 24;
the backward search proves the optimum, 36, within 25,000 stored states and solves the
level within 285,000, where the forward one needs about 9M. Below it the levels the
forward search solves at once (Boxoban) pay nothing. 0 or a value past
``RESTART_AT``: no backward search."""
PULLS_LEAD = 8
"""While the two searches take turns (:func:`levelforge.sokoban.turns.take_turns`), the
one whose proved bound is the larger (the forward one on a tie) gets ``PULLS_LEAD``
stored states per state of the other, doubled for each two pushes between the bounds:
to finish, A* must search every ``f`` layer below the optimum, and the search whose
bound trails has that many more layers to search, each larger than the last. On
Microban 144 the backward bound reaches the optimum, 36, within 25,000 stored states
(forwards 24 to 28 while the backward search solves it); on Microban 153 the forward
bound is the optimum, 336, and the backward one 186; on XSokoban the forward bound
leads by 6 to 12 pushes on the levels measured (5, 34, 43; 2026-12-07), so the
backward search gets 1/65 to 1/513 of the states there."""
_BUDGET = 512  # expansions of one kernel call (time limits stop a call within it)
_FIRST_NODES = 1 << 14  # node capacity a fresh workspace starts with; it doubles on demand
_BY_HALF_FROM = 1 << 23
"""Node capacity from which a search's arrays grow by half, not double: a copy of
hundreds of megabytes costs less than the memory a doubling would leave unused, and
the memory guard (:func:`levelforge.memory.hold`, which counts arrays whole) lets a
search go on longer on a machine short of memory. The table still doubles, every
other growth or so (it keeps at least twice the nodes' slots)."""
_NODE_ARRAYS = (("pool", np.int16), ("nparent", np.int32), ("ng", np.int32),
                ("nhash", np.uint64), ("nmove", np.int32), ("nplayer", np.int32))
"""The node arrays of a workspace, in the order a growth copies them (``nplayer`` last:
see :meth:`Workspace._resize`)."""


@dataclass(frozen=True)
class SolveResult:
    """The outcome of :func:`solve`.

    ``status`` is ``"solved"``, ``"unsolvable"`` (proved: the whole space was searched),
    ``"limit"`` (``max_nodes`` or ``time_limit`` was reached: unknown) or
    ``"cancelled"`` (the ``cancel`` token was set: unknown). ``pushes``,
    ``moves`` and ``solution`` (LURD: lower-case walks, upper-case pushes) are ``None``
    unless solved, with one exception: a push-optimal solve that outgrew
    ``solver.RESTART_AT`` states finds a solution to beat (``solver.INCUMBENT_SHARE``),
    and when it stops without proving that solution optimal or finding a shorter one it
    keeps it: status ``limit`` (or ``cancelled``), that solution, ``optimal`` False, and
    the optimum lies between ``lower_bound`` and ``pushes``. ``optimal`` is True when ``pushes`` is proved push-optimal (always
    for the default search; for ``solve(level, optimal=False)`` only when its last
    resort, A*, found the solution). ``nodes``
    counts stored states, ``expanded`` expanded ones, summed over the searches the solve
    ran (each capped at ``max_nodes``: a push-optimal solve that outgrows
    ``solver.RESTART_AT`` states starts again, so it may count up to that many more).
    ``lower_bound`` is proved: no solution has fewer pushes. It is ``pushes`` when they
    are proved optimal; for a push-optimal search stopped by ``max_nodes``,
    ``time_limit`` or ``cancel``, the least ``f = pushes + bound`` left on its open list
    when it stopped (at least the bound of the start: how far the search got); None
    otherwise (``unsolvable``, a search stopped before it began, or any solution not
    proved optimal: ``levelforge.sokoban.bound.push_lower_bound`` gives the start's).
    ``limit_by`` says, for ``limit``, which bound stopped the solve: ``"time"`` when its
    time limit had run out (its own time: kernel loading is left out), else
    ``"states"`` (``max_nodes``, the default 1,000,000 filling in seconds on hard
    levels), or ``"memory"`` when a search was refused room to grow because the
    machine's (or its container's) memory would not hold it
    (``levelforge.memory``: a search stops rather than being killed); None for any
    other status.

    >>> r = solve(Level.from_xsb('#####\\n#@$.#\\n#####'))
    >>> r.status, r.pushes, r.moves, r.solution, r.optimal
    ('solved', 1, 1, 'R', True)
    """

    status: str
    pushes: int | None
    moves: int | None
    solution: str | None
    nodes: int
    expanded: int
    elapsed_ms: float
    optimal: bool = True
    lower_bound: int | None = None
    limit_by: str | None = None

    def __post_init__(self):
        if self.status == SOLVED:  # derived: the pushes when proved optimal, else unknown
            object.__setattr__(self, "lower_bound", self.pushes if self.optimal else None)

    @property
    def solved(self) -> bool:
        """True when the status is ``solved`` (a stopped push-optimal solve may still
        carry the best solution it found: see the class)."""
        return self.status == SOLVED

    def to_dict(self) -> dict[str, Any]:
        """The result as a JSON-ready dict."""
        return {"status": self.status, "pushes": self.pushes, "moves": self.moves,
                "solution": self.solution, "optimal": self.optimal, "nodes": self.nodes,
                "expanded": self.expanded, "elapsed_ms": self.elapsed_ms,
                "lower_bound": self.lower_bound, "limit_by": self.limit_by}


def _pow2_at_least(n):
    return 1 << max(4, int(n - 1).bit_length())


def _zobrist_keys(cells: int) -> np.ndarray:
    """The Zobrist keys of a search on a board of ``cells`` cells (``[0]``: a box on the
    cell, ``[1]``: the player's region), drawn from a fixed seed: the same in any process.

    >>> bool((_zobrist_keys(12) == _zobrist_keys(12)).all())
    True
    """
    rng = np.random.default_rng(0x50C0BA)
    return rng.integers(0, 2**64 - 1, size=(2, cells), dtype=np.uint64, endpoint=True)


class Workspace:
    """Search arrays for ``cells`` cells and ``boxes`` boxes, allocated once and reused
    by every search. The node arrays, the heap and the transposition table start small
    and grow while a search needs them (:meth:`grow`), so a large ``max_nodes`` costs
    nothing up front, and a growth the memory would not hold is refused
    (:func:`levelforge.memory.hold`): the search stops with ``limit``.
    ``per_node``: bytes per stored state that a companion keeps beside these arrays
    (the feature-space search's links), counted with them."""

    def __init__(self):
        self.per_node = 0
        self.cells = self.boxes = self.nodes = self.keyed = 0
        self.zob = np.zeros((2, 0), np.uint64)
        self.ctr = np.zeros(_s.N_COUNTERS, np.int64)
        self.pool = np.zeros(0, np.int16)
        self.heap = np.zeros(0, np.int64)
        self.distbuf = np.zeros(0, np.int32)
        self.chain = np.zeros(_s.MAX_G + 1, np.int32)

    def ensure(self, cells, boxes, nodes):
        """Make room for searches on ``cells`` cells with ``boxes`` boxes and at least
        ``nodes`` stored states; keep the arrays that are big enough already. The hash
        keys are those of a board of ``cells`` cells (:func:`_zobrist_keys`), whatever
        the workspace served before, so that a search's node counts never depend on it."""
        if cells != self.keyed:
            self.keyed = cells
            self.zob = _zobrist_keys(cells)
        if cells > self.cells:
            self.cells = cells
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
            self.ctr[_s.C_FILL] = 0
            self.ctr[_s.C_FILL2] = 0
        if boxes > self.boxes:
            self.boxes = max(boxes, 4)
            self.wbox = np.zeros(self.boxes, np.int16)
            self.hung = [np.zeros(self.boxes + 1, np.int64) for _ in range(8)]
            self.mw = np.zeros(8 * (self.boxes + 1), np.int64)  # incremental matching
            self.nodes = 0  # the pool's stride changed: reallocate the node arrays
        if nodes > self.nodes:
            self._resize(nodes, 0, check=False)  # small (_FIRST_NODES): always made
        if self.heap.shape[0] < 2 * nodes + 16:
            self.heap = np.zeros(2 * nodes + 16, np.int64)
            self._record_held()
        if self.distbuf.shape[0] < 4 * self.boxes * self.cells:
            self.distbuf = np.zeros(4 * self.boxes * self.cells, np.int32)
        return self

    def held(self, nodes, heap):
        """Bytes of the growable arrays for ``nodes`` states and a heap of ``heap``
        entries: node arrays (and the companions' ``per_node``), table and heap."""
        return (nodes * (2 * self.boxes + 24 + self.per_node)
                + 8 * _pow2_at_least(2 * nodes) + 8 * heap)

    def _record_held(self, refused=False):
        """Record the bytes of the arrays held now (:func:`levelforge.memory.give_back`):
        after the first arrays are made, or a growth that did not happen (``refused``
        when its allocation failed)."""
        memory.give_back(self, self.held(self.nodes, self.heap.shape[0]), refused)

    def _resize(self, nodes, keep, check=True):
        """Node arrays for ``nodes`` states (the first ``keep`` copied) and a table of
        at least twice that many slots (the running search's states reinserted, unless
        the table already has that size: node numbers do not change, so it is kept).
        Returns RUNNING; LIMIT, the workspace unchanged, when ``check`` and the memory
        would not hold the new arrays (:func:`levelforge.memory.hold`) or their
        allocation fails; HALTED when ``ctr[C_HALT]`` (a time limit or cancel token
        watching the search) is set before the copy is done (it takes seconds at 10M
        states, and the halted search is abandoned anyway). A halted growth leaves
        every array at least as large as before with the same first ``keep`` entries,
        ``nplayer`` (whose length the kernels read as the capacity) no larger than the
        others, and a table of its new size that may miss states: no later search
        reads those, as each starts a new table generation.

        At its peak a growth holds what the search held before, plus one array's
        copied part (``pool``, the largest) and what the new table adds to the old:
        every new array is allocated before any is touched (a fresh array costs no
        memory until written), then each is copied and takes its old one's place at
        once, which frees it, and the old table is dropped before the new one is
        filled."""
        if not memory.hold(self, self.held(nodes, self.heap.shape[0]), force=not check):
            return _s.LIMIT
        slots = _pow2_at_least(2 * nodes)
        rebuild = not keep or self.table.shape[0] != slots
        try:
            new = {name: np.zeros(nodes * (self.boxes if name == "pool" else 1), dtype)
                   for name, dtype in _NODE_ARRAYS}
            table = np.zeros(slots, np.int64) if rebuild else self.table
        except MemoryError:
            if not check:
                raise
            self._record_held(refused=True)
            return _s.LIMIT
        if keep:
            nbox = int(self.ctr[_s.C_BOXES])
            counts = {name: keep * (nbox if name == "pool" else 1) for name in new}
            # in _NODE_ARRAYS' order: nplayer, the kernels' capacity, last
            if not replace_unless_halted(self, new, counts, self.ctr, _s.C_HALT):
                # counted as grown (some arrays may be): the guard errs on the safe side
                memory.give_back(self, self.held(nodes, self.heap.shape[0]))
                return _s.HALTED
            self.nodes = nodes
            if rebuild:
                self.table = table  # the old table is freed before the new one is filled
                if not _k.table_rebuild(table, self.ctr, self.nhash, self.nplayer,
                                        self.zob):
                    self._record_held()
                    return _s.HALTED
        else:
            self.ctr[_s.C_TEPOCH] = 0
            for name, arr in new.items():
                setattr(self, name, arr)
            self.nodes = nodes
            self.table = table
        return _s.RUNNING

    def grow(self, cap, room=None):
        """Grow what the running search outgrew (status ``GROW``): the node arrays
        double, or grow by half from :data:`_BY_HALF_FROM` states, never past what a
        search capped at ``cap`` states can use; the search then goes on unchanged.
        ``room``: the most nodes one expansion adds (default: one per push). Returns
        RUNNING when it grew; HALTED when ``ctr[C_HALT]`` stopped it, LIMIT when the
        memory would not hold the larger arrays (see :meth:`_resize`): either way the
        search must stop."""
        if room is None:
            room = 4 * int(self.ctr[_s.C_BOXES]) + 1
        used = int(self.ctr[_s.C_NODES])
        if used + room > self.nodes or 2 * (used + room) > self.table.shape[0]:
            more = self.nodes if self.nodes < _BY_HALF_FROM else self.nodes // 2
            status = self._resize(max(min(self.nodes + more, cap + room), used + room), used)
            if status != _s.RUNNING:
                return status
        if int(self.ctr[_s.C_HEAP]) + room > self.heap.shape[0]:
            size = 2 * self.heap.shape[0] + room
            if not memory.hold(self, self.held(self.nodes, size)):
                return _s.LIMIT
            try:
                heap = np.zeros(size, np.int64)
            except MemoryError:
                self._record_held(refused=True)
                return _s.LIMIT
            if not copy_unless_halted(heap, self.heap, self.heap.shape[0], self.ctr,
                                      _s.C_HALT):
                self._record_held()
                return _s.HALTED
            self.heap = heap
        return _s.RUNNING

    def search_arrays(self):
        """The arrays of the search kernels, in their argument order (after ``zob``)."""
        return (self.pool, self.nplayer, self.nparent, self.ng, self.nhash, self.nmove,
                self.heap, self.table, self.ctr, self.occ, self.blk,
                self.stamp, self.queue, self.stamp2, self.queue2, self.tmp, self.wbox,
                *self.hung, self.compof)


# the isometries of a grid: (x, y) -> (a*x + b*y + c, d*x + e*y + f) with c, f from the size;
# the first four keep the shape, the last four swap width and height (square boards only)
_ISOMETRIES = ((1, 0, 0, 1), (-1, 0, 0, 1), (1, 0, 0, -1), (-1, 0, 0, -1),
               (0, 1, 1, 0), (0, -1, 1, 0), (0, 1, -1, 0), (0, -1, -1, 0))
_STEPS = ((0, -1), (-1, 0), (1, 0), (0, 1))  # directions u, l, r, d


def tunnel_cells(walls, goals, width, comp):
    """The cells where a box is pushed straight on (uint8 per cell, 1 on such a cell):
    floor cells off the goals with walls on two opposite sides and floor on the other
    two, ``a`` and ``b``, that cut ``a`` from ``b`` (walls alone considered). ``comp``
    holds the side components of :func:`levelforge.engine.sokoban_board.push_distances`
    (``comp[4 * c + k]``: the first side of a box on ``c`` that side ``k`` joins, with
    only that box blocking), so the cut test is a lookup.

    A box on such a cell ``t``, the player on ``a``'s side, can only move along the
    tunnel, and only away from the player: the player reaches ``b``'s side through ``t``
    alone, whatever the other boxes do, and no box crosses from one side to the other
    while ``t`` is held. The box is off its goal, so any solution pushes it, first
    ``t -> b``; the pushes before that one touch ``a``'s side only, and moving it to the
    front keeps them legal (one more free cell on ``a``'s side, none lost on ``b``'s)
    and ends in the same state with the same pushes. So a search may push the box on at
    once (:func:`levelforge.engine.sokoban._tunnel`, a macro that loses no solution and
    keeps push-optimality), and when ``b`` holds a box or a dead square the state is a
    deadlock.

    >>> rows = ["#######", "#     #", "#     #", "### ###", "#     #", "#     #", "#######"]
    >>> w = np.array([ch == "#" for r in rows for ch in r], np.uint8)
    >>> comp = np.full(4 * w.shape[0], -1, np.int32)
    >>> comp[4 * 24:4 * 25] = [0, -1, -1, 3]  # a box on 24 cuts its top side from its bottom
    >>> np.flatnonzero(tunnel_cells(w, np.zeros_like(w), 7, comp)).tolist()
    [24]
    """
    n = walls.shape[0]
    side = comp[:4 * n].reshape(n, 4)
    c = np.arange(width, n - width)
    floor = walls == 0
    up, down, left, right = c - width, c + width, c - 1, c + 1
    vertical = (walls[left] == 1) & (walls[right] == 1) & floor[up] & floor[down] \
        & (side[c, 0] != side[c, 3])
    across = (walls[up] == 1) & (walls[down] == 1) & floor[left] & floor[right] \
        & (side[c, 1] != side[c, 2])
    tun = np.zeros(n, np.uint8)
    tun[c] = floor[c] & (goals[c] == 0) & (vertical | across)
    return tun


@functools.lru_cache(maxsize=64)
def _isometries(width, height):
    """The cell permutations and direction maps of the grid's isometries (those that
    keep a ``width`` x ``height`` grid in place: all eight on a square one), the
    identity first; computed once per shape (every solve asks for them)."""
    n = width * height
    x = np.arange(n) % width
    y = np.arange(n) // width
    out = []
    for a, b, d, e in _ISOMETRIES:
        if b != 0 and width != height:
            continue
        nx = a * x + b * y
        ny = d * x + e * y
        nx -= nx.min()
        ny -= ny.min()
        perm = ny * width + nx
        perm.flags.writeable = False  # shared by every solve on this shape
        out.append((perm, [_STEPS.index((a * sx + b * sy, d * sx + e * sy))
                           for sx, sy in _STEPS]))
    return tuple(out)


def board_symmetries(walls, goals, width, height):
    """The symmetries of a board (isometries of the grid that map walls to walls and
    goals to goals) as the kernels' table: one row per symmetry (the identity first),
    holding the cell permutation, the direction map, the composition row (entry ``j``:
    this symmetry after symmetry ``j``) and the index of the inverse. Returns None
    when the board has no other symmetry (the kernels then skip that code).

    >>> w = np.array([1, 1, 1, 1, 0, 1, 1, 1, 1], np.uint8)
    >>> board_symmetries(w, np.zeros(9, np.uint8), 3, 3).shape
    (8, 22)
    """
    n = width * height
    perms, dirs = [], []
    for perm, dmap in _isometries(width, height):
        if np.array_equal(walls[perm], walls) and np.array_equal(goals[perm], goals):
            perms.append(perm)
            dirs.append(dmap)
    k = len(perms)
    if k == 1:
        return None
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
    epoch = ws.ctr[_s.C_FILL2] + 1
    ws.ctr[_s.C_FILL2] = epoch
    n = flood_fill(blocked, width, player, ws.stamp2, epoch, ws.queue2)
    inside = np.zeros(walls.shape[0], bool)
    inside[ws.queue2[:n]] = True
    return inside


class Solver:
    """A solver that keeps its work arrays between solves.

    Limits: at most :data:`~levelforge.sokoban.solver.MAX_BOXES` boxes, levels up to ``MAX_SIDE`` x ``MAX_SIDE``
    (the :class:`Level` limit), solutions up to :data:`~levelforge.sokoban.solver.MAX_PUSHES` pushes; larger
    inputs raise :class:`~levelforge.ConfigError`. Not thread-safe: use one per thread.

    >>> solver = Solver(max_nodes=100_000)
    >>> solver.solve(Level.from_xsb('#####\\n#@$.#\\n#####')).pushes
    1
    """

    def __init__(self, max_nodes: int = DEFAULT_MAX_NODES) -> None:
        self.max_nodes = _check_nodes(max_nodes)
        self.workspace = Workspace()
        self._fess_ws = None  # the feature-space search's arrays, made on its first use
        self._turn_ws = None  # the weighted A* of the any mode's turns: its own workspace
        self._stages = True  # optimal=False starts with the packing stages
        # children's matchings repaired from the parent's (mw): None from INCREMENTAL_FROM
        # boxes on, True or False always or never (the tests and benchmarks compare them)
        self._incremental = None
        self._pair_board = None  # pairs.pair_database's arguments in push-optimal solves
        self._pdb = None  # the pair database built in this solve (pairs.pairs_due)
        self._target = None  # a solution window's target player cell (levelforge.sokoban.optimize)
        self._tun = None  # the board's tunnel cells (tunnel_cells)
        self._level = None  # the level an any-solution solve runs on (its moves are read on it)
        self._forward_done = False  # the feature-space search ran: its table is there to meet
        self._paused = 0  # ns of this solve spent loading kernels (not the call's time)
        self._child = None  # the waypoint search's solver (made on its first use)

    def warm_up(self) -> Solver:
        """Compile (or load from the cache) the kernels by solving a tiny level, and
        the table rebuild a search that outgrows its arrays calls."""
        self.solve(Level.from_xsb(_PLAIN))
        spare = Workspace().ensure(16, 1, 4)
        spare.ctr[_s.C_NODES] = 4
        spare.ctr[_s.C_TEPOCH] = 1  # a running search's generation (empty slots hold 0)
        spare.grow(1000)
        return self

    def solve(self, level: Level, max_nodes: int | None = None,
              time_limit: float | None = None, optimal: bool = True,
              cancel: Cancel | None = None, optimize: bool = False) -> SolveResult:
        """Solve ``level``; see :func:`solve`."""
        refused = memory.refusals()
        result = self._solve(level, max_nodes, time_limit, optimal, cancel, optimize)
        if result.status != LIMIT:
            return result
        if time_limit is not None and result.elapsed_ms >= 1000 * time_limit:
            return replace(result, limit_by="time")
        return replace(result, limit_by="memory" if memory.refusals() > refused else "states")

    def _solve(self, level, max_nodes, time_limit, optimal, cancel, optimize):
        _load_kernels()  # once per process, outside the timing and the time limit
        start = now_ns()
        if not isinstance(level, Level):
            raise ConfigError(f"solve() takes a sokoban Level, not {type(level).__name__}")
        cap = self.max_nodes if max_nodes is None else _check_nodes(max_nodes)
        limit = Limit(time_limit, cancel, start)
        if not isinstance(optimal, (bool, np.bool_)):
            raise ConfigError(f"optimal must be True or False, got {optimal!r}")
        if not isinstance(optimize, (bool, np.bool_)):
            raise ConfigError(f"optimize must be True or False, got {optimize!r}")
        if len(level.boxes) > MAX_BOXES:
            raise ConfigError(f"the solver handles at most {MAX_BOXES} boxes; "
                              f"the level has {len(level.boxes)}")
        optimal = bool(optimal)
        prepared = self._prepare(level, cap, limit, optimal)
        if isinstance(prepared, str):  # nothing to search: decided, or stopped
            if prepared == SOLVED:
                return SolveResult(SOLVED, 0, 0, "", 1, 0, ms_since(start), True)
            return SolveResult(prepared, None, None, None, 0, 0, ms_since(start), optimal)
        board, box_cells, player, symtab = prepared
        start += self._paused  # loading kernels is not the call's time
        self._paused = 0
        ws = self.workspace
        if optimal:
            found = self._optimal(level, board, box_cells, player, cap, symtab, limit)
            start += self._paused  # loading the any-solution kernels is not the call's
        else:
            found = solve_any(self._search, self._fess_steps, self._backward_steps,
                              self._weighted_steps, ws.ctr, board, box_cells, player, cap,
                              limit, symtab, self._stages, self._waypoint_steps)
        status, solution, nodes, expanded, proved = found
        bound = int(ws.ctr[_s.C_BOUND]) if optimal and status != UNSOLVABLE else 0
        if solution is None:
            return SolveResult(status, None, None, None, nodes, expanded, ms_since(start),
                               optimal, bound or None)  # 0: no state popped
        pushes = sum(ch.isupper() for ch in solution)
        if status != SOLVED:  # stopped with the incumbent of _optimal: kept, not proved
            return SolveResult(status, pushes, len(solution), solution, nodes, expanded,
                               ms_since(start), False, bound or None)
        # A* proves the push count; so does a solved start
        result = SolveResult(SOLVED, pushes, len(solution), solution, nodes, expanded,
                             ms_since(start), proved or pushes == 0)
        if optimize and not result.optimal:
            result = self._optimize(level, result, limit, start)
        return result

    def _prepare(self, level, cap, limit, optimal):
        """Set this solver up to search ``level`` (``cap`` stored states, ``limit`` a
        :class:`Limit`): the prepared ``(board, box_cells, player, symtab)``, or a status
        when there is nothing to search (``solved``: no box the player reaches is off its
        goal; ``unsolvable``: a box or goal out of the player's reach, unpaired) or the
        limit stopped the preparation. Kernels loaded on the way add their time to
        ``self._paused``."""
        walls, goals, boxes, player = level.arrays()
        width = level.width
        ws = self.workspace.ensure(walls.shape[0], len(level.boxes), min(cap, _FIRST_NODES))
        inside = _player_area(walls, width, player, ws)
        walls[~inside] = 1
        # boxes and goals the player can never reach: a box parked on its goal is a
        # wall; any other is a proof of unsolvability
        sealed_box = (boxes == 1) & ~inside
        sealed_goal = (goals == 1) & ~inside
        if np.any(sealed_box != sealed_goal):
            return UNSOLVABLE
        goals[sealed_goal] = 0
        boxes[sealed_box] = 0
        box_cells = np.flatnonzero(boxes).astype(np.int32)
        goal_cells = np.flatnonzero(goals).astype(np.int32)
        nbox = box_cells.shape[0]
        if nbox == 0:
            return SOLVED
        n = walls.shape[0]
        dist = ws.distbuf[:4 * nbox * n].reshape(nbox, 4 * n)  # C-contiguous, no copy
        dead = ws.dead[:n]
        with limit.watch(ws.ctr, _s.C_HALT):  # 0.1 s on a 64x64 board: stopped too
            _b.push_distances(walls, goal_cells, width, dist, dead, ws.sides, ws.lab,
                              ws.compof, ws.ctr)
        if limit.reason() is not None:
            return limit.reason()
        self._tun = tunnel_cells(walls, goals, width, ws.sides)  # push_distances' comp
        board = (walls, goals, dead, dist, ws.zob, width)
        symtab = None if self._target is not None else board_symmetries(walls, goals, width,
                                                                         level.height)
        self._paused = 0
        if symtab is not None and not _SYMMETRIC_LOADED:  # outside the timing too
            self._paused += _untimed(_load_symmetric_kernels, limit)
        if not optimal and not _ANY_LOADED:  # the same for the any-solution searches
            self._paused += _untimed(_load_any_kernels, limit)
        ws.ctr[_s.C_STAGE] = 0
        self._pair_board = (walls, dead, goal_cells, width, nbox, dist, ws.compof) \
            if optimal else None
        ws.ctr[_s.C_TARGET] = 0 if self._target is None else self._target + 1
        self._pdb = None
        ws.ctr[_s.C_BOUND] = 0  # raised by the push-optimal searches of this solve
        ws.ctr[_s.C_UPPER] = 0  # set by _optimal when it has an incumbent solution
        self._level = level  # the searches over pulls read their solutions back on it
        self._forward_done = False  # the feature-space search's table is not there yet
        return board, box_cells, player, symtab

    def _optimize(self, level, found, limit, start):
        """Shorten the solution of ``found`` until ``limit`` (a :class:`Limit`) stops it
        (without a deadline: until no window of it improves); the result counts the
        solve's and the optimiser's nodes."""
        left = None if limit.deadline is None else (limit.deadline - now_ns()) / 1e9
        if (left is not None and left <= 0) or limit.reason() is not None:
            return found
        best, nodes, expanded, optimal = shorten(level, found.solution,
                                                 Solver(max_nodes=WINDOW_NODES), left,
                                                 limit.cancel)
        return SolveResult(SOLVED, sum(ch.isupper() for ch in best), len(best), best,
                           found.nodes + nodes, found.expanded + expanded, ms_since(start),
                           optimal)

    def _optimal(self, level, board, box_cells, player, cap, symtab, limit):
        """The push-optimal search (``solver.RESTART_AT``): plain A* up to that many stored
        states, then, unless it ended otherwise, a solution to beat (:meth:`_incumbent`)
        and a partial expansion A* from the start with the whole cap. As
        :meth:`_search`, its nodes the sum of all, and True (a solution returned is
        push-optimal); ``ctr[C_BOUND]``, which neither search resets, ends with the
        larger of their proved bounds.

        With an incumbent of ``U`` pushes the second search stores no state whose ``f``
        is ``U`` or more (``ctr[C_UPPER]``): no solution through it is shorter. When its
        least key reaches ``U`` every state that could lead to a shorter solution has
        been searched, so the incumbent is push-optimal: the proof is the same bound
        argument as ``lower_bound``'s (see :func:`levelforge.engine.sokoban.search_run`),
        and the solve returns it as solved and optimal."""
        nodes = expanded = 0
        best = None
        ctr = self.workspace.ctr
        if RESTART_AT > 0:
            refused = memory.refusals()
            status, solution, nodes, expanded = self._first_search(
                board, box_cells, player, min(cap, RESTART_AT), symtab, limit)
            if status != LIMIT or cap <= RESTART_AT or limit.reason() is not None \
                    or memory.refusals() > refused:  # no room for more searches
                return status, solution, nodes, expanded, True
            best = self._incumbent(level, cap, limit)
        if best is not None:
            nodes += best.nodes
            expanded += best.expanded
            if best.optimal or best.pushes <= ctr[_s.C_BOUND]:  # proved already
                ctr[_s.C_BOUND] = best.pushes
                return SOLVED, best.solution, nodes, expanded, True
        kept = None if best is None else best.solution
        if limit.reason() is not None:
            return limit.reason(), kept, nodes, expanded, True
        ctr[_s.C_UPPER] = 0 if best is None else best.pushes
        status, solution, n, e = self._search(board, box_cells, player, cap, 1, None, symtab,
                                              limit, partial=True)
        if best is not None and status == UNSOLVABLE:  # nothing shorter: the incumbent
            ctr[_s.C_BOUND] = best.pushes
            status, solution = SOLVED, best.solution
        elif status != SOLVED:
            solution = kept  # stopped: the best solution known goes back with its status
        return status, solution, nodes + n, expanded + e, True

    def _first_search(self, board, box_cells, player, cap, symtab, limit):
        """The first push-optimal search (plain A*, :meth:`_search`'s result), joined
        after ``PULLS_FROM`` stored states by the push-optimal backward search
        (:meth:`_pull_steps`, with half its cap) in turns (``PULLS_LEAD``) until one
        solves the level (push-optimally) or the forward one ends; ``ctr[C_BOUND]``
        ends with the larger of their proved bounds. Not for a solve toward a target
        state (the backward search starts from the goals)."""
        steps = self._search_steps(board, box_cells, player, cap, 1, None, symtab, limit)
        if self._target is not None or not 0 < PULLS_FROM < cap:
            return drain(steps)
        try:
            while next(steps)[0] < PULLS_FROM:
                pass
        except StopIteration as done:
            return done.value
        if not _PULLS_LOADED:  # outside the timing and the time limit, as in solve
            self._paused += _untimed(_load_pull_kernels, limit)
        mine, pulled = self.workspace.ctr, np.zeros(_s.N_COUNTERS, np.int64)
        pulls = self._pull_steps(board, box_cells, player, max(cap // 2, 1), limit, pulled)

        def share(forward):  # a search's weight in the turns (PULLS_LEAD)
            ahead = mine[_s.C_BOUND] >= pulled[_s.C_BOUND]
            gap = abs(int(mine[_s.C_BOUND]) - int(pulled[_s.C_BOUND]))
            return max(PULLS_LEAD, 1) << min(gap // 2, 24) if ahead == forward else 1
        return take_turns([(steps, lambda: share(True)), (pulls, lambda: share(False))],
                          limit, main=0)

    def _pull_steps(self, board, box_cells, player, cap, limit, ctr):
        """The push-optimal backward search (:func:`levelforge.sokoban.backward.optimal_steps`)
        on a prepared ``board`` as a generator like :meth:`_fess_steps`, with at most
        ``cap`` stored states and the counters ``ctr``; the bound it proves raises the
        solve's ``ctr[C_BOUND]`` however it ends (closed in its turns included), to the
        pushes when it solves."""
        from .backward import optimal_steps  # as in _backward_steps
        walls, goals, width = board[0], board[1], board[5]
        mine = self.workspace.ctr
        try:
            status, pushes, nodes, expanded = yield from optimal_steps(
                walls, np.flatnonzero(goals).astype(np.int32), box_cells, player, width,
                cap, limit, ctr)
        finally:
            mine[_s.C_BOUND] = max(mine[_s.C_BOUND], ctr[_s.C_BOUND])
        if pushes is None:
            return status, None, nodes, expanded
        mine[_s.C_BOUND] = len(pushes)
        return SOLVED, _Board(self._level).moves(pushes), nodes, expanded

    def _incumbent(self, level, cap, limit):
        """A solution of ``level`` to beat (``solver.INCUMBENT_SHARE``): the
        any-solution search's, shortened, as a :class:`SolveResult`, or None (none found
        in the time or nodes given, or the phase is off)."""
        if INCUMBENT_SHARE <= 0 or self._target is not None:
            return None  # (solution windows never get here: their cap is below RESTART_AT)
        if not _ANY_LOADED:  # outside the timing and the time limit, as in solve
            self._paused += _untimed(_load_any_kernels, limit)
        if limit.deadline is None:
            share, cap = None, min(cap, RESTART_AT)  # capped by nodes: deterministic
        else:
            share = (limit.deadline - now_ns()) / 1e9 * INCUMBENT_SHARE
            if share <= 0:  # the clock ran out since the first search stopped
                return None
        found = Solver(max_nodes=cap).solve(level, time_limit=share, optimal=False,
                                            cancel=limit.cancel, optimize=True)
        return found if found.solved else None

    def _search(self, board, box_cells, player, cap, weight, plan, symtab, limit,
                partial=False):
        """One search from ``box_cells`` and ``player`` on a prepared ``board``: its
        status (``limit`` or ``cancelled`` also when ``limit``, a :class:`Limit`, says
        so), its LURD solution or None, and the stored and expanded node counts.
        ``partial``: a push-optimal search's partial expansion (``solver.RESTART_AT``)."""
        return drain(self._search_steps(board, box_cells, player, cap, weight, plan, symtab,
                                        limit, partial))

    def _search_steps(self, board, box_cells, player, cap, weight, plan, symtab, limit,
                      partial=False):
        """:meth:`_search` as a generator (:mod:`levelforge.sokoban.turns`): it yields
        ``(nodes, expanded)`` after each kernel call that leaves the search running."""
        ws = self.workspace
        walls, width = board[0], board[5]
        pdb = self._pdb  # built by an earlier search of this solve, or at AFTER expansions
        # pushes go on through tunnels, but not in a packing stage (its goal is some
        # goals filled: a box may stay in a tunnel) nor on symmetric boards (images)
        tun = self._tun if int(ws.ctr[_s.C_STAGE]) == 0 and symtab is None else None
        room = None if tun is None else _k.tunnel_room(int(box_cells.shape[0]), walls.shape[0])
        mw = self._matching_work(ws, box_cells.shape[0])
        ws.ctr[_s.C_PARTIAL] = partial
        ws.ctr[_s.C_CHECKED] = 0
        with limit.watch(ws.ctr, _s.C_HALT):  # the kernel stops before a push
            if pdb is None:  # AFTER = 0: at once (its build stops when the limit halts)
                pdb = _pairs.pairs_due(_pairs.NONE, 0, self._pair_board, ws.ctr)
            status = _k.search_start(box_cells, box_cells.shape[0], player, cap, weight,
                                     *board, *ws.search_arrays(), plan, symtab, pdb)
            while status == _s.RUNNING or status == _s.GROW:
                if limit.reason() is not None:
                    status = _s.HALTED
                    break
                if status == _s.GROW:
                    grown = ws.grow(cap, room)
                    if grown != _s.RUNNING:  # halted while it grew, or no memory for it
                        status = grown
                        break
                done = int(ws.ctr[_s.C_EXPANDED])
                due = _pairs.pairs_due(pdb, done, self._pair_board, ws.ctr)
                if due is not pdb:  # the states stored so far: checked whole when popped
                    ws.ctr[_s.C_CHECKED] = ws.ctr[_s.C_NODES]
                    pdb = due
                budget = _BUDGET
                if pdb is _pairs.NONE and self._pair_board is not None:
                    # the database comes in after exactly AFTER expansions, wherever a
                    # GROW (which depends on the workspace's history) ended a call
                    budget = min(_BUDGET, _pairs.AFTER - done)
                status = _k.search_run(budget, *board, *ws.search_arrays(), plan, symtab,
                                       pdb, mw, tun)
                if status == _s.RUNNING:
                    yield int(ws.ctr[_s.C_NODES]), int(ws.ctr[_s.C_EXPANDED])
        if pdb is not _pairs.NONE:
            self._pdb = pdb  # the second push-optimal search starts with it
        nodes = int(ws.ctr[_s.C_NODES])
        expanded = int(ws.ctr[_s.C_EXPANDED])
        if status != _s.SOLVED:
            return _status(status, limit), None, nodes, expanded
        return SOLVED, self._solution(walls, width, symtab), nodes, expanded

    def _matching_work(self, ws, nbox):
        """The incremental matching's work array of ``ws`` for a best-first search of
        ``nbox`` boxes (``INCREMENTAL_FROM``), or an empty one (each matching solved
        anew)."""
        incremental = self._incremental
        if incremental is None:
            incremental = nbox >= INCREMENTAL_FROM
        return ws.mw if incremental else ws.mw[:0]

    def _fess_steps(self, board, box_cells, player, cap, limit):
        """The feature-space search from ``box_cells`` and ``player`` on a prepared
        ``board``, as a generator (:mod:`levelforge.sokoban.turns`) returning its status,
        LURD solution or None, and node counts (as :meth:`_search`)."""
        if self._fess_ws is None:
            self._fess_ws = FessWorkspace(self.workspace)
        self._forward_done = True  # from its first step, its table can be met
        status, nodes, expanded = yield from fess_steps(
            self.workspace, self._fess_ws, board, box_cells, player, cap, limit, self._tun)
        if status != _s.SOLVED:
            return _status(status, limit), None, nodes, expanded
        return SOLVED, self._solution(board[0], board[5]), nodes, expanded

    def _weighted_steps(self, board, box_cells, player, cap, limit, weight, plan):
        """Weighted A* over the whole level (``weight``, the packing ``plan``'s penalty: as
        :meth:`_search` in the any mode) as a generator like :meth:`_fess_steps`, on a
        workspace of its own (the feature-space search keeps the solver's), so that it
        can take turns with the other searches. Children with a pair of boxes that has
        no two-box solution are pruned (:func:`levelforge.sokoban.fess.pair_deadlocks`,
        built on its first step); the matching stays its heuristic."""
        walls, width = board[0], board[5]
        n, nbox = walls.shape[0], box_cells.shape[0]
        if self._turn_ws is None:
            self._turn_ws = Workspace()
        ws = self._turn_ws.ensure(n, nbox, min(cap, _FIRST_NODES))
        ws.compof = self.workspace.compof  # the board's side components (read only)
        for c in (_s.C_STAGE, _s.C_BOUND, _s.C_UPPER, _s.C_PARTIAL):
            ws.ctr[c] = 0
        ws.ctr[_s.C_TARGET] = self.workspace.ctr[_s.C_TARGET]
        room = _k.tunnel_room(nbox, n)
        mw = self._matching_work(ws, nbox)

        with limit.watch(ws.ctr, _s.C_HALT):  # the kernel stops before a push
            pdb = pair_deadlocks(board, nbox, ws.ctr)  # children with a dead pair pruned

            def run(left):
                return _k.search_run(left, *board, *ws.search_arrays(), plan, None, pdb, mw,
                                     self._tun)
            if limit.reason() is not None:  # the database is unfinished: no search yet
                return _status(_s.HALTED, limit), None, 0, 0
            status = _k.search_start(box_cells, nbox, player, cap, weight, *board,
                                     *ws.search_arrays(), plan, None, pdb)
            status = yield from whole_steps(status, _BUDGET, ws.ctr, limit,
                                            lambda: ws.grow(cap, room), run)
        nodes, expanded = int(ws.ctr[_s.C_NODES]), int(ws.ctr[_s.C_EXPANDED])
        if status != _s.SOLVED:
            return _status(status, limit), None, nodes, expanded
        return SOLVED, self._solution(walls, width, ws=ws), nodes, expanded

    def _waypoint_steps(self, board, box_cells, player, cap, limit):
        """The waypoint search (:mod:`levelforge.sokoban.waypoint`) as a generator like
        :meth:`_fess_steps`; its forward searches run on a solver of their own."""
        from .waypoint import waypoint_steps  # as in _backward_steps: only in the any mode
        if self._child is None:
            self._child = Solver(self.max_nodes)
        return (yield from waypoint_steps(self._child, self._level, board, box_cells, player,
                                          cap, limit))

    def _any_steps(self, level, cap, limit, target=None):
        """The any mode's four whole-level searches on ``level`` in turn
        (:func:`levelforge.sokoban.packing.whole_level_runs`; no packing stages, no
        waypoint search) as one generator like :meth:`_fess_steps`: a waypoint search's
        way forwards. ``target``: the normalised player cell (the smallest of its area)
        a solution must end in the area of (every search keeps to it), or None."""
        self._target = target
        try:
            prepared = self._prepare(level, cap, limit, False)
            if isinstance(prepared, str):
                return prepared, "" if prepared == SOLVED else None, 0, 0
            board, box_cells, player, _ = prepared
            plan = packing_plan(board[0], board[1], board[5])
            runs = whole_level_runs(self._fess_steps, self._backward_steps,
                                    self._weighted_steps, board, box_cells, player, cap,
                                    limit, plan)
            return (yield from turn_steps(runs, limit))
        finally:
            self._target = None

    def _forward_order(self, cells):
        """The packing order of this solve's feature-space search, for the backward search
        over cells (``cells``) to key its cells by; None for the greedy one, and before
        that search has computed it (its first step does, before any other search's)."""
        if not cells or not self._forward_done or self._fess_ws is None:
            return None
        return self._fess_ws.order

    def _backward_steps(self, board, box_cells, player, cap, limit, cells=False):
        """The backward search (:mod:`levelforge.sokoban.backward`; ``cells``: over
        feature cells) on a prepared ``board``, as a generator like :meth:`_fess_steps`.
        Once the feature-space search has started, it also stops where it meets one of
        that search's stored states."""
        from .backward import backward_steps  # only here: a solve that never searches
        # for any solution does not even import its kernels (nor the farthest-state
        # search's, whose table and region helpers it shares)
        walls, goals, width = board[0], board[1], board[5]
        ws = self.workspace

        def forward():  # the feature-space search's table, as it is now
            if not self._forward_done:
                return None
            return (ws.table, ws.pool, ws.nplayer, int(ws.ctr[_s.C_TEPOCH]),
                    int(ws.ctr[_s.C_NODES]))
        status, pushes, nodes, expanded, meet = yield from backward_steps(
            walls, np.flatnonzero(goals).astype(np.int32), box_cells, player, width, cap, limit,
            zob=ws.zob, forward=forward, cells=cells, order=self._forward_order(cells),
            root=self._target)
        if pushes is None:
            return status, None, nodes, expanded
        board_ = _Board(self._level)
        if meet >= 0:  # the forward search's path to the meeting state comes first
            ws.ctr[_s.C_GOAL] = meet
            pushes = board_.pushes(self._solution(walls, width)) + pushes
        return SOLVED, board_.moves(pushes), nodes, expanded

    def _solution(self, walls, width, symtab=None, ws=None):
        """The LURD solution of the solved search in ``ws`` (default: the solver's
        workspace)."""
        ws = self.workspace if ws is None else ws
        pushes = int(ws.ng[ws.ctr[_s.C_GOAL]])
        if ws.chain.shape[0] <= pushes:
            ws.chain = np.zeros(pushes + 1, np.int32)
        out = np.empty(pushes * (walls.shape[0] + 1) + 1, np.uint8)
        length = _k.reconstruct(walls, width, ws.pool, ws.nparent, ws.nmove, ws.ctr,
                                ws.occ, ws.stamp2, ws.queue2, ws.prev, ws.chain, out, symtab)
        return out[:length].tobytes().decode("ascii")


def _status(code, limit):
    """The status name of a kernel status; a halted search says why it stopped."""
    if code == _s.HALTED:
        return limit.reason() or LIMIT
    return _STATUS[code]


def _check_nodes(max_nodes):
    if isinstance(max_nodes, bool) or not isinstance(max_nodes, (int, np.integer)) \
            or not 1 <= max_nodes <= MAX_NODES:
        raise ConfigError(f"max_nodes must be an integer in [1, {MAX_NODES}], got {max_nodes!r}")
    return int(max_nodes)


_DEFAULT = None


_KERNELS_LOADED = False


_SYMMETRIC_LOADED = False
_ANY_LOADED = False
_PULLS_LOADED = False
_PLAIN = "#####\n#@$.#\n#  ##\n#####"  # no symmetry
_SYMMETRIC = "#####\n#@$.#\n#####"  # a mirror (top and bottom rows)
_CAPPED = "#######\n#     #\n#@$ $ #\n#  .. #\n#######"  # past 2 states: every search runs


def _load_kernels():
    """Compile (cold cache) or load the solver kernels once per process, so that no
    solve's ``elapsed_ms`` or ``time_limit`` pays for it."""
    global _KERNELS_LOADED
    if not _KERNELS_LOADED:
        _KERNELS_LOADED = True
        Solver(max_nodes=1000).warm_up()


def _untimed(load, limit):
    """Run ``load`` (a kernel loader) with ``limit``'s deadline moved past it; the
    nanoseconds it took, which the caller takes off its timing too."""
    t = now_ns()
    load()
    t = now_ns() - t
    limit.shift(t)
    return t


def _load_any_kernels():
    """The same for the specialisation of the searches for any solution (with a goal
    order), on the first ``optimal=False`` solve."""
    global _ANY_LOADED
    _ANY_LOADED = True
    solver = Solver(max_nodes=1000)
    solver.solve(Level.from_xsb(_PLAIN), optimal=False)  # the packing stages solve it
    solver._stages = False
    solver.solve(Level.from_xsb(_PLAIN), optimal=False)  # the feature-space search
    # every search to its cap, weighted A* and A* (with the tunnel cells) at the end
    Solver(max_nodes=2).solve(Level.from_xsb(_CAPPED), optimal=False)
    from ..engine.sokoban_fess import expansion_room
    expansion_room(1, 16)  # called from Python when the feature-space search grows
    _load_pull_kernels()  # and the backward search
    from .waypoint import warm_up
    warm_up()  # and the waypoint search's choice


def _load_pull_kernels():
    """The same for the backward search (both modes: one kernel), on the first
    push-optimal solve that runs it (:data:`PULLS_FROM`) or the first for any solution."""
    global _PULLS_LOADED
    _PULLS_LOADED = True
    from .backward import warm_up  # (imported here: see Solver._backward_steps)
    warm_up()


def _load_symmetric_kernels():
    """The same for the kernels' symmetry specialisation, on the first symmetric board
    (most boards have none, so most processes never compile it)."""
    global _SYMMETRIC_LOADED
    _SYMMETRIC_LOADED = True
    Solver(max_nodes=1000).solve(Level.from_xsb(_SYMMETRIC))


def solve(level: Level, max_nodes: int = DEFAULT_MAX_NODES, time_limit: float | None = None,
          optimal: bool = True, cancel: Cancel | None = None,
          optimize: bool = False) -> SolveResult:
    """Solve ``level``: push-optimally with A* over pushes (the default), or with
    ``optimal=False`` by a faster best-first search for any solution.

    A state is the box set plus the player's region (normalised to its smallest cell);
    the heuristic is a min-cost matching of boxes to goals under precomputed push
    distances (each child's repaired from its parent's); dead squares and freeze deadlocks are pruned, where a PI-corral exists
    only its boxes are pushed, and on a symmetric board (mirrors, rotations) states are
    stored as one canonical image per symmetry class (all of this keeps push-optimality,
    so an exhausted search proves ``unsolvable``). A search that outgrows
    ``solver.RESTART_AT`` stored states starts again from the first state, expanding in
    part with newest-first ties (it solves levels plain A* does not, and is slower on
    others); before it, a share of the time left (``solver.INCUMBENT_SHARE``) finds a
    solution to beat with the search for any solution and shortens it: the second search
    then stores only states that can lead to a shorter one, proves that solution
    push-optimal when its bound reaches it, and if stopped returns it with status
    ``limit`` and ``optimal=False`` (the optimum lies between ``lower_bound`` and its
    pushes). ``max_nodes`` caps each search's stored states and
    ``time_limit`` (seconds, default None: no limit) the wall time; reaching either gives
    status ``limit``, never ``unsolvable``.

    The time limit holds on every board the solver accepts: the kernels look at a flag
    a watchdog thread sets at the deadline before each push they try (one heuristic
    evaluation: up to 50 ms on a 64x64 board with 128 boxes, far less on smaller ones)
    and in the board analysis before the search, so the call returns within the limit
    plus 10 % or 50 ms.
    ``cancel`` (a :class:`~levelforge.Cancel`) stops the call the same
    way from another thread or process: the status is then ``cancelled``. Results that
    end without a limit or a cancel are the same with or without them.

    The solution has the optimal number of pushes and replays move by move to the solved
    state; its walks between pushes are shortest walks, but the total *moves* may be
    suboptimal (another push-optimal solution may walk less).

    With ``optimal=False`` the same states, heuristic and pruning serve a search for any
    solution (``levelforge.sokoban.packing``): goals filled one at a time in a
    planned packing order, then a feature-space search (``levelforge.sokoban.fess``),
    two backward searches over pulls and weighted A* taking turns over the whole level
    (``levelforge.sokoban.turns``; each may store ``max_nodes`` states), then (only
    when all four stop at their caps) A*. The
    solution replays to solved; it is marked ``optimal=False`` (its push count is an
    upper bound) unless A* found it. ``unsolvable`` is still a proof. With
    ``optimize=True`` the time left (all of it without a ``time_limit``: until no window
    improves) goes to :func:`levelforge.sokoban.optimize`, which shortens the solution
    by push-optimal re-solving of its windows (a solution proved push-optimal is kept as
    it is). Uses a shared
    :class:`Solver` workspace; use your own :class:`Solver` per thread.

    >>> solve(Level.from_xsb('######\\n#@$ .#\\n######')).solution
    'RR'
    >>> r = solve(Level.from_xsb('######\\n#@$ .#\\n######'), optimal=False)
    >>> r.solution, r.optimal
    ('RR', False)
    """
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = Solver()
    return _DEFAULT.solve(level, max_nodes=max_nodes, time_limit=time_limit,
                          optimal=optimal, cancel=cancel, optimize=optimize)


def optimize(level: Level, solution: str, time_limit: float | None = None,
             max_nodes: int = WINDOW_NODES, cancel: Cancel | None = None) -> SolveResult:
    """A solution of ``level`` at most as long as ``solution`` (pushes, then moves), by
    push-optimal re-solving of its windows (the module ``levelforge.sokoban.optimizer``).
    ``time_limit`` (seconds) bounds the work; None runs every pass (each window capped
    at ``max_nodes`` states); a ``cancel`` token stops it too (the best solution so far
    is returned either way). The result's ``optimal`` is True when the push count is
    proved optimal (the window over the whole solution was searched to the end);
    ``nodes`` and ``expanded`` add up the windows' searches.

    >>> from levelforge.sokoban import Level
    >>> optimize(Level.from_xsb('#####\\n#@$.#\\n#####'), 'R').pushes
    1
    """
    start = now_ns()
    if not isinstance(level, Level):
        raise ConfigError(f"optimize() takes a sokoban Level, not {type(level).__name__}")
    time_limit = check_time_limit(time_limit)
    if not replay(level, solution).is_solved:  # raises InvalidMoveError on a bad move
        raise ConfigError("the moves do not solve the level: nothing to optimise")
    best, nodes, expanded, optimal = shorten(level, solution, Solver(max_nodes=max_nodes),
                                             time_limit, cancel)
    return SolveResult(SOLVED, sum(ch.isupper() for ch in best), len(best), best, nodes,
                       expanded, ms_since(start), optimal)
