"""levelforge.defense: the core of a small lighthouse tower-defense game.

Distance fields from the beacon, placement that may never seal a route (cut cells),
a deterministic fixed-tick wave simulation with per-wave records and retry, and the
placement probes (pairs, campaigns, wall rescues, naive policies, barrier timing,
wave order).

>>> from levelforge.defense import Defense
>>> d = Defense(seed=0)
>>> d.scenario.plan[0]      # the lighthouse's reference opening: two cannons and a wall
((4, 5, 'cannon'), (3, 6, 'cannon'), (3, 1, 'wall'))
>>> for x, y, kind in d.scenario.plan[0]:
...     d.place(x, y, kind)
>>> d.run_wave().outcome
'won'
"""
from .editor import BalancePart, BalanceReport, Fact, Layout, balance, balance_part, layout
from .frames import Frame, frames
from .game import Defense, PlacementError, PlacementRejected, Totals, WaveRecord
from .pathing import cut_cells, distance_field, route
from .probes import probe_campaign, probe_pairs, probe_rescues
from .scenario import Scenario, WaveForecast
from .strategies import probe_strategies
from .studies import probe_barrier_timing, probe_wave_order

__all__ = [
    "BalancePart",
    "BalanceReport",
    "Defense",
    "Fact",
    "Frame",
    "Layout",
    "PlacementError",
    "PlacementRejected",
    "Scenario",
    "Totals",
    "WaveForecast",
    "WaveRecord",
    "balance",
    "balance_part",
    "cut_cells",
    "distance_field",
    "frames",
    "layout",
    "probe_barrier_timing",
    "probe_campaign",
    "probe_pairs",
    "probe_rescues",
    "probe_strategies",
    "probe_wave_order",
    "route",
]
