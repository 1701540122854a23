"""The counting DFS (engine/paths.py) against known counts and the plain-Python reference."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from levelforge import ConfigError
from levelforge.symmetry import Board, count_solutions
from levelforge.symmetry.board import AT_LIMIT, EXACT, NODE_CAP, Workspace, board_arrays

from naive_symmetry import all_paths, branch_profile, count_paths

ALL = lambda n: {(x, y) for x in range(n) for y in range(n)}  # noqa: E731


@pytest.mark.parametrize("size,expected", [(1, 1), (2, 2), (3, 12), (4, 184), (5, 8512),
                                           (6, 1262816)])
def test_count_solutions_corner_to_corner_matches_known_counts(size, expected):
    board = Board(size, (0, 0), (size - 1, size - 1))
    assert count_solutions(board, limit=10**9) == expected


@pytest.mark.parametrize("size,expected", [(3, 2), (5, 104)])
def test_count_solutions_hamiltonian_corner_to_corner(size, expected):
    board = Board(size, (0, 0), (size - 1, size - 1), required=ALL(size))
    assert count_solutions(board, limit=10**6) == expected


def test_count_solutions_is_exact_below_limit_and_stops_at_limit():
    board = Board(4, (0, 0), (3, 3))
    assert count_solutions(board, limit=185) == 184
    assert count_solutions(board, limit=184) == 184
    assert count_solutions(board, limit=2) == 2
    assert count_solutions(board) == 2


def test_count_solutions_rejects_bad_arguments():
    with pytest.raises(ConfigError, match="Board"):
        count_solutions("not a board")
    with pytest.raises(ConfigError, match="limit"):
        count_solutions(Board(3, (0, 0), (2, 2)), limit=0)


def _random_board(rng, size):
    pts = sorted(ALL(size))
    start = pts[rng.integers(len(pts))]
    goal = pts[rng.integers(len(pts))]
    required = {pts[i] for i in rng.choice(len(pts), rng.integers(0, 4), replace=False)}
    edges = [((x, y), (x + 1, y)) for x in range(size - 1) for y in range(size)] + \
            [((x, y), (x, y + 1)) for x in range(size) for y in range(size - 1)]
    forbidden = {edges[i] for i in rng.choice(len(edges), rng.integers(0, len(edges) // 3 + 1),
                                              replace=False)}
    return Board(size, start, goal, required, forbidden)


@pytest.mark.parametrize("case", range(150))
def test_count_paths_kernel_matches_brute_force(case):
    rng = np.random.default_rng(case)
    board = _random_board(rng, int(rng.integers(2, 5)))
    expected = count_paths(board.size, board.start, board.goal, board.required,
                           board.forbidden)
    assert count_solutions(board, limit=10**9) == expected
    # the reference's pruned search (used on generated puzzles) agrees too
    assert count_paths(board.size, board.start, board.goal, board.required, board.forbidden,
                       prune=True) == expected


@given(st.integers(0, 2**32 - 1), st.integers(1, 3))
@settings(max_examples=60, deadline=None)
def test_count_paths_kernel_with_limit_matches_reference_on_5x5(seed, limit):
    board = _random_board(np.random.default_rng(seed), 5)
    expected = count_paths(5, board.start, board.goal, board.required, board.forbidden,
                           limit=limit, prune=True)
    assert count_solutions(board, limit=limit) == expected


@pytest.mark.parametrize("case", range(40))
def test_count_paths_records_real_solutions(case):
    rng = np.random.default_rng(500 + case)
    board = _random_board(rng, 4)
    ws = Workspace(4, max_solutions=2)
    start, goal, adj, req = board_arrays(board, ws)
    count, nodes, status, sols = ws.count(start, goal, adj, req, 2, 10**9)
    every = all_paths(4, board.start, board.goal, board.required, board.forbidden)
    assert count == min(len(every), 2)
    assert status == (AT_LIMIT if len(every) >= 2 else EXACT)
    assert nodes >= 1
    got = [[board.point(i) for i in s] for s in sols]
    assert len(got) == count
    for path in got:
        assert path in every and board.check(path)
    assert len({tuple(p) for p in got}) == len(got)


def test_count_paths_node_cap_is_reported_not_taken_for_a_count():
    board = Board(6, (0, 0), (5, 5))
    ws = Workspace(6, max_solutions=2)
    start, goal, adj, req = board_arrays(board, ws)
    count, nodes, status, _ = ws.count(start, goal, adj, req, 10**9, 1000)
    assert status == NODE_CAP
    assert nodes == 1000
    assert count < 1262816


@pytest.mark.parametrize("case", range(40))
def test_branch_profile_matches_reference(case):
    rng = np.random.default_rng(900 + case)
    board = _random_board(rng, 4)
    every = all_paths(4, board.start, board.goal, board.required, board.forbidden)
    if not every:
        return
    path = every[int(rng.integers(len(every)))]
    ws = Workspace(4)
    start, goal, adj, req = board_arrays(board, ws)
    legal, viable, extra = ws.profile(start, goal, adj, req, [board.index(p) for p in path])
    assert legal == branch_profile(4, board.start, board.goal, board.required,
                                   board.forbidden, path)
    assert viable <= legal
    # a move that leads to some solution is never pruned
    completable = 0
    for i in range(len(path) - 1):
        prefix = path[:i + 1]
        nexts = {p[i + 1] for p in every if p[:i + 1] == prefix}
        completable += len(nexts) >= 2
    assert completable <= viable
    assert extra >= viable
