"""Hard Sokoban levels (issue 23) as markdown tables (single process, one core).

    python asv_bench/report_sokoban_hard.py [--seeds 100] [--count 1000] [--rooms 12]
                                            [--skip-ranges] [--skip-split]
                                            [--skip-hardest] [--quantiles N]

1. Ranges: 10x10 with 4 boxes, ``--seeds`` consecutive seeds (from 1000) for 15-30, 25-40
   and 35-50 pushes with ``method="farthest"``: in target, median and p90 milliseconds
   per level after warm-up, the achieved push distribution against the asked range.
2. Harder than Boxoban-hard: ``--count`` levels of :data:`HARDER` (each proof replayed
   and checked), p50 / p90 of optimal pushes and solver effort (stored states) next to
   Boxoban-hard's figures measured by the same solver (17 pushes, 123 states at p50).
3. Hardest level found per room size and box count (6x6/2 to 12x12/6): the generator
   with no target over ``--rooms`` rooms (half as many from 11x11 up), each searched to
   the end of its pull space where it fits (then no start state of that room and goals
   is farther: a physical limit) or, past the one-million-state cap, by a beam search
   (then the level is the farthest proved, not a limit).
4. ``--quantiles N``: the effort quantiles behind ``levelforge.sokoban.dataset``'s
   ``EFFORT_SPLITS`` over N levels of their configuration (load-independent counts).

Quiet-machine runtime with the defaults: about 10 minutes (ranges ~2 min, split ~5 min,
hardest ~3 min; estimated from runs on a loaded machine). In-target counts, pushes and
efforts are load-independent; times are not.
"""
import argparse
import statistics
import time
from collections import Counter

import numpy as np

from levelforge.sokoban import Generator, replay
from levelforge.sokoban.dataset import EFFORT_SPLITS, EFFORT_SPLITS_CONFIG
from levelforge.sokoban.farthest import FarthestGenerator

SEED0 = 1000
RANGES = ((15, 30), (25, 40), (35, 50))
BOXOBAN_HARD = {"pushes_p50": 17, "pushes_p90": 25, "nodes_p50": 123, "nodes_p90": 564}
HARDER = {"width": 10, "height": 10, "boxes": 4, "pushes": (25, 40), "method": "farthest"}
"""The "harder than Boxoban-hard" configuration: Boxoban's room size and box count."""
HARDEST = ((6, 2), (7, 2), (7, 3), (8, 3), (9, 3), (10, 4), (11, 5), (12, 6))


def pct(values, q):
    return float(np.percentile(values, q)) if values else float("nan")


def timed(gen, seeds):
    out = []
    for seed in seeds:
        t = time.perf_counter_ns()
        r = gen.generate(seed)
        out.append((r, (time.perf_counter_ns() - t) / 1e6))
    return out


def check_proof(r):
    state = replay(r.level, r.solution)
    if not state.is_solved or sum(ch.isupper() for ch in r.solution) != r.pushes:
        raise SystemExit(f"seed {r.seed}: the proof does not replay")


def ranges(seeds):
    print(f"## 10x10, 4 boxes, method='farthest', {len(seeds)} consecutive seeds\n")
    print("| asked | in target | median ms | p90 ms | achieved pushes p10/p50/p90 "
          "| per third of the range (low/mid/high) | distinct lengths |")
    print("|---|---|---|---|---|---|---|")
    spreads = []
    for lo, hi in RANGES:
        gen = Generator(width=10, height=10, boxes=4, pushes=(lo, hi), method="farthest")
        gen.warm_up()
        got = timed(gen, seeds)
        for r, _ in got:
            check_proof(r)
        ms = [t for _, t in got]
        pushes = [r.pushes for r, _ in got]
        inside = [p for p in pushes if lo <= p <= hi]
        third = (hi - lo + 1) / 3
        thirds = Counter(min(2, int((p - lo) / third)) for p in inside)
        print(f"| {lo}-{hi} | {sum(r.in_target for r, _ in got)}/{len(got)} "
              f"| {statistics.median(ms):.0f} | {pct(ms, 90):.0f} "
              f"| {pct(pushes, 10):.0f}/{pct(pushes, 50):.0f}/{pct(pushes, 90):.0f} "
              f"| {thirds[0]}/{thirds[1]}/{thirds[2]} | {len(set(inside))} of {hi - lo + 1} |")
        spreads.append(f"{lo}-{hi}: " + " ".join(f"{p}:{n}" for p, n in
                                                 sorted(Counter(pushes).items())))
    print("\nAchieved pushes (length:levels):\n")
    for line in spreads:
        print(f"- {line}")
    print()


