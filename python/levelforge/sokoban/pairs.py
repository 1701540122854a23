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

AFTER = 5_000
"""Expansions of a push-optimal search before it builds the database (a few ms on a
Boxoban board; the many levels solved sooner never pay for it). Switching bounds
mid-search keeps push-optimality: A* reopens states and both bounds are admissible."""
NONE = np.zeros(0, np.int32)
"""The ``pdb`` of a search without the database (its bound is then the matching)."""
MOST_STATES = 4_000_000
"""Largest pair table built (live cells squared times floor cells); larger boards go
without it (the matching alone). 0 turns the database off (for comparisons)."""


def pairs_due(pdb: npt.NDArray[np.int32], expanded: int,
              board: tuple | None) -> npt.NDArray[np.int32]:
    """The ``pdb`` a search goes on with: ``pdb`` itself unless it is :data:`NONE`, the
    search has expanded :data:`AFTER` states and ``board`` (the arguments of
    :func:`pair_database`, None for no database) is given; then the database, or a
    one-slot array (off) when the board is too large.

    >>> pairs_due(NONE, 0, None) is NONE
    True
    """
    if pdb is not NONE or board is None or expanded < AFTER:
        return pdb
    built = pair_database(*board)
    return np.zeros(1, np.int32) if built is None else built


def pair_database(walls: npt.NDArray[np.uint8], dead: npt.NDArray[np.uint8],
                  goal_cells: npt.NDArray[np.int32], width: int, boxes: int,
                  dist: npt.NDArray, most: int | None = None,
                  ctr: npt.NDArray[np.int64] | None = None) -> npt.NDArray[np.int32] | None:
    """The ``pdb`` array of :func:`levelforge.engine.sokoban_pairs.pair_bound` for a
    board (``walls`` with the unreachable outside walled in, ``dead`` squares, goal
    cells, ``boxes`` boxes, the search's push distances ``dist``, one row per goal),
    or None with fewer than two boxes, more than ``most`` table states (default
    :data:`MOST_STATES`), or when ``ctr`` (a search's counters, watched by a time limit)
    says halt before the table is built.

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
    pdb = np.zeros(_p.pair_table_size(nl, nf, n, boxes), np.int32)
    pdb[:_p.HEAD] = (nl, nf, n, boxes)
    h = _p.HEAD
    pdb[h:h + 2 * n] = -1
    pdb[h + live] = np.arange(nl)
    pdb[h + n + floor] = np.arange(nf)
    pdb[h + 2 * n:h + 2 * n + nl] = live
    pdb[h + 3 * n:h + 3 * n + nf] = floor
    size = nl * nl * nf
    least = h + 4 * n + size  # each distance column's least distance over the goals
    pdb[least:least + 4 * n] = dist.min(axis=0)
    halt = np.zeros(_s.N_COUNTERS, np.int64) if ctr is None else ctr
    if not _p.pair_build(walls, dead, goal_cells, np.int64(width), pdb, np.zeros(size, np.int32),
                         np.zeros(size, np.int32), halt):
        return None
    return pdb
