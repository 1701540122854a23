"""Sokoban figures of issue 2 as markdown tables (single process, one core).

    python asv_bench/report_sokoban.py [--seeds 100] [--gym-seeds-10x10 10]
                                       [--microban-limit 10] [--skip-microban]
                                       [--only-campaign] [--json FILE]

1. Generator, 7x7 with 2 boxes (target 4-8) and 10x10 with 4 boxes (target 15-30), with
   and without ``spread``: in-target share, median / p90 milliseconds per level over
   consecutive seeds after warm-up, and the push lengths produced; gym-sokoban's
   ``generate_room`` at the same room size and box count in the same run (loaded by file
   path; its failures raise RuntimeWarning/RuntimeError and its environment retries, so
   retries count in its time), and the ratio of the medians.
2. Microban: solved count, total and worst time with a time limit per level.
3. Campaign: per configuration, the distribution of the longest push-optimal length
   that 60 random pulls reach on one board (100 boards), the target range chosen from
   it, and the in-target share of the campaign stage. ``--json FILE`` writes each
   stage's lengths and target, for the chart of the campaign's push distributions.

Figures are noisy: the machine is shared. Report what this run measured.
"""
import argparse
import importlib.util
import os
import random
import statistics
import time
from collections import Counter

import numpy as np

import chartdata
from levelforge.sokoban import Generator, Solver, campaign, collections
from levelforge.sokoban.generator import CAMPAIGN_STAGES, LEVELS_PER_STAGE

SEED0 = 1000  # first seed of the consecutive series (benchmarks/common.py SEEDS_100)


def load_gym_room_utils():
    spec = importlib.util.find_spec("gym_sokoban")
    if spec is None:
        return None
    path = os.path.join(spec.submodule_search_locations[0], "envs", "room_utils.py")
    mod_spec = importlib.util.spec_from_file_location("gym_room_utils", path)
    mod = importlib.util.module_from_spec(mod_spec)
    mod_spec.loader.exec_module(mod)
    return mod


def gym_times(room_utils, size, boxes, seeds):
    """Milliseconds per room of gym-sokoban's generate_room with its environment's
    settings (num_steps = 1.7 * (w + h)), retried on failure as its environment does."""
    out, retries = [], 0
    for seed in seeds:
        random.seed(seed)
        np.random.seed(seed)
        t = time.perf_counter_ns()
        while True:
            try:
                room_utils.generate_room(dim=(size, size), num_steps=int(1.7 * 2 * size),
                                         num_boxes=boxes, second_player=False)
                break
            except (RuntimeError, RuntimeWarning):
                retries += 1
        out.append((time.perf_counter_ns() - t) / 1e6)
    return out, retries


def pct(values, q):
    return float(np.percentile(values, q))


def generator_table(args):
    room_utils = load_gym_room_utils()
    rows = ["| configuration | levels | in target | median ms | p90 ms | pushes: levels | "
            "gym-sokoban median ms (levels, retries) | gym / ours |",
            "|---|---|---|---|---|---|---|---|"]
    gym_cache = {}
    for (w, boxes, pushes, gym_n, spread) in ((7, 2, (4, 8), args.seeds, False),
                                              (7, 2, (4, 8), args.seeds, True),
                                              (10, 4, (15, 30), args.gym_seeds_10x10, False),
                                              (10, 4, (15, 30), args.gym_seeds_10x10, True)):
        gen = Generator(width=w, height=w, boxes=boxes, pushes=pushes, spread=spread).warm_up()
        res = [gen.generate(SEED0 + i) for i in range(args.seeds)]
        ms = [r.elapsed_ms for r in res]
        ours = statistics.median(ms)
        hit = sum(r.in_target for r in res)
        gym = "not installed"
        ratio = "-"
        if room_utils is not None and gym_n > 0:
            if (w, boxes) not in gym_cache:
                gym_cache[w, boxes] = gym_times(room_utils, w, boxes,
                                                range(SEED0, SEED0 + gym_n))
            gms, retries = gym_cache[w, boxes]
            gm = statistics.median(gms)
            gym = f"{gm:.2f} ({gym_n}, {retries})"
            ratio = f"{gm / ours:.0f}x"
        lengths = " ".join(f"{k}:{v}" for k, v in sorted(Counter(r.pushes for r in res).items()))
        rows.append(f"| {w}x{w}, {boxes} boxes, {pushes[0]}-{pushes[1]} pushes"
                    f"{', spread (default)' if spread else ', stop at lo'} | {len(res)} "
                    f"| {hit}/{len(res)} | {ours:.3f} | {pct(ms, 90):.3f} | {lengths} | {gym} "
                    f"| {ratio} |")
    return "\n".join(rows)


