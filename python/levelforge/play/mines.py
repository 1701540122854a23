"""HyperMines 3D in the browser: the server holds each :class:`~levelforge.mines.Game`
and answers with its :class:`~levelforge.mines.PublicObservation` only.

The minefield stays here while the game runs: a view is built from ``game.observe()``
(cell states, revealed numbers, the selectable mask, counts) and from the share code,
and only a finished game adds its minefield and its rating. Hints come from the
:class:`~levelforge.mines.Assistant`, which itself sees only the observation: with the
design's caps on an ordinary board, complete on a no-guess board (``no_guess=1`` or
``easy``), whose promise is that certain moves win from the first open.

>>> from levelforge.mines import Game
>>> game = Game("easy", seed=3)
>>> sorted(view(game))[:6]
['depth', 'elapsed_ms', 'height', 'level', 'mines', 'no_guess']
>>> "minefield" in view(game)
False
"""
import math
from contextlib import contextmanager

from ..errors import ConfigError, InvalidMoveError
from ..mines import Assistant, Game
from .query import REQUIRED, Query, parse_body

_ASSISTANT = Assistant()
_COMPLETE = Assistant(complete=True)
_NEW = ("level", "seed", "start", "no_guess")


def view(game):
    """The JSON a page draws: public arrays (flat, ``[z, y, x]`` order) and counts; the
    minefield only once the game is over."""
    obs = game.observe()
    lv = game.level
    data = {"level": lv.name, "width": lv.width, "height": lv.height, "depth": lv.depth,
            "mines": lv.mines, "seed": game.seed, "status": obs.status,
            "state": obs.state.ravel().tolist(), "numbers": obs.numbers.ravel().tolist(),
            "selectable": obs.selectable.ravel().astype(int).tolist(),
            "remaining_mines": obs.remaining_mines, "elapsed_ms": round(game.elapsed_ms, 1),
            "no_guess": game.no_guess,
            "start": None if game.start is None else list(game.start),
            "share": None if game.start is None else game.share_code()}
    if obs.status in ("won", "lost"):
        data["minefield"] = game.minefield().ravel().astype(int).tolist()
        data["exploded"] = None if game.exploded is None else list(game.exploded)
        data["rating"] = game.rating().to_dict()
    return data


def new_game(games, query, time_limit=None, cancel=None):
    """``GET /api/mines/new?level=&seed=[&start=x,y,z][&no_guess=0|1|easy]``: a new game
    (with its first cell opened when ``start`` is given, as a share link rebuilds it). A
    no-guess board is placed within ``time_limit`` seconds (``cancel`` stops it); one that
    cannot be made answers the library's :class:`~levelforge.GenerationError`."""
    level, seed = query.text("level", "normal"), query.int("seed")
    start, no_guess = query.text("start", None), query.text("no_guess", "0")
    if start is None:
        game = Game(level, seed, no_guess)
    else:  # the share code's own checks and messages
        game = Game.from_share_code(f"seed={seed}&level={level}&start={start}"
                                    f"&no_guess={no_guess}", time_limit=time_limit, cancel=cancel)
    return {"game": games.add(game), **view(game)}


@contextmanager
def _limited(game, time_limit, cancel):
    """``game`` with the request's limit while inside; never kept with the game (the
    token belongs to one request)."""
    game.time_limit, game.cancel = time_limit, cancel
    try:
        yield game
    finally:
        game.time_limit = game.cancel = None


def act(games, body, time_limit=None, cancel=None):
    """``POST /api/mines/act``: ``{"game", "action": open|flag|chord, "cell": [x, y, z]}``.
    An illegal action changes nothing and comes back as ``refused`` with the API's reason."""
    data = parse_body(body, {"game": (str, REQUIRED), "action": (str, REQUIRED),
                             "cell": (list, REQUIRED)}, "act")
    game = games.get(data["game"])
    if data["action"] not in ("open", "flag", "chord"):
        raise ConfigError(f"act: unknown action {data['action']!r}; use open, flag or chord")
    refused = None
    cell = tuple(data["cell"])
    try:
        with _limited(game, time_limit, cancel):
            getattr(game, data["action"])(cell)
    except InvalidMoveError as exc:
        refused = str(exc)
    return {"refused": refused, **view(game)}


def hint(games, query):
    """``GET /api/mines/hint?game=&exact=0|1``: the assistant's proved moves (and, exact,
    every closed cell's mine probability; null where not closed or unknown). A no-guess
    board is analysed by the complete assistant, which wins it from the first open."""
    game = games.get(query.text("game"))
    exact = query.text("exact", "0")
    if exact not in ("0", "1"):
        raise ConfigError(f"hint: parameter 'exact' must be 0 or 1, got {exact!r}")
    assistant = _COMPLETE if game.no_guess else _ASSISTANT
    analysis = assistant.analyze(game.observe(), exact=exact == "1")
    data = analysis.to_dict()
    if analysis.probabilities is not None:
        data["probabilities"] = [None if math.isnan(p) else round(float(p), 4)
                                 for p in analysis.probabilities.ravel()]
    return data


def routes():
    """``(method, path, handler(request, body, state))`` of the Minesweeper API."""
    return [
        ("GET", "/api/mines/new", lambda r, b, s: new_game(
            s.mines, Query(r.query_params, _NEW, r.url.path), s.time_limit, s.cancel)),
        ("POST", "/api/mines/act", lambda r, b, s: act(s.mines, b, s.time_limit, s.cancel)),
        ("GET", "/api/mines/hint", lambda r, b, s: hint(
            s.mines, Query(r.query_params, ("game", "exact"), r.url.path))),
    ]
