"""Limits are limits in ``levelforge play``: one test per reproduction of issue 19 (sizes
scaled down where the behaviour is the same). Only the server's own pages may call it,
bodies are limited while they stream in, bad input gets a 4xx JSON line in the user's
terms and the connection stays usable, and engine work past its deadline or whose client
hung up is stopped while the server goes on."""
import json
import time
from urllib.parse import quote

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")

from http_raw import Raw  # noqa: E402

from levelforge import play, sokoban  # noqa: E402
from levelforge.play.server import MAX_HEAD  # noqa: E402

LEVEL = "#####\n#@$.#\n#####"


def big_room(side=64, boxes=100, seed=1):
    """XSB of an open ``side`` x ``side`` room with ``boxes`` boxes and goals scattered:
    far beyond what a push-optimal search finishes in a minute."""
    import numpy as np
    cells = [(x, y) for y in range(2, side - 2) for x in range(2, side - 2)]  # no dead walls
    order = np.random.default_rng(seed).permutation(len(cells))
    marks = {cells[i]: "$" for i in order[:boxes]}
    marks.update({cells[i]: "." for i in order[boxes:2 * boxes]})
    marks[cells[order[2 * boxes]]] = "@"
    return "\n".join("".join("#" if x in (0, side - 1) or y in (0, side - 1)
                             else marks.get((x, y), " ") for x in range(side))
                     for y in range(side))


@pytest.fixture(scope="module")
def base():
    with play.running() as url:
        yield url


def wait_until(check, seconds, what):
    end = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < end, f"{what}: not within {seconds} s"
        time.sleep(0.2)


def status(base):
    with Raw(base) as raw:
        return raw.json("GET", "/api/status")[1]


# ------------------------------------------------------------ only local pages
def test_a_post_from_another_site_is_refused_with_one_line_saying_why(base):
    body = json.dumps({"xsb": LEVEL}).encode()
    with Raw(base) as raw:
        got = raw.json("POST", "/api/sokoban/solve", raw=body, headers={
            "Origin": "http://evil.example", "Content-Type": "text/plain"})
        assert got == (403, {"error": "requests from http://evil.example are refused: only "
                                      "this server's own pages may call it"})
        for kind in ("text/plain", "application/x-www-form-urlencoded"):
            code, answer = raw.json("POST", "/api/sokoban/solve", raw=body,
                                    headers={"Content-Type": kind})
            assert code == 403 and f"not {kind}" in answer["error"]
        code, answer = raw.json("POST", "/api/sokoban/solve", raw=body,
                                headers={"Origin": "http://" + raw.host})
        assert code == 200 and answer["status"] == "solved"  # its own page


def test_host_must_be_the_address_and_port_served(base):
    with Raw(base) as raw:
        port = raw.host.split(":")[1]
        for host in (f"evil.example:{port}", "127.0.0.1:1", f"127.0.0.2:{port}", ""):
            for path in ("/api/info", "/static/css/play.css", "/"):
                status_, head, body = raw.request("GET", path, host=host)
                assert status_ == 403 and "is not this server" in json.loads(body)["error"]
        for host in (f"127.0.0.1:{port}", f"localhost:{port}", f"LOCALHOST:{port}"):
            assert raw.request("GET", "/static/css/play.css", host=host)[0] == 200


# ------------------------------------------------------------ sizes
def test_a_huge_chunked_body_is_refused_while_it_streams(base):
    """The 413 comes after the first megabyte: the rest (here never sent) is not waited
    for, so a 200 MB upload never sits in the server's memory."""
    with Raw(base, timeout=30) as raw:
        raw.send_head("POST", "/api/sokoban/move", {"Content-Type": "application/json",
                                                    "Transfer-Encoding": "chunked"})
        piece = b"x" * 65536
        for _ in range(20):  # 1.25 MB, and the body never ends
            raw.sock.sendall(b"%x\r\n%s\r\n" % (len(piece), piece))
        code, head, body = raw.response()
    assert code == 413
    assert json.loads(body)["error"] == "the request body is over 1048576 bytes, the limit"


def test_a_collection_of_43000_levels_reads_only_the_level_it_needs(base):
    bad = "#####\n#@$x#\n#####\n\n"  # every later level would fail to parse
    text = LEVEL + "\n\n" + bad * 43_000
    body = json.dumps({"xsb": text, "moves": "", "action": "r"}).encode()
    assert len(body) < 1 << 20
    with Raw(base) as raw:
        code, state = raw.json("POST", "/api/sokoban/move", raw=body)
        assert (code, state["solved"]) == (200, True)
        two = "\n".join(text.split("\n")[:8])  # the first two levels
        with pytest.raises(Exception) as exc:
            sokoban.read_xsb(two)
        code, answer = raw.json("GET", "/api/sokoban/custom?level=2&xsb=" + quote(two))
        assert (code, answer["error"]) == (400, str(exc.value))  # lines of the whole text
        code, answer = raw.json("GET", "/api/sokoban/custom?level=3&xsb=" + quote(LEVEL))
        assert answer["error"] == "pasted XSB: the text holds 1 level(s); there is no level 3"


