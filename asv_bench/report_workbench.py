"""Figures of issue 21 (the designer's workbench): how long each live answer takes, as
markdown tables.

Run from the repository root:  python asv_bench/report_workbench.py [--tiny]

1. Sokoban: ``sokoban.check`` (validity, dead squares, the push-optimal solver with the
   editor's 2 s limit) on Microban levels: median, p90 and max ms, solved and limit counts.
2. Symmetry: ``symmetry.check`` (the counting search up to two solutions) on 7x7 boards:
   generated puzzles (proved unique) and designer-like boards (random conditions on A
   and B): median, p90 and max ms, and the answers.
3. The Last Lighthouse: ``defense.balance`` on the lighthouse (eight pieces, as the page
   runs it), ``--repeats`` times: median and each run's seconds; the facts that hold.

Kernels are compiled or loaded before any timing. ``--tiny`` checks the script in a
minute on 3 Microban levels, 2 boards of each kind at 5x5 and one piece of the balance
report. The machine may be shared: the lead measures on a quiet one.
"""
import argparse
import os
import platform
import statistics
import sys
import time

import numpy as np

from levelforge import defense, sokoban, symmetry
from levelforge.seeding import item_seed

SEED = 20261201


def _row(times):
    times = sorted(times)
    p90 = times[min(len(times) - 1, int(round(0.9 * (len(times) - 1))))]
    return f"{statistics.median(times):.1f} | {p90:.1f} | {times[-1]:.1f}"


def sokoban_table(levels, time_limit):
    print(f"## Sokoban: `sokoban.check` on Microban levels 1-{levels} "
          f"(time limit {time_limit:g} s)\n")
    microban = sokoban.collections.load("microban")[:levels]
    sokoban.check(microban[0])  # compile or load the kernels
    times, status = [], {}
    for level in microban:
        t = time.perf_counter()
        c = sokoban.check(level, time_limit=time_limit)
        times.append((time.perf_counter() - t) * 1e3)
        status[c.status] = status.get(c.status, 0) + 1
    print("| levels | median ms | p90 ms | max ms | answers |")
    print("|---|---|---|---|---|")
    print(f"| {len(times)} | {_row(times)} | "
          f"{', '.join(f'{k} {v}' for k, v in sorted(status.items()))} |\n")


def _designer_board(size, rng):
    """Random start and goal, up to three required points and four forbidden edges on
    each board (B mirrors A's start and goal)."""
    points = [(x, y) for y in range(size) for x in range(size)]
    s, g = (points[i] for i in rng.choice(len(points), 2, replace=False))
    edges = [((x, y), (x + 1, y)) for y in range(size) for x in range(size - 1)] + \
            [((x, y), (x, y + 1)) for y in range(size - 1) for x in range(size)]

    def board(start, goal):
        req = {points[i] for i in rng.choice(len(points), int(rng.integers(0, 4)))}
        forb = {edges[i] for i in rng.choice(len(edges), int(rng.integers(0, 5)))}
        return symmetry.Board(size, start, goal, req, forb)

    mirror = lambda p: (size - 1 - p[0], p[1])  # noqa: E731
    return symmetry.Puzzle(size, board(s, g), board(mirror(s), mirror(g)))


def symmetry_table(size, generated, designed):
    print(f"## Symmetry: `symmetry.check` on {size}x{size} boards\n")
    print("| boards | count | median ms | p90 ms | max ms | answers |")
    print("|---|---|---|---|---|---|")
    puzzles = [symmetry.generate(size, item_seed(SEED, i)) for i in range(generated)]
    rng = np.random.default_rng(SEED)
    boards = [_designer_board(size, rng) for _ in range(designed)]
    symmetry.check(puzzles[0] if puzzles else boards[0])  # compile or load the kernels
    for name, items in (("generated (unique)", puzzles), ("designer-like", boards)):
        if not items:
            continue
        times, answers = [], {}
        for p in items:
            t = time.perf_counter()
            a = symmetry.check(p)
            times.append((time.perf_counter() - t) * 1e3)
            answers[a.status] = answers.get(a.status, 0) + 1
        print(f"| {name} | {len(items)} | {_row(times)} | "
              f"{', '.join(f'{k} {v}' for k, v in sorted(answers.items()))} |")
    print()


def balance_table(repeats, parts, only_first):
    s = defense.Scenario.lighthouse()
    label = "its first piece only" if only_first else f"{parts} pieces"
    print(f"## The Last Lighthouse: `defense.balance` on the lighthouse ({label})\n")
    defense.balance_part(s, 0, 64)  # compile or load the kernels
    runs, facts = [], None
    for _ in range(repeats):
        t = time.perf_counter()
        if only_first:
            piece = defense.balance_part(s, 0, parts)
            facts = f"piece 0: {piece.surviving_pairs} of {piece.legal_pairs} openings survive"
        else:
            r = defense.balance(s, parts=parts)
            facts = f"{sum(f.holds is True for f in r.facts)} of {len(r.facts)} facts hold"
        runs.append(time.perf_counter() - t)
    print("| runs | median s | each run s | result |")
    print("|---|---|---|---|")
    print(f"| {len(runs)} | {statistics.median(runs):.2f} | "
          f"{', '.join(f'{x:.2f}' for x in runs)} | {facts} |\n")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tiny", action="store_true", help="a quick check of the script")
    ap.add_argument("--microban", type=int, default=155, help="Microban levels 1..N")
    ap.add_argument("--time-limit", type=float, default=2.0, help="Sokoban check limit, s")
    ap.add_argument("--generated", type=int, default=20, help="generated 7x7 puzzles")
    ap.add_argument("--designed", type=int, default=200, help="designer-like 7x7 boards")
    ap.add_argument("--repeats", type=int, default=3, help="balance reports to time")
    args = ap.parse_args(argv)
    print(f"# Workbench figures ({platform.python_version()}, {platform.machine()}, "
          f"{os.cpu_count()} cores)\n")
    if args.tiny:
        sokoban_table(3, args.time_limit)
        symmetry_table(5, 2, 2)
        balance_table(1, 8, only_first=True)
    else:
        sokoban_table(args.microban, args.time_limit)
        symmetry_table(7, args.generated, args.designed)
        balance_table(args.repeats, 8, only_first=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
