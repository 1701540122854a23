"""The symmetry editor's endpoints: the live answer on the designer's two boards and the
finishing step.

The page sends both boards whole (``{"size", "board_a", "board_b"}``, as
:meth:`levelforge.symmetry.Board.to_dict`) and draws the boards it gets back, with the
second solution (or the only one) as the stroke.

>>> import json
>>> body = json.dumps({"size": 3, "board_a": {"start": [0, 0], "goal": [2, 0]},
...                    "board_b": {"start": [2, 0], "goal": [0, 0]}}).encode()
>>> answer = check_boards(body)
>>> answer["status"], len(answer["solutions"]), answer["drawn"] == answer["solutions"][1]
('several', 2, True)
"""
from ..errors import ConfigError
from ..symmetry import Board, Puzzle, check, finish
from ..symmetry.board import mirror_point
from ..symmetry.svg import board_svg
from .query import REQUIRED, parse_body
from .symmetry import CELL

MAX_NODES = 5_000_000
"""The counting search's cap for one live answer."""


def _puzzle(data, where):
    size = data["size"]
    if not 3 <= size <= 9:
        raise ConfigError(f"{where}: size must be in [3, 9], got {size!r}")
    return Puzzle(size, Board.from_dict(size, data["board_a"], "board_a"),
                  Board.from_dict(size, data["board_b"], "board_b"))


def _answer(puzzle, extra=None):
    answer = check(puzzle, max_nodes=MAX_NODES)
    drawn = answer.solutions[1] if answer.status == "several" else \
        answer.solutions[0] if answer.status == "unique" else ()
    n = puzzle.size
    kept = Puzzle(n, puzzle.board_a, puzzle.board_b,
                  solution=drawn if answer.status == "unique" else ())
    return {**answer.to_dict(), **(extra or {}), "size": n,
            "jsonl": kept.to_json(include_timings=False),
            "board_a": puzzle.board_a.to_dict(), "board_b": puzzle.board_b.to_dict(),
            "drawn": [list(p) for p in drawn],
            "svg_a": board_svg(puzzle.board_a, drawn, cell=CELL, label="board A"),
            "svg_b": board_svg(puzzle.board_b, [mirror_point(p, n) for p in drawn], cell=CELL,
                               label="board B (mirror of A)")}


_FIELDS = {"size": (int, REQUIRED), "board_a": (dict, REQUIRED), "board_b": (dict, REQUIRED)}


def check_boards(body):
    """``POST /api/symmetry/edit/check``: both boards to the answer of
    :func:`levelforge.symmetry.check`, the boards drawn with the stroke to look at."""
    return _answer(_puzzle(parse_body(body, _FIELDS, "check"), "check"))


def finish_boards(body):
    """``POST /api/symmetry/edit/finish``: both boards and ``seed`` to the puzzle finished
    by :func:`levelforge.symmetry.finish` (what it changed included), answered as a check."""
    data = parse_body(body, {**_FIELDS, "seed": (int, 0)}, "finish")
    done = finish(_puzzle(data, "finish"), seed=data["seed"])
    changes = {k: v for k, v in done.to_dict().items()
               if k in ("forbidden_added", "required_added", "required_dropped", "rounds")}
    return _answer(done.puzzle, {"finished": changes})


def routes():
    """``(method, path, handler(request, body, state))`` of the editor's API."""
    return [("POST", "/api/symmetry/edit/check", lambda r, b, s: check_boards(b)),
            ("POST", "/api/symmetry/edit/finish", lambda r, b, s: finish_boards(b))]
