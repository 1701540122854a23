"""The pair penalties over the matching (engine/sokoban_pairs.penalty_fold) against
plain-Python breadth-first search: for two boxes and a player cell, the least over goal
pairs of the exact pushes onto exactly those two goals less the boxes' cheaper
assignment to them by lone push distances, each found by plain search too."""
import itertools

import naive_sokoban as naive
import numpy as np
import pytest
from levelforge.engine import sokoban_pairs as _p
from levelforge.engine import sokoban_heuristic as _h
from levelforge.sokoban import Level, collections, solve
from levelforge.sokoban.bound import _prepare, pair_table, push_lower_bound
from levelforge.sokoban.pairs import pair_database
from test_sokoban_solver import pulled_level

MICROBAN = collections.load("microban")


def exact(level, boxes, goals, player):
    """Plain breadth-first search's pushes putting ``boxes`` onto ``goals`` (as many)
    alone on ``level``'s board from ``player``; None when impossible."""
    return naive.bfs_pushes(Level(width=level.width, height=level.height, walls=level.walls,
                                  goals=frozenset(goals), boxes=frozenset(boxes),
                                  player=player), max_states=200_000)


def reference_penalty(level, a, b, player):
    """The penalty of boxes on ``a`` and ``b`` with the player on ``player``, or None
    when no goal pair takes them."""
    best = None
    for g1, g2 in itertools.combinations(sorted(level.goals), 2):
        both = exact(level, (a, b), (g1, g2), player)
        lone = [exact(level, (c,), (g,), player) for c in (a, b) for g in (g1, g2)]
        ways = [x + y for x, y in ((lone[0], lone[3]), (lone[1], lone[2]))
                if x is not None and y is not None]
        if both is None or not ways:
            continue
        pen = both - min(ways)
        best = pen if best is None else min(best, pen)
    return best


def table_penalty(pdb, level, a, b, player):
    """The penalty the table holds for the same (None: a dead pair, or off its cells)."""
    w, n = level.width, int(pdb[2])
    L, F = int(pdb[0]), int(pdb[1])
    ia, ib = sorted(int(pdb[_p.HEAD + y * w + x]) for x, y in (a, b))
    p = int(pdb[_p.HEAD + n + player[1] * w + player[0]])
    if ia < 0 or p < 0:
        return None
    v = int(pdb[_p.HEAD + 4 * n + (ia * L + ib) * F + p])
    return None if v < 0 else v >> _p.PENALTY_SHIFT


@pytest.mark.parametrize("case", range(16))
def test_penalties_match_plain_search(case):
    rng = np.random.default_rng(31000 + case)
    level = pulled_level(rng, max_side=7, max_boxes=3, wall_p=0.12)
    if level is None or len(level.boxes) < 3:
        return
    pdb = pair_table(level)
    if pdb is None:
        return
    cells = [c for c in itertools.product(range(level.width), range(level.height))
             if c not in level.walls]
    checked = 0
    for _ in range(12):
        a, b, player = (cells[i] for i in rng.choice(len(cells), 3, replace=False))
        got = table_penalty(pdb, level, a, b, player)
        if got is None:
            continue
        want = reference_penalty(level, a, b, player)
        assert want is not None and got == max(0, want)
        checked += 1


def bound_without_penalties(level):
    """The bound as :func:`push_lower_bound` takes it, from a pair table built without
    the penalties."""
    ws, walls, goal_cells, box_cells, player, dist = _prepare(level, None)
    nbox, n = box_cells.shape[0], walls.shape[0]
    cols = np.zeros(nbox, np.int64)
    _h.box_columns(box_cells, nbox, np.int64(player), ws.compof, n, cols)
    h = _h.matching_cost(cols, nbox, dist, *ws.hung[:6])
    pdb = pair_database(walls, ws.dead[:n], goal_cells, level.width, nbox, dist)
    return int(_p.pair_bound(h, box_cells, nbox, np.int64(player), cols, pdb))


def test_penalties_raise_the_bound_and_stay_below_the_optimum():
    raised = 0
    for k in range(0, 143, 6):  # 144 (index 143) takes far longer to solve
        level = MICROBAN[k]
        h = push_lower_bound(level)
        assert h >= bound_without_penalties(level)
        result = solve(level, max_nodes=4_000_000)
        assert result.status == "solved" and result.optimal and h <= result.pushes
        raised += h > bound_without_penalties(level)
    assert raised > 0
