"""Sokoban solving on the standard benchmarks: XSokoban 90 in both modes, Microban 155
push-optimal; every solution replayed.

    python asv_bench/report_sokoban_solve.py --xsb XSokoban_90.xsb [--levels 1-10]
        [--mode any|optimal|both] [--limit 60] [--quick 10] [--nodes N] [--optimize]
    python asv_bench/report_sokoban_solve.py --xsb OTHER.xsb --name "Microban II" ...
    python asv_bench/report_sokoban_solve.py --microban [--microban-limit 10]
    python asv_bench/report_sokoban_solve.py --generated 400

XSokoban (Thinking Rabbit's 90 levels) is not redistributable, so it is not bundled:
pass any "XSokoban" / "Original" 90-level XSB file. Each level is solved once with
``time_limit=--limit``; the table counts the levels solved within ``--quick`` seconds
and within the limit, the total, median and largest solve time, and the mean pushes of
the solutions against the known push-optimal counts (the published ones below, and
every level this run solves push-optimally). Any other XSB file (a Boxoban file reads as
one) is measured the same way; ``--name`` labels its rows (default: the file's name).

``--nodes N`` measures without any clock: each solve is capped at ``max_nodes=N`` stored
states and has no time limit, so the solved counts do not depend on the machine or its
load (times are printed but mean little then). ``--optimize`` spends the time left of
each any-mode solve on shortening its solution (``solve(..., optimize=True)``).
``--turns 4,2,2,1`` runs the any mode with other shares of its four searches
(``packing.TURNS``), to measure a share against the default in the same session.
``--waypoint-turn 0`` runs the any mode without its waypoint search
(``packing.WAYPOINT_TURN``; another whole number is its share). ``--pulls-from 0`` runs
the push-optimal mode without its backward search in turn
(``solver.PULLS_FROM``; another count starts it there), the baseline to measure it
against.

``--generated N`` solves the generator's 10x10 levels with 4 boxes (Boxoban's size;
``generate(seed, width=10, height=10, boxes=4, pushes=(15, 30))``, seeds 0 to N - 1)
push-optimally and also prints the stored states of all of them: a load-independent
figure for search changes on small levels.

The process's peak RSS closes the output; each level's line on stderr says, for
``limit``, what stopped it (``time``, ``states`` or ``memory``).
"""
import argparse
import os
import statistics
import sys

from levelforge.sokoban import Solver, collections, generate, load_xsb, packing, replay
from levelforge.sokoban import solver as solver_mod

from report_sokoban_optimal import peak_rss_mb

# push-optimal solution lengths of XSokoban levels (level number: pushes)
KNOWN_OPTIMUM = {1: 97, 2: 131, 6: 110, 17: 213, 38: 81, 49: 124, 78: 136}


def _numbers(text):
    """``1,5,11-20`` -> [1, 5, 11, ..., 20]."""
    out = []
    for part in text.split(","):
        lo, _, hi = part.partition("-")
        out.extend(range(int(lo), int(hi or lo) + 1))
    return out


def run(levels, numbers, optimal, limit, nodes, optimize=False):
    """Solve each level (``limit`` seconds or None, ``nodes`` states); replay every
    solution. Returns the results; progress goes to stderr."""
    solver = Solver(max_nodes=nodes).warm_up()
    rows = []
    for k, level in zip(numbers, levels):
        kw = {"optimize": True} if optimize else {}
        r = solver.solve(level, time_limit=limit, optimal=optimal, **kw)
        if r.solved:
            assert replay(level, r.solution).is_solved, f"level {k}: solution does not replay"
        by = f" ({r.limit_by})" if r.limit_by else ""
        print(f"{'optimal' if optimal else 'any'} {k} {r.status}{by} {r.pushes} {r.nodes} "
              f"{r.elapsed_ms:.0f} ms", file=sys.stderr, flush=True)
        rows.append(r)
    return rows


def _secs(x):
    """A solve time for the table: milliseconds below a second.

    >>> _secs(0.00041), _secs(2.5)
    ('0.4 ms', '2.50 s')
    """
    return f"{x * 1000:.1f} ms" if x < 1 else f"{x:.2f} s"


def row(name, numbers, rows, quick, optimum):
    """One table row: solved counts, times and pushes against the known optimum."""
    solved = [r for r in rows if r.solved]
    fast = sum(r.elapsed_ms <= quick * 1000 for r in solved)
    times = [r.elapsed_ms / 1000 for r in rows]
    st = [r.elapsed_ms / 1000 for r in solved]
    med = _secs(statistics.median(st)) if st else "-"
    top = _secs(max(st)) if st else "-"
    pairs = [(r.pushes, optimum[k]) for k, r in zip(numbers, rows) if r.solved and k in optimum]
    if pairs:
        excess = statistics.fmean(p / o - 1 for p, o in pairs) * 100
        mean, best = (statistics.fmean(v) for v in zip(*pairs))
        pushes = f"{mean:.1f} vs {best:.1f} (+{excess:.1f}%, {len(pairs)} levels)"
    else:
        pushes = "-"
    return (f"| {name} | {fast}/{len(rows)} | {len(solved)}/{len(rows)} | {sum(times):.0f} "
            f"| {med} | {top} | {pushes} |")


