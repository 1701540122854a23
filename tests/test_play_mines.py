"""HyperMines 3D in a real Chromium: a game played by clicking the WebGL canvas where the
page's camera shows each cell, following the assistant's hints until won or stuck; the
share link; a flag placed and removed; an inner cell refused; a drag that only turns;
no-guess boards won by the hints alone, and their share links."""
import json

import pytest

from browser import (  # noqa: F401  (fixtures)
    Finger, browser, open_page, server, shot, sokoban_batch, touched, wait_state, watched)
from levelforge.mines import Assistant, Game, autoplay

LEVEL, SEED, FIRST = "easy", 12, (2, 2, 0)


def _point(page, cell):
    """Peel the layers in front of ``cell``, then its screen point (checked by picking)."""
    page.fill("#layer", str(cell[2]))
    page.dispatch_event("#layer", "input")
    p = page.evaluate("([x, y, z]) => minesView.screenOf(x, y, z)", list(cell))
    hit = page.evaluate("([x, y]) => minesView.cellAt(x, y)", [p["x"], p["y"]])
    assert hit is not None and tuple(hit["cell"]) == tuple(cell), (cell, hit)
    return p


def _click(page, cell, button="left"):
    version = page.evaluate("Number(document.body.dataset.version || 0)")
    p = _point(page, cell)
    page.mouse.click(p["x"], p["y"], button=button)
    page.wait_for_function(f"Number(document.body.dataset.version || 0) > {version}")
    return page.evaluate("minesView.view()")


def _bodies(page):
    """Collect every /api/mines answer the page receives."""
    bodies = []

    def keep(response):
        if "/api/mines/" in response.url:
            try:
                text = response.text()
            except Exception:  # a body read after the page closed: nothing to inspect
                return
            bodies.append(text)
    page.on("response", keep)
    return bodies


def test_game_played_by_clicking_the_canvas_following_the_hints(server, watched):
    page = watched.page
    bodies = _bodies(page)
    page.goto(server + f"mines?level={LEVEL}&seed={SEED}")
    wait_state(page, "ready")
    twin = Game(LEVEL, seed=SEED)
    view = _click(page, FIRST)
    twin.open(FIRST)
    assert page.url.endswith(f"/mines?seed={SEED}&level={LEVEL}&start=2,2,0")
    played = 0
    while view["status"] == "playing" and played < 80:
        hints = page.evaluate("Number(document.body.dataset.hints || 0)")
        page.click("#hint")
        page.wait_for_function(f"Number(document.body.dataset.hints || 0) > {hints}")
        hint = page.evaluate("minesView.hint()")
        if hint["status"] != "moves":
            break
        if played == 0:
            shot(page, "mines-hint")
        for move in hint["moves"][:4]:
            cell = tuple(move["cell"])
            i = (cell[2] * twin.level.height + cell[1]) * twin.level.width + cell[0]
            if view["state"][i] != 0 or view["status"] != "playing":
                continue  # opened by a cascade meanwhile
            view = _click(page, cell, "left" if move["action"] == "open" else "right")
            getattr(twin, move["action"])(cell)
            played += 1
    assert view["status"] == twin.status and view["status"] in ("won", "playing")
    obs = twin.observe()
    assert view["state"] == obs.state.ravel().tolist()
    assert view["numbers"] == obs.numbers.ravel().tolist()
    page.fill("#layer", "0")
    page.dispatch_event("#layer", "input")
    shot(page, "mines-playing" if view["status"] == "playing" else "mines-won")
    _assert_no_minefield(bodies, twin)


def _assert_no_minefield(bodies, twin):
    """No answer of a running game holds the minefield, its mine list or a rating."""
    assert bodies
    mines = twin._mine.nonzero()[0].tolist()
    for text in bodies:
        body = json.loads(text)
        if body.get("status") in ("won", "lost"):
            continue
        assert "minefield" not in body and "rating" not in body
        assert json.dumps(mines) not in text


