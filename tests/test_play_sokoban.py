"""Sokoban in a real Chromium: levels solved by key presses replaying their proof, undo
and restart, Microban, share links, the solver button and error messages in the page."""
import time
from urllib.parse import quote

import pytest

from browser import (  # noqa: F401  (fixtures)
    browser, open_page, server, shot, sokoban_batch, wait_state, watched)
from levelforge import sokoban

KEYS = {"u": "ArrowUp", "l": "ArrowLeft", "r": "ArrowRight", "d": "ArrowDown"}
WASD = {"u": "w", "l": "a", "r": "d", "d": "s"}


def _press(page, moves):
    """Press one key per LURD letter (arrows and WASD alternately); pushes are not typed
    differently: the server decides what pushes."""
    for i, letter in enumerate(moves):
        page.keyboard.press((KEYS if i % 2 == 0 else WASD)[letter.lower()])


def _position(page):
    svg = page.locator("#board svg")
    player = tuple(int(v) for v in svg.get_attribute("data-player").split(","))
    boxes = {tuple(int(v) for v in b.split(","))
             for b in svg.get_attribute("data-boxes").split(";") if b}
    return player, boxes


def _wait_moves(page, n):
    page.wait_for_function(f"document.getElementById('moves').textContent === '{n}'")


def test_generated_level_solved_by_key_presses_replaying_its_proof(server, watched):
    page = watched.page
    page.goto(server + "sokoban?seed=7&width=7&height=7&boxes=2&pushes=4-8")
    wait_state(page, "playing")
    proof = sokoban.generate(7, width=7, height=7, boxes=2, pushes=(4, 8))
    assert _position(page) == (proof.level.player, set(proof.level.boxes))
    assert page.locator("#optimal").text_content() == str(proof.pushes)
    _press(page, proof.solution[:-1])
    _wait_moves(page, len(proof.solution) - 1)
    shot(page, "sokoban-playing")
    _press(page, proof.solution[-1])
    wait_state(page, "solved")
    assert page.locator("#pushes").text_content() == str(proof.pushes)
    assert page.locator("#moves").text_content() == str(len(proof.solution))
    status = page.locator("#status").text_content()
    assert f"Solved in {proof.pushes} pushes" in status
    assert f"Push-optimal: {proof.pushes}. Perfect!" in status
    shot(page, "sokoban-solved")


def test_undo_and_restart_by_keys_and_buttons(server, watched):
    page = watched.page
    page.goto(server + "sokoban/campaign/12")
    wait_state(page, "playing")
    proof = sokoban.generate(12, **sokoban.campaign(12))
    _press(page, proof.solution[:4])
    _wait_moves(page, 4)
    page.keyboard.press("z")
    _wait_moves(page, 3)
    after = sokoban.replay(proof.level, proof.solution[:3])
    assert _position(page) == (after.player, set(after.boxes))
    page.click("#undo")
    _wait_moves(page, 2)
    page.keyboard.press("r")
    _wait_moves(page, 0)
    assert _position(page) == (proof.level.player, set(proof.level.boxes))
    _press(page, proof.solution[:2])
    _wait_moves(page, 2)
    page.click("#restart")
    _wait_moves(page, 0)
    assert page.locator("#pushes").text_content() == "0"


def test_microban_level_loaded_and_next_level_by_button(server, watched):
    page = watched.page
    page.goto(server + "sokoban/microban/3")
    wait_state(page, "playing")
    levels = sokoban.collections.load("microban")
    assert page.locator("#title").text_content().startswith("Microban 3")
    assert _position(page) == (levels[2].player, set(levels[2].boxes))
    page.click("#form-microban [data-step='1']")
    page.wait_for_url("**/sokoban/microban/4")
    wait_state(page, "playing")
    assert _position(page) == (levels[3].player, set(levels[3].boxes))
    shot(page, "sokoban-microban")


def test_solve_button_reports_the_solvers_answer_and_show_solution_plays_the_proof(
        server, watched):
    page = watched.page
    page.goto(server + "sokoban/campaign/1")
    wait_state(page, "playing")
    proof = sokoban.generate(1, **sokoban.campaign(1))
    _press(page, proof.solution[:1])
    _wait_moves(page, 1)
    page.select_option("#time-limit", "1")
    page.click("#solve")
    page.wait_for_function("document.getElementById('status').textContent.startsWith('Solver:')")
    want = sokoban.solve(sokoban.replay(proof.level, proof.solution[:1]), time_limit=1)
    assert page.locator("#status").text_content().startswith(
        f"Solver: solved, {want.pushes} pushes and {want.moves} moves from here")
    page.click("#show")  # restarts, then plays the generator's proof move by move
    wait_state(page, "solved")
    assert page.locator("#moves").text_content() == str(len(proof.solution))
    assert page.locator("#pushes").text_content() == str(proof.pushes)


