"""Farthest-state Sokoban generation (issue 23): time per 10x10, 4-box level at three push
ranges, in-target share and median milliseconds over fixed seeds. Warmed up in ``setup``."""

from levelforge.sokoban import Generator

from .common import SEEDS_100

RANGES = {"15-30": (15, 30), "25-40": (25, 40), "35-50": (35, 50)}


class GenerateFarthest:
    """One level of a fixed seed series per call (report_sokoban_hard.py: the full table)."""

    params = list(RANGES)
    param_names = ["pushes"]
    timeout = 300

    def setup(self, pushes):
        self.gen = Generator(width=10, height=10, boxes=4, pushes=RANGES[pushes],
                             method="farthest").warm_up()
        self.seeds = SEEDS_100[:20]
        self.i = 0

    def time_generate_one(self, pushes):
        self.gen.generate(self.seeds[self.i % len(self.seeds)])
        self.i += 1

    def track_in_target_percent(self, pushes):
        return 100.0 * sum(self.gen.generate(s).in_target for s in self.seeds) / len(self.seeds)

    track_in_target_percent.unit = "%"

    def track_median_ms(self, pushes):
        ms = sorted(self.gen.generate(s).elapsed_ms for s in self.seeds)
        return ms[len(ms) // 2]

    track_median_ms.unit = "ms"
