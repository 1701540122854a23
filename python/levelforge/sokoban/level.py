"""Sokoban levels and the XSB text format.

XSB characters: ``#`` wall, ``@`` player, ``+`` player on goal, ``$`` box, ``*`` box on
goal, ``.`` goal, and floor as space, ``-`` or ``_``. A collection is boards separated by
text lines: ``;`` comments and title lines such as ``'The Dungeon'``. The last ``;``
line above a board is its title (as in Microban: ``; 12``); the other text lines above
it are its comments.

>>> level = Level.from_xsb('''
... #####
... #@$.#
... #####''')
>>> level.width, level.height, sorted(level.boxes), level.player
(5, 3, [(2, 1)], (1, 1))
>>> Level.from_xsb(level.to_xsb()) == level
True
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field, replace as _replace
from typing import Any, Iterable

import numpy as np
import numpy.typing as npt

from ..errors import LevelFormatError
from ..textfile import read_text
from .enclosure import outside

MAX_SIDE = 64
"""Largest accepted width and height of a level, in cells."""

_BOARD_CHARS = frozenset("#@+$*. -_")
_FLOORS = frozenset(" -_")


@dataclass(frozen=True)
class Level:
    """A Sokoban level: walls, goals, boxes and the player, as sets of ``(x, y)`` cells.

    Construction validates the level (:class:`~levelforge.LevelFormatError`): exactly one
    player, as many boxes as goals and at least one, every player, box and goal enclosed
    by walls, no box or player inside a wall, sides at most :data:`~levelforge.sokoban.level.MAX_SIDE`.

    >>> Level(3 + 2, 3, walls=frozenset({(x, y) for x in range(5) for y in (0, 2)}
    ...       | {(0, 1), (4, 1)}), goals=frozenset({(3, 1)}), boxes=frozenset({(2, 1)}),
    ...       player=(1, 1)).to_xsb()
    '#####\\n#@$.#\\n#####\\n'
    """

    width: int
    height: int
    walls: frozenset[tuple[int, int]]
    goals: frozenset[tuple[int, int]]
    boxes: frozenset[tuple[int, int]]
    player: tuple[int, int]
    title: str = ""
    comments: tuple[str, ...] = field(default=())

    def __post_init__(self):
        object.__setattr__(self, "walls", frozenset(self.walls))
        object.__setattr__(self, "goals", frozenset(self.goals))
        object.__setattr__(self, "boxes", frozenset(self.boxes))
        object.__setattr__(self, "player", tuple(self.player))
        object.__setattr__(self, "comments", tuple(self.comments))
        _validate(self, lambda cell=None: (None, None))

    # ----------------------------------------------------------------- XSB
    @classmethod
    def from_xsb(cls, text: str) -> Level:
        """Parse one level from XSB text (title and comment lines allowed above the board).

        Raises :class:`~levelforge.LevelFormatError` naming line and column on bad input,
        or if the text holds no board or several.
        """
        levels = _parse_collection(text)
        if len(levels) != 1:
            raise LevelFormatError(f"expected one level, found {len(levels)}")
        return levels[0]

    def to_xsb(self) -> str:
        """The level as XSB text: comments, then ``; title``, then the board rows.

        Outside floor and inside floor are both written as spaces; trailing spaces are
        trimmed. ``Level.from_xsb(level.to_xsb()) == level`` always holds.
        """
        lines = [f"; {c}" if c else ";" for c in self.comments]
        if self.title or self.comments:
            lines.append(f"; {self.title}" if self.title else ";")
            lines.append("")
        lines.extend(self.rows())
        return "\n".join(lines) + "\n"

    def rows(self) -> list[str]:
        """The board rows as XSB strings (trailing spaces trimmed)."""
        grid = [[" "] * self.width for _ in range(self.height)]
        for x, y in self.walls:
            grid[y][x] = "#"
        for x, y in self.goals:
            grid[y][x] = "."
        for x, y in self.boxes:
            grid[y][x] = "*" if (x, y) in self.goals else "$"
        px, py = self.player
        grid[py][px] = "+" if self.player in self.goals else "@"
        return ["".join(row).rstrip() for row in grid]

    # -------------------------------------------------------------- arrays
    @classmethod
    def from_arrays(cls, width: int, height: int, walls: npt.ArrayLike, goals: npt.ArrayLike,
                    boxes: npt.ArrayLike, player: int, title: str = "",
                    comments: Iterable[str] = ()) -> Level:
        """Build a level from flat arrays of ``height * width`` cells (cell ``y*width+x``).

        ``walls``, ``goals``, ``boxes`` are nonzero where the cell holds one; ``player``
        is the player's flat cell index.
        """
        def cells(a):
            return frozenset((int(i) % width, int(i) // width) for i in np.flatnonzero(a))

        return cls(int(width), int(height), cells(walls), cells(goals), cells(boxes),
                   (int(player) % width, int(player) // width), title, tuple(comments))

    def arrays(self) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.uint8],
                              npt.NDArray[np.uint8], int]:
        """Fresh flat ``uint8`` arrays ``(walls, goals, boxes)`` and the player's cell index."""
        out = []
        for cells in (self.walls, self.goals, self.boxes):
            a = np.zeros(self.width * self.height, np.uint8)
            for x, y in cells:
                a[y * self.width + x] = 1
            out.append(a)
        return out[0], out[1], out[2], self.player[1] * self.width + self.player[0]

    @property
    def is_solved(self) -> bool:
        """True when every box stands on a goal."""
        return self.boxes == self.goals

    def replace(self, **changes: Any) -> Level:
        """A copy with some fields changed (validated like any new level)."""
        return _replace(self, **changes)

    def to_svg(self, cell: float = 32) -> str:
        """The level as an SVG picture, ``cell`` pixels a square (see ``levelforge.sokoban.svg``).

        >>> Level.from_xsb('#####\\n#@$.#\\n#####').to_svg(cell=8)[:4]
        '<svg'
        """
        from .svg import level_svg
        return level_svg(self, cell)

    def _repr_svg_(self):
        return self.to_svg()


