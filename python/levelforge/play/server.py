"""Running the play server: in the foreground for ``levelforge play``, or in a background
thread for notebooks, scripts and tests.

>>> import json, urllib.request
>>> with running() as url:
...     page = urllib.request.urlopen(url + "sokoban?seed=7").read()
...     level = json.load(urllib.request.urlopen(url + "api/sokoban/microban/1"))
>>> b"<title>" in page, level["boxes"]
(True, 2)
"""
import contextlib
import socket
import sys
import threading
import time
import webbrowser

import uvicorn

from .app import create_app

HOST = "127.0.0.1"


def _socket(port):
    # IPPROTO_TCP named explicitly: asyncio then sets TCP_NODELAY on every connection
    # (with proto 0 it does not, and a small response waits 40 ms for a delayed ACK)
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    if port:  # a fixed port may be reused right after the previous server stopped
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((HOST, port))
    sock.listen(128)
    return sock


def _server(app):
    config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="off")
    return uvicorn.Server(config)


def serve(file=None, port=0, open_browser=True, path=None, out=sys.stdout):
    """Serve the games on ``127.0.0.1:port`` (0: a free port) until Ctrl-C.

    ``file`` is a level file for the gallery or a defense scenario; the browser opens at
    ``path`` (default: the gallery, or the defense game for a scenario, when a file is
    given, else the start page). Prints the URL to ``out``.
    """
    app = create_app(file)
    sock = _socket(port)
    url = f"http://{HOST}:{sock.getsockname()[1]}/"
    if path is None:
        opened = app.state.opened
        path = "" if opened is None else "defense" if opened.kind == "defense" else "gallery"
    start = path.lstrip("/")
    print(f"levelforge play: serving on {url} (Ctrl-C to stop)", file=out, flush=True)
    if start:
        print(f"  opening {url}{start}", file=out, flush=True)
    if open_browser:
        webbrowser.open(url + start)
    try:
        _server(app).run(sockets=[sock])
    except KeyboardInterrupt:  # Ctrl-C is how this server is meant to stop
        pass
    print("levelforge play: stopped", file=out, flush=True)


@contextlib.contextmanager
def running(file=None, timeout=30.0, app=None):
    """Run the server (of ``file``, or the given ``app``) in a background thread; yields
    its base URL (ending in ``/``) and stops it on exit. Raises RuntimeError if it does
    not start within ``timeout`` s."""
    app = create_app(file) if app is None else app
    sock = _socket(0)
    server = _server(app)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + timeout
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            server.should_exit = True
            raise RuntimeError(f"the play server did not start within {timeout} s")
        time.sleep(0.01)
    try:
        yield f"http://{HOST}:{sock.getsockname()[1]}/"
    finally:
        server.should_exit = True
        thread.join(timeout)
        sock.close()
