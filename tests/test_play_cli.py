"""``levelforge play``: starts a server on 127.0.0.1, prints its URL, opens the file given;
bad files fail before serving, with the file and line in the message."""
import json
import selectors
import signal
import subprocess
import sys
import urllib.request

import pytest

pytest.importorskip("uvicorn")


def _cli(*args, **kwargs):
    return subprocess.Popen([sys.executable, "-m", "levelforge.cli", "play", *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kwargs)


def _first_line(proc, timeout=120):
    sel = selectors.DefaultSelector()
    sel.register(proc.stdout, selectors.EVENT_READ)
    if not sel.select(timeout):
        proc.kill()
        raise AssertionError(f"no output within {timeout} s")
    return proc.stdout.readline()


def test_play_serves_the_file_and_prints_its_url(tmp_path):
    path = tmp_path / "mine.xsb"
    path.write_text("; one\n#####\n#@$.#\n#####\n\n; two\n######\n#@$ .#\n######\n")
    proc = _cli(str(path), "--no-browser")
    try:
        line = _first_line(proc)
        assert line.startswith("levelforge play: serving on http://127.0.0.1:")
        url = line.split(" on ")[1].split()[0]
        assert "opening " + url + "gallery" in proc.stdout.readline()
        info = json.load(urllib.request.urlopen(url + "api/info", timeout=60))
        assert info == {"file": {"name": "mine.xsb", "kind": "sokoban", "count": 2}}
        page = urllib.request.urlopen(url + "sokoban/file/1", timeout=60).read()
        assert b"<title>Sokoban" in page
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(60)
    assert proc.returncode == 0


@pytest.mark.parametrize("content, message", [
    (None, "no such file"),
    ('{"level": "#####\\n#@$.#\\n#####\\n"}\nnot json\n', "line 2: not JSON"),
    ('{"colour": "red"}\n', "line 1: neither a Sokoban batch record"),
])
def test_a_bad_file_fails_before_serving_with_its_name(tmp_path, capsys, content, message):
    from levelforge.cli import main
    path = tmp_path / "bad.jsonl"
    if content is not None:
        path.write_text(content)
    assert main(["play", str(path), "--no-browser"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("levelforge play: error: ")
    assert message in err and str(path) in err


def test_server_sockets_are_tcp_so_small_answers_are_not_delayed():
    # asyncio sets TCP_NODELAY only on sockets whose protocol is IPPROTO_TCP; without it
    # a small JSON answer waits for the client's delayed ACK (about 40 ms a request)
    import socket

    from levelforge.play.server import _socket
    sock = _socket(0)
    try:
        assert sock.proto == socket.IPPROTO_TCP
    finally:
        sock.close()
