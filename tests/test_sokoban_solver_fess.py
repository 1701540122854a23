"""The feature-space search for any solution (``levelforge.sokoban.fess``): its packing
order against a plain-Python retrograde analysis, its incremental matching against a
fresh one, its solutions replayed and its ``unsolvable`` verdicts against plain BFS."""
import os
import subprocess
import sys
from collections import deque

import numpy as np
import pytest

from levelforge.engine import sokoban_board as Kb
from levelforge.engine import sokoban_heuristic as Kh
from levelforge.engine import sokoban_state as Ks
from levelforge.engine import sokoban_match as M
from levelforge.sokoban import Level, Solver, generate
from levelforge.sokoban.fess import FessWorkspace, packing_order
from levelforge.sokoban.solver import Workspace

import naive_sokoban as naive
from test_sokoban_solver import MICROBAN, check_replay, pulled_level, random_level


def fess_solver(max_nodes=200_000):
    """A solver whose ``optimal=False`` starts with the feature-space search (no
    packing stages before it)."""
    solver = Solver(max_nodes=max_nodes)
    solver._stages = False
    return solver


# --------------------------------------------------------------------------- packing order

def naive_goal_depth(level):
    """Steps from each goal to the nearest non-goal floor cell, walking over goals;
    goals walled in by goals get the largest depth + 1."""
    cells = [(x, y) for y in range(level.height) for x in range(level.width)]
    depth = {c: 0 for c in cells if c not in level.walls and c not in level.goals}
    frontier = list(depth)
    while frontier:
        nxt = []
        for c in frontier:
            for step in naive.DIRS.values():
                nb = naive.add(c, step)
                if nb in level.goals and nb not in depth:
                    depth[nb] = depth[c] + 1
                    nxt.append(nb)
        frontier = nxt
    top = max([depth[g] for g in level.goals if g in depth], default=0)
    return {g: depth.get(g, top + 1) for g in level.goals}


def naive_box_reach(level, blocked, starts):
    """The (box cell, player region) states a lone box reaches by pushes from a start
    cell in ``starts`` (those not ``blocked``), the player starting on any free side;
    a region is named by its smallest cell."""
    todo = deque()
    for b in starts - blocked:
        for step in naive.DIRS.values():
            side = naive.add(b, step)
            if side not in blocked:
                todo.append((b, min(naive.reachable(blocked, {b}, side))))
    seen = set()
    while todo:
        box, name = todo.popleft()
        if (box, name) in seen:
            continue
        seen.add((box, name))
        region = naive.reachable(blocked, {box}, name)
        for step in naive.DIRS.values():
            behind, front = naive.add(box, step, -1), naive.add(box, step)
            if behind in region and front not in blocked:
                todo.append((front, min(naive.reachable(blocked, {front}, box))))
    return seen


def naive_pull_out(level, filled, goal, reach):
    """How a lone box leaves ``goal`` by pulls, the boxes on the other ``filled`` goals
    in place and the player starting on any free side: ``(1, pulls, None)`` for the
    fewest pulls to a state off the goals in ``reach`` (:func:`naive_box_reach`), else
    ``(2, pulls, pocket)`` for the fewest to any floor cell off the goals (the pocket:
    the smallest such cell, by index), else ``(3, 0, None)``."""
    blocked = level.walls | (filled - {goal})
    starts = [(goal, naive.add(goal, s)) for s in naive.DIRS.values()
              if naive.add(goal, s) not in blocked]
    seen = set()
    found = (3, 0, None)
    todo = deque((box, player, 0) for box, player in starts)
    while todo:
        box, player, depth = todo.popleft()
        region = naive.reachable(blocked, {box}, player)
        key = (box, min(region))
        if key in seen:
            continue
        seen.add(key)
        for step in naive.DIRS.values():
            side = naive.add(box, step)
            back = naive.add(side, step)
            if side in region and back not in blocked:
                if side not in level.goals:
                    # the states of ``reach`` name their regions with every filled
                    # goal blocked, this one too
                    shut = level.walls | filled
                    if back not in shut and \
                            (side, min(naive.reachable(shut, {side}, back))) in reach:
                        return (1, depth + 1, None)
                    index = side[1] * level.width + side[0]
                    if found[0] == 3 or (found[1] == depth + 1 and index < found[2]):
                        found = (2, depth + 1, index)
                todo.append((side, back, depth + 1))
    return found


