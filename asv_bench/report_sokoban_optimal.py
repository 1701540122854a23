"""Push-optimal Sokoban solving as a markdown table (single process, one core).

    python asv_bench/report_sokoban_optimal.py --xsb FILE [--levels 1-10,17]
                                               [--caps 2000000,10000000] [--time 60]
    python asv_bench/report_sokoban_optimal.py --microban [--levels 140-155] [--compare]

Each level is solved once, push-optimal, with ``max_nodes`` the largest cap and
``time_limit`` ``--time`` seconds. A search below a cap runs identically whatever the
cap, so "solved within cap C" is "solved with at most C stored states": load-independent
(a level the clock stopped before the largest cap is marked ``time`` and counts as
unsolved under the caps it did not reach, so those counts are lower bounds). Per level:
status, pushes, stored and expanded states, seconds, the lower bound at the start
(``h0``: the matching heuristic, :func:`levelforge.sokoban.bound.push_lower_bound`),
``h0 / pushes`` (the heuristic's strength at the root) and the lower bound the search
proved (``proved``: ``SolveResult.lower_bound``, the pushes when solved; for a level
stopped by the clock or a cap, no solution has fewer pushes) and, for a stopped solve, the
pushes of the solution it kept (``kept``: the incumbent found after
``solver.RESTART_AT`` states, ``solver.INCUMBENT_SHARE``; the optimum lies between
``proved`` and ``kept``). Every solution, solved or kept, is replayed. The summary gives solved counts
within ``--time`` s and within each cap, how far the searches that stopped raised the
bound above ``h0``, how many kept a solution and how far it is from their bound, and the
process's peak RSS (the node table
grows with the search and stops at the cap with status ``limit``).

``--compare`` solves every level a second time without the box-pair pattern database
(:mod:`levelforge.sokoban.pairs`; the matching alone, as before it) and adds that run's
status and expanded states, the solved counts of both, and the heuristic's strength:
the ratio of expanded states (without / with) summed over the levels both solve, whose
push counts must agree (a disagreement is printed as ``MISMATCH``).

Quiet-machine runtime: about 300,000 stored states per second, so a 10M-state level
ends within ~35-60 s; XSokoban's 90 levels take up to ~75 minutes with the defaults
(``--levels 1-30``: ~20 minutes; Microban's 155 levels under a 2M cap: ~1 minute, level
144 most of it); ``--compare`` doubles these.
Solved counts, pushes and state counts are load-independent; seconds are not.
"""
import argparse
import resource

from levelforge.sokoban import collections, load_xsb, pairs, replay, solve
from levelforge.sokoban.bound import push_lower_bound


def parse_levels(spec, count):
    """1-based level numbers from ``"1-10,17"`` (all ``count`` levels for None)."""
    if spec is None:
        return list(range(1, count + 1))
    out = []
    for part in spec.split(","):
        lo, _, hi = part.partition("-")
        out.extend(range(int(lo), int(hi or lo) + 1))
    return [k for k in out if 1 <= k <= count]


def peak_rss_mb():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def solve_one(level, cap, seconds, with_pairs):
    """(status, result, seconds); status ``time`` when the clock, not the cap, stopped it
    (``SolveResult.limit_by``). The seconds are the solve's own (``elapsed_ms``): they
    leave out the one-time loading of kernels the first solve of a kind needs (the
    any-solution search's, for a solution to beat; the symmetric boards'), as the time
    limit does."""
    saved = pairs.MOST_STATES
    pairs.MOST_STATES = saved if with_pairs else 0
    try:
        r = solve(level, max_nodes=cap, time_limit=seconds)
        dt = r.elapsed_ms / 1000
    finally:
        pairs.MOST_STATES = saved
    status = "time" if r.limit_by == "time" else r.status
    if r.solution is not None:  # solved, or kept by a stopped solve
        assert replay(level, r.solution).is_solved, "a solution that does not replay"
    return status, r, dt


def counts(rows, caps, seconds, label):
    n = len(rows)
    print(f"| solved within {seconds:g} s{label} | {sum(s == 'solved' for s, _, _ in rows)}/{n} |")
    for cap in caps:
        got = sum(s == "solved" and r.nodes <= cap for s, r, _ in rows)
        short = sum(s == "time" and r.nodes < cap for s, r, _ in rows)
        note = f" ({short} stopped by the clock first)" if short else ""
        print(f"| solved within {cap:,} stored states{label} | {got}/{n}{note} |")


