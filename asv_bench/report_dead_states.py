"""Where the feature-space search's states go: a sample of the states it stores under a
node cap, each put to the push-optimal solver with a small cap of its own (dead, and
proved in how many states; solvable; or unknown), and how many a box frozen on a goal
cuts off (the frozen-goals matching below).

    python asv_bench/report_dead_states.py --xsb XSokoban_90.xsb --levels 29,44,50 --nodes 150000

A dead state proved in one or two states is one whose every push the solver's own
tests prune at once; one proved by a longer search is a dead subtree the feature-space
search goes on expanding. The frozen-goals matching: the boxes on goals that the freeze
test finds frozen (they never move again) are walled in, and each other box must still
be matched to a goal of its own among the others that it reaches as a lone box (the
player on any side): without such a matching the state is dead (both are relaxations),
a deadlock the searches' matching, which measures each box's way on the empty board,
does not see. The sample is drawn with a fixed seed from the stored states (not the
pushes on a macro's way).
"""
import argparse
import random
import sys

import numpy as np

from levelforge.engine import sokoban_state as _s
from levelforge.engine.sokoban_board import frozen_state
from levelforge.sokoban import Solver, load_xsb
from report_fess import fess_only
from report_fess_furthest import sealed_boxes, stored_state
from report_packing_plan import LoneReach, max_matching
from report_sokoban_solve import _numbers

KINDS = ("dead at once", "dead by search", "solvable", "unknown")


class FrozenGoals:
    """The frozen-goals matching of the module docstring on one level."""

    def __init__(self, level):
        self.walls, self.goals, _, _ = level.arrays()
        self.width = level.width
        self.lone = LoneReach(level)
        n = self.walls.shape[0]
        self.dead = np.zeros(n, np.uint8)  # no dead squares: fewer boxes count as frozen
        self.tmp = np.zeros(n, np.uint8)
        self.fstack = np.zeros(4 * n + 8, np.int64)

    def frozen(self, cells):
        """The cells of ``cells`` (box cells) whose boxes are frozen on their goals."""
        occ = np.zeros(self.walls.shape[0], np.uint8)
        occ[list(cells)] = 1
        return {c for c in cells if self.goals[c] and frozen_state(
            np.int64(c), self.walls, occ, self.dead, self.goals, self.tmp, self.width,
            self.fstack) == 1}

    def cut(self, cells):
        """Whether the boxes on ``cells`` frozen on goals leave another box without a
        goal of its own (a proof of deadlock)."""
        fixed = self.frozen(cells)
        if not fixed:
            return False
        rest = [c for c in cells if c not in fixed]
        return max_matching(self.lone.goals(rest, fixed)) < len(rest)


def sample_states(level, nodes, size, seed=0):
    """The feature-space search (alone) on ``level`` with ``nodes`` stored states:
    ``(result, stored, sample)``, ``sample`` up to ``size`` of its stored states as
    :class:`Level` objects, drawn with ``seed``."""
    solver = fess_only(nodes, backward=False)
    result = solver.solve(level, optimal=False)
    ws = solver.workspace
    stored = [j for j in range(int(ws.ctr[_s.C_NODES])) if ws.nplayer[j] >= 0]
    picked = random.Random(seed).sample(stored, min(size, len(stored)))
    sealed = sealed_boxes(level)
    states = [stored_state(level, ws, j, sealed) for j in picked]
    return result, len(stored), states


_CHECKERS = {}  # one push-optimal solver per cap, its work arrays kept between states


def kind(state, check):
    """What the push-optimal solver with ``check`` stored states says of ``state``: one
    of :data:`KINDS`."""
    if check not in _CHECKERS:
        _CHECKERS[check] = Solver(max_nodes=check)
    r = _CHECKERS[check].solve(state)
    if r.status == "unsolvable":
        return KINDS[0] if r.nodes <= 2 else KINDS[1]
    return KINDS[2] if r.status == "solved" else KINDS[3]


def survey(level, nodes, size, check, seed=0):
    """``(result, stored, counts, cut)``: the kinds of the sampled states (a dict over
    :data:`KINDS`) and, per kind, how many the frozen-goals matching cuts off."""
    result, stored, states = sample_states(level, nodes, size, seed)
    frozen = FrozenGoals(level)
    counts = dict.fromkeys(KINDS, 0)
    cut = dict.fromkeys(KINDS, 0)
    w = level.width
    for state in states:
        k = kind(state, check)
        counts[k] += 1
        cut[k] += frozen.cut([y * w + x for x, y in state.boxes])
    return result, stored, counts, cut


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--xsb", required=True, help="an XSB collection")
    ap.add_argument("--levels", type=_numbers, default=None, help="e.g. 1,5,11-20")
    ap.add_argument("--nodes", type=int, default=150_000, help="states of the search")
    ap.add_argument("--sample", type=int, default=100, help="stored states checked")
    ap.add_argument("--check", type=int, default=3000,
                    help="states of the push-optimal check of each sampled state")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    levels = load_xsb(args.xsb)
    numbers = args.levels or range(1, len(levels) + 1)
    for k in numbers:
        if not 1 <= k <= len(levels):
            ap.error(f"level {k} is not in {args.xsb} ({len(levels)} levels)")
    print("| level | search | stored | sampled | " + " | ".join(KINDS)
          + " | frozen goals cut off: dead / unknown / solvable (0: a proof) |")
    print("|---|---|---|---|" + "---|" * len(KINDS) + "---|")
    for k in numbers:
        result, stored, counts, cut = survey(levels[k - 1], args.nodes, args.sample,
                                             args.check, args.seed)
        print(f"| {k} | {result.status} | {stored:,} | {sum(counts.values())} | "
              + " | ".join(str(counts[x]) for x in KINDS)
              + f" | {cut[KINDS[0]] + cut[KINDS[1]]} / {cut[KINDS[3]]} / {cut[KINDS[2]]} |",
              flush=True)


if __name__ == "__main__":
    sys.exit(main())
