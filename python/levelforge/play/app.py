"""The web application: pages, static files and the JSON API of every game.

Pages are HTML assembled once, at start-up, from one shell and each page's parts (see
:mod:`levelforge.play.pages`); they rebuild themselves from their URL. Engine work runs in
worker processes (:mod:`levelforge.play.pool`), never in the server's event loop; the
server keeps the Minesweeper and defense games and hands a game to the worker with each
call. Only the server's own pages may call it (:mod:`levelforge.play.guard`). Errors
answer as JSON ``{"error": message}``: 400 for bad input and for work that cannot be done
(the API's own messages, or the request's deadline), 403 for a request from elsewhere,
404 for an unknown path, 413 for a body over 1 MB; the connection stays open.

>>> import urllib.request, urllib.error
>>> from levelforge.play import running
>>> with running() as url:
...     urllib.request.urlopen(url + "api/info").read()
...     urllib.request.urlopen(url + "api/sokoban/generate?seed=1&width=99")
Traceback (most recent call last):
...
urllib.error.HTTPError: HTTP Error 400: Bad Request
"""
import asyncio
import contextlib
import json
import os
from collections.abc import Callable

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.responses import FileResponse, HTMLResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from .api import Call, endpoints, game_key, is_long
from .files import open_file
from .guard import LocalOnly, TooLarge, json_answer, read_body
from .pages import PAGES, assemble
from .pool import WORKERS, Pool, Stopped
from .sessions import Sessions
from .sokoban import MAX_TIME_LIMIT, STOPPED

STATIC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "static")
MAX_DEADLINE = 60.0
"""The longest deadline a server may give its requests, in seconds."""
DEADLINE = MAX_DEADLINE
"""Seconds of engine time a request gets by default (a solve: its own time limit plus
:data:`GRACE`, when that is shorter)."""
GRACE = 2.0


def _json(status, data):
    start, body = json_answer(status, data)
    return Response(body, status, media_type="application/json")


def _error(status, message):
    return _json(status, {"error": message})


async def _gone(receive):
    """Ends when the client hangs up (the request body already read)."""
    while (await receive())["type"] != "http.disconnect":
        pass


def _seconds(endpoint, body, deadline):
    """The deadline of one call: a solve gets its own time limit and a grace."""
    if endpoint.path == "/api/sokoban/solve":
        try:
            limit = json.loads(body).get("time_limit", 5)
        except (ValueError, RecursionError, AttributeError):
            limit = None
        if isinstance(limit, (int, float)) and not isinstance(limit, bool) and \
                0 < limit <= MAX_TIME_LIMIT:
            return min(deadline, limit + GRACE)
    return deadline


def _stopped(endpoint, exc, seconds, body):
    if exc.reason == "deadline" and endpoint.path == "/api/sokoban/solve":
        data = json.loads(body)  # a limit is a limit: the solver's answer, as it would be
        return _json(200, {"status": "limit", "pushes": None, "moves": None,
                           "solution": None, "optimal": None, "nodes": None,
                           "expanded": None, "elapsed_ms": round(seconds * 1e3, 1),
                           "time_limit": data.get("time_limit", 5),
                           "from_moves": data.get("moves", ""),
                           "stopped": STOPPED})
    if exc.reason == "deadline":
        return _json(400, {"error": f"{endpoint.path}: this request took more than "
                                    f"{seconds:g} s, the server's limit for one request, "
                                    "and was stopped: ask for less (a smaller board, fewer "
                                    "boxes, a narrower range)", "limit": seconds})
    if exc.reason == "gone":
        return _error(400, "the client hung up; the request was stopped")
    return _error(503, "the server is stopping" if exc.reason == "stopping" else str(exc))


def _api(endpoint):
    """A Starlette endpoint that runs ``endpoint`` in a worker process within its
    deadline, with the kept game it names, and answers the worker's JSON."""
    async def run(request):
        try:
            return await answer(request)
        except Exception as exc:  # noqa: BLE001 - a bug: one JSON line, connection kept
            return _error(500, f"{request.url.path}: the server failed on this request "
                               f"({type(exc).__name__}); please report it")

    async def answer(request):
        state = request.app.state
        try:
            body = await read_body(request) if request.method == "POST" else b""
        except TooLarge as exc:
            return _error(413, str(exc))
        call = Call(request.url.path, tuple(request.query_params.multi_items()),
                    dict(request.path_params))
        games = getattr(state, endpoint.games) if endpoint.games else None
        key = game_key(endpoint, call, body)
        seconds = _seconds(endpoint, body, state.deadline)
        gone = asyncio.ensure_future(_gone(request.receive))
        try:
            async with state.locks.hold((endpoint.games, key)):
                game = games.peek(key) if games is not None else None
                message = ("call", endpoint.path, call, body,
                           None if game is None else (endpoint.games, key, game))
                status, data, back = await state.pool.run(
                    endpoint.path, message, endpoint.system, is_long(endpoint, call, game),
                    seconds, gone)
                for kind, k, g in back:
                    getattr(state, kind).put(k, g)
        except Stopped as exc:
            return _stopped(endpoint, exc, seconds, body)
        finally:
            gone.cancel()
        return Response(data, status, media_type="application/json")
    return run