def _kept_answer(monkeypatch, level):
    """The solver's real answer for ``level`` when it stops with a solution it kept: the
    incumbent phase hands it the search for any solution's, and the second push-optimal
    search stops at a tiny cap before proving it (as a long solve stops at its clock)."""
    from dataclasses import replace

    from levelforge.sokoban import solver as solver_mod
    found = sokoban.Solver().solve(level, optimal=False)
    monkeypatch.setattr(solver_mod, "RESTART_AT", 20)
    monkeypatch.setattr(solver_mod.Solver, "_incumbent",
                        lambda self, lv, cap, limit: replace(found, optimal=False))
    r = sokoban.Solver().solve(level, max_nodes=40)
    assert r.status == "limit" and r.solution == found.solution and not r.optimal
    return {**r.to_dict(), "time_limit": 1, "from_moves": "", "max_nodes": 40}


def test_show_solution_plays_the_solution_a_stopped_solve_kept(server, watched, monkeypatch):
    page = watched.page
    level = sokoban.collections.load("microban")[21]  # no proof of its own: it asks the solver
    answer = _kept_answer(monkeypatch, level)
    page.route("**/api/sokoban/solve", lambda route: route.fulfill(json=answer))
    page.goto(server + "sokoban/microban/22")
    wait_state(page, "playing")
    page.click("#show")
    wait_state(page, "solved")
    assert page.locator("#moves").text_content() == str(answer["moves"])
    assert page.locator("#pushes").text_content() == str(answer["pushes"])
    page.unroute("**/api/sokoban/solve")


def test_a_solve_stopped_by_its_state_cap_says_so_in_the_page(server, watched, monkeypatch):
    import json

    from levelforge.play import sokoban as play_sokoban
    monkeypatch.setattr(play_sokoban, "SOLVE_MAX_NODES", 20_000)
    level = sokoban.collections.load("microban")[143]
    answer = play_sokoban.solve_position(json.dumps(
        {"xsb": level.to_xsb(), "moves": "", "time_limit": 5}))  # the server's real answer
    assert answer["limit_by"] == "states"
    page = watched.page
    page.route("**/api/sokoban/solve", lambda route: route.fulfill(json=answer))
    page.goto(server + "sokoban/microban/144")
    wait_state(page, "playing")
    page.select_option("#time-limit", "5")
    page.click("#solve")
    page.wait_for_function("document.getElementById('status').textContent.startsWith('Solver:')")
    status = page.locator("#status").text_content()
    assert status.startswith("Solver: limit. The solver reached its cap of 20,000 stored "
                             "states (")
    assert "5 s limit" not in status
    page.unroute("**/api/sokoban/solve")


def test_shared_url_reloaded_in_a_new_page_gives_the_same_level(browser, server, watched):
    page = watched.page
    page.goto(server + "sokoban")
    wait_state(page, "playing")
    form = page.locator("#form-generate")
    for name, value in (("width", "8"), ("height", "7"), ("boxes", "3"), ("inner_walls", "1"),
                        ("pushes", "5-9"), ("seed", "4242")):
        form.locator(f"[name={name}]").fill(value)
    form.locator("button[type=submit]").click()
    page.wait_for_url("**seed=4242**")
    wait_state(page, "playing")
    shared = page.locator("#share").input_value()
    assert shared == page.url and "width=8" in shared and "inner_walls=1" in shared
    first = (_position(page), page.locator("#title").text_content())
    other = open_page(browser)
    try:
        other.page.goto(shared)
        wait_state(other.page, "playing")
        assert (_position(other.page), other.page.locator("#title").text_content()) == first
        assert other.unexpected() == []
    finally:
        other.page.context.close()
    want = sokoban.generate(4242, width=8, height=7, boxes=3, inner_walls=1, pushes=(5, 9))
    assert first[0] == (want.level.player, set(want.level.boxes))


