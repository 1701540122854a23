"""Replaying a LURD move string on a level.

>>> from levelforge.sokoban import Level, replay
>>> level = Level.from_xsb('######\\n#@$ .#\\n######')
>>> replay(level, 'RR').is_solved
True
"""
from __future__ import annotations

from ..errors import InvalidMoveError
from .level import Level

_STEPS = {"u": (0, -1), "l": (-1, 0), "r": (1, 0), "d": (0, 1)}


def replay(level: Level, moves: str) -> Level:
    """The level after playing ``moves`` (LURD: lower-case walks, upper-case pushes).

    Raises :class:`~levelforge.InvalidMoveError` naming the move (0-based) that walks
    into a wall, pushes a box into a wall or box, or whose case disagrees with whether
    it pushes; ``level`` itself never changes (levels are immutable).

    >>> from levelforge.sokoban import Level
    >>> replay(Level.from_xsb('#####\\n#@$.#\\n#####'), 'r')
    Traceback (most recent call last):
    ...
    levelforge.errors.InvalidMoveError: move 0 'r': pushes a box, so it must be upper-case
    """
    if not isinstance(moves, str):
        raise InvalidMoveError(f"moves must be a LURD string, not {type(moves).__name__}")
    walls = level.walls
    boxes = set(level.boxes)
    x, y = level.player
    for i, letter in enumerate(moves):
        step = _STEPS.get(letter.lower())
        if step is None:
            raise InvalidMoveError(f"move {i} {letter!r}: not one of 'lurdLURD'")
        nx, ny = x + step[0], y + step[1]
        if (nx, ny) in walls or not (0 <= nx < level.width and 0 <= ny < level.height):
            raise InvalidMoveError(f"move {i} {letter!r}: walks into a wall at {(nx, ny)}")
        if (nx, ny) in boxes:
            bx, by = nx + step[0], ny + step[1]
            if (bx, by) in walls or (bx, by) in boxes:
                raise InvalidMoveError(f"move {i} {letter!r}: the box at {(nx, ny)} is blocked")
            if letter.islower():
                raise InvalidMoveError(f"move {i} {letter!r}: pushes a box, so it must be "
                                       f"upper-case")
            boxes.remove((nx, ny))
            boxes.add((bx, by))
        elif letter.isupper():
            raise InvalidMoveError(f"move {i} {letter!r}: pushes nothing, so it must be "
                                   f"lower-case")
        x, y = nx, ny
    return level.replace(boxes=frozenset(boxes), player=(x, y))
