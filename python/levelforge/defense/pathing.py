"""Distance fields, routes and cut cells on any grid (friendly wrappers over the kernels).

>>> import numpy as np
>>> blocked = np.zeros((3, 4), bool); blocked[1, 1:3] = True
>>> distance_field(blocked, (0, 2))[0].tolist()
[2, 3, 4, 5]
>>> route(blocked, (0, 2), (3, 0))
[(3, 0), (2, 0), (1, 0), (0, 0), (0, 1), (0, 2)]
>>> np.argwhere(cut_cells(blocked, (0, 2), [(3, 0)])).tolist()
[[0, 3]]
"""
from __future__ import annotations

from typing import Iterable, Sequence

import numpy as np
import numpy.typing as npt

from ..engine import defense as k
from ..engine.grid import bfs_distance
from ..cells import check_cell
from ..errors import ConfigError


def _grid(blocked):
    a = np.asarray(blocked)
    if a.ndim != 2 or a.size == 0:
        raise ConfigError(f"blocked must be a non-empty 2-D array [height, width], "
                          f"got shape {a.shape}")
    if a.dtype != np.bool_ and not np.issubdtype(a.dtype, np.integer):
        raise ConfigError(f"blocked must be a boolean or integer array, got {a.dtype}")
    return np.ascontiguousarray(a != 0, dtype=np.uint8)


def _cell(xy, shape, what):
    h, w = shape
    x, y = check_cell(xy, (w, h), what)
    return y * w + x


def distance_field(blocked: npt.ArrayLike, target: Sequence[int]) -> npt.NDArray[np.int32]:
    """BFS steps (4-neighbours) from every cell to ``target``; -1 where blocked or
    unreachable. ``blocked`` is a 2-D bool/int array indexed ``[y, x]``; the target counts
    as free. Returns int32 ``[height, width]``.

    >>> distance_field(np.array([[0, 1, 0]]), (0, 0)).tolist()
    [[0, -1, -1]]
    """
    b = _grid(blocked)
    t = _cell(target, b.shape, "target")
    dist = np.empty(b.size, np.int32)
    queue = np.empty(b.size, np.int32)
    pad = np.empty((b.shape[0] + 2) * (b.shape[1] + 2), np.int32)
    bfs_distance(b.ravel(), b.shape[1], t, dist, pad, queue)
    return dist.reshape(b.shape)


def route(blocked: npt.ArrayLike, target: Sequence[int],
          start: Sequence[int]) -> list[tuple[int, int]]:
    """The cells a ship sails from ``start`` to ``target``: each step to the neighbour
    with the smallest distance, ties broken up, left, right, down. ``[]`` when ``start``
    cannot reach the target.

    >>> route(np.zeros((2, 2), bool), (0, 0), (1, 1))
    [(1, 1), (1, 0), (0, 0)]
    """
    b = _grid(blocked)
    t = _cell(target, b.shape, "target")
    s = _cell(start, b.shape, "start")
    dist = distance_field(b, target).ravel()
    if dist[s] < 0:
        return []
    nxt = np.empty(b.size, np.int32)
    k.next_steps(dist, b.shape[1], nxt)
    out = np.empty(b.size, np.int32)
    n = k.trace_route(nxt, s, out)
    w = b.shape[1]
    assert out[n - 1] == t
    return [(int(c % w), int(c // w)) for c in out[:n]]


class CutWorkspace:
    """Reusable work arrays for :func:`~levelforge.defense.cut_cells` on grids of one
    shape (no allocation per call).

    >>> ws = CutWorkspace(3, 4)
    >>> int(cut_cells(np.zeros((3, 4), bool), (0, 0), [(3, 2)], workspace=ws).sum())
    1
    """

    def __init__(self, height: int, width: int) -> None:
        self.shape = (int(height), int(width))
        n = self.shape[0] * self.shape[1]
        padded = (self.shape[0] + 2) * (self.shape[1] + 2)
        self.cut = np.empty(n, np.uint8)
        self.st = np.empty((padded, 4), np.int32)
        self.it = np.empty(padded, np.int8)
        self.stack = np.empty(n, np.int32)
        self.is_source = np.zeros(n, np.uint8)

    def run(self, blocked_flat: npt.NDArray[np.uint8], target: int) -> npt.NDArray[np.uint8]:
        """Run the kernel on a flat grid (``is_source`` already filled); returns ``cut``."""
        k.cut_cells(blocked_flat, self.shape[1], target, self.is_source, self.cut, self.st,
                    self.it, self.stack)
        return self.cut


def cut_cells(blocked: npt.ArrayLike, target: Sequence[int], sources: Iterable[Sequence[int]],
              workspace: CutWorkspace | None = None) -> npt.NDArray[np.bool_]:
    """Bool ``[height, width]``: the free cells whose blocking would disconnect one of
    ``sources`` from ``target`` (one DFS: articulation points relative to the target).
    A source still connected to the target is itself a cut cell; the target never is;
    sources already cut off are ignored.

    >>> cut_cells(np.zeros((1, 4), bool), (0, 0), [(3, 0)]).astype(int).tolist()
    [[0, 1, 1, 1]]
    """
    b = _grid(blocked)
    t = _cell(target, b.shape, "target")
    ws = workspace if workspace is not None and workspace.shape == b.shape \
        else CutWorkspace(*b.shape)
    ws.is_source[:] = 0
    for s in sources:
        ws.is_source[_cell(s, b.shape, "source")] = 1
    flat = b.ravel()
    flat[t] = 0
    cut = ws.run(flat, t)
    return cut.reshape(b.shape).astype(bool)
