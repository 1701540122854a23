"""Figures of issue 3 (symmetry line puzzles) as markdown tables.

Run from the repository root:  python asv_bench/report_symmetry.py [--quick] [--traps N]
                                  [--sizes 5:100,7:50,9:20] [--only-generation] [--json FILE]

1. Generation per size (5x5, 7x7, 9x9, or ``--sizes SIZE:PUZZLES,...``): median and p90
   ms per puzzle, stage medians, share of time in Z3 and in the counting DFS, DFS nodes
   per second, proof figures. ``--json FILE`` writes every puzzle's wall-clock and CPU
   ms per size, for the chart of generation time against board size.
2. The counting DFS's raw node rate (every corner-to-corner path of an empty 6x6 board).
3. Z3 encodings: one Boolean per (step, point) with cardinality constraints against one
   integer pair per step with ``distinct``, on the same path problems.
4. With ``--traps N``: N puzzles per size 5-9 (every strategy in turn): the trap pairs
   they keep (two required points, lattice neighbours, not consecutive on the answer),
   the pairs dropped to reach uniqueness, and a check that no trap pair's edge is
   forbidden on A, on B or on the master board and that each puzzle is unique.
Seeds are fixed (item_seed(20261130, i)); the machine is shared, so times are noisy:
the generation table also gives the CPU time of this process (less sensitive to load).
"""
import argparse
import os
import platform
import sys
import time
from statistics import median

import numpy as np

import chartdata
from levelforge.seeding import item_seed
from levelforge.symmetry import Board, Generator, Strategy, count_solutions
from levelforge.symmetry.board import Workspace, board_arrays, mirror_edge, mirror_point
from levelforge.symmetry.zpath import solve_path
from levelforge.timing import ms_since, now_ns

SEED = 20261130
TARGET_MS = {5: 20, 7: 250, 9: 5000}


