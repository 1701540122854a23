"""The web application: pages, static files and the JSON API of every game.

Pages are HTML assembled once, at start-up, from one shell and each page's parts (see
:mod:`levelforge.play.pages`); they rebuild themselves from their URL. The API routes come
from the game modules. Engine work runs in a worker thread under one lock (solvers and
generators keep work arrays and are not thread-safe). Errors answer as JSON
``{"error": message}``: 400 for bad input (the API's own messages), 404 for an unknown
path, 500 for anything else, and the server carries on.

>>> import urllib.request, urllib.error
>>> from levelforge.play import running
>>> with running() as url:
...     urllib.request.urlopen(url + "api/info").read()
...     urllib.request.urlopen(url + "api/sokoban/generate?seed=1&width=99")
Traceback (most recent call last):
...
urllib.error.HTTPError: HTTP Error 400: Bad Request
"""
import os
import threading

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.responses import FileResponse, HTMLResponse, JSONResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ..errors import LevelforgeError
from . import defense, gallery, mines, sokoban, symmetry
from .files import open_file
from .pages import PAGES, assemble
from .sessions import Sessions

STATIC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "static")
_ENGINE = threading.Lock()


def _error(status, message):
    return JSONResponse({"error": message}, status_code=status)


def _api(handler):
    """A Starlette endpoint running ``handler(request, body, app.state)`` in a worker thread
    under the engine lock and answering its dict as JSON. The state holds ``opened`` (the
    file the server was started with, or None) and the kept games (``mines``,
    ``defense``)."""
    async def endpoint(request):
        body = await request.body() if request.method == "POST" else b""
        state = request.app.state

        def locked():
            with _ENGINE:
                return handler(request, body, state)

        return JSONResponse(await run_in_threadpool(locked))
    return endpoint


def _page(html):
    async def endpoint(request):
        return HTMLResponse(html)
    return endpoint


async def _favicon(request):
    return FileResponse(os.path.join(STATIC, "favicon.svg"), media_type="image/svg+xml")


async def _levelforge_error(request, exc):
    return _error(400 if isinstance(exc, ValueError) else 500, str(exc))


async def _http_error(request, exc):
    if exc.status_code == 404:
        return _error(404, f"nothing at {request.url.path}")
    return _error(exc.status_code, exc.detail)


async def _internal_error(request, exc):
    return _error(500, f"internal error: {type(exc).__name__}: {exc}")


def _info(request, body, state):
    """``GET /api/info``: the opened file, if any (name, kind, count)."""
    opened = state.opened
    return {"file": None if opened is None else
            {"name": opened.name, "kind": opened.kind, "count": opened.count}}


def _watched(request, body, state):
    """``GET /api/watch``: the latest position a :class:`~levelforge.play.watch.Viewer`
    showed (``version`` 0: none yet)."""
    return dict(getattr(state, "watch", {"version": 0, "caption": "", "svg": ""}))


def create_app(file=None):
    """The Starlette application; ``file`` is a level file to show in the gallery.

    The file is read here, so a malformed one fails now, with its line, rather than in
    the browser.
    """
    opened = None if file is None else open_file(file)
    routes = [Route("/api/info", _api(_info), methods=["GET"]),
              Route("/api/watch", _api(_watched), methods=["GET"])]
    for module in (sokoban, symmetry, gallery, mines, defense):
        for method, path, handler in module.routes():
            routes.append(Route(path, _api(handler), methods=[method]))
    for path, name in PAGES.items():
        endpoint = _page(assemble(name))
        routes.append(Route(path, endpoint, methods=["GET"]))
        if path in ("/sokoban", "/symmetry"):
            routes.append(Route(path + "/{rest:path}", endpoint, methods=["GET"]))
    routes.append(Route("/favicon.ico", _favicon, methods=["GET"]))
    routes.append(Mount("/static", StaticFiles(directory=STATIC), name="static"))
    app = Starlette(routes=routes, exception_handlers={
        LevelforgeError: _levelforge_error, HTTPException: _http_error,
        Exception: _internal_error})
    app.state.opened = opened
    app.state.mines = Sessions()
    app.state.defense = Sessions()
    return app
