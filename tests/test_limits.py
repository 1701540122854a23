"""Limits are limits (issue 19, the library half): time limits that hold on every board,
generators that take one, refusals of requests that cannot succeed, cancel tokens from a
thread, a process and the command line's Ctrl-C, and results unchanged by all of it.

The timing checks use margins of seconds against the minutes the code before this change
took (one chunk of 512 expansions on a 64x64 room with 100 boxes costs about 40 s, with
128 boxes minutes; the time limit was only looked at between chunks)."""
import math
import multiprocessing
import os
import pickle
import signal
import subprocess
import sys
import threading
import time

import numpy as np
import pytest

from levelforge import Cancel, Cancelled, ConfigError, GenerationError
from levelforge.cancel import Limit
from levelforge.engine import sokoban as K
from levelforge.engine import sokoban_board as Kb
from levelforge.engine import sokoban_state as Ks
from levelforge.mines import Game
from levelforge.sokoban import Generator, Level, Solver, collections, generate, solve
from levelforge.symmetry import generate as symmetry_generate

from rooms import room, warm_up
from test_batch_signals import sigint_default

MICROBAN = collections.load("microban")
# push-optimal lengths of Microban 1-12, as the solver found them before this change
MICROBAN_PUSHES = [8, 3, 13, 7, 6, 29, 6, 32, 10, 21, 16, 11]
MARGIN_S = 3.0  # against tens of seconds or minutes before


BIG = room(64, 64, 100)


@pytest.fixture(scope="module")
def warm():
    """Kernels compiled (or loaded) outside the timed calls."""
    warm_up()


def timed(fn):
    t = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - t


# --------------------------------------------------------------------------- solve

@pytest.mark.parametrize("optimal", [True, False])
def test_solve_time_limit_holds_on_a_64x64_room_with_100_boxes(warm, optimal):
    r, took = timed(lambda: solve(BIG, time_limit=0.3, optimal=optimal))
    assert r.status == "limit" and r.solution is None
    assert took < 0.3 + MARGIN_S


def test_solve_time_limit_holds_on_the_largest_board(warm):
    """64x64 with 128 boxes: one expansion alone took 0.5 s."""
    level = room(64, 64, 128, seed=2)
    r, took = timed(lambda: solve(level, time_limit=0.2))
    assert r.status == "limit" and took < 0.2 + MARGIN_S


def test_the_time_limit_reaches_the_pair_database_built_mid_search(warm, monkeypatch):
    """The push-optimal search builds its pair database after ``pairs.AFTER``
    expansions; that build is handed the search's counters, whose halt slot the time
    limit sets (a build that never looked at it ran past the limit: XSokoban 58 took
    2.3 s under a 0.3 s limit)."""
    from levelforge.sokoban import pairs
    real = pairs.pair_database
    seen = []

    def slow_build(*args, ctr=None, **kwargs):
        # hold the build until the halt arrives, as a long build would run into it
        t = time.perf_counter()
        while ctr is not None and ctr[Ks.C_HALT] == 0 and time.perf_counter() - t < 30:
            time.sleep(0.01)
        seen.append(ctr is not None and ctr[Ks.C_HALT] != 0)
        return real(*args, ctr=ctr, **kwargs)

    monkeypatch.setattr(pairs, "pair_database", slow_build)
    r = solve(MICROBAN[143], time_limit=0.3)  # 144: far more than AFTER expansions
    assert seen == [True] and r.status == "limit" and r.limit_by == "time"


def test_a_set_halt_slot_stops_a_goal_pairs_search_of_pulls_at_once():
    # one layer of a two-goal search is far smaller than the 2^14 states between looks
    from levelforge.engine import sokoban_pairs as P
    from levelforge.sokoban.pairs import pair_database
    level = MICROBAN[0]
    walls, goals, _, _ = level.arrays()
    cells = np.flatnonzero(goals).astype(np.int32)
    n = walls.shape[0]
    dist = np.zeros((cells.shape[0], 4 * n), np.int32)
    ctr = np.zeros(Ks.N_COUNTERS, np.int64)
    pdb = pair_database(walls, walls * 0, cells, level.width, 2, dist, ctr=ctr)
    size = int(pdb[0]) ** 2 * int(pdb[1])
    work = np.zeros(size, np.int32), np.zeros(size, np.int32)
    assert P.pair_build(walls, walls * 0, cells[:2], np.int64(level.width), pdb, *work, ctr,
                        np.int64(0))
    ctr[Ks.C_HALT] = 1
    for pushes in (0, 1):  # the goal pairs' table, and the backward search's
        assert not P.pair_build(walls, walls * 0, cells[:2], np.int64(level.width), pdb,
                                *work, ctr, np.int64(pushes))


