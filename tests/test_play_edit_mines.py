"""The mines board editor in a real Chromium: a hand-placed board reported as needing a
guess where the naive player agrees, mines placed on another layer of a 3D board, and
random mines as :func:`levelforge.mines.random_mines` places them, each answered as
:func:`levelforge.mines.check_board` answers."""
import numpy as np

from browser import browser, server, shot, sokoban_batch, wait_state, watched  # noqa: F401
from levelforge.mines import check_board, random_mines
from test_editor_mines import naive_no_guess


def _click(page, x, y):
    page.locator(f'#grid i[data-x="{x}"][data-y="{y}"]').click()
    wait_state(page, "checked")


def _figures(page):
    return {k: page.locator("#" + k).text_content() for k in ("bbbv", "openings", "steps")}


def _expected(answer):
    r = answer.rating
    return {"bbbv": str(r.bbbv), "openings": str(r.openings),
            "steps": f"{r.subset_steps} / {r.enumeration_steps}"}


def test_a_hand_placed_board_needing_a_guess(server, watched):
    page = watched.page
    page.goto(server + "mines/edit?size=4x2x1&start=0,1,0")
    wait_state(page, "checked")
    assert page.locator("body").get_attribute("data-answer") == "no-guess"
    _click(page, 3, 0)
    field = np.zeros((1, 2, 4), bool)
    field[0, 0, 3] = True
    answer = check_board(field, (0, 1, 0))
    assert not answer.no_guess and not naive_no_guess({(3, 0, 0)}, (0, 1, 0), 4, 2, 1)
    assert page.locator("body").get_attribute("data-answer") == "guess"
    assert "Needs a guess" in page.locator("#status").text_content()
    assert _figures(page) == _expected(answer)
    assert page.locator('#grid i[data-x="2"][data-y="0"]').text_content() == "1"
    page.keyboard.press("z")
    wait_state(page, "checked")
    assert page.locator("body").get_attribute("data-answer") == "no-guess"


def test_mines_on_another_layer_of_a_3d_board(server, watched):
    page = watched.page
    page.goto(server + "mines/edit")
    wait_state(page, "checked")
    for name, value in (("width", 5), ("height", 4), ("depth", 3)):
        page.fill("#" + name, str(value))
    page.click("#resize")
    wait_state(page, "checked")
    page.click('#layers button[data-z="2"]')
    _click(page, 4, 3)
    _click(page, 2, 1)
    page.click('#layers button[data-z="1"]')
    _click(page, 3, 3)
    field = np.zeros((3, 4, 5), bool)
    field[2, 3, 4] = field[2, 1, 2] = field[1, 3, 3] = True
    answer = check_board(field, (0, 0, 0))
    expected = naive_no_guess({(4, 3, 2), (2, 1, 2), (3, 3, 1)}, (0, 0, 0), 5, 4, 3)
    assert answer.no_guess == expected
    assert page.locator("body").get_attribute("data-answer") == \
        ("no-guess" if expected else "guess")
    assert _figures(page) == _expected(answer)
    assert page.locator("#mine-count").text_content() == "3"
    shot(page, "mines-edit")


def test_random_mines_are_the_apis_and_answered_as_the_api(server, watched):
    page = watched.page
    page.goto(server + "mines/edit?size=8x8x2&start=0,0,0")
    wait_state(page, "checked")
    page.fill("#count", "12")
    page.fill("#seed", "7")
    page.click("#random")
    page.wait_for_function("document.getElementById('mine-count').textContent === '12'")
    wait_state(page, "checked")
    field = random_mines(8, 8, 2, 12, seed=7, start=(0, 0, 0))
    shown = {(int(c.get_attribute("data-x")), int(c.get_attribute("data-y")))
             for c in page.locator("#grid i.m").all()}
    assert shown == {(x, y) for y, x in zip(*np.nonzero(field[0]))}
    answer = check_board(field, (0, 0, 0))
    assert page.locator("body").get_attribute("data-answer") == \
        ("no-guess" if answer.no_guess else "guess")
    assert _figures(page) == _expected(answer)
