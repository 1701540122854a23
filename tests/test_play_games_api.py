"""The play server's Minesweeper and defense API, without a browser: answers checked
against the levelforge API played the same way; the minefield never in an answer before
the game ends."""
import json
from importlib import resources

import numpy as np
import pytest

httpx = pytest.importorskip("httpx")
pytest.importorskip("starlette")

from levelforge import play  # noqa: E402
from levelforge.defense import Defense, Scenario  # noqa: E402
from levelforge.mines import Assistant, Game  # noqa: E402


@pytest.fixture(scope="module")
def client():
    with play.running() as url, httpx.Client(base_url=url, timeout=60) as c:
        yield c


def _public(answer, game):
    """The answer's arrays equal the twin game's public observation, and nothing else."""
    obs = game.observe()
    assert answer["state"] == obs.state.ravel().tolist()
    assert answer["numbers"] == obs.numbers.ravel().tolist()
    assert answer["selectable"] == obs.selectable.ravel().astype(int).tolist()
    assert (answer["status"], answer["remaining_mines"]) == (obs.status, obs.remaining_mines)


def test_mines_answers_are_the_public_observation_and_never_the_minefield(client):
    answer = client.get("/api/mines/new?level=easy&seed=5").json()
    twin = Game("easy", seed=5)
    gid = answer["game"]
    _public(answer, twin)
    bodies = [answer]
    moves = [("open", (2, 2, 0))]
    while twin.status in ("ready", "playing") and moves:
        action, cell = moves.pop(0)
        answer = client.post("/api/mines/act", json={"game": gid, "action": action,
                                                     "cell": list(cell)}).json()
        getattr(twin, action)(cell)
        _public(answer, twin)
        if twin.status in ("ready", "playing"):
            bodies.append(answer)
            hint = client.get(f"/api/mines/hint?game={gid}").json()
            want = Assistant().analyze(twin.observe())
            assert [m["cell"] for m in hint["moves"]] == [list(m.cell) for m in want.moves]
            bodies.append(hint)
            moves = [(m.action, m.cell) for m in want.moves[:3]]
    assert twin.status in ("won", "playing")
    mines = np.flatnonzero(twin._mine).tolist()
    for body in bodies:  # nothing that could hold the minefield
        assert "minefield" not in body and "exploded" not in body
        text = json.dumps(body)
        assert json.dumps(mines) not in text
    if twin.status == "won":
        assert answer["minefield"] == twin.minefield().ravel().astype(int).tolist()


def test_mines_share_link_rebuilds_the_board_from_its_first_click(client):
    first = client.get("/api/mines/new?level=normal&seed=9").json()
    opened = client.post("/api/mines/act", json={"game": first["game"], "action": "open",
                                                 "cell": [3, 3, 0]}).json()
    assert opened["share"] == "seed=9&level=normal&start=3,3,0"
    again = client.get("/api/mines/new?" + opened["share"]).json()
    assert again["game"] != first["game"]
    assert (again["state"], again["numbers"]) == (opened["state"], opened["numbers"])
    _public(again, Game.from_share_code(opened["share"]))


def test_mines_refusals_are_the_games_own_messages(client):
    gid = client.get("/api/mines/new?level=easy&seed=1").json()["game"]
    inner = client.post("/api/mines/act", json={"game": gid, "action": "open",
                                                "cell": [2, 2, 1]}).json()
    game = Game("easy", seed=1)
    with pytest.raises(Exception) as exc:
        game.open((2, 2, 1))
    assert inner["refused"] == str(exc.value) and "not selectable" in inner["refused"]
    assert inner["status"] == "ready"
    flag = client.post("/api/mines/act", json={"game": gid, "action": "flag",
                                               "cell": [0, 0, 0]}).json()
    assert flag["state"][0] == 2 and flag["remaining_mines"] == 9
    unflag = client.post("/api/mines/act", json={"game": gid, "action": "flag",
                                                 "cell": [0, 0, 0]}).json()
    assert unflag["state"][0] == 0 and unflag["remaining_mines"] == 10
    bad = client.post("/api/mines/act", json={"game": "nope", "action": "open", "cell": [0, 0, 0]})
    assert bad.status_code == 400 and "no such game" in bad.json()["error"]
    level = client.get("/api/mines/new?level=huge&seed=1")
    assert level.status_code == 400 and level.json()["error"].startswith("unknown level 'huge'")


def test_mines_exact_hint_gives_every_closed_cells_probability(client):
    gid = client.get("/api/mines/new?level=hard&seed=2&start=5,5,0").json()["game"]
    hint = client.get(f"/api/mines/hint?game={gid}&exact=1").json()
    want = Assistant().analyze(Game.from_share_code("seed=2&level=hard&start=5,5,0").observe(),
                               exact=True)
    got = np.array([np.nan if p is None else p for p in hint["probabilities"]])
    assert np.allclose(got, want.probabilities.ravel(), atol=1e-4, equal_nan=True)


def _defense_twin(seed, placements):
    d = Defense(seed=seed)
    for x, y, kind in placements:
        d.place(x, y, kind)
    return d


