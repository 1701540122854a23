"""Reinforcement-learning benchmarks: environment steps and resets, dataset levels.

The comparison with gym-sokoban in the same run is ``report_rl.py``. Kernels are warmed
up in ``setup``; seeds are fixed (``common.SEED``).
"""
import tempfile

import numpy as np

from levelforge.sokoban.dataset import DatasetGenerator, build

from .common import SEED, SEEDS_100

STEPS = 1000


class EnvStep:
    """1,000 steps of random moves (no resets: the episode never truncates)."""

    params = ["channels", "rgb"]
    param_names = ["observation"]

    def setup(self, observation):
        import levelforge.sokoban.env as sokoban_env
        self.env = sokoban_env.SokobanEnv(observation=observation, max_steps=10**9)
        self.env.reset(seed=SEED)
        self.actions = [int(a) for a in np.random.default_rng(SEED).integers(0, 4, STEPS)]

    def time_1000_steps(self, observation):
        step = self.env.step
        for a in self.actions:
            step(a)


class EnvReset:
    """One reset: a fresh generated level (10x10, 4 boxes, 15-30 pushes by default)."""

    params = ["default", "7x7-2box"]
    param_names = ["levels"]

    def setup(self, levels):
        import levelforge.sokoban.env as sokoban_env
        config = None if levels == "default" else {"width": 7, "height": 7, "boxes": 2}
        self.env = sokoban_env.SokobanEnv(levels=config)
        self.env.reset(seed=SEED)

    def time_reset(self, levels):
        self.env.reset()


class DatasetLevel:
    """One dataset level: generation plus the independent solve that measures its effort."""

    def setup(self):
        self.gen = DatasetGenerator({"width": 10, "height": 10, "boxes": 4,
                                     "pushes": (15, 30)}).warm_up()
        self.i = 0

    def time_dataset_level(self):
        self.gen.generate(SEEDS_100[self.i % len(SEEDS_100)])
        self.i += 1


class DatasetBuild:
    """100 levels written in Boxoban's format with sidecars, in-process."""

    timeout = 300

    def setup(self):
        DatasetGenerator({"width": 7, "height": 7, "boxes": 2}).warm_up()

    def time_build_100(self):
        build(tempfile.mkdtemp(), 100, SEED, {"width": 7, "height": 7, "boxes": 2},
              show_progress=False)
