"""A solve's proved lower bound (``SolveResult.lower_bound``): never above the optimum of a
plain-Python breadth-first search, the pushes when proved optimal, at least the start's
bound, growing with the node cap, the larger of the two push-optimal searches', and said
by the command line when a search stops."""
import numpy as np

from levelforge import Cancel
from levelforge.cancel import Limit
from levelforge.sokoban import Level, Solver, collections
from levelforge.sokoban import solver as solver_mod
from levelforge.sokoban.bound import push_lower_bound
from levelforge.sokoban.cli import main as sokoban_main

import naive_sokoban as naive
from test_sokoban_solver import pulled_level

MICROBAN = collections.load("microban")
M144_OPTIMUM = 36  # Microban 144, push-optimal (measured without a clock: 109.9 s)


def test_the_bound_never_exceeds_the_breadth_first_optimum():
    """Random levels whose optimum lies at least 2 pushes above the start's bound (the
    others are solved as soon as searched), each solved under growing node caps."""
    rng = np.random.default_rng(7)
    solver = Solver()
    checked = stopped = raised = 0
    while checked < 25:
        level = pulled_level(rng, max_side=8, max_boxes=3)
        if level is None:
            continue
        best = naive.bfs_pushes(level)
        start = push_lower_bound(level, pairs=False)
        if best is None or best - start < 2:
            continue
        for cap in (2, 6, 20, 60, 200, 10**6):
            r = solver.solve(level, max_nodes=cap)
            if r.status == "solved":
                assert r.pushes == best and r.lower_bound == best
            else:
                assert r.status == "limit"
                assert r.lower_bound is not None and start <= r.lower_bound <= best
                stopped += 1
                raised += r.lower_bound > start
        checked += 1
    assert raised > stopped // 3  # the searches proved more than the start's bound


def test_the_bound_grows_with_the_cap_and_stays_below_the_optimum(monkeypatch):
    monkeypatch.setattr(solver_mod, "RESTART_AT", solver_mod.MAX_NODES)  # plain A* only
    level = MICROBAN[143]
    solver = Solver()
    bounds = [solver.solve(level, max_nodes=cap).lower_bound
              for cap in (1_000, 30_000, 300_000)]
    assert bounds[0] == push_lower_bound(level) == 24  # the start's, with the pairs
    assert bounds == sorted(bounds) and bounds[-1] > bounds[0]
    assert bounds[-1] <= M144_OPTIMUM


def test_after_the_restart_the_bound_is_the_larger_of_the_two_searches(monkeypatch):
    level = MICROBAN[143]
    monkeypatch.setattr(solver_mod, "INCUMBENT_SHARE", 0)  # the two searches alone
    monkeypatch.setattr(solver_mod, "PULLS_FROM", 0)  # no backward search (its own tests)
    monkeypatch.setattr(solver_mod, "RESTART_AT", solver_mod.MAX_NODES)
    first = Solver().solve(level, max_nodes=100_000).lower_bound  # plain A* to 100,000
    monkeypatch.setattr(solver_mod, "RESTART_AT", 0)
    second = Solver().solve(level, max_nodes=110_000).lower_bound  # the second alone
    monkeypatch.setattr(solver_mod, "RESTART_AT", 100_000)
    both = Solver().solve(level, max_nodes=110_000)  # the first to 100,000, then the second
    assert both.status == "limit" and first < second <= M144_OPTIMUM
    assert both.lower_bound == second
    # the second search stopped before its first pop: the first search's bound stands
    real = Solver._search

    def second_cancelled(self, *args, partial=False):
        if partial:
            token = Cancel()
            token.cancel()
            args = (*args[:7], Limit(None, token))
        return real(self, *args, partial=partial)

    monkeypatch.setattr(Solver, "_search", second_cancelled)
    r = Solver().solve(level, max_nodes=110_000)
    assert r.status == "cancelled" and r.lower_bound == first


def test_no_bound_without_a_push_optimal_search_that_stopped():
    solver = Solver()
    dead = Level.from_xsb("#####\n#@$ #\n#  .#\n#####")  # the box is pushed into a corner
    r = solver.solve(dead)
    assert r.status == "unsolvable" and r.lower_bound is None
    r = solver.solve(MICROBAN[143], optimal=False)
    assert r.solved and not r.optimal and r.lower_bound is None
    assert solver.solve(Level.from_xsb("####\n#@*#\n####")).lower_bound == 0
    r = solver.solve(MICROBAN[143], max_nodes=500)
    assert r.to_dict()["lower_bound"] == r.lower_bound == 24


def test_the_command_line_says_the_bound_of_a_stopped_search(tmp_path, capsys):
    path = tmp_path / "m144.xsb"
    path.write_text(MICROBAN[143].to_xsb())
    code = sokoban_main(["solve", str(path), "--max-nodes", "500"])
    out = capsys.readouterr().out
    assert code == 1 and out.rstrip().endswith(" lower_bound=24")
    assert "limit (state cap 500: raise --max-nodes) pushes=None" in out  # not the clock
    code = sokoban_main(["solve", str(path), "--max-nodes", "50000000", "--time-limit", "0.3"])
    out = capsys.readouterr().out
    assert code == 1 and "limit (time limit) pushes=None" in out and "lower_bound=" in out


def test_a_stopped_solve_says_which_bound_stopped_it():
    level = MICROBAN[143]  # optimum 36, far beyond these bounds
    by_states = Solver().solve(level, max_nodes=500, time_limit=60)
    assert (by_states.status, by_states.limit_by, by_states.nodes) == ("limit", "states", 500)
    assert by_states.elapsed_ms < 60_000
    by_time = Solver().solve(level, max_nodes=50_000_000, time_limit=0.3)
    assert (by_time.status, by_time.limit_by) == ("limit", "time")
    assert by_time.elapsed_ms >= 300 and by_time.to_dict()["limit_by"] == "time"
    assert Solver().solve(level, max_nodes=500).limit_by == "states"  # no clock at all
    solved = Solver().solve(MICROBAN[0])
    assert solved.solved and solved.limit_by is None
    token = Cancel()
    token.cancel()
    assert Solver().solve(level, cancel=token).limit_by is None  # cancelled: no limit

