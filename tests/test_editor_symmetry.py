"""The symmetry editor's API: the live answer against the plain-Python counter, the second
solution a real one, and the finishing step unique, keeping the designer's conditions and
never forbidding a trap pair's edge."""
import numpy as np
import pytest

from levelforge import ConfigError
from levelforge.symmetry import Board, Puzzle, check, finish
from levelforge.symmetry.board import mirror_point

import naive_symmetry as naive


def _edges(size):
    out = []
    for y in range(size):
        for x in range(size):
            if x + 1 < size:
                out.append(((x, y), (x + 1, y)))
            if y + 1 < size:
                out.append(((x, y), (x, y + 1)))
    return out


def random_puzzle(rng, sizes=(3, 4, 5), required=3, forbidden=4):
    """A designer's puzzle: random start and goal, random conditions on A and on B."""
    size = int(rng.choice(sizes))
    points = [(x, y) for y in range(size) for x in range(size)]
    s, g = (points[i] for i in rng.choice(len(points), 2, replace=False))
    edges = _edges(size)

    def conditions():
        req = {points[i] for i in rng.choice(len(points), int(rng.integers(0, required + 1)))}
        forb = {edges[i] for i in rng.choice(len(edges), int(rng.integers(0, forbidden + 1)))}
        return req, forb

    a_req, a_forb = conditions()
    b_req, b_forb = conditions()
    return Puzzle(size, Board(size, s, g, a_req, a_forb),
                  Board(size, mirror_point(s, size), mirror_point(g, size), b_req, b_forb))


def _naive_count(board, limit=None):
    return naive.count_paths(board.size, board.start, board.goal, board.required,
                             board.forbidden, limit=limit, prune=True)


@pytest.mark.parametrize("case", range(80))
def test_answer_equals_the_naive_count_and_its_solutions_solve_both_boards(case):
    puzzle = random_puzzle(np.random.default_rng(300 + case))
    answer = check(puzzle)
    master = puzzle.master()
    expected = _naive_count(master, limit=2)
    assert answer.status == ("none", "unique", "several")[expected]
    assert len(answer.solutions) == expected
    assert len(set(answer.solutions)) == expected
    for stroke in answer.solutions:
        assert puzzle.check(stroke)


def test_answer_on_an_open_board_has_two_solutions_and_a_cap_is_a_limit():
    p = Puzzle(7, Board(7, (0, 0), (6, 6)), Board(7, (6, 0), (0, 6)))
    assert check(p).status == "several"
    capped = check(p, max_nodes=5)
    assert capped.status == "limit"


@pytest.mark.parametrize("case", range(30))
def test_finish_makes_a_unique_puzzle_keeping_the_designers_conditions(case):
    rng = np.random.default_rng(700 + case)
    puzzle = random_puzzle(rng, sizes=(3, 4, 5), required=2, forbidden=2)
    if _naive_count(puzzle.master(), limit=1) == 0:
        with pytest.raises(ConfigError, match="no solution"):
            finish(puzzle)
        return
    done = finish(puzzle, seed=case)
    p = done.puzzle
    assert _naive_count(p.master(), limit=3) == 1
    assert p.check(p.solution)
    assert check(p).status == "unique"
    assert p.board_a.forbidden >= puzzle.board_a.forbidden
    assert p.board_b.forbidden == puzzle.board_b.forbidden
    kept = set(puzzle.master().required) - set(done.required_dropped)
    assert kept <= p.master().required
    answer_edges = {tuple(sorted(e)) for e in zip(p.solution, p.solution[1:])}
    traps = naive.trap_edges(p.size, p.master().required, list(p.solution))
    for edge in done.forbidden_added:
        assert edge not in answer_edges and edge not in traps
    assert finish(puzzle, seed=case).to_dict() == done.to_dict()


def test_finish_keeps_a_given_answer_and_refuses_one_that_does_not_solve():
    p = Puzzle(4, Board(4, (0, 0), (3, 0)), Board(4, (3, 0), (0, 0)))
    stroke = ((0, 0), (0, 1), (1, 1), (1, 0), (2, 0), (2, 1), (3, 1), (3, 0))
    done = finish(p, answer=stroke, seed=5)
    assert done.puzzle.solution == stroke
    assert _naive_count(done.puzzle.master(), limit=3) == 1
    with pytest.raises(ConfigError, match="does not solve"):
        finish(p, answer=((0, 0), (1, 1)))


def test_finish_answers_a_cancel_and_keeps_its_result_under_a_generous_limit():
    from levelforge import Cancel, Cancelled
    p = Puzzle(6, Board(6, (0, 0), (5, 5)), Board(6, (5, 0), (0, 5)))
    token = Cancel()
    token.cancel()
    with pytest.raises(Cancelled):
        finish(p, seed=2, cancel=token)
    a, b = finish(p, seed=2), finish(p, seed=2, time_limit=60)
    assert a.puzzle.to_dict() == b.puzzle.to_dict()
