"""The play server's JSON API, without a browser: each answer checked against the
levelforge API it wraps (generate, replay, solve, judge), errors checked for the API's own
messages, and the server checked to stay up and inside its static folder."""
import json
import os
import socket

import pytest

httpx = pytest.importorskip("httpx")
pytest.importorskip("starlette")

from levelforge import batch, play, sokoban, symmetry  # noqa: E402
from levelforge.errors import ConfigError  # noqa: E402
from levelforge.play.app import STATIC  # noqa: E402
from levelforge.symmetry.board import mirror_point  # noqa: E402

JSON = {"Content-Type": "application/json"}


@pytest.fixture(scope="module")
def batch_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("api") / "small.jsonl"
    batch.run(sokoban.Generator(width=6, height=6, boxes=1, pushes=(2, 5)), 60, seed=3,
              path=str(path), show_progress=False)
    return path


@pytest.fixture(scope="module")
def base(batch_file):
    with play.running(batch_file) as url:
        yield url


@pytest.fixture(scope="module")
def client(base):
    with httpx.Client(base_url=base, timeout=60) as c:
        yield c


def _raw_get(base, path):
    """Status and body of a GET sent byte for byte (no client normalises the path)."""
    host, port = base.split("//")[1].rstrip("/").split(":")
    with socket.create_connection((host, int(port)), timeout=30) as sock:
        sock.sendall(f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nConnection: close\r\n\r\n"
                     .encode())
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    return int(head.split()[1]), body


def _board(svg):
    """(player, boxes) drawn in a level SVG."""
    player = tuple(int(v) for v in svg.split('data-player="')[1].split('"')[0].split(","))
    boxes = svg.split('data-boxes="')[1].split('"')[0]
    return player, {tuple(int(v) for v in b.split(",")) for b in boxes.split(";") if b}


def test_generated_level_is_the_apis_level(client):
    got = client.get("/api/sokoban/generate?seed=7&width=7&height=7&boxes=2&pushes=4-8").json()
    want = sokoban.generate(7, width=7, height=7, boxes=2, pushes=(4, 8))
    assert got["xsb"] == want.level.to_xsb()
    assert (got["optimal"], got["solution"], got["seed"]) == (want.pushes, want.solution, 7)
    assert _board(got["state"]["svg"]) == (want.level.player, set(want.level.boxes))


def test_campaign_and_microban_levels_are_the_apis_levels(client):
    got = client.get("/api/sokoban/campaign/12").json()
    assert got["xsb"] == sokoban.generate(12, **sokoban.campaign(12)).level.to_xsb()
    got = client.get("/api/sokoban/microban/3").json()
    assert got["xsb"] == sokoban.collections.load("microban")[2].to_xsb()
    assert got["optimal"] is None  # unknown until solved


def test_moves_replay_the_proof_solution_to_solved_with_its_push_count(client):
    level = client.get("/api/sokoban/generate?seed=3&width=7&height=7&boxes=2").json()
    proof = sokoban.generate(3, width=7, height=7, boxes=2)
    moves = ""
    for letter in proof.solution:
        state = client.post("/api/sokoban/move", json={"xsb": level["xsb"], "moves": moves,
                                                      "action": letter.lower()}).json()
        moves = state["moves"]
        assert state["refused"] is None
    assert moves == proof.solution  # lower-case keys, pushes decided by the server
    assert state["solved"] and state["pushes"] == proof.pushes
    assert state["optimal"]["status"] == "solved" and state["optimal"]["pushes"] == proof.pushes


def test_undo_and_restart(client):
    xsb = sokoban.Level.from_xsb("#######\n#@ $ .#\n#######").to_xsb()
    state = client.post("/api/sokoban/move", json={"xsb": xsb, "moves": "rR",
                                                  "action": "undo"}).json()
    assert (state["moves"], state["pushes"], state["steps"]) == ("r", 0, 1)
    state = client.post("/api/sokoban/move", json={"xsb": xsb, "moves": "rR",
                                                  "action": "restart"}).json()
    assert (state["moves"], state["steps"]) == ("", 0)


def test_a_blocked_move_is_refused_and_changes_nothing(client):
    xsb = sokoban.Level.from_xsb("#######\n#@$$..#\n#######").to_xsb()
    for action, reason in (("l", "walks into a wall"), ("r", "is blocked")):
        state = client.post("/api/sokoban/move", json={"xsb": xsb, "moves": "",
                                                      "action": action}).json()
        assert state["moves"] == "" and reason in state["refused"]