def harder(count):
    gen = Generator(**HARDER)
    gen.warm_up()
    t = time.perf_counter()
    got = [r for r, _ in timed(gen, range(SEED0, SEED0 + count))]
    seconds = time.perf_counter() - t
    for r in got:
        check_proof(r)
    pushes = [r.pushes for r in got]
    nodes = [r.difficulty.nodes for r in got]
    changes = [r.difficulty.box_changes for r in got]
    print(f"## Harder than Boxoban-hard: {count} levels of {HARDER}\n")
    print("| set | pushes p50 | pushes p90 | stored states p50 | stored states p90 "
          "| box changes p50 | proofs replayed |")
    print("|---|---|---|---|---|---|---|")
    b = BOXOBAN_HARD
    print(f"| Boxoban-hard (issue 23, same solver) | {b['pushes_p50']} | {b['pushes_p90']} "
          f"| {b['nodes_p50']} | {b['nodes_p90']} | - | - |")
    print(f"| this split | {pct(pushes, 50):.0f} | {pct(pushes, 90):.0f} "
          f"| {pct(nodes, 50):.0f} | {pct(nodes, 90):.0f} | {pct(changes, 50):.0f} "
          f"| {len(got)}/{len(got)} |")
    above = pct(pushes, 50) > b["pushes_p50"] and pct(nodes, 50) > b["nodes_p50"]
    print(f"\nboth p50 above Boxoban-hard: {'yes' if above else 'NO'}; "
          f"{len(got) / seconds:.1f} levels/s on one core\n")


def hardest(rooms):
    print(f"## Hardest level found per room size and box count ({rooms} rooms each)\n")
    print("| room | boxes | room kind | pushes | stored states | box changes "
          "| whole pull space searched | states | seconds |")
    print("|---|---|---|---|---|---|---|---|---|")
    best_levels = []
    for size, boxes in HARDEST:
        for kind in ("templates", "open"):
            gen = FarthestGenerator(width=size, height=size, boxes=boxes, pushes=None,
                                    room=kind, inner_walls=size,
                                    rooms=rooms if size <= 10 else max(1, rooms // 2))
            t = time.perf_counter()
            r = gen.generate(SEED0)
            seconds = time.perf_counter() - t
            check_proof(r)
            s = r.search
            whole = "yes: a physical limit" if s.exhaustive else (
                "no: beam search" if s.beam else "no: state cap")
            print(f"| {size}x{size} | {boxes} | {kind} | {r.pushes} | {r.difficulty.nodes} "
                  f"| {r.difficulty.box_changes} | {whole} | {s.states} | {seconds:.1f} |")
            best_levels.append((size, boxes, kind, r))
    print()
    for size, boxes, kind, r in best_levels:
        if kind == "templates" and size in (8, 10):
            print(f"; {size}x{size}/{boxes} {kind}: {r.pushes} pushes\n{r.level.to_xsb()}")


def quantiles(n):
    gen = Generator(**EFFORT_SPLITS_CONFIG)
    nodes = sorted(r.difficulty.nodes for r, _ in timed(gen, range(SEED0, SEED0 + n)))
    print(f"## Effort quantiles over {n} levels of {EFFORT_SPLITS_CONFIG}\n")
    print("| q25 | q50 | q75 | q90 | splits in use |")
    print("|---|---|---|---|---|")
    print(f"| {pct(nodes, 25):.0f} | {pct(nodes, 50):.0f} | {pct(nodes, 75):.0f} "
          f"| {pct(nodes, 90):.0f} | {EFFORT_SPLITS} |\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seeds", type=int, default=100, help="seeds per push range (100)")
    ap.add_argument("--count", type=int, default=1000, help="levels of the harder split")
    ap.add_argument("--rooms", type=int, default=4,
                    help="rooms per hardest configuration (4; half from 11x11 up)")
    ap.add_argument("--quantiles", type=int, default=0, help="levels for the effort quantiles")
    ap.add_argument("--skip-ranges", action="store_true")
    ap.add_argument("--skip-split", action="store_true")
    ap.add_argument("--skip-hardest", action="store_true")
    args = ap.parse_args()
    if not args.skip_ranges:
        ranges(range(SEED0, SEED0 + args.seeds))
    if not args.skip_split:
        harder(args.count)
    if not args.skip_hardest:
        hardest(args.rooms)
    if args.quantiles:
        quantiles(args.quantiles)


if __name__ == "__main__":
    main()
