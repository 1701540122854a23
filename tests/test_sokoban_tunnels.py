"""Tunnel macros (``levelforge.sokoban.solver.tunnel_cells``) of the feature-space search and
the push-optimal A*: the tunnel cells against a plain-Python cut test, the macro seen at
work, and both searches' verdicts on corridor-rich levels against plain BFS (a wrong
macro loses solutions, proves solvable levels unsolvable or loses the optimum)."""
import numpy as np
import pytest

from levelforge.sokoban import Level, Solver
from levelforge.engine import sokoban_board as Kb
from levelforge.sokoban.solver import tunnel_cells

import naive_sokoban as naive
from test_sokoban_solver import check_replay, pulled_level, random_level
from test_sokoban_solver_deadlocks import check_fess_against_bfs
from test_sokoban_solver_fess import fess_solver


def naive_tunnel_cells(level):
    """Floor cells the player's area holds, off the goals, walled on two opposite sides
    and open on the other two, whose removal leaves no walk between those two (plain
    BFS; cells the player can never reach count as walls, as in the solver)."""
    cells = {(x, y) for y in range(level.height) for x in range(level.width)}
    floor = naive.reachable(level.walls, set(), level.player)
    walls = cells - floor
    out = set()
    for t in floor - level.goals:
        for side, axis in (((0, 1), (1, 0)), ((1, 0), (0, 1))):
            walled = [naive.add(t, side, k) for k in (-1, 1)]
            ends = [naive.add(t, axis, k) for k in (-1, 1)]
            if all(c in walls for c in walled) and all(c in floor for c in ends):
                if ends[1] not in naive.reachable(walls | {t}, set(), ends[0]):
                    out.add(t)
    return out


def kernel_tunnel_cells(level):
    """The solver's tunnel cells, from the side components of the push distances."""
    walls, goals, _, _ = level.arrays()
    cells = set(naive.reachable(level.walls, set(), level.player))
    for i in range(walls.shape[0]):
        if (i % level.width, i // level.width) not in cells:
            walls[i] = 1
    n, w = walls.shape[0], level.width
    goal_cells = np.flatnonzero(goals * (walls == 0)).astype(np.int32)
    sides = np.zeros(12 * n, np.int32)
    Kb.push_distances(walls, goal_cells, w, np.zeros((len(goal_cells), 4 * n), np.int32),
                      np.zeros(n, np.uint8), sides, np.zeros(n, np.int64),
                      np.zeros(n * n, np.int8))
    tun = tunnel_cells(walls, goals, w, sides)
    return {(int(c) % w, int(c) // w) for c in np.flatnonzero(tun)}


@pytest.mark.parametrize("case", range(60))
def test_tunnel_cells_match_a_plain_cut_test(case):
    rng = np.random.default_rng(21000 + case)
    level = random_level(rng, max_side=9, max_boxes=2, wall_p=0.35)
    if level is not None:
        assert kernel_tunnel_cells(level) == naive_tunnel_cells(level)


@pytest.mark.parametrize("optimal", [False, True])
def test_a_box_pushed_into_a_tunnel_goes_through_in_one_expansion(optimal):
    # (the room below the player keeps the board from being symmetric: the push-optimal
    # search takes no tunnel macro on symmetric boards)
    level = Level.from_xsb("##########\n#@$    . #\n#  #######\n##########")
    assert kernel_tunnel_cells(level) == {(3, 1), (4, 1), (5, 1), (6, 1)}
    result = fess_solver().solve(level, optimal=optimal)
    assert result.status == "solved" and result.pushes == 5
    assert result.expanded == 1  # one push into the tunnel, carried on to the goal
    check_replay(level, result)


def test_a_tunnel_blocked_by_a_box_beyond_it_is_a_deadlock():
    # pushing the left box into the tunnel would jam it against the right one: the
    # right box must go first, and that needs the player on its far side, which the
    # tunnel alone reaches; the search proves the level unsolvable (so does BFS)
    level = Level.from_xsb("#######\n#@$ $.#\n### ###\n#.    #\n#######")
    assert naive.bfs_pushes(level) is None
    assert fess_solver().solve(level, optimal=False).status == "unsolvable"


def corridor_level(case):
    """Random level ``case`` of the agreement tests: small, corridor-rich (a third of the
    inner cells walls), made by pulls for even cases; None when it does not fit."""
    rng = np.random.default_rng(22000 + case)
    make = random_level if case % 2 else pulled_level
    return make(rng, max_side=8, max_boxes=3, wall_p=0.35)


@pytest.mark.parametrize("case", range(80))
def test_feature_space_search_with_tunnels_agrees_with_bfs(case):
    """Corridor-rich random levels: ``unsolvable`` exactly when plain BFS finds no
    solution; solutions replay and are never shorter than BFS's."""
    level = corridor_level(case)
    if level is not None:
        check_fess_against_bfs(level)


def test_the_random_levels_above_have_tunnels_with_boxes_to_push_through():
    """The agreement tests are not vacuous: nearly half their levels have tunnel cells."""
    have = sum(level is not None and len(kernel_tunnel_cells(level)) > 0
               for level in map(corridor_level, range(80)))
    assert have >= 30  # 37 of the 80


@pytest.mark.parametrize("case", range(80))
def test_push_optimal_search_with_tunnels_finds_the_bfs_optimum(case):
    """The same levels, push-optimal: the push count equals plain BFS's (the macro keeps
    push-optimality), ``unsolvable`` exactly when BFS finds no solution."""
    level = corridor_level(case)
    if level is None:
        return
    expected = naive.bfs_pushes(level)
    result = Solver(max_nodes=200_000).solve(level)
    if expected is None:
        assert result.status == "unsolvable"
    else:
        assert result.status == "solved" and result.pushes == expected and result.optimal
        check_replay(level, result)
