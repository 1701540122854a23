"""Big Sokoban rooms for the time-limit tests and ``asv_bench/report_limits.py``."""
import numpy as np

from levelforge.sokoban import Level


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
