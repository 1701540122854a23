"""How much of the feature-space search's work goes to pair deadlocks: the search alone
(no packing stages, no backward search, no A* after it) with ``fess.PAIRS`` off, then
on, capped at a node count, and the share of its stored states in which two boxes have
no two-box solution (:func:`levelforge.engine.sokoban_pairs.pair_dead`, by the pair
database of the level's start, :func:`levelforge.sokoban.bound.pair_table`).

    python asv_bench/report_pair_deadlocks.py --xsb XSokoban_90.xsb --levels 16,24,40 --nodes 100000

With pair deadlocks on, the share must be 0: the search stores no such state.
"""
import argparse
import sys
import time

import numpy as np

from levelforge.engine import sokoban_state as _s
from levelforge.engine.sokoban_pairs import pair_dead
from levelforge.sokoban import Level, fess, load_xsb
from levelforge.sokoban.bound import pair_table
from report_fess import fess_only
from report_fess_furthest import sealed_boxes
from report_sokoban_solve import _numbers


def dead_pair_states(ws, nbox, pdb):
    """``(stored states, states with a dead pair by the table pdb)`` of the search left
    in the solver workspace ``ws`` (``nbox`` boxes)."""
    stored = dead = 0
    for j in range(int(ws.ctr[_s.C_NODES])):
        if ws.nplayer[j] < 0:  # a push on a macro's or tunnel's way, not a stored state
            continue
        stored += 1
        wbox = ws.pool[j * nbox:(j + 1) * nbox].astype(np.int32)
        player = int(ws.nplayer[j])
        dead += any(pair_dead(pdb, wbox, nbox, int(c), player) for c in wbox)
    return stored, dead


def dead_pair_share(level, nodes, pairs, pdb):
    """``(status, stored states, states with a dead pair)`` of the feature-space search
    alone on ``level`` with ``nodes`` states, pair deadlocks ``pairs`` on or off, by
    the level's table ``pdb``."""
    fess.PAIRS = pairs
    try:
        solver = fess_only(nodes, backward=False)
        result = solver.solve(level, optimal=False)
    finally:
        fess.PAIRS = True
    nbox = len(level.boxes) - len(sealed_boxes(level))  # the boxes the search moves
    return (result.status, *dead_pair_states(solver.workspace, nbox, pdb))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--xsb", required=True, help="an XSB collection")
    ap.add_argument("--levels", type=_numbers, default=None, help="e.g. 1,5,11-20")
    ap.add_argument("--nodes", type=int, default=100_000, help="states of each search")
    args = ap.parse_args(argv)
    levels = load_xsb(args.xsb)
    pair_table(Level.from_xsb("#####\n#@$.#\n#$. #\n#####"))  # load the kernels first
    print("| level | table (live² x floor cells) | built in | pair deadlocks | status | "
          "stored | with a dead pair |\n|---|---|---|---|---|---|---|")
    for k in args.levels or range(1, len(levels) + 1):
        level = levels[k - 1]
        t = time.perf_counter()
        pdb = pair_table(level)
        built = time.perf_counter() - t
        if pdb is None:
            print(f"| {k} | - | - | no table (fewer than two boxes or too large) | | | |")
            continue
        size = f"{int(pdb[0]) ** 2 * int(pdb[1]):,}"
        for pairs in (False, True):
            status, stored, dead = dead_pair_share(level, args.nodes, pairs, pdb)
            print(f"| {k} | {size} | {built * 1e3:.0f} ms | {'on' if pairs else 'off'} | "
                  f"{status} | {stored:,} | {dead:,} ({100 * dead / max(stored, 1):.1f}%) |",
                  flush=True)


if __name__ == "__main__":
    sys.exit(main())
