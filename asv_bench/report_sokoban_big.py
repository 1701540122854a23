"""Sokoban on big levels: solved counts and times for both solver modes.

    python asv_bench/report_sokoban_big.py [--generated 10] [--limit 60] [--quick 10]
                                           [--xsb FILE [--xsb-limit 60] [--xsb-only]
                                            [--levels 1,5,11-20]] [--mode any]
                                           [--json FILE]

Level sets:
1. Generated big levels: 20x20 rooms (outer wall included) with 10-15 boxes and 40
   inner walls, made by 200 random legal pulls from the solved room (the generator's
   own kernels), so each is solvable by construction; seeds ``item_seed(7, i)``.
2. Microban's five levels with the most boxes (bundled).
3. Optionally any XSB collection (``--xsb``), e.g. the standard 90-level XSokoban
   collection (Thinking Rabbit's levels: not redistributable, so not bundled; any
   Sokoban site's "XSokoban" / "Original" 90-level XSB file works).

Every level is solved push-optimally (``optimal=True``) and with ``optimal=False``,
each with a time limit; the table counts levels solved within ``--quick`` seconds and
within the limit, and every solution is replayed. For ``--xsb`` the numbers of the
levels solved and not solved follow the table (``--levels`` measures only those). First, the start-up cost: the first
solve in a fresh process with ``max_nodes=50_000_000``. Figures come from a shared
machine. ``--json FILE`` writes every level's status and time per set and mode, for
the chart of levels solved against the time limit.
"""
import argparse
import statistics
import subprocess
import sys

import numpy as np

import chartdata
from levelforge.engine import sokoban_state as Ks
from levelforge.engine import sokoban_generator as G
from levelforge.seeding import item_seed, kernel_seed
from levelforge.sokoban import Level, Solver, collections, load_xsb, replay


def pulled_level(seed, width=20, height=20, inner_walls=40, pulls=200):
    """A reverse-play level: the solved room, then ``pulls`` random legal pulls."""
    n = width * height
    rng = np.array([kernel_seed(seed)], np.uint64)
    boxes = 10 + int(kernel_seed(seed, 1) % np.uint64(6))
    walls, goals, occ = (np.zeros(n, np.uint8) for _ in range(3))
    stamp, ctr = np.zeros(n, np.int64), np.zeros(Ks.N_COUNTERS, np.int64)
    queue, cells, cand = np.zeros(n, np.int32), np.zeros(n, np.int32), np.zeros(4 * n, np.int32)
    player = G._build_room(width, height, boxes, inner_walls, rng, walls, goals, occ, stamp,
                           ctr, queue, cells)
    for _ in range(pulls):
        nxt = G._random_pull(walls, occ, width, player, rng, stamp, ctr, queue, cand)
        if nxt < 0:
            break
        player = nxt
    return Level.from_arrays(width, height, walls, goals, occ, player, title=f"seed {seed}")


FIRST_SOLVE = """
import levelforge.sokoban as s
r = s.solve(s.collections.load("microban")[{k}], max_nodes=50_000_000)
print(r.status, r.elapsed_ms)
"""


def first_solve_ms(levels=(0, 9, 49)):
    """``elapsed_ms`` of the first solve in a fresh process with ``max_nodes=50_000_000``
    (kernels compiled or cached before the timing starts): the cost of the tables."""
    out = []
    for k in levels:
        text = subprocess.run([sys.executable, "-c", FIRST_SOLVE.format(k=k)], check=True,
                              capture_output=True, text=True).stdout.split()
        out.append(f"Microban {k + 1}: {text[0]} in {float(text[1]):.1f} ms")
    return "; ".join(out)


def measure(levels, limit, max_nodes, modes):
    """Each level solved in each mode (True: push-optimal, False: any); every solution
    replayed. Progress goes to stderr, one line per level."""
    solver = Solver(max_nodes=max_nodes).warm_up()
    out = {}
    for optimal in modes:
        rows = []
        for k, level in enumerate(levels, 1):
            r = solver.solve(level, time_limit=limit, optimal=optimal)
            if r.solved:
                end = replay(level, r.solution)
                assert end.is_solved, level.title
            print(f"{'optimal' if optimal else 'any'} {k} {r.status} {r.pushes} "
                  f"{r.elapsed_ms:.0f} ms", file=sys.stderr, flush=True)
            rows.append(r)
        out[optimal] = rows
    return out


