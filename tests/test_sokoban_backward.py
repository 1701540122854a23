"""The backward search over pulls (any-solution mode) against plain Python: lone-box pull
distances against a breadth-first search over pulls, verdicts against plain
breadth-first search over pushes (it finds a solution exactly when one exists, given
room), every solution replayed, and its place in the any-solution portfolio."""
import naive_sokoban as naive
import numpy as np
import pytest
from levelforge.engine import sokoban_backward as _bk
from levelforge.engine.sokoban_fess_features import regions_reach
from levelforge.engine.sokoban_state import UNREACHABLE
from levelforge.sokoban import Level, Solver, collections, replay, solve
from levelforge.sokoban import backward as backward_mod
from levelforge.sokoban import packing
from levelforge.sokoban.backward import backward_solve
from levelforge.sokoban.turns import drain, finished
from test_sokoban_solver import pulled_level, random_level

MICROBAN = collections.load("microban")


def naive_pull_distance(walls, start, target):
    """Fewest pulls taking a lone box from ``start`` to ``target`` (cells as (x, y)),
    the player anywhere as long as the two cells the pull needs are floor."""
    seen = {start: 0}
    todo = [start]
    for cell in todo:
        if cell == target:
            return seen[cell]
        for step in naive.DIRS.values():
            p, q = naive.add(cell, step), naive.add(cell, step, 2)
            if p not in walls and q not in walls and p not in seen:
                seen[p] = seen[cell] + 1
                todo.append(p)
    return None