def microban_table(args):
    levels = collections.load("microban")
    solver = Solver(max_nodes=args.max_nodes).warm_up()
    results = []
    for k, level in enumerate(levels, 1):
        r = solver.solve(level, time_limit=args.microban_limit)
        results.append((k, r))
    solved = [r for _, r in results if r.solved]
    worst_k, worst = max(results, key=lambda kr: kr[1].elapsed_ms)
    unsolved = ", ".join(f"{k} ({r.status})" for k, r in results if not r.solved) or "none"
    rows = ["| Microban | solved | total s | worst s (level) | median ms | not solved |",
            "|---|---|---|---|---|---|",
            f"| {len(levels)} levels, {args.microban_limit:g} s limit each, max_nodes "
            f"{args.max_nodes} | {len(solved)}/{len(levels)} | "
            f"{sum(r.elapsed_ms for _, r in results) / 1000:.1f} | "
            f"{worst.elapsed_ms / 1000:.2f} ({worst_k}) | "
            f"{statistics.median(r.elapsed_ms for _, r in results):.2f} | {unsolved} |"]
    return "\n".join(rows)


def campaign_table(args, stages=None):
    """The campaign table; each stage's lengths and target go into ``stages`` (a list)."""
    rows = ["| stage (levels) | size | boxes | inner walls | longest optimum in 60 pulls: "
            "p10 / p25 / median / p75 / p90 / max | target | in target | median ms |",
            "|---|---|---|---|---|---|---|---|"]
    for i, (w, h, b, iw, _) in enumerate(CAMPAIGN_STAGES):
        # 60 pulls make optima of at most 60 pushes, so a target of 61 is never met and
        # the closest candidate, the longest optimum met, comes back
        probe = Generator(width=w, height=h, boxes=b, inner_walls=iw, pushes=(61, 61),
                          skip=1, rebuilds=1, max_pulls=60, node_cap=200_000)
        lengths = [probe.generate(s).pushes for s in range(args.campaign_boards)]
        cfg = campaign(i * LEVELS_PER_STAGE)
        gen = Generator(**cfg).warm_up()
        res = [gen.generate(SEED0 + s) for s in range(args.seeds)]
        dist = " / ".join(f"{pct(lengths, q):g}" for q in (10, 25, 50, 75, 90))
        lo = i * LEVELS_PER_STAGE
        if stages is not None:
            stages.append({"stage": i, "size": f"{w}x{h}", "boxes": b, "inner_walls": iw,
                           "lengths": lengths, "target": list(cfg["pushes"]),
                           "in_target": sum(r.in_target for r in res), "levels": len(res)})
        rows.append(f"| {i} ({lo}-{lo + LEVELS_PER_STAGE - 1}) | {w}x{h} | {b} | {iw} | "
                    f"{dist} / {max(lengths)} | {cfg['pushes'][0]}-{cfg['pushes'][1]} | "
                    f"{sum(r.in_target for r in res)}/{len(res)} | "
                    f"{statistics.median(r.elapsed_ms for r in res):.3f} |")
    return "\n".join(rows)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=100)
    ap.add_argument("--gym-seeds-10x10", type=int, default=10)
    ap.add_argument("--microban-limit", type=float, default=10.0)
    ap.add_argument("--max-nodes", type=int, default=4_000_000)
    ap.add_argument("--campaign-boards", type=int, default=100)
    ap.add_argument("--skip-microban", action="store_true")
    ap.add_argument("--only-campaign", action="store_true", help="the campaign table only")
    ap.add_argument("--json", metavar="FILE", help="write the campaign's lengths as JSON")
    args = ap.parse_args(argv)
    if not args.only_campaign:
        print("### Generator (one process, after warm-up)\n")
        print(generator_table(args))
    print("\n### Campaign: what each configuration produces\n")
    stages = []
    print(campaign_table(args, stages))
    chartdata.save(args.json, {"campaign": stages, "boards": args.campaign_boards})
    if not args.skip_microban and not args.only_campaign:
        print("\n### Microban, push-optimal\n")
        print(microban_table(args))


if __name__ == "__main__":
    main()
