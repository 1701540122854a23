"""The mines board editor's endpoints: the no-guess answer and rating of a hand-made
board, and random boards to start from.

The page sends the whole board (size, mines as ``[x, y, z]`` cells, the first open) and
draws the answer of :func:`levelforge.mines.check_board`.

>>> import json
>>> body = {"width": 4, "height": 2, "depth": 1, "mines": [[3, 0, 0]], "start": [0, 1, 0]}
>>> answer = check(json.dumps(body).encode())
>>> answer["no_guess"], answer["numbers"][0][0]
(False, [0, 0, 1, -1])
"""
import numpy as np

from ..cells import check_cell
from ..errors import ConfigError
from ..mines import check_board, random_mines
from .query import REQUIRED, parse_body

_SIZE = {"width": (int, REQUIRED), "height": (int, REQUIRED), "depth": (int, 1)}


def _field(data, where):
    w, h, d = data["width"], data["height"], data["depth"]
    if not all(isinstance(v, int) and 1 <= v <= 32 for v in (w, h, d)):
        raise ConfigError(f"{where}: width, height and depth must be 1 to 32, got {w}x{h}x{d}")
    field = np.zeros((d, h, w), bool)
    for i, cell in enumerate(data["mines"]):
        x, y, z = check_cell(cell, (w, h, d), f"{where}: mine {i}")
        field[z, y, x] = True
    return field


def check(body):
    """``POST /api/mines/edit/check``: ``{"width", "height", "depth", "mines", "start",
    "logic"}`` to the answer of :func:`levelforge.mines.check_board`."""
    data = parse_body(body, {**_SIZE, "mines": (list, REQUIRED), "start": (list, REQUIRED),
                             "logic": (str, "full")}, "check")
    return check_board(_field(data, "check"), data["start"], data["logic"]).to_dict()


def random(body):
    """``POST /api/mines/edit/random``: ``{"width", "height", "depth", "count", "seed",
    "start"}`` to ``{"mines": [[x, y, z], ...]}`` from :func:`levelforge.mines.random_mines`."""
    data = parse_body(body, {**_SIZE, "count": (int, REQUIRED), "seed": (int, 0),
                             "start": ((list, type(None)), None)}, "random")
    field = random_mines(data["width"], data["height"], data["depth"], data["count"],
                         data["seed"], data["start"])
    return {"mines": [[int(x), int(y), int(z)] for z, y, x in zip(*np.nonzero(field))]}


def routes():
    """``(method, path, handler(request, body, state))`` of the editor's API."""
    return [("POST", "/api/mines/edit/check", lambda r, b, s: check(b)),
            ("POST", "/api/mines/edit/random", lambda r, b, s: random(b))]
