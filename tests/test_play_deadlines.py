"""The server hands its deadline to the library: generators stop by themselves with the
library's own message naming the limit (their worker lives on), a solve answers
``limit`` with the reason, and a client that hangs up stops its work through the
request's cancel token before any worker is killed."""
import json
import time

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")

from http_raw import Raw  # noqa: E402
from test_play_limits import big_room, status, wait_until  # noqa: E402

from levelforge import play  # noqa: E402
from levelforge.play.pool import budget  # noqa: E402

DEADLINE = 3.0


@pytest.fixture(scope="module")
def served():
    app = play.create_app(deadline=DEADLINE)
    with play.running(app=app) as url:
        wait_until(lambda: status(url)["ready"] and status(url)["busy"] == 0, 180,
                   "the kernels, in every worker")
        yield app, url


def pids(app):
    return sorted(w.proc.pid for w in app.state.pool.workers)


def test_the_library_gets_the_deadline_less_a_margin():
    assert budget(60.0) == 59.0 and budget(3.0) == pytest.approx(2.7)
    assert all(0 < budget(s) < s for s in (0.1, 1.0, 10.0, 60.0))


@pytest.mark.parametrize("path", [
    "/api/sokoban/generate?seed=1&width=64&height=64&boxes=128&pushes=1-32766",
    "/api/mines/new?seed=1&level=32x32x32-12000&no_guess=1&start=16,16,0",
])
def test_a_generator_past_the_deadline_ends_with_the_librarys_message(served, path):
    app, url = served
    before = pids(app)
    with Raw(url, timeout=120) as raw:
        start = time.monotonic()
        code, answer = raw.json("GET", path)
        took = time.monotonic() - start
    assert code == 400
    assert answer["error"].endswith(f"stopped at the time limit of {budget(DEADLINE):g} s")
    assert took < 30  # alone, the generator runs minutes
    assert pids(app) == before  # no worker was killed


def test_a_solve_past_the_deadline_answers_limit_with_the_reason(served):
    app, url = served
    before = pids(app)
    with Raw(url, timeout=120) as raw:
        code, answer = raw.json("POST", "/api/sokoban/solve",
                                {"xsb": big_room(), "time_limit": 30})
    assert code == 200 and answer["status"] == "limit" and answer["time_limit"] == 30
    assert answer["stopped"] == "the server stopped the solver at its deadline"
    assert pids(app) == before


def test_a_hang_up_cancels_the_solve_and_keeps_its_worker():
    app = play.create_app(deadline=60)
    with play.running(app=app) as url:
        wait_until(lambda: status(url)["ready"] and status(url)["busy"] == 0, 180,
                   "the kernels, in every worker")
        before = pids(app)
        raw = Raw(url)
        body = json.dumps({"xsb": big_room(), "time_limit": 60}).encode()
        raw.send_head("POST", "/api/sokoban/solve", {
            "Content-Type": "application/json", "Content-Length": str(len(body))})
        raw.sock.sendall(body)
        wait_until(lambda: status(url)["busy"] >= 1, 30, "the solve to start")
        raw.close()
        wait_until(lambda: status(url)["busy"] == 0, 30, "the solve to stop")
        assert pids(app) == before  # stopped by its token within the grace, not killed


def test_a_cancelled_solve_says_why_and_is_never_unsolvable():
    from levelforge import Cancel
    from levelforge.play.sokoban import solve_position
    token = Cancel()
    token.cancel()
    body = json.dumps({"xsb": big_room(), "moves": "", "time_limit": 30}).encode()
    answer = solve_position(body, 59.0, token)
    assert answer["status"] == "cancelled" and answer["solution"] is None
    assert answer["stopped"] == "the client hung up, so the solve was cancelled"