def test_a_set_halt_slot_stops_the_push_distances_before_any_work():
    level = room(12, 12, 3)  # enclosed: every floor cell has its four neighbours
    walls, goals, _, _ = level.arrays()
    n, goal_cells = walls.shape[0], np.flatnonzero(goals).astype(np.int32)
    work = (np.zeros(12 * n, np.int32), np.zeros(n, np.int64), np.zeros(n * n, np.int8))
    ctr = np.zeros(Ks.N_COUNTERS, np.int64)
    dist = np.full((goal_cells.size, 4 * n), -7, np.int32)
    dead = np.zeros(n, np.uint8)
    ctr[Ks.C_HALT] = 1
    Kb.push_distances(walls, goal_cells, level.width, dist, dead, *work, ctr)
    assert (dist == -7).all()  # stopped before the first goal
    ctr[Ks.C_HALT] = 0
    Kb.push_distances(walls, goal_cells, level.width, dist, dead, *work, ctr)
    ref = np.zeros_like(dist)
    Kb.push_distances(walls, goal_cells, level.width, ref, dead.copy(), *work)
    assert np.array_equal(dist, ref)  # and unchanged when it is not set


def test_a_set_halt_slot_abandons_the_search_and_leaves_the_board_clean():
    level = room(12, 12, 3)
    solver = Solver()
    solver.solve(level)  # the workspace is sized and the kernels loaded
    ws = solver.workspace
    board = _board(solver, level)
    ws.ctr[Ks.C_HALT] = 1
    try:
        status = K.search_run(10, *board, *ws.search_arrays(), None, None, None)
    finally:
        ws.ctr[Ks.C_HALT] = 0
    assert status == Ks.HALTED and ws.ctr[Ks.C_STATUS] == Ks.HALTED
    walls = board[0]  # the box marks are gone: blk holds the walls alone, occ nothing
    assert not ws.occ.any() and np.array_equal(ws.blk[:walls.size], walls)


def _board(solver, level):
    """A running search of ``level`` (enclosed) in ``solver``'s workspace; its board."""
    ws = solver.workspace
    walls, goals, boxes, player = level.arrays()
    n = walls.shape[0]
    goal_cells = np.flatnonzero(goals).astype(np.int32)
    box_cells = np.flatnonzero(boxes).astype(np.int32)
    dist = np.zeros((goal_cells.size, 4 * n), np.int32)
    dead = np.zeros(n, np.uint8)
    Kb.push_distances(walls, goal_cells, level.width, dist, dead, ws.sides, ws.lab,
                      ws.compof, ws.ctr)
    board = (walls, goals, dead, dist, ws.zob, level.width)
    assert K.search_start(box_cells, box_cells.size, player, 1000, 1, *board,
                          *ws.search_arrays(), None, None, None) == Ks.RUNNING
    return board


def test_cancel_from_another_thread_stops_a_long_solve(warm):
    token = Cancel()
    threading.Timer(0.3, token.cancel).start()
    r, took = timed(lambda: solve(BIG, cancel=token))
    assert r.status == "cancelled" and not r.solved
    assert took < 0.3 + MARGIN_S


def _cancel_later(blob, delay):
    time.sleep(delay)
    pickle.loads(blob).cancel()


def test_cancel_from_another_process_through_a_pickled_token(warm):
    token = Cancel()
    ctx = multiprocessing.get_context("fork")
    p = ctx.Process(target=_cancel_later, args=(pickle.dumps(token), 0.3))
    p.start()
    try:
        r, took = timed(lambda: solve(BIG, cancel=token, optimal=False))
    finally:
        p.join(10)
    assert r.status == "cancelled" and took < 0.3 + MARGIN_S


def _solve_in_worker(token, out):
    out.put(solve(BIG, cancel=token).status)


def test_a_worker_process_solve_stops_when_the_parent_cancels(warm):
    token = Cancel()
    ctx = multiprocessing.get_context("fork")
    out = ctx.Queue()
    p = ctx.Process(target=_solve_in_worker, args=(token, out))
    p.start()
    time.sleep(0.5)
    token.cancel()
    try:
        assert out.get(timeout=30) == "cancelled"
    finally:
        p.join(10)
        if p.is_alive():
            p.kill()


