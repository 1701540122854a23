"""Stuck-set deadlocks with sealed pockets (levelforge.engine.sokoban_deadlock): the kernel
against a plain-Python reference, every deadlock it reports checked against the
exhaustive search of the whole state, and closed diagonals the freeze test misses."""
import subprocess
import sys

import numpy as np
import pytest

from levelforge.engine import sokoban_board as Kb
from levelforge.engine import sokoban_deadlock as Kd
from levelforge.sokoban import Level

import naive_deadlock
import naive_sokoban as naive
from test_sokoban_solver import random_level
from test_sokoban_solver_deadlocks import check_fess_against_bfs


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


def test_random_states_match_the_reference_and_every_deadlock_is_unsolvable():
    """On crowded random states that neither dead squares nor the freeze test call
    deadlocked: the kernel's verdict equals the plain-Python reference for every box,
    and each deadlock it reports has no solution (plain BFS over the whole state)."""
    rng = np.random.default_rng(18)
    found = 0
    for _ in range(1000):
        level = random_level(rng, 7, 6, wall_p=0.25)
        if level is None:
            continue
        dead = dead_cells(level)
        if any(t in dead or frozen_verdict(level, dead, t) == 2 for t in level.boxes):
            continue
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


def test_generator_path_never_compiles_the_stuck_set_test():
    """Cold start: generating and solving push-optimally leave it uncompiled."""
    code = ("from levelforge.sokoban import generate, solve;"
            "from levelforge.engine import sokoban_deadlock as d;"
            "r = generate(5, width=7, height=7, boxes=2, pushes=(4, 8)); solve(r.level);"
            "print(d.stuck_deadlock.signatures, d._pocket.signatures)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "[] []"
