"""A bare HTTP/1.1 client for the play server's tests: requests sent byte for byte (any
Host, any header, a body sent in pieces) over one kept-alive connection, so that a test
can check that the connection is still usable after an error."""
import json
import socket
from urllib.parse import urlsplit


class Raw:
    """One connection to the server at ``base`` (``http://host:port/``)."""

    def __init__(self, base, timeout=60):
        parts = urlsplit(base)
        self.host = f"{parts.hostname}:{parts.port}"
        self.sock = socket.create_connection((parts.hostname, parts.port), timeout=timeout)
        self.buffer = b""

    def close(self):
        self.sock.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def send_head(self, method, path, headers=None, host=None):
        lines = [f"{method} {path} HTTP/1.1", f"Host: {self.host if host is None else host}"]
        lines += [f"{k}: {v}" for k, v in (headers or {}).items()]
        self.sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1"))

    def request(self, method, path, body=b"", headers=None, host=None):
        """``(status, headers, body)`` of one request on this connection."""
        headers = dict(headers or {})
        if method == "POST":
            headers.setdefault("Content-Length", str(len(body)))
        self.send_head(method, path, headers, host)
        if body:
            self.sock.sendall(body)
        return self.response()

    def json(self, method, path, data=None, raw=None, headers=None, host=None):
        """``(status, parsed JSON)``; POSTs ``data`` as JSON (or ``raw`` bytes)."""
        if method == "POST":
            headers = {"Content-Type": "application/json", **(headers or {})}
            raw = json.dumps(data).encode() if raw is None else raw
        status, head, body = self.request(method, path, raw or b"", headers, host)
        assert head.get("content-type") == "application/json", (status, head, body[:200])
        assert body.count(b"\n") == 0  # one line
        return status, json.loads(body)

    def _read_until(self, mark):
        while mark not in self.buffer:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError("the server closed the connection")
            self.buffer += chunk
        head, _, self.buffer = self.buffer.partition(mark)
        return head

    def response(self):
        head = self._read_until(b"\r\n\r\n").decode("latin-1").split("\r\n")
        status = int(head[0].split()[1])
        headers = {}
        for line in head[1:]:
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip()
        length = int(headers.get("content-length", 0))
        while len(self.buffer) < length:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError("the server closed the connection mid-answer")
            self.buffer += chunk
        body, self.buffer = self.buffer[:length], self.buffer[length:]
        return status, headers, body