def read_xsb(text: str) -> list[Level]:
    """Read a collection of levels from XSB text (a ``str``).

    Text is always text: to read a file, use :func:`load_xsb`. Raises
    :class:`~levelforge.LevelFormatError` on bad input, including text that holds no level.

    >>> text = '; one\\n#####\\n#@$.#\\n#####\\n; two\\n#####\\n#.$@#\\n#####'
    >>> [lv.title for lv in read_xsb(text)]
    ['one', 'two']
    """
    if not isinstance(text, str):
        hint = " (use load_xsb(path) to read a file)" if isinstance(text, os.PathLike) else ""
        raise TypeError(f"read_xsb takes XSB text, not {type(text).__name__}{hint}")
    return _parse_collection(text)


def load_xsb(path: str | os.PathLike[str]) -> list[Level]:
    """Read a collection of levels from an XSB file (UTF-8, with or without a byte-order mark).

    Raises :class:`~levelforge.LevelFormatError` if the file cannot be read, is not UTF-8
    text, or holds no valid level; the message names the file.

    >>> from levelforge.sokoban import collections
    >>> len(load_xsb(collections.path("microban")))
    155
    """
    text = read_text(path, caller="load_xsb")
    try:
        return _parse_collection(text)
    except LevelFormatError as exc:
        raise exc.in_file(os.fspath(path)) from None


def write_xsb(levels: Iterable[Level]) -> str:
    """XSB text of a collection: each level's :meth:`Level.to_xsb`, a blank line between."""
    return "\n".join(level.to_xsb() for level in levels)


# --------------------------------------------------------------------- parsing
def _is_board_line(line):
    stripped = line.strip()
    if not stripped or stripped[0] == ";":
        return False
    return line.lstrip(" -_")[:1] in ("#", "@", "+", "$", "*", ".")


