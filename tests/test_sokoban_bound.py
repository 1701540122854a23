"""The push-optimal lower bound (matching over player-side push distances) against
exhaustive plain-Python search: never above the exact remaining pushes on every state
reachable from small random levels, dropping by at most one per push (consistent), and
None only on states plain search proves unsolvable."""
import numpy as np
import pytest

from levelforge.sokoban import Level, collections, solve
from levelforge.sokoban.bound import push_lower_bound
from levelforge.sokoban.solver import Workspace

import naive_sokoban as naive
from test_sokoban_solver import pulled_level, random_level

WS = Workspace()


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
        if not state.is_solved:
            for child in push_children(state):
                hc = push_lower_bound(child, WS)
                assert hc is None or h <= 1 + hc


@pytest.mark.parametrize("k", range(0, 143, 11))  # 144 (index 143) needs more states
def test_bound_never_exceeds_microban_optimum(k):
    level = collections.load("microban")[k]
    result = solve(level, max_nodes=300_000)
    assert result.status == "solved" and result.optimal
    assert 0 < push_lower_bound(level, WS) <= result.pushes


def test_bound_on_known_small_levels():
    assert push_lower_bound(Level.from_xsb("######\n#@$ .#\n######")) == 2
    assert push_lower_bound(Level.from_xsb("#####\n#$.@#\n#####")) is None  # dead corner
    solved = Level.from_xsb("####\n#@*#\n####")
    assert solved.is_solved and push_lower_bound(solved) == 0