def test_share_link_reopened_gives_the_same_board(browser, server, watched):
    page = watched.page
    page.goto(server + f"mines?level=normal&seed={SEED}")
    wait_state(page, "ready")
    first = _click(page, (3, 3, 0))
    shared = page.locator("#share").input_value()
    assert shared.endswith(f"/mines?seed={SEED}&level=normal&start=3,3,0")
    other = open_page(browser)
    try:
        other.page.goto(shared)
        wait_state(other.page, "playing")
        again = other.page.evaluate("minesView.view()")
        assert (again["state"], again["numbers"]) == (first["state"], first["numbers"])
        assert other.unexpected() == []
    finally:
        other.page.context.close()


def test_flag_placed_and_removed_and_an_inner_cell_refused(server, watched):
    page = watched.page
    page.goto(server + "mines?level=easy&seed=3")
    wait_state(page, "ready")
    view = _click(page, (0, 0, 0), "right")
    assert view["state"][0] == 2 and page.locator("#left").text_content() == "9"
    view = _click(page, (0, 0, 0), "right")
    assert view["state"][0] == 0 and page.locator("#left").text_content() == "10"
    view = _click(page, (2, 2, 1))
    assert view["status"] == "ready"
    status = page.locator("#status").text_content()
    assert status.startswith("Refused: open: cell (2, 2, 1) is not selectable")


def test_a_drag_turns_the_view_and_opens_nothing(server, watched):
    page = watched.page
    page.goto(server + "mines?level=easy&seed=4")
    wait_state(page, "ready")
    before = page.evaluate("minesView.camera()")
    p = page.evaluate("minesView.screenOf(2, 2, 0)")
    page.mouse.move(p["x"], p["y"])
    page.mouse.down()
    page.mouse.move(p["x"] + 80, p["y"] + 30, steps=8)
    page.mouse.up()
    page.wait_for_timeout(300)
    assert page.evaluate("minesView.camera()") != before
    assert page.evaluate("minesView.view()")["status"] == "ready"
    assert page.evaluate("document.body.dataset.version") is None


def test_a_click_on_a_number_chords_and_a_mine_loses(server, watched):
    page = watched.page
    page.goto(server + f"mines?level=normal&seed={SEED}")
    wait_state(page, "ready")
    twin = Game("normal", seed=SEED)
    view = _click(page, (3, 3, 0))
    twin.open((3, 3, 0))
    obs = twin.observe()
    mine = twin._mine.reshape(obs.shape)

    def around(x, y, z):
        return [(x + dx, y + dy, z + dz) for dx in (-1, 0, 1) for dy in (-1, 0, 1)
                for dz in (-1, 0, 1) if (dx, dy, dz) != (0, 0, 0)
                and 0 <= x + dx < 7 and 0 <= y + dy < 7 and 0 <= z + dz < 7]

    def candidate():  # a number on the front layer whose mines can all be flagged now
        for y in range(7):
            for x in range(7):
                if obs.state[0, y, x] != 1 or obs.numbers[0, y, x] == 0:
                    continue
                near = around(x, y, 0)
                mines = [c for c in near if mine[c[2], c[1], c[0]]]
                closed = [c for c in near if obs.state[c[2], c[1], c[0]] == 0]
                if closed and len(closed) > len(mines) and all(
                        obs.selectable[c[2], c[1], c[0]] for c in mines):
                    return (x, y, 0), mines
        return None

    found = candidate()
    assert found, "no number to chord on this board"
    number, mines = found
    for cell in mines:
        view = _click(page, cell, "right")
        twin.flag(cell)
    page.fill("#layer", "0")
    page.dispatch_event("#layer", "input")
    version = page.evaluate("Number(document.body.dataset.version)")
    p = page.evaluate("([x, y, z]) => minesView.screenOf(x, y, z, true)", list(number))
    assert page.evaluate("([x, y]) => minesView.cellAt(x, y)", [p["x"], p["y"]]) == \
        {"cell": list(number), "kind": "number"}
    page.mouse.click(p["x"], p["y"])
    page.wait_for_function(f"Number(document.body.dataset.version) > {version}")
    opened = twin.chord(number)
    view = page.evaluate("minesView.view()")
    assert opened > 0 and view["state"] == twin.observe().state.ravel().tolist()
    obs = twin.observe()
    bad = next((x, y, z) for z in range(7) for y in range(7) for x in range(7)
               if mine[z, y, x] and obs.selectable[z, y, x] and obs.state[z, y, x] == 0)
    view = _click(page, bad)
    assert view["status"] == "lost" and view["exploded"] == list(bad)
    assert view["minefield"] == mine.ravel().astype(int).tolist()
    wait_state(page, "lost")
    assert page.locator("#card h3").text_content() == "Boom"
    shot(page, "mines-lost")


