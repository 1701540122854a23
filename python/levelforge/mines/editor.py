"""A board designer's checks: whether a hand-made minefield is won from a chosen first
open without guessing, and its rating, with the play that the no-guess generator uses
(the no-guess generator's: single numbers, subsets and exact counting of each
component, never the global mine count, proved cells opened once on the surface).

>>> import numpy as np
>>> from levelforge.mines import editor
>>> board = np.zeros((1, 4, 4), bool)
>>> board[0, 3, 3] = True
>>> c = editor.check_board(board, (0, 0, 0))
>>> c.no_guess, c.rating.bbbv, c.rating.openings
(True, 1, 1)
>>> cube = np.zeros((3, 3, 3), bool)
>>> cube[1, 1, 1] = True                  # every surface cell shows 1: a guess
>>> editor.check_board(cube, (0, 0, 0)).no_guess
False
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, Sequence

import numpy as np
import numpy.typing as npt

from levelforge.engine import mines as K
from levelforge.errors import ConfigError
from levelforge.seeding import check_seed
from levelforge.timing import ms_since, now_ns

from ..cells import check_cell
from .game import MAX_SIDE
from .noguess import BoardRating, rate

__all__ = ["BoardCheck", "check_board", "random_mines"]

Cell = tuple[int, int, int]


@dataclass(frozen=True)
class _Shape:
    """What the play needs of a level, for boards that :class:`~levelforge.mines.Level`
    would refuse (a hand-made board may crowd the first open)."""

    width: int
    height: int
    depth: int
    mines: int
    name: str = "hand-made board"

    @property
    def cells(self):
        return self.width * self.height * self.depth


@dataclass(frozen=True)
class BoardCheck:
    """The answer of :func:`levelforge.mines.check_board`: ``no_guess`` is True when certain
    moves win the board from ``start``; ``rating`` holds 3BV, openings and the steps that
    needed subsets or exact counting (``rating.solved`` equals ``no_guess``); ``numbers``
    the number of every cell (``[z, y, x]``, -1 on mines)."""

    width: int
    height: int
    depth: int
    mines: int
    start: Cell
    no_guess: bool
    rating: BoardRating
    numbers: npt.NDArray[np.int8]
    elapsed_ms: float

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (``numbers`` as nested lists ``[z][y][x]``)."""
        return {"width": self.width, "height": self.height, "depth": self.depth,
                "mines": self.mines, "start": list(self.start), "no_guess": self.no_guess,
                "rating": self.rating.to_dict(), "numbers": self.numbers.tolist(),
                "elapsed_ms": self.elapsed_ms}


def _minefield(mines):
    a = np.asarray(mines)
    if a.ndim == 2:
        a = a[None]
    if a.ndim != 3 or a.dtype.kind not in "biu":
        raise ConfigError("mines must be a bool array [z, y, x] (or [y, x] for 2D), got "
                          f"{a.dtype} of shape {a.shape}")
    if not all(1 <= s <= MAX_SIDE for s in a.shape):
        raise ConfigError(f"a board is 1 to {MAX_SIDE} cells on each side, got "
                          f"{a.shape[2]}x{a.shape[1]}x{a.shape[0]}")
    if a.dtype.kind != "b" and not np.isin(a, (0, 1)).all():
        raise ConfigError("mines must hold only 0 and 1 (or False and True)")
    return a.astype(bool)


def check_board(mines: npt.ArrayLike, start: Sequence[int],
                logic: Literal["full", "easy"] = "full") -> BoardCheck:
    """Whether a player who never guesses wins the board ``mines`` (bool ``[z, y, x]``,
    or ``[y, x]`` for a 2D board) from the first open ``start`` (a surface cell without a
    mine), and its rating. ``logic="easy"`` allows single numbers only.

    >>> import numpy as np
    >>> board = np.zeros((5, 5), bool)
    >>> board[4, 3:] = True                  # two mines on the bottom row
    >>> c = check_board(board, (0, 0, 0))
    >>> c.no_guess, c.numbers[0, 3].tolist()
    (True, [0, 0, 1, 2, 2])
    """
    t = now_ns()
    field = _minefield(mines)
    d, h, w = field.shape
    start = check_cell(start, (w, h, d), "start")
    x, y, z = start
    if field[z, y, x]:
        raise ConfigError(f"start {start} holds a mine; the first open must be safe")
    if not (x in (0, w - 1) or y in (0, h - 1) or z in (0, d - 1)):
        raise ConfigError(f"start {start} is inside the box; the first open is on the surface")
    if logic not in ("full", "easy"):
        raise ConfigError(f"logic must be 'full' or 'easy', got {logic!r}")
    shape = _Shape(w, h, d, int(field.sum()))
    nb26 = K.board_tables(w, h, d)[0]
    mine = field.reshape(-1).astype(np.uint8)
    numbers = np.zeros(mine.shape[0], np.int8)
    K.compute_numbers(mine, nb26, numbers)
    flat = (z * h + y) * w + x
    rating = rate(shape, mine, numbers, flat, True if logic == "full" else "easy")
    shown = np.where(field.reshape(-1), -1, numbers).astype(np.int8).reshape(d, h, w)
    return BoardCheck(w, h, d, shape.mines, start, rating.solved, rating, shown, ms_since(t))


def random_mines(width: int, height: int, depth: int, mines: int, seed: int = 0,
                 start: Sequence[int] | None = None) -> npt.NDArray[np.bool_]:
    """A uniformly random minefield ``[z, y, x]`` with ``mines`` mines, reproducible from
    ``seed``; with ``start``, that cell and its neighbours stay free (as in a game).

    >>> int(random_mines(9, 9, 1, 10, seed=4, start=(4, 4, 0)).sum())
    10
    """
    for name, v in (("width", width), ("height", height), ("depth", depth)):
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or not 1 <= v <= MAX_SIDE:
            raise ConfigError(f"{name} must be an integer from 1 to {MAX_SIDE}, got {v!r}")
    seed = check_seed(seed)
    free = np.ones((depth, height, width), bool)
    if start is not None:
        x, y, z = check_cell(start, (width, height, depth), "start")
        free[max(z - 1, 0):z + 2, max(y - 1, 0):y + 2, max(x - 1, 0):x + 2] = False
    places = np.flatnonzero(free.reshape(-1))
    if isinstance(mines, bool) or not isinstance(mines, (int, np.integer)) \
            or not 0 <= mines <= places.shape[0]:
        raise ConfigError(f"mines must be an integer from 0 to {places.shape[0]} on this "
                          f"board, got {mines!r}")
    rng = np.random.default_rng(np.random.SeedSequence(seed))
    out = np.zeros(width * height * depth, bool)
    out[rng.choice(places, size=int(mines), replace=False)] = True
    return out.reshape(depth, height, width)
