"""The backward search of the any-solution mode (:mod:`levelforge.engine.sokoban_backward`):
its work arrays, grown as it goes, the loop that runs it under a time limit, and the
solution read back from its pulls.

>>> from levelforge.sokoban import Level, replay
>>> level = Level.from_xsb('#######\\n#.$ @ #\\n#######')
>>> status, solution, nodes, expanded = backward_solve(level, 1000)
>>> status, replay(level, solution).is_solved
('solved', True)
"""
from __future__ import annotations

import numpy as np

from .. import memory
from ..cancel import Limit, copy_unless_halted, replace_unless_halted
from ..engine import sokoban_backward as _bk
from ..engine import sokoban_state as _s
from ..engine.grid import flood_fill
from .level import Level
from .optimizer import _Board
from .pairs import NONE, pull_pair_table
from .turns import drain, whole_steps

WEIGHT = 0
"""Priority of the backward search: greedy on ``h``, the matching to the start cells
(ties: more pulls first). Chosen over ``g + w h`` with small ``w`` in an ad-hoc trial on
the XSokoban levels the forward searches leave unsolved (no report: no figure)."""
_BUDGET = 256  # expansions of one kernel call (the time limit stops a call within it)
_FIRST = 1 << 14  # node slots first allocated (doubled as the search grows)
PAIRS = True
"""The greedy search drops states with a pair of boxes that pulls cannot bring back to
two start cells (:func:`levelforge.sokoban.pairs.pull_pair_table`); False: it keeps
them (for comparisons). The search over feature cells keeps them: there the pruned
states change which states its cells hold and expand, and on 2026-12-06 that cost more
levels than it gained (docs/figures/sokoban-solving-journal.md, "Pairs that pulls cannot bring
home"). Pruning never changes the greedy order of the states it keeps."""
_STATUS = {_s.SOLVED: "solved", _s.UNSOLVABLE: "exhausted", _s.LIMIT: "limit"}


def player_area(walls, width, player):
    """The cells the player reaches from ``player`` over the floor, boxes ignored (a
    boolean mask), as the solver walls in the rest."""
    n = walls.shape[0]
    queue = np.zeros(n, np.int32)
    reached = flood_fill(walls.copy(), np.int64(width), np.int64(player),
                         np.zeros(n, np.int64), np.int64(1), queue)
    inside = np.zeros(n, bool)
    inside[queue[:reached]] = True
    return inside


