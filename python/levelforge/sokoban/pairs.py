"""The box-pair pattern database of the push-optimal search, built per level at solve
start (see :mod:`levelforge.engine.sokoban_pairs` for the table, the bound and the proof
that it keeps push-optimality).

>>> from levelforge.sokoban import collections
>>> from levelforge.sokoban.bound import push_lower_bound
>>> level = collections.load("microban")[19]  # 16 pushes at best
>>> push_lower_bound(level, pairs=False), push_lower_bound(level)
(4, 16)
"""
from __future__ import annotations

import numpy as np
import numpy.typing as npt

from ..engine import sokoban_pairs as _p
from ..engine import sokoban_state as _s
from ..engine import sokoban_triples as _t

AFTER = 5_000
"""Expansions of a push-optimal search before it builds the database (a few ms on a
Boxoban board; the many levels solved sooner never pay for it). Switching bounds
mid-search keeps push-optimality: A* reopens states and both bounds are admissible."""
NONE = np.zeros(0, np.int32)
"""The ``pdb`` of a search without the database (its bound is then the matching)."""
TRIPLE_STATES = 24_000_000
"""Largest three-box deadlock table built with a pair database (three live cells times
floor cells: one bit each, and a 4-byte queue slot each while it is built); larger
boards go without it. 0 turns the table off (for comparisons)."""
PENALTY_WORK = 150_000_000
"""Most states the penalties' searches (goal pairs times table states) may cover; a
board beyond it keeps the pair table without penalties."""
MOST_STATES = 4_000_000
"""Largest pair table built (live cells squared times floor cells); larger boards go
without it (the matching alone). 0 turns the database off (for comparisons)."""


def pairs_due(pdb: npt.NDArray[np.int32], expanded: int, board: tuple | None,
              ctr: npt.NDArray[np.int64] | None = None) -> npt.NDArray[np.int32]:
    """The ``pdb`` a search goes on with: ``pdb`` itself unless it is :data:`NONE`, the
    search has expanded :data:`AFTER` states and ``board`` (the arguments of
    :func:`pair_database` up to ``dist``, then ``compof``; None for no database) is
    given; then the database with its penalties and its three-box deadlock table, or a
    one-slot array (off) when the board is too large or the search's counters ``ctr``
    (watched by its time limit) said halt while it was built.

    >>> pairs_due(NONE, 0, None) is NONE
    True
    """
    if pdb is not NONE or board is None or expanded < AFTER:
        return pdb
    walls, dead, goal_cells, width, boxes, dist, compof = board
    built = pair_database(walls, dead, goal_cells, width, boxes, dist, ctr=ctr, triples=True,
                          compof=compof)
    return np.zeros(1, np.int32) if built is None else built


def pair_database(walls: npt.NDArray[np.uint8], dead: npt.NDArray[np.uint8],
                  goal_cells: npt.NDArray[np.int32], width: int, boxes: int,
                  dist: npt.NDArray | None, most: int | None = None,
                  ctr: npt.NDArray[np.int64] | None = None,
                  triples: bool = False,
                  compof: npt.NDArray[np.int8] | None = None,
                  pushes: bool = False) -> npt.NDArray[np.int32] | None:
    """The ``pdb`` array of :func:`levelforge.engine.sokoban_pairs.pair_bound` for a
    board (``walls`` with the unreachable outside walled in, ``dead`` squares, goal
    cells, ``boxes`` boxes, the search's push distances ``dist``, one row per goal),
    or None with fewer than two boxes, more than ``most`` table states (default
    :data:`MOST_STATES`), or when ``ctr`` (a search's counters, watched by a time limit)
    says halt before the table is built. With ``triples`` and at least three boxes the
    array ends with the three-box deadlock table
    (:mod:`levelforge.engine.sokoban_triples`) when it has at most
    :data:`TRIPLE_STATES` states: the push-optimal searches take it, whose children are
    pruned by it; the feature-space search goes without (measured: it cost the any
    mode's 10 s figure on XSokoban time and solved nothing more). With ``compof`` (the
    board's side components, as the matching reads them) each entry also holds the
    pair's penalty over the matching in its high bits
    (:func:`levelforge.engine.sokoban_pairs.penalty_fold`; one search of pulls per goal
    pair, when those searches cover at most :data:`PENALTY_WORK` states in all).

    With ``pushes`` the table is the backward search's (:func:`pull_pair_table`):
    ``goal_cells`` are then the start cells, ``dead`` the cells no pull brings a box
    from to a start cell, and ``dist`` may be None (its column of least distances is
    left at 0: the backward search takes no bound from the table).

    >>> from levelforge.sokoban import Level
    >>> walls, goals, _, _ = Level.from_xsb('#####\\n#@$.#\\n#####').arrays()
    >>> cells = np.flatnonzero(goals).astype(np.int32)
    >>> pair_database(walls, walls * 0, cells, 5, 1, np.zeros((1, 60), np.int32)) is None
    True
    """
    most = MOST_STATES if most is None else most
    n = walls.shape[0]
    floor = np.flatnonzero(walls == 0).astype(np.int32)
    live = np.flatnonzero((walls == 0) & (dead == 0)).astype(np.int32)
    nl, nf = live.shape[0], floor.shape[0]
    if boxes < 2 or nl * nl * nf > most:
        return None
    words = _t.triple_words(nl, nf)
    triples = triples and boxes >= 3 and nl * (nl - 1) * (nl - 2) // 6 * nf <= TRIPLE_STATES
    pairs_end = _p.pair_table_size(nl, nf, n, boxes)
    pdb = np.zeros(pairs_end + (words if triples else 0), np.int32)
    pdb[:_p.HEAD] = (nl, nf, n, boxes)
    h = _p.HEAD
    pdb[h:h + 2 * n] = -1
    pdb[h + live] = np.arange(nl)
    pdb[h + n + floor] = np.arange(nf)
    pdb[h + 2 * n:h + 2 * n + nl] = live
    pdb[h + 3 * n:h + 3 * n + nf] = floor
    size = nl * nl * nf
    least = h + 4 * n + size  # each distance column's least distance over the goals
    if dist is not None:
        pdb[least:least + 4 * n] = dist.min(axis=0)
    halt = np.zeros(_s.N_COUNTERS, np.int64) if ctr is None else ctr
    if not _p.pair_build(walls, dead, goal_cells, np.int64(width), pdb, np.zeros(size, np.int32),
                         np.zeros(size, np.int32), halt, np.int64(pushes)):
        return None
    ng = goal_cells.shape[0]
    if compof is not None and ng * (ng - 1) // 2 * size <= PENALTY_WORK:
        if not _penalties(walls, dead, goal_cells, width, dist, compof, pdb, halt):
            return None
    if triples and not _triple_table(walls, goal_cells, width, pdb, pairs_end, halt):
        return None
    return pdb


