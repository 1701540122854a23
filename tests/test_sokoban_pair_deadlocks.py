"""Pair deadlocks in the search for any solution: the verdict of
``levelforge.engine.sokoban_pairs.pair_dead`` against a plain-Python breadth-first search
of two boxes alone on the board, and the feature-space search, which stores no child
that verdict condemns and proves a start with a dead pair unsolvable at once, and the
push-optimal A*, which stores no such child either. The backward search's table of pairs
that pulls cannot bring home (``levelforge.sokoban.pairs.pull_pair_table``) against a
plain-Python search of two boxes pulled alone, and the greedy backward search, which
stores no state it condemns and keeps its solutions."""
import sys
from pathlib import Path

import numpy as np
import pytest

from levelforge.engine import sokoban_state as Ks
from levelforge.engine.sokoban_pairs import pair_dead
from levelforge.engine.sokoban_backward import pull_distances
from levelforge.sokoban import Level, backward, collections, replay
from levelforge.sokoban import fess as fess_mod
from levelforge.sokoban.backward import player_area
from levelforge.sokoban.pairs import pull_pair_table
from levelforge.sokoban.bound import pair_table, push_lower_bound

import naive_sokoban as naive
from test_sokoban_bound import reachable_states
from test_sokoban_solver import pulled_level, random_level
from test_sokoban_solver_fess import fess_solver

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "asv_bench"))
from report_pair_deadlocks import dead_pair_share, dead_pair_states  # noqa: E402

MICROBAN = collections.load("microban")


def two_boxes_reach_goals(walls, goals, a, b, player, pulls=False):
    """Plain breadth-first search over pushes (``pulls``: over pulls): can boxes ``a``
    and ``b``, alone on the board, both come to stand on ``goals`` (any two) from player
    cell ``player``?"""
    def key(a, b, player):
        return min(a, b), max(a, b), min(naive.reachable(walls, {a, b}, player))

    seen = {key(a, b, player)}
    todo = [(a, b, player)]
    while todo:
        a, b, player = todo.pop()
        if a in goals and b in goals:
            return True
        region = naive.reachable(walls, {a, b}, player)
        for box, other in ((a, b), (b, a)):
            for step in naive.DIRS.values():
                # a push: the player behind the box, the box on; a pull: the player in
                # front steps on, the box follows
                stand, to = (naive.add(box, step), naive.add(box, step, 2)) if pulls \
                    else (naive.add(box, step, -1), naive.add(box, step))
                if stand in region and to not in walls and to != other:
                    k = (stand, other, to) if pulls else (to, other, box)
                    if key(*k) not in seen:
                        seen.add(key(*k))
                        todo.append(k)
    return False


def cell(level, c):
    return c[1] * level.width + c[0]


def two_box_level(rng, case):
    """A small random level (odd cases) or one made by pulls (even), None unless it has
    at least two boxes."""
    level = random_level(rng, max_side=7, max_boxes=4) if case % 2 \
        else pulled_level(rng, max_side=7, max_boxes=4)
    return level if level is not None and len(level.boxes) >= 2 else None


@pytest.mark.parametrize("case", range(60))
def test_pair_dead_agrees_with_two_box_search(case):
    rng = np.random.default_rng(21000 + case)
    level = two_box_level(rng, case)
    if level is None:
        return
    floor = {(x, y) for y in range(level.height) for x in range(level.width)} - level.walls
    live = floor - naive.dead_squares(level.walls, level.goals, floor)
    for state in reachable_states(level, 6):
        pdb = pair_table(state)
        if pdb is None:  # a sealed box or goal: the solver never builds the table
            continue
        boxes = sorted(state.boxes)
        wbox = np.array([cell(state, b) for b in boxes], np.int32)
        for b in boxes:
            want = b in live and any(
                o in live and not two_boxes_reach_goals(state.walls, state.goals, b, o,
                                                        state.player)
                for o in boxes if o != b)
            got = pair_dead(pdb, wbox, len(boxes), cell(state, b), cell(state, state.player))
            assert got == want, (case, b)


