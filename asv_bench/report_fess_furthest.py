"""Where the feature-space search stalls: for each level, the stored state that packs the
longest prefix of the packing order under a node cap, printed as XSB, with the
push-optimal solver's verdict on it (dead, solvable, or unknown within its own cap).

    python asv_bench/report_fess_furthest.py --xsb XSokoban_90.xsb --levels 16,23 --nodes 100000

The diagnosis behind the parking entries, the residual test and the packing macro's
choice of box (docs/figures/sokoban-solving-journal.md): a furthest state that the push-optimal
solver proves dead in a handful of states points at the plan (the packing order, or
the boxes it packs with), one it cannot settle at the search's guidance.
"""
import argparse
import sys
from contextlib import contextmanager

from levelforge.engine import sokoban_state as _s
from levelforge.sokoban import Level, Solver, load_xsb
from levelforge.sokoban import fess
from levelforge.sokoban.optimizer import _Board
from report_fess import fess_only
from report_sokoban_solve import _numbers


@contextmanager
def orders_seen():
    """Keep each packing order the feature-space search computes (a list that grows)."""
    seen = []
    real = fess.packing_order
    fess.packing_order = lambda *args: seen.append(real(*args)) or seen[-1]
    try:
        yield seen
    finally:
        fess.packing_order = real


def packed(boxes, order):
    """Entries of ``order`` filled by the box cells ``boxes`` (its filled prefix; a
    parking entry counts while its pocket or its goal holds a box)."""
    for i, v in enumerate(order):
        cells = (v,) if v >= 0 else (((-v - 1) >> 16), (-v - 1) & 0xFFFF)
        if not any(c in boxes for c in cells):
            return i
    return len(order)


def packed_states(ws, nbox, order):
    """``(node, entries of order packed)`` for each state the feature-space search stored
    in the workspace ``ws`` (``nbox`` boxes), in storing order; the pushes on a macro's
    way are nodes but not stored states, and are skipped."""
    for j in range(int(ws.ctr[_s.C_NODES])):
        if ws.nplayer[j] >= 0:
            yield j, packed(set(int(c) for c in ws.pool[j * nbox:(j + 1) * nbox]), order)


def sealed_boxes(level):
    """The boxes of ``level`` out of the player's reach (walls alone counted): the solver
    walls them in, so its searches' states hold the other boxes only."""
    board = _Board(level)
    reach = board.region(frozenset(), board.player)
    return frozenset((x, y) for x, y in level.boxes if y * level.width + x not in reach)


def stored_state(level, ws, j, sealed=None):
    """Stored state ``j`` of a search of ``level`` in the workspace ``ws``, as a
    :class:`Level` (with the boxes out of the player's reach, which the search leaves
    out: ``sealed``, :func:`sealed_boxes` of the level, computed when not given)."""
    sealed = sealed_boxes(level) if sealed is None else sealed
    nbox, width = len(level.boxes) - len(sealed), level.width
    boxes = frozenset((int(c) % width, int(c) // width)
                      for c in ws.pool[j * nbox:(j + 1) * nbox]) | sealed
    player = int(ws.nplayer[j])
    return Level(level.width, level.height, level.walls, level.goals, boxes,
                 (player % width, player // width), level.title, ())


def furthest(level, nodes):
    """Run the feature-space search alone (no backward search after it) on ``level``
    with ``nodes`` stored states:
    ``(result, packed entries, order length, furthest state as a Level)``; the first
    stored state (in storing order) of the longest packed prefix."""
    solver = fess_only(nodes, backward=False)
    with orders_seen() as seen:
        result = solver.solve(level, optimal=False)
    ws = solver.workspace
    order = [int(v) for v in seen[-1]] if seen else []
    sealed = sealed_boxes(level)
    best, at = -1, 0
    for j, k in packed_states(ws, len(level.boxes) - len(sealed), order):
        if k > best:
            best, at = k, j
    return result, best, len(order), stored_state(level, ws, at, sealed)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--xsb", required=True, help="an XSB collection")
    ap.add_argument("--levels", type=_numbers, default=None, help="e.g. 1,5,11-20")
    ap.add_argument("--nodes", type=int, default=100_000, help="states of the search")
    ap.add_argument("--check", type=int, default=300_000,
                    help="states of the push-optimal check of the furthest state")
    args = ap.parse_args(argv)
    levels = load_xsb(args.xsb)
    checker = Solver(max_nodes=args.check)
    for k in args.levels or range(1, len(levels) + 1):
        result, best, total, state = furthest(levels[k - 1], args.nodes)
        check = checker.solve(state)
        verdict = {"unsolvable": f"dead (proved in {check.nodes:,} states)",
                   "solved": f"solvable in {check.pushes} pushes"}.get(
                       check.status, f"unknown within {args.check:,} states")
        print(f"level {k}: {result.status}, {result.nodes:,} stored; furthest state packs "
              f"{best}/{total} entries of the order; {verdict}")
        print(state.to_xsb(), "\n", flush=True)


if __name__ == "__main__":
    sys.exit(main())