def generation(sizes, chart=None):
    """The generation table; each size's wall-clock and CPU ms go into ``chart``."""
    print("## Generation (ms per puzzle, one process)\n")
    print("| size | puzzles | median | p90 | max | target | CPU ms (median) | path (Z3) "
          "| required | uniqueness | reduction | proof+figures | A/B split | Z3 share "
          "| DFS share | DFS nodes/s | proof nodes (median) | branch points (mean) "
          "| required+forbidden (mean) |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for size, count in sizes:
        gen = Generator(size)
        gen.warm_up()
        recs, cpu = [], []
        for i in range(count):
            t = time.process_time()
            recs.append(gen.generate(item_seed(SEED, i)).to_dict())
            cpu.append(1e3 * (time.process_time() - t))
        s = Generator.summarize(recs)
        ms = np.array([r["elapsed_ms"] for r in recs])
        if chart is not None:
            chart.append({"size": size, "ms": [round(float(v), 3) for v in ms],
                          "cpu_ms": [round(v, 3) for v in cpu]})
        z3_ms = sum(r["timings"]["z3"] for r in recs)
        dfs_ms = sum(r["timings"]["dfs"] for r in recs)
        dfs_rate = sum(r["difficulty"]["dfs_nodes_total"] for r in recs) / dfs_ms * 1e3
        med = lambda k: median(r["timings"][k] for r in recs)  # noqa: E731
        proof = median(r["difficulty"]["proof_nodes"] for r in recs)
        items = np.mean([r["difficulty"]["required"] + r["difficulty"]["forbidden"]
                         for r in recs])
        print(f"| {size}x{size} | {count} | {np.median(ms):.1f} | {np.percentile(ms, 90):.1f} "
              f"| {ms.max():.1f} | {f'<= {TARGET_MS[size]}' if size in TARGET_MS else '-'} | {median(cpu):.1f} "
              f"| {med('path'):.1f} "
              f"| {med('required'):.2f} | {med('uniqueness'):.1f} | {med('reduction'):.1f} "
              f"| {med('proof'):.1f} | {med('split'):.1f} | {100 * z3_ms / ms.sum():.0f}% | {100 * dfs_ms / ms.sum():.0f}% "
              f"| {dfs_rate / 1e6:.2f} M | {proof:.0f} "
              f"| {s['mean_branch_points']:.1f} | {items:.1f} |", flush=True)
    print()


def kernel_rate():
    ws = Workspace(6, max_solutions=0)
    arrays = board_arrays(Board(6, (0, 0), (5, 5)), ws)
    ws.count(*arrays, 10**9, 10**12)
    runs = []
    for _ in range(3):
        t = now_ns()
        count, nodes, _, _ = ws.count(*arrays, 10**9, 10**12)
        runs.append((ms_since(t), nodes, count))
    best = min(runs)
    print("## Counting DFS raw rate\n")
    print("| board | solutions | nodes | ms (best of 3) | nodes/s |")
    print("|---|---|---|---|---|")
    print(f"| empty 6x6, corner to corner | {best[2]} | {best[1]} | {best[0]:.0f} "
          f"| {best[1] / best[0] / 1e3:.1f} M |\n", flush=True)


def encodings(quick):
    cases = [(4, (0, 0), (3, 0), 16), (5, (0, 0), (4, 0), 15), (5, (0, 0), (4, 0), 25),
             (6, (0, 0), (5, 0), 20)]
    if not quick:
        cases.append((7, (0, 0), (6, 0), 25))
    rlimit = 100_000_000
    print(f"## Z3 encodings (same path problems; Z3 rlimit {rlimit:,} for both, median of 3 "
          "seeds)\n")
    print("| board | path points | Boolean ms | Boolean status | integer ms | integer status "
          "| integer / Boolean |")
    print("|---|---|---|---|---|---|---|")
    for size, start, goal, length in cases:
        row = {}
        for enc in ("bool", "int"):
            res = [solve_path(size, start, goal, length, seed=s, rlimit=rlimit, encoding=enc)
                   for s in (1, 2, 3)]
            row[enc] = (median(r.build_ms + r.check_ms for r in res),
                        "/".join(sorted({r.status for r in res})))
        ratio = row["int"][0] / row["bool"][0]
        more = ">= " if row["int"][1] != "sat" else ""
        print(f"| {size}x{size} | {length} | {row['bool'][0]:.1f} | {row['bool'][1]} "
              f"| {row['int'][0]:.0f} | {row['int'][1]} | {more}{ratio:.0f}x |", flush=True)
    print()


def _traps(size, required, answer):
    """Edges joining two required points that are lattice neighbours but not consecutive
    on the answer (trap pairs)."""
    steps = {frozenset(e) for e in zip(answer, answer[1:])}
    out = set()
    for x, y in required:
        for q in ((x + 1, y), (x, y + 1)):
            if q in required and frozenset(((x, y), q)) not in steps:
                out.add(((x, y), q))
    return out


def traps(count):
    print(f"## Trap pairs ({count} puzzles per size, every strategy in turn)\n")
    print("| size | puzzles | trap pairs kept (mean) | puzzles with one or more | pairs "
          "dropped for uniqueness (puzzles) | trap edges forbidden on A / B / master "
          "| unique |")
    print("|---|---|---|---|---|---|---|")
    strategies = list(Strategy)
    for size in range(5, 10):
        gens = [Generator(size, st) for st in strategies]
        gens[0].warm_up()
        kept, dropped, forbidden, unique = [], [], [0, 0, 0], 0
        for i in range(count):
            p = gens[i % len(gens)].generate(item_seed(SEED + 1, size * 10_000 + i))
            m = p.master()
            t = _traps(size, m.required, list(p.solution))
            kept.append(len(t))
            dropped.append(p.difficulty.get("trap_pairs_dropped", 0))
            on_b = {mirror_edge(e, size) for e in t}
            forbidden[0] += len(t & p.board_a.forbidden)
            forbidden[1] += len(on_b & p.board_b.forbidden)
            forbidden[2] += len(t & m.forbidden)
            unique += count_solutions(m) == 1 and p.check(p.solution)
            assert {mirror_point(q, size) for q in p.board_b.required} <= m.required
        print(f"| {size}x{size} | {count} | {np.mean(kept):.2f} | "
              f"{sum(k > 0 for k in kept)} | {sum(dropped)} ({sum(d > 0 for d in dropped)}) "
              f"| {' / '.join(map(str, forbidden))} | {unique}/{count} |", flush=True)
    print()


def _sizes(text):
    """``5:100,7:50`` -> [(5, 100), (7, 50)]."""
    return [tuple(int(v) for v in part.split(":")) for part in text.split(",")]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer puzzles, fewer Z3 cases")
    ap.add_argument("--traps", type=int, default=0, metavar="N",
                    help="also the trap-pair table over N puzzles per size 5-9")
    ap.add_argument("--only-traps", action="store_true", help="skip the timing tables")
    ap.add_argument("--sizes", type=_sizes, default=None, metavar="SIZE:PUZZLES,...",
                    help="the generation table's sizes and puzzle counts")
    ap.add_argument("--only-generation", action="store_true",
                    help="the generation table only")
    ap.add_argument("--json", metavar="FILE", help="write the generation times as JSON")
    args = ap.parse_args()
    sizes = args.sizes or ([(5, 20), (7, 10), (9, 5)] if args.quick
                           else [(5, 100), (7, 50), (9, 20)])
    print(f"# levelforge.symmetry figures ({platform.python_version()}, "
          f"{os.cpu_count()} CPUs shared with other jobs; times are noisy)\n")
    if not args.only_traps:
        chart = []
        generation(sizes, chart)
        chartdata.save(args.json, {"generation": chart})
        if not args.only_generation:
            kernel_rate()
            encodings(args.quick)
    if args.traps:
        traps(args.traps)
    return 0


if __name__ == "__main__":
    sys.exit(main())
