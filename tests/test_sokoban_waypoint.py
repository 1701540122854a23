"""The waypoint search of the any mode (``levelforge.sokoban.waypoint``): its scores
against plain-Python counts, its assignment against every permutation, its choice of
waypoints replayed by the rule, and its solutions replayed."""
import itertools
from collections import deque

import numpy as np
import pytest
from scipy.optimize import linear_sum_assignment

from levelforge.cancel import Limit
from levelforge.engine import sokoban_state as _s
from levelforge.engine import sokoban_waypoint as _wp
from levelforge.sokoban import Level, Solver, collections, packing, replay
from levelforge.sokoban import waypoint as wp
from levelforge.sokoban.backward import WEIGHT, _pull_search, backward_steps
from levelforge.sokoban.turns import drain

MICROBAN = collections.load("microban")


def areas(walls, width, boxes):
    """Plain count of the 4-connected areas of floor without a box."""
    n = len(walls)
    seen = set()
    count = 0
    for c in range(n):
        if walls[c] or c in boxes or c in seen:
            continue
        count += 1
        seen.add(c)
        todo = deque([c])
        while todo:
            x = todo.popleft()
            for y in (x - width, x - 1, x + 1, x + width):
                if not walls[y] and y not in boxes and y not in seen:
                    seen.add(y)
                    todo.append(y)
    return count


def unpullable(walls, width, boxes):
    """Plain count of the boxes with no side where the player could stand and step back
    (both cells free of walls and boxes)."""
    blocked = lambda c: walls[c] or c in boxes  # noqa: E731
    return sum(all(blocked(b + s) or blocked(b + 2 * s) for s in (-width, -1, 1, width)
                   if not walls[b + s]) for b in boxes)


def random_room(rng, width, height):
    walls = np.ones(width * height, np.uint8)
    for y in range(2, height - 2):
        for x in range(2, width - 2):
            walls[y * width + x] = rng.random() < 0.2
    return walls


