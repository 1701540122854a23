"""Benchmarks of levelforge.symmetry: whole-puzzle generation per size, the counting DFS,
and the Boolean against the integer Z3 path encoding. Kernels are warmed up in setup."""
from statistics import median

from levelforge.seeding import item_seed
from levelforge.symmetry import Board, Generator
from levelforge.symmetry.board import Workspace, board_arrays
from levelforge.symmetry.zpath import solve_path

from .common import SEED

# puzzles per size for the tracked medians (9x9 takes about a second each)
SAMPLES = {5: 30, 7: 20, 9: 8}


class GenerateSymmetry:
    """One puzzle at a fixed seed (time_) and the median over fixed seeds (track_)."""

    params = [5, 7, 9]
    param_names = ["size"]
    timeout = 300

    def setup(self, size):
        self.gen = Generator(size)
        self.gen.warm_up()

    def time_generate_one(self, size):
        self.gen.generate(item_seed(SEED, 0))

    def track_median_ms(self, size):
        return median(self.gen.generate(item_seed(SEED, i)).elapsed_ms
                      for i in range(SAMPLES[size]))

    track_median_ms.unit = "ms"


class CountingDFS:
    """The counting DFS over every corner-to-corner path of an empty 6x6 board (1262816
    paths, 6.7 million nodes): the raw node rate of the kernel."""

    def setup(self):
        self.ws = Workspace(6, max_solutions=0)
        self.arrays = board_arrays(Board(6, (0, 0), (5, 5)), self.ws)
        self.ws.count(*self.arrays, 10**9, 10**12)

    def time_count_6x6(self):
        self.ws.count(*self.arrays, 10**9, 10**12)

    def track_nodes_per_second(self):
        from levelforge.timing import ms_since, now_ns
        t = now_ns()
        _, nodes, _, _ = self.ws.count(*self.arrays, 10**9, 10**12)
        return nodes / ms_since(t) * 1e3

    track_nodes_per_second.unit = "nodes/s"


class Z3Encoding:
    """A 4x4 Hamiltonian path and a 15-point 5x5 path: one Boolean per (step, point) with
    cardinality constraints against one integer pair per step with ``distinct``."""

    params = [["bool", "int"], ["4x4 L16", "5x5 L15"]]
    param_names = ["encoding", "case"]
    timeout = 120
    CASES = {"4x4 L16": (4, (0, 0), (3, 0), 16), "5x5 L15": (5, (0, 0), (4, 0), 15)}

    def setup(self, encoding, case):
        solve_path(3, (0, 0), (2, 2), 9, encoding=encoding)

    def time_solve(self, encoding, case):
        size, start, goal, length = self.CASES[case]
        solve_path(size, start, goal, length, seed=1, encoding=encoding)
