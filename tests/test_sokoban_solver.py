
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from levelforge import ConfigError, InvalidMoveError
from levelforge.engine import sokoban as K
from levelforge.engine import sokoban_board as Kb
from levelforge.engine import sokoban_heuristic as Kh
from levelforge.engine import sokoban_state as Ks
from levelforge.sokoban import Level, Solver, collections, replay, solve
from levelforge.sokoban import solver as solver_mod
from levelforge.sokoban.packing import packing_plan
from levelforge.sokoban.solver import MAX_BOXES

import naive_sokoban as naive

MICROBAN = collections.load("microban")


def random_level(rng, max_side=7, max_boxes=3, wall_p=0.2):
    """A walled room with random inner walls, boxes, goals and player (maybe unsolvable)."""
    w, h = (int(v) for v in rng.integers(4, max_side + 1, size=2))
    interior = [(x, y) for y in range(1, h - 1) for x in range(1, w - 1)]
    walls = {(x, y) for y in range(h) for x in range(w)
             if x in (0, w - 1) or y in (0, h - 1)}
    walls |= {c for c in interior if rng.random() < wall_p}
    free = [c for c in interior if c not in walls]
    nbox = int(rng.integers(1, max_boxes + 1))
    if len(free) < nbox + 1:
        return None
    pick = rng.permutation(len(free))
    boxes = {free[i] for i in pick[:nbox]}
    player = free[pick[nbox]]
    goals = {free[i] for i in rng.permutation(len(free))[:nbox]}
    return Level(w, h, frozenset(walls), frozenset(goals), frozenset(boxes), player)


def pulled_level(rng, max_side=7, max_boxes=3, wall_p=0.15):
    """A level made solvable by plain-Python pulls from a solved random room."""
    base = random_level(rng, max_side, max_boxes, wall_p)
    if base is None:
        return None
    walls, boxes, player = set(base.walls), frozenset(base.goals), base.player
    if player in boxes:
        return None
    boxes, player = naive.random_pulls(walls, boxes, player, rng, int(rng.integers(1, 12)))
    return base.replace(boxes=boxes, player=player)


def check_replay(level, result):
    boxes, _, pushes = naive.replay(level, result.solution)
    assert boxes == level.goals
    assert pushes == result.pushes
    assert result.moves == len(result.solution)
    assert replay(level, result.solution).is_solved


@pytest.mark.parametrize("case", range(200))
def test_solver_matches_naive_bfs_optimal_pushes_and_unsolvable_verdicts(case):
    rng = np.random.default_rng(case)
    level = random_level(rng) if case % 2 else pulled_level(rng)
    if level is None:
        return
    expected = naive.bfs_pushes(level)
    if case % 2 == 0:
        assert expected is not None  # made by pulls: solvable by construction
    result = solve(level)
    if expected is None:
        assert result.status == "unsolvable"
        assert result.pushes is None and result.solution is None
    else:
        assert result.status == "solved"
        assert result.pushes == expected
        check_replay(level, result)


def test_solved_levels_from_reverse_play_match_naive_bfs():
    # levels made by pulls are solvable: a second family of cases, all of them solved
    from levelforge.sokoban import generate
    for seed in range(40):
        r = generate(seed, width=6, height=6, boxes=2, pushes=(3, 6), inner_walls=2)
        assert naive.bfs_pushes(r.level) == r.pushes


