"""The push-optimal solve's incumbent (``solver.INCUMBENT_SHARE``): after ``RESTART_AT``
stored states a solution to beat, found by the search for any solution and shortened;
the second search stores no state of ``f`` at least its pushes (``ctr[C_UPPER]``) and
proves it push-optimal when its bound reaches them; a stopped solve keeps it. Checked
against plain A* without a restart and a plain-Python breadth-first search."""
from dataclasses import replace

import numpy as np

from levelforge import Cancel
from levelforge.sokoban import Solver, collections, replay
from levelforge.sokoban import solver as solver_mod
from levelforge.sokoban.cli import main as sokoban_main

import naive_sokoban as naive
from test_sokoban_solver import pulled_level

MICROBAN = collections.load("microban")
LEVELS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 14, 17, 23, 27, 31, 45, 59, 74]  # 31: symmetric
RESTART = 20  # small enough that most of LEVELS outgrow the first search


def optimum(level):
    """Plain A* to the end (no restart): the reference push-optimal solve."""
    saved = solver_mod.RESTART_AT
    solver_mod.RESTART_AT = solver_mod.MAX_NODES
    try:
        return Solver().solve(level)
    finally:
        solver_mod.RESTART_AT = saved


def key(level):
    return level.walls, level.goals, level.boxes, level.player


def given(monkeypatch, results):
    """Have each solve's incumbent phase return ``results[key(level)]`` (or None), and
    record what the second search was given."""
    calls = []

    def incumbent(self, level, cap, limit):
        calls.append(level)
        return results.get(key(level))

    monkeypatch.setattr(solver_mod, "RESTART_AT", RESTART)
    monkeypatch.setattr(solver_mod.Solver, "_incumbent", incumbent)
    return calls


def replays_to(level, r):
    boxes, _, pushes = naive.replay(level, r.solution)
    return boxes == level.goals and pushes == r.pushes and replay(level, r.solution).is_solved


def test_an_optimal_incumbent_is_proved_by_the_bound_and_prunes_the_search(monkeypatch):
    levels = [MICROBAN[k - 1] for k in LEVELS]
    best = {key(lv): optimum(lv) for lv in levels}
    # as the phase's would be: not proved, and its nodes not this test's business
    offered = {k: replace(r, nodes=0, expanded=0, optimal=False) for k, r in best.items()}
    given(monkeypatch, {})
    alone = [Solver().solve(lv) for lv in levels]  # the two searches, no incumbent
    calls = given(monkeypatch, offered)
    pruned = [Solver().solve(lv) for lv in levels]
    assert len(calls) >= 10  # most levels got to the second search
    for lv, a, b in zip(levels, alone, pruned):
        ref = best[key(lv)]
        assert a.pushes == b.pushes == ref.pushes and b.optimal and b.lower_bound == ref.pushes
        if lv in calls:  # proved by the bound reaching it: the incumbent itself comes back
            assert b.solution == ref.solution
            assert replays_to(lv, b)
    # the second search stores no state of f at least the incumbent's pushes
    went = [(a, b) for lv, a, b in zip(levels, alone, pruned) if lv in calls]
    assert all(b.nodes <= a.nodes for a, b in went)
    assert sum(b.nodes for a, b in went) < 0.9 * sum(a.nodes for a, b in went)


def test_a_longer_incumbent_is_beaten_by_the_optimum(monkeypatch):
    """Incumbents from the search for any solution, on the levels where it is longer."""
    levels = [MICROBAN[k - 1] for k in LEVELS]
    longer = {}
    for lv in levels:
        r = Solver().solve(lv, optimal=False)
        if r.pushes > optimum(lv).pushes:
            longer[key(lv)] = r
    calls = given(monkeypatch, longer)
    beaten = 0
    for lv in levels:
        if key(lv) not in longer:
            continue
        r = Solver().solve(lv)
        assert r.status == "solved" and r.optimal and r.pushes == optimum(lv).pushes
        assert r.pushes < longer[key(lv)].pushes and replays_to(lv, r)
        beaten += lv in calls  # (a level that fits the first search never gets one)
    assert beaten >= 3


def test_random_levels_against_breadth_first_search(monkeypatch):
    """The real incumbent phase (no clock: node-capped, so the same every time) on
    random levels that outgrow a first search of 20 states."""
    monkeypatch.setattr(solver_mod, "RESTART_AT", 20)
    rng = np.random.default_rng(11)
    checked = 0
    while checked < 20:
        level = pulled_level(rng, max_side=8, max_boxes=3)
        if level is None:
            continue
        want = naive.bfs_pushes(level)
        if want is None:
            continue
        r = Solver().solve(level)
        assert r.status == "solved" and r.optimal and r.pushes == want
        assert replays_to(level, r)
        again = Solver().solve(level)
        assert (again.solution, again.nodes, again.expanded) == (r.solution, r.nodes,
                                                                 r.expanded)
        checked += 1


def test_the_incumbent_phase_under_a_time_limit(monkeypatch):
    monkeypatch.setattr(solver_mod, "RESTART_AT", RESTART)
    for k in (5, 9, 17, 45, 74):
        lv = MICROBAN[k - 1]
        r = Solver().solve(lv, time_limit=30)
        assert r.status == "solved" and r.optimal and r.pushes == optimum(lv).pushes
        assert replays_to(lv, r)


def stopped(monkeypatch):
    """Microban 144 (optimum 36, far beyond these caps), its incumbent from the search
    for any solution: the second search stops at the cap."""
    lv = MICROBAN[143]
    found = Solver().solve(lv, optimal=False)
    given(monkeypatch, {key(lv): found})
    return lv, found


def test_a_stopped_solve_keeps_its_incumbent(monkeypatch):
    lv, found = stopped(monkeypatch)
    r = Solver().solve(lv, max_nodes=5_000)
    assert r.status == "limit" and not r.solved and not r.optimal
    assert r.solution == found.solution and r.pushes == found.pushes
    assert r.moves == len(found.solution) and replays_to(lv, r)
    assert r.lower_bound is not None and r.lower_bound <= 36 <= r.pushes
    assert r.to_dict()["solution"] == found.solution
    token = Cancel()
    token.cancel()
    r = Solver().solve(lv, max_nodes=5_000, cancel=token)
    assert r.status == "cancelled" and r.solution is None  # cancelled before any search


def test_the_command_line_prints_the_kept_solution(monkeypatch, tmp_path, capsys):
    lv, found = stopped(monkeypatch)
    path = tmp_path / "m144.xsb"
    path.write_text(lv.to_xsb())
    code = sokoban_main(["solve", str(path), "--max-nodes", "5000"])
    out = capsys.readouterr().out
    assert code == 1  # not solved
    assert "limit (best solution found, not proved optimal)" in out
    assert f"pushes={found.pushes}" in out and "lower_bound=" in out
    assert found.solution in out.split()


def test_no_incumbent_phase_once_the_clock_has_run_out():
    """The first search stopped with time left, the clock ran out before the incumbent
    phase began (seen under load in CI): the phase is skipped, not started with a time
    limit of 0 (which ``solve`` refuses)."""
    from levelforge.cancel import Limit
    from levelforge.timing import now_ns
    solver = Solver()
    past = Limit(0.5, None, now_ns() - 10**9)  # its deadline half a second ago
    assert solver._incumbent(MICROBAN[143], 1_000_000, past) is None
