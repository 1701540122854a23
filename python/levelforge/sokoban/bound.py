"""The push-optimal search's lower bound on one level, from Python.

:func:`push_lower_bound` computes, for a level as it stands, the value the push-optimal
A* uses as its heuristic: the min-cost perfect matching of boxes to goals over lone-box
push distances, each box entered from the side the player can reach now
(:func:`levelforge.engine.sokoban_heuristic.box_columns` and ``matching_cost``). Tests
check it never exceeds the exact remaining pushes (admissible) and drops by at most one
per push (consistent); reports compare it with the proved optimum (the bound's strength).

>>> from levelforge.sokoban import Level
>>> push_lower_bound(Level.from_xsb('''
... #######
... #@$  .#
... #######'''))
3
"""
from __future__ import annotations

import numpy as np

from ..engine import sokoban_board as _b
from ..engine import sokoban_heuristic as _h
from ..engine import sokoban_pairs as _p
from ..engine import sokoban_state as _s
from .level import Level
from .pairs import pair_database
from .solver import Workspace, _player_area


def push_lower_bound(level: Level, workspace: Workspace | None = None,
                     pairs: bool = True) -> int | None:
    """The push-optimal search's lower bound on the pushes that solve ``level``, or None
    when no matching of boxes to goals exists (the level is then unsolvable). A box or
    goal the player can never reach counts as the solver counts it (a box parked on its
    goal is a wall; None when a sealed box or goal is left unpaired). ``workspace``: a
    :class:`~levelforge.sokoban.solver.Workspace` to reuse (a new one by default).
    ``pairs``: take the box-pair pattern database's bound too (the larger of the two, as
    the solver does; :mod:`levelforge.sokoban.pairs`), else the matching alone.

    >>> push_lower_bound(Level.from_xsb('#####\\n#@$.#\\n#####'))
    1
    """
    prepared = _prepare(level, workspace)
    if not isinstance(prepared, tuple):
        return prepared
    ws, walls, goal_cells, box_cells, player, dist = prepared
    nbox, n = box_cells.shape[0], walls.shape[0]
    cols = np.zeros(nbox, np.int64)
    _h.box_columns(box_cells, nbox, np.int64(player), ws.compof, n, cols)
    h = _h.matching_cost(cols, nbox, dist, *ws.hung[:6])
    pdb = pair_database(walls, ws.dead[:n], goal_cells, level.width, nbox, dist,
                        compof=ws.compof) if pairs else None
    if pdb is not None:
        h = _p.pair_bound(h, box_cells, nbox, np.int64(player), cols, pdb)
    h = int(h)
    return None if h >= _s.UNREACHABLE else h


def pair_table(level: Level, workspace: Workspace | None = None) -> np.ndarray | None:
    """The box-pair pattern database (the ``pdb`` array of
    :func:`levelforge.sokoban.pairs.pair_database`, with its penalties over the
    matching) of ``level``'s board, or None (fewer
    than two boxes, a board too large for it, or a sealed box or goal left unpaired).

    >>> pair_table(Level.from_xsb('#####\\n#@$.#\\n#####')) is None
    True
    """
    prepared = _prepare(level, workspace)
    if not isinstance(prepared, tuple):
        return None
    ws, walls, goal_cells, box_cells, player, dist = prepared
    return pair_database(walls, ws.dead[:walls.shape[0]], goal_cells, level.width,
                         box_cells.shape[0], dist, compof=ws.compof)


def _prepare(level, workspace):
    """The board of ``level`` as the solver prepares it: ``(workspace, walls, goal
    cells, box cells, player, push distances)``, or the bound when that is already
    known (None: a sealed box or goal left unpaired; 0: no box)."""
    ws = Workspace() if workspace is None else workspace
    walls, goals, boxes, player = level.arrays()
    ws.ensure(walls.shape[0], len(level.boxes), 16)
    inside = _player_area(walls, level.width, player, ws)
    walls[~inside] = 1
    if np.any(((boxes == 1) & ~inside) != ((goals == 1) & ~inside)):
        return None
    goals[~inside] = 0
    boxes[~inside] = 0
    box_cells = np.flatnonzero(boxes).astype(np.int32)
    goal_cells = np.flatnonzero(goals).astype(np.int32)
    nbox = box_cells.shape[0]
    if nbox == 0:
        return 0
    n = walls.shape[0]
    dist = ws.distbuf[:4 * nbox * n].reshape(nbox, 4 * n)
    _b.push_distances(walls, goal_cells, level.width, dist, ws.dead[:n], ws.sides, ws.lab,
                      ws.compof)
    return ws, walls, goal_cells, box_cells, player, dist
