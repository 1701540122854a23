"""Mines figures: analyze mid-game on hard, autoplay win/stuck rates per level.

    python asv_bench/report_mines.py [--positions 100] [--games 1000] [--games-3d 300]

Prints two markdown tables: the median time of ``Assistant.analyze`` per call on mid-game
``hard`` positions (default and exact mode), and autoplay rates (certain moves only, no
guessing; every game opened from a zero first click in the middle of the top face) with
the time per decision, in the default mode and in exact mode (which also uses the global
mine count). The 58 ms baseline is the issue's quoted figure for a public Python N-D
solver; it is not run here. Timings are wall-clock on a shared machine: expect noise.
"""
import argparse
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from benchmarks.bench_mines import LEVELS, midgame_positions  # noqa: E402
from benchmarks.common import SEED  # noqa: E402
from levelforge.mines import Assistant, Game, Level, autoplay  # noqa: E402
from levelforge.seeding import item_seed  # noqa: E402

QUOTED_BASELINE_MS = 58.0   # the figure for a public Python N-D solver (not run here)


def analyze_table(positions, repeats):
    assistant = Assistant()
    assistant.warm_up()
    rows = []
    for mode in ("plain", "exact"):
        exact = mode == "exact"
        times, comps, skipped, nodes, proved = [], [], [], [], []
        for obs in positions:
            a = assistant.analyze(obs, exact=exact)
            best = []
            for _ in range(repeats):
                t = time.perf_counter()
                assistant.analyze(obs, exact=exact)
                best.append((time.perf_counter() - t) * 1e3)
            times.append(statistics.median(best))
            comps.append(a.components)
            skipped.append(a.skipped)
            nodes.append(a.nodes)
            proved.append(len(a.safe) + len(a.mines))
        times.sort()
        rows.append((mode, statistics.median(times), times[int(0.9 * (len(times) - 1))],
                     statistics.mean(comps), statistics.mean(skipped), statistics.mean(nodes),
                     statistics.mean(proved)))
    out = ["| mode | median ms/call | p90 ms/call | vs quoted 58 ms | components | over cap "
           "| nodes | proved cells |", "|---|---|---|---|---|---|---|---|"]
    for mode, med, p90, c, s, n, p in rows:
        out.append(f"| {mode} | {med:.3f} | {p90:.3f} | {QUOTED_BASELINE_MS / med:.0f}x faster "
                   f"| {c:.1f} | {s:.2f} | {n:.0f} | {p:.0f} |")
    return "\n".join(out)


def autoplay_table(games_2d, games_3d):
    assistant = Assistant()
    assistant.warm_up()
    out = ["| level | games | won | stuck | other | moves/game | decisions/game "
           "| ms/decision | won, exact mode | ms/decision, exact |",
           "|---|---|---|---|---|---|---|---|---|---|"]
    for level in LEVELS:
        n = games_2d if Level.parse(level).depth == 1 else games_3d
        won = stuck = other = moves = decisions = 0
        ms = 0.0
        for i in range(n):
            r = autoplay(Game(level, seed=item_seed(SEED, i)), assistant)
            won += r.status == "won"
            stuck += r.status == "stuck"
            other += r.status not in ("won", "stuck")
            moves += r.opens + r.flags
            decisions += r.decisions
            ms += r.decision_ms
        won_x = decisions_x = 0
        ms_x = 0.0
        for i in range(n):
            r = autoplay(Game(level, seed=item_seed(SEED, i)), assistant, exact=True)
            won_x += r.status == "won"
            decisions_x += r.decisions
            ms_x += r.decision_ms
        out.append(f"| {level} | {n} | {won / n:.1%} | {stuck / n:.1%} | {other} | "
                   f"{moves / n:.1f} | {decisions / n:.1f} | {ms / max(decisions, 1):.3f} | "
                   f"{won_x / n:.1%} | {ms_x / max(decisions_x, 1):.3f} |")
    return "\n".join(out)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=100)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--games", type=int, default=1000, help="games per 2-D level")
    ap.add_argument("--games-3d", type=int, default=300, help="games per 3-D preset")
    args = ap.parse_args(argv)
    positions = midgame_positions(args.positions)
    print(f"analyze on {args.positions} mid-game hard positions (half the safe cells open), "
          f"median of {args.repeats} calls each:\n")
    print(analyze_table(positions, args.repeats))
    print("\nautoplay without guessing (first click in the middle of the top face):\n")
    print(autoplay_table(args.games, args.games_3d))
    return 0


if __name__ == "__main__":
    sys.exit(main())