def test_a_start_with_a_dead_pair_is_unsolvable_without_a_search():
    # the box on (2, 1) needs the player on (3, 1), behind both boxes: every first push
    # sends a box into a corner; the matching and the freeze test see nothing wrong
    level = Level.from_xsb("#####\n#.$ #\n#@#*#\n#   #\n#####")
    assert naive.bfs_pushes(level) is None
    assert push_lower_bound(level, pairs=False) is not None
    result = fess_solver().solve(level, optimal=False)
    assert result.status == "unsolvable" and result.expanded == 0
    fess_mod.PAIRS = False
    try:
        result = fess_solver().solve(level, optimal=False)
    finally:
        fess_mod.PAIRS = True
    assert result.status == "unsolvable" and result.expanded > 0


def test_the_feature_space_search_stores_no_child_with_a_dead_pair():
    # the search alone (nothing after it, so that the workspace keeps its states),
    # counted by asv_bench/report_pair_deadlocks.py
    level = MICROBAN[143]  # a level the search does not solve within the cap
    pdb = pair_table(level)
    assert dead_pair_share(level, 4000, False, pdb)[2] > 0  # so the check below can fail
    assert dead_pair_share(level, 4000, True, pdb)[2] == 0


def test_a_halted_build_leaves_no_table():
    """The time limit stops the table's build (the watchdog sets ``C_HALT``): the
    search then goes without pair deadlocks rather than with a half-built table."""
    from levelforge.sokoban.bound import _prepare
    from levelforge.sokoban.pairs import pair_database

    level = MICROBAN[143]
    ws, walls, goal_cells, box_cells, _, dist = _prepare(level, None)
    args = (walls, ws.dead[:walls.shape[0]], goal_cells, level.width, box_cells.shape[0], dist)
    ctr = np.zeros(Ks.N_COUNTERS, np.int64)
    built = pair_database(*args, ctr=ctr)
    assert built is not None and built[0] ** 2 * built[1] > 1 << 14  # looks at C_HALT
    assert np.array_equal(built, pair_table(level))
    ctr[Ks.C_HALT] = 1
    assert pair_database(*args, ctr=ctr) is None


@pytest.mark.parametrize("number, nodes, status", [(109, 50_000, "solved"),
                                                   (144, 20_000, "limit")])
def test_the_push_optimal_search_stores_no_child_with_a_dead_pair(monkeypatch, number, nodes,
                                                                   status):
    """Once its pair database is built (here from the start), the push-optimal A* does
    not store a child with a dead pair either (it used to store them and drop them when
    popped): Microban 109, and Microban 144, a symmetric board, whose stored states are
    canonical images (551 of its first 20,000 had a dead pair before the search took the
    pushed box into the image's frame). That it stays push-optimal: the next test, and
    ``test_sokoban_bound``'s comparison with and without the database."""
    from levelforge.sokoban import Solver
    from levelforge.sokoban import pairs as pairs_mod

    level = MICROBAN[number - 1]
    monkeypatch.setattr(pairs_mod, "AFTER", 0)
    solver = Solver(max_nodes=nodes)
    result = solver.solve(level)
    stored, dead = dead_pair_states(solver.workspace, len(level.boxes), pair_table(level))
    assert result.status == status and stored > 0 and dead == 0


def test_symmetric_levels_keep_their_push_counts_with_pairs_from_the_start(monkeypatch):
    """The pair deadlocks on canonical images drop no solution: with the database built
    from the start, the symmetric Microban levels solve in the push counts found without
    the symmetry reduction (``test_sokoban_solver.SYMMETRIC_MICROBAN``) and replay."""
    from levelforge.sokoban import Solver, replay
    from levelforge.sokoban import pairs as pairs_mod
    from test_sokoban_solver import SYMMETRIC_MICROBAN

    monkeypatch.setattr(pairs_mod, "AFTER", 0)
    solver = Solver(max_nodes=2_000_000)
    for k, pushes in SYMMETRIC_MICROBAN.items():
        result = solver.solve(MICROBAN[k - 1])
        assert (result.status, result.pushes) == ("solved", pushes), k
        assert replay(MICROBAN[k - 1], result.solution).is_solved, k


def pull_alive(walls, starts, floor):
    """Cells from which pulls bring a lone box (the player ignored beyond the two cells
    in line it needs) onto a start cell."""
    alive = set(starts)
    todo = list(starts)
    while todo:
        y = todo.pop()
        for step in naive.DIRS.values():
            x = naive.add(y, step, -1)  # the box on x is pulled onto y, the player to y + step
            if x in floor and naive.add(y, step) in floor and x not in alive:
                alive.add(x)
                todo.append(x)
    return alive


