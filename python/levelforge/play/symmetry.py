"""Symmetry puzzles in the browser: puzzles from their source, strokes judged here.

A puzzle comes from ``size``, ``seed`` and ``strategy`` (or an item of the opened file);
the browser gets both boards drawn (:func:`levelforge.symmetry.svg.board_svg`) and their
conditions, but not the answer unless it asks (``solution=1``). A stroke is judged by
:func:`levelforge.symmetry.judge`, which names the broken rule and where.

>>> p = puzzle_data(generated(5, 1, None))
>>> sorted(k for k in p if k.startswith("svg")), "solution" in p
(['svg_a', 'svg_b'], False)
"""
from ..errors import ConfigError
from ..symmetry import Board, Puzzle, generate, judge
from ..symmetry.board import mirror_point
from ..symmetry.svg import board_svg
from .query import REQUIRED, Query, parse_body, parse_int

CELL = 56
"""Pixels between lattice points on the boards the page draws on."""
_GENERATE = ("size", "seed", "strategy", "solution")


_MADE = {}
_KEEP = 32


def generated(size, seed, strategy, time_limit=None, cancel=None):
    """The puzzle of ``(size, seed, strategy)`` (the last 32 are kept: 9x9 puzzles take
    a second); ``time_limit`` and ``cancel`` stop the generator."""
    key = (size, seed, strategy)
    puzzle = _MADE.pop(key, None)
    if puzzle is None:
        puzzle = generate(size, seed, strategy, time_limit=time_limit, cancel=cancel)
        if len(_MADE) >= _KEEP:
            del _MADE[next(iter(_MADE))]
    _MADE[key] = puzzle  # the newest last
    return puzzle


def puzzle_data(puzzle, source=None, with_solution=False):
    """The JSON the page draws: both boards (conditions and SVG), figures, seed."""
    data = {"source": source, "size": puzzle.size, "seed": puzzle.seed,
            "strategy": puzzle.strategy, "board_a": puzzle.board_a.to_dict(),
            "board_b": puzzle.board_b.to_dict(), "difficulty": puzzle.difficulty,
            "elapsed_ms": puzzle.elapsed_ms,
            "svg_a": board_svg(puzzle.board_a, cell=CELL, label="board A"),
            "svg_b": board_svg(puzzle.board_b, cell=CELL, label="board B (mirror of A)")}
    if with_solution:
        data["solution"] = [list(p) for p in puzzle.solution]
    return data


def _flag(query, name):
    value = query.text(name, "0")
    if value not in ("0", "1"):
        raise ConfigError(f"{query.where}: parameter {name!r} must be 0 or 1, got {value!r}")
    return value == "1"


def puzzle_generated(query, time_limit=None, cancel=None):
    """``GET /api/symmetry/generate?size=&seed=&strategy=`` (``solution=1`` adds it)."""
    size, seed = query.int("size", 7), query.int("seed")
    strategy = query.text("strategy", None)
    strategy = None if strategy in (None, "", "random") else strategy.upper()
    source = {"kind": "generate", "size": size, "seed": seed, "strategy": strategy}
    return puzzle_data(generated(size, seed, strategy, time_limit, cancel), source,
                       _flag(query, "solution"))


def puzzle_from_file(opened, query, item):
    """``GET /api/symmetry/file/{item}``: puzzle ``item`` of the opened file."""
    if opened is None:
        raise ConfigError("levelforge play was started without a puzzle file")
    item = parse_int(item, f"{opened.name} item")
    source = {"kind": "file", "item": item, "title": f"{opened.name} {opened.titles[item]}"
              if 0 <= item < opened.count else None}
    return puzzle_data(opened.puzzle(item), source, _flag(query, "solution"))


def check(body):
    """``POST /api/symmetry/check``: ``{"size", "board_a", "board_b", "path"}`` to the
    verdict, with the stroke as mirrored on B."""
    data = parse_body(body, {"size": (int, REQUIRED), "board_a": (dict, REQUIRED),
                             "board_b": (dict, REQUIRED), "path": (list, REQUIRED)}, "check")
    size = data["size"]
    puzzle = Puzzle(size, Board.from_dict(size, data["board_a"], "board_a"),
                    Board.from_dict(size, data["board_b"], "board_b"))
    if len(data["path"]) > size * size + 1:
        raise ConfigError(f"check: a stroke on a {size}x{size} board has at most "
                          f"{size * size} points, got {len(data['path'])}")
    verdict = judge(puzzle, [tuple(p) if isinstance(p, list) else p for p in data["path"]])
    mirrored = [list(mirror_point(tuple(p), size)) for p in data["path"]]
    return {**verdict.to_dict(), "mirrored": mirrored}


def routes():
    """``(method, path, handler(request, body, state))`` of the symmetry API."""
    return [
        ("GET", "/api/symmetry/generate",
         lambda r, b, s: puzzle_generated(Query(r.query_params, _GENERATE, r.url.path),
                                          s.time_limit, s.cancel)),
        ("GET", "/api/symmetry/file/{item}", lambda r, b, s: puzzle_from_file(
            s.opened, Query(r.query_params, ("solution",), r.url.path),
            r.path_params["item"])),
        ("POST", "/api/symmetry/check", lambda r, b, s: check(b)),
    ]
