"""Symmetry puzzles in a real Chromium: solved by dragging the mouse along the answer
(drawn on A, mirrored on B), wrong strokes reported with the rule the API's judge names,
and the share link."""
from browser import (  # noqa: F401  (fixtures)
    Finger, browser, open_page, server, shot, sokoban_batch, touched, wait_state, watched)
from levelforge import symmetry
from levelforge.symmetry.board import mirror_point

URL = "symmetry?size=7&seed=3&strategy=DIAGONAL"


def _screen(page, board, point):
    """Screen position of lattice point ``point`` (board coordinates) on ``board``."""
    svg = page.locator(f"#board-{board.lower()} svg")
    box = svg.bounding_box()
    size, cell, pad = (float(svg.get_attribute(k)) for k in ("data-size", "data-cell",
                                                              "data-pad"))
    scale = box["width"] / (2 * pad + (size - 1) * cell)
    return box["x"] + (pad + point[0] * cell) * scale, box["y"] + (pad + point[1] * cell) * scale


def _drag(page, board, points):
    page.mouse.move(*_screen(page, board, points[0]))
    page.mouse.down()
    for p in points[1:]:
        page.mouse.move(*_screen(page, board, p), steps=2)
    page.mouse.up()


def _drawn(page, board):
    return [tuple(p) for p in page.evaluate(
        f"JSON.parse(document.querySelector('#board-{board.lower()} svg').dataset.path)")]


def test_puzzle_solved_by_dragging_along_its_solution(server, watched):
    page = watched.page
    page.goto(server + URL)
    wait_state(page, "playing")
    puzzle = symmetry.generate(7, 3, "DIAGONAL")
    shot(page, "symmetry-start")
    _drag(page, "A", puzzle.solution)
    wait_state(page, "solved")
    assert _drawn(page, "A") == list(puzzle.solution)
    assert _drawn(page, "B") == [mirror_point(p, 7) for p in puzzle.solution]
    assert page.locator("#status").text_content().startswith("Solved!")
    shot(page, "symmetry-solved")


def _wrong_stroke(puzzle):
    """A self-avoiding stroke from start to goal that cuts a corner of the answer."""
    sol = list(puzzle.solution)
    for i in range(len(sol)):
        for j in range(len(sol) - 1, i + 1, -1):
            if abs(sol[i][0] - sol[j][0]) + abs(sol[i][1] - sol[j][1]) == 1:
                return sol[:i + 1] + sol[j:]
    raise AssertionError("the answer has no shortcut")


def test_wrong_strokes_report_the_broken_rule_and_where(server, watched):
    page = watched.page
    page.goto(server + URL)
    wait_state(page, "playing")
    puzzle = symmetry.generate(7, 3, "DIAGONAL")
    stroke = _wrong_stroke(puzzle)
    verdict = symmetry.judge(puzzle, stroke)
    assert not verdict.solved
    _drag(page, "B", [mirror_point(p, 7) for p in stroke])  # drawn on B this time
    wait_state(page, "broken")
    assert _drawn(page, "A") == stroke
    assert page.get_attribute("body", "data-rule") == verdict.rule
    assert page.locator("#status").text_content() == f"Not yet: {verdict.message}."
    marked = page.locator(f"#board-{verdict.board.lower()} .marks .mark")
    assert marked.count() == len(verdict.where)
    shot(page, "symmetry-broken")
    # a loop back onto the stroke: the revisited point is reported (Enter checks)
    start = puzzle.board_a.start
    dx = 1 if start[0] < 6 else -1
    dy = 1 if start[1] < 6 else -1
    loop = [start, (start[0] + dx, start[1]), (start[0] + dx, start[1] + dy),
            (start[0], start[1] + dy), start]
    want = symmetry.judge(puzzle, loop)
    _drag(page, "A", loop)
    page.keyboard.press("Enter")
    wait_state(page, "broken")
    page.wait_for_function(f"document.body.dataset.rule === '{want.rule}'")
    assert page.locator("#status").text_content() == f"Not yet: {want.message}."


def test_show_solution_and_the_shared_url_rebuild_the_same_puzzle(browser, server, watched):
    page = watched.page
    page.goto(server + "symmetry")
    wait_state(page, "playing")
    page.select_option("#form [name=size]", "5")
    page.select_option("#form [name=strategy]", "EDGE_WALK")
    page.fill("#form [name=seed]", "77")
    page.click("#form button[type=submit]")
    page.wait_for_url("**/symmetry?size=5&seed=77&strategy=EDGE_WALK")
    wait_state(page, "playing")
    drawing = page.locator("#board-a").inner_html()
    other = open_page(browser)
    try:
        other.page.goto(page.locator("#share").input_value())
        wait_state(other.page, "playing")
        assert other.page.locator("#board-a").inner_html() == drawing
        other.page.click("#show")
        wait_state(other.page, "solved")
        assert _drawn(other.page, "A") == list(symmetry.generate(5, 77, "EDGE_WALK").solution)
        assert other.unexpected() == []
    finally:
        other.page.context.close()


def test_a_touch_drag_on_board_a_draws_the_stroke_the_judge_accepts(server, touched):
    page, finger = touched.page, Finger(touched.page)
    page.goto(server + URL)
    wait_state(page, "playing")
    puzzle = symmetry.generate(7, 3, "DIAGONAL")
    assert symmetry.judge(puzzle, puzzle.solution).solved
    scroll = page.evaluate("window.scrollY")
    finger.down(*_screen(page, "A", puzzle.solution[0]))
    for p in puzzle.solution[1:]:
        finger.move(*_screen(page, "A", p), steps=3)
    finger.up()
    wait_state(page, "solved")
    assert page.evaluate("window.scrollY") == scroll  # the finger drew; the page stayed
    assert _drawn(page, "A") == list(puzzle.solution)
    assert _drawn(page, "B") == [mirror_point(p, 7) for p in puzzle.solution]
    assert page.locator("#status").text_content().startswith("Solved!")
    shot(page, "symmetry-touch-solved")
