"""Batch figures: throughput with 1 and 2 processes, batch-layer overhead in-process.

The ``jobs`` rows run the whole job as the CLI does (``batch.run(..., jobs=N)`` to a JSONL
file: levelforge's own worker processes, forked after the parent warmed the kernels, with
adaptive chunks and items streamed back); the executor rows run it on a
``ProcessPoolExecutor`` of 1 or 2 warmed workers (what an API user may pass).

    python asv_bench/report_batch.py [--items 3000] [--repeats 5]

Prints a markdown table. Each figure is the median of ``--repeats`` runs, the runs of the
compared variants interleaved so that machine noise hits them alike.
"""
import argparse
import statistics
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor

from levelforge import batch
from levelforge.seeding import item_seed
from levelforge.sokoban import Generator

CONFIG = dict(width=7, height=7, boxes=2, pushes=(4, 8))


def _warm_worker(_):
    Generator(**CONFIG).warm_up()
    time.sleep(0.05)  # keep this worker busy so every worker gets a warm-up task


def _timed(fn):
    t = time.perf_counter()
    fn()
    return time.perf_counter() - t


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--items", type=int, default=3000)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--seed", type=int, default=20261130)
    args = ap.parse_args(argv)
    n, seed = args.items, args.seed
    gen = Generator(**CONFIG)
    gen.warm_up()

    def bare():
        for i in range(n):
            gen.generate(item_seed(seed, i))

    def layer():
        for _ in batch.generate(gen, n, seed):
            pass

    def to_file():
        with tempfile.TemporaryDirectory() as d:
            batch.run(gen, n, seed, f"{d}/out.jsonl", show_progress=False)

    pools = {k: ProcessPoolExecutor(k) for k in (1, 2)}
    for k, pool in pools.items():
        list(pool.map(_warm_worker, range(4 * k)))

    def jobs(k):
        def job():
            with tempfile.TemporaryDirectory() as d:
                batch.run(gen, n, seed, f"{d}/out.jsonl", jobs=k, show_progress=False)
        return job

    def pooled(k):
        def job():
            with tempfile.TemporaryDirectory() as d:
                batch.run(gen, n, seed, f"{d}/out.jsonl", executor=pools[k],
                          show_progress=False)
        return job

    runs = {"bare loop": bare, "batch.generate": layer, "batch.run to JSONL": to_file,
            "jobs=1": jobs(1), "jobs=2": jobs(2),
            "executor, 1 process": pooled(1), "executor, 2 processes": pooled(2)}
    times = {k: [] for k in runs}
    for _ in range(args.repeats):
        for name, fn in runs.items():
            times[name].append(_timed(fn))
    for pool in pools.values():
        pool.shutdown()
    best = {k: min(v) for k, v in times.items()}
    med = {k: statistics.median(v) for k, v in times.items()}
    print(f"Sokoban {CONFIG['width']}x{CONFIG['height']}/{CONFIG['boxes']} boxes, "
          f"{n} items, {args.repeats} interleaved runs of each variant; ratios of the best "
          "runs (the least disturbed by a noisy machine), medians alongside\n")
    print("| variant | best s | median s | items/s (best) | ratio |")
    print("|---|---:|---:|---:|---|")
    ratios = {
        "bare loop": "1.00 (baseline)",
        "batch.generate": f"{best['batch.generate'] / best['bare loop']:.3f} x bare loop time",
        "batch.run to JSONL": f"{best['batch.run to JSONL'] / best['bare loop']:.3f} x bare "
                              "loop time",
        "jobs=1": f"{best['jobs=1'] / best['batch.run to JSONL']:.3f} x in-process "
                  "batch.run time",
        "jobs=2": f"{best['jobs=1'] / best['jobs=2']:.2f} x jobs=1 speed",
        "executor, 1 process": f"{best['executor, 1 process'] / best['batch.run to JSONL']:.3f}"
                               " x in-process batch.run time",
        "executor, 2 processes": f"{best['executor, 1 process'] / best['executor, 2 processes']:.2f}"
                                 " x 1-process executor speed"}
    for name, ratio in ratios.items():
        print(f"| {name} | {best[name]:.3f} | {med[name]:.3f} | {n / best[name]:,.0f} "
              f"| {ratio} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