@pytest.mark.parametrize("case", range(40))
def test_push_distances_and_dead_squares_match_naive(case):
    rng = np.random.default_rng(5000 + case)
    level = random_level(rng, wall_p=0.25)
    if level is None:
        return
    walls, goals, _, _ = level.arrays()
    w = level.width
    goal_cells = np.flatnonzero(goals).astype(np.int32)
    dist = np.empty((goal_cells.size, 4 * walls.size), np.int32)
    dead = np.empty(walls.size, np.uint8)
    compof = np.zeros(walls.size ** 2, np.int8)
    Kb.push_distances(walls, goal_cells, w, dist, dead, np.zeros(12 * walls.size, np.int32),
                     np.zeros(walls.size, np.int64), compof)
    cells = [(c % w, c // w) for c in range(walls.size)]
    floor = [c for c in cells if c not in level.walls]
    for k, g in enumerate(goal_cells):
        goal = (int(g) % w, int(g) // w)
        for c, cell in enumerate(cells):
            if cell in level.walls:
                continue
            d = naive.push_distance(level.walls, cell, goal, floor)
            assert dist[k, 4 * c:4 * c + 4].min() == (Ks.UNREACHABLE if d == naive.INF else d)
            if cell == goal:
                continue
            for side, step in enumerate(naive.DIRS.values()):  # order u, l, r, d
                start = naive.add(cell, step)
                if start in level.walls:
                    assert dist[k, 4 * c + side] == Ks.UNREACHABLE
                    continue
                d = naive.push_distance(level.walls, cell, goal, [start])
                assert dist[k, 4 * c + side] == (Ks.UNREACHABLE if d == naive.INF else d)
    expected_dead = naive.dead_squares(level.walls, level.goals, cells)
    assert {cells[c] for c in np.flatnonzero(dead)} == expected_dead


@settings(max_examples=150, deadline=None)
@given(st.integers(1, 6).flatmap(
    lambda n: st.lists(st.lists(st.integers(0, 30), min_size=n, max_size=n),
                       min_size=n, max_size=n)))
def test_matching_heuristic_matches_brute_force_minimum(costs):
    n = len(costs)
    # goal k's distance row: box i sits on cell i; its four sides cost 0, 1, 2, 3 more
    dist = np.array([[costs[i][k] + s for i in range(n) for s in range(4)]
                     for k in range(n)], np.int32)
    work = [np.zeros(n + 1, np.int64) for _ in range(6)]
    best_side = -np.arange(1, n + 1)  # -(cell + 1): the best side
    assert Kh.matching_cost(best_side, n, dist, *work) == naive.matching(costs)
    side2 = 4 * np.arange(n) + 2  # side 2 of every box: 2 more each
    assert Kh.matching_cost(side2, n, dist, *work) == naive.matching(costs) + 2 * n


def test_matching_heuristic_reports_no_matching_as_unreachable():
    big = Ks.UNREACHABLE
    dist = np.array([[1] * 4 + [2] * 4, [big] * 8], np.int32)  # goal 1: unreachable
    work = [np.zeros(3, np.int64) for _ in range(6)]
    assert Kh.matching_cost(np.array([-1, -2]), 2, dist, *work) >= big


@pytest.mark.parametrize("case", range(120))
def test_freeze_deadlock_matches_naive_and_is_sound(case):
    rng = np.random.default_rng(9000 + case)
    level = random_level(rng, max_boxes=5, wall_p=0.25)
    if level is None:
        return
    walls, goals, boxes, _ = level.arrays()
    w = level.width
    cells = [(c % w, c // w) for c in range(walls.size)]
    dead_set = naive.dead_squares(level.walls, level.goals, cells)
    dead = np.zeros(walls.size, np.uint8)
    for x, y in dead_set:
        dead[y * w + x] = 1
    tmp = np.zeros(walls.size, np.uint8)
    fstack = np.zeros(len(level.boxes) + 1, np.int64)
    for (x, y) in level.boxes:
        got = Kb.frozen_state(y * w + x, walls, boxes, dead, goals, tmp, w, fstack)
        assert got == naive.frozen(level.walls, level.boxes, level.goals, dead_set, (x, y))
        assert not tmp.any()
        if got == 2:  # a frozen box off its goal: no solution exists
            assert naive.bfs_pushes(level) is None


def test_freeze_deadlock_2x2_block_off_goals_is_pruned():
    level = Level.from_xsb("########\n#      #\n# $$ @ #\n# $$   #\n# .... #\n########")
    assert naive.bfs_pushes(level) is None
    result = solve(level)
    assert result.status == "unsolvable"
    assert result.expanded == 0  # pruned at the start state, no search needed


def test_dead_corner_start_is_unsolvable_without_search():
    result = solve(Level.from_xsb("#####\n#$ .#\n#@  #\n#####"))
    assert result.status == "unsolvable"
    assert result.expanded == 0


def test_state_is_normalised_to_the_player_region():
    a = Level.from_xsb("#######\n#@   .#\n#  $  #\n#     #\n#######")
    b = a.replace(player=(5, 3))  # same region, another cell
    ra, rb = solve(a), solve(b)
    assert (ra.pushes, ra.nodes, ra.expanded) == (rb.pushes, rb.nodes, rb.expanded)
    check_replay(a, ra)
    check_replay(b, rb)


def test_transposition_table_stores_each_state_once():
    # an open room: many push orders reach the same state; the table keeps one node each
    level = Level.from_xsb("#######\n#@    #\n# $ $ #\n#  .. #\n#     #\n#######")
    result = solve(level)
    assert result.status == "solved"
    assert result.nodes <= naive_state_count(level)


def naive_state_count(level):
    walls = set(level.walls)
    seen = set()
    todo = [(frozenset(level.boxes), level.player)]
    while todo:
        boxes, player = todo.pop()
        region = naive.reachable(walls, boxes, player)
        key = (boxes, min(region, key=lambda c: (c[1], c[0])))
        if key in seen:
            continue
        seen.add(key)
        for b in boxes:
            for step in naive.DIRS.values():
                t = naive.add(b, step)
                if naive.add(b, step, -1) in region and t not in walls and t not in boxes:
                    todo.append(((boxes - {b}) | {t}, b))
    return len(seen)


def test_node_cap_gives_limit_never_unsolvable():
    level = MICROBAN[35]  # needs thousands of states
    result = solve(level, max_nodes=50)
    assert result.status == "limit"
    assert result.pushes is None and result.nodes <= 50


def test_time_limit_gives_limit_never_unsolvable():
    level = MICROBAN[143]  # 16 boxes: far beyond a millisecond
    result = Solver().solve(level, time_limit=0.001)
    assert result.status == "limit"


def test_exhausted_search_proves_unsolvable(monkeypatch):
    # the box-pair database proves almost all of these at the start: the matching alone
    # leaves them to the search, whose exhaustion is what this test checks
    monkeypatch.setattr("levelforge.sokoban.pairs.MOST_STATES", 0)
    found = 0
    for i in range(400):
        level = random_level(np.random.default_rng(40_000 + i), wall_p=0.1)
        if level is None or naive.bfs_pushes(level) is not None:
            continue
        result = solve(level)
        assert result.status == "unsolvable"
        found += result.expanded > 0  # proved by searching, not at the start state
    assert found >= 5


def test_already_solved_level_takes_zero_pushes():
    result = solve(Level.from_xsb("#####\n#@* #\n#####"))
    assert (result.status, result.pushes, result.solution) == ("solved", 0, "")


def test_box_on_goal_sealed_from_the_player_counts_as_a_wall():
    level = Level.from_xsb("#######\n#*#@$.#\n#######")
    result = solve(level)
    assert (result.status, result.pushes) == ("solved", 1)
    check_replay(level, result)


def test_work_arrays_are_reused_across_solves():
    solver = Solver(max_nodes=10_000)
    levels = MICROBAN[:10]
    solver.solve(max(levels, key=lambda lv: len(lv.boxes)))  # the largest one sizes it
    pool, table = solver.workspace.pool, solver.workspace.table
    for level in levels:
        assert solver.solve(level).status == "solved"
    assert solver.workspace.pool is pool and solver.workspace.table is table


def test_solver_limits_raise_config_error():
    many = "\n".join(["#" * 64, "#@" + " " * 61 + "#"] + ["#" + "$" * 62 + "#"] * 3
                     + ["#" + "." * 62 + "#"] * 3 + ["#" * 64])
    level = Level.from_xsb(many)
    assert len(level.boxes) > MAX_BOXES
    with pytest.raises(ConfigError, match=f"at most {MAX_BOXES} boxes"):
        solve(level)
    small = Level.from_xsb("#####\n#@$.#\n#####")
    for bad in (0, -3, 1.5, True, 2**40):
        with pytest.raises(ConfigError, match="max_nodes"):
            solve(small, max_nodes=bad)
    for bad in (0, -1.0, "1", True):
        with pytest.raises(ConfigError, match="time_limit"):
            solve(small, time_limit=bad)
    with pytest.raises(ConfigError, match="Level"):
        solve("#####\n#@$.#\n#####")


def test_solutions_replay_move_by_move_with_exactly_pushes_pushes():
    solver = Solver()
    for i in range(100):
        level = random_level(np.random.default_rng(20_000 + i), max_side=8)
        if level is None:
            continue
        result = solver.solve(level)
        if result.solved:
            check_replay(level, result)


def test_replay_rejects_illegal_moves_and_leaves_the_level_unchanged():
    level = Level.from_xsb("######\n#@$ .#\n######")
    for moves, msg in (("U", "wall"), ("r", "upper-case"), ("RRR", "blocked"),
                       ("RL", "lower-case"), ("x", "lurd")):
        with pytest.raises(InvalidMoveError, match=msg):
            replay(level, moves)
    assert level.player == (1, 1)


MICROBAN_FAST = [1, 2, 3, 4, 6, 8, 10, 11, 13, 16, 19, 22, 29, 35, 37, 39, 45, 50, 60, 70]


def test_microban_levels_solve_with_replayable_solutions():
    levels = MICROBAN
    assert len(levels) == 155
    solver = Solver()
    for k in MICROBAN_FAST:
        result = solver.solve(levels[k - 1], time_limit=10)
        assert result.status == "solved", k
        check_replay(levels[k - 1], result)


@pytest.mark.parametrize("k", [2, 4, 9, 14, 31, 33, 40])  # 31, 33, 40: symmetric boards
def test_microban_push_counts_match_naive_bfs(k):
    level = MICROBAN[k - 1]
    assert solve(level).pushes == naive.bfs_pushes(level)


def kernel_pi_corral(level, dead_set):
    """The kernel's PI-corral choice on ``level`` as naive.pi_corral reports it."""
    walls, goals, boxes, _ = level.arrays()
    w = level.width
    cell = {c: c[1] * w + c[0] for c in level.boxes}
    order = sorted(level.boxes, key=lambda c: cell[c])
    pool = np.array([cell[c] for c in order], np.int16)
    dead = np.zeros(walls.size, np.uint8)
    for x, y in dead_set:
        dead[y * w + x] = 1
    stamp = np.zeros(walls.size, np.int64)
    for x, y in naive.reachable(level.walls, level.boxes, level.player):
        stamp[y * w + x] = 1
    stamp2 = np.zeros(walls.size, np.int64)
    chosen = Kb.pi_corral(pool, 0, len(order), walls, goals, boxes, dead, stamp, 1, w,
                         stamp2, np.zeros(Ks.N_COUNTERS, np.int64),
                         np.zeros(walls.size, np.int32))
    if chosen < 0:
        return None
    return frozenset(c for c in order if chosen > 0 and stamp2[cell[c]] == chosen)


def corral_level(rng):
    """Random rooms with up to 4 boxes and some inner walls: corrals are frequent."""
    return pulled_level(rng, max_side=7, max_boxes=4, wall_p=0.2) if rng.random() < 0.5 \
        else random_level(rng, max_side=7, max_boxes=4, wall_p=0.2)


@pytest.mark.parametrize("case", range(60))
def test_pi_corral_rule_matches_naive_and_keeps_an_optimal_first_push(case):
    rng = np.random.default_rng(70_000 + case)
    level = corral_level(rng)
    if level is None:
        return
    cells = [(x, y) for y in range(level.height) for x in range(level.width)]
    dead_set = naive.dead_squares(level.walls, level.goals, cells)
    kept = kernel_pi_corral(level, dead_set)
    assert kept == naive.pi_corral(level.walls, level.boxes, level.goals, dead_set,
                                   level.player)
    if kept is None:
        return
    best = naive.bfs_pushes(level)
    if not kept:  # no push of the corral is possible: a deadlock
        assert best is None
        return
    if best is None or best == 0:
        return
    # some push of a kept box starts an optimal solution
    region = naive.reachable(level.walls, level.boxes, level.player)
    follow = []
    for b in kept:
        for step in naive.DIRS.values():
            t = naive.add(b, step)
            if naive.add(b, step, -1) in region and t not in level.walls \
                    and t not in level.boxes:
                child = level.replace(boxes=(level.boxes - {b}) | {t}, player=b)
                follow.append(naive.bfs_pushes(child))
    assert best - 1 in follow


@pytest.mark.parametrize("case", range(80))
def test_pi_corral_pruning_keeps_optimal_pushes_and_unsolvable_verdicts(case):
    rng = np.random.default_rng(80_000 + case)
    level = corral_level(rng)
    if level is None:
        return
    expected = naive.bfs_pushes(level)
    result = solve(level)
    if expected is None:
        assert result.status == "unsolvable"
    else:
        assert (result.status, result.pushes) == ("solved", expected)
        check_replay(level, result)


def test_pi_corral_pruning_cuts_the_search_on_microban_139():
    # two rooms joined by a corridor: the corral rule orders their pushes
    level = MICROBAN[138]
    result = Solver(max_nodes=2_000_000).solve(level)
    assert (result.status, result.pushes) == ("solved", 106)
    assert result.nodes < 1_000_000  # 1.89 million stored states without the rule


@pytest.mark.parametrize("case", range(40))
def test_child_normalisation_without_full_fill_matches_naive_region(case):
    rng = np.random.default_rng(90_000 + case)
    level = random_level(rng, max_side=8, max_boxes=5, wall_p=0.25)
    if level is None:
        return
    walls, _, boxes, _ = level.arrays()
    w = level.width
    blk = (walls | boxes).astype(np.uint8)
    region = naive.reachable(level.walls, level.boxes, level.player)
    stamp = np.zeros(walls.size, np.int64)
    for x, y in region:
        stamp[y * w + x] = 1
    pnorm = min(y * w + x for x, y in region)
    stamp2 = np.zeros(walls.size, np.int64)
    ctr = np.zeros(Ks.N_COUNTERS, np.int64)
    queue2 = np.zeros(walls.size, np.int32)
    for b in level.boxes:
        for step in naive.DIRS.values():
            t = naive.add(b, step)
            if naive.add(b, step, -1) not in region or t in level.walls or t in level.boxes:
                continue
            bc, tc = b[1] * w + b[0], t[1] * w + t[0]
            blk[bc], blk[tc] = 0, 1
            got = K._child_norm(blk, w, bc, tc, pnorm, stamp, 1, stamp2, ctr, queue2)
            blk[bc], blk[tc] = 1, 0
            child = (level.boxes - {b}) | {t}
            want = min(y * w + x for x, y in naive.reachable(level.walls, child, b))
            assert got in (-1, want)
            if tc not in (pnorm,) and stamp[tc] != 1:
                assert got == want  # nothing can split: always answered


def symmetric_level(rng, pulled=False):
    """A random square room whose walls and goals are mirrored left-right, or also
    top-bottom, or also across the diagonals; boxes and player anywhere, or
    (``pulled``) placed by pulls from the solved state."""
    side = int(rng.integers(5, 8))
    w = h = side
    cells = [(x, y) for y in range(1, h - 1) for x in range(1, w - 1)]
    images = [lambda c: c, lambda c: (w - 1 - c[0], c[1])]  # a group, each time
    kind = rng.random()
    if kind < 0.6:
        images.append(lambda c: (c[0], h - 1 - c[1]))
        images.append(lambda c: (w - 1 - c[0], h - 1 - c[1]))
    if kind < 0.25:  # all eight
        images = images + [lambda c, f=f: f((c[1], c[0])) for f in images]

    def orbit(c):
        return {f(c) for f in images}

    walls = {(x, y) for y in range(h) for x in range(w) if x in (0, w - 1) or y in (0, h - 1)}
    for c in cells:
        if rng.random() < 0.12:
            walls |= orbit(c)
    free = [c for c in cells if c not in walls]
    goals = set()
    for i in rng.permutation(len(free)):
        if len(goals) >= 3:
            break
        o = orbit(free[i])
        if len(goals) + len(o) <= 4:
            goals |= o
    if not goals or len(free) < len(goals) + 1:
        return None
    pick = rng.permutation(len(free))
    boxes = {free[i] for i in pick[:len(goals)]}
    player = free[pick[len(goals)]]
    if pulled:  # solvable: random pulls from the solved state
        boxes = frozenset(goals)
        rest = [c for c in free if c not in goals]
        if not rest:
            return None
        player = rest[int(rng.integers(len(rest)))]
        boxes, player = naive.random_pulls(walls, boxes, player, rng,
                                           int(rng.integers(4, 25)))
    return Level(w, h, frozenset(walls), frozenset(goals), frozenset(boxes), player)


@pytest.mark.parametrize("case", range(200))
def test_symmetry_reduction_keeps_optimal_pushes_and_unsolvable_verdicts(case):
    rng = np.random.default_rng(100_000 + case)
    level = symmetric_level(rng, pulled=case % 2 == 0)
    if level is None:
        return
    walls, goals, _, _ = level.arrays()
    assert solver_mod.board_symmetries(walls, goals, level.width, level.height).shape[0] > 1
    expected = naive.bfs_pushes(level)
    result = solve(level)
    if expected is None:
        assert result.status == "unsolvable"
    else:
        assert (result.status, result.pushes) == ("solved", expected)
        check_replay(level, result)  # moves mapped back from the canonical images


def test_board_symmetries_are_the_grid_isometries_keeping_walls_and_goals():
    level = MICROBAN[92]  # level 93: symmetric under all eight
    walls, goals, _, _ = level.arrays()
    n, w = walls.size, level.width
    table = solver_mod.board_symmetries(walls, goals, w, level.height)
    k = table.shape[0]
    assert k == 8
    perms = [table[i, :n] for i in range(k)]
    assert np.array_equal(perms[0], np.arange(n))
    cells = [(c % w, c // w) for c in range(n)]
    for i, p in enumerate(perms):
        assert np.array_equal(walls[p], walls) and np.array_equal(goals[p], goals)
        for d, step in enumerate(naive.DIRS.values()):  # order u, l, r, d
            # neighbours map to neighbours along the mapped direction
            e = table[i, n + d]
            estep = list(naive.DIRS.values())[e]
            for c in range(n):
                nb = naive.add(cells[c], step)
                if 0 <= nb[0] < w and 0 <= nb[1] < level.height:
                    img, nimg = cells[p[c]], cells[p[nb[1] * w + nb[0]]]
                    assert naive.add(img, estep) == nimg
        for j, q in enumerate(perms):
            assert np.array_equal(perms[table[i, n + 4 + j]], p[q])
        assert np.array_equal(perms[table[i, n + 4 + k]][p], np.arange(n))
    asym = MICROBAN[0].arrays()
    assert solver_mod.board_symmetries(asym[0], asym[1], MICROBAN[0].width,
                                       MICROBAN[0].height) is None


# push counts found without the symmetry reduction (level 93: 34 pushes in 25 s then)
SYMMETRIC_MICROBAN = {7: 6, 66: 15, 90: 16, 93: 34, 95: 8, 105: 24, 110: 14, 142: 20,
                      145: 18, 146: 14}


def test_symmetric_microban_levels_keep_their_push_counts_and_replay():
    levels = MICROBAN
    solver = Solver(max_nodes=2_000_000)
    for k, pushes in SYMMETRIC_MICROBAN.items():
        walls, goals, _, _ = levels[k - 1].arrays()
        assert solver_mod.board_symmetries(walls, goals, levels[k - 1].width,
                                           levels[k - 1].height).shape[0] > 1
        result = solver.solve(levels[k - 1])
        assert (result.status, result.pushes) == ("solved", pushes), k
        check_replay(levels[k - 1], result)


def test_transposition_generations_restart_with_a_cleared_table():
    solver = Solver(max_nodes=10_000)
    level = MICROBAN[1]
    first = solver.solve(level)
    solver.workspace.ctr[Ks.C_TEPOCH] = Ks.MAX_GENERATION  # the next search wraps
    again = solver.solve(level)
    assert solver.workspace.ctr[Ks.C_TEPOCH] == 1
    assert (again.pushes, again.nodes) == (first.pushes, first.nodes)
    assert solver.solve(level).nodes == first.nodes


# --------------------------------------------------------------------------- optimal=False

@pytest.mark.parametrize("case", range(80))
def test_any_solutions_replay_and_any_unsolvable_verdict_is_a_proof(case):
    """Every non-optimal solution replays to solved; its push count is an upper bound of
    the optimum; ``unsolvable`` only when plain BFS finds no solution either."""
    rng = np.random.default_rng(1000 + case)
    level = random_level(rng) if case % 2 else pulled_level(rng)
    if level is None:
        return
    expected = naive.bfs_pushes(level)
    result = solve(level, optimal=False)
    if expected is None:
        assert result.status == "unsolvable"
    else:
        assert result.status == "solved" and result.pushes >= expected
        assert not result.optimal or result.pushes == expected  # optimal only when proved
        check_replay(level, result)


def test_any_solutions_replay_on_microban():
    solver = Solver(max_nodes=200_000)
    for k in range(1, 156, 6):
        result = solver.solve(MICROBAN[k - 1], optimal=False)
        assert result.status == "solved", k
        check_replay(MICROBAN[k - 1], result)
        ref = solver.solve(MICROBAN[k - 1], max_nodes=100_000)  # optimal where cheap
        assert not ref.solved or (ref.optimal and result.pushes >= ref.pushes)


def test_any_mode_packs_a_goal_room_deepest_goal_first():
    """The packing plan orders goals by their walking distance, over goals, to the
    nearest floor cell that is not a goal, deepest first; the stages then fill the
    room."""
    level = Level.from_xsb("\n".join([
        "#########",
        "#...    #",
        "#... $$ #",
        "#   $ $ #",
        "#  @ $$ #",
        "#       #",
        "#########"]))
    walls, goals, _, _ = level.arrays()
    plan = packing_plan(walls, goals, level.width)
    k = len(level.goals)
    depth, frontier = {}, [c for c in level.goals
                           if any(naive.add(c, s) not in level.walls | level.goals
                                  for s in naive.DIRS.values())]
    for d in range(1, k + 1):
        depth.update((c, d) for c in frontier if c not in depth)
        frontier = [naive.add(c, s) for c in frontier for s in naive.DIRS.values()
                    if naive.add(c, s) in level.goals and naive.add(c, s) not in depth]
    order = [depth[(int(c) % level.width, int(c) // level.width)] for c in plan[:k]]
    assert order == sorted(order, reverse=True) and order[0] == 2
    assert list(plan[k:2 * k]) == [max(order) - d for d in order]
    result = solve(level, optimal=False, max_nodes=200_000)
    assert result.solved and not result.optimal
    check_replay(level, result)


def test_hundred_boxes_on_a_64x64_board_load_and_search():
    rows = [[" "] * 62 for _ in range(62)]
    for y in range(10):
        for x in range(10):
            rows[y][x] = "*"  # 100 goals, 98 with their box, in a corner block
    rows[9][9] = rows[9][8] = "."
    rows[30][30] = rows[31][40] = "$"
    rows[50][50] = "@"
    text = "\n".join(["#" * 64] + ["#" + "".join(r) + "#" for r in rows] + ["#" * 64])
    level = Level.from_xsb(text)
    assert (level.width, level.height, len(level.boxes)) == (64, 64, 100)
    for optimal in (True, False):
        result = Solver(max_nodes=200_000).solve(level, optimal=optimal)
        assert result.status == "solved", optimal
        check_replay(level, result)


def test_tables_grow_with_the_search_not_with_the_cap():
    """A 50,000,000-node cap allocates nothing up front: the node arrays and the
    transposition table start small and double while the search needs them, and a
    search that grew them finds exactly what a pre-sized workspace finds."""
    big = Solver(max_nodes=50_000_000)
    first = big.solve(MICROBAN[0])
    assert first.solved and big.workspace.table.nbytes <= 1 << 20
    level = MICROBAN[98]  # 57,000 states: the arrays double twice
    grown = big.solve(level)
    sized = Solver(max_nodes=50_000_000)
    sized.workspace.ensure(level.width * level.height, len(level.boxes), 1 << 17)
    ref = sized.solve(level)
    assert big.workspace.nodes > 1 << 14
    assert (grown.status, grown.pushes, grown.nodes, grown.expanded, grown.solution) == \
        (ref.status, ref.pushes, ref.nodes, ref.expanded, ref.solution)


def test_cli_solve_any_marks_solutions_not_proved_optimal(tmp_path, capsys):
    from levelforge.sokoban.cli import main
    path = tmp_path / "two.xsb"
    path.write_text("; one\n######\n#@$ .#\n######\n")
    assert main(["solve", str(path), "--any"]) == 0
    out = capsys.readouterr().out
    assert "level 1 (one): solved (not proved optimal) pushes=2" in out
    assert main(["solve", str(path)]) == 0
    assert "level 1 (one): solved pushes=2" in capsys.readouterr().out


def test_node_counts_do_not_depend_on_what_the_solver_solved_before():
    """The hash keys of a board are drawn for its size alone: a Solver that solved a
    40x40 level in between counts the same states on microban levels 7, 31 and 33
    (whose counts moved when a larger board redrew the keys) as before it, and as a
    fresh process does; the push counts are the optimal ones either way."""
    import subprocess
    import sys
    rows = ["#" * 40] + ["#" + ("@$." if r == 1 else "   ") + " " * 35 + "#"
                         for r in range(1, 39)] + ["#" * 40]
    big = Level.from_xsb("\n".join(rows))
    picks = (6, 30, 32)
    s = Solver()
    before = [s.solve(MICROBAN[i], max_nodes=20_000) for i in picks]
    assert s.solve(big).pushes == 1
    after = [s.solve(MICROBAN[i], max_nodes=20_000) for i in picks]
    code = ("from levelforge.sokoban import collections, solve\n"
            "m = collections.load('microban')\n"
            f"print([solve(m[i], max_nodes=20_000).nodes for i in {picks!r}])")
    fresh = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           check=True).stdout.strip()
    assert [r.nodes for r in after] == [r.nodes for r in before]
    assert fresh == str([r.nodes for r in before])
    assert [r.pushes for r in after] == [r.pushes for r in before]
