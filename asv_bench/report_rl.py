"""Reinforcement-learning figures of issue 14 as markdown tables.

    python asv_bench/report_rl.py [--steps 20000] [--resets 200] [--gym-resets 10]
                                  [--dataset-count 100000] [--jobs 2] [--keep DIR]
                                  [--skip-env] [--skip-dataset] [--summarize DIR]

1. Environment: steps per second (random actions, levels reset when an episode ends)
   and resets per second (a fresh generated 10x10 / 4-box level every reset) of
   ``levelforge/Sokoban-v0`` against gym-sokoban's ``SokobanEnv`` (10x10, 4 boxes, its
   defaults) in the same run. gym-sokoban is loaded without its old-Gym dependency: a
   minimal stand-in for the few ``gym`` names it imports is put in ``sys.modules``
   (needs ``pip install --no-deps gym-sokoban imageio``). Each figure is the median of
   several repeats; the ratios compare medians of the same run.
2. Dataset: ``levelforge sokoban dataset`` of COUNT 10x10 / 4-box levels (the command's
   default configuration) on JOBS processes: time, levels per second, the distribution
   of optimal pushes and solver nodes, read back from the sidecars. ``--keep DIR`` keeps
   the dataset (a re-run resumes it); ``--summarize DIR`` prints the distribution of an
   existing dataset and its rate from the manifest's and the last sidecar's file times.

Figures are noisy: the machine is shared. Report what this run measured.
"""
import argparse
import glob
import importlib
import importlib.util
import json
import os
import statistics
import sys
import tempfile
import time
import types
from collections import Counter
from concurrent.futures import ProcessPoolExecutor

import numpy as np

from levelforge.sokoban.cli import DATASET_CONFIG
from levelforge.sokoban.dataset import build

SEED = 20261130


def load_gym_sokoban():
    """gym-sokoban's SokobanEnv class, loaded without its old-Gym dependency: a minimal
    stand-in for the few ``gym`` names it imports goes into ``sys.modules``, and its
    ``envs`` folder is imported as a package without its ``__init__`` (which pulls in
    the Boxoban downloader and ``requests``)."""
    spec = importlib.util.find_spec("gym_sokoban")
    if spec is None:
        print("(gym-sokoban not installed: pip install --no-deps gym-sokoban imageio)",
              file=sys.stderr)
        return None
    if "gym" not in sys.modules:
        gym = types.ModuleType("gym")
        gym.Env = object
        spaces = types.ModuleType("gym.spaces")
        discrete = types.ModuleType("gym.spaces.discrete")

        class Space:
            def __init__(self, *args, **kwargs):
                self.args = args

        spaces.Box = spaces.Discrete = discrete.Discrete = Space
        utils = types.ModuleType("gym.utils")
        utils.seeding = types.SimpleNamespace(np_random=lambda seed=None: (
            np.random.default_rng(seed), seed))
        for name, mod in {"gym": gym, "gym.spaces": spaces, "gym.spaces.discrete": discrete,
                          "gym.utils": utils}.items():
            sys.modules[name] = mod
    package = types.ModuleType("gym_sokoban_envs")
    package.__path__ = [os.path.join(spec.submodule_search_locations[0], "envs")]
    sys.modules["gym_sokoban_envs"] = package
    try:
        return importlib.import_module("gym_sokoban_envs.sokoban_env").SokobanEnv
    except ImportError as exc:
        print(f"(gym-sokoban could not be loaded: {exc})", file=sys.stderr)
        return None


def median_rate(fn, n, repeats):
    """Median over ``repeats`` of n / seconds for ``fn(n)``."""
    rates = []
    for _ in range(repeats):
        t = time.perf_counter()
        fn(n)
        rates.append(n / (time.perf_counter() - t))
    return statistics.median(rates)


def ours_steps(env, n, rng):
    """Steps only: the environment never truncates (max_steps is huge) and a solved
    level keeps taking steps, so no reset is timed here."""
    for a in rng.integers(0, env.action_space.n, n):
        env.step(int(a))


def gym_steps(env, n, rng, mode):
    """Steps only: gym-sokoban's step count is rewound so it never ends the episode."""
    for a in rng.integers(1, 9, n):
        env.step(int(a), observation_mode=mode)
        env.num_env_steps = 0