@pytest.mark.parametrize("seed", range(20))
def test_open_scores_match_plain_counts(seed):
    rng = np.random.default_rng(seed)
    width, height = int(rng.integers(6, 12)), int(rng.integers(6, 12))
    walls = random_room(rng, width, height)
    floor = np.flatnonzero(walls == 0).astype(np.int32)
    nbox = int(rng.integers(1, max(2, floor.shape[0] // 3)))
    nodes = 30
    pool = np.concatenate([rng.choice(floor, nbox, replace=False) for _ in range(nodes)])
    pool = pool.astype(np.int16)
    n = walls.shape[0]
    out = np.zeros((nodes, 2), np.int64)
    blk = walls.copy()
    assert _wp.open_scores(pool, nodes, nbox, walls, floor, width, blk,
                           np.zeros(n, np.int64), np.zeros(n, np.int32), out,
                           np.zeros(1, np.int64)) == nodes
    assert np.array_equal(blk, walls)  # the work array is given back as it came
    for j in range(nodes):
        boxes = {int(c) for c in pool[j * nbox:(j + 1) * nbox]}
        assert out[j, 0] == areas(walls, width, boxes)
        assert out[j, 1] == unpullable(walls, width, boxes)


@pytest.mark.parametrize("seed", range(30))
def test_walk_costs_are_the_least_over_every_assignment(seed):
    """Each state's walking cost is the least over every permutation of its cells (the
    start's boxes numbered, the state's cells in any order)."""
    rng = np.random.default_rng(seed)
    nbox, cells = int(rng.integers(1, 7)), 20
    wd = rng.integers(0, 50, (nbox, cells)).astype(np.int64)
    nodes = 6
    pool = np.concatenate([rng.choice(cells, nbox, replace=False) for _ in range(nodes)])
    pool = pool.astype(np.int16)
    cand = np.array([4, 0, 5, 2], np.int64)
    out = np.zeros(cand.shape[0], np.int64)
    assert _wp.walk_costs(pool, cand, nbox, wd, np.zeros((nbox, nbox), np.int64),
                          np.zeros(nbox, np.int64),
                          *[np.zeros(nbox + 1, np.int64) for _ in range(6)], out,
                          np.zeros(1, np.int64)) == cand.shape[0]
    for k, j in enumerate(cand):
        cells_j = pool[j * nbox:(j + 1) * nbox]
        best = min(sum(wd[i, cells_j[p[i]]] for i in range(nbox))
                   for p in itertools.permutations(range(nbox)))
        assert out[k] == best


def test_the_scoring_stops_when_halted():
    """A set halt flag (a time limit's watchdog) stops both kernels at their next look
    (the first state here): they return how many states they finished."""
    walls = np.ones(16, np.uint8)
    walls[5:7] = 0
    pool = np.array([5, 6, 5], np.int16)
    halt = np.ones(1, np.int64)
    out = np.zeros((3, 2), np.int64)
    assert _wp.open_scores(pool, 3, 1, walls, np.array([5, 6], np.int32), 4, walls.copy(),
                           np.zeros(16, np.int64), np.zeros(16, np.int32), out, halt) == 0
    cost = np.zeros(3, np.int64)
    assert _wp.walk_costs(pool, np.arange(3), 1, np.zeros((1, 16), np.int64),
                          np.zeros((1, 1), np.int64), np.zeros(1, np.int64),
                          *[np.zeros(2, np.int64) for _ in range(6)], cost, halt) == 0


def test_a_stopped_solve_stops_in_the_choice_of_waypoints(monkeypatch):
    """A cancel that comes while the waypoints are chosen (the scoring is the longest
    single step of the search on large boards) ends the search ``cancelled`` without a
    forward search."""
    from levelforge.cancel import Cancel
    token = Cancel()
    real = wp.waypoints

    def cancelled_choice(*args):
        token.cancel()
        return real(*args)
    monkeypatch.setattr(wp, "waypoints", cancelled_choice)
    monkeypatch.setattr(wp, "PULLS", 200)
    level = MICROBAN[150]
    solver, board, boxes, player = prepared(level)
    child = Solver(1_000_000)
    status, solution, nodes, _ = drain(wp.waypoint_steps(child, level, board, boxes, player,
                                                         1_000_000, Limit(None, token)))
    assert (status, solution) == ("cancelled", None) and nodes <= 200


def prepared(level, cap=1_000_000):
    """A solver set up on ``level`` (its board, boxes and player) for the any mode."""
    solver = Solver(cap)
    board, boxes, player, _ = solver._prepare(level, cap, Limit(None), False)
    return solver, board, boxes, player


def walks(walls, width, start):
    dist = {start: 0}
    todo = deque([start])
    while todo:
        x = todo.popleft()
        for y in (x - width, x - 1, x + 1, x + width):
            if not walls[y] and y not in dist:
                dist[y] = dist[x] + 1
                todo.append(y)
    return dist


@pytest.mark.parametrize("index", [40, 80, 120, 152])
def test_waypoints_are_chosen_by_the_rule(index):
    """The waypoints of a backward search's states, replayed by the rule: at most
    ``MOST_AREAS`` areas, the ``CANDIDATES`` with the fewest unpullable boxes (earliest
    stored first), ordered by the least total walk from the start's boxes (an
    assignment found by scipy over plain breadth-first walks)."""
    level = MICROBAN[index]
    _, board, boxes, player = prepared(level)
    walls, goals, width = board[0], board[1], board[5]
    nbox = boxes.shape[0]
    status, a, ctr = drain(_pull_search(walls, np.flatnonzero(goals).astype(np.int32),
                                        boxes, player, width, 3000, Limit(None), WEIGHT,
                                        None, None, False, None))
    nodes = int(ctr[_s.C_NODES])
    got = wp.waypoints(a.pool, nodes, nbox, walls, width, boxes)
    rows = [{int(c) for c in a.pool[j * nbox:(j + 1) * nbox]} for j in range(nodes)]
    keep = [j for j in range(nodes) if areas(walls, width, rows[j]) <= wp.MOST_AREAS]
    keep.sort(key=lambda j: unpullable(walls, width, rows[j]))  # stable: earliest first
    keep = keep[:wp.CANDIDATES]
    dist = [walks(walls, width, int(b)) for b in boxes]

    def cost(j):
        cells = sorted(rows[j])
        m = np.array([[dist[i][c] for c in cells] for i in range(nbox)])
        r, c = linear_sum_assignment(m)
        return int(m[r, c].sum())
    want = sorted(keep, key=cost)
    assert len(keep) > 0
    assert got.tolist() == want


GAP = Level.from_xsb("#########\n#   #   #\n#@$ .   #\n#   #   #\n#########")
"""A box to push into the only gap of a wall that parts two rooms."""


def right_of_the_wall():
    """GAP's target: the smallest cell of the right room (with the box in the gap)."""
    return 1 * GAP.width + 5


def test_the_four_searches_keep_to_the_target_area():
    """With the target in the right room, the any mode's four searches in turn
    (``Solver._any_steps``) push the box through the gap, walk round and push it back:
    the player ends on the right; without it, pushed in from the left, it ends there."""
    solver = Solver(100_000)
    status, solution, _, _ = drain(solver._any_steps(GAP, 100_000, Limit(None),
                                                     right_of_the_wall()))
    after = replay(GAP, solution)
    assert status == "solved" and after.is_solved and after.player[0] > 4
    status, solution, _, _ = drain(solver._any_steps(GAP, 100_000, Limit(None)))
    assert status == "solved" and replay(GAP, solution).player[0] < 4


@pytest.mark.parametrize("cells", [False, True])
def test_the_backward_search_pulls_from_the_target_area_only(cells):
    """``root``: the backward searches start from the solved state with the player in
    the target's area only, so their solutions end there; without it, they may end in
    either room, and both rooms' roots are stored."""
    walls, goals, boxes, player = GAP.arrays()
    args = (walls, np.flatnonzero(goals).astype(np.int32),
            np.flatnonzero(boxes).astype(np.int32), player, GAP.width, 10_000, Limit(None))
    status, pushes, _, _, _ = drain(backward_steps(*args, cells=cells,
                                                   root=right_of_the_wall()))
    from levelforge.sokoban.optimizer import _Board
    after = replay(GAP, _Board(GAP).moves(pushes))
    assert status == "solved" and after.is_solved and after.player[0] > 4


@pytest.mark.parametrize("index", [99, 105, 111, 120, 150])
def test_the_waypoint_search_solves_by_way_of_a_waypoint(monkeypatch, index):
    """With a backward search too short to reach the start, the waypoint search brings
    the boxes to a waypoint forwards and the goals are reached by the pulls undone: its
    solution replays to the solved level, and it stored more than its backward part."""
    monkeypatch.setattr(wp, "PULLS", 200)
    level = MICROBAN[index]
    solver, board, boxes, player = prepared(level)
    child = Solver(1_000_000)
    status, solution, nodes, _ = drain(wp.waypoint_steps(child, level, board, boxes, player,
                                                         1_000_000, Limit(None)))
    assert status == "solved"
    assert replay(level, solution).is_solved
    assert nodes > 200


@pytest.mark.parametrize("index", [105, 120, 152])
def test_the_waypoints_searched_towards_differ_by_the_rule(monkeypatch, index):
    """The waypoints searched towards, when none is reached: the choice's order with
    each one skipped that differs from one already tried in fewer than ``DIFFER`` box
    cells, at most ``TRIES`` of them (replayed over plain sets)."""
    monkeypatch.setattr(wp, "PULLS", 500)
    level = MICROBAN[index]
    solver, board, boxes, player = prepared(level)
    walls, width, nbox = board[0], board[5], boxes.shape[0]
    child, seen = Solver(1_000_000), []

    def unreached(target, cap, limit, area):
        seen.append(frozenset(y * width + x for x, y in target.goals))
        return ("limit", None, 0, 0)
        yield  # noqa: unreachable: a search that ends at once
    monkeypatch.setattr(child, "_any_steps", unreached)
    status, _, _, _ = drain(wp.waypoint_steps(child, level, board, boxes, player,
                                              1_000_000, Limit(None)))
    _, a, ctr = drain(_pull_search(walls, np.flatnonzero(board[1]).astype(np.int32), boxes,
                                   player, width, 500, Limit(None), WEIGHT, None, None,
                                   False, None))
    want, twins = [], 0
    for j in wp.waypoints(a.pool, int(ctr[_s.C_NODES]), nbox, walls, width, boxes):
        cells = frozenset(int(c) for c in a.pool[j * nbox:(j + 1) * nbox])
        if len(want) < wp.TRIES:
            if all(len(cells - t) >= wp.DIFFER for t in want):
                want.append(cells)
            else:
                twins += cells not in want
    assert status == "limit" and len(want) > 1 and twins > 0  # the rule skipped some
    assert seen == want


def test_the_any_mode_with_the_waypoint_search_is_deterministic_and_replays():
    """The waypoint search takes its turns by stored states like the others: two solves
    of XSokoban-like Microban 153 under the same cap agree, and the solution replays."""
    level = MICROBAN[152]
    first = Solver().solve(level, optimal=False, max_nodes=400_000)
    again = Solver().solve(level, optimal=False, max_nodes=400_000)
    assert first.solved and replay(level, first.solution).is_solved
    assert (first.solution, first.nodes) == (again.solution, again.nodes)


def test_a_waypoint_turn_of_zero_leaves_the_search_out(monkeypatch):
    """``WAYPOINT_TURN = 0``: the turns hold the four searches only."""
    seen = []
    real = packing.take_turns
    monkeypatch.setattr(packing, "take_turns", lambda runs, limit: seen.append(len(runs))
                        or real(runs, limit))
    monkeypatch.setattr(packing, "STAGE_NODES", 0)
    Solver().solve(MICROBAN[152], optimal=False, max_nodes=2_000)
    monkeypatch.setattr(packing, "WAYPOINT_TURN", 0)
    Solver().solve(MICROBAN[152], optimal=False, max_nodes=2_000)
    assert seen == [5, 4]
