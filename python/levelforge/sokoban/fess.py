"""The feature-space search for any solution (:mod:`levelforge.engine.sokoban_fess`):
its work arrays, grown with the solver's node arrays, and the loop that runs it.
"""
import numpy as np

from .. import memory
from ..engine import sokoban_corral as _c
from ..engine import sokoban_state as _s
from ..engine import sokoban_fess as _f
from ..engine import sokoban_fess_cells as _fc
from ..engine import sokoban_fess_features as _ff
from ..engine import sokoban_fess_macro as _fm
from ..engine import sokoban_fess_opener as _fo
from ..engine import sokoban_packing as _p
from ..engine import sokoban_fess_residual as _r
from ..engine import sokoban_window as _w
from .packing import goal_depth
from .pairs import pair_database
from .turns import drain, whole_steps

_BUDGET = 256  # expansions of one kernel call (time limits stop a call within it)
CORRAL_NODES = 64
"""Node cap of each corral-deadlock search (:mod:`levelforge.engine.sokoban_corral`)."""
CORRAL_BOXES = 8
"""Most boxes of a corral searched for a deadlock."""
CORRAL_CACHE = 1 << 14
"""Entries of the cache of corral verdicts."""
PAIRS = True
"""Prune the children whose moved box and another box have no two-box solution (the
push-optimal search's pair database, :mod:`levelforge.sokoban.pairs`); False for
comparisons."""
NO_PAIRS = np.zeros(1, np.int32)
"""The ``pdb`` of a search without pair deadlocks."""


