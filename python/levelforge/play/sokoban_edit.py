"""The Sokoban editor's endpoints: the live check of a drawn level and the improve search,
run in pieces.

The page sends its whole board each time (XSB, or run-length XSB from a share link) and
draws the answer of :func:`levelforge.sokoban.check`. Improving is a long search: the page
asks for it a piece at a time (``count`` attempts from attempt ``first`` on the best level
so far), shows the progress and each better version, and stops it by not asking for the
next piece (cancelling the request in flight stops its worker). Attempts draw from their
own seeds, so the pieces add up to one run of :func:`levelforge.sokoban.improve`.

>>> answer = check_level(b'{"xsb": "######\\\\n#@$ .#\\\\n######"}')
>>> answer["status"], answer["pushes"], answer["rle"]
('solved', 2, '6#|#@$-.#|6#')
"""
from ..errors import ConfigError
from ..sokoban import Level, check, from_rle, improve
from .query import REQUIRED, parse_body

MAX_CHECK_SECONDS = 10.0
"""Largest time limit of one live check, in seconds."""
MAX_PIECE = 200
"""Most improve attempts in one request."""
MAX_IMPROVE_NODES = 1_000_000


def _text(data, where):
    if (data["xsb"] is None) == (data["rle"] is None):
        raise ConfigError(f"{where}: give the level as one of 'xsb' or 'rle'")
    return data["xsb"] if data["rle"] is None else from_rle(data["rle"])


def check_level(body):
    """``POST /api/sokoban/edit/check``: ``{"xsb" or "rle", "time_limit"}`` to the answer of
    :func:`levelforge.sokoban.check` (with the board's run-length XSB)."""
    data = parse_body(body, {"xsb": ((str, type(None)), None), "rle": ((str, type(None)), None),
                             "time_limit": ((int, float), 2.0)}, "check")
    limit = data["time_limit"]
    if not 0 < limit <= MAX_CHECK_SECONDS:
        raise ConfigError(f"check: time_limit must be in (0, {MAX_CHECK_SECONDS:g}] seconds, "
                          f"got {limit!r}")
    return check(_text(data, "check"), time_limit=limit).to_dict()


def improve_piece(body):
    """``POST /api/sokoban/edit/improve``: ``{"xsb", "seed", "first", "count",
    "max_nodes", "criterion"}`` to the better versions found by attempts ``first`` to
    ``first + count - 1`` (each as :meth:`~levelforge.sokoban.Improvement.to_dict`) and
    the next attempt."""
    data = parse_body(body, {"xsb": (str, REQUIRED), "seed": (int, 0), "first": (int, 0),
                             "count": (int, 20), "max_nodes": (int, 100_000),
                             "criterion": (str, "pushes")}, "improve")
    if not 1 <= data["count"] <= MAX_PIECE:
        raise ConfigError(f"improve: count must be in [1, {MAX_PIECE}], got {data['count']!r}")
    if not 1 <= data["max_nodes"] <= MAX_IMPROVE_NODES:
        raise ConfigError(f"improve: max_nodes must be in [1, {MAX_IMPROVE_NODES}], "
                          f"got {data['max_nodes']!r}")
    level = Level.from_xsb(data["xsb"])
    found = improve(level, seed=data["seed"], first=data["first"], attempts=data["count"],
                    max_nodes=data["max_nodes"], criterion=data["criterion"])
    return {"found": [f.to_dict() for f in found], "next": data["first"] + data["count"]}


def routes():
    """``(method, path, handler(request, body, state))`` of the editor's API."""
    return [("POST", "/api/sokoban/edit/check", lambda r, b, s: check_level(b)),
            ("POST", "/api/sokoban/edit/improve", lambda r, b, s: improve_piece(b))]