def _play_hints(page, twin, rounds):
    """Ask the page's hint endpoint (the Hint button) and play every move it proves, as
    a click would, for ``rounds`` rounds or until the game ends. Returns the moves and
    the hint statuses; the twin plays the same moves."""
    moves, statuses = [], []
    for _ in range(rounds):
        view = page.evaluate("minesView.view()")
        if view["status"] != "playing":
            break
        hints = page.evaluate("Number(document.body.dataset.hints || 0)")
        page.click("#hint")
        page.wait_for_function(f"Number(document.body.dataset.hints || 0) > {hints}")
        hint = page.evaluate("minesView.hint()")
        statuses.append(hint["status"])
        if hint["status"] != "moves":
            break
        for move in hint["moves"]:
            cell, view = tuple(move["cell"]), page.evaluate("minesView.view()")
            i = (cell[2] * twin.level.height + cell[1]) * twin.level.width + cell[0]
            if view["status"] != "playing" or view["state"][i] != 0:
                continue  # opened by a cascade meanwhile
            _act(page, move["action"], cell)
            getattr(twin, move["action"])(cell)
            moves.append((move["action"], cell))
    return moves, statuses


def _act(page, action, cell):
    version = page.evaluate("Number(document.body.dataset.version || 0)")
    page.evaluate("([a, x, y, z]) => minesView.act(a, x, y, z)", [action, *cell])
    page.wait_for_function(f"Number(document.body.dataset.version || 0) > {version}")
    return page.evaluate("minesView.view()")


def test_no_guess_board_is_won_by_the_hints_without_a_guess(server, watched):
    # easy, seed 42, first click (2, 2, 0): the ordinary board needs a guess
    level, seed, first = "easy", 42, (2, 2, 0)
    assert autoplay(Game(level, seed), Assistant(complete=True), start=first).status == "stuck"
    page = watched.page
    bodies = _bodies(page)
    page.goto(server + f"mines?level={level}&seed={seed}")
    wait_state(page, "ready")
    page.select_option("select[name=no_guess]", "1")
    page.click("#form button[type=submit]")
    page.wait_for_url(f"**/mines?level={level}&seed={seed}&no_guess=1")
    wait_state(page, "ready")
    assert "no guessing" in page.locator("#title").text_content()
    twin = Game(level, seed, no_guess=True)
    view = _click(page, first)
    twin.open(first)
    assert page.url.endswith(f"/mines?seed={seed}&level={level}&start=2,2,0&no_guess=1")
    moves, statuses = _play_hints(page, twin, 60)
    assert len(statuses) >= 3 and set(statuses) == {"moves"}, statuses  # never a guess
    view = page.evaluate("minesView.view()")
    assert view["status"] == twin.status == "won"
    assert view["state"] == twin.observe().state.ravel().tolist()
    wait_state(page, "won")
    rating = twin.rating()
    assert rating.solved and view["rating"] == rating.to_dict()
    assert page.locator("#rating").text_content().startswith(f"Board: 3BV {rating.bbbv}, ")
    shot(page, "mines-no-guess-won")
    _assert_no_minefield(bodies, twin)


