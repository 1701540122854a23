"""The box-pair pattern database of the push-optimal search, built per level at solve
start (see :mod:`levelforge.engine.sokoban_pairs` for the table, the bound and the proof
that it keeps push-optimality).

>>> import numpy as np
>>> from levelforge.sokoban import Level
>>> from levelforge.sokoban.bound import push_lower_bound
>>> level = Level.from_xsb('''
... #######
... #.$@$.#
... #######''')
>>> push_lower_bound(level, pairs=False), push_lower_bound(level)
(1, None)
"""
from __future__ import annotations

import numpy as np
import numpy.typing as npt

from ..engine import sokoban_pairs as _p

MOST_STATES = 4_000_000
"""Largest pair table built (live cells squared times floor cells); larger boards go
without it (the matching alone). 0 turns the database off (for comparisons)."""


def pair_database(walls: npt.NDArray[np.uint8], dead: npt.NDArray[np.uint8],
                  goal_cells: npt.NDArray[np.int32], width: int, boxes: int,
                  most: int | None = None) -> npt.NDArray[np.int32] | None:
    """The ``pdb`` array of :func:`levelforge.engine.sokoban_pairs.pair_bound` for a
    board (``walls`` with the unreachable outside walled in, ``dead`` squares, goal
    cells, ``boxes`` boxes), or None with fewer than two boxes or more than ``most``
    table states (default :data:`MOST_STATES`).

    >>> from levelforge.sokoban import Level
    >>> walls, goals, _, _ = Level.from_xsb('#####\\n#@$.#\\n#####').arrays()
    >>> pair_database(walls, walls * 0, np.flatnonzero(goals).astype(np.int32), 5, 1) is None
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
    _p.pair_build(walls, dead, goal_cells, np.int64(width), pdb, np.zeros(size, np.int32),
                  np.zeros(size, np.int32))
    return pdb
