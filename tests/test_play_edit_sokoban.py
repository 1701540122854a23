"""The Sokoban editor in a real Chromium: a level drawn by clicks answered as the API
answers it, problems listed, the share link carrying the level, the solution shown, the
play-test link, and improve's result replayed and at least as long as the start."""
from urllib.parse import parse_qs, urlencode, urlparse

from browser import (  # noqa: F401  (fixtures)
    browser, open_page, server, shot, sokoban_batch, wait_state, watched)
from levelforge import sokoban


def _edit_url(xsb):
    return "sokoban/edit?" + urlencode({"level": sokoban.to_rle(xsb)})


def _cell(page, x, y):
    return page.locator(f'#grid i[data-x="{x}"][data-y="{y}"]')


def _draw(page, tool, *cells):
    page.click(f'[data-tool="{tool}"]')
    for x, y in cells:
        _cell(page, x, y).click()


def _room(page, w, h):
    page.fill("#width", str(w))
    page.fill("#height", str(h))
    page.click("#room")
    wait_state(page, "checked")


def _board(page):
    return page.locator("#xsb").input_value().strip("\n")


def _dead(page):
    return {(int(c.get_attribute("data-x")), int(c.get_attribute("data-y")))
            for c in page.locator("#grid i.x").all()}


def test_level_drawn_by_clicks_is_answered_as_the_api_answers(server, watched):
    page = watched.page
    page.goto(server + "sokoban/edit")
    wait_state(page, "checked")
    _room(page, 8, 6)
    _draw(page, "#", (3, 2), (3, 3))
    _draw(page, "@", (1, 1))
    _draw(page, "$", (2, 2), (5, 3))
    _draw(page, ".", (6, 1), (6, 4))
    wait_state(page, "checked")
    xsb = _board(page)
    assert xsb == "########\n#@    .#\n# $#   #\n#  # $ #\n#     .#\n########"
    answer = sokoban.check(xsb)
    assert answer.status == "solved"
    assert page.locator("#pushes").text_content() == str(answer.pushes)
    assert page.locator("#nodes").text_content() == f"{answer.nodes:,}"
    assert _dead(page) == set(answer.dead) and answer.dead
    assert f"Solvable in {answer.pushes} pushes" in page.locator("#status").text_content()
    shot(page, "sokoban-edit")
    share = page.locator("#share").input_value()
    rle = parse_qs(urlparse(share).query)["level"][0]
    assert rle == sokoban.to_rle(xsb)
    again = open_page(page.context.browser)
    try:
        again.page.goto(share)
        wait_state(again.page, "checked")
        assert _board(again.page) == xsb
        assert again.page.locator("#pushes").text_content() == str(answer.pushes)
    finally:
        again.page.context.close()
    href = page.locator("#playtest").get_attribute("href")
    page.goto(server + href.lstrip("/"))
    wait_state(page, "playing")
    assert page.locator("#title").text_content() == "pasted level"


def test_problems_are_listed_and_undo_restores_the_level(server, watched):
    page = watched.page
    page.goto(server + "sokoban/edit")
    wait_state(page, "checked")
    before = _board(page)
    _draw(page, "$", (3, 5))
    _draw(page, " ", (0, 3))
    wait_state(page, "checked")
    answer = sokoban.check(_board(page))
    assert answer.problems
    status = page.locator("#status").text_content()
    assert status == f"Not a level yet: {'; '.join(answer.problems)}."
    assert page.locator("#pushes").text_content() == "–"
    page.keyboard.press("z")
    page.click("#undo")
    wait_state(page, "checked")
    assert _board(page) == before
    assert page.locator("body").get_attribute("data-status") == "solved"


def test_show_solution_replays_to_the_solved_position(server, watched):
    page = watched.page
    page.goto(server + _edit_url("######\n#@$ .#\n#    #\n######"))
    wait_state(page, "checked")
    answer = sokoban.check(_board(page))
    page.click("#show")
    page.wait_for_function(f"document.getElementById('preview').dataset.moves === "
                           f"{answer.solution!r}")
    svg = page.locator("#preview svg")
    assert svg.get_attribute("data-boxes") == "4,1"


def test_improve_result_replays_and_is_at_least_as_long_as_the_start(server, watched):
    page = watched.page
    room = "########\n#@$   .#\n#      #\n#  $  .#\n#      #\n########"
    page.goto(server + _edit_url(room))
    wait_state(page, "checked")
    start = sokoban.check(room)
    page.select_option('select[name="attempts"]', "100")
    page.fill('input[name="seed"]', "1")
    page.click("#improve")
    page.wait_for_selector('body[data-improve="done"]')
    expected = list(sokoban.improve(sokoban.Level.from_xsb(room), seed=1, attempts=100))
    assert page.locator("#versions li").count() == len(expected) > 0
    shot(page, "sokoban-edit-improved")
    page.click("#versions li:first-child button")   # any version loads into the editor
    wait_state(page, "checked")
    assert sokoban.Level.from_xsb(_board(page)) == expected[0].level
    page.click("#use")
    wait_state(page, "checked")
    level = sokoban.Level.from_xsb(_board(page))
    assert level.walls == sokoban.Level.from_xsb(room).walls
    assert level == expected[-1].level
    result = sokoban.solve(level)
    assert sokoban.replay(level, result.solution).is_solved
    assert result.pushes >= start.pushes
    assert page.locator("#pushes").text_content() == str(result.pushes)


def test_stop_cancels_a_running_improve(server, watched):
    page = watched.page
    room = "##########\n#@$     .#\n#        #\n#  $    .#\n#  $    .#\n#        #\n##########"
    page.goto(server + _edit_url(room))
    wait_state(page, "checked")
    page.select_option('select[name="attempts"]', "3000")
    page.click("#improve")
    page.wait_for_function("document.getElementById('improve-progress').value > 0")
    page.click("#stop")
    page.wait_for_selector('body[data-improve="done"]')
    assert page.locator("#improve-progress").evaluate("p => p.value") < 1
    assert not page.locator("#improve").is_disabled()


def test_a_check_stopped_by_its_state_cap_says_so(server, watched):
    level = sokoban.collections.load("microban")[143]  # optimum 36: beyond 20,000 states
    board = "\n".join(level.rows())
    answer = sokoban.check(board, time_limit=30, max_nodes=20_000).to_dict()
    assert (answer["status"], answer["limit_by"]) == ("limit", "states")
    page = watched.page
    page.route("**/api/sokoban/edit/check", lambda route: route.fulfill(json=answer))
    page.goto(server + _edit_url(board))
    wait_state(page, "checked")
    status = page.locator("#status").text_content()
    assert status == ("Unknown: the solver reached its cap on stored states (20,000 states), "
                      "so whether it can be solved is open.")
    page.unroute("**/api/sokoban/edit/check")
