"""Stuck-set deadlocks with sealed pockets (levelforge.engine.sokoban_deadlock): the kernel
against a plain-Python reference, every deadlock it reports checked against the
exhaustive search of the whole state, and closed diagonals the freeze test misses."""

import numpy as np
import pytest

from levelforge.engine import sokoban_board as Kb
from levelforge.engine import sokoban_deadlock as Kd
from levelforge.engine import sokoban_window as Kw
from levelforge.sokoban import Level, Solver, collections

import naive_deadlock
import naive_sokoban as naive
from test_sokoban_solver import check_replay, random_level
from test_sokoban_solver_deadlocks import check_fess_against_bfs

MICROBAN = collections.load("microban")


def kernel_verdicts(level, dead, player):
    """The kernel's verdict for each box of ``level`` as the pushed box, the player on
    ``player``; the work arrays are checked to come back as they went in."""
    w = level.width
    walls, goals, boxes, _ = level.arrays()
    n = walls.shape[0]
    deadarr = np.zeros(n, np.uint8)
    for x, y in dead:
        deadarr[y * w + x] = 1
    inset = np.zeros(n, np.uint8)
    slist = np.zeros(len(level.boxes) + 1, np.int64)
    stamp = np.zeros(n, np.int64)
    ectr = np.zeros(3, np.int64)
    queue = np.zeros(n, np.int32)
    out = {}
    for x, y in sorted(level.boxes):
        out[(x, y)] = Kd.stuck_deadlock(np.int64(y * w + x), np.int64(player[1] * w + player[0]),
                                        walls, goals, boxes, deadarr, w, inset, slist, stamp,
                                        ectr, np.int64(1), queue)
        assert not inset.any()
    return out


def frozen_verdict(level, dead, t):
    """The freeze test of the same box (2: frozen off a goal)."""
    w = level.width
    walls, goals, boxes, _ = level.arrays()
    deadarr = np.zeros(walls.shape[0], np.uint8)
    for x, y in dead:
        deadarr[y * w + x] = 1
    return Kb.frozen_state(np.int64(t[1] * w + t[0]), walls, boxes, deadarr, goals,
                           np.zeros(walls.shape[0], np.uint8), w,
                           np.zeros(len(level.boxes) + 1, np.int64))


def dead_cells(level):
    cells = {(x, y) for y in range(level.height) for x in range(level.width)}
    return naive.dead_squares(set(level.walls), set(level.goals), cells)


def crowded_states(seed, count, side, boxes):
    """Random states (``count`` draws) that neither dead squares nor the freeze test
    call deadlocked, with their dead squares."""
    rng = np.random.default_rng(seed)
    for _ in range(count):
        level = random_level(rng, side, boxes, wall_p=0.25)
        if level is None:
            continue
        dead = dead_cells(level)
        if not any(t in dead or frozen_verdict(level, dead, t) == 2 for t in level.boxes):
            yield level, dead


def test_random_states_match_the_reference_and_every_deadlock_is_unsolvable():
    """On crowded random states that neither dead squares nor the freeze test call
    deadlocked: the kernel's verdict equals the plain-Python reference for every box,
    and each deadlock it reports has no solution (plain BFS over the whole state)."""
    found = 0
    for level, dead in crowded_states(18, 1000, 7, 6):
        verdicts = kernel_verdicts(level, dead, level.player)
        for t, got in verdicts.items():
            want = naive_deadlock.stuck_deadlock(set(level.walls), set(level.goals),
                                                 set(level.boxes), dead, level.player, t)
            assert got == want, (level.to_xsb(), t)
        if any(verdicts.values()):
            found += 1
            assert naive.bfs_pushes(level) is None, level.to_xsb()
    assert found >= 10


CLOSED_DIAGONAL = """\
#######
#     #
# #   #
## $  #
#.$#  #
#.@   #
#######"""


