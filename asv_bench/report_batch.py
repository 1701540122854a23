"""Batch figures: throughput with 1 and 2 processes, batch-layer overhead in-process.

The ``jobs`` rows run the whole job as the CLI does (``batch.run(..., jobs=N)`` to a JSONL
file: levelforge's own worker processes, forked after the parent warmed the kernels, with
adaptive chunks and items streamed back); the executor rows run it on a
``ProcessPoolExecutor`` of 1 or 2 warmed workers (what an API user may pass).

    python asv_bench/report_batch.py [--items 3000] [--repeats 5]

Prints a markdown table: wall-clock seconds (best and median of ``--repeats`` runs, the runs
of the compared variants interleaved so that machine noise hits them alike) and CPU
seconds (best run; this process plus the ``jobs`` workers it reaped; the executor's
long-lived workers are not counted). The overhead ratios compare CPU seconds, which a busy
machine disturbs far less than wall-clock time; the speed-ups compare wall-clock time.
"""
import argparse
import os
import resource
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


def _cpu():
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def _timed(fn):
    """(wall s, cpu s) of ``fn()``."""
    t, c = time.perf_counter(), _cpu()
    fn()
    return time.perf_counter() - t, _cpu() - c


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
    best = {k: min(w for w, _ in v) for k, v in times.items()}
    med = {k: statistics.median(w for w, _ in v) for k, v in times.items()}
    cpu = {k: min(c for _, c in v) for k, v in times.items()}
    print(f"Sokoban {CONFIG['width']}x{CONFIG['height']}/{CONFIG['boxes']} boxes, "
          f"{n} items, {args.repeats} interleaved runs of each variant; load average "
          f"{os.getloadavg()[0]:.1f} at the end\n")
    print("| variant | best s | median s | items/s (best) | CPU s (best) | ratio |")
    print("|---|---:|---:|---:|---:|---|")
    ratios = {
        "bare loop": "1.00 (baseline)",
        "batch.generate": f"{cpu['batch.generate'] / cpu['bare loop']:.3f} x bare loop CPU",
        "batch.run to JSONL": f"{cpu['batch.run to JSONL'] / cpu['bare loop']:.3f} x bare loop "
                              "CPU",
        "jobs=1": f"{cpu['jobs=1'] / cpu['batch.run to JSONL']:.3f} x in-process batch.run CPU",
        "jobs=2": f"{best['jobs=1'] / best['jobs=2']:.2f} x jobs=1 speed",
        "executor, 1 process": f"{best['batch.run to JSONL'] / best['executor, 1 process']:.2f}"
                               " x in-process batch.run speed",
        "executor, 2 processes": f"{best['executor, 1 process'] / best['executor, 2 processes']:.2f}"
                                 " x 1-process executor speed"}
    for name, ratio in ratios.items():
        shown = f"{cpu[name]:.3f}" if not name.startswith("executor") else "-"
        print(f"| {name} | {best[name]:.3f} | {med[name]:.3f} | {n / best[name]:,.0f} "
              f"| {shown} | {ratio} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