def naive_packing_order(level):
    """Take boxes out of the solved state one at a time, the one that leaves the goals
    for a state a box from the start reaches in the fewest pulls first (then: the one
    that leaves at all in the fewest; ties: shallower goal, then smaller cell index);
    the packing order is the reverse. A goal whose box could only leave into a pocket
    gets a parking entry in front of the order (``-(pocket << 16 | goal) - 1``) when a
    lone box from the start reaches that pocket with no goal filled, never with that
    goal blocked, and no other goal left into it."""
    depth = naive_goal_depth(level)
    filled = set(level.goals)
    out, pockets = [], []
    while filled:
        reach = naive_box_reach(level, level.walls | filled, set(level.boxes))

        def rank(g):
            found = naive_pull_out(level, frozenset(filled), g, reach)
            return (found[0], found[1], depth[g], g[1] * level.width + g[0], found[2])
        best = min(filled, key=rank)
        out.append(best[1] * level.width + best[0])
        pockets.append(rank(best)[4])
        filled.remove(best)
    out, pockets = out[::-1], pockets[::-1]

    def reached(cell, blocked):
        xy = (cell % level.width, cell // level.width)
        return any(box == xy for box, _ in naive_box_reach(level, blocked, set(level.boxes)))

    park = []
    for goal, pocket in zip(out, pockets):
        if pocket is None or pockets.count(pocket) > 1:
            continue
        shut = level.walls | {(goal % level.width, goal // level.width)}
        if reached(pocket, level.walls) and not reached(pocket, shut):
            park.append(-((pocket << 16 | goal) + 1))
    return park + out


def kernel_packing_order(level):
    """The kernel's packing order of ``level`` (its start boxes as the sources)."""
    walls, goals, boxes, _ = level.arrays()
    ws = Workspace().ensure(walls.shape[0], len(level.goals), 16)
    fws = FessWorkspace(ws)
    fws.sync()
    order = packing_order((walls, goals, None, None, None, level.width), ws, fws,
                          np.flatnonzero(boxes))
    assert np.array_equal(ws.blk, walls)  # the kernel leaves its work array as it found it
    return order.tolist()


@pytest.mark.parametrize("case", range(40))
def test_packing_order_matches_retrograde_reference(case):
    rng = np.random.default_rng(7000 + case)
    level = random_level(rng, max_side=7, max_boxes=5, wall_p=0.15)
    if level is None:
        return
    assert kernel_packing_order(level) == naive_packing_order(level)


def test_packing_order_fills_a_goal_room_from_the_back():
    level = Level.from_xsb("\n".join([
        "#######",
        "#..   #",
        "##$$ @#",
        "#######"]))
    order = kernel_packing_order(level)
    assert order == [8, 9]  # the dead-end goal (1, 1) first
    assert order == naive_packing_order(level)


def test_packing_order_fills_a_goal_that_opens_onto_a_pocket_first():
    """The goal (2, 3) lets its box out only upwards, into a pocket no box comes to
    except through that goal: by pulls alone it would leave first (one pull) and be
    filled last, when the goals around it have closed the way in."""
    level = Level.from_xsb("\n".join([
        "######",
        "#    #",
        "## ###",
        "##.###",
        "#....#",
        "# $$ #",
        "#$$ $#",
        "#   @#",
        "######"]))
    order = kernel_packing_order(level)
    assert order[0] == 3 * level.width + 2
    assert order == naive_packing_order(level)
    result = fess_solver().solve(level, optimal=False)
    check_replay(level, result)


@pytest.mark.parametrize("seed", [10, 20, 21, 41, 82])
def test_packing_order_parks_a_box_where_only_its_goal_leads(seed):
    """Levels (found by a scan) where a goal's box can only leave into a pocket that
    boxes reach through that goal alone: the order starts with a parking entry."""
    level = random_level(np.random.default_rng(seed), max_side=8, max_boxes=6, wall_p=0.2)
    order = kernel_packing_order(level)
    assert min(order) < 0
    assert order == naive_packing_order(level)


@pytest.mark.parametrize("seed", [0, 4, 17, 41, 67])
def test_feature_space_search_solves_levels_with_parking_entries(seed):
    level = pulled_level(np.random.default_rng(seed), max_side=8, max_boxes=6, wall_p=0.2)
    assert min(kernel_packing_order(level)) < 0
    check_replay(level, fess_solver().solve(level, optimal=False))


def test_a_parking_entry_counts_while_its_pocket_or_its_goal_holds_a_box():
    from levelforge.engine.sokoban_packing import _packed, parking
    pocket, goal, other = 5, 7, 9
    order = np.array([-((pocket << 16 | goal) + 1), other, goal], np.int32)
    assert parking(order[0]) == (pocket, goal) and parking(order[1]) == (other, -1)
    occ = np.zeros(12, np.uint8)
    assert _packed(occ, order) == 0
    occ[pocket] = 1  # parked
    assert _packed(occ, order) == 1
    occ[other] = 1
    assert _packed(occ, order) == 2
    occ[pocket], occ[goal] = 0, 1  # the parked box went on to its goal
    assert _packed(occ, order) == 3
    occ[other] = 0
    assert _packed(occ, order) == 1


# --------------------------------------------------------------------------- matching

@pytest.mark.parametrize("case", range(30))
def test_incremental_matching_equals_fresh_matching(case):
    """After one box moves (and the player's region changes), the repaired matching
    has the cost of a fresh Hungarian solve and of brute force over permutations."""
    rng = np.random.default_rng(9000 + case)
    level = random_level(rng, max_side=8, max_boxes=5, wall_p=0.1)
    if level is None:
        return
    walls, goals, _, _ = level.arrays()
    n, width = walls.shape[0], level.width
    goal_cells = np.flatnonzero(goals).astype(np.int32)
    nbox = goal_cells.shape[0]
    dist = np.empty((nbox, 4 * n), np.int32)
    dead = np.empty(n, np.uint8)
    compof = np.zeros(n * n, np.int8)
    Kb.push_distances(walls, goal_cells, width, dist, dead, np.zeros(12 * n, np.int32),
                     np.zeros(n, np.int64), compof)
    floor = np.flatnonzero(walls == 0)
    mw = np.zeros(8 * (nbox + 1), np.int64)
    work = [np.zeros(nbox + 1, np.int64) for _ in range(6)]  # hu hv hp hway hminv hused
    cols = np.zeros(nbox, np.int64)
    for _ in range(20):
        pick = rng.permutation(floor)
        boxes = np.sort(pick[:nbox]).astype(np.int16)
        player = int(pick[nbox])
        parent = M.parent_matching(boxes, 0, nbox, player, compof, n, dist, mw, *work[3:])
        Kh.box_columns(boxes, nbox, player, compof, n, cols)
        assert parent == Kh.matching_cost(cols, nbox, dist, *work)
        for i in range(nbox):
            t = int(rng.choice(pick[nbox:]))  # any free cell, with any new player cell
            norm = int(rng.choice(pick[nbox:]))
            got = M.child_matching(boxes, 0, nbox, i, t, norm, compof, n, dist, mw, *work)
            child = boxes.copy()
            child[i] = t
            Kh.box_columns(child, nbox, norm, compof, n, cols)
            fresh = Kh.matching_cost(cols, nbox, dist, *work)
            costs = [[int(dist[g, c]) if c >= 0 else int(dist[g, 4 * (-c - 1):4 * (-c)].min())
                      for g in range(nbox)] for c in cols]
            brute = min(naive.matching(costs), Ks.UNREACHABLE)
            assert min(got, Ks.UNREACHABLE) == min(fresh, Ks.UNREACHABLE) == brute


# --------------------------------------------------------------------------- search

@pytest.mark.parametrize("case", range(60))
def test_fess_solutions_replay_and_unsolvable_is_a_proof(case):
    """The feature-space search alone: a solution replays to solved (never fewer pushes
    than the optimum); ``unsolvable`` only when plain BFS finds no solution either."""
    rng = np.random.default_rng(11000 + case)
    level = random_level(rng, max_boxes=4) if case % 2 else pulled_level(rng, max_boxes=4)
    if level is None:
        return
    expected = naive.bfs_pushes(level)
    result = fess_solver().solve(level, optimal=False)
    if expected is None:
        assert result.status == "unsolvable"
    else:
        assert result.status == "solved" and result.pushes >= expected
        assert not result.optimal or result.pushes == expected == 0  # a solved start
        check_replay(level, result)


def test_fess_solves_microban_with_replayable_solutions():
    solver = fess_solver(max_nodes=300_000)
    for k in range(1, 156, 7):
        result = solver.solve(MICROBAN[k - 1], optimal=False)
        assert result.status == "solved", k
        check_replay(MICROBAN[k - 1], result)


def test_fess_node_cap_gives_limit_never_unsolvable():
    result = fess_solver(max_nodes=50).solve(MICROBAN[143], optimal=False)
    assert result.status == "limit" and result.solution is None


def test_any_mode_solutions_replay_on_generated_levels():
    solver = Solver(max_nodes=200_000)
    for seed in range(4):
        made = generate(seed, width=9, height=9, boxes=3, pushes=(10, 20))
        for s in (solver, fess_solver()):
            result = s.solve(made.level, optimal=False)
            assert result.status == "solved" and not result.optimal, seed
            check_replay(made.level, result)
            assert result.pushes >= made.pushes  # the generator's push-optimal length


def test_generator_path_never_compiles_the_feature_space_search(tmp_path):
    """Cold start (an empty Numba cache, so that callees compile as themselves):
    generating leaves every kernel of the feature-space search (and of its packing order,
    cells, packing macro, features, advisors, opener and residual test), of the
    incremental matching, of the corral-deadlock search, of the stuck-set and window
    deadlock tests, of the backward and waypoint searches and of the tunnel macro
    uncompiled; solving push-optimally then compiles the
    incremental matching (its best-first search uses it) and still none of the others."""
    code = ("from levelforge.sokoban import generate, solve;"
            "from levelforge.engine import sokoban_fess as f, sokoban_match as m;"
            "from levelforge.engine import sokoban_corral as c, sokoban_fess_features as ff;"
            "from levelforge.engine import sokoban_deadlock as dl, sokoban_window as wi;"
            "from levelforge.engine import sokoban_backward as bk, sokoban_packing as pk;"
            "from levelforge.engine import sokoban_fess_cells as fc, sokoban_fess_macro as fm;"
            "from levelforge.engine import sokoban_triples as tr, sokoban_waypoint as wp;"
            "from levelforge.engine import sokoban_fess_opener as fo, sokoban_fess_residual as fr;"
            "done = lambda *mods: sorted(n for mod in mods for n, d in vars(mod).items()"
            " if getattr(d, '__module__', '') == mod.__name__ and getattr(d, 'signatures', 0));"
            "from levelforge.engine import sokoban as k;"
            "macro = lambda: [n for n in ('_tunnel', '_way', 'tunnel_room')"
            " if getattr(k, n).signatures];"
            "r = generate(5, width=7, height=7, boxes=2, pushes=(4, 8));"
            "print(done(f, m, c, ff, dl, wi, bk, pk, fc, fm, tr, wp, fo, fr), macro());"
            "solve(r.level); print(done(f, c, ff, dl, wi, bk, pk, fc, fm, wp, fo, fr))")
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, env=env).stdout
    assert out.split() == ["[]", "[]", "[]"]
