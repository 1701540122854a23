"""The feature-space search, then the backward search over pulls, each capped at the
same node count (no packing stages before them, no weighted A* after them), on XSokoban
levels: solved counts that do not depend on the machine or its load, for comparing
versions of :mod:`levelforge.engine.sokoban_fess`. ``--forward-only`` leaves the backward
search out (at 100,000 states it adds XSokoban 49 and 86 and most of the expansions).

    python asv_bench/report_fess.py --xsb XSokoban_90.xsb --levels 1-30 --nodes 50000

Prints one line per level (status, pushes, stored and expanded states) and a closing
table row; every solution is replayed. XSokoban is not bundled: pass any 90-level
"XSokoban" / "Original" XSB file.
"""
import argparse
import sys

from levelforge.sokoban import Solver, load_xsb, replay
from levelforge.sokoban.turns import finished
from report_sokoban_solve import _numbers


def fess_only(nodes, backward=True):
    """A solver whose ``optimal=False`` runs the feature-space search, then (``backward``)
    the backward search, and nothing else."""
    solver = Solver(max_nodes=nodes).warm_up()
    solver._stages = False
    solver._search = lambda *args: ("limit", None, 0, 0)  # no whole-level A* after it
    if not backward:
        solver._backward_steps = lambda *args, **kw: finished("limit", None, 0, 0)
    return solver


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--xsb", required=True, help="the XSokoban 90 XSB file (not bundled)")
    ap.add_argument("--levels", type=_numbers, default=None, help="e.g. 1,5,11-20")
    ap.add_argument("--nodes", type=int, default=50_000, help="stored states per level")
    ap.add_argument("--forward-only", action="store_true",
                    help="the feature-space search without the backward search after it")
    args = ap.parse_args(argv)
    levels = load_xsb(args.xsb)
    numbers = args.levels or list(range(1, len(levels) + 1))
    solver = fess_only(args.nodes, backward=not args.forward_only)
    solved, expanded = [], 0
    for k in numbers:
        r = solver.solve(levels[k - 1], optimal=False)
        if r.solved:
            assert replay(levels[k - 1], r.solution).is_solved, f"level {k} does not replay"
            solved.append(k)
        expanded += r.expanded
        print(f"level {k}: {r.status} pushes {r.pushes} nodes {r.nodes} "
              f"expanded {r.expanded}", flush=True)
    print(f"\n| levels | max_nodes | solved | expanded (all) |\n|---|---|---|---|\n"
          f"| {len(numbers)} | {args.nodes:,} | {len(solved)}/{len(numbers)} | {expanded:,} |")
    print(f"solved: {' '.join(map(str, solved)) or '-'}")


if __name__ == "__main__":
    sys.exit(main())