def _turns(text):
    """``--turns``: four positive weights, e.g. ``4,2,2,1``."""
    try:
        weights = tuple(int(w) for w in text.split(","))
    except ValueError:
        weights = ()
    if len(weights) != 4 or min(weights) < 1:
        raise argparse.ArgumentTypeError(f"{text!r}: four positive whole numbers, e.g. 4,2,2,1")
    return weights


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--xsb", help="the XSokoban 90 XSB file (not bundled), or another set")
    ap.add_argument("--name", help="the set's name in the table (default: the file's name)")
    ap.add_argument("--levels", type=_numbers, default=None,
                    help="only these levels of --xsb, numbered from 1 (e.g. 1,5,11-20)")
    ap.add_argument("--mode", choices=("any", "optimal", "both"), default="both")
    ap.add_argument("--limit", type=float, default=60.0, help="seconds per level")
    ap.add_argument("--quick", type=float, default=10.0, help="also count solves within this")
    ap.add_argument("--nodes", type=int, default=None,
                    help="cap each solve at N stored states and drop the time limit")
    ap.add_argument("--optimize", action="store_true",
                    help="any mode: shorten each solution in the time left")
    ap.add_argument("--microban", action="store_true", help="Microban 155, push-optimal")
    ap.add_argument("--microban-limit", type=float, default=10.0)
    ap.add_argument("--generated", type=int, default=0, metavar="N",
                    help="N generated 10x10 levels with 4 boxes, push-optimal")
    ap.add_argument("--turns", type=_turns, default=None, metavar="A,B,C,D",
                    help="any mode: the four searches' shares (packing.TURNS) for this run, "
                         "to measure another share against the default")
    ap.add_argument("--waypoint-turn", type=int, default=None, metavar="W",
                    help="any mode: the waypoint search's share (packing.WAYPOINT_TURN; 0: "
                         "left out), to measure it against the default")
    ap.add_argument("--pulls-from", type=int, default=None, metavar="N",
                    help="push-optimal: the backward search joins after N stored states "
                         "(solver.PULLS_FROM; 0: never), to measure it against the default")
    args = ap.parse_args(argv)
    if args.turns is not None:
        packing.TURNS = args.turns
    if args.waypoint_turn is not None:
        if args.waypoint_turn < 0:
            ap.error("--waypoint-turn must be 0 or more")
        packing.WAYPOINT_TURN = args.waypoint_turn
    if args.pulls_from is not None:
        if args.pulls_from < 0:
            ap.error("--pulls-from must be 0 or more")
        solver_mod.PULLS_FROM = args.pulls_from
    limit = None if args.nodes else args.limit
    nodes = args.nodes or 50_000_000
    cap = f"max_nodes {args.nodes:,}, no time limit" if args.nodes else f"limit {args.limit:g} s"
    print(f"| set, mode ({cap}) | solved within {args.quick:g} s | solved | total s "
          f"| median (solved) | max (solved) | mean pushes vs optimum (where known) |")
    print("|---|---|---|---|---|---|---|")
    if args.xsb:
        levels = load_xsb(args.xsb)
        numbers = args.levels or list(range(1, len(levels) + 1))
        chosen = [levels[k - 1] for k in numbers]
        stem = os.path.splitext(os.path.basename(args.xsb))[0]
        xsokoban = "xsokoban" in (args.name or stem).lower()
        title = args.name or ("XSokoban" if xsokoban else stem)
        optimum = dict(KNOWN_OPTIMUM) if xsokoban else {}  # the published counts
        modes = {"any": (False,), "optimal": (True,), "both": (True, False)}[args.mode]
        results = {}
        for optimal in modes:  # push-optimal first: its solutions extend the optimum table
            rows = run(chosen, numbers, optimal, limit, nodes, args.optimize and not optimal)
            results[optimal] = rows
            if optimal:
                optimum.update((k, r.pushes) for k, r in zip(numbers, rows) if r.solved)
        for optimal, rows in results.items():
            name = f"{title} {len(numbers)}, {'push-optimal' if optimal else 'any'}"
            print(row(name, numbers, rows, args.quick, optimum), flush=True)
        for optimal, rows in results.items():
            missed = [k for k, r in zip(numbers, rows) if not r.solved]
            print(f"\n{'push-optimal' if optimal else 'any'}, not solved ({len(missed)}): "
                  f"{' '.join(map(str, missed)) or '-'}")
    if args.microban:
        micro = collections.load("microban")
        numbers = list(range(1, len(micro) + 1))
        mlimit = None if args.nodes else args.microban_limit
        rows = run(micro, numbers, True, mlimit, nodes)
        print(row(f"Microban 155, push-optimal ({args.microban_limit:g} s)" if mlimit else
                  "Microban 155, push-optimal", numbers, rows, args.quick, {}))
        missed = [k for k, r in zip(numbers, rows) if not r.solved]
        print(f"\nMicroban, not solved ({len(missed)}): {' '.join(map(str, missed)) or '-'}")
    if args.generated:
        made = [generate(seed, width=10, height=10, boxes=4, pushes=(15, 30)).level
                for seed in range(args.generated)]
        numbers = list(range(1, len(made) + 1))
        rows = run(made, numbers, True, limit, nodes)
        print(row(f"generated 10x10, 4 boxes, {len(made)}, push-optimal", numbers, rows,
                  args.quick, {}))
        print(f"\nstored states in all: {sum(r.nodes for r in rows):,}")
    print(f"\npeak RSS: {peak_rss_mb():,.0f} MB")


if __name__ == "__main__":
    main()
