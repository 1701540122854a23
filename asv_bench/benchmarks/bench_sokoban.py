"""Sokoban benchmarks: generation per configuration, solving Microban levels (both modes).

Kernels are warmed up in ``setup``; seeds are fixed (``common.SEEDS_100``).
"""

from levelforge.sokoban import Generator, Solver, collections
from levelforge.sokoban.backward import backward_solve
from levelforge.sokoban.backward import warm_up as warm_up_backward

from .common import SEEDS_100

CONFIGS = {
    "7x7-2box-4-8": dict(width=7, height=7, boxes=2, pushes=(4, 8)),
    "10x10-4box-15-30": dict(width=10, height=10, boxes=4, pushes=(15, 30)),
}
MICROBAN_QUICK = [1, 2, 3, 4, 6, 8, 10, 16, 35, 36]


class Generate:
    """Time per level (one level of a fixed seed series per call) and in-target share."""

    params = list(CONFIGS)
    param_names = ["config"]

    def setup(self, config):
        self.gen = Generator(**CONFIGS[config]).warm_up()
        self.seeds = SEEDS_100 if config.startswith("7x7") else SEEDS_100[:20]
        self.i = 0

    def time_generate_one(self, config):
        self.gen.generate(self.seeds[self.i % len(self.seeds)])
        self.i += 1

    def track_in_target_percent(self, config):
        return 100.0 * sum(self.gen.generate(s).in_target for s in self.seeds) / len(self.seeds)

    track_in_target_percent.unit = "%"

    def track_median_ms(self, config):
        ms = sorted(self.gen.generate(s).elapsed_ms for s in self.seeds)
        return ms[len(ms) // 2]

    track_median_ms.unit = "ms"


class SolveMicroban:
    """Push-optimal solving of quick Microban levels (the full set: report_sokoban.py)."""

    params = MICROBAN_QUICK
    param_names = ["level"]

    def setup(self, level):
        self.level = collections.load("microban")[level - 1]
        self.solver = Solver(max_nodes=1_000_000).warm_up()

    def time_solve(self, level):
        self.solver.solve(self.level)

    def track_nodes(self, level):
        return self.solver.solve(self.level).nodes


class SolveAny:
    """Any solution (``optimal=False``) on Microban's largest levels (the big-level and
    XSokoban tables: report_sokoban_big.py)."""

    params = [107, 145, 155]
    param_names = ["level"]

    def setup(self, level):
        self.level = collections.load("microban")[level - 1]
        self.solver = Solver(max_nodes=2_000_000).warm_up()
        self.solver.solve(self.level, optimal=False, max_nodes=1000)  # its kernels too

    def time_solve_any(self, level):
        self.solver.solve(self.level, optimal=False)

    def track_pushes(self, level):
        return self.solver.solve(self.level, optimal=False).pushes


class BackwardSearch:
    """The any mode's backward search alone on Microban 144 (16 boxes), greedy (solved
    with about 4,200 stored states) and over feature cells (capped at 300,000 stored
    states: it runs to the cap), with no clock, so the same search on every machine;
    the XSokoban runs: report_backward.py."""

    params = ["greedy", "cells"]
    param_names = ["order"]

    def setup(self, order):
        warm_up_backward()
        self.level = collections.load("microban")[143]

    def time_backward(self, order):
        backward_solve(self.level, 300_000, cells=order == "cells")

    def track_nodes(self, order):
        return backward_solve(self.level, 300_000, cells=order == "cells")[2]


class WaypointSearch:
    """The any mode's waypoint search alone on Microban 151 with a backward part cut to
    200 states (so that it solves by way of a waypoint: about 4,600 stored states in all)
    and no clock, and its choice of waypoints among 300,000 greedy backward states of
    Microban 153 (which that search does not solve within them); the XSokoban runs:
    report_sokoban_solve.py --waypoint-turn."""

    def setup(self):
        import numpy as np
        from levelforge.cancel import Limit
        from levelforge.engine import sokoban_state as _s
        from levelforge.sokoban import waypoint
        from levelforge.sokoban.backward import WEIGHT, _pull_search
        from levelforge.sokoban.turns import drain
        self.waypoint, self.drain, self.Limit = waypoint, drain, Limit
        self.kept = waypoint.PULLS
        waypoint.PULLS = 200
        warm_up_backward()
        waypoint.warm_up()
        self.level = collections.load("microban")[150]
        self.solver = Solver(1_000_000)
        self.prepared = self.solver._prepare(self.level, 1_000_000, Limit(None), False)
        big = collections.load("microban")[152]
        board, boxes, player, _ = Solver()._prepare(big, 300_000, Limit(None), False)
        walls, goals, width = board[0], board[1], board[5]
        _, self.a, ctr = drain(_pull_search(walls, np.flatnonzero(goals).astype(np.int32),
                                            boxes, player, width, 300_000, Limit(None),
                                            WEIGHT, None, None, False, None))
        self.choice = (int(ctr[_s.C_NODES]), boxes.shape[0], walls, width, boxes)

    def teardown(self):
        self.waypoint.PULLS = self.kept

    def _search(self):
        board, boxes, player, _ = self.prepared
        return self.drain(self.waypoint.waypoint_steps(Solver(1_000_000), self.level, board,
                                                       boxes, player, 1_000_000,
                                                       self.Limit(None)))

    def time_waypoint_search(self):
        self._search()

    def track_nodes(self):
        return self._search()[2]

    def time_choice(self):
        nodes, nbox, walls, width, boxes = self.choice
        self.waypoint.waypoints(self.a.pool, nodes, nbox, walls, width, boxes)


class PushOptimalBothWays:
    """Push-optimal solves of Microban 144, whose backward bound reaches the optimum
    long before the forward one, with the backward search in turn (the default) and
    without (``solver.PULLS_FROM`` 0), each capped at 600,000 stored states and no
    clock: with it solved with 352,747 states, without it stopped at the cap; the
    ratio of the two times is what the turns buy there (report_sokoban_solve.py
    --microban prints the whole collection)."""

    params = [True, False]
    param_names = ["pulls"]

    def setup(self, pulls):
        from levelforge.sokoban import solver as solver_mod
        self.solver_mod = solver_mod
        self.kept = solver_mod.PULLS_FROM
        solver_mod.PULLS_FROM = self.kept if pulls else 0
        self.solver = Solver(max_nodes=600_000).warm_up()
        self.level = collections.load("microban")[143]
        warm_up_backward()

    def teardown(self, pulls):
        self.solver_mod.PULLS_FROM = self.kept

    def time_solve(self, pulls):
        self.solver.solve(self.level)

    def track_nodes(self, pulls):
        return self.solver.solve(self.level).nodes


class IncrementalMatching:
    """Push-optimal A* on Microban levels of 4 (99), 8 (93) and 16 (144) boxes, each
    capped at 100,000 states, with the children's matchings repaired from the parent's
    and solved from scratch (``Solver._incremental`` True and False; the solver's
    default picks by box count, ``solver.INCREMENTAL_FROM``): the same states, so the
    ratio of the two times is the matching's share (report_sokoban_matching.py prints
    it, ``--by-boxes`` per box count)."""

    params = ([99, 93, 144], [True, False])
    param_names = ["level", "incremental"]

    def setup(self, level, incremental):
        self.level = collections.load("microban")[level - 1]
        self.solver = Solver(max_nodes=100_000).warm_up()
        self.solver._incremental = incremental

    def time_astar(self, level, incremental):
        self.solver.solve(self.level)


class SolveMemory:
    """Peak memory of a push-optimal solve whose arrays grow many times (Microban 93:
    solved with about 900,000 stored states, no clock, so the same search on every
    machine); the long searches' figures: report_memory.py ``--ways none``."""

    timeout = 300

    def setup(self):
        self.level = collections.load("microban")[92]
        Solver().warm_up()

    def peakmem_solve_capped(self):
        Solver(max_nodes=1_000_000).solve(self.level)

    def track_nodes(self):
        return Solver(max_nodes=1_000_000).solve(self.level).nodes
