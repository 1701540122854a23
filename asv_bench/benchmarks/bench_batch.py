"""Batch layer: overhead over a bare generate loop, and 1 vs 2 worker processes."""
import tempfile
from concurrent.futures import ProcessPoolExecutor

from levelforge import batch
from levelforge.seeding import item_seed
from levelforge.sokoban import Generator

from .common import SEED

N = 400


def _warm_pool(pool, n):
    list(pool.map(_warm_worker, range(4 * n)))


def _warm_worker(_):
    Generator(width=7, height=7, boxes=2, pushes=(4, 8)).warm_up()


class BatchOverhead:
    """In-process: the batch iterator against the loop a user would write."""

    def setup(self):
        self.gen = Generator(width=7, height=7, boxes=2, pushes=(4, 8))
        self.gen.warm_up()

    def time_bare_loop(self):
        for i in range(N):
            self.gen.generate(item_seed(SEED, i))

    def time_batch_generate(self):
        for _ in batch.generate(self.gen, N, SEED):
            pass


class BatchProcesses:
    """The whole job (batch.run to JSONL) on a process pool of 1 or 2 warmed workers."""

    params = [1, 2]
    param_names = ["processes"]
    timeout = 120

    def setup(self, processes):
        self.gen = Generator(width=7, height=7, boxes=2, pushes=(4, 8))
        self.pool = ProcessPoolExecutor(processes)
        _warm_pool(self.pool, processes)

    def teardown(self, processes):
        self.pool.shutdown()

    def time_run_2000_to_jsonl(self, processes):
        with tempfile.TemporaryDirectory() as d:
            batch.run(self.gen, 2000, SEED, f"{d}/out.jsonl", executor=self.pool,
                      show_progress=False)


class BatchJobs:
    """The whole job as the CLI runs it: batch.run with levelforge's own worker processes
    (forked after the parent warmed the kernels, adaptive chunks, items streamed back)."""

    params = [1, 2]
    param_names = ["jobs"]
    timeout = 120

    def setup(self, jobs):
        self.gen = Generator(width=7, height=7, boxes=2, pushes=(4, 8))
        self.gen.warm_up()

    def time_run_2000_to_jsonl(self, jobs):
        with tempfile.TemporaryDirectory() as d:
            batch.run(self.gen, 2000, SEED, f"{d}/out.jsonl", jobs=jobs, show_progress=False)
