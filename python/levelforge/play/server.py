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
import json
import socket
import sys
import threading
import time
import webbrowser

import h11
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

from .app import create_app
from .guard import allowed_hosts
from .query import MAX_BODY

HOST = "127.0.0.1"
MAX_HEAD = MAX_BODY + (64 << 10)
"""Largest request line and headers read, in bytes: a pasted level in a URL up to the
body limit reaches the application (which answers in JSON); beyond it, the protocol's
own 400, in JSON too."""
STOP_SECONDS = 1
"""Seconds the server waits for open requests when stopping (their work is killed)."""


class _JsonH11(H11Protocol):
    """uvicorn's HTTP/1.1 protocol with its 400 for unreadable requests in JSON."""

    def send_400_response(self, msg):
        body = json.dumps({"error": "the request could not be read: it is not valid "
                                    "HTTP/1.1, or its URL and headers are over "
                                    f"{MAX_HEAD} bytes"}).encode()
        for event in (h11.Response(status_code=400, reason=b"Bad Request", headers=[
                          (b"content-type", b"application/json"),
                          (b"content-length", str(len(body)).encode()),
                          (b"connection", b"close")]),
                      h11.Data(data=body), h11.EndOfMessage()):
            self.transport.write(self.conn.send(event))
        self.transport.close()


class _Server(uvicorn.Server):
    """A uvicorn server that stops its engine work at once on Ctrl-C or SIGTERM (a
    request waiting for a worker would otherwise hold the shutdown)."""

    def handle_exit(self, sig, frame):
        super().handle_exit(sig, frame)
        pool = self.config.app.state.pool
        if pool.loop is not None:
            pool.loop.call_soon_threadsafe(pool.close)


def _socket(port):
    # IPPROTO_TCP named explicitly: asyncio then sets TCP_NODELAY on every connection
    # (with proto 0 it does not, and a small response waits 40 ms for a delayed ACK)
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    if port:  # a fixed port may be reused right after the previous server stopped
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((HOST, port))
    sock.listen(128)
    return sock


def _server(app, sock):
    app.state.hosts = allowed_hosts(sock.getsockname()[1])
    config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="on",
                            http=_JsonH11, h11_max_incomplete_event_size=MAX_HEAD,
                            timeout_graceful_shutdown=STOP_SECONDS)
    return _Server(config)


def serve(file=None, port=0, open_browser=True, path=None, out=sys.stdout, workers=None):
    """Serve the games on ``127.0.0.1:port`` (0: a free port) until Ctrl-C or SIGTERM.

    ``file`` is a level file for the gallery or a defense scenario; the browser opens at
    ``path`` (default: the gallery, or the defense game for a scenario, when a file is
    given, else the start page). Prints the URL and the log to ``out``. Engine work runs
    in ``workers`` processes (default 2).
    """
    extra = {} if workers is None else {"workers": workers}
    app = create_app(file, log=lambda line: print(line, file=out, flush=True), **extra)
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
        _server(app, sock).run(sockets=[sock])
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
    server = _server(app, sock)
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