def test_cancelled_is_distinct_from_unsolvable():
    stuck = Level.from_xsb("#####\n#@$ #\n#  .#\n#####")  # the box is stuck on the wall
    assert solve(stuck).status == "unsolvable"
    token = Cancel()
    token.cancel()
    r = solve(stuck, cancel=token)
    assert r.status == "cancelled" and r.to_dict()["status"] == "cancelled"


def test_results_are_unchanged_by_a_limit_or_a_token_that_never_fires():
    plain, limited = Solver(max_nodes=200_000), Solver(max_nodes=200_000)
    token = Cancel()
    for level, pushes in zip(MICROBAN, MICROBAN_PUSHES):
        a = plain.solve(level)
        b = limited.solve(level, time_limit=600, cancel=token)
        assert a.pushes == pushes
        assert (a.status, a.solution, a.nodes, a.expanded) == \
            (b.status, b.solution, b.nodes, b.expanded)
        c = plain.solve(level, optimal=False)
        d = limited.solve(level, optimal=False, time_limit=600, cancel=token)
        assert (c.status, c.solution, c.nodes, c.expanded) == \
            (d.status, d.solution, d.nodes, d.expanded)


def test_a_token_pickles_to_the_same_flag_and_a_limit_says_why():
    token = Cancel()
    twin = pickle.loads(pickle.dumps(token))
    assert not twin.cancelled
    limit = Limit(0.05, token)
    assert limit.reason() is None
    time.sleep(0.06)
    assert limit.reason() == "limit"
    token.cancel()
    assert twin.cancelled and limit.reason() == "cancelled"
    with pytest.raises(ConfigError, match="time_limit"):
        solve(MICROBAN[0], time_limit=0)
    with pytest.raises(ConfigError, match="cancel"):
        solve(MICROBAN[0], cancel=True)


# --------------------------------------------------------------------------- generators

def test_sokoban_generation_stops_at_its_time_limit(warm):
    with pytest.raises(GenerationError, match=r"time limit of 0\.3 s"):
        start = time.perf_counter()
        generate(1, width=64, height=64, boxes=128, pushes=(1, 32766), time_limit=0.3)
    assert time.perf_counter() - start < 0.3 + MARGIN_S


def test_symmetry_generation_stops_at_its_time_limit(warm):
    with pytest.raises(GenerationError, match=r"time limit of 0\.001 s"):
        symmetry_generate(9, seed=1, time_limit=0.001)


def test_no_guess_generation_stops_at_its_time_limit(warm):
    """32x32x32 with 12,000 mines ran for more than 5 minutes."""
    game = Game("32x32x32-12000", seed=1, no_guess=True, time_limit=0.3)
    start = time.perf_counter()
    with pytest.raises(GenerationError, match=r"time limit of 0\.3 s"):
        game.open((16, 16, 0))
    assert time.perf_counter() - start < 0.3 + MARGIN_S
    assert game.status == "ready"  # a rejected open changes nothing


def test_an_impossible_looking_no_guess_board_ends_with_a_clear_error(warm):
    """9x9x1 with 60 mines from the centre (a 500 in the server): the placements run out
    and say so; no density can be refused up front, since the densest board of all (every
    cell but the first open's block a mine) is won by the first open."""
    game = Game("9x9x1-60", seed=1, no_guess=True, time_limit=60)
    with pytest.raises(GenerationError, match="within 1000 placements"):
        game.open((4, 4, 0))
    assert game.status == "ready"
    densest = Game("9x9x1-72", seed=1, no_guess=True)
    densest.open((4, 4, 0))
    assert densest.status == "won"


def test_a_cancel_token_stops_every_generator(warm):
    token = Cancel()
    threading.Timer(0.2, token.cancel).start()
    with pytest.raises(Cancelled):
        generate(1, width=64, height=64, boxes=128, pushes=(1, 32766), cancel=token)
    with pytest.raises(Cancelled):
        symmetry_generate(9, seed=1, cancel=token)
    with pytest.raises(Cancelled):
        Game("32x32x32-12000", seed=1, no_guess=True, cancel=token).open((16, 16, 0))