def test_a_pasted_level_over_64kb_in_a_url_gets_json(base):
    text = "; " + "long title " * 9000 + "\n" + LEVEL  # about 100 KB
    with Raw(base) as raw:
        code, level = raw.json("GET", "/api/sokoban/custom?xsb=" + quote(text))
        assert code == 200 and level["title"] == text.split("\n")[0][2:].strip()
        code, answer = raw.json("GET", "/api/sokoban/custom?xsb=" + "%23" * MAX_HEAD)
        assert code == 400 and answer["error"].startswith("the request could not be read")


# ------------------------------------------------------------ bad input: 4xx JSON
def test_100000_nested_brackets_answer_400_and_the_connection_stays_usable(base):
    with Raw(base) as raw:
        code, answer = raw.json("POST", "/api/sokoban/move", raw=b"[" * 100_000)
        assert (code, answer) == (400, {"error": "/api/sokoban/move: the input is nested "
                                                 "too deeply"})
        assert raw.json("GET", "/api/info")[0] == 200  # the same connection


def test_a_fight_step_of_2_80_is_refused_in_the_players_terms(base):
    with Raw(base) as raw:
        game = raw.json("GET", "/api/defense/new?seed=1")[1]["game"]
        code, answer = raw.json("POST", "/api/defense/fight", {"game": game, "step": 2 ** 80})
        assert (code, answer) == (400, {"error": f"fight: step must be in [1, 100000], got "
                                                 f"{2 ** 80}"})
        code, fight = raw.json("POST", "/api/defense/fight", {"game": game, "step": 5})
        assert code == 200 and fight["frames"]  # the game is unchanged and plays on


def test_an_impossible_no_guess_board_answers_400(base):
    with Raw(base) as raw:
        code, answer = raw.json("GET", "/api/mines/new?seed=1&level=9x9x1-60&no_guess=1"
                                       "&start=4,4,0")
        assert code == 400 and "9x9x1-60" in answer["error"] and "4,4,0" in answer["error"]
        assert "fewer mines" in answer["error"]
        assert raw.json("GET", "/api/mines/new?seed=1&level=easy")[0] == 200


def test_a_lone_surrogate_in_a_title_is_answered(base):
    text = "; a\ud800b\n" + LEVEL
    with Raw(base) as raw:
        code, state = raw.json("POST", "/api/sokoban/move",
                               {"xsb": text, "moves": "", "action": "r"})
        assert code == 200 and state["solved"] and "a\ud800b" in state["svg"]
        code, level = raw.json("GET", "/api/sokoban/custom?xsb=%3B%20a%ED%A0%80b%0A"
                                      + quote(LEVEL))
        assert code == 200 and level["title"].startswith("a\ufffd")  # not UTF-8: replaced


def test_winning_a_level_with_more_than_128_boxes_answers_solved(base):
    rows = ["#" * 17] + ["#" + "*" * 15 + "#"] * 9 + ["#@$.          #", "#" * 17]
    rows[-2] = rows[-2].ljust(16) + "#"
    level = sokoban.read_xsb("\n".join(rows))[0]
    assert len(level.boxes) == 136
    with Raw(base) as raw:
        code, state = raw.json("POST", "/api/sokoban/move",
                               {"xsb": level.to_xsb(), "moves": "", "action": "r"})
    assert code == 200 and state["solved"] and state["pushes"] == 1
    assert state["optimal"]["status"] == "limit"
    assert state["optimal"]["message"] == ("the solver handles at most 128 boxes; the level "
                                           "has 136")


def test_messages_never_show_python_internals(base):
    with Raw(base) as raw:
        code, answer = raw.json("POST", "/api/symmetry/check", {
            "size": 5, "board_a": {"start": None, "goal": [4, 4]},
            "board_b": {"start": [4, 0], "goal": [0, 4]}, "path": []})
        assert code == 400 and answer["error"] == (
            "board_a: start and goal must be points [x, y], required a list of points, "
            "forbidden a list of pairs of points")
        code, answer = raw.json("POST", "/api/symmetry/check", {
            "size": 5, "board_a": {}, "board_b": {}, "path": []})
        assert answer["error"] == "board_a: expected an object with a start and a goal"


# ------------------------------------------------------------ deadlines and hang-ups
def test_work_past_its_deadline_is_stopped_and_the_server_goes_on():
    app = play.create_app(deadline=3)
    with play.running(app=app) as url, Raw(url, timeout=120) as raw:
        start = time.monotonic()
        code, answer = raw.json("POST", "/api/sokoban/solve",
                                {"xsb": big_room(), "time_limit": 30})  # past 3 s
        assert time.monotonic() - start < 60  # the solve alone runs minutes
        assert code == 200 and answer["status"] == "limit"
        assert answer["stopped"] == "the server stopped the solver at its deadline"
        code, level = raw.json("GET", "/api/sokoban/generate?seed=2")
        assert code == 200 and level["boxes"] == 2
        wait_until(lambda: status(url)["busy"] == 0, 60, "a fresh worker")