def env_table(args):
    import gymnasium as gym

    import levelforge.sokoban.env  # noqa: F401  (registers levelforge/Sokoban-v0)

    rng = np.random.default_rng(SEED)
    rows = ["| figure | levelforge | gym-sokoban, same run | ratio |", "|---|---|---|---|"]
    ours = {}
    for obs in ("channels", "rgb"):
        env = gym.make("levelforge/Sokoban-v0", observation=obs, max_steps=10**9).unwrapped
        env.reset(seed=SEED)
        ours[f"steps {obs}"] = median_rate(lambda n: ours_steps(env, n, rng), args.steps,
                                           args.repeats)
    env = gym.make("levelforge/Sokoban-v0").unwrapped
    env.reset(seed=SEED)
    ours["resets"] = median_rate(lambda n: [env.reset() for _ in range(n)], args.resets,
                                 args.repeats)
    theirs = {}
    gym_env_cls = load_gym_sokoban()
    if gym_env_cls is not None:
        import random
        random.seed(SEED)
        np.random.seed(SEED)
        genv = gym_env_cls(dim_room=(10, 10), num_boxes=4, max_steps=120)
        n = max(100, args.steps // 50)
        theirs["steps rgb"] = median_rate(lambda n: gym_steps(genv, n, rng, "rgb_array"), n,
                                          args.repeats)
        theirs["steps tiny"] = median_rate(
            lambda n: gym_steps(genv, n, rng, "tiny_rgb_array"), n, args.repeats)
        theirs["resets"] = median_rate(lambda n: [genv.reset() for _ in range(n)],
                                       args.gym_resets, 1)
    pairs = (("steps/s, channels observation (ours) vs its tiny RGB", "steps channels",
              "steps tiny"),
             ("steps/s, RGB observation (16 px tiles) vs its RGB", "steps rgb", "steps rgb"),
             ("resets/s, a fresh generated 10x10 / 4-box level", "resets", "resets"))
    for label, mine, other in pairs:
        t = theirs.get(other)
        rows.append(f"| {label} | {ours[mine]:,.0f} | "
                    + (f"{t:,.2f} | {ours[mine] / t:,.0f}x |" if t else "n/a | |"))
    print("\n".join(rows))
    print(f"\n(medians of {args.repeats} repeats of {args.steps} steps and {args.resets} "
          f"resets; gym-sokoban: {max(100, args.steps // 50)} steps, {args.gym_resets} "
          f"resets once; both environments called directly, without wrappers)\n")


def dataset_table(args):
    directory = args.keep or tempfile.mkdtemp(prefix="levelforge-dataset-")
    with ProcessPoolExecutor(args.jobs) as pool:
        t = time.perf_counter()
        summary = build(directory, args.dataset_count, SEED, dict(DATASET_CONFIG),
                        executor=pool, show_progress=False)
        seconds = time.perf_counter() - t
    print(f"| figure | measured |\n|---|---|\n"
          f"| levels written this run, processes | {summary.written:,}, {args.jobs} |\n"
          f"| wall time | {seconds:,.1f} s |\n"
          f"| levels/s | {summary.written / seconds:,.1f} |\n"
          f"| items generated this run (skipped: {dict(summary.skipped)}) | "
          f"{summary.items:,} |")
    distribution(directory)
    if not args.keep:
        print(f"\n(dataset written to {directory})")


def solve_ms(records):
    ms = [r["solve_ms"] for r in records if "solve_ms" in r]
    if not ms:
        return "n/a (written with --no-timings)"
    return f"{np.percentile(ms, 50):.2f} / {np.percentile(ms, 90):.2f} ({max(ms):.1f})"


def distribution(directory):
    """Optimal pushes and solver nodes over every level of a dataset's sidecars, and (for
    a run that was stopped) the levels per second from the files' times."""
    paths = sorted(glob.glob(os.path.join(directory, "*.jsonl")))
    records = []
    for path in paths:
        with open(path, encoding="utf-8") as fh:
            records.extend(json.loads(line) for line in fh)
    pushes = np.array([r["pushes"] for r in records])
    nodes = np.array([r["nodes"] for r in records])
    span = os.path.getmtime(paths[-1]) - os.path.getmtime(os.path.join(directory,
                                                                        "dataset.json"))
    q = (10, 25, 50, 75, 90)
    print(f"\n| over the dataset's {len(records):,} levels | |\n|---|---|\n"
          f"| from the manifest to the last sidecar write | {span:,.0f} s, "
          f"{len(records) / span:,.1f} levels/s |\n"
          f"| optimal pushes p10/p25/p50/p75/p90 (max) | "
          f"{' / '.join(f'{v:g}' for v in np.percentile(pushes, q))} ({pushes.max()}) |\n"
          f"| mean optimal pushes | {pushes.mean():.2f} |\n"
          f"| solver nodes p10/p25/p50/p75/p90 (max) | "
          f"{' / '.join(f'{v:g}' for v in np.percentile(nodes, q))} ({nodes.max()}) |\n"
          f"| independent solve ms p50 / p90 (max) | {solve_ms(records)} |\n"
          f"| in the target range | {np.mean([r['in_target'] for r in records]):.1%} |")
    hist = Counter(int(p) for p in pushes)
    print("\noptimal pushes: levels\n" + ", ".join(f"{p}: {n}" for p, n in sorted(hist.items())))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=20000)
    parser.add_argument("--resets", type=int, default=200)
    parser.add_argument("--gym-resets", type=int, default=10)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--dataset-count", type=int, default=100_000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--keep", help="write the dataset here (default: a temp directory)")
    parser.add_argument("--skip-env", action="store_true")
    parser.add_argument("--skip-dataset", action="store_true")
    parser.add_argument("--summarize", metavar="DIR",
                        help="only print the distribution of an existing dataset DIR")
    args = parser.parse_args()
    if args.summarize:
        distribution(args.summarize)
        return
    if not args.skip_env:
        env_table(args)
    if not args.skip_dataset:
        dataset_table(args)


if __name__ == "__main__":
    main()