@pytest.mark.parametrize("case", range(40))
def test_pull_pair_table_agrees_with_two_box_pull_search(case):
    rng = np.random.default_rng(33000 + case)
    level = two_box_level(rng, case)
    if level is None:
        return
    walls, _, boxes, player = level.arrays()
    walls[~player_area(walls, level.width, cell(level, level.player))] = 1
    wall_set = {(c % level.width, c // level.width) for c in np.flatnonzero(walls)}
    floor = {(x, y) for y in range(level.height) for x in range(level.width)} - wall_set
    alive = pull_alive(wall_set, level.boxes, floor)
    mask = np.zeros(walls.shape[0], np.uint8)
    mask[[cell(level, c) for c in alive]] = 1
    pdb = pull_pair_table(walls, mask, np.flatnonzero(boxes).astype(np.int32), level.width)
    assert pdb.shape[0] > 1
    live = sorted(alive & floor)
    for _ in range(40 if len(live) > 2 else 0):  # two live cells: only the start's pair
        i, j = rng.choice(len(live), 2, replace=False)
        a, b = sorted((live[i], live[j]))
        players = sorted(floor - {a, b})
        p = players[int(rng.integers(len(players)))]
        wbox = np.array([cell(level, a), cell(level, b)], np.int32)
        got = pair_dead(pdb, wbox, 2, cell(level, a), cell(level, p))
        want = not two_boxes_reach_goals(wall_set, level.boxes, a, b, p, pulls=True)
        assert got == want, (case, a, b, p)


def stored_backward_states(level, nodes, monkeypatch):
    """Run the greedy backward search alone on ``level`` with ``nodes`` stored states;
    its arrays (caught as they are made) and how many states it stored."""
    made = []
    real = backward._Arrays.__init__

    def catch(self, *args, **kwargs):
        real(self, *args, **kwargs)
        made.append(self)

    monkeypatch.setattr(backward._Arrays, "__init__", catch)
    _, _, stored, _ = backward.backward_solve(level, nodes)
    return made[-1], stored


def count_dead_pairs(level, arrays, stored, pdb):
    n = arrays.nbox
    return sum(
        any(pair_dead(pdb, arrays.pool[j * n:(j + 1) * n], n, int(c), int(arrays.nplayer[j]))
            for c in arrays.pool[j * n:(j + 1) * n])
        for j in range(stored))


@pytest.mark.parametrize("pairs", [True, False])
def test_the_backward_search_stores_no_state_with_a_pull_dead_pair(monkeypatch, pairs):
    level = MICROBAN[143]  # not solved by the backward search within the cap
    walls, _, boxes, player = level.arrays()
    walls[~player_area(walls, level.width, cell(level, level.player))] = 1
    starts = np.flatnonzero(boxes).astype(np.int32)
    n = walls.shape[0]
    pdist = np.zeros((starts.shape[0], n), np.int32)
    pull_distances(walls, starts, np.int64(level.width), pdist, np.zeros(n, np.int32))
    alive = (pdist.min(axis=0) < Ks.UNREACHABLE).astype(np.uint8)
    pdb = pull_pair_table(walls, alive, starts, level.width)
    monkeypatch.setattr(backward, "PAIRS", pairs)
    arrays, stored = stored_backward_states(level, 3000, monkeypatch)
    dead = count_dead_pairs(level, arrays, stored, pdb)
    assert (dead == 0) if pairs else (dead > 0)  # without the table, the check can fail


def test_the_greedy_backward_search_keeps_its_solutions_with_fewer_states(monkeypatch):
    # pruning leaves the greedy order of the states kept as it was: the same pulls
    for number in (2, 15, 40, 97):
        level = MICROBAN[number - 1]
        runs = []
        for pairs in (False, True):
            monkeypatch.setattr(backward, "PAIRS", pairs)
            runs.append(backward.backward_solve(level, 200_000))
        (s0, sol0, n0, _), (s1, sol1, n1, _) = runs
        assert s0 == s1 == "solved" and replay(level, sol1).is_solved, number
        assert sol1 == sol0 and n1 <= n0, number


def test_the_search_over_cells_builds_no_pull_pair_table(monkeypatch):
    built = []
    monkeypatch.setattr(backward, "pull_pair_table", lambda *a: built.append(1))
    status, solution, _, _ = backward.backward_solve(MICROBAN[14], 200_000, cells=True)
    assert status == "solved" and replay(MICROBAN[14], solution).is_solved and not built