@pytest.mark.parametrize("path, message", [
    ("sokoban?seed=1&width=99", "width must be an integer in [3, 64], got 99"),
    ("sokoban/custom?xsb=%23%23%23%23%23%0A%23%40%24x%23%0A%23%23%23%23%23",
     "line 2, column 4: unknown character 'x'"),
])
def test_bad_requests_show_the_apis_message_in_the_page(server, watched, path, message):
    watched.http_errors_expected = True
    page = watched.page
    page.goto(server + path)
    wait_state(page, "error")
    assert page.locator("#error").text_content() == message
    if "custom" in path:
        shot(page, "sokoban-error")


def test_an_uploaded_malformed_xsb_file_shows_the_parsers_message(server, watched, tmp_path):
    watched.http_errors_expected = True
    page = watched.page
    page.goto(server + "sokoban/microban/2")
    wait_state(page, "playing")
    page.click(".tabs [data-tab=custom]")
    path = tmp_path / "mine.xsb"
    path.write_text("; one\n######\n#@$$.#\n######\n\n; two\n#####\n#@$.#\n#####\n")
    page.set_input_files("#xsb-file", str(path))
    wait_state(page, "error")
    with pytest.raises(Exception) as exc:
        sokoban.read_xsb(path.read_text())
    assert page.locator("#error").text_content() == str(exc.value)


def test_pasted_xsb_is_played(server, watched):
    page = watched.page
    page.goto(server + "sokoban")
    wait_state(page, "playing")
    page.click(".tabs [data-tab=custom]")
    page.fill("#form-custom textarea", "; tiny\n######\n#@$ .#\n######")
    page.click("#form-custom button[type=submit]")
    page.wait_for_url("**/sokoban/custom?xsb=**")
    wait_state(page, "playing")
    assert page.locator("#title").text_content() == "tiny"
    _press(page, "rr")
    wait_state(page, "solved")
    assert "Push-optimal: 2. Perfect!" in page.locator("#status").text_content()


def test_watch_page_follows_the_positions_a_program_sends(browser):
    from levelforge.play.watch import Viewer
    levels = sokoban.collections.load("microban")[:2]
    viewer = Viewer(open_browser=False)
    w = open_page(browser)
    try:
        viewer.show(levels[0], "first")
        w.page.goto(viewer.url + "watch")
        w.page.wait_for_selector('body[data-version="1"]')
        assert _position(w.page) == (levels[0].player, set(levels[0].boxes))
        viewer.show(levels[1], "second")
        w.page.wait_for_selector('body[data-version="2"]')
        assert _position(w.page) == (levels[1].player, set(levels[1].boxes))
        assert w.page.locator("#title").text_content() == "second"
        viewer.close()
        w.page.wait_for_selector('body[data-state="ended"]')
        assert [e for e in w.unexpected() if "ERR_CONNECTION_REFUSED" not in e] == []
    finally:
        w.page.context.close()


def test_a_slow_answer_while_kernels_are_prepared_says_so_then_gives_the_answer(watched):
    """A call not answered within a second, while the server prepares a system's kernels
    (here the server's record says so, as on a machine's first run), shows the progress;
    the answer then replaces it. A solve the server stops at its deadline is a limit."""
    from levelforge import play
    from test_play_limits import big_room

    # a deadline long enough that its margin (a tenth: 0.8 s) covers one expansion of
    # the push-optimal search on this 100-box board on a loaded 2-core machine (with 4 s,
    # 0.4 s, the server's own answer once came first in CI)
    app = play.create_app(deadline=8)
    with play.running(app=app) as url:
        page = watched.page
        page.goto(url + "sokoban/custom?xsb=" + quote(big_room()))
        wait_state(page, "playing")
        # the real preparation over first: on a cold Numba cache (a fresh CI machine) a
        # system still compiling would be named in the line too, before symmetry
        systems = app.state.pool.systems
        t = time.monotonic()
        while any(s.state != "ready" for s in systems.values()) and time.monotonic() - t < 300:
            time.sleep(0.1)
        assert all(s.state == "ready" for s in systems.values()), systems
        systems["symmetry"].state = "preparing"
        page.select_option("#time-limit", "10")
        page.click("#solve")
        page.wait_for_function("document.getElementById('status').textContent"
                               ".startsWith('Preparing the kernels (first run only): "
                               "symmetry (')")
        page.wait_for_function("document.getElementById('status').textContent"
                               ".startsWith('Solver:')")
        text = page.locator("#status").text_content()  # the solver's own answer, stopped
        assert text.startswith(  # at the server's deadline less its margin (7.2 s)
            "Solver: limit. The server stopped the solver at its deadline (")
        assert " states), so whether this position can be solved is unknown. If it can, it " \
            "takes at least " in text and text.endswith(" more pushes (proved).")
