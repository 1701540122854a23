"""Deadlock detection of the searches for any solution: corral deadlocks by a small search
of a corral's boxes alone (levelforge.engine.sokoban_corral), checked against a plain
BFS of the same boxes and against the exhaustive search of the whole state."""
import numpy as np
import pytest

from levelforge.engine import sokoban_corral as Kc
from levelforge.sokoban import Level, Solver, collections

import naive_sokoban as naive
from test_sokoban_solver import check_replay, pulled_level, random_level

MICROBAN = collections.load("microban")


def kernel_corral_deadlock(level, dead, boxes, player, cap=50_000, maxk=8, repeat=2):
    """The kernel's verdict on ``boxes`` (a subset of the level's boxes as the corral),
    asked ``repeat`` times (the later answers come from its cache)."""
    w = level.width
    walls, goals, _, _ = level.arrays()
    n = walls.shape[0]
    pool = np.array(sorted(y * w + x for x, y in level.boxes), np.int16)
    stamp2 = np.zeros(n, np.int64)
    for x, y in boxes:
        stamp2[y * w + x] = 7
    deadarr = np.zeros(n, np.uint8)
    for x, y in dead:
        deadarr[y * w + x] = 1
    zob = np.random.default_rng(5).integers(0, 2**63, size=(2, n), dtype=np.uint64)
    cache = 1 << 8
    arrays = (np.zeros(n, np.uint8), np.zeros(n, np.int64), walls.copy(), np.zeros(n, np.uint8),
              np.zeros(n, np.int64), np.zeros(n, np.int64), np.zeros(n, np.int32),
              np.zeros(cap * maxk, np.int16), np.zeros(cap, np.int32),
              np.zeros(4 * cap, np.int64), np.zeros(Kc.N_CCOUNTERS, np.int64),
              np.zeros(cache, np.int64), np.full(cache, -1, np.int32),
              np.zeros(cache * maxk, np.int16), np.zeros(cache, np.int16))
    answers = [Kc.corral_deadlock(pool, 0, pool.shape[0], 7, stamp2,
                                  player[1] * w + player[0], walls, goals, deadarr, zob, w,
                                  *arrays) for _ in range(repeat)]
    assert np.array_equal(arrays[2], walls) and not arrays[3].any()  # work arrays restored
    return answers


@pytest.mark.parametrize("case", range(50))
def test_corral_deadlock_search_matches_naive_bfs_and_is_sound(case):
    """On random states and random box subsets: the kernel's verdict equals a plain BFS
    over the subset's pushes; a proved deadlock has no solution at all (plain BFS over
    the whole state), whatever subset proved it."""
    rng = np.random.default_rng(3000 + case)
    level = random_level(rng, 6, 4) if case % 2 else pulled_level(rng, 6, 4)
    if level is None or not level.boxes:
        return
    cells = {(x, y) for y in range(level.height) for x in range(level.width)}
    dead = naive.dead_squares(set(level.walls), set(level.goals), cells)
    boxes = sorted(level.boxes)
    subset = [b for b in boxes if rng.random() < 0.7] or boxes[:1]
    expected = naive.corral_deadlock(level.walls, level.goals, dead, level.player, subset)
    assert kernel_corral_deadlock(level, dead, subset, level.player) == [expected, expected]
    if expected:
        assert naive.bfs_pushes(level) is None


def test_corral_deadlock_gives_up_at_its_caps():
    """Too many boxes or too few nodes: no verdict (False), never a wrong proof."""
    level = Level.from_xsb("#######\n#@ $ .#\n# $  .#\n#######")
    cells = {(x, y) for y in range(level.height) for x in range(level.width)}
    dead = naive.dead_squares(set(level.walls), set(level.goals), cells)
    boxes = sorted(level.boxes)
    assert kernel_corral_deadlock(level, dead, boxes, level.player, maxk=1) == [False] * 2
    assert kernel_corral_deadlock(level, dead, boxes, level.player, cap=1) == [False] * 2


@pytest.mark.parametrize("case", range(60))
def test_feature_space_search_unsolvable_stays_a_proof(case):
    """The feature-space search alone (corral deadlocks pruned) calls a level unsolvable
    only when plain BFS finds no solution; its solutions replay."""
    rng = np.random.default_rng(4000 + case)
    level = random_level(rng, max_boxes=4) if case % 2 else pulled_level(rng, max_boxes=4)
    if level is not None:
        check_fess_against_bfs(level)


def check_fess_against_bfs(level):
    """The feature-space search alone on ``level``: unsolvable exactly when plain BFS
    finds no solution, else a solution that replays, no shorter than BFS's."""
    expected = naive.bfs_pushes(level)
    solver = Solver(max_nodes=200_000)
    solver._stages = False
    result = solver.solve(level, optimal=False)
    if expected is None:
        assert result.status == "unsolvable"
    else:
        assert result.status == "solved" and result.pushes >= expected
        check_replay(level, result)


def test_corral_deadlocks_are_found_in_microban_searches():
    """The feature-space search runs corral searches and proves deadlocks with them on
    real levels (the counters of its workspace)."""
    solver = Solver(max_nodes=200_000)
    solver._stages = False
    for k in (5, 60, 93):
        assert solver.solve(MICROBAN[k - 1], optimal=False).solved
    cctr = solver._fess_ws.cctr
    assert cctr[Kc.CC_RUNS] > 0 and 0 < cctr[Kc.CC_PROVED] < cctr[Kc.CC_RUNS]
