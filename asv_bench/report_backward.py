"""The backward search alone, greedy and over feature cells, on XSokoban (or Microban)
levels under a node cap: solved counts that do not depend on the machine or its load.

    python asv_bench/report_backward.py --xsb XSokoban_90.xsb --levels 38,49,55 --nodes 1000000
    python asv_bench/report_backward.py --microban --levels 143-144 --nodes 300000
    python asv_bench/report_backward.py --xsb XSokoban_90.xsb --orders cells --nodes 2000000

Prints one line per level and order (status, pushes, stored and expanded states, seconds)
and a closing table; every solution is replayed. XSokoban is not bundled: pass any
90-level "XSokoban" / "Original" XSB file.
"""
import argparse
import sys
import time

from levelforge.sokoban import collections, load_xsb, replay
from levelforge.sokoban.backward import backward_solve, warm_up
from report_sokoban_solve import _numbers

ORDERS = (("greedy", False), ("cells", True))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--xsb", help="the XSokoban 90 XSB file (not bundled)")
    ap.add_argument("--microban", action="store_true", help="Microban 155 instead")
    ap.add_argument("--levels", type=_numbers, default=None, help="e.g. 1,5,11-20")
    ap.add_argument("--nodes", type=int, default=1_000_000, help="stored states per search")
    ap.add_argument("--orders", default="greedy,cells",
                    help="the orders to run, comma-separated (default: greedy,cells)")
    args = ap.parse_args(argv)
    asked, known = args.orders.split(","), dict(ORDERS)
    if set(asked) - known.keys():  # "" (an empty --orders) is no order either
        ap.error(f"--orders {args.orders}: name some of {', '.join(known)}")
    orders = [(name, cells) for name, cells in ORDERS if name in asked]
    if not args.xsb and not args.microban:
        ap.error("pass --xsb FILE or --microban")
    levels = collections.load("microban") if args.microban else load_xsb(args.xsb)
    numbers = args.levels or list(range(1, len(levels) + 1))
    warm_up()
    solved = {name: [] for name, _ in orders}
    for k in numbers:
        level = levels[k - 1]
        for name, cells in orders:
            t = time.perf_counter()
            status, solution, nodes, expanded = backward_solve(level, args.nodes, cells=cells)
            dt = time.perf_counter() - t
            pushes = "-"
            if status == "solved":
                assert replay(level, solution).is_solved, f"level {k} does not replay"
                solved[name].append(k)
                pushes = sum(ch.isupper() for ch in solution)
            print(f"{k} {name} {status} {pushes} {nodes} {expanded} {dt:.2f} s",
                  file=sys.stderr, flush=True)
    print(f"| backward search alone, max_nodes {args.nodes:,} | solved | levels |")
    print("|---|---|---|")
    for name, _ in orders:
        got = solved[name]
        print(f"| {name} | {len(got)}/{len(numbers)} | {' '.join(map(str, got)) or '-'} |")


if __name__ == "__main__":
    main()