def pull_pair_table(walls: npt.NDArray[np.uint8], alive: npt.NDArray[np.uint8],
                    start_cells: npt.NDArray[np.int32], width: int,
                    ctr: npt.NDArray[np.int64] | None = None) -> npt.NDArray[np.int32]:
    """The pair table of the backward search over pulls
    (:mod:`levelforge.engine.sokoban_backward`): for two boxes alone on the board
    (``walls`` closed around the player's area) and each player cell, the fewest pulls
    that bring them onto two of the ``start_cells``, -1 where none do. A state of the
    backward search with such a dead pair never leads back to the start: delete its
    other boxes, and the pulls of any way back stay legal and bring the two boxes home.
    So :func:`levelforge.engine.sokoban_pairs.pair_dead` on it drops states that could
    neither reach the start nor meet a forward search's state (every one of those is
    reached from the start). ``alive[c]`` is 1 where pulls bring a lone box from ``c``
    to a start cell. Returns a one-slot array (no table: ``pair_dead`` says False)
    for fewer than two boxes, a board past :data:`MOST_STATES`, or when ``ctr``
    (watched by a time limit) said halt while it was built.

    A corridor (width 8, floor on cells 9 to 14) with its start cells on 11 and 12: two
    boxes pulled both to its left end never come back, the player being on their right.

    >>> from levelforge.engine.sokoban_pairs import pair_dead
    >>> walls = np.ones(24, np.uint8)
    >>> walls[9:15] = 0
    >>> pdb = pull_pair_table(walls, 1 - walls, np.array([11, 12], np.int32), 8)
    >>> bool(pair_dead(pdb, np.array([9, 10], np.int16), 2, 10, 11))
    True
    >>> bool(pair_dead(pdb, np.array([11, 12], np.int16), 2, 12, 13))
    False
    """
    built = pair_database(walls, (1 - alive).astype(np.uint8), start_cells, width,
                          start_cells.shape[0], None, ctr=ctr, pushes=True)
    return np.zeros(1, np.int32) if built is None else built


def _penalties(walls, dead, goal_cells, width, dist, compof, pdb, halt):
    """Put each pair's penalty over the matching into the high bits of ``pdb``'s table
    entries (:func:`levelforge.engine.sokoban_pairs.penalty_fold`, one search of pulls
    per goal pair); False when ``halt`` stopped it."""
    n = walls.shape[0]
    nl, nf = int(pdb[0]), int(pdb[1])
    size = nl * nl * nf
    tab = _p.HEAD + 4 * n
    work = pdb[:tab + size].copy()
    cur, nxt = np.zeros(size, np.int32), np.zeros(size, np.int32)
    pen = np.full(size, 1 << 30, np.int64)
    for x in range(goal_cells.shape[0]):
        for y in range(x + 1, goal_cells.shape[0]):
            two = goal_cells[[x, y]].astype(np.int32)
            if not _p.pair_build(walls, dead, two, np.int64(width), work, cur, nxt, halt,
                                 np.int64(0)):
                return False
            _p.penalty_fold(pdb, work, x, y, dist, compof, pen)
    pen = np.clip(np.where(pen >= 1 << 30, 0, pen), 0, 0x7FFF).astype(np.int32)
    table = pdb[tab:tab + size]
    solvable = table >= 0
    table[solvable] |= pen[solvable] << _p.PENALTY_SHIFT
    return True


def _triple_table(walls, goal_cells, width, pdb, off, halt):
    """Fill the triple section of ``pdb`` at ``off``
    (:mod:`levelforge.engine.sokoban_triples`); False when ``halt`` stopped it."""
    nl = int(pdb[0])
    c2 = np.array([x * (x - 1) // 2 for x in range(nl + 1)], np.int32)
    c3 = np.array([x * (x - 1) * (x - 2) // 6 for x in range(nl + 1)], np.int32)
    t = int(c3[nl])
    pdb[off] = t
    pdb[off + 1:off + 2 + nl] = c2
    pdb[off + 2 + nl:off + 3 + 2 * nl] = c3
    c, b, a = np.array([(c, b, a) for c in range(nl) for b in range(c) for a in range(b)],
                       np.int16).reshape(-1, 3).T
    queue = np.zeros(t * int(pdb[1]), np.int32)
    return _t.triple_build(walls, goal_cells, np.int64(width), pdb, queue,
                           np.ascontiguousarray(a), np.ascontiguousarray(b),
                           np.ascontiguousarray(c), halt)