def test_solve_reports_solved_unsolvable_and_limit_as_the_solver_does(client):
    xsb = sokoban.Level.from_xsb("#######\n#@ $ .#\n#     #\n#######").to_xsb()
    solved = client.post("/api/sokoban/solve", json={"xsb": xsb, "moves": "r"}).json()
    assert (solved["status"], solved["pushes"]) == ("solved", 2)
    assert sokoban.replay(sokoban.replay(sokoban.read_xsb(xsb)[0], "r"),
                          solved["solution"]).is_solved
    stuck = client.post("/api/sokoban/solve", json={"xsb": xsb, "moves": "drrruLL"}).json()
    assert stuck["status"] == "unsolvable"  # the box is in a corner
    hard = sokoban.collections.load("microban")[143].to_xsb()  # level 144: 16 boxes
    limit = client.post("/api/sokoban/solve", json={"xsb": hard, "time_limit": 0.05}).json()
    assert limit["status"] == "limit" and limit["time_limit"] == 0.05
    # what the stopped search proved: from the start's bound (24) to the optimum (36)
    assert limit["lower_bound"] is None or 24 <= limit["lower_bound"] <= 36
    longer = client.post("/api/sokoban/solve", json={"xsb": hard, "time_limit": 1}).json()
    if longer["status"] == "solved":  # a fast machine proves it within the second
        assert longer["pushes"] == longer["lower_bound"] == 36  # its known optimum
        assert sokoban.replay(sokoban.read_xsb(hard)[0], longer["solution"]).is_solved
    else:  # stopped by the clock: a bound proved on the way, never "unsolvable"
        assert longer["status"] == "limit" and 24 <= longer["lower_bound"] <= 36
    assert (solved["lower_bound"], stuck["lower_bound"]) == (2, None)


def test_pasted_xsb_gives_the_level_or_the_parsers_message(client):
    text = "; mine\n#####\n#@$.#\n#####\n"
    got = client.get("/api/sokoban/custom", params={"xsb": text}).json()
    assert got["xsb"] == sokoban.read_xsb(text)[0].to_xsb() and got["title"] == "mine"
    bad = client.get("/api/sokoban/custom", params={"xsb": "#####\n#@$x#\n#####"})
    assert bad.status_code == 400
    with pytest.raises(Exception) as exc:
        sokoban.read_xsb("#####\n#@$x#\n#####")
    assert bad.json()["error"] == str(exc.value) == "line 2, column 4: unknown character 'x'"


@pytest.mark.parametrize("url, message", [
    ("/api/sokoban/generate?seed=1&width=99", "width must be an integer in [3, 64], got 99"),
    ("/api/sokoban/generate?seed=1&colour=red", "/api/sokoban/generate: unknown parameter "
     "'colour'; it accepts seed, width, height, boxes, inner_walls, pushes"),
    ("/api/sokoban/generate?width=7", "/api/sokoban/generate: missing parameter 'seed'"),
    ("/api/sokoban/generate?seed=x", "/api/sokoban/generate: parameter 'seed': expected an "
     "integer, got 'x'"),
    ("/api/sokoban/generate?seed=1&pushes=8", "pushes must look like LO-HI, got '8'"),
    ("/api/sokoban/campaign/-1", "index must be an integer in [0, 9223372036854775807], got -1"),
    ("/api/sokoban/microban/156", "Microban has levels 1 to 155; there is no level 156"),
    ("/api/symmetry/generate?size=12&seed=1", "size must be an integer in [3, 9], got 12"),
    ("/api/symmetry/generate?size=5&seed=1&strategy=SPIRAL", "unknown strategy 'SPIRAL'; "
     "choose one of ['DEFAULT', 'CORNER_FIRST', 'CENTER_FIRST', 'DIAGONAL', 'EDGE_WALK']"),
    ("/api/gallery/items?pushes=9-3", "/api/gallery/items: parameter 'pushes': LO must not "
     "exceed HI, got '9-3'"),
    ("/api/gallery/items?page=99", "page 99 does not exist: 60 matching items make 2 page(s), "
     "numbered from 0"),
])
def test_bad_requests_answer_with_the_apis_messages(client, url, message):
    response = client.get(url)
    assert response.status_code == 400
    assert response.json() == {"error": message}


def test_bad_request_messages_are_the_apis_own(client):
    for call, url in ((lambda: sokoban.Generator(width=99),
                       "/api/sokoban/generate?seed=1&width=99"),
                      (lambda: symmetry.generate(12, 1),
                       "/api/symmetry/generate?size=12&seed=1")):
        with pytest.raises(ConfigError) as exc:
            call()
        assert client.get(url).json()["error"] == str(exc.value)


