"""Only local pages may use the play server, and no request may grow it.

:class:`LocalOnly` wraps the application and answers 403 (one JSON line saying why)
unless:

- the ``Host`` header names the address and port the server listens on
  (``127.0.0.1:PORT``, ``localhost:PORT``): a page of another site that a DNS
  rebinding points at 127.0.0.1 still sends its own host name;
- a POST says ``Content-Type: application/json`` (a page of another site can send a
  form or ``text/plain`` without asking, but not JSON);
- an ``Origin`` header, when sent, is the server's own origin (``http://`` and an
  allowed host).

:func:`read_body` reads a request body up to :data:`~levelforge.play.query.MAX_BODY`
bytes as it streams in and stops there (413), so a huge upload never sits in memory.

>>> allowed_hosts(8000)
('127.0.0.1:8000', 'localhost:8000')
>>> refusal({"host": "evil.example:8000"}, "GET", allowed_hosts(8000))
'Host evil.example:8000 is not this server (it answers local pages at 127.0.0.1:8000 only)'
>>> refusal({"host": "localhost:8000"}, "GET", allowed_hosts(8000)) is None
True
"""
import json

from .query import MAX_BODY

LOCAL_NAMES = ("127.0.0.1", "localhost")
"""The host names a page of this server may use (with the server's port)."""


class TooLarge(Exception):
    """A request body over the limit."""


def allowed_hosts(port: int) -> tuple[str, ...]:
    """The ``Host`` values accepted by a server on 127.0.0.1 at ``port``."""
    return tuple(f"{name}:{port}" for name in LOCAL_NAMES)


def refusal(headers, method: str, hosts: tuple[str, ...]) -> str | None:
    """Why a request with ``headers`` (a mapping of lower-case names) is refused, or None."""
    host = headers.get("host", "")
    if host.lower() not in hosts:
        return (f"Host {host or '(none)'} is not this server (it answers local pages at "
                f"{hosts[0]} only)" if hosts else "the server is not listening yet")
    origin = headers.get("origin")
    if origin is not None and origin.lower() not in tuple("http://" + h for h in hosts):
        return f"requests from {origin} are refused: only this server's own pages may call it"
    if method == "POST":
        kind = headers.get("content-type", "").split(";")[0].strip().lower()
        if kind != "application/json":
            return (f"a POST must be sent as Content-Type: application/json, not "
                    f"{kind or '(none)'}")
    return None


def json_answer(status: int, data: dict) -> tuple[dict, bytes]:
    """An ASGI response start message and its body: ``data`` as one line of JSON."""
    body = json.dumps(data, ensure_ascii=True).encode()
    return ({"type": "http.response.start", "status": status,
             "headers": [(b"content-type", b"application/json"),
                         (b"content-length", str(len(body)).encode())]}, body)


class LocalOnly:
    """ASGI middleware: 403 for requests that are not from this server's own pages
    (see the module docstring). The hosts come from the application's state once the
    server is bound to its port (``app.state.hosts``)."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] == "http":
            headers = {k.decode("latin-1").lower(): v.decode("latin-1")
                       for k, v in scope["headers"]}
            why = refusal(headers, scope["method"], scope["app"].state.hosts)
            if why is not None:
                start, body = json_answer(403, {"error": why})
                await send(start)
                await send({"type": "http.response.body", "body": body})
                return
        await self.app(scope, receive, send)


async def read_body(request, limit: int = MAX_BODY) -> bytes:
    """The request's body, read as it streams in; raises :class:`TooLarge` as soon as it
    passes ``limit`` bytes (or says it will)."""
    length = request.headers.get("content-length", "")
    if length.isdigit() and int(length) > limit:
        raise TooLarge(f"the request body is {int(length)} bytes; the limit is {limit}")
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise TooLarge(f"the request body is over {limit} bytes, the limit")
        chunks.append(chunk)
    return b"".join(chunks)
