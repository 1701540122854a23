"""The push-optimal search's partial expansion and newest-first ties (engine/sokoban.py,
search_run), against plain A*: the same kernels with ``pdb`` None, which compiles
neither (as the generator's search does)."""
import pytest

from levelforge.sokoban import Solver, collections, replay
from levelforge.sokoban import pairs as pairs_mod

import naive_sokoban as naive

MICROBAN = collections.load("microban")
LEVELS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 14, 17, 23, 27, 45, 59, 74]


def solve_all(levels):
    solver = Solver()
    return [solver.solve(MICROBAN[k - 1], time_limit=60) for k in levels]


@pytest.fixture(scope="module")
def plain_and_partial():
    mp = pytest.MonkeyPatch()
    mp.setattr(pairs_mod, "pairs_due", lambda pdb, done, board: None)
    try:
        plain = solve_all(LEVELS)
    finally:
        mp.undo()
    return plain, solve_all(LEVELS)


def test_partial_expansion_keeps_the_optimum_and_stores_fewer_states(plain_and_partial):
    plain, partial = plain_and_partial
    for k, a, b in zip(LEVELS, plain, partial):
        assert a.status == b.status == "solved", k
        assert b.pushes == a.pushes, k
        boxes, _, pushes = naive.replay(MICROBAN[k - 1], b.solution)
        assert boxes == MICROBAN[k - 1].goals and pushes == b.pushes
        assert replay(MICROBAN[k - 1], b.solution).is_solved
    # plain A* stores every child; the partial search only those of f up to the node's
    assert sum(b.nodes for b in partial) < 0.8 * sum(a.nodes for a in plain)


@pytest.mark.parametrize("k", [3, 8, 23])
def test_partial_expansion_pushes_match_naive_bfs(k, plain_and_partial):
    _, partial = plain_and_partial
    assert partial[LEVELS.index(k)].pushes == naive.bfs_pushes(MICROBAN[k - 1])