def test_generated_results_are_unchanged_by_a_limit(warm):
    token = Cancel()
    for seed in range(3):
        a = generate(seed, width=8, height=8, boxes=3, pushes=(6, 12))
        b = generate(seed, width=8, height=8, boxes=3, pushes=(6, 12), time_limit=600,
                     cancel=token)
        assert (a.level, a.solution) == (b.level, b.solution)
        p, q = symmetry_generate(5, seed=seed), symmetry_generate(5, seed=seed,
                                                                  time_limit=600, cancel=token)
        assert (p.board_a, p.board_b, p.solution) == (q.board_a, q.board_b, q.solution)
        g, h = Game("9x9x1-10", seed, True), Game("9x9x1-10", seed, True, time_limit=600,
                                                  cancel=token)
        g.open((4, 4, 0))
        h.open((4, 4, 0))
        assert g.share_code() == h.share_code() and np.array_equal(g._mine, h._mine)


def _most_pushes_5x5_one_box():
    """The longest push-optimal solution over every 5x5 board with one box (3x3 floor),
    found by solving them all."""
    floor = [(x, y) for x in range(1, 4) for y in range(1, 4)]
    walls = frozenset((x, y) for x in range(5) for y in range(5) if (x, y) not in floor)
    most = 0
    solver = Solver()
    for goal in floor:
        for box in floor:
            for player in floor:
                if player == box or box == goal:
                    continue
                r = solver.solve(Level(5, 5, walls, frozenset([goal]), frozenset([box]), player))
                if r.solved:
                    most = max(most, r.pushes)
    return most


def test_a_push_range_no_board_of_that_size_reaches_is_refused_at_once():
    bound = math.comb(9, 1) * min(9 - 1, 4 * 1)  # the generator's state-count bound
    assert _most_pushes_5x5_one_box() <= bound  # the bound is sound
    start = time.perf_counter()
    with pytest.raises(ConfigError, match=f"no 5x5 board with 1 box needs more than {bound}"):
        generate(0, width=5, height=5, boxes=1, pushes=(bound + 1, bound + 10))
    assert time.perf_counter() - start < 1.0
    Generator(width=5, height=5, boxes=1, pushes=(bound, bound + 10))  # not refused


# --------------------------------------------------------------------------- the CLI

@pytest.mark.skipif(not os.path.isdir("/proc/self/task"), reason="needs /proc")
def test_ctrl_c_cancels_a_long_cli_solve(warm, tmp_path):
    path = tmp_path / "big.xsb"
    path.write_text(BIG.to_xsb())
    # a node cap the search cannot reach before the signal (the default one, a million
    # expansions, takes about 5 s here: a slow machine once reached it first)
    proc = subprocess.Popen([sys.executable, "-m", "levelforge", "sokoban", "solve", str(path),
                             "--max-nodes", str(50_000_000)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=sigint_default)
    try:
        # the search runs in a worker thread under the watchdog: wait for both threads
        deadline = time.monotonic() + 120
        while len(os.listdir(f"/proc/{proc.pid}/task")) < 3:
            assert proc.poll() is None and time.monotonic() < deadline
            time.sleep(0.05)
        time.sleep(0.3)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130, (out, err)
    assert "level 1: cancelled (Ctrl-C)" in out and "interrupted" in err


def test_huge_time_limits_mean_no_limit_and_keep_the_watchdog_alive():
    """A limit past 10**9 s (or infinity) is no limit; a long one does not overflow the
    watchdog's wait or Z3's 32-bit timeout."""
    assert solve(MICROBAN[0], time_limit=float("inf")).pushes == MICROBAN_PUSHES[0]
    assert solve(MICROBAN[0], time_limit=1e300).pushes == MICROBAN_PUSHES[0]
    assert symmetry_generate(4, seed=1, time_limit=1e8).solution == \
        symmetry_generate(4, seed=1).solution
    token = Cancel()
    threading.Timer(0.2, token.cancel).start()
    assert solve(BIG, time_limit=1e8, cancel=token).status == "cancelled"


def test_a_shorter_limit_added_while_the_watchdog_sleeps_on_a_longer_one_fires():
    """The watchdog is only woken when a new limit needs it sooner than it would wake:
    a 0.05 s limit added while it sleeps on a 60 s one must still fire (within seconds,
    not at the 60 s wake-up)."""
    long_flags, short_flags = np.zeros(1, np.int64), np.zeros(1, np.int64)
    with Limit(60).watch(long_flags, 0):
        time.sleep(0.05)  # the watchdog is asleep until the 60 s deadline
        with Limit(0.05).watch(short_flags, 0):
            for _ in range(1000):
                if short_flags[0]:
                    break
                time.sleep(0.01)
            assert short_flags[0] == 1
        assert long_flags[0] == 0
