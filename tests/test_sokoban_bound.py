"""The push-optimal lower bound (matching over player-side push distances) against
exhaustive plain-Python search: never above the exact remaining pushes on every state
reachable from small random levels, dropping by at most one per push (consistent), and
None only on states plain search proves unsolvable."""
import naive_sokoban as naive
import numpy as np
import pytest
from levelforge.sokoban import Level, collections, solve
from levelforge.sokoban import pairs as pairs_mod
from levelforge.sokoban.bound import push_lower_bound
from levelforge.sokoban.solver import Workspace
from test_sokoban_solver import pulled_level, random_level

WS = Workspace()
MICROBAN = collections.load("microban")


def push_children(level):
    """Every level one push away from ``level`` (plain Python)."""
    walls = set(level.walls)
    region = naive.reachable(walls, level.boxes, level.player)
    for b in sorted(level.boxes):
        for step in naive.DIRS.values():
            t = naive.add(b, step)
            if naive.add(b, step, -1) in region and t not in walls and t not in level.boxes:
                yield level.replace(boxes=(level.boxes - {b}) | {t}, player=b)


def reachable_states(level, most):
    """Up to ``most`` states reachable by pushes from ``level``, breadth first."""
    seen = {(level.boxes, level.player)}
    out = [level]
    for state in out:
        for child in push_children(state):
            if (child.boxes, child.player) not in seen and len(out) < most:
                seen.add((child.boxes, child.player))
                out.append(child)
    return out


@pytest.mark.parametrize("case", range(150))
def test_bound_is_admissible_and_consistent_on_reachable_states(case):
    rng = np.random.default_rng(7000 + case)
    level = random_level(rng) if case % 3 == 0 else pulled_level(rng)
    if level is None:
        return
    for state in reachable_states(level, 25):
        h = push_lower_bound(state, WS)
        exact = naive.bfs_pushes(state)
        if h is None:
            assert exact is None  # no matching: a proof of unsolvability
            continue
        if exact is not None:
            assert h <= exact
        hm = push_lower_bound(state, WS, pairs=False)  # the matching alone
        assert hm is not None and hm <= h
        if not state.is_solved:  # the matching drops by at most one per push
            for child in push_children(state):
                hc = push_lower_bound(child, WS, pairs=False)
                assert hc is None or hm <= 1 + hc


@pytest.mark.parametrize("k", range(0, 143, 11))  # 144 (index 143) needs more states
def test_bound_never_exceeds_microban_optimum(k):
    level = MICROBAN[k]
    result = solve(level, max_nodes=300_000)
    assert result.status == "solved" and result.optimal
    assert 0 < push_lower_bound(level, WS) <= result.pushes


def test_bound_on_known_small_levels():
    assert push_lower_bound(Level.from_xsb("######\n#@$ .#\n######")) == 2
    assert push_lower_bound(Level.from_xsb("#####\n#$.@#\n#####")) is None  # dead corner
    solved = Level.from_xsb("####\n#@*#\n####")
    assert solved.is_solved and push_lower_bound(solved) == 0


def two_box_level(rng):
    level = pulled_level(rng, max_side=7, max_boxes=2) if rng.random() < 0.7 \
        else random_level(rng, max_side=7, max_boxes=2)
    return level if level is not None and len(level.boxes) == 2 else None


@pytest.mark.parametrize("case", range(120))
def test_pair_table_is_exact_on_two_box_levels(case):
    # with two boxes the pair table holds the exact answer of plain breadth-first search
    level = two_box_level(np.random.default_rng(9000 + case))
    if level is None:
        return
    for state in reachable_states(level, 12):
        assert push_lower_bound(state, WS) == naive.bfs_pushes(state)


def many_box_level(rng):
    """A pulled level with 3 to 5 boxes on a board up to 8x8 (solvable)."""
    return pulled_level(rng, max_side=8, max_boxes=5, wall_p=0.1)


@pytest.mark.parametrize("case", range(80))
def test_pair_bound_is_admissible_with_more_boxes(case):
    level = many_box_level(np.random.default_rng(11000 + case))
    if level is None:
        return
    for state in reachable_states(level, 6):
        exact = naive.bfs_pushes(state)
        h = push_lower_bound(state, WS)
        if h is None:
            assert exact is None  # a pair with no two-box solution: a proof
        if exact is not None:
            assert h <= exact


def solve_both(level, cap=200_000, after=0):
    """The solver's result with the pair database (built after ``after`` expansions)
    and without it."""
    saved = pairs_mod.AFTER, pairs_mod.MOST_STATES
    try:
        pairs_mod.AFTER = after
        with_pairs = solve(level, max_nodes=cap)
        pairs_mod.MOST_STATES = 0
        plain = solve(level, max_nodes=cap)
    finally:
        pairs_mod.AFTER, pairs_mod.MOST_STATES = saved
    return with_pairs, plain


@pytest.mark.parametrize("case", range(200))
def test_solver_push_counts_are_equal_with_and_without_pairs(case):
    rng = np.random.default_rng(13000 + case)
    level = many_box_level(rng) if case % 2 else random_level(rng, max_side=8, max_boxes=4)
    if level is None:
        return
    a, b = solve_both(level)
    assert a.status == b.status
    assert a.pushes == b.pushes
    if a.solved:
        boxes, _, pushes = naive.replay(level, a.solution)
        assert boxes == level.goals and pushes == a.pushes
    if len(level.boxes) <= 3:
        assert a.pushes == naive.bfs_pushes(level)


def test_pairs_prove_microban_levels_with_fewer_expansions():
    total = [0, 0]
    for k in (0, 19, 59, 99, 139, 149):
        a, b = solve_both(MICROBAN[k])
        assert a.solved and a.pushes == b.pushes
        total[0] += a.expanded
        total[1] += b.expanded
    assert 2 * total[0] < total[1]  # measured: about a third as many expansions


def test_pair_bound_reaches_microban_20_optimum_where_matching_is_a_quarter():
    level = MICROBAN[19]
    assert push_lower_bound(level, WS, pairs=False) == 4
    assert push_lower_bound(level, WS) == 16 == solve(level).pushes


def test_database_is_built_mid_search_only_past_its_threshold():
    level = MICROBAN[139]  # about 5,000 expansions with the matching alone
    late, plain = solve_both(level, after=1_000)
    never, _ = solve_both(level, after=10**9)
    assert late.pushes == plain.pushes == never.pushes == 80
    assert never.expanded == plain.expanded  # never built: the same search
    assert late.expanded < plain.expanded


def test_node_cap_with_pairs_says_limit():
    a, b = solve_both(MICROBAN[143], cap=50_000)  # level 144: far past 50,000 states
    assert a.status == b.status == "limit"
    assert a.nodes == b.nodes == 50_000 and a.solution is None


@pytest.mark.parametrize("number", [93, 144])
def test_a_capped_search_does_not_depend_on_the_solvers_history(number):
    """The database comes in after exactly ``AFTER`` expansions, however the workspace's
    growth split the search into kernel calls: a solver whose arrays are already large
    (it solved the level before) stores and expands what a fresh one does."""
    from levelforge.sokoban import Solver

    level = MICROBAN[number - 1]
    fresh = Solver(max_nodes=30_000).solve(level)
    used = Solver(max_nodes=30_000)
    for _ in range(2):
        again = used.solve(level)
        assert (again.status, again.nodes, again.expanded, again.solution) == \
            (fresh.status, fresh.nodes, fresh.expanded, fresh.solution)
