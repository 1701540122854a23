"""The three-box deadlock table (engine/sokoban_triples.py) against plain-Python search:
its bits against a breadth-first search of the three-box problem, its verdicts on whole
states against a breadth-first search of the state, and the push-optimal solver with it
against plain breadth-first search (the optimum and the ``unsolvable`` proofs kept)."""
import itertools

import naive_sokoban as naive
import numpy as np
import pytest
from levelforge.engine import sokoban_pairs as _p
from levelforge.engine import sokoban_triples as _t
from levelforge.sokoban import Level, solve
from levelforge.sokoban import pairs as pairs_mod
from levelforge.sokoban.bound import _prepare
from levelforge.sokoban.pairs import pair_database
from test_sokoban_bound import reachable_states
from test_sokoban_solver import pulled_level


def triple_table(level):
    """(pdb with the triple section, walls, width, dead) of ``level``'s board."""
    ws, walls, goal_cells, box_cells, player, dist = _prepare(level, None)
    dead = ws.dead[:walls.shape[0]].copy()
    pdb = pair_database(walls, dead, goal_cells, level.width, box_cells.shape[0], dist,
                        triples=True)
    return pdb, walls, dead


def three_box_solvable(level, boxes, player):
    """Whether ``boxes`` (three cells), alone on ``level``'s board, can all be pushed onto
    goals (any three) from ``player``: plain breadth-first search over pushes."""
    walls = set(level.walls)
    goals = set(level.goals)
    start = frozenset(boxes)
    seen = {(start, naive._norm(walls, start, player)[0])}
    todo = [(start, player)]
    while todo:
        bx, pl = todo.pop()
        if bx <= goals:
            return True
        region = naive.reachable(walls, bx, pl)
        for b in bx:
            for step in naive.DIRS.values():
                t = naive.add(b, step)
                if naive.add(b, step, -1) in region and t not in walls and t not in bx:
                    nb = (bx - {b}) | {t}
                    key = (nb, naive._norm(walls, nb, b)[0])
                    if key not in seen:
                        seen.add(key)
                        todo.append((nb, b))
    return False


def bit(pdb, cells, player):
    """The table's bit for three board cells and a player cell (None off its cells)."""
    off = _t.triple_section(pdb)
    L, F, n = int(pdb[0]), int(pdb[1]), int(pdb[2])
    idx = sorted(int(pdb[_p.HEAD + c]) for c in cells)
    p = int(pdb[_p.HEAD + n + player])
    if idx[0] < 0 or p < 0:
        return None
    c2, c3 = off + 1, off + 2 + L
    s = (int(pdb[c3 + idx[2]]) + int(pdb[c2 + idx[1]]) + idx[0]) * F + p
    return bool((int(pdb[off + 3 + 2 * L + (s >> 5)]) >> (s & 31)) & 1)


def small_level(rng):
    level = pulled_level(rng, max_side=7, max_boxes=4, wall_p=0.12)
    return level if level is not None and len(level.boxes) >= 3 else None


@pytest.mark.parametrize("case", range(24))
def test_table_bits_match_plain_three_box_search(case):
    rng = np.random.default_rng(21000 + case)
    level = small_level(rng)
    if level is None:
        return
    pdb, walls, dead = triple_table(level)
    if pdb is None or pdb[3] < 3:
        return  # boxes sealed away (walls to the solver): fewer than three left
    assert _t.triple_section(pdb) > 0
    w = level.width
    live = [c for c in range(walls.shape[0]) if walls[c] == 0 and dead[c] == 0]
    floor = [c for c in range(walls.shape[0]) if walls[c] == 0]
    triples = list(itertools.combinations(live, 3))
    for k in rng.choice(len(triples), size=min(40, len(triples)), replace=False):
        cells = triples[k]
        player = floor[rng.integers(len(floor))]
        if player in cells:
            continue
        want = three_box_solvable(level, [(c % w, c // w) for c in cells],
                                  (player % w, player // w))
        assert bit(pdb, cells, player) == want


def cells_and_player(state):
    """A state's sorted box cells and normalised player cell, as the kernels take them."""
    w = state.width
    cells = np.array(sorted(y * w + x for x, y in state.boxes), np.int32)
    x, y = naive._norm(set(state.walls), state.boxes, state.player)[0]
    return cells, y * w + x


def test_dead_triples_are_dead_states_that_pairs_miss():
    found = 0
    for case in range(60):
        level = small_level(np.random.default_rng(23000 + case))
        if level is None:
            continue
        pdb, _, _ = triple_table(level)
        if pdb is None or pdb[3] < 3:
            continue
        pairs_only = pdb[:_t.triple_section(pdb)]  # the same database without triples
        for state in reachable_states(level, 60):
            cells, player = cells_and_player(state)
            if _t.triples_dead(pdb, cells, cells.shape[0], player):
                assert naive.bfs_pushes(state) is None  # a proof: the state is dead
                found += not any(_p.pair_dead(pairs_only, cells, cells.shape[0], c, player)
                                 for c in cells)
    assert found > 0  # the table sees deadlocks the pair table does not


@pytest.mark.parametrize("after", [0, 40])
def test_solver_keeps_the_optimum_with_triples(after):
    # ``after`` 40: the table comes mid-search, and the states stored before it are
    # checked whole when popped
    saved = pairs_mod.AFTER
    try:
        pairs_mod.AFTER = after
        for case in range(30):
            rng = np.random.default_rng(25000 + case)
            level = pulled_level(rng, max_side=8, max_boxes=5, wall_p=0.1)
            if level is None or len(level.boxes) < 3:
                continue
            result = solve(level, max_nodes=200_000)
            exact = naive.bfs_pushes(level)
            assert result.status == "solved" and result.pushes == exact
            boxes, _, pushes = naive.replay(level, result.solution)
            assert boxes == level.goals and pushes == exact
    finally:
        pairs_mod.AFTER = saved


def test_unsolvable_stays_a_proof():
    # two boxes held against the top wall off goals, a third free: the verdict stays a proof
    level = Level.from_xsb("#######\n"
                           "#  $$ #\n"
                           "# $   #\n"
                           "#@... #\n"
                           "#######")
    saved = pairs_mod.AFTER
    try:
        pairs_mod.AFTER = 0
        result = solve(level, max_nodes=100_000)
    finally:
        pairs_mod.AFTER = saved
    assert naive.bfs_pushes(level) is None
    assert result.status == "unsolvable"