def _parse_collection(text):
    if text.startswith("\ufeff"):  # a UTF-8 byte-order mark is not part of the board
        text = text[1:]
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    levels = []
    notes = []  # text lines since the previous board
    i = 0
    while i < len(lines):
        if not _is_board_line(lines[i]):
            stripped = lines[i].strip()
            if stripped:
                notes.append(stripped)
            i += 1
            continue
        first = i
        while i < len(lines) and _is_board_line(lines[i]):
            i += 1
        levels.append(_parse_board(lines[first:i], first + 1, notes))
        notes = []
    if not levels:
        raise LevelFormatError("no level found: no line starts with a board character such as '#'")
    return levels


def _title_and_comments(notes):
    titles = [k for k, n in enumerate(notes) if n.startswith(";")]
    if not titles:
        return "", tuple(notes)
    k = titles[-1]
    title = notes[k][1:].strip()
    comments = [n[1:].strip() if n.startswith(";") else n for j, n in enumerate(notes) if j != k]
    return title, tuple(comments)


def _parse_board(rows, first_line, notes):
    walls, goals, boxes, players = set(), set(), set(), []
    for y, row in enumerate(rows):
        row = row.rstrip()
        for x, ch in enumerate(row):
            if ch not in _BOARD_CHARS:
                raise LevelFormatError(f"unknown character {ch!r}", first_line + y, x + 1)
            if ch == "#":
                walls.add((x, y))
            if ch in ".+*":
                goals.add((x, y))
            if ch in "$*":
                boxes.add((x, y))
            if ch in "@+":
                players.append((x, y))
    width = max(len(r.rstrip()) for r in rows)
    height = len(rows)

    def where(cell=None):  # a cell's (line, column); the board's first line for None
        return (first_line, None) if cell is None else (first_line + cell[1], cell[0] + 1)

    if len(players) != 1:
        if not players:
            raise LevelFormatError("no player ('@' or '+') in the level", first_line)
        raise LevelFormatError(f"{len(players)} players in the level, expected one",
                               *where(players[1]))
    title, comments = _title_and_comments(notes)
    probe = _Unchecked(width, height, walls, goals, boxes, players[0])
    _validate(probe, where)
    return Level(width, height, frozenset(walls), frozenset(goals), frozenset(boxes),
                 players[0], title, comments)


@dataclass
class _Unchecked:
    width: int
    height: int
    walls: set
    goals: set
    boxes: set
    player: tuple


def _validate(level, where):
    """Raise LevelFormatError for the first rule ``level`` breaks; ``where`` maps a cell
    to (line, column) for messages, and no cell to the board's first line."""
    w, h = level.width, level.height
    if not (1 <= w <= MAX_SIDE and 1 <= h <= MAX_SIDE):
        raise LevelFormatError(f"level is {w}x{h}; the limit is {MAX_SIDE}x{MAX_SIDE}",
                               *where())
    for name, cells in (("wall", level.walls), ("goal", level.goals), ("box", level.boxes),
                        ("player", [level.player])):
        for cell in cells:
            if len(cell) != 2 or not (0 <= cell[0] < w and 0 <= cell[1] < h):
                raise LevelFormatError(f"{name} at {cell} is outside the {w}x{h} grid")
    for cell in sorted(level.boxes):
        if cell in level.walls:
            raise LevelFormatError(f"box at {cell} is inside a wall", *where(cell))
    if level.player in level.walls:
        raise LevelFormatError(f"player at {level.player} is inside a wall", *where(level.player))
    if level.player in level.boxes:
        raise LevelFormatError(f"player at {level.player} stands on a box", *where(level.player))
    if not level.boxes:
        raise LevelFormatError("the level has no boxes", *where())
    if len(level.boxes) != len(level.goals):
        raise LevelFormatError(f"{len(level.boxes)} box{'es' if len(level.boxes) != 1 else ''} but "
                               f"{len(level.goals)} goal{'s' if len(level.goals) != 1 else ''}",
                               *where())
    off_board = outside(w, h, level.walls)
    for name, cells in (("player", [level.player]), ("box", sorted(level.boxes)),
                        ("goal", sorted(level.goals))):
        for cell in cells:
            if cell in off_board:
                raise LevelFormatError(f"{name} at {cell} is not enclosed by walls", *where(cell))
