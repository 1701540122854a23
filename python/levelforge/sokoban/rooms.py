"""Room topologies for the farthest-state generator: seeded, reproducible wall layouts.

Every room is a flat uint8 array of ``height * width`` cells (1 wall, 0 floor, cell
``y * width + x``) with a wall border and one 4-connected floor (other floor pockets are
walled up). Three kinds:

- ``"carved"``: a random walk carves the floor as Boxoban's generator does: from a random
  inner cell, ``1.7 * (width + height)`` steps, the direction changed with probability
  0.35, and at every step one of five small 3x3 masks (a bar, a column, three corners)
  opened around the walker.
- ``"templates"``: Taylor and Parberry's method: the inner area is tiled with 3x3
  templates (17 shapes, each turned and mirrored at random) whose stated neighbour
  cells must be floor; then dead ends (floor with three walls around) are filled in.
- ``"open"``: the open rectangle with ``inner_walls`` scattered walls that keep the floor
  connected (the pull generator's room).

>>> import numpy as np
>>> walls = make_room("carved", 10, 10, np.random.default_rng(1))
>>> walls.shape, int(walls[0]), bool(walls.sum() < 100)
((100,), 1, True)
"""
from __future__ import annotations

from typing import Literal

import numpy as np
import numpy.typing as npt

from ..errors import ConfigError

RoomKind = Literal["carved", "templates", "open"]
ROOM_KINDS = ("carved", "templates", "open")

# Boxoban's carving masks (1 opens the cell), around the walker at the centre
_MASKS = (((0, 0, 0), (1, 1, 1), (0, 0, 0)),
          ((0, 1, 0), (0, 1, 0), (0, 1, 0)),
          ((0, 0, 0), (1, 1, 0), (0, 1, 0)),
          ((0, 0, 0), (1, 1, 0), (1, 1, 0)),
          ((0, 0, 0), (0, 1, 1), (0, 1, 0)))

# Taylor and Parberry's 17 templates: a 3x3 core ('#' wall, ' ' floor) inside a ring of
# cells that must be floor ('.') or may be anything ('?'), as 5x5 text rows
_TEMPLATES = (
    ("?????", "?   ?", "?   ?", "?   ?", "?????"),
    ("?????", "?#  ?", "?   ?", "?   ?", "?????"),
    ("???..", "?## ?", "?   ?", "?   ?", "?????"),
    ("?????", "?###?", "?   ?", "?   ?", "?????"),
    ("?????", "?###?", "?#  ?", "?#  ?", "?????"),
    ("??.??", "?#  ?", ".   ?", "?  #?", "?????"),
    ("?????", "?#  ?", ".   ?", "?#  ?", "?????"),
    ("??.??", "?#  ?", ".   ?", "?# #?", "??.??"),
    ("??.??", "?# #?", ".   .", "?# #?", "??.??"),
    ("??.??", "?# #?", "?#  .", "?###?", "?????"),
    ("?????", "?###?", ".   .", "?###?", "?????"),
    ("?????", "?   ?", "? # .", "?   .", "?????"),
    ("?????", "?###?", "?###?", "?###?", "?????"),
    ("?????", "?###?", "?#  ?", "?   ?", "?..??"),
    ("?...?", "?   ?", "?# #?", "?   ?", "?...?"),
    ("?????", "?###?", "?###?", "?   ?", "?...?"),
    ("?????", "?###?", ".# #.", "?   ?", "?..??"),
)


def _template_variants():
    """Every template in its 8 orientations, as (core 3x3 walls, list of (dy, dx) ring
    offsets from the core's top-left that must be floor)."""
    out = []
    for rows in _TEMPLATES:
        grid = np.array([list(r) for r in rows])
        seen = set()
        for k in range(4):
            for flip in (False, True):
                g = np.rot90(grid, k)
                if flip:
                    g = g[:, ::-1]
                key = "".join(g.ravel())
                if key in seen:
                    continue
                seen.add(key)
                core = (g[1:4, 1:4] == "#").astype(np.uint8)
                need = [(y - 1, x - 1) for y in range(5) for x in range(5)
                        if g[y, x] == "."]
                out.append((core, need))
    return out


_VARIANTS = _template_variants()


def _border(width, height):
    walls = np.ones((height, width), np.uint8)
    walls[1:-1, 1:-1] = 0
    return walls


def _keep_largest_floor(grid):
    """Wall up every floor component but the largest (ties: the first met in row order)."""
    h, w = grid.shape
    label = np.zeros((h, w), np.int32)
    sizes = [0]
    for y in range(h):
        for x in range(w):
            if grid[y, x] or label[y, x]:
                continue
            k = len(sizes)
            label[y, x] = k
            todo, size = [(y, x)], 0
            while todo:
                cy, cx = todo.pop()
                size += 1
                for ny, nx in ((cy - 1, cx), (cy, cx - 1), (cy, cx + 1), (cy + 1, cx)):
                    if not grid[ny, nx] and not label[ny, nx]:
                        label[ny, nx] = k
                        todo.append((ny, nx))
            sizes.append(size)
    if len(sizes) > 2:
        keep = int(np.argmax(sizes))
        grid[(label != keep) & (grid == 0)] = 1
    return grid


