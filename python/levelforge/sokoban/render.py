"""RGB images of Sokoban boards from tiles drawn once per tile size.

A cell's code is a bit set: ``WALL`` 1, ``GOAL`` 2, ``BOX`` 4, ``PLAYER`` 8; :func:`tiles`
gives one ``size x size`` RGB tile per code, and :func:`draw` paints a board of codes
into an image.

>>> t = tiles(16)
>>> t.shape, t.dtype
((16, 16, 16, 3), dtype('uint8'))
>>> codes = np.array([[WALL, WALL, WALL], [WALL, PLAYER, BOX | GOAL], [WALL, WALL, WALL]])
>>> image = np.zeros((3 * 16, 3 * 16, 3), np.uint8)
>>> draw(image, codes.ravel(), 3, t)
>>> bool((image[16:32, 32:48] == t[BOX | GOAL]).all())
True
"""
from functools import lru_cache

import numpy as np

WALL, GOAL, BOX, PLAYER = 1, 2, 4, 8

_FLOOR = (236, 228, 208)
_MORTAR = (78, 74, 70)
_BRICK = (122, 112, 104)
_GOAL = (214, 64, 52)
_BOX = (176, 118, 52)
_BOX_EDGE = (110, 70, 28)
_BOX_ON_GOAL = (224, 176, 40)
_PLAYER = (52, 120, 206)


@lru_cache(maxsize=8)
def tiles(size):
    """The 16 tiles (one per code; impossible codes are black) as a read-only
    ``(16, size, size, 3)`` uint8 array. A 1-pixel tile is the centre colour."""
    if isinstance(size, bool) or not isinstance(size, int) or not 1 <= size <= 64:
        raise ValueError(f"tile size must be an integer in [1, 64], got {size!r}")
    c = (np.arange(size) + 0.5) / size  # pixel centres in [0, 1)
    u, v = np.meshgrid(c, c)  # u: x to the right, v: y down
    r = np.maximum(abs(u - 0.5), abs(v - 0.5))  # square distance from the centre
    d = np.hypot(u - 0.5, v - 0.5)
    out = np.zeros((16, size, size, 3), np.uint8)
    floor = np.empty((size, size, 3), np.uint8)
    floor[:] = _FLOOR
    goal = floor.copy()
    goal[(d < 0.22) & (d >= 0.12) | (d < 0.06)] = _GOAL
    wall = np.empty_like(floor)
    wall[:] = _BRICK
    if size >= 4:
        offset = np.where(v < 0.5, 0.0, 0.5)
        seams = (abs(v - 0.5) < 0.5 / size) | (v < 0.5 / size) \
            | (abs((u + offset) % 1.0 - 0.5) < 0.5 / size)
        wall[seams] = _MORTAR
    out[0], out[WALL], out[GOAL] = floor, wall, goal
    for code, colour in ((BOX, _BOX), (BOX | GOAL, _BOX_ON_GOAL)):
        tile = (goal if code & GOAL else floor).copy()
        tile[r < 0.42] = _BOX_EDGE
        tile[r < 0.32] = colour
        tile[(abs(u - v) < 0.06) & (r < 0.32) | (abs(u + v - 1) < 0.06) & (r < 0.32)] = \
            _BOX_EDGE if size >= 8 else colour
        out[code] = tile
    for code in (PLAYER, PLAYER | GOAL):
        tile = (goal if code & GOAL else floor).copy()
        tile[d < 0.36] = _PLAYER
        out[code] = tile
    out.setflags(write=False)
    return out


def draw(image, codes, width, tile_set):
    """Paint ``codes`` (a flat board of cell codes, ``width`` cells a row) into ``image``
    with ``tile_set``."""
    height = len(codes) // width
    board = tile_set[np.asarray(codes, np.intp).reshape(height, width)]
    image[:] = board.transpose(0, 2, 1, 3, 4).reshape(image.shape)
