"""Any-mode search effort on XSokoban under a node cap, without any clock: per level the
status, pushes, stored and expanded states; then the solved count and the expansions
summed over the solved levels. Run it on two branches with the same arguments to
compare their deadlock pruning (the counts do not depend on the machine or its load);
every solution is replayed.

    python asv_bench/report_sokoban_deadlocks.py --xsb XSokoban.xsb --nodes 200000 \
        [--levels 1-20] [--fess-only]

``--fess-only`` skips the packing stages and runs the feature-space search alone (the
search the deadlock tests of ``engine/sokoban_deadlock.py`` serve).
"""
import argparse

from levelforge.sokoban import Solver, load_xsb, replay
from report_sokoban_solve import _numbers


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--xsb", required=True, help="the XSokoban 90 XSB file (not bundled)")
    ap.add_argument("--levels", type=_numbers, default=None,
                    help="only these levels, numbered from 1 (e.g. 1,5,11-20)")
    ap.add_argument("--nodes", type=int, default=200_000, help="stored states per search")
    ap.add_argument("--fess-only", action="store_true", help="no packing stages")
    args = ap.parse_args(argv)
    levels = load_xsb(args.xsb)
    numbers = args.levels or list(range(1, len(levels) + 1))
    solver = Solver(max_nodes=args.nodes).warm_up()
    solver._stages = not args.fess_only
    print("| level | status | pushes | stored | expanded |")
    print("|---|---|---|---|---|")
    solved = []
    for k in numbers:
        level = levels[k - 1]
        r = solver.solve(level, optimal=False)
        if r.solved:
            assert replay(level, r.solution).is_solved, f"level {k}: solution does not replay"
            solved.append(r)
        print(f"| {k} | {r.status} | {r.pushes if r.solved else '-'} | {r.nodes} "
              f"| {r.expanded} |", flush=True)
    print(f"\nsolved {len(solved)}/{len(numbers)}, expanded on the solved levels: "
          f"{sum(r.expanded for r in solved)}")


if __name__ == "__main__":
    main()
