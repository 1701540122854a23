"""The feature-space search alone, started from states along a known solution: from which
push on it solves the level within a node cap, and how far it packs where it does not.

    python asv_bench/report_fess_along.py --xsb XSokoban_90.xsb --level 40 --solve 600 \
        --pushes 0,10,14-20,79 --nodes 1000000

The solution comes from ``--solution`` (a file holding a LURD string) or from the any
mode run for ``--solve`` seconds. Each start runs ``report_fess.fess_only`` without the
backward search, with the packing order of the level's own start (``--order start``,
the default, so that every start is guided by the same plan) or with the order the
search computes from that state (``--order own``). Prints one line per start: the
status, the stored states, and the entries of the order packed at that state and at
most by any state the search stored. Every solution found is replayed from its start.
"""
import argparse
import sys
from contextlib import contextmanager

import numpy as np

from levelforge.sokoban import Solver, load_xsb, replay
from levelforge.sokoban import fess
from report_fess import fess_only
from report_fess_furthest import orders_seen, packed, packed_states
from report_sokoban_solve import _numbers


def states_along(level, solution, pushes):
    """The states after each count of pushes in ``pushes`` along ``solution`` (LURD),
    as ``{count: Level}``; a count past the solution's pushes is an error."""
    ends = [i + 1 for i, letter in enumerate(solution) if letter.isupper()]
    bad = [k for k in pushes if not 0 <= k <= len(ends)]
    if bad:
        raise ValueError(f"the solution has {len(ends)} pushes, not {bad[0]}")
    return {k: replay(level, solution[:ends[k - 1] if k else 0]) for k in pushes}


@contextmanager
def forced_order(order):
    """Every feature-space search in the block packs in ``order`` (an int array of the
    kernels' order entries) instead of the order it would compute."""
    real = fess.packing_order
    fess.packing_order = lambda *args: np.array(order, np.int32)
    try:
        yield
    finally:
        fess.packing_order = real


def run_from(state, nodes, order=None):
    """The feature-space search alone from ``state`` (``order``: forced, or None for its
    own): ``(result, order, packed at the start, most packed by a stored state)``."""
    solver = fess_only(nodes, backward=False)
    with orders_seen() as seen:
        if order is None:
            result = solver.solve(state, optimal=False)
        else:
            with forced_order(order):
                result = solver.solve(state, optimal=False)
    used = list(order) if order is not None else [int(v) for v in seen[-1]]
    width = state.width
    start = packed({y * width + x for x, y in state.boxes}, used)
    most = len(used) if result.solved else max(
        (k for _, k in packed_states(solver.workspace, len(state.boxes), used)), default=0)
    return result, used, start, most


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--xsb", required=True, help="an XSB collection")
    ap.add_argument("--level", type=int, required=True, help="its number, from 1")
    how = ap.add_mutually_exclusive_group(required=True)
    how.add_argument("--solution", help="a file holding a LURD solution of the level")
    how.add_argument("--solve", type=float, metavar="SECONDS",
                     help="find the solution with the any mode first, in this time")
    ap.add_argument("--pushes", type=_numbers, required=True, help="e.g. 0,10,14-20")
    ap.add_argument("--nodes", type=int, default=1_000_000, help="states of each search")
    ap.add_argument("--order", choices=("start", "own"), default="start",
                    help="the packing order of the level's start, or each state's own")
    args = ap.parse_args(argv)
    level = load_xsb(args.xsb)[args.level - 1]
    if args.solution:
        with open(args.solution, encoding="utf-8") as f:
            solution = "".join(f.read().split())
    else:
        found = Solver(max_nodes=100_000_000).solve(level, optimal=False,
                                                    time_limit=args.solve)
        if not found.solved:
            sys.exit(f"level {args.level}: {found.status} within {args.solve} s")
        solution = found.solution
        print(f"level {args.level}: solved in {found.pushes} pushes, "
              f"{found.elapsed_ms / 1000:.1f} s", flush=True)
    if not replay(level, solution).is_solved:
        sys.exit("the solution does not solve the level")
    states = states_along(level, solution, args.pushes)
    order = None if args.order == "own" else run_from(level, 1000)[1]
    for k in args.pushes:
        result, used, start, most = run_from(states[k], args.nodes, order)
        if result.solved:
            assert replay(states[k], result.solution).is_solved, f"push {k}: no replay"
        print(f"push {k}: {result.status}, {result.nodes:,} stored; packs {start}/"
              f"{len(used)} entries at the start, {most} at most", flush=True)


if __name__ == "__main__":
    sys.exit(main())
