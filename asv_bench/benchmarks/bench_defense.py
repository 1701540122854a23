"""Benchmarks of levelforge.defense: distance field (vs scipy.sparse.csgraph), cut cells,
whole-wave simulation, pair and campaign probes. Kernels are warmed up in setup."""
import dataclasses
from concurrent.futures import ProcessPoolExecutor

import numpy as np

from levelforge.defense import Defense, Scenario, probe_campaign, probe_pairs
from levelforge.defense.game import Rules
from levelforge.defense.pathing import CutWorkspace
from levelforge.engine.grid import bfs_distance

from .common import SEED

SIDE = 1000
REEFS = 0.25


def big_grid(side=SIDE, p=REEFS, seed=SEED):
    """A side x side grid with a fraction p of random reefs; the centre is free."""
    rng = np.random.default_rng(seed)
    blocked = (rng.random(side * side) < p).astype(np.uint8)
    target = (side // 2) * side + side // 2
    blocked[target] = 0
    return blocked, target


def csgraph_matrix(blocked, side):
    """The free-cell grid graph as a CSR matrix (built once, outside the timing)."""
    from scipy.sparse import coo_matrix
    free = (blocked == 0).reshape(side, side)
    idx = np.arange(side * side).reshape(side, side)
    h = free[:, :-1] & free[:, 1:]
    v = free[:-1, :] & free[1:, :]
    rows = np.concatenate([idx[:, :-1][h], idx[:-1, :][v]])
    cols = np.concatenate([idx[:, 1:][h], idx[1:, :][v]])
    return coo_matrix((np.ones(rows.size), (rows, cols)), shape=(side * side,) * 2).tocsr()


class DistanceField:
    """distance_field on 1000 x 1000 with 25% reefs, and scipy.sparse.csgraph baselines."""

    def setup(self):
        self.blocked, self.target = big_grid()
        n = self.blocked.size
        self.dist = np.empty(n, np.int32)
        self.queue = np.empty(n, np.int32)
        self.pad = np.empty((SIDE + 2) ** 2, np.int32)
        self.graph = csgraph_matrix(self.blocked, SIDE)
        self.time_distance_field()
        from scipy.sparse import csgraph
        ref = csgraph.shortest_path(self.graph, method="D", directed=False, unweighted=True,
                                    indices=self.target)
        assert (np.where(np.isinf(ref), -1, ref).astype(np.int32) == self.dist).all()

    def time_distance_field(self):
        bfs_distance(self.blocked, SIDE, self.target, self.dist, self.pad, self.queue)

    def time_scipy_csgraph_shortest_path(self):
        from scipy.sparse import csgraph
        csgraph.shortest_path(self.graph, method="D", directed=False, unweighted=True,
                              indices=self.target)

    def time_scipy_csgraph_breadth_first_order(self):
        # a BFS visit order and predecessors only (no distances): scipy's fastest traversal
        from scipy.sparse import csgraph
        csgraph.breadth_first_order(self.graph, self.target, directed=False,
                                    return_predecessors=True)


class CutCells:
    """cut_cells on the same grid, 100 random reachable sources."""

    def setup(self):
        self.blocked, self.target = big_grid()
        n = self.blocked.size
        dist = np.empty(n, np.int32)
        bfs_distance(self.blocked, SIDE, self.target, dist,
                         np.empty((SIDE + 2) ** 2, np.int32), np.empty(n, np.int32))
        rng = np.random.default_rng(SEED + 1)
        reach = np.flatnonzero(dist > 0)
        self.ws = CutWorkspace(SIDE, SIDE)
        self.ws.is_source[rng.choice(reach, 100, replace=False)] = 1
        self.time_cut_cells()

    def time_cut_cells(self):
        self.ws.run(self.blocked, self.target)


def play_plan(scenario, seed=0):
    """The scenario's reference plan (it wins all three waves) through the Defense API."""
    d = Defense(scenario, seed)
    for builds in scenario.plan:
        for x, y, kind in builds:
            d.place(x, y, kind)
        d.run_wave()
    return d


class Simulation:
    """One full three-wave game on the default map (API) and its three waves (kernel)."""

    def setup(self):
        self.scenario = Scenario.lighthouse()
        self.rules = Rules(self.scenario, 0)
        w = self.rules.width
        cells, cannon = [], []
        self.rows = []
        for builds in self.scenario.plan:
            cells += [y * w + x for x, y, _ in builds]
            cannon += [int(kind == "cannon") for _, _, kind in builds]
            self.rows.append(([list(cells)], [list(cannon)]))
        assert play_plan(self.scenario).phase == "victory"
        self.time_three_wave_kernel()

    def time_three_wave_game(self):
        play_plan(self.scenario)

    def time_three_wave_kernel(self):
        health = self.scenario.economy.beacon_health
        for wave, (row, cannon) in enumerate(self.rows, start=1):
            out = self.rules.run_rows(wave, row, cannon, [health])
            health = int(out[0, 1]) + 1


class Probes:
    """The pair probe in-process, and the full campaign probe on 2 worker processes."""
    timeout = 300

    def setup(self):
        self.scenario = Scenario.lighthouse()
        self.pairs = probe_pairs(self.scenario)
        few = dataclasses.replace(self.pairs, pairs=self.pairs.pairs[:10])
        probe_campaign(self.scenario, pairs=few)

    def time_pair_probe(self):
        probe_pairs(self.scenario)

    def time_campaign_probe_2_workers(self):
        with ProcessPoolExecutor(2) as ex:
            probe_campaign(self.scenario, (0, 1), ex)