def test_defense_state_shows_every_check_route_and_the_forecast(client):
    answer = client.get("/api/defense/new?seed=4").json()
    gid = answer["game"]
    cannons = [b for b in Scenario.lighthouse().plan[0] if b[2] == "cannon"]
    for x, y, kind in cannons:
        answer = client.post("/api/defense/act", json={"game": gid, "action": "place",
                                                       "x": x, "y": y, "kind": kind}).json()
        assert answer["refused"] is None
    twin = _defense_twin(4, cannons)
    for kind in ("cannon", "wall"):
        for y, row in enumerate(answer["checks"][kind]):
            for x, check in enumerate(row):
                want = twin.check_placement(x, y, kind)
                assert (check["code"], check["message"]) == (want.code, want.message)
    assert answer["routes"] == {e: [list(c) for c in twin.route(e)] for e in ("A", "B")}
    assert answer["forecast"] == twin.forecast().to_dict()
    assert answer["material"] == twin.material == 2
    x, y = next((x, y) for y in range(9) for x in range(7)
                if twin.check_placement(x, y, "wall").code == "seals_route")
    sealing = client.post("/api/defense/act", json={"game": gid, "action": "place", "x": x,
                                                    "y": y, "kind": "wall"}).json()
    assert sealing["refused"]["code"] == "seals_route"
    assert sealing["refused"]["message"] == twin.check_placement(x, y, "wall").message
    assert sealing["material"] == 2 and len(sealing["buildings"]) == 2


def test_defense_fight_frames_end_with_the_record_and_retry_restores(client):
    gid = client.get("/api/defense/new?seed=0").json()["game"]
    got = client.post("/api/defense/fight", json={"game": gid, "step": 25,
                                                  "frames": 2000}).json()
    rec = Defense(seed=0).run_wave()
    last = got["frames"][-1]
    assert got["over"] and (last["status"], last["tick"], last["kills"], last["leaks_a"],
                            last["health"]) == (rec.outcome, rec.ticks, rec.kills, rec.leaks_a,
                                                rec.health)
    assert got["state"]["records"] == [rec.to_dict()] and got["state"]["phase"] == "defeat"
    again = client.post("/api/defense/act", json={"game": gid, "action": "retry"}).json()
    assert (again["phase"], again["records"], again["material"], again["health"]) == \
        ("build", [], 10, 5)
    refused = client.post("/api/defense/act", json={"game": gid, "action": "retry"})
    assert refused.status_code == 400 and "only after a defeat" in refused.json()["error"]


def test_a_scenario_file_is_played(tmp_path):
    toml = (resources.files("levelforge.defense").joinpath("lighthouse.toml").read_text()
            .replace('name = "lighthouse"', 'name = "cove"'))
    (tmp_path / "cove.toml").write_text(toml)
    with play.running(tmp_path / "cove.toml") as url, httpx.Client(base_url=url) as c:
        assert c.get("/api/defense/new?seed=2").json()["scenario"]["name"] == "cove"
    data = Scenario.lighthouse().to_dict()
    data["name"] = "harbour"
    data["economy"]["initial_material"] = 14
    path = tmp_path / "harbour.json"
    path.write_text(json.dumps(data))
    with play.running(path) as url, httpx.Client(base_url=url, timeout=60) as c:
        assert c.get("/api/info").json()["file"]["kind"] == "defense"
        state = c.get("/api/defense/new?seed=1").json()
        assert (state["scenario"]["name"], state["material"]) == ("harbour", 14)
        assert c.get("/api/defense/new?seed=1&scenario=lighthouse").json()["material"] == 10
        assert c.get("/api/gallery").json()["error"].endswith("play it at /defense")
        bad = c.get("/api/defense/new?scenario=other")
        assert bad.json()["error"] == ("unknown scenario 'other': this server has lighthouse "
                                       "or harbour.json")


def test_mines_no_guess_share_code_and_complete_hints(client):
    first = client.get("/api/mines/new?level=beginner2d&seed=0&no_guess=1").json()
    assert first["no_guess"] is True and first["status"] == "ready"
    gid = first["game"]
    answer = client.post("/api/mines/act", json={"game": gid, "action": "open",
                                                 "cell": [4, 4, 0]}).json()
    assert answer["share"] == "seed=0&level=beginner2d&start=4,4,0&no_guess=1"
    twin = Game.from_share_code(answer["share"])
    _public(answer, twin)
    again = client.get("/api/mines/new?" + answer["share"]).json()
    _public(again, twin)
    while answer["status"] == "playing":  # the hint endpoint alone wins it
        hint = client.get(f"/api/mines/hint?game={gid}").json()
        want = Assistant(complete=True).analyze(twin.observe())
        assert hint["status"] == want.status == "moves"
        assert [m["cell"] for m in hint["moves"]] == [list(m.cell) for m in want.moves]
        for move in want.moves:
            if twin.status == "playing" and twin.observe().state[move.cell[::-1]] == 0:
                answer = client.post("/api/mines/act", json={
                    "game": gid, "action": move.action, "cell": list(move.cell)}).json()
                getattr(twin, move.action)(move.cell)
                assert "rating" not in answer or answer["status"] == "won"
    assert answer["status"] == "won"
    assert answer["rating"] == twin.rating().to_dict() and answer["rating"]["solved"]
    bad = client.get("/api/mines/new?level=easy&seed=1&no_guess=maybe")
    assert bad.status_code == 400 and "no_guess must be False, True or 'easy'" in \
        bad.json()["error"]
