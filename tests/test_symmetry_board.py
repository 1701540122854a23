"""Boards, mirror, puzzles, JSON, the parity bound and the Z3 path encodings."""
import json

import pytest

from levelforge import ConfigError, LevelFormatError
from levelforge.symmetry import Board, Puzzle, longest_path_points
from levelforge.symmetry.board import mirror_edge, mirror_point
from levelforge.symmetry.zpath import LIMIT, SAT, UNSAT, solve_path

from naive_symmetry import longest_paths_from


def test_board_normalises_points_and_edges():
    b = Board(4, [0, 0], (3, 3), required=[(1, 2)], forbidden=[((2, 1), (1, 1))])
    assert b.start == (0, 0) and b.required == frozenset({(1, 2)})
    assert b.forbidden == frozenset({((1, 1), (2, 1))})


@pytest.mark.parametrize("kwargs,message", [
    (dict(size=10, start=(0, 0), goal=(1, 1)), "size"),
    (dict(size=0, start=(0, 0), goal=(0, 0)), "size"),
    (dict(size=3, start=(3, 0), goal=(1, 1)), "start: point \\(3, 0\\) is outside"),
    (dict(size=3, start=(0, 0), goal="xy"), "goal"),
    (dict(size=3, start=(0, 0), goal=(1.5, 1)), "goal: coordinates must be integers"),
    (dict(size=3, start=(0, 0), goal=(2, 2), required=[(0, 5)]), "required point 0"),
    (dict(size=3, start=(0, 0), goal=(2, 2), forbidden=[((0, 0), (1, 1))]),
     "not lattice-adjacent"),
    (dict(size=3, start=(0, 0), goal=(2, 2), forbidden=[(0, 0)]), "forbidden edge 0"),
])
def test_invalid_boards_raise_clear_errors(kwargs, message):
    with pytest.raises(ConfigError, match=message):
        Board(**kwargs)


def test_board_b_is_the_mirror_of_board_a():
    assert mirror_point((0, 2), 5) == (4, 2)
    assert mirror_edge(((0, 0), (1, 0)), 4) == ((2, 0), (3, 0))
    a = Board(5, (0, 0), (1, 4), {(2, 2), (0, 3)}, {((0, 0), (0, 1))})
    b = a.mirrored()
    assert b.start == (4, 0) and b.goal == (3, 4)
    assert b.required == {(2, 2), (4, 3)} and b.forbidden == {((4, 0), (4, 1))}
    assert b.mirrored() == a


def test_puzzle_is_judged_on_master_board_a_plus_mirror_of_b():
    a = Board(3, (0, 0), (2, 0), required={(1, 1)})
    b = Board(3, (2, 0), (0, 0), forbidden={((2, 1), (2, 2))})  # mirror: ((0,1),(0,2))
    p = Puzzle(3, a, b)
    m = p.master()
    assert m.required == {(1, 1)} and m.forbidden == {((0, 1), (0, 2))}
    assert p.check([(0, 0), (0, 1), (1, 1), (2, 1), (2, 0)])
    assert not p.check([(0, 0), (0, 1), (0, 2), (1, 2), (1, 1), (2, 1), (2, 0)])  # forbidden
    assert not p.check([(0, 0), (1, 0), (2, 0)])  # misses the required point


def test_puzzle_rejects_boards_that_do_not_mirror():
    with pytest.raises(ConfigError, match="mirror"):
        Puzzle(3, Board(3, (0, 0), (2, 2)), Board(3, (0, 0), (0, 2)))


@pytest.mark.parametrize("path,ok", [
    ([(0, 0), (1, 0), (2, 0)], True),
    ([(0, 0), (1, 1), (2, 0)], False),            # diagonal step
    ([(0, 0), (1, 0), (0, 0), (1, 0), (2, 0)], False),  # point visited twice
    ([(1, 0), (2, 0)], False),                     # wrong start
    ([(0, 0), (1, 0)], False),                     # wrong goal
    ([], False),
])
def test_check_accepts_only_self_avoiding_lattice_paths(path, ok):
    assert Board(3, (0, 0), (2, 0)).check(path) is ok