def run(levels, numbers, caps, seconds, compare):
    caps = sorted(caps)
    solve(levels[0], max_nodes=1000)  # compile outside the timing
    rows, plain = [], []
    extra = " without pairs | expanded without | ratio |" if compare else ""
    print("| level | status | pushes | stored | expanded | s | h0 | h0/pushes | proved | kept |"
          + extra)
    print("|---|---|---|---|---|---|---|---|---|---|" + ("---|---|---|" if compare else ""))
    raised = []  # (h0, proved) of the levels stopped by the clock or a cap
    for k in numbers:
        level = levels[k - 1]
        h0 = push_lower_bound(level)
        status, r, dt = solve_one(level, caps[-1], seconds, True)
        rows.append((status, r, dt))
        strength = f"{h0 / r.pushes:.2f}" if r.solved and r.pushes else "-"
        line = (f"| {k} | {status} | {r.pushes if r.solved else '-'} | {r.nodes} | "
                f"{r.expanded} | {dt:.1f} | {h0 if h0 is not None else '-'} | {strength} | "
                f"{r.lower_bound if r.lower_bound is not None else '-'} | "
                f"{r.pushes if not r.solved and r.solution is not None else '-'} |")
        if status in ("time", "limit") and r.lower_bound is not None and h0 is not None:
            raised.append((h0, r.lower_bound))
        if compare:
            status2, r2, dt2 = solve_one(level, caps[-1], seconds, False)
            plain.append((status2, r2, dt2))
            ratio = "-"
            if r.solved and r2.solved:
                ratio = "MISMATCH" if r.pushes != r2.pushes else f"{r2.expanded / max(r.expanded, 1):.2f}"
            line += f" {status2} | {r2.expanded} | {ratio} |"
        print(line, flush=True)
    print()
    print("| measure | value |")
    print("|---|---|")
    counts(rows, caps, seconds, "")
    if compare:
        counts(plain, caps, seconds, " (matching alone)")
        both = [(a[1], b[1]) for a, b in zip(rows, plain) if a[1].solved and b[1].solved]
        if both:
            ratio = sum(b.expanded for _, b in both) / max(1, sum(a.expanded for a, _ in both))
            print(f"| expanded without / with pairs, {len(both)} levels both solve | {ratio:.2f} |")
    print(f"| unsolvable (proved) | {sum(s == 'unsolvable' for s, _, _ in rows)} |")
    if raised:
        up = [p - h for h, p in raised]
        print(f"| stopped searches that proved more than h0 | {sum(u > 0 for u in up)}/"
              f"{len(up)} (+{sum(up)} pushes in all, at most +{max(up)}) |")
    kept = [r for _, r, _ in rows if not r.solved and r.solution is not None]
    if kept:
        gaps = sorted(r.pushes - (r.lower_bound or 0) for r in kept)
        print(f"| stopped solves that kept a solution | {len(kept)}/"
              f"{sum(not r.solved for _, r, _ in rows)} (kept pushes minus proved bound: "
              f"median {gaps[len(gaps) // 2]}, at most {gaps[-1]}) |")
    print(f"| total s | {sum(dt for _, _, dt in rows + plain):.0f} |")
    print(f"| peak RSS | {peak_rss_mb():.0f} MB |")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    src = ap.add_mutually_exclusive_group(required=True)
    src.add_argument("--xsb", help="an .xsb collection (e.g. the 90 XSokoban levels)")
    src.add_argument("--microban", action="store_true", help="the bundled Microban 155")
    ap.add_argument("--levels", help="1-based numbers, e.g. 1-10,17 (default: all)")
    ap.add_argument("--caps", default="2000000,10000000",
                    help="stored-state caps, comma-separated (the largest bounds each solve)")
    ap.add_argument("--time", type=float, default=60.0, help="seconds per level")
    ap.add_argument("--compare", action="store_true",
                    help="also solve without the box-pair database (nodes ratio)")
    args = ap.parse_args()
    levels = collections.load("microban") if args.microban else load_xsb(args.xsb)
    caps = [int(c) for c in args.caps.split(",")]
    run(levels, parse_levels(args.levels, len(levels)), caps, args.time, args.compare)


if __name__ == "__main__":
    main()