@pytest.mark.parametrize("case", range(30))
def test_pull_distances_match_plain_breadth_first_search(case):
    level = random_level(np.random.default_rng(21000 + case), max_side=8, wall_p=0.25)
    if level is None:
        return
    walls, _, _, _ = level.arrays()
    w = level.width
    floor = [c for c in range(walls.shape[0]) if not walls[c]]
    targets = np.array(floor[:3], np.int32)
    pdist = np.zeros((3, walls.shape[0]), np.int32)
    _bk.pull_distances(walls, targets, np.int64(w), pdist, np.zeros(walls.shape[0], np.int32))
    for t, target in enumerate(targets):
        for c in floor:
            want = naive_pull_distance(set(level.walls), (c % w, c // w),
                                       (int(target) % w, int(target) // w))
            assert pdist[t, c] == (UNREACHABLE if want is None else want)


def test_the_repaired_matching_of_a_pull_equals_a_fresh_one():
    """The backward search repairs each child's matching from the expanded state's (one
    box moves; pull distances ignore the player): the cost equals a fresh Hungarian
    solve and brute force over permutations, ``UNREACHABLE`` where no matching is
    finite (both kinds occur among these states)."""
    from levelforge.engine import sokoban_match as M
    from levelforge.engine.sokoban_heuristic import matching_cost
    seen = set()
    for case in range(20):
        rng = np.random.default_rng(23000 + case)
        level = random_level(rng, max_side=8, max_boxes=5, wall_p=0.2)
        if level is None:
            continue
        walls, _, boxes, _ = level.arrays()
        n, w = walls.shape[0], level.width
        targets = np.flatnonzero(boxes).astype(np.int32)
        nbox = targets.shape[0]
        pdist = np.zeros((nbox, n), np.int32)
        _bk.pull_distances(walls, targets, np.int64(w), pdist, np.zeros(n, np.int32))
        alive = np.flatnonzero(pdist.min(axis=0) < UNREACHABLE)  # as the search keeps
        mw = np.zeros(5 * (nbox + 1), np.int64)
        work = [np.zeros(nbox + 1, np.int64) for _ in range(6)]  # hu hv hp hway hminv hused
        for _ in range(15):
            cells = np.sort(rng.permutation(alive)[:nbox]).astype(np.int16)
            parent = M.cells_matching(cells, 0, nbox, pdist, mw, *work[3:])
            assert min(parent, UNREACHABLE) == min(
                matching_cost(cells.astype(np.int64), nbox, pdist, *work), UNREACHABLE)
            for i in range(nbox):
                t = int(rng.choice(alive))
                got = M.moved_matching(nbox, i, t, pdist, mw, *work)
                child = cells.astype(np.int64)
                child[i] = t
                costs = [[int(pdist[g, c]) for g in range(nbox)] for c in child]
                want = min(naive.matching(costs), UNREACHABLE)
                assert min(got, UNREACHABLE) == want, (case, cells, i, t)
                assert min(matching_cost(child, nbox, pdist, *work), UNREACHABLE) == want
                seen.add(want < UNREACHABLE)
    assert seen == {True, False}


@pytest.mark.parametrize("cells", [False, True, "order"])
@pytest.mark.parametrize("case", range(120))
def test_backward_search_finds_a_solution_exactly_when_one_exists(case, cells):
    """Greedy, over feature cells, and over cells keyed by a packing order too (the
    goals in a random order): each finds a solution exactly when one exists."""
    rng = np.random.default_rng(23000 + case)
    level = random_level(rng, max_side=7, max_boxes=3) if case % 2 \
        else pulled_level(rng, max_side=7, max_boxes=3)
    if level is None or level.is_solved:
        return
    order = None
    if cells == "order":
        goals = [y * level.width + x for x, y in sorted(level.goals)]
        order = rng.permutation(goals)
    status, solution, nodes, _ = backward_solve(level, 500_000, cells=bool(cells),
                                                order=order)
    exact = naive.bfs_pushes(level)
    if exact is None:
        assert status == "exhausted" and solution is None  # never a false solution
    else:
        assert status == "solved"
        boxes, _, pushes = naive.replay(level, solution)
        assert boxes == level.goals and pushes >= exact


@pytest.mark.parametrize("k", [*range(0, 150, 7), 143])
def test_backward_solutions_replay_on_microban(k):
    # measured: all of Microban but level 153 within 300,000 states (144: 4,186)
    status, solution, nodes, _ = backward_solve(MICROBAN[k], 300_000)
    assert status == "solved" and replay(MICROBAN[k], solution).is_solved


@pytest.mark.parametrize("k", [0, 40, 80, 120, 142])
def test_the_search_over_feature_cells_replays_on_microban(k):
    # measured: level 143 in 43,361 states; level 144, which the greedy order solves in
    # 4,186, is past 3,000,000 this way (the two orders solve different levels)
    status, solution, nodes, _ = backward_solve(MICROBAN[k], 300_000, cells=True)
    assert status == "solved" and replay(MICROBAN[k], solution).is_solved


@pytest.mark.parametrize("case", range(40))
def test_regions_count_the_areas_of_free_floor(case):
    """The feature cells' connectivity coordinate against a plain flood fill."""
    rng = np.random.default_rng(51000 + case)
    level = random_level(rng, max_side=9, max_boxes=6)
    if level is None:
        return
    walls = level.arrays()[0]
    w, n = level.width, walls.shape[0]
    floor = [c for c in range(n) if not walls[c]]
    blk = walls.copy()
    blk[rng.choice(floor, size=min(len(floor) - 1, int(rng.integers(0, 12))), replace=False)] = 1
    seen, areas = set(), 0
    for c in floor:
        if blk[c] or c in seen:
            continue
        areas += 1
        todo = [c]
        seen.add(c)
        while todo:
            y = todo.pop()
            for x in (y - w, y - 1, y + 1, y + w):
                if not blk[x] and x not in seen:
                    seen.add(x)
                    todo.append(x)
    got, _ = regions_reach(blk, np.array(floor, np.int32), np.int64(w), np.int64(floor[0]),
                           np.zeros(n, np.int64), np.int64(1), np.zeros(n, np.int32))
    assert got == areas


def random_boards(seed, cases):
    """Random boards with several areas for the cell tests, one per case that makes one:
    ``(rng, walls, width, cells, floor cells)``."""
    for case in range(cases):
        rng = np.random.default_rng(seed + case)
        level = random_level(rng, max_side=9, max_boxes=8, wall_p=0.1)
        if level is None:
            continue
        walls = level.arrays()[0]
        floor = np.array([c for c in range(walls.shape[0]) if not walls[c]], np.int32)
        yield rng, walls, level.width, walls.shape[0], floor


def plain_prefix(boxes, order):
    """Entries of a packing order filled by the box cells ``boxes``: its filled prefix,
    a parking entry ``-(pocket << 16 | goal) - 1`` filled while its pocket or its goal
    holds a box."""
    for i, v in enumerate(order):
        cells = (v,) if v >= 0 else ((-v - 1) >> 16, (-v - 1) & 0xFFFF)
        if not any(c in boxes for c in cells):
            return i
    return len(order)


def _check_pulled_cells(rng, walls, w, n, floor, order=()):
    """One random state of the board ``walls`` for the tests below: every pull's cell
    both ways, and its whole key with the packing ``order``'s filled prefix; returns
    its counts of fill-free answers and of pulls, and the prefix lengths seen (2: two
    or more)."""
    fast = pulls = 0
    lengths = set()
    boxes = rng.choice(floor, size=min(len(floor) - 2, int(rng.integers(2, 14))),
                       replace=False)
    startm = np.zeros(n, np.uint8)
    startm[rng.choice(floor, size=len(boxes), replace=False)] = 1
    blk = walls.copy()
    blk[boxes] = 1
    player = int(rng.choice([c for c in floor if not blk[c]]))
    stamp, queue = np.zeros(n, np.int64), np.zeros(n, np.int32)
    stamp2, queue2 = np.zeros(n, np.int64), np.zeros(n, np.int32)
    stamp3, ctr = np.zeros(n, np.int64), np.zeros(backward_mod._s.N_COUNTERS, np.int64)
    wbox = np.sort(boxes).astype(np.int16)
    nbox = len(boxes)
    porder, cbase = np.array(order, np.int32), _bk.REGION_CELLS * (nbox + 1)
    cu = _bk._cell(wbox, nbox, startm, blk, floor, np.int64(w), np.int64(player), stamp2,
                   np.int64(1), queue2)
    key = cu + plain_prefix(set(boxes.tolist()), order) * cbase
    _bk.flood_fill(blk, np.int64(w), np.int64(player), stamp, np.int64(1), queue)
    for b in boxes.tolist():
        for s in (-w, -1, 1, w):
            p, q = b + s, b + 2 * s
            if stamp[p] != 1 or blk[q]:
                continue
            blk[b], blk[p] = 0, 1
            child = np.sort(np.where(wbox == b, p, wbox)).astype(np.int16)
            got = _bk._pulled_cell(cu, startm, blk, np.int64(w), np.int64(b),
                                   np.int64(p), stamp, np.int64(1))
            want = _bk._cell(child, nbox, startm, blk, floor, np.int64(w), np.int64(q),
                             stamp2, np.int64(2 + pulls), queue2)
            whole = _bk._child_cell(key, cbase, child, nbox, startm, blk, floor,
                                    np.int64(w), np.int64(b), np.int64(p), np.int64(q),
                                    stamp, np.int64(1), stamp3, ctr, queue2, porder)
            prefix = plain_prefix(set(child.tolist()), order)
            blk[b], blk[p] = 1, 0
            pulls += 1
            assert whole == want + prefix * cbase, (b, s)
            lengths.add(min(prefix, 2))
            if got >= 0:
                fast += 1
                assert got == want, (b, s)
    return fast, pulls, lengths


def test_a_pulls_cell_without_a_fill_is_the_filled_one():
    """:func:`_bk._pulled_cell` (the child's feature cell from its parent's, where local
    tests settle it) against :func:`_bk._cell` (a fill of the whole board, itself
    checked against a plain flood above), on every pull of random states of random
    boards with several areas; the fill-free answer must come often."""
    fast = pulls = 0
    for rng, walls, w, n, floor in random_boards(52000, 60):
        for _ in range(6):  # states of this board
            state_fast, state_pulls, _ = _check_pulled_cells(rng, walls, w, n, floor)
            fast += state_fast
            pulls += state_pulls
    assert pulls > 1000 and fast > pulls // 4


def test_a_pulls_cell_counts_the_filled_prefix_of_the_packing_order():
    """The whole cell key of the search over cells keyed by a packing order
    (:func:`_bk._child_cell`, from the parent's key and the pull) against its parts
    counted afresh on the child: :func:`_bk._cell` and the filled prefix of the order
    in plain Python, on every pull of random states of random boards, each with a
    random order of goal entries and parking entries; prefixes of 0, 1 and 2 or more
    come up."""
    lengths = set()
    pulls = 0
    for rng, walls, w, n, floor in random_boards(61000, 60):
        for _ in range(6):
            picks = rng.choice(floor, size=min(len(floor), 4), replace=False).tolist()
            order = [c if rng.random() < 0.7 else -((c << 16 | int(rng.choice(floor))) + 1)
                     for c in picks]
            _, state_pulls, seen = _check_pulled_cells(rng, walls, w, n, floor, order)
            pulls += state_pulls
            lengths |= seen
    assert pulls > 1000 and lengths == {0, 1, 2}


def test_the_search_over_cells_keys_its_cells_by_the_feature_space_searchs_order(
        monkeypatch):
    """In the any mode's turns the backward search over cells gets the packing order the
    feature-space search computed in this solve (spied on as it is made), the greedy
    one none; a second solve, of another level, gets that level's order, not the
    first's; without the feature-space search there is none to get."""
    from levelforge.sokoban import fess as fess_mod
    made, got = [], []
    real_order, real_steps = fess_mod.packing_order, backward_mod.backward_steps

    def order_spy(*args):
        made.append(real_order(*args))
        return made[-1]

    def steps_spy(*args, **kw):
        if "forward" in kw:  # the solver's searches, not the warm-up's
            got.append((kw["cells"], kw["order"]))
        return (yield from real_steps(*args, **kw))

    Solver().solve(MICROBAN[145], optimal=False, max_nodes=10)  # the warm-up, unspied
    monkeypatch.setattr(fess_mod, "packing_order", order_spy)
    monkeypatch.setattr(backward_mod, "backward_steps", steps_spy)
    monkeypatch.setattr(packing, "STAGE_NODES", 10)  # the packing stages too short
    solver = Solver()
    for k in (105, 111):  # Microban 106 and 112: both backward searches start (measured)
        made.clear()
        got.clear()
        r = solver.solve(MICROBAN[k], optimal=False, max_nodes=200_000)
        assert r.solved and replay(MICROBAN[k], r.solution).is_solved
        assert len(made) == 1 and [c for c, _ in got] == [False, True]
        assert got[0][1] is None and np.array_equal(got[1][1], made[0])
    monkeypatch.setattr(solver, "_fess_steps", lambda *a: finished("limit", None, 0, 0))
    got.clear()
    r = solver.solve(MICROBAN[142], optimal=False, max_nodes=200_000)
    assert r.solved and got == [(False, None), (True, None)]


def test_node_cap_and_time_limit_say_limit():
    level = MICROBAN[152]  # level 153: past 300,000 states backwards (measured)
    assert backward_solve(level, 2_000)[0] == "limit"
    assert backward_solve(level, 10**8, time_limit=0.05)[:2] == ("limit", None)


def test_an_already_solved_level_needs_no_search():
    assert backward_solve(Level.from_xsb("####\n#@*#\n####"), 10) == ("solved", "", 0, 0)


def test_the_portfolio_falls_back_on_the_backward_search(monkeypatch):
    """With the forward searches made to fail, the any-solution mode's answer is a
    backward search's, and it replays: both backward searches take turns (greedy and
    over feature cells), or, with ``_stages`` off, the greedy one runs alone."""
    calls = []
    solver = Solver()
    real = solver._backward_steps

    def backward(*args, cells=False):
        calls.append((args[3], cells))  # the node cap and order of each search
        return real(*args, cells=cells)

    monkeypatch.setattr(solver, "_fess_steps", lambda *a: finished("limit", None, 0, 0))
    monkeypatch.setattr(solver, "_backward_steps", backward)
    monkeypatch.setattr(packing, "STAGE_NODES", 10)  # the packing stages too short
    level = MICROBAN[142]  # level 143: 43,648 states backwards (measured)
    r = solver.solve(level, optimal=False, max_nodes=200_000)
    assert r.solved and not r.optimal and replay(level, r.solution).is_solved
    assert calls == [(200_000, False), (200_000, True)]
    calls.clear()
    solver._stages = False  # the feature-space search first, then the greedy one alone
    r = solver.solve(level, optimal=False, max_nodes=200_000)
    assert r.solved and replay(level, r.solution).is_solved and calls == [(200_000, False)]


def test_after_the_feature_space_search_the_two_searches_meet(monkeypatch):
    """Microban 146 with 2,000 states a search: the feature-space search stops at its
    cap, the backward search then meets one of its states far sooner than it reaches
    the start alone, and the joined solution replays."""
    level = MICROBAN[145]
    alone = backward_solve(level, 300_000)
    Solver().solve(level, optimal=False, max_nodes=10)  # the first use's warm-up, unspied
    runs = []
    real = backward_mod.backward_steps

    def spy(*args, **kw):
        out = yield from real(*args, **kw)
        runs.append((out[0], out[2], out[4], kw["forward"]() is not None))
        return out

    monkeypatch.setattr(backward_mod, "backward_steps", spy)
    solver = Solver()
    solver._stages = False  # the feature-space search first
    r = solver.solve(level, optimal=False, max_nodes=2_000)
    assert r.solved and replay(level, r.solution).is_solved
    ((status, nodes, meet, forward),) = runs
    assert status == "solved" and forward and meet >= 0
    assert alone[0] == "solved" and nodes < alone[2]


def test_a_forward_state_the_backward_search_stored_before_is_a_meeting():
    """The forward side of a meeting: a made-up forward search that stores, from its
    second turn on, a push on a macro's way (skipped) and one state a push short of solved (the backward search stores it
    with its first expansions, before the forward node exists, so the lookups of new
    backward states in the forward table cannot see it). The backward search stops at
    its next turn with that node, and the forward pushes to it and the backward
    search's pushes from it replay."""
    level = MICROBAN[145]
    solution = solve(level).solution
    last = max(i for i, m in enumerate(solution) if m.isupper())
    near = replay(level, solution[:last])  # one push short of solved
    walls, goals, boxes, player = near.arrays()
    stamp = np.zeros(walls.shape[0], np.int64)
    queue = np.zeros(walls.shape[0], np.int32)
    norm = _bk._region_min(walls | boxes, np.int64(level.width), np.int64(player), stamp,
                           np.int64(1), queue)  # the region's smallest cell
    nbox = int(boxes.sum())  # node 0: a push on a macro's way (player -1, boxes unwritten)
    fpool = np.concatenate([np.full(nbox, 30000), np.flatnonzero(boxes)]).astype(np.int16)
    turns = []

    def forward():  # no table to look new backward states up in: only the scan meets
        turns.append(1)
        return (np.zeros(0, np.int64), fpool, np.array([-1, norm], np.int32), 0,
                2 * int(len(turns) > 1))
    status, pushes, nodes, _, meet = drain(backward_mod.backward_steps(
        *backward_board(level), 300_000, backward_mod.Limit(None), forward=forward))
    assert (status, meet, len(turns)) == ("solved", 1, 2)
    assert nodes < backward_solve(level, 300_000)[2]
    from levelforge.sokoban.optimizer import _Board
    board = _Board(level)
    joined = board.moves(board.pushes(solution[:last]) + pushes)
    assert replay(level, joined).is_solved


def test_the_warm_up_compiles_the_forward_side_of_a_meeting():
    """In a fresh process, after the backward search's warm-up, a solve whose backward
    searches look up the feature-space search's states (Microban 146, as above) loads
    no new specialisation of ``meet_scan``: the warm-up's call has the solver's types."""
    import os
    import subprocess
    import sys
    code = ("from levelforge.sokoban import Solver, collections;"
            "from levelforge.sokoban import backward as b;"
            "from levelforge.engine import sokoban_backward as bk;"
            "b.warm_up(); before = len(bk.meet_scan.signatures);"
            "s = Solver(); s._stages = False;"
            "r = s.solve(collections.load('microban')[145], optimal=False, max_nodes=2000);"
            "print(r.status, before, len(bk.meet_scan.signatures))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, env=dict(os.environ)).stdout
    assert out.split() == ["solved", "1", "1"]


def filled_arrays(nodes=3000, boxes=3, cells=400, seed=0):
    """Backward-search arrays holding ``nodes`` distinct made-up states (sorted boxes, a
    player cell), their table as the search keeps it, and the counters and keys."""
    rng = np.random.default_rng(seed)
    a = backward_mod._Arrays(boxes, cells, 4096, feature_cells=True)
    states = set()
    while len(states) < nodes:
        states.add((tuple(sorted(rng.choice(cells, boxes, replace=False))),
                    int(rng.integers(cells))))
    for j, (bx, p) in enumerate(sorted(states)):
        a.pool[j * boxes:(j + 1) * boxes] = bx
        a.nplayer[j] = p
    a.ng[:nodes] = rng.integers(0, 100, nodes)
    a.heap[:nodes] = rng.integers(0, 2**40, nodes)
    a.pkey[:nodes] = rng.integers(0, 2**40, nodes)
    zob = np.random.default_rng(1).integers(1, 2**63, size=(2, cells), dtype=np.uint64)
    ctr = np.zeros(backward_mod._s.N_COUNTERS, np.int64)
    ctr[backward_mod._s.C_NODES] = nodes
    ctr[_bk.C_SIZE] = a.table.shape[0]
    assert _bk.table_regrow(a.pool, a.nplayer, boxes, a.table, zob, nodes, ctr)
    return a, ctr, zob


def naive_find(a, ctr, zob, j):
    """Whether the table holds node ``j``: the probe of the search, in plain Python."""
    nbox = a.nbox
    key = int(zob[1, a.nplayer[j]])
    for c in a.pool[j * nbox:(j + 1) * nbox]:
        key ^= int(zob[0, c])
    mask = int(ctr[_bk.C_SIZE]) - 1
    slot = key & mask
    while a.table[slot] != 0:
        if int(a.table[slot]) & 0xFFFFFFFF == j + 1 and int(a.table[slot]) >> 32 == key >> 33:
            return True
        slot = (slot + 1) & mask
    return False


def test_growth_keeps_every_state_and_the_table_finds_each():
    a, ctr, zob = filled_arrays()
    names = ("pool", "nplayer", "ng", "heap", "pkey")
    before = {n: getattr(a, n).copy() for n in names}
    assert a.grow(ctr, zob) == backward_mod._s.RUNNING
    assert a.nplayer.shape[0] == 8192 and ctr[_bk.C_SIZE] == a.table.shape[0] == 16384
    for name, was in before.items():
        assert np.array_equal(getattr(a, name)[:was.shape[0]], was), name
    assert all(naive_find(a, ctr, zob, j) for j in range(3000))
    assert np.count_nonzero(a.table) == 3000


def test_a_set_halt_slot_stops_the_growth_and_leaves_the_arrays_as_they_were():
    a, ctr, zob = filled_arrays()
    names = ("pool", "nplayer", "nparent", "ng", "nmove", "heap", "pkey", "pchild", "psib",
             "table")
    arrays = [getattr(a, n) for n in names]
    size = int(ctr[_bk.C_SIZE])
    ctr[backward_mod._s.C_HALT] = 1
    assert a.grow(ctr, zob) == backward_mod._s.HALTED
    assert all(getattr(a, n) is was for n, was in zip(names, arrays))
    assert ctr[_bk.C_SIZE] == size
    table = np.zeros(1 << 14, np.int64)
    assert not _bk.table_regrow(a.pool, a.nplayer, a.nbox, table, zob, 3000, ctr)
    assert not table.any()  # stopped before the first node


def test_a_halt_in_the_growth_keeps_every_state_and_the_capacity_the_kernel_reads(
        monkeypatch):
    """Each array takes its copy's place at once; a halt in the table's rebuild (after
    every copy) leaves larger arrays with the same states, but ``nplayer`` and the
    table, whose sizes the kernel reads as its capacity, as they were."""
    a, ctr, zob = filled_arrays()
    nplayer, table = a.nplayer, a.table
    before = {n: getattr(a, n)[:3000 * (3 if n == "pool" else 1)].copy()
              for n in ("pool", "nplayer", "ng", "heap", "pkey")}
    regrow = _bk.table_regrow

    def halted_regrow(pool, nplayer, nbox, table, zob, nodes, ctr):
        ctr[backward_mod._s.C_HALT] = 1
        return regrow(pool, nplayer, nbox, table, zob, nodes, ctr)

    monkeypatch.setattr(_bk, "table_regrow", halted_regrow)
    assert a.grow(ctr, zob) == backward_mod._s.HALTED
    assert a.nplayer is nplayer and a.table is table and ctr[_bk.C_SIZE] == table.shape[0]
    assert a.pool.shape[0] == 2 * 4096 * 3 and a.heap.shape[0] == 8192  # these grew
    for name, was in before.items():
        assert np.array_equal(getattr(a, name)[:was.shape[0]], was), name
    assert all(naive_find(a, ctr, zob, j) for j in range(0, 3000, 7))


def test_a_backward_search_cancelled_while_it_grows_stops_there(monkeypatch):
    """The token is set inside the first growth and the watchdog's halt awaited, so the
    stop comes in the copy: the search says ``cancelled`` with the states it had."""
    import time
    from levelforge import Cancel
    token = Cancel()
    real_grow = backward_mod._Arrays.grow
    grown = []

    def cancelled_grow(self, ctr, zob):
        if not grown:
            token.cancel()
            t = time.monotonic()
            while ctr[backward_mod._s.C_HALT] == 0 and time.monotonic() - t < 10:
                time.sleep(0.001)
        out = real_grow(self, ctr, zob)
        grown.append(out)
        return out

    monkeypatch.setattr(backward_mod._Arrays, "grow", cancelled_grow)
    monkeypatch.setattr(backward_mod, "_FIRST", 1 << 8)  # growth after a few states
    status, pushes, nodes, _, _ = backward_mod.backward_search(
        *backward_board(MICROBAN[152]), 10**6, backward_mod.Limit(None, token))
    assert (status, pushes) == ("cancelled", None)
    assert grown == [backward_mod._s.HALTED] and 0 < nodes <= 1 << 8


def backward_board(level):
    """The arguments of ``backward_search`` before the node cap, for ``level`` (every
    box and goal in the player's area), the outside walled in."""
    walls, goals, boxes, player = level.arrays()
    walls[~backward_mod.player_area(walls, level.width, player)] = 1
    return (walls, np.flatnonzero(goals).astype(np.int32),
            np.flatnonzero(boxes).astype(np.int32), player, level.width)
