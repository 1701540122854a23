"""symmetry.judge: the rule a stroke breaks and where, checked against Puzzle.check (the
yes/no reference) on many strokes and against hand-made boards for each rule."""
import numpy as np
import pytest

from levelforge.errors import ConfigError
from levelforge.symmetry import Board, Puzzle, generate, judge
from levelforge.symmetry.board import mirror_point

# a 3x3 puzzle: start (0, 0), goal (2, 0); A forbids (0,1)-(1,1), B requires B(0, 2)
# = A(2, 2) and forbids B(1,0)-(1,1) = A(1,0)-(1,1)
A = Board(3, (0, 0), (2, 0), required={(1, 2)}, forbidden={((0, 1), (1, 1))})
B = Board(3, (2, 0), (0, 0), required={(0, 2)}, forbidden={((1, 0), (1, 1))})
P = Puzzle(3, A, B, solution=[(0, 0), (0, 1), (0, 2), (1, 2), (2, 2), (2, 1), (2, 0)])


def test_rule_solved():
    v = judge(P, P.solution)
    assert v.solved and v.rule is None and v.where == ()


def test_rule_start():
    v = judge(P, [(1, 0), (2, 0)])
    assert (v.rule, v.board, v.where) == ("start", "A", ((0, 0),))
    assert judge(P, []).rule == "start"


def test_rule_step():
    v = judge(P, [(0, 0), (1, 1)])
    assert (v.rule, v.where) == ("step", ((0, 0), (1, 1)))


def test_rule_revisited_point():
    plain = Puzzle(3, Board(3, (0, 0), (2, 0)), Board(3, (2, 0), (0, 0)))
    v = judge(plain, [(0, 0), (1, 0), (1, 1), (0, 1), (0, 0)])
    assert (v.rule, v.where) == ("revisit", ((0, 0),))
    assert v.message == "the stroke visits (0, 0) twice"


def test_rule_forbidden_edge_on_a():
    v = judge(P, [(0, 0), (0, 1), (1, 1)])
    assert (v.rule, v.board, v.where) == ("forbidden", "A", (((0, 1), (1, 1)),))


def test_rule_forbidden_edge_on_b():
    v = judge(P, [(0, 0), (1, 0), (1, 1)])  # mirrored: (2,0),(1,0),(1,1) on B
    assert (v.rule, v.board, v.where) == ("forbidden", "B", (((1, 0), (1, 1)),))
    assert "on board B" in v.message


def test_rule_goal():
    v = judge(P, [(0, 0), (0, 1), (0, 2)])
    assert (v.rule, v.where) == ("goal", ((0, 2),))


def test_rule_missed_required_point_on_a():
    v = judge(P, [(0, 0), (1, 0), (2, 0)])
    assert (v.rule, v.board, v.where) == ("required", "A", ((1, 2),))
    assert v.message == "the required point (1, 2) on board A is not visited"


def test_rule_missed_required_point_on_b():
    p = Puzzle(3, Board(3, (0, 0), (2, 0)), B)
    v = judge(p, [(0, 0), (1, 0), (2, 0)])
    assert (v.rule, v.board, v.where) == ("required", "B", ((0, 2),))


def test_malformed_path_is_refused():
    with pytest.raises(ConfigError, match="outside the 3x3 board"):
        judge(P, [(0, 0), (5, 0)])
    with pytest.raises(ConfigError, match="expected a point"):
        judge(P, [(0, 0), 7])


def _strokes(p, rng, count):
    """Random strokes: the answer, shortcuts of it, and random walks (self-avoiding or not)."""
    sol = list(p.solution)
    yield sol
    for i in range(len(sol)):
        for j in range(i + 2, len(sol)):
            if abs(sol[i][0] - sol[j][0]) + abs(sol[i][1] - sol[j][1]) == 1:
                yield sol[:i + 1] + sol[j:]
    n = p.size
    for _ in range(count):
        walk = [p.board_a.start]
        avoid = rng.random() < 0.7
        for _ in range(int(rng.integers(0, 2 * n * n))):
            x, y = walk[-1]
            steps = [(x + dx, y + dy) for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))
                     if 0 <= x + dx < n and 0 <= y + dy < n]
            if avoid:
                steps = [s for s in steps if s not in walk]
            if not steps:
                break
            walk.append(steps[int(rng.integers(len(steps)))])
            if walk[-1] == p.board_a.goal and rng.random() < 0.8:
                break
        yield walk


def test_judge_agrees_with_check_on_many_strokes():
    rng = np.random.default_rng(11)
    checked = solved = 0
    for size, seed in ((3, 1), (4, 2), (5, 3), (5, 8), (6, 4)):
        p = generate(size, seed)
        for stroke in _strokes(p, rng, 400):
            v = judge(p, stroke)
            assert v.solved == p.check(stroke), (size, seed, stroke, v)
            if not v.solved:  # the named place is on the named board
                mirrored = {mirror_point(q, size) for q in stroke}
                if v.rule == "required":
                    board = p.board_a if v.board == "A" else p.board_b
                    visited = set(stroke) if v.board == "A" else mirrored
                    assert set(v.where) <= board.required - visited
                if v.rule == "forbidden":
                    board = p.board_a if v.board == "A" else p.board_b
                    assert v.where[0] in board.forbidden
            checked += 1
            if v.solved:  # the puzzle's answer is unique
                assert [tuple(q) for q in stroke] == list(p.solution)
                solved += 1
    assert solved >= 5 and checked > 2000