@pytest.mark.parametrize("path,message", [([(0, 0), (9, 9)], "path point 1"),
                                          ([(0, 0), "ab", (2, 0)], "path point 1"),
                                          (5, "sequence of points")])
def test_check_rejects_malformed_paths(path, message):
    with pytest.raises(ConfigError, match=message):
        Board(3, (0, 0), (2, 0)).check(path)


def test_json_round_trip_and_errors():
    a = Board(4, (0, 0), (3, 3), {(1, 1)}, {((0, 0), (1, 0))})
    b = Board(4, (3, 0), (0, 3), {(2, 2)})
    answer = ((0, 0), (0, 1), (1, 1), (1, 2), (2, 2), (2, 3), (3, 3))
    p = Puzzle(4, a, b, solution=answer, seed=5, strategy="DEFAULT",
               timings={"path": 1.5}, difficulty={"proof_nodes": 3})
    q = Puzzle.from_json(p.to_json())
    assert q.to_json() == p.to_json()
    assert q.board_a == a and q.board_b == b and q.solution == answer
    assert json.loads(p.to_json()) == p.to_dict()
    assert "timings" not in p.to_dict(include_timings=False)
    with pytest.raises(LevelFormatError, match="line 7"):
        Puzzle.from_json("{not json", line=7)
    wrong = p.to_dict()
    wrong["solution"] = [[0, 0], [1, 0], [2, 0], [3, 0], [3, 1], [3, 2], [3, 3]]
    with pytest.raises(LevelFormatError, match="does not solve"):
        Puzzle.from_dict(wrong)
    bad = p.to_dict()
    bad["board_b"]["start"] = [0, 0]
    with pytest.raises(LevelFormatError, match="mirror"):
        Puzzle.from_dict(bad)
    del bad["board_a"]
    with pytest.raises(LevelFormatError, match="board_a"):
        Puzzle.from_dict(bad)


@pytest.mark.parametrize("size", [2, 3, 4, 5])
def test_longest_path_parity_bound_matches_brute_force(size):
    pts = [(x, y) for x in range(size) for y in range(size)]
    for s in pts:
        best = longest_paths_from(size, s)
        for g in pts:
            if g != s:
                assert longest_path_points(size, s, g) == best[g], (s, g)


@pytest.mark.parametrize("encoding", ["bool", "int"])
@pytest.mark.parametrize("size,start,goal,length,waypoints", [
    (3, (0, 0), (2, 2), 9, [(2, 0)]),
    (4, (0, 0), (0, 3), 16, []),
    (4, (1, 1), (2, 2), 11, [(0, 3)]),
])
def test_z3_path_is_a_self_avoiding_path_of_the_asked_length(encoding, size, start, goal,
                                                             length, waypoints):
    r = solve_path(size, start, goal, length, waypoints, seed=3, encoding=encoding)
    assert r.status == SAT
    assert len(r.path) == length
    assert Board(size, start, goal, required=set(waypoints)).check(list(r.path))


def test_z3_reports_unsat_for_impossible_length_and_limit_for_rlimit():
    assert solve_path(4, (0, 0), (3, 3), 16).status == UNSAT  # parity
    assert solve_path(5, (1, 0), (0, 1), 25).status == UNSAT  # minority ends
    assert solve_path(7, (0, 0), (6, 6), 49, rlimit=1000).status == LIMIT


def test_z3_path_is_deterministic_for_a_seed():
    a = solve_path(5, (0, 0), (4, 0), 25, [(2, 2)], seed=11, rlimit=10**7)
    b = solve_path(5, (0, 0), (4, 0), 25, [(2, 2)], seed=11, rlimit=10**7)
    assert a.status == SAT and a.path == b.path and a.rlimit_used == b.rlimit_used
