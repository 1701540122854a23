"""Time limits on boards of every size: the limit asked and the time taken.

    python asv_bench/report_limits.py [--time-limit 1.0] [--repeats 3] [--rows 10x10,64x64/128]
                                      [--max-nodes N]

For each Sokoban board (an empty walled room with boxes and goals placed at random
inside, seed 1: far more work than any limit allows on the bigger boards) the table
gives the slowest of ``--repeats`` calls of ``solve(level, time_limit=T)`` in both
modes (``--max-nodes``: that cap instead of the default 1,000,000, e.g. the play
pages' ``levelforge.play.sokoban.SOLVE_MAX_NODES``) and of ``sokoban.generate(1, ..., pushes=(1, 32766), time_limit=T)`` (the issue's
request), with the status (``limit``, ``limit (states)`` when a solve's cap on stored
states stopped it first, or what the call produced within the limit) and
whether the call kept the rule: done within ``T`` plus 10 % or 50 ms, whichever is
larger. Then the same for ``symmetry.generate`` (sizes 5 to 9) and for no-guess
Minesweeper boards (the first open of ``Game(level, no_guess=True, time_limit=T)``).
Kernels are compiled (or loaded) before anything is timed. Wall-clock figures: measure
on a quiet machine. The process's peak RSS closes the Sokoban table.
"""
import argparse
import os
import sys
import time

from levelforge import GenerationError
from levelforge.mines import Game
from levelforge.sokoban import generate, solve
from levelforge.sokoban.solver import DEFAULT_MAX_NODES
from levelforge.symmetry import generate as symmetry_generate

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                "tests"))
from rooms import room, warm_up  # noqa: E402 (the tests' big rooms)
from report_sokoban_optimal import peak_rss_mb  # noqa: E402

SOKOBAN = ((10, 10, 4), (16, 16, 10), (32, 32, 30), (48, 48, 60), (64, 64, 100),
           (64, 64, 128))
SYMMETRY = (5, 7, 9)
MINES = (("9x9x1-10", (4, 4, 0)), ("30x16x1-99", (15, 8, 0)), ("10x10x10-99", (5, 5, 0)),
         ("32x32x32-12000", (16, 16, 0)))


def slowest(call, repeats):
    """The slowest of ``repeats`` calls: (seconds, what the last call gave)."""
    worst, what = 0.0, None
    for _ in range(repeats):
        t = time.perf_counter()
        try:
            what = call()
        except GenerationError as exc:
            what = "limit" if "time limit" in str(exc) else "failed"
        worst = max(worst, time.perf_counter() - t)
    return worst, what


def said(result):
    """A solve's status, ``limit (states)`` when its cap on stored states stopped it
    before the time limit."""
    return "limit (states)" if result.limit_by == "states" else result.status


def cell(seconds, what, limit):
    kept = seconds <= limit + max(0.1 * limit, 0.05)
    return f"{seconds:.3f} s {what}{'' if kept else ' (over)'}"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--time-limit", type=float, default=1.0, help="seconds (1.0)")
    ap.add_argument("--repeats", type=int, default=3, help="calls per cell; the slowest (3)")
    ap.add_argument("--max-nodes", type=int, default=DEFAULT_MAX_NODES,
                    help=f"the solves' cap on stored states ({DEFAULT_MAX_NODES:,})")
    ap.add_argument("--rows", help="only these boards, e.g. 10x10,64x64/128 (Sokoban rows "
                                   "by size or size/boxes; other systems are left out)")
    args = ap.parse_args(argv)
    limit, reps = args.time_limit, args.repeats
    rows = SOKOBAN
    if args.rows:
        want = set(args.rows.split(","))
        rows = [r for r in SOKOBAN if f"{r[0]}x{r[1]}" in want or f"{r[0]}x{r[1]}/{r[2]}" in want]
    warm_up()
    print(f"time limit asked: {limit:g} s; slowest of {reps} calls; '(over)': more than the "
          "limit plus 10 % or 50 ms\n")
    print("| board | boxes | solve (optimal) | solve (any) | sokoban.generate |")
    print("|---|---|---|---|---|")
    for w, h, b in rows:
        level = room(w, h, b)
        cap = args.max_nodes
        opt = slowest(lambda: said(solve(level, cap, time_limit=limit)), reps)
        any_ = slowest(lambda: said(solve(level, cap, time_limit=limit, optimal=False)), reps)
        gen = slowest(lambda: generate(1, width=w, height=h, boxes=b, pushes=(1, 32766),
                                       time_limit=limit) and "level", reps)
        print(f"| {w}x{h} | {b} | {cell(*opt, limit)} | {cell(*any_, limit)} | "
              f"{cell(*gen, limit)} |", flush=True)
    print(f"\npeak RSS: {peak_rss_mb():.0f} MB")
    if args.rows:
        return
    print("\n| symmetry size | symmetry.generate |")
    print("|---|---|")
    for size in SYMMETRY:
        took = slowest(lambda: symmetry_generate(size, seed=1, time_limit=limit) and "puzzle",
                       reps)
        print(f"| {size}x{size} | {cell(*took, limit)} |", flush=True)
    print("\n| mines level (no-guess) | first open |")
    print("|---|---|")
    for name, start in MINES:
        took = slowest(lambda: Game(name, seed=1, no_guess=True, time_limit=limit)
                       .open(start) and "board", reps)
        print(f"| {name} | {cell(*took, limit)} |", flush=True)


if __name__ == "__main__":
    main()
