"""The push-optimal search's partial expansion with newest-first ties (engine/sokoban.py,
search_run; on from ``solver.PARTIAL_FROM`` stored states), against plain A*: the same
search with the switch off, and a plain-Python breadth-first search."""
import numpy as np
import pytest

from levelforge.sokoban import Solver, collections, replay
from levelforge.sokoban import solver as solver_mod

import naive_sokoban as naive
from test_sokoban_solver import pulled_level, random_level

MICROBAN = collections.load("microban")
LEVELS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 14, 17, 23, 27, 31, 45, 59, 74]  # 31: symmetric


def solve_all(monkeypatch, partial_from, levels=LEVELS):
    monkeypatch.setattr(solver_mod, "PARTIAL_FROM", partial_from)
    solver = Solver()
    return [solver.solve(MICROBAN[k - 1], time_limit=60) for k in levels]


def test_partial_expansion_keeps_the_optimum_and_stores_fewer_states(monkeypatch):
    plain = solve_all(monkeypatch, 0)  # never
    partial = solve_all(monkeypatch, 1)  # from the start
    for k, a, b in zip(LEVELS, plain, partial):
        assert a.status == b.status == "solved", k
        assert b.pushes == a.pushes, k
        boxes, _, pushes = naive.replay(MICROBAN[k - 1], b.solution)
        assert boxes == MICROBAN[k - 1].goals and pushes == b.pushes
        assert replay(MICROBAN[k - 1], b.solution).is_solved
    # plain A* stores every child; the partial search only those of f up to the node's
    assert sum(b.nodes for b in partial) < 0.8 * sum(a.nodes for a in plain)


@pytest.mark.parametrize("partial_from", [20, 300])
def test_switching_mid_search_keeps_the_optimum(monkeypatch, partial_from):
    """The open list is re-keyed for newest-first ties when the switch comes."""
    plain = solve_all(monkeypatch, 0)
    switched = solve_all(monkeypatch, partial_from)
    assert [r.pushes for r in switched] == [r.pushes for r in plain]
    assert [r.nodes for r in switched] != [r.nodes for r in plain]  # the switch did act


@pytest.mark.parametrize("seed", range(12))
def test_partial_expansion_matches_naive_bfs_and_proves_unsolvable(monkeypatch, seed):
    monkeypatch.setattr(solver_mod, "PARTIAL_FROM", 1)
    rng = np.random.default_rng(seed)
    solver = Solver()
    done = 0
    while done < 6:
        make = random_level if done % 2 else pulled_level  # maybe unsolvable, solvable
        level = make(rng, max_side=6, max_boxes=3)
        if level is None:
            continue
        want = naive.bfs_pushes(level)
        got = solver.solve(level)
        assert got.status == ("unsolvable" if want is None else "solved")
        assert got.pushes == want
        done += 1
