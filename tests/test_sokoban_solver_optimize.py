"""The solution optimiser (levelforge.sokoban.optimizer): push-optimal re-solving of windows
of a solution, with the solver's target configurations (box set + player region)."""
import numpy as np
import pytest

from levelforge import ConfigError, InvalidMoveError
from levelforge.sokoban import Level, Solver, collections, optimize, replay, solve
from levelforge.sokoban.optimizer import _Board

import naive_sokoban as naive
from test_sokoban_solver import check_replay, pulled_level

MICROBAN = collections.load("microban")
_DIRS = "ulrd"


def random_pushes(level, rng, count):
    """Up to ``count`` random legal pushes from the start (plain Python), as
    ``(flat box cell, direction)`` pairs."""
    walls, boxes, player = set(level.walls), frozenset(level.boxes), level.player
    out = []
    for _ in range(count):
        region = naive.reachable(walls, boxes, player)
        legal = [(b, d) for b in sorted(boxes) for d in range(4)
                 if naive.add(b, naive.DIRS[_DIRS[d]], -1) in region
                 and naive.add(b, naive.DIRS[_DIRS[d]]) not in walls
                 and naive.add(b, naive.DIRS[_DIRS[d]]) not in boxes]
        if not legal:
            break
        b, d = legal[int(rng.integers(len(legal)))]
        boxes, player, _ = naive.push(walls, boxes, naive.add(b, naive.DIRS[_DIRS[d]], -1),
                                      _DIRS[d].upper())
        out.append((b[1] * level.width + b[0], d))
    return out


@pytest.mark.parametrize("case", range(60))
def test_window_to_a_target_configuration_matches_naive_bfs(case):
    """A window re-solved from the start to the boxes and player region after ``j``
    random pushes takes as many pushes as plain BFS to that box set and region; the
    last window (nothing follows) only needs the box set."""
    rng = np.random.default_rng(7000 + case)
    level = pulled_level(rng)
    if level is None:
        return
    pushes = random_pushes(level, rng, int(rng.integers(2, 9)))
    if len(pushes) < 2:
        return
    board = _Board(level)
    solver = Solver(max_nodes=200_000)
    w = level.width
    for j, last in ((len(pushes) - 1, False), (len(pushes), True)):
        boxes, player = board.states(pushes, j)[j]
        cells = {(c % w, c // w) for c in boxes}
        target = None if last else (player % w, player // w)
        expected = naive.bfs_pushes_to(level.walls, level.boxes, level.player, cells, target)
        status, sub, _, _ = board.window(solver, pushes, 0, j, None)
        assert status == "solved" and len(sub) == expected <= j
        end_boxes, end_player = board.states(sub, len(sub))[-1]
        assert end_boxes == boxes
        if not last:
            assert player in board.region(boxes, end_player)


def test_optimized_solutions_replay_and_are_never_longer():
    for k in range(1, 156, 5):
        level = MICROBAN[k - 1]
        found = solve(level, optimal=False, max_nodes=200_000)
        better = optimize(level, found.solution, max_nodes=50_000)
        check_replay(level, better)
        assert (better.pushes, better.moves) <= (found.pushes, found.moves), k


def test_optimize_reaches_the_push_optimum_on_small_levels():
    """Where the whole solution fits one window search, the result is push-optimal and
    says so; it matches the push-optimal solver."""
    reached = 0
    for k in range(1, 41):
        level = MICROBAN[k - 1]
        found = solve(level, optimal=False)
        better = optimize(level, found.solution, max_nodes=200_000)
        best = solve(level)
        assert better.pushes >= best.pushes
        if better.optimal:
            assert better.pushes == best.pushes, k
            reached += 1
    assert reached == 40


def test_optimize_shortens_a_detour_to_the_optimum():
    level = Level.from_xsb("#######\n#@$  .#\n#     #\n#######")
    detour = "R" + "drru" + "L" + "dllu" + "RRR"
    assert replay(level, detour).is_solved
    r = optimize(level, detour)
    assert (r.solution, r.pushes, r.moves, r.optimal) == ("RRR", 3, 3, True)


def test_solve_optimize_option_spends_the_time_left_on_the_solution():
    """``solve(..., optimal=False, optimize=True)``: never more pushes than without."""
    for k in (37, 81, 120):
        level = MICROBAN[k - 1]
        plain = solve(level, optimal=False)
        tuned = solve(level, optimal=False, optimize=True, time_limit=60)
        check_replay(level, tuned)
        assert tuned.pushes <= plain.pushes
        assert tuned.pushes >= solve(level).pushes


def test_optimize_rejects_bad_input():
    level = Level.from_xsb("#####\n#@$.#\n#####")
    with pytest.raises(ConfigError):
        optimize(level, "")  # does not solve it
    with pytest.raises(InvalidMoveError):
        optimize(level, "L")
    with pytest.raises(ConfigError):
        optimize(level, "R", time_limit=0)
    with pytest.raises(ConfigError):
        optimize("level", "R")
    with pytest.raises(ConfigError):
        solve(level, optimize="yes")
