"""The Boxoban text format: DeepMind's Sokoban sets for reinforcement learning.

A Boxoban file holds levels as ``; N`` (the level's number) then the board rows, a blank
line between levels, 1,000 levels a file. The board characters are XSB's (``#`` wall,
``@`` player, ``$`` box, ``.`` goal, space floor; ``*`` and ``+`` where a box or the player
starts on a goal), so a Boxoban file is also an XSB collection; :func:`read_boxoban`
checks the Boxoban layout on top: every board has its ``; N`` line.

>>> levels = read_boxoban('; 0\\n#####\\n#@$.#\\n#####\\n\\n; 1\\n#####\\n#.$@#\\n#####\\n')
>>> [lv.title for lv in levels], levels[1].player
(['0', '1'], (3, 1))
>>> read_boxoban(boxoban_text(levels)) == levels
True
"""
from __future__ import annotations

import os
import re

from ..errors import LevelFormatError
from ..textfile import read_text
from .level import Level, _is_board_line, read_xsb

_NUMBER = re.compile(r"^;\s*(\d+)\s*$")


def read_boxoban(text: str) -> list[Level]:
    """Read the levels of Boxoban text (a ``str``); level titles are their numbers.

    Raises :class:`~levelforge.LevelFormatError` naming the line of a board that has no
    ``; N`` line above it, or of any board error :func:`read_xsb` reports.

    >>> read_boxoban('#####\\n#@$.#\\n#####')
    Traceback (most recent call last):
    ...
    levelforge.errors.LevelFormatError: line 1: a Boxoban board must follow its '; N' line
    """
    if not isinstance(text, str):
        hint = " (use load_boxoban(path) to read a file)" if isinstance(text, os.PathLike) else ""
        raise TypeError(f"read_boxoban takes Boxoban text, not {type(text).__name__}{hint}")
    lines = text.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n").split("\n")
    last_text = None  # the last non-blank, non-board line before the current board
    in_board = False
    for number, line in enumerate(lines, 1):
        if _is_board_line(line):
            if not in_board and (last_text is None or not _NUMBER.match(last_text)):
                raise LevelFormatError("a Boxoban board must follow its '; N' line", number)
            in_board = True
            last_text = None
        else:
            in_board = False
            if line.strip():
                last_text = line.strip()
    return read_xsb(text)


def load_boxoban(path: str | os.PathLike[str]) -> list[Level]:
    """Read the levels of a Boxoban file (UTF-8); errors name the file.

    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "000.txt")
    >>> with open(path, "w") as fh:
    ...     _ = fh.write('; 0\\n#####\\n#@$.#\\n#####\\n')
    >>> [lv.title for lv in load_boxoban(path)]
    ['0']
    """
    text = read_text(path, caller="load_boxoban")
    try:
        return read_boxoban(text)
    except LevelFormatError as exc:
        raise exc.in_file(os.fspath(path)) from None


def boxoban_record(number, level):
    """One level in Boxoban's layout: ``; number``, the rows (full width), a blank line."""
    rows = "\n".join(row.ljust(level.width) for row in level.rows())
    return f"; {number}\n{rows}\n\n"


def boxoban_text(levels, start=0):
    """Boxoban text of ``levels``, numbered from ``start``."""
    return "".join(boxoban_record(start + k, level) for k, level in enumerate(levels))
