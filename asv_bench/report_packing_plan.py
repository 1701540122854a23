"""Where the packing order strands boxes: for each level, after each prefix of the
feature-space search's packing order is filled, how many of the goals left have no
start box of their own (each box alone on the board, the filled goals walled in: a
bipartite matching of the start boxes onto the goals left).

    python asv_bench/report_packing_plan.py --xsb XSokoban_90.xsb --levels 50,66,69,85

A positive count at entry ``k`` says that no solution fills the order's first ``k``
entries first with boxes brought in from where they start: some box must be staged
(brought into the goal area, or next to its goal, before the entries ahead of it close
its way), or the order changed. The same matching is the residual test that defers
the search's states (``levelforge.engine.sokoban_fess_residual``), here applied to the
start. A parking entry walls in its pocket and counts its goal as served.
"""
import argparse

import numpy as np

from levelforge.engine import sokoban_packing as _p
from levelforge.engine import sokoban_state as _s
from levelforge.sokoban import load_xsb
from report_fess import fess_only
from report_fess_furthest import orders_seen
from report_sokoban_solve import _numbers


def solver_order(level):
    """The packing order the feature-space search computes for ``level`` (goal cells
    and parking entries, first to fill first, cells ``y * width + x``)."""
    solver = fess_only(1, backward=False)
    with orders_seen() as seen:
        solver.solve(level, optimal=False)
    return [int(v) for v in seen[-1]] if seen else []


def entry_cells(v):
    """``(cell walled in, goal served)`` of an entry of a packing order."""
    if v >= 0:
        return v, v
    w = -v - 1
    return w >> 16, w & 0xFFFF


class LoneReach:
    """The goals a lone box can be pushed onto from a cell, the player starting on any
    free side of it (``levelforge.engine.sokoban_packing._box_reach``)."""

    def __init__(self, level):
        walls, goals, _, _ = level.arrays()
        self.walls, self.width = walls, level.width
        self.goal_cells = [int(c) for c in np.flatnonzero(goals)]
        n = walls.shape[0]
        self.reach = np.zeros(4 * n, np.int64)
        self.rqueue = np.zeros(4 * n, np.int32)
        self.stamp2 = np.zeros(n, np.int64)
        self.queue2 = np.zeros(n, np.int32)
        self.ctr = np.zeros(_s.N_COUNTERS, np.int64)
        self.mark = 0

    def goals(self, boxes, closed):
        """For each box cell of ``boxes``, the goal cells (not in ``closed``) a lone box
        there reaches with the cells ``closed`` walled in (none for a box on one)."""
        blk = self.walls.copy()
        blk[list(closed)] = 1
        out = []
        for box in boxes:
            self.mark += 1
            _p._box_reach(np.array([box], np.int32), blk, self.width, self.reach,
                          np.int64(self.mark), self.rqueue, self.stamp2, self.ctr,
                          self.queue2)
            r = self.reach
            out.append({g for g in self.goal_cells if g not in closed
                        and any(r[4 * g + k] == self.mark for k in range(4))})
        return out


def max_matching(edges):
    """Size of a maximum matching of rows onto the items of their sets (Kuhn)."""
    owner = {}

    def augment(i, seen):
        for g in edges[i]:
            if g not in seen:
                seen.add(g)
                if g not in owner or augment(owner[g], seen):
                    owner[g] = i
                    return True
        return False
    return sum(augment(i, set()) for i in range(len(edges)))


def deficits(level, order):
    """For ``k`` = 1 .. ``len(order)``: the goals left without a start box of their own
    once the first ``k`` entries are filled; and the entries whose goal no start box
    reaches alone with the entries before it filled (its position, 1-based)."""
    lone = LoneReach(level)
    width = level.width
    boxes = [y * width + x for x, y in level.boxes]
    closed, served = set(), set()
    reach = lone.goals(boxes, closed)  # each box's goals with the entries so far filled
    out, unreached = [], []
    for k, v in enumerate(order, 1):
        cell, goal = entry_cells(v)
        if cell == goal and not any(goal in r for r in reach):
            unreached.append(k)
        closed.add(cell)
        served.add(goal)
        reach = lone.goals(boxes, closed)
        left = set(lone.goal_cells) - served
        out.append(len(left) - max_matching([r & left for r in reach if r]))
    return out, unreached


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--xsb", required=True, help="an XSB collection")
    ap.add_argument("--levels", type=_numbers, default=None, help="e.g. 1,5,11-20")
    args = ap.parse_args(argv)
    levels = load_xsb(args.xsb)
    wanted = args.levels or range(1, len(levels) + 1)
    if any(k < 1 or k > len(levels) for k in wanted):
        ap.error(f"--levels: {args.xsb} holds levels 1 to {len(levels)}")
    for k in wanted:
        level = levels[k - 1]
        order = solver_order(level)
        d, unreached = deficits(level, order)
        first = next((i + 1 for i, x in enumerate(d) if x > 0), None)
        parking = sum(v < 0 for v in order)
        print(f"level {k}: {len(order)} entries ({parking} parking); goals left without a "
              f"box of their own after each entry: {' '.join(map(str, d))}; first "
              f"stranded after entry {first or '-'}; entries no start box reaches alone: "
              f"{' '.join(map(str, unreached)) or '-'}", flush=True)


if __name__ == "__main__":
    main()
