"""The JSON API's endpoints as both sides see them: the server (which checks, queues and
answers requests) and its worker processes (which run the handlers).

Each :class:`Endpoint` names the kernels its handler runs (``system``: the worker
prepares them first), whether it may run long (``long``: solves and generators; they
never take the last free worker, which stays for moves), and the kind of kept game it
plays (``games``: the server holds the game by id and hands it to the worker with the
call). A :class:`Call` is what a handler sees of its request, small enough to send to a
worker.

>>> ends = {e.path: e for e in endpoints()}
>>> ends["/api/sokoban/solve"].long, ends["/api/mines/act"].games
(True, 'mines')
>>> Call("/api/sokoban/generate", (("seed", "7"),)).query_params["seed"]
'7'
"""
import json
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Callable

from . import (defense, defense_edit, gallery, mines, mines_edit, sokoban, sokoban_edit,
               symmetry, symmetry_edit)

_LONG = {"/api/sokoban/generate", "/api/sokoban/campaign/{index}", "/api/sokoban/solve",
         "/api/symmetry/generate", "/api/sokoban/edit/check", "/api/sokoban/edit/improve",
         "/api/symmetry/edit/check", "/api/symmetry/edit/finish", "/api/mines/edit/check",
         "/api/defense/edit/layout", "/api/defense/edit/balance"}
_GAMES = {"/api/mines/act": "mines", "/api/mines/hint": "mines",
          "/api/defense/act": "defense", "/api/defense/fight": "defense"}
_SYSTEMS = ((sokoban, "sokoban"), (sokoban_edit, "sokoban"), (symmetry, "symmetry"),
            (symmetry_edit, "symmetry"), (gallery, None), (mines, "mines"),
            (mines_edit, "mines"), (defense, "defense"), (defense_edit, "defense"))


@dataclass(frozen=True)
class Endpoint:
    """One API route: its handler ``handler(call, body, state)`` and how to run it."""

    method: str
    path: str
    handler: Callable
    system: str | None
    long: bool
    games: str | None


def endpoints() -> list[Endpoint]:
    """Every engine endpoint of the API (the server's own, such as ``/api/status``, aside)."""
    return [Endpoint(method, path, handler, system, path in _LONG, _GAMES.get(path))
            for module, system in _SYSTEMS for method, path, handler in module.routes()]


@dataclass(frozen=True)
class Call:
    """A request as a handler sees it: the path, the query as ``(name, value)`` pairs and
    the path parameters (what Starlette's request offers, and picklable)."""

    path: str
    query: tuple = ()
    path_params: dict = field(default_factory=dict)

    @property
    def query_params(self):
        from starlette.datastructures import QueryParams
        return QueryParams(list(self.query))

    @property
    def url(self):
        return SimpleNamespace(path=self.path)


def game_key(endpoint: Endpoint, call: Call, body: bytes) -> str | None:
    """The id of the kept game a call plays (the ``game`` field of its body or query), or
    None when it names none (the handler then says what is missing)."""
    if endpoint.games is None:
        return None
    if endpoint.method == "GET":
        return dict(call.query).get("game")
    try:
        data = json.loads(body)
    except (ValueError, RecursionError):
        return None
    key = data.get("game") if isinstance(data, dict) else None
    return key if isinstance(key, str) else None


def is_long(endpoint: Endpoint, call: Call, game: object) -> bool:
    """True when the call may run long: a long endpoint, an exact hint, or a no-guess
    Minesweeper board being made (a new game with its first cell, or its first open)."""
    query = dict(call.query)
    if endpoint.path == "/api/mines/new":
        return query.get("no_guess", "0") != "0" and "start" in query
    if endpoint.path == "/api/mines/hint":
        return query.get("exact") == "1"
    return endpoint.long or (endpoint.games == "mines" and getattr(game, "no_guess", False)
                             and getattr(game, "status", None) == "ready")
