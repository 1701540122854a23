"""Big Sokoban rooms, and a warm-up of every call that takes a time limit, for the
time-limit tests and ``asv_bench/report_limits.py``."""
import numpy as np

from levelforge.mines import Game
from levelforge.sokoban import Level, generate, solve
from levelforge.symmetry import generate as symmetry_generate


def room(width, height, nbox, seed=1):
    """An empty walled room with ``nbox`` boxes and goals placed at random inside it (off
    the cells next to the wall): on the bigger boards, far more search than any limit
    allows."""
    rng = np.random.default_rng(seed)
    walls = {(x, y) for x in range(width) for y in range(height)
             if x in (0, width - 1) or y in (0, height - 1)}
    inner = [(x, y) for x in range(2, width - 2) for y in range(2, height - 2)]
    pick = rng.choice(len(inner), 2 * nbox + 1, replace=False)
    cells = [inner[i] for i in pick]
    return Level(width, height, walls, frozenset(cells[:nbox]),
                 frozenset(cells[nbox:2 * nbox]), cells[-1])


def warm_up():
    """Compile (or load) the kernels of every limited call, so none is timed."""
    small = room(10, 10, 3)
    solve(small, max_nodes=1000)
    solve(small, max_nodes=1000, optimal=False)
    generate(1)
    symmetry_generate(4)
    Game("easy", seed=0, no_guess=True).open((2, 2, 0))
