"""The push-optimal search's partial expansion with newest-first ties (engine/sokoban.py,
search_run; the second search after ``solver.RESTART_AT`` stored states), against plain
A*: the first search alone, and a plain-Python breadth-first search."""
import numpy as np
import pytest

from levelforge.sokoban import Solver, collections, replay
from levelforge.sokoban import solver as solver_mod

import naive_sokoban as naive
from test_sokoban_solver import pulled_level, random_level

MICROBAN = collections.load("microban")
LEVELS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 14, 17, 23, 27, 31, 45, 59, 74]  # 31: symmetric


PLAIN = solver_mod.MAX_NODES  # no restart within any cap: plain A* alone


def solve_all(monkeypatch, restart_at, levels=LEVELS, max_nodes=None):
    monkeypatch.setattr(solver_mod, "RESTART_AT", restart_at)
    monkeypatch.setattr(solver_mod, "INCUMBENT_SHARE", 0)  # the two searches alone
    solver = Solver()
    return [solver.solve(MICROBAN[k - 1], max_nodes, time_limit=60) for k in levels]


def test_partial_expansion_keeps_the_optimum_and_stores_fewer_states(monkeypatch):
    plain = solve_all(monkeypatch, PLAIN)
    partial = solve_all(monkeypatch, 0)  # the second search only
    for k, a, b in zip(LEVELS, plain, partial):
        assert a.status == b.status == "solved", k
        assert b.pushes == a.pushes, k
        boxes, _, pushes = naive.replay(MICROBAN[k - 1], b.solution)
        assert boxes == MICROBAN[k - 1].goals and pushes == b.pushes
        assert replay(MICROBAN[k - 1], b.solution).is_solved
    # plain A* stores every child; the partial search only those of f up to the node's
    assert sum(b.nodes for b in partial) < 0.8 * sum(a.nodes for a in plain)


@pytest.mark.parametrize("restart_at", [20, 300])
def test_the_restart_keeps_the_optimum_and_counts_both_searches(monkeypatch, restart_at):
    plain = solve_all(monkeypatch, PLAIN)
    first = solve_all(monkeypatch, PLAIN, max_nodes=restart_at)  # plain A* at the cap
    restarted = solve_all(monkeypatch, restart_at)
    partial = solve_all(monkeypatch, 0)
    assert [r.pushes for r in restarted] == [r.pushes for r in plain]
    for a, f, b, c in zip(plain, first, restarted, partial):
        if f.status == "solved":  # plain A* ended first: nothing else ran
            assert (b.nodes, b.expanded) == (a.nodes, a.expanded)
        else:  # the first search stopped at its cap, then the second one ran to the end
            assert f.status == "limit"
            assert (b.nodes, b.expanded) == (f.nodes + c.nodes, f.expanded + c.expanded)
    assert any(f.status == "limit" for f in first)  # the restart did act


def test_no_restart_when_the_node_cap_is_the_first_search_s(monkeypatch):
    """A cap at most RESTART_AT ends the solve at the first search's cap: ``limit``."""
    plain = solve_all(monkeypatch, PLAIN, [LEVELS[-1]], max_nodes=200)
    capped = solve_all(monkeypatch, 200, [LEVELS[-1]], max_nodes=200)
    assert plain[0].status == capped[0].status == "limit"
    assert (capped[0].nodes, capped[0].expanded) == (plain[0].nodes, plain[0].expanded)


@pytest.mark.parametrize("seed", range(12))
def test_partial_expansion_matches_naive_bfs_and_proves_unsolvable(monkeypatch, seed):
    monkeypatch.setattr(solver_mod, "RESTART_AT", 0)
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
