"""The 3D minesweeper game: levels, presets, the game itself and share codes.

Cells are ``(x, y, z)`` tuples; arrays are indexed ``[z, y, x]``. Only surface cells may
be chosen (see :meth:`Game.open`). Mines are placed on the first open, from the seed, the
level and the start cell alone, so a share code rebuilds the same minefield anywhere.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal, Sequence
from urllib.parse import parse_qs

import numpy as np
import numpy.typing as npt

from levelforge.engine import mines as K
from levelforge.cancel import Cancel, check_cancel, check_time_limit
from levelforge.cells import check_cell
from levelforge.errors import ConfigError, InvalidMoveError
from levelforge.seeding import check_seed, kernel_seed
from levelforge.timing import now_ns

from .noguess import BoardRating, check_no_guess, generate, rate
from .observation import PublicObservation

MAX_SIDE = 32


@dataclass(frozen=True)
class Level:
    """A board size and mine count; ``name`` is the preset name or ``WxHxD-M``.

    >>> Level.parse("hard")
    Level(width=10, height=10, depth=10, mines=99, name='hard')
    >>> Level.parse("9x9x1-10").cells
    81
    """

    width: int
    height: int
    depth: int
    mines: int
    name: str = ""

    def __post_init__(self):
        for axis in ("width", "height", "depth"):
            v = getattr(self, axis)
            if isinstance(v, bool) or not isinstance(v, (int, np.integer)) \
                    or not 1 <= v <= MAX_SIDE:
                raise ConfigError(f"{axis} must be an integer from 1 to {MAX_SIDE}, got {v!r}")
        m = self.mines
        if isinstance(m, bool) or not isinstance(m, (int, np.integer)) or m < 0:
            raise ConfigError(f"mines must be a non-negative integer, got {m!r}")
        # the first cell and its neighbours stay free wherever the first click lands
        reserved = min(self.width, 3) * min(self.height, 3) * min(self.depth, 3)
        if m > self.cells - reserved:
            raise ConfigError(
                f"{m} mines do not fit a {self.width}x{self.height}x{self.depth} board: at most "
                f"{self.cells - reserved} (the first cell and its neighbours stay free)")
        if not self.name:
            object.__setattr__(self, "name", self.code())

    @property
    def cells(self) -> int:
        """The number of cells."""
        return self.width * self.height * self.depth

    def code(self) -> str:
        """``WxHxD-M``, the custom form accepted by :meth:`parse`."""
        return f"{self.width}x{self.height}x{self.depth}-{self.mines}"

    @classmethod
    def parse(cls, text: Level | str) -> Level:
        """A preset name (``easy``, ``normal``, ``hard``) or ``WxHxD-M`` (``WxH-M`` for 2D)."""
        if isinstance(text, Level):
            return text
        if not isinstance(text, str):
            raise ConfigError(f"level must be a preset name or 'WxHxD-M', got {text!r}")
        key = text.strip().lower()
        if key in PRESETS:
            return PRESETS[key]
        m = re.fullmatch(r"(\d+)x(\d+)(?:x(\d+))?-(\d+)", key)
        if not m:
            raise ConfigError(f"unknown level {text!r}: use one of {', '.join(PRESETS)} "
                              "or 'WxHxD-M' such as '9x9x1-10'")
        w, h, d, n = m.groups()
        return cls(int(w), int(h), int(d or 1), int(n))


PRESETS = {
    "easy": Level(5, 5, 5, 10, "easy"),
    "normal": Level(7, 7, 7, 33, "normal"),
    "hard": Level(10, 10, 10, 99, "hard"),
    "beginner2d": Level(9, 9, 1, 10, "beginner2d"),
    "intermediate2d": Level(16, 16, 1, 40, "intermediate2d"),
    "expert2d": Level(30, 16, 1, 99, "expert2d"),
}


class Game:
    """One game of 3D minesweeper (depth 1 is classic 2D minesweeper).

    ``level`` is a :class:`Level`, a preset name or ``WxHxD-M``; ``seed`` with the level,
    the first opened cell and ``no_guess`` fixes the minefield. With ``no_guess=True``
    the mines are placed so that certain moves win from the first open (``"easy"``:
    with single numbers alone); see :mod:`levelforge.mines.noguess`. ``time_limit``
    (seconds, default None: no limit) and ``cancel`` (a :class:`~levelforge.Cancel`)
    bound that placement, at the first :meth:`open`: it raises
    :class:`~levelforge.GenerationError` naming the limit, or
    :class:`~levelforge.Cancelled`, and the game stays ready.

    >>> game = Game("easy", seed=7)
    >>> game.open((0, 0, 0)) > 0        # the first number is always 0: a cascade
    True
    >>> game.status
    'playing'
    >>> Game.from_share_code(game.share_code()).observe().state.tolist() == \\
    ...     game.observe().state.tolist()
    True
    """

    def __init__(self, level: Level | str = "normal", seed: int = 0,
                 no_guess: bool | Literal["easy"] = False, *, time_limit: float | None = None,
                 cancel: Cancel | None = None) -> None:
        self.level = Level.parse(level)
        self.seed = check_seed(seed)
        self.no_guess = check_no_guess(no_guess)
        self.time_limit = check_time_limit(time_limit)
        self.cancel = check_cancel(cancel)
        self.generation = None
        self._rating = None
        lv = self.level
        self._nb26, self._nb6, self._boundary = K.board_tables(lv.width, lv.height, lv.depth)
        n = lv.cells
        self._state = np.zeros(n, np.uint8)
        self._mine = np.zeros(n, np.uint8)
        self._numbers = np.full(n, -1, np.int8)
        self._queue = np.empty(n, np.int32)
        self._select = np.empty(n, np.uint8)
        self.start = None
        self.status = "ready"
        self.exploded = None
        self.flags = 0
        self.opened = 0
        self._t0 = None
        self._t1 = None

    # ------------------------------------------------------------------ helpers
    def _index(self, cell, what):
        lv = self.level
        x, y, z = check_cell(cell, (lv.width, lv.height, lv.depth), what, InvalidMoveError)
        return (z * lv.height + y) * lv.width + x

    def _cell(self, index):
        lv = self.level
        return (index % lv.width, (index // lv.width) % lv.height,
                index // (lv.width * lv.height))

    def _check_running(self, what):
        if self.status in ("won", "lost"):
            raise InvalidMoveError(f"{what}: the game is over ({self.status})")

    def _selectable(self):
        K.selectable_mask(self._state, self._boundary, self._nb6, self._select)
        return self._select

    def _finish_open(self, opened):
        if opened < 0:
            self.status = "lost"
            self.exploded = self._cell(-1 - opened)
            self._t1 = now_ns()
            return 0
        self.opened += opened
        if self.opened == self.level.cells - self.level.mines:
            self.status = "won"
            self._t1 = now_ns()
        return opened

    # ------------------------------------------------------------------ actions
    def open(self, cell: Sequence[int]) -> int:
        """Open a closed, selectable, unflagged cell; returns the number of cells opened.

        A 0 opens its 26 neighbours, recursively. Opening a mine loses the game (returns 0).
        The first open places the mines, never on this cell or its neighbours (with
        ``no_guess``, so that certain moves win from it).
        Raises :class:`~levelforge.InvalidMoveError` (changing nothing) when the cell is
        out of range, open, flagged, not selectable, or the game is over, and
        :class:`~levelforge.GenerationError` (changing nothing) when no no-guess board is
        found (custom levels too dense for one).
        """
        what = "open"
        self._check_running(what)
        c = self._index(cell, what)
        s = self._state[c]
        if s == K.OPEN:
            raise InvalidMoveError(f"{what}: cell {self._cell(c)} is already open")
        if s == K.FLAGGED:
            raise InvalidMoveError(f"{what}: cell {self._cell(c)} is flagged; unflag it first")
        if not self._selectable()[c]:
            raise InvalidMoveError(f"{what}: cell {self._cell(c)} is not selectable (no open "
                                   "or flagged face neighbour and not on the surface)")
        if self.status == "ready":
            self._place(c)
        self._queue[0] = c
        opened = K.open_cascade(self._queue, 1, self._mine, self._numbers, self._state,
                                self._nb26)
        return self._finish_open(opened)

    def flag(self, cell: Sequence[int]) -> bool:
        """Toggle the flag on a selectable closed cell (a flagged cell is always selectable).

        Returns True when the cell is now flagged. Illegal actions raise
        :class:`~levelforge.InvalidMoveError` and change nothing.
        """
        what = "flag"
        self._check_running(what)
        c = self._index(cell, what)
        s = self._state[c]
        if s == K.OPEN:
            raise InvalidMoveError(f"{what}: cell {self._cell(c)} is open")
        if s == K.FLAGGED:
            self._state[c] = K.CLOSED
            self.flags -= 1
            return False
        if not self._selectable()[c]:
            raise InvalidMoveError(f"{what}: cell {self._cell(c)} is not selectable")
        self._state[c] = K.FLAGGED
        self.flags += 1
        return True

    def chord(self, cell: Sequence[int]) -> int:
        """Open the closed unflagged neighbours of an open number whose flags equal it.

        Only neighbours that are selectable when the chord is made are opened (the
        surface rule holds for chords as for :meth:`open`); a 0 among them then opens
        its 26 neighbours as usual. Returns the number of cells opened (a wrong flag can
        make this lose the game). Raises :class:`~levelforge.InvalidMoveError` when the
        cell is not open or the number of flagged neighbours differs from its number.
        """
        what = "chord"
        self._check_running(what)
        c = self._index(cell, what)
        if self._state[c] != K.OPEN:
            raise InvalidMoveError(f"{what}: cell {self._cell(c)} is not open")
        nbs = self._nb26[c]
        nbs = nbs[nbs >= 0]
        flagged = int(np.count_nonzero(self._state[nbs] == K.FLAGGED))
        if flagged != self._numbers[c]:
            raise InvalidMoveError(f"{what}: cell {self._cell(c)} shows {self._numbers[c]} "
                                   f"but has {flagged} flagged neighbours")
        closed = nbs[(self._state[nbs] == K.CLOSED) & (self._selectable()[nbs] != 0)]
        self._queue[:closed.size] = closed
        opened = K.open_cascade(self._queue, closed.size, self._mine, self._numbers,
                                self._state, self._nb26)
        return self._finish_open(opened)

    def _place(self, start):
        lv = self.level
        rng = np.array([kernel_seed(self.seed)], np.uint64)
        if self.no_guess:
            mine, numbers, self.generation, self._rating = generate(
                lv, start, rng, self.no_guess, time_limit=self.time_limit, cancel=self.cancel)
            self._mine[:] = mine
            self._numbers[:] = numbers
        else:
            K.place_mines(self._nb26, start, lv.mines, rng, self._mine, self._queue)
            K.compute_numbers(self._mine, self._nb26, self._numbers)
        self.start = self._cell(start)
        self.status = "playing"
        self._t0 = now_ns()

    # ------------------------------------------------------------------ views
    @property
    def elapsed_ms(self) -> float:
        """Milliseconds from the first open to the end of the game (or to now)."""
        if self._t0 is None:
            return 0.0
        return ((self._t1 if self._t1 is not None else now_ns()) - self._t0) / 1e6

    def observe(self) -> PublicObservation:
        """The :class:`PublicObservation` of the game (copies; no minefield)."""
        lv = self.level
        shape = (lv.depth, lv.height, lv.width)
        numbers = np.where(self._state == K.OPEN, self._numbers, -1).astype(np.int8)
        ro = PublicObservation._readonly
        return PublicObservation(
            width=lv.width, height=lv.height, depth=lv.depth, mines=lv.mines,
            state=ro(self._state.reshape(shape)),
            numbers=ro(numbers.reshape(shape)),
            selectable=ro(self._selectable().reshape(shape).astype(bool)),
            remaining_mines=lv.mines - self.flags,
            status=self.status,
        )

    def rating(self) -> BoardRating:
        """The :class:`~levelforge.mines.noguess.BoardRating` of this board (3BV, openings,
        whether and how certain moves win from the first open), once mines are placed.

        >>> game = Game("easy", seed=4)
        >>> _ = game.open((2, 2, 0))
        >>> game.rating().bbbv >= 1
        True
        """
        if self.start is None:
            raise InvalidMoveError("rating: open the first cell first (it places the mines)")
        if self._rating is None:
            x, y, z = self.start
            start = (z * self.level.height + y) * self.level.width + x
            self._rating = rate(self.level, self._mine, self._numbers, start)
        return self._rating

    def minefield(self) -> npt.NDArray[np.bool_]:
        """The mines as a bool array ``[z, y, x]``, only once the game is over.

        Raises :class:`~levelforge.InvalidMoveError` while the game is running.
        """
        if self.status not in ("won", "lost"):
            raise InvalidMoveError("minefield: only shown once the game is over")
        lv = self.level
        return self._mine.reshape(lv.depth, lv.height, lv.width).astype(bool)

    def share_code(self) -> str:
        """``seed=S&level=L&start=x,y,z`` (and ``&no_guess=1`` or ``=easy``): rebuilds this
        minefield (after the first open)."""
        if self.start is None:
            raise InvalidMoveError("share_code: open the first cell first (it fixes the mines)")
        x, y, z = self.start
        code = f"seed={self.seed}&level={self.level.name}&start={x},{y},{z}"
        if self.no_guess:
            code += "&no_guess=" + ("easy" if self.no_guess == "easy" else "1")
        return code

    @classmethod
    def from_share_code(cls, code: str) -> Game:
        """The game of a share code, restarted with only its first cell open.

        >>> Game.from_share_code("seed=3&level=hard&start=0,0,0").status
        'playing'
        """
        if not isinstance(code, str):
            raise ConfigError(f"share code must be a string, got {code!r}")
        q = parse_qs(code.strip().lstrip("?"), keep_blank_values=True, strict_parsing=False)
        keys = ("seed", "level", "start")
        missing = [k for k in keys if k not in q]
        if missing:
            raise ConfigError(f"share code {code!r} lacks {', '.join(missing)} (a share "
                              "code looks like seed=42&level=hard&start=5,5,0)")
        known = keys + ("no_guess",)
        extra = [k for k in q if k not in known] + [k for k in known if len(q.get(k, ())) > 1]
        if extra:
            raise ConfigError(f"share code {code!r}: unexpected or repeated "
                              f"{', '.join(extra)}; it holds seed, level, start and "
                              "optionally no_guess only")
        try:
            seed = int(q["seed"][0])
            start = tuple(int(v) for v in q["start"][0].split(","))
        except ValueError:
            raise ConfigError(f"share code {code!r}: seed and start must be integers") from None
        if len(start) != 3:
            raise ConfigError(f"share code {code!r}: start must be x,y,z")
        try:
            game = cls(q["level"][0], seed, check_no_guess(q.get("no_guess", ["0"])[0]))
        except ConfigError as exc:
            raise ConfigError(f"share code {code!r}: {exc}") from None
        try:
            game.open(start)
        except InvalidMoveError as exc:
            raise ConfigError(f"share code {code!r}: bad start cell: {exc}") from None
        return game

    def __repr__(self):
        ng = f", no_guess={self.no_guess!r}" if self.no_guess else ""
        return (f"Game(level={self.level.name!r}, seed={self.seed}{ng}, status={self.status!r}, "
                f"opened={self.opened}, flags={self.flags})")