class FessWorkspace:
    """The feature-space search's arrays beside a solver :class:`Workspace` ``ws``:
    per-node weights and pairing-heap links (resized with ``ws``'s node arrays), the
    cell table, and per-cell work arrays."""

    def __init__(self, ws):
        self.ws = ws
        ws.per_node = 20  # nw, pkey, pchild, psib: held as the node arrays grow
        self.nodes = 0
        self.order = None  # the packing order of the search under way, once computed
        self.cells = 0
        self.fctr = np.zeros(_s.N_FCOUNTERS, np.int64)
        self.ckey = np.full(_fc.CELL_SLOTS, -1, np.int64)
        self.cidx = np.zeros(_fc.CELL_SLOTS, np.int32)
        self.croot = np.zeros(_fc.CELL_SLOTS // 2 + 1, np.int32)
        self.cpool = np.zeros(CORRAL_NODES * CORRAL_BOXES, np.int16)
        self.cplayer = np.zeros(CORRAL_NODES, np.int32)
        self.ctable = np.zeros(4 * CORRAL_NODES, np.int64)
        self.cctr = np.zeros(_c.N_CCOUNTERS, np.int64)
        self.dkey = np.zeros(CORRAL_CACHE, np.int64)
        self.dnorm = np.full(CORRAL_CACHE, -1, np.int32)
        self.dbox = np.zeros(CORRAL_CACHE * CORRAL_BOXES, np.int16)
        self.dres = np.zeros(CORRAL_CACHE, np.int16)
        self.wcache = np.full(_w.WCACHE, -1, np.int64)
        self.wwork = np.zeros(_w.WWORK, np.int64)

    def sync(self):
        """Match the node arrays of ``ws`` (keeping the running search's nodes) and
        its cell count."""
        ws = self.ws
        if ws.cells > self.cells:
            self.cells = ws.cells
            self.stamp3 = np.zeros(ws.cells, np.int64)
            self.mseen = np.zeros(4 * ws.cells, np.int64)
            self.mnext = np.zeros(4 * ws.cells, np.int32)
            self.mqueue = np.zeros(4 * ws.cells, np.int32)
            # see _macro_route: the path, then the barred pushes and boxes
            self.path = np.zeros(4 * ws.cells + 1 + _fm.MACRO_TRIES + _fm.MACRO_BOXES, np.int32)
            self.bqueue = np.zeros(4 * ws.cells, np.int64)
            self.reach = np.zeros(4 * ws.cells, np.int64)
            self.cblk = np.zeros(ws.cells, np.uint8)
            self.cocc = np.zeros(ws.cells, np.uint8)
            self.cstamp = np.zeros(ws.cells, np.int64)
            self.cstamp2 = np.zeros(ws.cells, np.int64)
            self.cqueue = np.zeros(ws.cells, np.int32)
            self.ow = np.zeros(_fo.OW_PER_CELL * ws.cells, np.int64)
            self.cctr[_c.CC_FILL] = self.cctr[_c.CC_FILL2] = 0
        if ws.boxes + 1 > getattr(self, "kids", np.zeros(0)).shape[0] // (4 * _ff.K_FIELDS):
            self.kids = np.zeros(_ff.K_FIELDS * 4 * (ws.boxes + 1), np.int64)
        if ws.nodes != self.nodes:
            keep = min(self.nodes, int(ws.ctr[_s.C_NODES]), ws.nodes)
            for name, dtype in (("nw", np.int32), ("pkey", np.int64), ("pchild", np.int32),
                                ("psib", np.int32)):
                old = getattr(self, name, None)
                new = np.zeros(ws.nodes, dtype)
                if keep and old is not None:
                    new[:keep] = old[:keep]
                setattr(self, name, new)  # the old array is freed before the next copy
            self.nodes = ws.nodes

    def corral_arrays(self, walls):
        """The corral-deadlock search's work arrays for a new board (``cblk`` set to
        ``walls``, the cache emptied; the window deadlocks' cache ``wcache`` emptied too)."""
        self.cblk[:walls.shape[0]] = walls
        self.dnorm[:] = -1
        self.wcache[:] = -1
        return (self.cblk, self.cocc, self.cstamp, self.cstamp2, self.cqueue, self.cpool,
                self.cplayer, self.ctable, self.cctr, self.dkey, self.dnorm, self.dbox,
                self.dres)

    def arrays(self):
        """The kernels' arguments after the shared workspace's, in their order."""
        return (self.nw, self.pkey, self.pchild, self.psib, self.ckey, self.cidx, self.croot,
                self.fctr, self.stamp3)


def room_links(walls, width):
    """The rooms of a board and which of them passages join, for the room-connectivity
    feature: ``(link, room, pa, pb)`` (int32). Room cells are the floor cells of an open
    2x2 square, rooms their connected areas, numbered in order of their first cells; the
    other floor cells are passages, listed in ``link``. ``room[c]`` is the room of cell
    ``c`` (-1 on a passage, -2 on a wall). Rooms ``pa[p] < pb[p]`` are the pairs that a
    connected run of passages touches both of.

    >>> rows = ["#######", "#  #  #", "#     #", "#  #  #", "#######"]
    >>> w = np.array([ch == "#" for r in rows for ch in r], np.uint8)
    >>> link, room, pa, pb = room_links(w, 7)
    >>> link.tolist(), pa.tolist(), pb.tolist()
    ([17], [0], [1])
    """
    n = walls.shape[0]
    steps = (-width, -1, 1, width)
    grid = walls.reshape(-1, width) == 0
    square = grid[:-1, :-1] & grid[1:, :-1] & grid[:-1, 1:] & grid[1:, 1:]  # by top-left
    open_cell = np.zeros_like(grid)
    for dy in (0, 1):
        for dx in (0, 1):
            open_cell[dy:dy + square.shape[0], dx:dx + square.shape[1]] |= square
    open_cell = open_cell.ravel()
    passage = (walls == 0) & ~open_cell
    queue = np.zeros(n, np.int32)
    room = np.zeros(n, np.int64)
    _ff.label_areas((~open_cell).astype(np.uint8), width, room, queue)
    room = room.astype(np.int32)
    room[passage] = -1
    room[walls != 0] = -2
    runs = np.zeros(n, np.int64)
    nruns = _ff.label_areas((~passage).astype(np.uint8), width, runs, queue)
    touch = [set() for _ in range(nruns)]
    link = np.flatnonzero(passage).astype(np.int32)
    for c in link:
        for s in steps:
            if room[c + s] >= 0:
                touch[runs[c]].add(int(room[c + s]))
    pairs = sorted({(a, b) for rs in touch for a in rs for b in rs if a < b})
    pa = np.array([a for a, _ in pairs], np.int32)
    pb = np.array([b for _, b in pairs], np.int32)
    return link, room, pa, pb


def pair_deadlocks(board, nbox, ctr=None):
    """The pair database (:func:`levelforge.sokoban.pairs.pair_database`) of a prepared
    ``board`` (the solver's ``(walls, goals, dead, dist, zob, width)``) with ``nbox``
    boxes, for the search's pair deadlocks (see
    :func:`levelforge.engine.sokoban_pairs.pair_dead`); :data:`NO_PAIRS` (the test off)
    with fewer than two boxes, on boards too large for it, with :data:`PAIRS` off, or
    when ``ctr[C_HALT]`` (a time limit watching the search's counters) stops the build."""
    if not PAIRS:
        return NO_PAIRS
    walls, goals, dead, dist, width = board[0], board[1], board[2], board[3], board[5]
    n = walls.shape[0]
    pdb = pair_database(walls, dead[:n], np.flatnonzero(goals).astype(np.int32), int(width),
                        nbox, dist, ctr=ctr)
    return NO_PAIRS if pdb is None else pdb


def fess_plan(board, order, ws):
    """The per-level arrays of the features (``plan`` of the kernels): room links
    (:func:`room_links`) and the out-of-plan areas
    (:func:`levelforge.engine.sokoban_fess_features.out_of_plan_areas`, one row of
    cells per goal of ``order``)."""
    walls, width = board[0], board[5]
    n = walls.shape[0]
    link, room, pa, pb = room_links(walls, width)
    inarea = np.zeros(max(order.shape[0], 1) * n, np.int32)
    _ff.out_of_plan_areas(walls, order_cells(order), width, ws.blk, np.zeros(n, np.int64),
                          ws.queue2, inarea)
    return link, room, pa, pb, inarea


def packing_order(board, ws, fws, box_cells):
    """The packing order for boxes starting on ``box_cells``, first to fill first: the
    goal cells in the order of :func:`levelforge.engine.sokoban_packing.packing_order`,
    after a parking entry for each goal that it fills from a pocket (one that a lone
    box from the start can reach) (:func:`levelforge.engine.sokoban_packing.parking`): such a
    box must be parked there before the goals filled ahead of that goal close the
    pocket's way in. A parking entry counts as filled while its pocket or its goal
    holds a box."""
    walls, goals, width = board[0], board[1], board[5]
    goal_cells = np.flatnonzero(goals).astype(np.int32)
    order = np.zeros(goal_cells.shape[0], np.int32)
    pocket = np.full(goal_cells.shape[0], -1, np.int32)
    _p.packing_order(walls, goals, goal_cells, np.asarray(box_cells, np.int32), width, order,
                     pocket, ws.blk, ws.stamp2, ws.ctr, ws.queue2, fws.mseen, fws.fctr,
                     fws.bqueue, goal_depth(walls, goals, width), fws.reach, fws.mqueue)
    park = [-((int(pocket[i]) << 16 | int(order[i])) + 1) for i in range(order.shape[0])
            if pocket[i] >= 0]
    if not park or walls.shape[0] > 0xFFFF:
        return order
    return np.array(park + order.tolist(), np.int32)


def order_cells(order):
    """The cell each entry of a packing order fills (a parking entry's pocket)."""
    return np.where(order >= 0, order, (-order.astype(np.int64) - 1) >> 16).astype(np.int32)


def residual_arrays(board, order, ws):
    """The residual test's tables and work arrays for a level and its packing order
    (see :func:`levelforge.engine.sokoban_fess_residual.residual_stuck`); empty tables,
    the test off, when they would pass ``BASIN_BYTES``."""
    walls, goals = board[0], board[1]
    n = walls.shape[0]
    goal_cells = np.flatnonzero(goals).astype(np.int32)
    ng = goal_cells.shape[0]
    k = order.shape[0] + 1
    size = k * ng * 4 * n
    gidx = np.full(n, -1, np.int32)
    gidx[goal_cells] = np.arange(ng, dtype=np.int32)
    opos = np.full(ng, order.shape[0], np.int32)
    for i, v in enumerate(order.tolist()):
        if v >= 0:
            opos[gidx[v]] = i
    kept = size <= _r.BASIN_BYTES
    return (np.zeros(size if kept else 0, np.uint8), np.zeros(k * ng, np.int8),
            goal_cells, gidx, opos, np.zeros(ng, np.int32), np.zeros(max(ng, 1), np.int32),
            np.zeros(ng, np.int64), np.zeros(ng, np.int32), np.zeros(max(ng, 1), np.int32),
            np.zeros(n, np.uint8), np.zeros(n, np.int64), np.zeros(n, np.int32),
            np.zeros(4 * n, np.int32), np.zeros(k * 4 * n if kept else 0, np.uint8),
            np.zeros(k, np.uint8), np.zeros(_r.N_RCOUNTERS, np.int64))


def fess_search(ws, fws, board, box_cells, player, cap, limit, tun):
    """Run the feature-space search: ``(status, nodes, expanded)`` with the kernels'
    status codes (HALTED when ``limit``, a :class:`levelforge.cancel.Limit`, stopped it);
    the solved state is the workspace's goal node. ``tun``: the board's tunnel cells
    (:func:`levelforge.sokoban.solver.tunnel_cells`). The board's pair database
    (:func:`pair_deadlocks`, built first) prunes the children with a dead pair."""
    return drain(fess_steps(ws, fws, board, box_cells, player, cap, limit, tun))


def fess_steps(ws, fws, board, box_cells, player, cap, limit, tun):
    """:func:`fess_search` as a generator (see :mod:`levelforge.sokoban.turns`): it
    yields ``(nodes, expanded)`` after each whole step of ``_BUDGET`` expansions
    (:func:`levelforge.sokoban.turns.whole_steps`) and returns what :func:`fess_search`
    returns. Suspended, it keeps its arrays in ``ws`` and ``fws``; nothing else may use
    them until it ends or is closed."""
    walls = board[0]
    fws.sync()
    floor = np.flatnonzero(walls == 0).astype(np.int32)
    a = ws.search_arrays()
    corral = fws.corral_arrays(walls)
    with limit.watch(ws.ctr, _s.C_HALT):  # the kernels stop before an expansion
        order = packing_order(board, ws, fws, box_cells)
        fws.order = order  # the backward search over cells keys its cells by it too
        pdb = pair_deadlocks(board, box_cells.shape[0], ws.ctr)
        if limit.reason() is not None:  # the order or the database is unfinished
            return _s.HALTED, 0, 0
        plan = fess_plan(board, order, ws)
        res = residual_arrays(board, order, ws)
        rpar = np.zeros(max(int(plan[1].max()) + 1, 1), np.int32)
        status = _f.fess_start(box_cells, box_cells.shape[0], player, cap, *board, *a[:6],
                               ws.table, ws.ctr, *a[9:], *fws.arrays(), order, floor, plan,
                               rpar, pdb)

        def grow():
            status = ws.grow(cap, _f.expansion_room(box_cells.shape[0], walls.shape[0]))
            if status == _s.RUNNING:
                try:
                    fws.sync()
                except MemoryError:  # the links' allocation failed: a limit, as in grow
                    memory.give_back(ws, memory.held_by(ws), refused=True)
                    return _s.LIMIT
            return status

        def run(left):
            a = ws.search_arrays()
            return _f.fess_run(left, *board, *a[:6], ws.table, ws.ctr, *a[9:], *fws.arrays(),
                               order, floor, fws.mseen, fws.mnext, fws.mqueue, fws.path,
                               ws.mw, *corral, plan, rpar, fws.kids, fws.wcache, fws.wwork,
                               tun, res, pdb, fws.ow)
        status = yield from whole_steps(status, _BUDGET, ws.ctr, limit, grow, run)
    return status, int(ws.ctr[_s.C_NODES]), int(ws.ctr[_s.C_EXPANDED])