def test_no_guess_share_link_rebuilds_the_same_board(browser, server, watched):
    level, seed, first = "easy", 4, (2, 2, 0)
    page = watched.page
    page.goto(server + f"mines?level={level}&seed={seed}&no_guess=easy")
    wait_state(page, "ready")
    assert page.locator("select[name=no_guess]").input_value() == "easy"
    twin = Game(level, seed, no_guess="easy")
    after_first = _click(page, first)
    twin.open(first)
    shared = page.locator("#share").input_value()
    assert shared.endswith(f"/mines?seed={seed}&level={level}&start=2,2,0&no_guess=easy")
    moves, _ = _play_hints(page, twin, 1)
    after_moves = page.evaluate("minesView.view()")
    assert moves and after_moves["state"] != after_first["state"]
    other = open_page(browser)
    try:
        other.page.goto(shared)
        wait_state(other.page, "playing")
        again = other.page.evaluate("minesView.view()")
        assert again["no_guess"] == "easy"
        for key in ("state", "numbers", "selectable", "remaining_mines"):
            assert again[key] == after_first[key], key
        for action, cell in moves:  # the same opens give the same public observation
            again = _act(other.page, action, cell)
        for key in ("state", "numbers", "selectable", "remaining_mines", "status"):
            assert again[key] == after_moves[key], key
        assert other.unexpected() == []
    finally:
        other.page.context.close()


def _version(page):
    return page.evaluate("Number(document.body.dataset.version || 0)")


def test_long_press_flags_and_a_short_tap_opens(server, touched):
    page, finger = touched.page, Finger(touched.page)
    page.goto(server + "mines?level=easy&seed=3")
    wait_state(page, "ready")
    p = _point(page, (0, 0, 0))
    finger.press(p["x"], p["y"], 900)  # longer than the page's 500 ms long press
    page.wait_for_function("Number(document.body.dataset.version || 0) > 0")
    page.wait_for_timeout(300)  # no open may follow the lifted finger
    view = page.evaluate("minesView.view()")
    assert _version(page) == 1 and view["status"] == "ready"
    assert view["state"][0] == 2 and page.locator("#left").text_content() == "9"
    shot(page, "mines-touch-flag")
    p = _point(page, (2, 2, 0))
    finger.tap(p["x"], p["y"])
    page.wait_for_function("Number(document.body.dataset.version || 0) > 1")
    twin = Game("easy", seed=3)
    twin.flag((0, 0, 0))
    twin.open((2, 2, 0))
    view = page.evaluate("minesView.view()")
    assert view["status"] == "playing" and view["state"] == twin.observe().state.ravel().tolist()
    assert view["state"][0] == 2  # the flag stays


def test_a_touch_drag_turns_the_view_and_opens_nothing(server, touched):
    page, finger = touched.page, Finger(touched.page)
    page.goto(server + "mines?level=easy&seed=4")
    wait_state(page, "ready")
    before = page.evaluate("minesView.camera()")
    p = page.evaluate("minesView.screenOf(2, 2, 0)")
    finger.down(p["x"], p["y"])
    finger.move(p["x"] + 90, p["y"] + 30, steps=8)
    finger.up()
    page.wait_for_timeout(700)  # past the long press: a moved finger never flags
    assert page.evaluate("minesView.camera()") != before
    assert page.evaluate("minesView.view()")["status"] == "ready" and _version(page) == 0


def test_a_hint_before_the_kernels_are_ready_says_the_assistant_is_being_prepared(
        server, watched):
    """The page asks /api/status before a hint: while the mines kernels are being prepared
    (here the first two answers say so, as on a machine's first run) it shows the
    progress, then gives the hint."""
    page = watched.page
    preparing = [{"state": "preparing", "kernels": 7, "seconds": 3.5},
                 {"state": "preparing", "kernels": 12, "seconds": 4.0}]
    seen = []

    def status(route):
        answer = route.fetch().json()
        if preparing:
            answer["systems"]["mines"] = preparing.pop(0)
        route.fulfill(json=answer)

    page.route("**/api/status", status)
    page.goto(server + "mines?level=easy&seed=5")
    wait_state(page, "ready")
    _click(page, (2, 2, 0))
    wait_state(page, "playing", "won")
    if page.evaluate("document.body.dataset.state") == "won":
        pytest.skip("the first click won this board")
    page.click("#hint")
    page.wait_for_selector("body[data-preparing=mines]")
    seen.append(page.text_content("#status"))
    page.wait_for_function("Number(document.body.dataset.hints || 0) > 0")
    assert seen[0].startswith("Preparing the assistant (first run only): ")
    assert "kernels compiled in" in seen[0]
    assert page.evaluate("document.body.dataset.preparing") is None
    assert page.evaluate("minesView.hint()")["status"] in ("moves", "stuck")