def table(name, levels, res, quick):
    lines = []
    for optimal in res:
        rows = res[optimal]
        solved = [r for r in rows if r.solved]
        fast = [r for r in solved if r.elapsed_ms <= quick * 1000]
        unsolvable = sum(r.status == "unsolvable" for r in rows)
        med = statistics.median(r.elapsed_ms for r in solved) if solved else float("nan")
        mean_pushes = statistics.fmean(r.pushes for r in solved) if solved else float("nan")
        lines.append(f"| {name} ({len(levels)}) | {'push-optimal' if optimal else 'any (optimal=False)'} "
                     f"| {len(fast)}/{len(levels)} | {len(solved)}/{len(levels)} | {unsolvable} "
                     f"| {med:.0f} | {mean_pushes:.1f} |")
    return lines


def _numbers(text):
    """``1,5,11-20`` -> [1, 5, 11, ..., 20]."""
    out = []
    for part in text.split(","):
        lo, _, hi = part.partition("-")
        out.extend(range(int(lo), int(hi or lo) + 1))
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--generated", type=int, default=10)
    ap.add_argument("--limit", type=float, default=60.0)
    ap.add_argument("--quick", type=float, default=10.0)
    ap.add_argument("--max-nodes", type=int, default=50_000_000)
    ap.add_argument("--xsb", help="an XSB collection to measure too (e.g. XSokoban)")
    ap.add_argument("--xsb-limit", type=float, default=None,
                    help="time limit per level for --xsb (default: --limit)")
    ap.add_argument("--xsb-only", action="store_true", help="measure only the --xsb file")
    ap.add_argument("--levels", type=_numbers, default=None,
                    help="only these levels of --xsb, numbered from 1 (e.g. 1,5,11-20)")
    ap.add_argument("--mode", choices=("both", "optimal", "any"), default="both")
    ap.add_argument("--json", metavar="FILE", help="write each level's result as JSON")
    args = ap.parse_args(argv)
    runs = []
    sets = []
    if not args.xsb_only:
        sets.append(("generated 20x20, 10-15 boxes",
                     [pulled_level(item_seed(7, i)) for i in range(args.generated)], args.limit,
                     None))
        micro = collections.load("microban")
        biggest = sorted(range(len(micro)), key=lambda k: (-len(micro[k].boxes), k))[:5]
        sets.append((f"Microban {', '.join(str(k + 1) for k in sorted(biggest))}",
                     [micro[k] for k in sorted(biggest)], args.limit, None))
    if args.xsb:
        levels = load_xsb(args.xsb)
        numbers = args.levels or list(range(1, len(levels) + 1))
        sets.append((args.xsb.rsplit("/", 1)[-1], [levels[k - 1] for k in numbers],
                     args.xsb_limit or args.limit, numbers))
    print(f"| levels | mode | solved within {args.quick:g} s | solved within the limit | "
          f"proved unsolvable | median ms (solved) | mean pushes (solved) |")
    print("|---|---|---|---|---|---|---|")
    modes = {"both": (True, False), "optimal": (True,), "any": (False,)}[args.mode]
    if not args.xsb_only:
        print(f"First solve in a fresh process, max_nodes=50,000,000: {first_solve_ms()}\n")
    for name, levels, limit, numbers in sets:
        res = measure(levels, limit, args.max_nodes, modes)
        for optimal, rows in res.items():
            runs.append({"set": name, "mode": "push-optimal" if optimal else "any",
                         "limit_s": limit, "levels": numbers or list(range(1, len(rows) + 1)),
                         "status": [r.status for r in rows],
                         "elapsed_ms": [round(r.elapsed_ms, 3) for r in rows],
                         "pushes": [r.pushes for r in rows]})
        print("\n".join(table(f"{name}, limit {limit:g} s", levels, res, args.quick)),
              flush=True)
        for optimal, rows in (res.items() if numbers else ()):
            mode = "push-optimal" if optimal else "any"
            for label, pick in (("solved", True), ("not solved", False)):
                listed = [k for k, r in zip(numbers, rows) if r.solved == pick]
                print(f"{name}, {mode}, {label} ({len(listed)}): "
                      f"{' '.join(map(str, listed)) or '-'}", flush=True)
    chartdata.save(args.json, {"runs": runs})


if __name__ == "__main__":
    main()
