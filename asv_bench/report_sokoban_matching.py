"""The incremental matching of the best-first searches, against solving every child's
matching from scratch, as a markdown table (single process, one core).

    python asv_bench/report_sokoban_matching.py [--nodes 100000] [--repeats 3]
                                                [--xsb XSokoban_90.xsb --levels 1,10]
    python asv_bench/report_sokoban_matching.py --by-boxes [--generated 200]
                                                [--xsb XSokoban_90.xsb --levels 1-40]

Each row solves one level push-optimally (A*, capped at ``--nodes`` stored states, no
time limit) twice per repeat, with ``Solver._incremental`` False (the baseline: the
matching solved from scratch, ``O(n^3)`` a child) and True (repaired from the expanded
state's, ``O(n^2)`` a changed row), and checks that both store and expand the same states
and find the same solution. Times are medians of the repeats; the ratio is baseline over
incremental in the same run. Microban's many-box levels always; XSokoban levels when an
XSB file is given (it is not bundled).

``--by-boxes`` instead sums the time spent in the search kernel (``search_run``) per box
count over every Microban level but 144 (and the XSokoban levels given, and
``--generated`` 10x10 levels of 4 boxes from the generator, Boxoban's size), each level
the least of ``--repeats`` runs per matching: where the repair stops paying
(:data:`levelforge.sokoban.solver.INCREMENTAL_FROM`).
"""
import collections as _collections
import argparse
import statistics
import sys
import time

from levelforge.sokoban import Generator, Solver, collections, load_xsb
from levelforge.sokoban import solver as _solver

MICROBAN_ROWS = [93, 105, 107, 143, 144]


def _numbers(text):
    out = []
    for part in text.split(","):
        a, _, b = part.partition("-")
        out += list(range(int(a), int(b or a) + 1))
    return out


def measure(solver, level, repeats):
    """``(result, baseline seconds, incremental seconds)`` of one level."""
    times = {False: [], True: []}
    seen = {}
    for _ in range(repeats):
        for incremental in (False, True):
            solver._incremental = incremental
            t = time.perf_counter()
            r = solver.solve(level)
            times[incremental].append(time.perf_counter() - t)
            seen[incremental] = (r.status, r.nodes, r.expanded, r.solution)
    assert seen[True] == seen[False], "the two matchings searched differently"
    return r, statistics.median(times[False]), statistics.median(times[True])


def kernel_seconds(level, incremental, nodes, repeats):
    """The least time over ``repeats`` solves of ``level`` spent in ``search_run``."""
    spent = [0.0]
    run = _solver._k.search_run

    def timed(*args):
        t = time.perf_counter()
        out = run(*args)
        spent[0] += time.perf_counter() - t
        return out

    _solver._k.search_run = timed
    try:
        best = None
        for _ in range(repeats):
            solver = Solver(max_nodes=nodes)
            solver._incremental = incremental
            spent[0] = 0.0
            solver.solve(level)
            best = spent[0] if best is None else min(best, spent[0])
        return best
    finally:
        _solver._k.search_run = run


def by_boxes(args):
    """The ``--by-boxes`` table (see the module docstring)."""
    levels = [lv for k, lv in enumerate(collections.load("microban"), 1) if k != 144]
    if args.xsb:
        xsb = load_xsb(args.xsb)
        levels += [xsb[k - 1] for k in _numbers(args.levels)]
    if args.generated:
        gen = Generator(width=10, height=10, boxes=4, pushes=(15, 30))
        levels += [gen.generate(s).level for s in range(args.generated)]
    Solver(max_nodes=1000).warm_up()
    groups = _collections.defaultdict(lambda: [0, 0.0, 0.0])
    for level in levels:
        g = groups[len(level.boxes)]
        g[0] += 1
        g[1] += kernel_seconds(level, False, args.nodes, args.repeats)
        g[2] += kernel_seconds(level, True, args.nodes, args.repeats)
    print(f"| boxes | levels | from scratch s | incremental s | ratio (scratch / incremental) |")
    print("|---|---|---|---|---|")
    for boxes in sorted(groups):
        n, base, inc = groups[boxes]
        print(f"| {boxes} | {n} | {base:.3f} | {inc:.3f} | {base / inc:.2f}x |", flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--nodes", type=int, default=100_000)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--xsb", help="an XSokoban 90 XSB file (not bundled)")
    ap.add_argument("--levels", default="1,2,6,10,38,78", help="levels of --xsb")
    ap.add_argument("--by-boxes", action="store_true", help="kernel time per box count")
    ap.add_argument("--generated", type=int, default=0,
                    help="with --by-boxes: also this many generated 10x10 4-box levels")
    args = ap.parse_args()
    if args.by_boxes:
        return by_boxes(args)
    solver = Solver(max_nodes=args.nodes).warm_up()
    rows = [(f"Microban {k}", collections.load("microban")[k - 1]) for k in MICROBAN_ROWS]
    if args.xsb:
        xsb = load_xsb(args.xsb)
        rows += [(f"XSokoban {k}", xsb[k - 1]) for k in _numbers(args.levels)]
    print(f"| level (push-optimal A*, max_nodes {args.nodes:,}) | boxes | status | stored "
          f"| from scratch s | incremental s | ratio |")
    print("|---|---|---|---|---|---|---|")
    for name, level in rows:
        r, base, inc = measure(solver, level, args.repeats)
        print(f"| {name} | {len(level.boxes)} | {r.status} | {r.nodes:,} | {base:.3f} "
              f"| {inc:.3f} | {base / inc:.2f}x |", flush=True)
        print(f"{name} done", file=sys.stderr, flush=True)


if __name__ == "__main__":
    main()
