"""A level designer's checks: what is wrong with a drawn level, its dead squares and the
solver's verdict, a search that makes a level harder, and the run-length XSB that
Sokoban programs exchange levels in.

A drawn level may still break the rules (no player, a box too many, a hole in the outer
wall): :func:`levelforge.sokoban.check` lists every problem rather than stopping at the
first, and solves the level once it has none.

>>> from levelforge.sokoban import editor
>>> c = editor.check("######\\n#@$ .#\\n######")
>>> c.status, c.pushes, sorted(c.dead)
('solved', 2, [(1, 1)])
>>> editor.check("#####\\n#@$ #\\n#####").problems
('1 box but 0 goals',)
>>> editor.to_rle("######\\n#@$ .#\\n######")
'6#|#@$-.#|6#'
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterator, Literal

import numpy as np

from ..cancel import check_time_limit
from ..errors import ConfigError, LevelFormatError
from ..timing import ms_since, now_ns
from .enclosure import outside as _outside
from .difficulty import _reachable, dead_squares
from .level import MAX_SIDE, Level
from .solver import DEFAULT_MAX_NODES, MAX_BOXES, solve

INVALID = "invalid"
_FLOOR = " -_"
_RLE_CHARS = "#@+$*.-_ "



__all__ = ["Check", "Improvement", "check", "dead_squares", "from_rle", "improve", "to_rle"]


@dataclass(frozen=True)
class Check:
    """The answer of :func:`levelforge.sokoban.check` on a drawn level.

    ``problems`` lists every rule the level breaks (empty when it is a valid level);
    ``status`` is ``"invalid"`` then, else the solver's ``"solved"``, ``"unsolvable"``
    (proved) or ``"limit"`` (the time, the node cap or the memory was reached: unknown;
    ``limit_by`` says which, as ``SolveResult.limit_by``, and ``note`` says why when the
    solver refused the level). ``dead`` holds the floor cells from which no box can
    reach a goal (empty for an invalid level); ``nodes``, ``expanded`` and
    ``elapsed_ms`` are the solver's effort. ``xsb`` is the board as parsed.
    """

    xsb: str
    width: int
    height: int
    problems: tuple[str, ...]
    status: str
    dead: frozenset[tuple[int, int]] = frozenset()
    pushes: int | None = None
    moves: int | None = None
    solution: str | None = None
    nodes: int = 0
    expanded: int = 0
    elapsed_ms: float = 0.0
    note: str = ""
    limit_by: str | None = None

    @property
    def valid(self) -> bool:
        """True when the level breaks no rule."""
        return not self.problems

    def to_dict(self) -> dict[str, Any]:
        """The answer as a JSON-ready dict (``dead`` as ``[x, y]`` pairs, sorted)."""
        return {"xsb": self.xsb, "rle": to_rle(self.xsb) if self.xsb.strip() else "",
                "width": self.width, "height": self.height, "valid": self.valid,
                "problems": list(self.problems), "status": self.status,
                "dead": [list(c) for c in sorted(self.dead)], "pushes": self.pushes,
                "moves": self.moves, "solution": self.solution, "nodes": self.nodes,
                "expanded": self.expanded, "elapsed_ms": self.elapsed_ms, "note": self.note,
                "limit_by": self.limit_by}


def _grid(text):
    """The cells of XSB board text: (width, height, walls, goals, boxes, players)."""
    if not isinstance(text, str):
        raise ConfigError(f"a level is XSB text or a Level, not {type(text).__name__}")
    rows = _board_rows(text)
    walls, goals, boxes, players = set(), set(), set(), []
    for y, row in enumerate(rows):
        for x, ch in enumerate(row):
            cell = (x, y)
            if ch == "#":
                walls.add(cell)
            if ch in ".+*":
                goals.add(cell)
            if ch in "$*":
                boxes.add(cell)
            if ch in "@+":
                players.append(cell)
    width = max((len(r) for r in rows), default=0)
    return width, len(rows), walls, goals, boxes, players


def _problems(width, height, walls, goals, boxes, players):
    out = []
    if not (1 <= width <= MAX_SIDE and 1 <= height <= MAX_SIDE):
        return [f"the level is {width}x{height}; the limit is {MAX_SIDE}x{MAX_SIDE}"]
    if len(players) != 1:
        out.append("no player" if not players else f"{len(players)} players, expected one")
    if not boxes:
        out.append("no boxes")
    if len(boxes) != len(goals):
        out.append(f"{len(boxes)} box{'es' if len(boxes) != 1 else ''} but "
                   f"{len(goals)} goal{'s' if len(goals) != 1 else ''}")
    outside = _outside(width, height, walls)
    for name, cells in (("player", players), ("box", boxes), ("goal", goals)):
        loose = sorted(c for c in cells if c in outside)
        if loose:
            out.append(f"{name} at {loose[0]} is not enclosed by walls"
                       + (f" (and {len(loose) - 1} more)" if len(loose) > 1 else ""))
    return out


def check(level: Level | str, time_limit: float = 2.0,
          max_nodes: int = DEFAULT_MAX_NODES) -> Check:
    """Check a drawn level (a :class:`levelforge.sokoban.Level` or XSB board text): its
    problems, its dead squares and the push-optimal solver's verdict within ``time_limit``
    seconds and ``max_nodes`` stored states (``limit`` when either runs out, never
    "unsolvable").

    >>> c = check("#######\\n#@ $ .#\\n#######")
    >>> c.valid, c.status, c.pushes, c.solution
    (True, 'solved', 2, 'rRR')
    >>> check("####\\n#@ #\\n####").problems
    ('no boxes',)
    """
    start = now_ns()
    time_limit = check_time_limit(time_limit)
    text = "\n".join(level.rows()) if isinstance(level, Level) else level
    width, height, walls, goals, boxes, players = _grid(text)
    xsb = "\n".join(_board_rows(text))
    problems = tuple(_problems(width, height, walls, goals, boxes, players))
    if problems:
        return Check(xsb, width, height, problems, INVALID, elapsed_ms=ms_since(start))
    parsed = Level(width, height, frozenset(walls), frozenset(goals), frozenset(boxes),
                   players[0])
    xsb = "\n".join(parsed.rows())
    dead = dead_squares(parsed)
    if len(parsed.boxes) > MAX_BOXES:
        return Check(xsb, width, height, (), "limit", dead, elapsed_ms=ms_since(start),
                     note=f"the solver handles at most {MAX_BOXES} boxes")
    if time_limit is not None:  # the limit covers the whole check, not the search alone
        time_limit = max(1e-3, time_limit - (now_ns() - start) / 1e9)
    r = solve(parsed, max_nodes=max_nodes, time_limit=time_limit)
    return Check(xsb, width, height, (), r.status, dead, r.pushes, r.moves, r.solution,
                 r.nodes, r.expanded, ms_since(start), limit_by=r.limit_by)


# --------------------------------------------------------------------------- RLE
def to_rle(level: Level | str) -> str:
    """The level's board in run-length XSB: a count before a character repeats it, floor
    is ``-``, rows are separated by ``|`` (as YSokoban, JSoko and Sokoban YASC share it).

    >>> to_rle("#####\\n#@$.#\\n#####")
    '5#|#@$.#|5#'
    """
    rows = level.rows() if isinstance(level, Level) else _board_rows(level)
    out = []
    for row in rows:
        row = row.rstrip()
        runs, i = [], 0
        while i < len(row):
            j = i
            while j < len(row) and row[j] == row[i]:
                j += 1
            ch = "-" if row[i] in _FLOOR else row[i]
            runs.append((str(j - i) if j - i > 1 else "") + ch)
            i = j
        out.append("".join(runs))
    return "|".join(out)


def _board_rows(text):
    if not isinstance(text, str):
        raise ConfigError(f"a level is XSB text or a Level, not {type(text).__name__}")
    rows = [r.rstrip() for r in text.replace("\r\n", "\n").replace("\r", "\n").split("\n")]
    for y, row in enumerate(rows):
        for x, ch in enumerate(row):
            if ch not in "#@+$*." + _FLOOR:
                raise LevelFormatError(f"unknown character {ch!r}", y + 1, x + 1)
    while rows and not rows[-1]:
        rows.pop()
    while rows and not rows[0]:
        rows.pop(0)
    return rows


def from_rle(text: str) -> str:
    """XSB board text (floor as spaces) from run-length XSB: ``|`` or a line break ends a
    row, a count repeats the next character or parenthesised group.

    >>> print(from_rle("5#|#@$.#|5#"))
    #####
    #@$.#
    #####
    >>> from_rle("3(#-)")
    '# # #'
    """
    if not isinstance(text, str):
        raise ConfigError(f"from_rle() takes a str, not {type(text).__name__}")
    flat, end = _expand(text.strip(), 0, 0)
    if end != len(text.strip()):
        raise LevelFormatError(f"unmatched ')' at column {end + 1} of the run-length text")
    rows = [r.replace("-", " ").replace("_", " ").rstrip() for r in flat.split("|")]
    while rows and not rows[-1]:
        rows.pop()
    if sum(len(r) for r in rows) > MAX_SIDE * MAX_SIDE:
        raise LevelFormatError(f"the run-length text expands past {MAX_SIDE}x{MAX_SIDE} cells")
    return "\n".join(rows)


def _expand(text, i, depth):
    """Expand ``text`` from index ``i`` up to a closing parenthesis (or the end)."""
    out, count = [], ""
    while i < len(text):
        ch = text[i]
        if ch.isdigit():
            count += ch
            i += 1
            continue
        n = int(count) if count else 1
        if n > MAX_SIDE * MAX_SIDE:
            raise LevelFormatError(f"run of {n} at column {i + 1}: too long for a level")
        count = ""
        if ch == "(":
            inner, i = _expand(text, i + 1, depth + 1)
            if i >= len(text):
                raise LevelFormatError("a '(' of the run-length text is never closed")
            out.append(inner * n)
        elif ch == ")":
            return "".join(out), i  # at depth 0 the caller reports it unmatched
        elif ch in "|\n":
            out.append("|")
        elif ch in _RLE_CHARS or ch == "\r":
            out.append("" if ch == "\r" else ch * n)
        else:
            raise LevelFormatError(f"unknown character {ch!r} at column {i + 1} of the "
                                   "run-length text")
        if sum(map(len, out)) > 2 * MAX_SIDE * MAX_SIDE:
            raise LevelFormatError(f"the run-length text expands past {MAX_SIDE}x{MAX_SIDE} "
                                   "cells")
        i += 1
    if count:
        raise LevelFormatError("the run-length text ends with a count and no character")
    return "".join(out), i


# ----------------------------------------------------------------------- improve
@dataclass(frozen=True)
class Improvement:
    """A better version found by :func:`levelforge.sokoban.improve`: the level, its
    push-optimal solution and the solver's effort, and the attempt that found it."""

    level: Level
    pushes: int
    moves: int
    solution: str
    nodes: int
    attempt: int
    score: tuple[int, int] = field(repr=False, default=(0, 0))

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (the level as XSB board rows)."""
        return {"xsb": "\n".join(self.level.rows()), "pushes": self.pushes,
                "moves": self.moves, "solution": self.solution, "nodes": self.nodes,
                "attempt": self.attempt}


def _score(result, criterion):
    return (result.pushes, result.nodes) if criterion == "pushes" else \
        (result.nodes, result.pushes)


def _mutate(level, floor, rng):
    """``level`` with one to three of its boxes, goals or player moved to random floor
    cells of the player's area (``floor``, a sorted list); None when the move is blocked."""
    boxes, goals, player = set(level.boxes), set(level.goals), level.player
    cells = set(floor)
    for _ in range(int(rng.integers(1, 4))):
        kind = int(rng.integers(0, 5))  # two in five: a box, two: a goal, one: the player
        to = floor[int(rng.integers(0, len(floor)))]
        if kind == 4:
            if to in boxes:
                return None
            player = to
            continue
        group = boxes if kind < 2 else goals
        movable = sorted(c for c in group if c in cells)
        if not movable or to in group or (kind < 2 and to == player):
            return None
        group.remove(movable[int(rng.integers(0, len(movable)))])
        group.add(to)
    return level.replace(boxes=frozenset(boxes), goals=frozenset(goals), player=player,
                         title="", comments=())


