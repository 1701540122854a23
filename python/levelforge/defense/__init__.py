"""levelforge.defense: the core of a small lighthouse tower-defense game.

Distance fields from the beacon, placement that may never seal a route (cut cells),
a deterministic fixed-tick wave simulation with per-wave records and retry, and the
placement probes (pairs, campaigns, wall rescues, naive policies, barrier timing,
wave order).

>>> from levelforge.defense import Defense
>>> d = Defense(seed=0)
>>> d.place(2, 0, "cannon"); d.place(2, 5, "cannon")
>>> d.run_wave().outcome
'won'
"""
from .game import Defense, PlacementError, PlacementRejected, Totals, WaveRecord
from .pathing import cut_cells, distance_field, route
from .probes import probe_campaign, probe_pairs
from .strategies import probe_strategies
from .scenario import Scenario, WaveForecast

__all__ = [
    "Defense",
    "PlacementError",
    "PlacementRejected",
    "Scenario",
    "Totals",
    "WaveForecast",
    "WaveRecord",
    "cut_cells",
    "distance_field",
    "probe_campaign",
    "probe_pairs",
    "probe_strategies",
    "route",
]