def test_closed_diagonal_is_a_deadlock_the_freeze_test_misses():
    """The cell between the two boxes is sealed (walls above and left): neither box can
    move again. The freeze test sees both boxes as movable; the level has no solution."""
    level = Level.from_xsb(CLOSED_DIAGONAL)
    dead = dead_cells(level)
    assert (2, 3) in dead  # the sealed corner between the boxes
    assert all(frozen_verdict(level, dead, t) == 0 for t in level.boxes)
    assert set(kernel_verdicts(level, dead, level.player).values()) == {True}
    assert naive.bfs_pushes(level) is None
    # with a goal in the sealed cell a box may still enter it: no verdict
    opened = level.replace(goals=level.goals - {(1, 4)} | {(2, 3)})
    assert set(kernel_verdicts(opened, dead_cells(opened), level.player).values()) == {False}
    # the player inside the pocket can push both boxes away: no verdict
    inside = level.replace(player=(2, 3))
    assert set(kernel_verdicts(inside, dead, inside.player).values()) == {False}


@pytest.mark.parametrize("case", range(40))
def test_feature_space_search_with_stuck_sets_keeps_unsolvable_a_proof(case):
    """The feature-space search prunes stuck sets among its children: crowded random
    levels it calls unsolvable have no solution, and its solutions replay."""
    rng = np.random.default_rng(7000 + case)
    level = random_level(rng, 7, 5, wall_p=0.2)
    if level is not None:
        check_fess_against_bfs(level)


def kernel_window(level, dead, player, t, cache):
    """The window kernel's verdict for the box on ``t`` (``cache`` kept by the caller)."""
    w = level.width
    walls, goals, boxes, _ = level.arrays()
    deadarr = np.zeros(walls.shape[0], np.uint8)
    for x, y in dead:
        deadarr[y * w + x] = 1
    return Kw.window_deadlock(np.int64(t[1] * w + t[0]), np.int64(player[1] * w + player[0]),
                              walls, goals, boxes, deadarr, w, cache,
                              np.zeros(Kw.WWORK, np.int64))


def test_window_deadlocks_match_the_reference_and_are_unsolvable():
    """On crowded random states that neither dead squares nor the freeze test call
    deadlocked: the window kernel (asked twice, the second answer from its cache) says
    deadlock exactly when the plain BFS of the relaxed window finds no way out within
    the kernel's state cap, and each such state has no solution (plain BFS of the whole
    state)."""
    found = 0
    for level, dead in crowded_states(19, 1000, 8, 7):
        cache = np.full(1 << 8, -1, np.int64)
        any_dead = False
        for t in sorted(level.boxes):
            ref = naive_deadlock.window_deadlock(set(level.walls), set(level.goals), dead,
                                                 set(level.boxes), level.player, t,
                                                 level.width, level.height)
            want = any(d and k <= Kw.WCAP for d, k in ref)
            for _ in range(2):
                got = kernel_window(level, dead, level.player, t, cache)
                assert got == want, (level.to_xsb(), t, ref)
            any_dead |= got
        if any_dead:
            found += 1
            assert naive.bfs_pushes(level) is None, level.to_xsb()
    assert found >= 10


WINDOW_ONLY = """\
######
# $..#
#+$ ##
#$ ###
#  ###
######"""


def test_a_window_deadlock_the_stuck_sets_miss():
    """A deadlock with no box on a dead square, frozen or in a stuck set: the window
    search proves it, and the level has no solution."""
    level = Level.from_xsb(WINDOW_ONLY)
    dead = dead_cells(level)
    assert not any(t in dead or frozen_verdict(level, dead, t) for t in level.boxes)
    assert not any(kernel_verdicts(level, dead, level.player).values())
    cache = np.full(1 << 8, -1, np.int64)
    assert kernel_window(level, dead, level.player, (1, 3), cache)
    assert naive.bfs_pushes(level) is None


def test_the_feature_space_search_runs_them_only_when_switched_on():
    """Both tests are off by default (measured slower under a time limit): the search's
    counters stay at zero, and it still solves Microban levels (solutions replay)."""
    from levelforge.engine import sokoban_deadlock as D
    solver = Solver(max_nodes=200_000)
    solver._stages = False
    for k in (115, 118):
        level = MICROBAN[k - 1]
        result = solver.solve(level, optimal=False)
        assert result.solved
        check_replay(level, result)
    w = solver._fess_ws.wwork
    assert (D.STUCK_SETS, D.WINDOWS) == (False, False)
    assert w[Kw.W_STUCK] == 0 and w[Kw.W_RUNS] == 0