def test_a_client_that_hangs_up_stops_its_work(base):
    wait_until(lambda: status(base)["busy"] == 0, 60, "idle workers")
    raw = Raw(base)
    body = json.dumps({"xsb": big_room(), "time_limit": 60}).encode()
    raw.send_head("POST", "/api/sokoban/solve", {
        "Content-Type": "application/json", "Content-Length": str(len(body))})
    raw.sock.sendall(body)
    wait_until(lambda: status(base)["busy"] >= 1, 30, "the solve to start")
    raw.close()  # the solve would run a minute; its worker is killed and replaced
    wait_until(lambda: status(base)["busy"] == 0, 30, "the solve to stop")


def test_a_worker_that_dies_is_replaced_and_its_request_answered():
    import os
    import signal
    import threading

    app = play.create_app()
    with play.running(app=app) as url:
        wait_until(lambda: status(url)["ready"] and status(url)["busy"] == 0, 120,
                   "the kernels, in every worker")
        answers = []

        def solve():
            with Raw(url, timeout=120) as raw:
                answers.append(raw.json("POST", "/api/sokoban/solve",
                                        {"xsb": big_room(), "time_limit": 60}))

        thread = threading.Thread(target=solve)
        thread.start()
        wait_until(lambda: status(url)["busy"] >= 1, 30, "the solve to start")
        killed = list(app.state.pool.workers)
        for w in killed:  # as the kernel's OOM killer would
            os.kill(w.proc.pid, signal.SIGKILL)
        thread.join(30)
        assert answers == [(503, {"error": "a worker process stopped during this request"})]
        # every killed worker noticed and replaced, then the replacements start their
        # kernels again: wait for both, not a fixed time
        wait_until(lambda: not set(killed) & set(app.state.pool.workers), 30,
                   "every killed worker to be replaced")
        wait_until(lambda: status(url)["ready"], 120, "the replaced workers")
        with Raw(url) as raw:
            code, level = raw.json("GET", "/api/sokoban/generate?seed=4")
        assert code == 200 and level["seed"] == 4


def test_a_call_is_never_handed_to_a_worker_whose_process_has_ended():
    """The pool reads a dead worker's end of pipe only when its event loop gets to it;
    a call dispatched before that (here: in the same step of the loop as the kill) goes
    to a fresh worker, not to the dead one (which would answer 503)."""
    import asyncio
    import os
    import signal
    import threading

    from levelforge.play.api import Call
    from levelforge.play.pool import Pool

    async def scenario():
        pool = Pool(size=1)
        pool.start()
        try:
            for _ in range(2400):  # the worker prepares every system's kernels first
                if pool.workers[0].idle and len(pool.workers[0].warm) == 4:
                    break
                await asyncio.sleep(0.05)
            dead = pool.workers[0]
            assert dead.idle, "the worker did not get ready within two minutes"
            os.kill(dead.proc.pid, signal.SIGKILL)
            dead.proc.wait()  # ended, but nothing has read its end of pipe yet
            gone = asyncio.get_running_loop().create_future()
            path = "/api/sokoban/generate"
            message = ("call", path, Call(path, (("seed", "4"),)), b"", None)
            status, body, _ = await pool.run(path, message, "sokoban", False, 120, gone)
            return dead, pool.workers, status, json.loads(body)
        finally:
            pool.close()

    # in a thread of its own: a test before it in this process may have left an event
    # loop running in this one (Playwright's sync API does)
    out = []

    def run():
        try:
            out.append(asyncio.run(scenario()))
        except BaseException as exc:  # noqa: BLE001 - raised again below
            out.append(exc)

    runner = threading.Thread(target=run)
    runner.start()
    runner.join(300)
    assert out, "the scenario did not end within five minutes"
    if isinstance(out[0], BaseException):
        raise out[0]
    dead, workers, status, level = out[0]
    assert dead not in workers and len(workers) == 1
    assert status == 200 and level["seed"] == 4


def test_each_systems_warm_up_runs_its_pages_endpoints():
    from levelforge.play.pool import ORDER
    from levelforge.play.worker import WARM
    assert sorted(WARM) == sorted(ORDER)
    for name in ORDER:
        WARM[name]()  # raises if a page's call fails


def test_two_calls_on_one_game_run_one_after_the_other(base):
    """Two flags of one cell sent at once toggle it twice: each call takes the game as the
    other left it (two workers could otherwise each flag the same original)."""
    import threading
    with Raw(base) as raw:
        game = raw.json("GET", "/api/mines/new?level=easy&seed=2")[1]["game"]
    wait_until(lambda: status(base)["busy"] == 0, 60, "idle workers")
    for _ in range(5):
        answers = []

        def flag():
            with Raw(base) as raw:
                answers.append(raw.json("POST", "/api/mines/act", {
                    "game": game, "action": "flag", "cell": [0, 0, 0]})[1])

        threads = [threading.Thread(target=flag) for _ in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        assert sorted(a["remaining_mines"] for a in answers) == [9, 10]
    with Raw(base) as raw:
        code, last = raw.json("POST", "/api/mines/act", {"game": game, "action": "flag",
                                                         "cell": [0, 0, 0]})
    assert last["remaining_mines"] == 9 and last["state"][0] == 2  # flagged once more