class Locks:
    """One asyncio lock per kept game, so that two calls on one game run one after the
    other (each takes the game as the previous one left it)."""

    def __init__(self):
        self._held = {}

    @contextlib.asynccontextmanager
    async def hold(self, key):
        if key[1] is None:
            yield
            return
        lock, users = self._held.get(key, (asyncio.Lock(), 0))
        self._held[key] = (lock, users + 1)
        try:
            async with lock:
                yield
        finally:
            lock, users = self._held[key]
            if users == 1:
                del self._held[key]
            else:
                self._held[key] = (lock, users - 1)


def _page(html):
    async def endpoint(request):
        return HTMLResponse(html)
    return endpoint


async def _favicon(request):
    return FileResponse(os.path.join(STATIC, "favicon.svg"), media_type="image/svg+xml")


async def _http_error(request, exc):
    if exc.status_code == 404:
        return _error(404, f"nothing at {request.url.path}")
    return _error(exc.status_code, exc.detail)


async def _info(request):
    """``GET /api/info``: the opened file, if any (name, kind, count)."""
    opened = request.app.state.opened
    return _json(200, {"file": None if opened is None else
                       {"name": opened.name, "kind": opened.kind, "count": opened.count}})


async def _watched(request):
    """``GET /api/watch``: the latest position a :class:`~levelforge.play.watch.Viewer`
    showed (``version`` 0: none yet)."""
    return _json(200, dict(getattr(request.app.state, "watch",
                                   {"version": 0, "caption": "", "svg": ""})))


async def _status(request):
    """``GET /api/status``: how far the workers are in preparing each system's kernels
    (``waiting``, ``preparing`` with kernels compiled and seconds so far, ``ready``)."""
    return _json(200, request.app.state.pool.status())


def create_app(file: str | os.PathLike | None = None, workers: int = WORKERS,
               deadline: float = DEADLINE, log: Callable[[str], None] | None = None
               ) -> Starlette:
    """The Starlette application; ``file`` is a level file to show in the gallery.

    The file is read here, so a malformed one fails now, with its line, rather than in
    the browser. Engine work runs in ``workers`` processes (started with the server; 0:
    none, the server only shows pages),
    each request within ``deadline`` seconds of engine time (at most 60); ``log`` takes
    the server's log lines. The server sets ``app.state.hosts`` (the ``Host`` values
    it answers) once it knows its port.
    """
    if not 0 < deadline <= MAX_DEADLINE:
        raise ValueError(f"deadline must be in (0, {MAX_DEADLINE:g}] seconds, got {deadline!r}")
    opened = None if file is None else open_file(file)
    routes = [Route("/api/info", _info, methods=["GET"]),
              Route("/api/watch", _watched, methods=["GET"]),
              Route("/api/status", _status, methods=["GET"])]
    for endpoint in endpoints():
        routes.append(Route(endpoint.path, _api(endpoint), methods=[endpoint.method]))
    for path, name in PAGES.items():
        page = _page(assemble(name))
        routes.append(Route(path, page, methods=["GET"]))
        if path in ("/sokoban", "/symmetry"):
            routes.append(Route(path + "/{rest:path}", page, methods=["GET"]))
    routes.append(Route("/favicon.ico", _favicon, methods=["GET"]))
    routes.append(Mount("/static", StaticFiles(directory=STATIC), name="static"))
    pool = Pool(workers, file, log)

    @contextlib.asynccontextmanager
    async def lifespan(app):
        pool.start()
        try:
            yield
        finally:
            pool.close()

    app = Starlette(routes=routes, lifespan=lifespan, middleware=[Middleware(LocalOnly)],
                    exception_handlers={HTTPException: _http_error})
    app.state.opened = opened
    app.state.mines = Sessions()
    app.state.defense = Sessions()
    app.state.pool = pool
    app.state.deadline = float(deadline)
    app.state.locks = Locks()
    app.state.hosts = ()
    return app