class _Arrays:
    """Node arrays, heap and table of one backward search, grown by doubling (``size``
    node slots, a power of two; the table twice that, so at most half full)."""

    def __init__(self, nbox, cells, size, feature_cells=False, porder=None):
        self.nbox = nbox
        self.porder = np.asarray(() if porder is None else porder, np.int32)
        self.feature_cells = feature_cells
        self.pool = np.zeros(size * nbox, np.int16)
        self.nplayer = np.zeros(size, np.int32)
        self.nparent = np.zeros(size, np.int32)
        self.ng = np.zeros(size, np.int32)
        self.nmove = np.zeros(size, np.int32)
        self.heap = np.zeros(size, np.int64)
        links = size if feature_cells else 0  # the cells' pairing heaps, node by node
        self.pkey = np.zeros(links, np.int64)
        self.pchild = np.zeros(links, np.int32)
        self.psib = np.zeros(links, np.int32)
        self.croot = np.zeros(_bk.REGION_CELLS * (nbox + 1) * (self.porder.shape[0] + 1) + 1,
                              np.int32)
        self.startm = np.zeros(cells, np.uint8)
        self.table = np.zeros(2 * size, np.int64)
        self.blk = np.zeros(cells, np.uint8)
        self.stamp = np.zeros(cells, np.int64)
        self.stamp2 = np.zeros(cells, np.int64)
        self.queue = np.zeros(cells, np.int32)
        self.queue2 = np.zeros(cells, np.int32)
        self.wbox = np.zeros(nbox, np.int16)
        self.cols = np.zeros(nbox, np.int64)
        self.hung = [np.zeros(nbox + 1, np.int64) for _ in range(6)]
        self.mw = np.zeros(5 * (nbox + 1), np.int64)  # the expanded state's matching
        memory.hold(self, self.held(size), force=True)

    def held(self, size):
        """Bytes of the growable arrays for ``size`` node slots (and the table's
        ``2 * size``)."""
        links = 16 if self.feature_cells else 0
        return size * (2 * self.nbox + 24 + links + 16)

    def grow(self, ctr, zob):
        """Double the node arrays, the heap and the table, keeping the search (the whole
        new table in use: ``ctr[C_SIZE]``). Returns RUNNING when it grew; HALTED when
        ``ctr[C_HALT]`` (a time limit or cancel token watching the search) is set before
        it is done (the copies and the rebuild take seconds at 10M states, and the
        halted search is abandoned anyway): every state is kept, some arrays may be
        larger, and ``nplayer`` and the table, whose sizes the kernel reads as its
        capacity, are as they were; LIMIT, with nothing changed, when the memory would
        not hold the larger arrays (:func:`levelforge.memory.hold`) or their allocation
        fails. Every new array is allocated before any is touched (a fresh array costs
        no memory until written), and each copy takes its old array's place at once,
        which frees it: at its peak a growth holds what the search held plus one
        array's copy and the new ``nplayer`` and table."""
        size = 2 * self.nplayer.shape[0]
        if not memory.hold(self, self.held(size)):
            return _s.LIMIT
        links = ("pkey", "pchild", "psib") if self.feature_cells else ()
        names = ("pool", "nparent", "ng", "nmove", "heap", *links, "nplayer")
        try:
            new = {name: np.zeros(size * (self.nbox if name == "pool" else 1),
                                  getattr(self, name).dtype) for name in names}
            table = np.zeros(2 * size, np.int64)
        except MemoryError:
            memory.give_back(self, self.held(size // 2), refused=True)
            return _s.LIMIT
        nplayer = new.pop("nplayer")  # copied last, and kept aside until the table is filled
        pool = new["pool"]
        if not (replace_unless_halted(self, new, {n: getattr(self, n).shape[0] for n in new},
                                      ctr, _s.C_HALT)
                and copy_unless_halted(nplayer, self.nplayer, self.nplayer.shape[0], ctr,
                                       _s.C_HALT)):
            # counted as grown once an array is: the guard errs on the safe side
            memory.give_back(self, self.held(size if self.pool is pool else size // 2))
            return _s.HALTED
        if not _bk.table_regrow(self.pool, nplayer, self.nbox, table, zob,
                                int(ctr[_s.C_NODES]), ctr):
            memory.give_back(self, self.held(size))
            return _s.HALTED
        self.nplayer = nplayer
        self.table = table
        ctr[_bk.C_SIZE] = table.shape[0]
        return _s.RUNNING

    def cells(self):
        """The feature cells' arguments of the kernels."""
        return (np.int64(self.feature_cells), self.startm, self.croot, self.pkey, self.pchild, self.psib)

    def nodes(self):
        return (self.pool, self.nplayer, self.nparent, self.ng, self.nmove, self.heap,
                self.table)


def warm_up() -> None:
    """Compile (or load from Numba's cache) the backward search's kernels, the table's
    growth and the forward side of its meetings included, so that no time-limited solve
    pays for them."""
    for cells in (False, True):
        backward_solve(Level.from_xsb("#####\n#@$.#\n#  ##\n#####"), 1000, cells=cells)
        a = _Arrays(1, 20, 4, cells)
        ctr = np.zeros(_s.N_COUNTERS, np.int64)
        ctr[_bk.C_SIZE] = 4
        ctr[_s.C_BOXES] = 1
        zob = np.zeros((2, 20), np.uint64)
        a.grow(ctr, zob)
    _bk.meet_scan(a.pool, a.nplayer, 0, 1, a.pool, a.nplayer, a.table, ctr, zob, a.wbox)


def backward_solve(level: Level, max_nodes: int, time_limit: float | None = None,
                   weight: int = WEIGHT, cells: bool = False, order=None,
                   optimal: bool = False, ctr=None) -> tuple:
    """Search ``level`` backwards with at most ``max_nodes`` stored states for at most
    ``time_limit`` seconds (see :func:`backward_search`; ``cells`` and ``order`` as in
    :func:`backward_steps`): ``(status, solution, nodes, expanded)`` with a LURD
    solution when ``status`` is ``solved``, else None. A box parked on its goal out of
    the player's reach is a wall; any other box or goal out of reach leaves nothing to
    search (``exhausted``). ``optimal``: the push-optimal search instead
    (:func:`optimal_steps`, its counters ``ctr`` when given: the bound it proved in
    ``ctr[C_BOUND]``)."""
    walls, goals, boxes, player = level.arrays()
    inside = player_area(walls, level.width, player)
    walls[~inside] = 1  # the outside the player never reaches
    if np.any((boxes == 1) & ~inside != (goals == 1) & ~inside):
        return "exhausted", None, 0, 0  # a box or goal out of reach, not paired
    args = (walls, np.flatnonzero(goals & inside).astype(np.int32),
            np.flatnonzero(boxes & inside).astype(np.int32), player, level.width, max_nodes,
            Limit(time_limit))
    if optimal:
        status, pushes, nodes, expanded = drain(optimal_steps(*args, ctr))
    else:
        status, pushes, nodes, expanded, _ = backward_search(*args, weight, cells=cells,
                                                             order=order)
    solution = None if pushes is None else _Board(level).moves(pushes)
    return status, solution, nodes, expanded


_NO_FORWARD = (np.zeros(0, np.int64), np.zeros(0, np.int16), np.zeros(0, np.int32), 0, 0)


def backward_search(walls, goal_cells, box_cells, player, width, max_nodes, limit,
                    weight=WEIGHT, zob=None, forward=None, cells=False, order=None):
    """:func:`backward_steps` run to its end (a ``forward`` tuple instead of a function
    returning it)."""
    return drain(backward_steps(walls, goal_cells, box_cells, player, width, max_nodes,
                                limit, weight, zob, forward and (lambda: forward), cells,
                                order))


def backward_steps(walls, goal_cells, box_cells, player, width, max_nodes, limit,
                   weight=WEIGHT, zob=None, forward=None, cells=False, order=None, root=None):
    """The backward search (:mod:`levelforge.engine.sokoban_backward`) on a prepared
    board (``walls`` closed around the player's area, the goal and box cells inside it,
    int32), with at most ``max_nodes`` stored states until ``limit`` (a
    :class:`levelforge.cancel.Limit`) stops it. Returns ``(status, pushes, nodes,
    expanded)``: ``solved`` with the pushes (``(box cell, direction)`` pairs from the
    start, directions 0..3 up, left, right, down), else ``limit``, ``cancelled`` or
    ``exhausted`` (every state it keeps was searched; not a proof: the any-solution
    mode goes on with its other searches) and None.

    A generator (see :mod:`levelforge.sokoban.turns`): it yields ``(nodes, expanded)``
    after each whole step of ``_BUDGET`` expansions
    (:func:`levelforge.sokoban.turns.whole_steps`) and returns the tuple below.

    ``forward``: a function returning the transposition table of a forward search on
    the same board, ``(table, pool, nplayer, generation, nodes)`` as the solver's
    workspace holds them (asked before each kernel call: the forward search may run in
    turn with this one and grow its arrays), or None before it has started; its states
    are keyed with ``zob`` (the workspace's Zobrist keys; random ones for None). The
    search then also stops where the two meet, and the pushes are those from the
    meeting state; its forward node is returned as a fifth value (-1 without a
    meeting). They meet both ways: a new backward state the forward search stored
    before (looked up in its table as it is stored), and a forward state stored since
    the last kernel call that this search stored before
    (:func:`levelforge.engine.sokoban_backward.meet_scan`, before each call).

    ``cells``: instead of greedy on ``h``, expand the *feature cells* in turn (as the
    feature-space search does forward), the state of least ``h`` in each: a state's
    cell is how many of its boxes stand on start cells and how many areas of free
    floor its boxes cut the board into, and, given the forward search's packing
    ``order`` (its goal cells and parking entries, first to fill first, as
    :func:`levelforge.sokoban.fess.packing_order` returns it), how long a prefix of
    that order its boxes still fill. The greedy order runs into a basin near the start
    (most boxes home, the last ones walled out); the cells keep every degree of
    progress and connectivity expanding, and the order's coordinate keeps expanding the
    states that pulled boxes out of the goals in the reverse of the forward search's
    order: the states it packs its way through, where the two searches meet."""
    nbox, n = box_cells.shape[0], walls.shape[0]
    if nbox == 0 or np.array_equal(box_cells, goal_cells):
        return "solved", [], 0, 0, -1
    status, a, ctr = yield from _pull_search(walls, goal_cells, box_cells, player, width,
                                             max_nodes, limit, weight, zob, forward, cells,
                                             order, root=root)
    outcome = _outcome(status, a, ctr, width, limit)
    return (*outcome, int(ctr[_bk.C_MEET]) if outcome[1] is not None else -1)


def optimal_steps(walls, goal_cells, box_cells, player, width, max_nodes, limit, ctr=None):
    """The push-optimal backward search: A* over pulls (weight 1, see
    :mod:`levelforge.engine.sokoban_backward`), on a board prepared as for
    :func:`backward_steps`, a generator as it is. Returns ``(status, pushes, nodes,
    expanded)``, the pushes a push-optimal solution when ``solved``; ``exhausted``
    proves nothing (a state the roots' regions miss is never searched). ``ctr``: the
    search's counters (``N_COUNTERS`` int64, zeroed here), for a caller that reads the
    bound it has proved as it goes: ``ctr[C_BOUND]`` pushes at least, whatever
    the search ends with."""
    if ctr is None:
        ctr = np.zeros(_s.N_COUNTERS, np.int64)
    ctr[:] = 0
    if box_cells.shape[0] == 0 or np.array_equal(box_cells, goal_cells):
        return "solved", [], 0, 0
    status, a, ctr = yield from _pull_search(walls, goal_cells, box_cells, player, width,
                                             max_nodes, limit, 1, None, None, False, None,
                                             ctr)
    return _outcome(status, a, ctr, width, limit)


def _outcome(status, a, ctr, width, limit):
    """``(status, pushes, nodes, expanded)`` of a search that ended with kernel status
    ``status``: the pushes, from the start, that undo the pulls to its goal node when
    it solved the level, else None."""
    nodes, expanded = int(ctr[_s.C_NODES]), int(ctr[_s.C_EXPANDED])
    if status == _s.HALTED:
        return limit.reason() or "limit", None, nodes, expanded
    if status != _s.SOLVED:
        return _STATUS[status], None, nodes, expanded
    return "solved", undone(a, int(ctr[_s.C_GOAL]), width), nodes, expanded


def undone(a, j, width):
    """The pushes, in order, that undo the pulls which led a backward search (arrays
    ``a``) to its stored state ``j``: from that state to the solved one."""
    steps = (-width, -1, 1, width)
    pushes = []
    while a.nparent[j] >= 0:  # each pull undone is a push, in order from state j
        b, d = divmod(int(a.nmove[j]), 4)
        pushes.append((b + steps[d], 3 - d))
        j = int(a.nparent[j])
    return pushes


def _pull_search(walls, goal_cells, box_cells, player, width, max_nodes, limit, weight, zob,
                 forward, cells, order, ctr=None, root=None):
    """The search of :func:`backward_steps` (its arguments; ``ctr`` its counters, new
    ones for None) as a generator returning ``(status code, node arrays, counters)``."""
    nbox, n = box_cells.shape[0], walls.shape[0]
    a = _Arrays(nbox, n, min(_FIRST, 1 << (max_nodes + 4 * nbox - 1).bit_length()), cells,
                order if cells else None)
    pdist = np.zeros((nbox, n), np.int32)
    _bk.pull_distances(walls, box_cells, np.int64(width), pdist, a.queue)
    alive = (pdist.min(axis=0) < _s.UNREACHABLE).astype(np.uint8)
    if zob is None:
        zob = np.random.default_rng(0).integers(1, 2**63, size=(2, n), dtype=np.uint64)
    if ctr is None:
        ctr = np.zeros(_s.N_COUNTERS, np.int64)
    ctr[_s.C_BOXES], ctr[_s.C_CAP], ctr[_s.C_WEIGHT] = nbox, max_nodes, weight
    ctr[_bk.C_ROOT] = 0 if root is None else root + 1
    a.startm[box_cells] = 1
    floor = np.flatnonzero(walls == 0).astype(np.int32)
    a.blk[:] = walls
    a.blk[box_cells] = 1
    ctr[_s.C_FILL] += 1
    start_norm = np.int64(_bk._region_min(a.blk, np.int64(width), np.int64(player), a.stamp,
                                          ctr[_s.C_FILL], a.queue))
    a.blk[box_cells] = 0
    with limit.watch(ctr, _s.C_HALT):
        pdb = pull_pair_table(walls, alive, box_cells, width, ctr) if PAIRS and not cells \
            else NONE
        status = _bk.backward_start(walls, goal_cells, np.int64(width), pdist, zob,
                                    *a.nodes(), ctr, a.blk, a.stamp, a.queue, a.wbox,
                                    a.cols, *a.hung, *a.cells(), floor, pdb, a.porder)

        scanned = 0  # the forward nodes looked up in this search's table so far

        def run(left):
            nonlocal scanned
            ftable, fpool, fplayer, ftepoch, fnodes = (forward and forward()) or _NO_FORWARD
            if fnodes > scanned:
                f, j = _bk.meet_scan(fpool, fplayer, scanned, fnodes, a.pool, a.nplayer,
                                     a.table, ctr, zob, a.wbox)
                scanned = fnodes
                if f >= 0:
                    ctr[_bk.C_MEET], ctr[_s.C_GOAL], ctr[_s.C_STATUS] = f, j, _s.SOLVED
                    return _s.SOLVED
            return _bk.backward_run(left, walls, start_norm, np.int64(width), pdist, alive,
                                    zob, ftable, fpool, fplayer, np.int64(ftepoch),
                                    *a.nodes(), ctr, a.blk, a.stamp, a.queue, a.stamp2,
                                    a.queue2, a.wbox, *a.hung, a.mw, *a.cells(), floor,
                                    pdb, a.porder)
        status = yield from whole_steps(status, _BUDGET, ctr, limit,
                                        lambda: a.grow(ctr, zob), run)
    return status, a, ctr
