"""The symmetry editor in a real Chromium: conditions placed by clicks on A and B, the live
answer equal to the API's (the second solution drawn), and the finishing button making the
puzzle unique as :func:`levelforge.symmetry.finish` does."""
import json
from urllib.parse import parse_qs, urlencode, urlparse

from browser import browser, server, shot, sokoban_batch, wait_state, watched  # noqa: F401
from levelforge.symmetry import Board, Puzzle, check, finish
from levelforge.symmetry.board import mirror_point

import naive_symmetry as naive


def _click(page, board, x, y):
    """Click lattice coordinates (fractions allowed: 0.5 is an edge's middle) of a board."""
    svg = page.locator(f"#board-{board.lower()} svg")
    box = svg.bounding_box()
    cell, pad = float(svg.get_attribute("data-cell")), float(svg.get_attribute("data-pad"))
    side = float(svg.get_attribute("viewBox").split()[2])
    scale = box["width"] / side
    page.mouse.click(box["x"] + (pad + x * cell) * scale, box["y"] + (pad + y * cell) * scale)
    wait_state(page, "checked")


def _state(page):
    return json.loads(parse_qs(urlparse(page.url).query)["puzzle"][0])


def _puzzle(state):
    n, a, b = state["size"], state["a"], state["b"]
    return Puzzle(n, Board.from_dict(n, a), Board.from_dict(n, {
        "start": list(mirror_point(tuple(a["start"]), n)),
        "goal": list(mirror_point(tuple(a["goal"]), n)), **b}))


def test_conditions_by_clicks_answer_as_the_api_and_finish_makes_it_unique(server, watched):
    page = watched.page
    empty = {"size": 4, "a": {"start": [0, 0], "goal": [3, 3], "required": [], "forbidden": []},
             "b": {"required": [], "forbidden": []}}
    page.goto(server + "symmetry/edit?" + urlencode({"puzzle": json.dumps(empty)}))
    wait_state(page, "checked")
    page.click('[data-tool="goal"]')
    _click(page, "A", 3, 0)
    page.click('[data-tool="required"]')
    _click(page, "A", 1, 1)
    _click(page, "B", 0, 2)      # on B: the master's (3, 2)
    page.click('[data-tool="forbidden"]')
    _click(page, "B", 1.5, 0)    # B's edge (1,0)-(2,0): the master's (1,0)-(2,0) too
    _click(page, "A", 0, 0.5)    # A's edge (0,0)-(0,1)
    state = _state(page)
    assert state["a"]["goal"] == [3, 0]
    assert state["a"]["required"] == [[1, 1]] and state["b"]["required"] == [[0, 2]]
    assert state["a"]["forbidden"] == [[[0, 0], [0, 1]]]
    assert state["b"]["forbidden"] == [[[1, 0], [2, 0]]]
    puzzle = _puzzle(state)
    answer = check(puzzle)
    assert answer.status == "several"
    assert page.locator("body").get_attribute("data-answer") == "several"
    drawn = json.loads(page.locator("#board-a svg").get_attribute("data-drawn"))
    assert [tuple(p) for p in drawn] == list(answer.solutions[1])
    assert puzzle.check(answer.solutions[1])
    assert page.locator("#nodes").text_content() == f"{answer.nodes:,}"
    shot(page, "symmetry-edit-two")
    page.click("#finish")
    page.wait_for_selector('body[data-answer="unique"]')
    wait_state(page, "checked")
    done = finish(puzzle, seed=0).puzzle
    after = _puzzle(_state(page))
    assert after.board_a == done.board_a and after.board_b == done.board_b
    master = after.master()
    assert naive.count_paths(4, master.start, master.goal, master.required, master.forbidden,
                             limit=3) == 1
    drawn = json.loads(page.locator("#board-a svg").get_attribute("data-drawn"))
    assert after.check([tuple(p) for p in drawn])
    shot(page, "symmetry-edit-unique")


def test_no_solution_is_said_and_undo_brings_the_solutions_back(server, watched):
    page = watched.page
    page.goto(server + "symmetry/edit")
    wait_state(page, "checked")
    page.click('[data-tool="forbidden"]')
    _click(page, "A", 0.5, 0)
    _click(page, "A", 0, 0.5)    # the start (0, 0) is cut off
    assert page.locator("body").get_attribute("data-answer") == "none"
    assert check(_puzzle(_state(page))).status == "none"
    assert "No solution" in page.locator("#status").text_content()
    page.keyboard.press("z")
    wait_state(page, "checked")
    assert page.locator("body").get_attribute("data-answer") == "several"


def test_the_downloaded_jsonl_opens_in_levelforge_play(tmp_path):
    from levelforge.play.files import open_file
    from levelforge.play.symmetry_edit import finish_boards
    body = {"size": 5, "board_a": {"start": [0, 0], "goal": [4, 4], "required": [[2, 2]]},
            "board_b": {"start": [4, 0], "goal": [0, 4]}, "seed": 3}
    got = finish_boards(json.dumps(body).encode())
    path = tmp_path / "puzzle.jsonl"
    path.write_text(got["jsonl"] + "\n")
    opened = open_file(str(path))
    puzzle = opened.puzzle(0)
    assert opened.kind == "symmetry" and check(puzzle).status == "unique"
    assert puzzle.check(puzzle.solution) and [list(p) for p in puzzle.solution] == got["drawn"]