def improve(level: Level, *, seed: int = 0, attempts: int = 200, first: int = 0,
            max_nodes: int = 100_000,
            criterion: Literal["pushes", "effort"] = "pushes") -> Iterator[Improvement]:
    """Search for harder versions of a solved ``level`` with the same walls, as YASGen
    does: each attempt moves one to three boxes, goals or the player of the best level so
    far and keeps the result when the push-optimal solver (capped at ``max_nodes``
    states; a capped or unsolvable candidate is dropped) finds it harder: more pushes
    (ties: more solver effort) for ``criterion="pushes"``, more stored states (ties: more
    pushes) for ``"effort"``. Yields each better version as it is found.

    Attempt ``k`` draws from ``SeedSequence([seed, k])``, so a run of attempts
    ``first .. first + attempts - 1`` started from the level the previous run ended with
    continues the same search: split a long run into pieces (as the play page does) and
    get the same levels.

    >>> start = Level.from_xsb("########\\n#@$   .#\\n#      #\\n#  $  .#\\n#      #\\n########")
    >>> [(f.attempt, f.pushes) for f in improve(start, seed=1, attempts=100)]
    [(23, 7), (33, 9), (41, 9), (60, 10)]
    """
    if not isinstance(level, Level):
        raise ConfigError(f"improve() takes a sokoban Level, not {type(level).__name__}")
    for name, value, lo in (("seed", seed, 0), ("attempts", attempts, 0), ("first", first, 0)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < lo:
            raise ConfigError(f"{name} must be an integer >= {lo}, got {value!r}")
    if criterion not in ("pushes", "effort"):
        raise ConfigError(f"criterion must be 'pushes' or 'effort', got {criterion!r}")
    best = solve(level, max_nodes=max_nodes)
    if not best.solved:
        raise ConfigError(f"improve() starts from a solved level; the solver's answer for "
                          f"this one is {best.status} (within {max_nodes} states)")
    score = _score(best, criterion)
    walls, _, _, player = level.arrays()
    inside = _reachable(walls, level.width, player)
    floor = sorted((int(c) % level.width, int(c) // level.width) for c in np.flatnonzero(inside))
    for k in range(first, first + attempts):
        rng = np.random.default_rng(np.random.SeedSequence([int(seed), k]))
        candidate = _mutate(level, floor, rng)
        if candidate is None or candidate.is_solved:
            continue
        r = solve(candidate, max_nodes=max_nodes)
        if r.solved and _score(r, criterion) > score:
            level, score = candidate, _score(r, criterion)
            yield Improvement(level, r.pushes, r.moves, r.solution, r.nodes, k, score)