def carved_room(width: int, height: int, rng: np.random.Generator) -> npt.NDArray[np.uint8]:
    """A room carved by Boxoban's random walk (see the module doc)."""
    grid = np.ones((height, width), np.uint8)
    directions = ((0, 1), (1, 0), (0, -1), (-1, 0))
    dy, dx = directions[int(rng.integers(4))]
    y, x = int(rng.integers(1, height - 1)), int(rng.integers(1, width - 1))
    for _ in range(int(1.7 * (width + height))):
        if rng.random() < 0.35:
            dy, dx = directions[int(rng.integers(4))]
        y = min(max(y + dy, 1), height - 2)
        x = min(max(x + dx, 1), width - 2)
        mask = _MASKS[int(rng.integers(len(_MASKS)))]
        for my in range(3):
            for mx in range(3):
                if mask[my][mx]:
                    grid[y - 1 + my, x - 1 + mx] = 0
    grid[0, :] = grid[-1, :] = 1
    grid[:, 0] = grid[:, -1] = 1
    return _keep_largest_floor(grid).ravel()


def template_room(width: int, height: int, rng: np.random.Generator,
                  tries: int = 50) -> npt.NDArray[np.uint8]:
    """A room of Taylor and Parberry's 3x3 templates (see the module doc); after
    ``tries`` failed fillings the open room is returned."""
    ih, iw = height - 2, width - 2
    bh, bw = -(-ih // 3), -(-iw // 3)
    for _ in range(tries):
        # -1 unset, 0 floor, 1 wall; a margin of one ring around the block area
        grid = np.full((3 * bh + 4, 3 * bw + 4), -1, np.int8)
        grid[:2, :] = grid[-2:, :] = 1
        grid[:, :2] = grid[:, -2:] = 1
        grid[2 + ih:, :] = 1  # the area past the room's inner size is wall
        grid[:, 2 + iw:] = 1
        need = np.zeros(grid.shape, bool)  # cells a placed template wants floor
        ok = True
        for by in range(bh):
            for bx in range(bw):
                y0, x0 = 2 + 3 * by, 2 + 3 * bx
                for _ in range(30):
                    core, want = _VARIANTS[int(rng.integers(len(_VARIANTS)))]
                    area = grid[y0:y0 + 3, x0:x0 + 3]
                    fixed = area >= 0
                    if np.any(fixed & (area != core)) or np.any(need[y0:y0 + 3, x0:x0 + 3]
                                                                 & (core == 1)):
                        continue
                    if any(grid[y0 + dy, x0 + dx] == 1 for dy, dx in want):
                        continue
                    area[~fixed] = core[~fixed]
                    for dy, dx in want:
                        need[y0 + dy, x0 + dx] = True
                    break
                else:
                    ok = False
                    break
            if not ok:
                break
        if not ok:
            continue
        room = np.ones((height, width), np.uint8)
        room[1:-1, 1:-1] = grid[2:2 + ih, 2:2 + iw] == 1
        _fill_dead_ends(room)
        room = _keep_largest_floor(room)
        if (room == 0).sum() >= 0.4 * ih * iw:
            return room.ravel()
    return _border(width, height).ravel()


def _fill_dead_ends(grid):
    """Fill floor cells with three walls around, again until none is left."""
    changed = True
    while changed:
        changed = False
        for y in range(1, grid.shape[0] - 1):
            for x in range(1, grid.shape[1] - 1):
                if not grid[y, x] and grid[y - 1, x] + grid[y + 1, x] + grid[y, x - 1] \
                        + grid[y, x + 1] >= 3:
                    grid[y, x] = 1
                    changed = True


def open_room(width: int, height: int, inner_walls: int,
              rng: np.random.Generator) -> npt.NDArray[np.uint8]:
    """The open rectangle with up to ``inner_walls`` random inner walls, each kept only
    if the floor stays connected."""
    grid = _border(width, height)
    floor = [(y, x) for y in range(1, height - 1) for x in range(1, width - 1)]
    placed = 0
    for k in rng.permutation(len(floor)):
        if placed == inner_walls:
            break
        y, x = floor[k]
        grid[y, x] = 1
        if _connected(grid):
            placed += 1
        else:
            grid[y, x] = 0
    return grid.ravel()


def _connected(grid):
    cells = np.argwhere(grid == 0)
    if len(cells) == 0:
        return True
    seen = {tuple(cells[0])}
    todo = [tuple(cells[0])]
    while todo:
        y, x = todo.pop()
        for nb in ((y - 1, x), (y, x - 1), (y, x + 1), (y + 1, x)):
            if not grid[nb] and nb not in seen:
                seen.add(nb)
                todo.append(nb)
    return len(seen) == len(cells)


def make_room(kind: RoomKind, width: int, height: int, rng: np.random.Generator,
              inner_walls: int = 0) -> npt.NDArray[np.uint8]:
    """A room of ``kind`` (``"carved"``, ``"templates"`` or ``"open"``) drawn from
    ``rng``: the same generator state gives the same room.

    >>> a = make_room("templates", 9, 9, np.random.default_rng(3))
    >>> b = make_room("templates", 9, 9, np.random.default_rng(3))
    >>> bool((a == b).all())
    True
    """
    if kind == "carved":
        return carved_room(width, height, rng)
    if kind == "templates":
        return template_room(width, height, rng)
    if kind == "open":
        return open_room(width, height, inner_walls, rng)
    raise ConfigError(f"room must be one of {list(ROOM_KINDS)}, got {kind!r}")
