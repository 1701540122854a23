"""The push-optimal backward search (A* over pulls) against independent answers: the
push counts of plain breadth-first search over pushes, the forward push-optimal
search's on Microban, its proved bound never above either, and its turns with the
forward search inside a push-optimal solve."""
import naive_sokoban as naive
import numpy as np
import pytest
from levelforge.engine.sokoban_state import C_BOUND, N_COUNTERS
from levelforge.sokoban import Solver, collections, replay
from levelforge.sokoban import solver as solver_mod
from levelforge.sokoban.backward import backward_solve
from test_sokoban_solver import pulled_level, random_level

MICROBAN = collections.load("microban")


def pull_optimal(level, nodes):
    """``(status, solution, bound)`` of the push-optimal backward search."""
    ctr = np.zeros(N_COUNTERS, np.int64)
    status, solution, _, _ = backward_solve(level, nodes, optimal=True, ctr=ctr)
    return status, solution, int(ctr[C_BOUND])


def small_level(case, seed):
    rng = np.random.default_rng(seed + case)
    level = random_level(rng, max_side=7, max_boxes=3) if case % 3 == 0 \
        else pulled_level(rng, max_side=7, max_boxes=3)
    return None if level is None or level.is_solved else level


@pytest.mark.parametrize("case", range(150))
def test_pulls_find_the_fewest_pushes_of_plain_breadth_first_search(case):
    """Solved exactly when a solution exists, in the fewest pushes, the proved bound
    the push count (the goal is recognised when expanded, a state found again by fewer
    pulls takes the shorter way); ``exhausted`` only without a solution."""
    level = small_level(case, 31000)
    if level is None:
        return
    status, solution, bound = pull_optimal(level, 500_000)
    exact = naive.bfs_pushes(level)
    if exact is None:
        assert status == "exhausted" and solution is None
        return
    assert status == "solved"
    boxes, _, pushes = naive.replay(level, solution)
    assert boxes == level.goals and pushes == exact == bound


@pytest.mark.parametrize("case", range(60))
def test_a_capped_search_proves_no_more_than_the_fewest_pushes(case):
    level = small_level(case, 32000)
    if level is None:
        return
    exact = naive.bfs_pushes(level)
    status, _, bound = pull_optimal(level, 12)
    assert status in ("limit", "solved", "exhausted")
    assert exact is None or bound <= exact


@pytest.mark.parametrize("k", [*range(0, 150, 10), 143])
def test_pulls_agree_with_the_forward_search_on_microban(k):
    """The forward push-optimal search is the reference (level 144, index 143, the
    forward search needs millions of states for; backwards about 285,000)."""
    status, solution, bound = pull_optimal(MICROBAN[k], 1_000_000)
    assert status == "solved" and replay(MICROBAN[k], solution).is_solved
    pushes = sum(ch.isupper() for ch in solution)
    assert pushes == bound
    if k != 143:
        forward = Solver(max_nodes=1_000_000).solve(MICROBAN[k])
        assert forward.optimal and forward.pushes == pushes
    else:
        assert pushes == 36  # the forward search's, measured without a cap


@pytest.mark.parametrize("case", range(40))
def test_a_solve_with_both_searches_in_turn_stays_push_optimal(case, monkeypatch):
    """From the first stored state on (``PULLS_FROM`` 1) the two searches take turns;
    the solution found, by either, has the fewest pushes and is proved so."""
    monkeypatch.setattr(solver_mod, "PULLS_FROM", 1)
    level = small_level(case, 33000)
    if level is None:
        return
    exact = naive.bfs_pushes(level)
    result = Solver(max_nodes=100_000).solve(level)
    if exact is None:
        assert result.status in ("unsolvable", "limit") and result.solution is None
        return
    assert result.status == "solved" and result.optimal and result.pushes == exact
    assert result.lower_bound == exact
    assert replay(level, result.solution).is_solved


def test_microban_144_is_solved_with_the_states_the_forward_search_alone_lacks(monkeypatch):
    """Capped at 600,000 stored states: the forward search alone stops at the cap
    (it needs about 9M), the two in turn solve it in 36 pushes, proved (the backward
    search, with half the cap, needs 284,940)."""
    level = MICROBAN[143]
    both = Solver(max_nodes=600_000).solve(level)
    assert both.status == "solved" and both.optimal and both.pushes == 36
    assert replay(level, both.solution).is_solved
    monkeypatch.setattr(solver_mod, "PULLS_FROM", 0)
    alone = Solver(max_nodes=600_000).solve(level)
    assert alone.status == "limit" and alone.lower_bound < 36


def test_a_capped_solve_reports_the_larger_proved_bound(monkeypatch):
    """Stopped at the cap, the solve's lower bound is the larger of the two searches':
    on Microban 144 the backward search's, the optimum (36) within 25,000 stored
    states (measured), where the forward search alone proves less."""
    level = MICROBAN[143]
    _, _, pulls = pull_optimal(level, 50_000)
    result = Solver(max_nodes=200_000).solve(level)
    assert pulls == 36 and result.status == "limit" and result.lower_bound == 36
    monkeypatch.setattr(solver_mod, "PULLS_FROM", 0)
    alone = Solver(max_nodes=200_000).solve(level)
    assert alone.status == "limit" and alone.lower_bound < 36