def test_server_survives_malformed_bodies_and_keeps_answering(client):
    for body in (b"not json", b"[1, 2]", json.dumps({"xsb": 3, "action": "u"}).encode(),
                 json.dumps({"xsb": "#@$.#", "action": "jump", "moves": ""}).encode(),
                 json.dumps({"xsb": "#####\n#@$.#\n#####", "action": "u", "moves": "lx"}).encode()):
        response = client.post("/api/sokoban/move", content=body,
                               headers=JSON)
        assert response.status_code == 400, body
        assert response.json()["error"]
    response = client.post("/api/symmetry/check", headers=JSON, content=json.dumps(
        {"size": 3, "board_a": {"start": [0, 0], "goal": [2, 2]},
         "board_b": {"start": [2, 0], "goal": [0, 2]}, "path": [[0, 0], [9, 9]]}))
    assert response.status_code == 400 and "outside the 3x3 board" in response.json()["error"]
    assert client.get("/api/nothing").status_code == 404
    assert client.get("/api/sokoban/microban/1").status_code == 200  # still up


def test_never_serves_files_outside_its_static_folder(base, client, batch_file):
    secret = os.path.join(os.path.dirname(STATIC), "app.py")  # a file just outside static/
    assert os.path.exists(secret)
    for path in ("/static/../app.py", "/static/%2e%2e/app.py", "/static/..%2fapp.py",
                 "/static/%2e%2e%2f%2e%2e%2fplay%2fapp.py", "/static//etc/passwd",
                 "/static/../../../../../../etc/passwd",
                 "/static/%2e%2e%5capp.py", "/static/....//app.py", "/../../etc/passwd"):
        status, body = _raw_get(base, path)
        assert status in (400, 404), path
        assert b"create_app" not in body and b"root:" not in body
    assert _raw_get(base, "/static/css/play.css")[0] == 200
    status, body = _raw_get(base, "/sokoban/../static/../app.py")  # a Sokoban page URL
    assert status == 200 and b"<title>Sokoban" in body and b"create_app" not in body
    for name in ("../../etc/passwd", "/etc/passwd", str(batch_file), "other.jsonl"):
        response = client.get("/api/gallery", params={"file": name})
        assert response.status_code == 400
        assert "this server shows only small.jsonl" in response.json()["error"]


def test_gallery_filters_match_the_files_figures(client, batch_file):
    records = [json.loads(line) for line in open(batch_file)]
    summary = client.get("/api/gallery", params={"file": "small.jsonl"}).json()
    assert summary["count"] == 60 and summary["values"]["pushes"] == [r["pushes"]
                                                                       for r in records]
    page = client.get("/api/gallery/items?pushes=3-4&per_page=200").json()
    want = [i for i, r in enumerate(records) if 3 <= r["pushes"] <= 4]
    assert page["matched"] == len(want) and [it["item"] for it in page["items"]] == want
    first = page["items"][0]
    assert first["href"] == f"/sokoban/file/{want[0]}"
    level = client.get(first["href"].replace("/sokoban", "/api/sokoban")).json()
    assert level["xsb"] == sokoban.read_xsb(records[want[0]]["level"])[0].to_xsb()
    assert (level["optimal"], level["solution"]) == (records[want[0]]["pushes"],
                                                     records[want[0]]["solution"])
    open_ended = client.get("/api/gallery/items?elapsed_ms=-1e9&per_page=1").json()
    assert open_ended["matched"] == 60


def test_symmetry_puzzle_comes_without_its_answer_until_asked(client):
    got = client.get("/api/symmetry/generate?size=5&seed=3&strategy=DIAGONAL").json()
    want = symmetry.generate(5, 3, "DIAGONAL")
    assert "solution" not in got
    assert (got["board_a"], got["board_b"]) == (want.board_a.to_dict(), want.board_b.to_dict())
    full = client.get("/api/symmetry/generate?size=5&seed=3&strategy=DIAGONAL&solution=1").json()
    assert full["solution"] == [list(p) for p in want.solution]


def test_check_is_the_judges_verdict_and_mirrors_the_stroke(client):
    p = symmetry.generate(5, 4)
    body = {"size": 5, "board_a": p.board_a.to_dict(), "board_b": p.board_b.to_dict()}
    for path in (p.solution, p.solution[:-1], p.solution[:3] + p.solution[1:2]):
        got = client.post("/api/symmetry/check", json={**body, "path": path}).json()
        want = symmetry.judge(p, path).to_dict()
        assert {k: got[k] for k in want} == want
        assert got["mirrored"] == [list(mirror_point(q, 5)) for q in path]
    assert client.post("/api/symmetry/check", json={**body, "path": p.solution}).json()["solved"]
