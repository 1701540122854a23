"""The design's four naive policies: cannons placed as far as material allows, on the
legal cell first in board row order, nearest the beacon, nearest the coming wave's first
entrance, or nearest the map's centre (ties: row order). They are baselines: on the
lighthouse every one of them loses in wave 1 or 2 on both entrance orders.

>>> r = probe_strategies(seeds=(0,))
>>> sorted(g["strategy"] for g in r.games) == sorted(STRATEGIES)
True
"""
from __future__ import annotations

from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Iterable

from ..seeding import check_seed
from ..timing import ms_since, now_ns
from .game import Defense
from .probes import _run_chunks, _scenario, _split
from .scenario import Scenario

STRATEGIES = ("row_order", "nearest_beacon", "nearest_entrance", "nearest_centre")


def pick(d: Defense, strategy: str) -> tuple[int, int] | None:
    """The cell ``strategy`` builds its next cannon on in game ``d`` (None: no legal cell).

    >>> pick(Defense(), "nearest_beacon")
    (3, 7)
    """
    s = d.scenario
    cells = d.legal_cells("cannon")
    if not cells:
        return None
    if strategy == "row_order":
        return cells[0]
    if strategy == "nearest_beacon":
        tx, ty = s.beacon
    elif strategy == "nearest_entrance":
        tx, ty = s.entrances[d.forecast().order[0]]
    else:
        tx, ty = (s.width - 1) / 2, (s.height - 1) / 2
    return min(cells, key=lambda c: ((c[0] - tx) ** 2 + (c[1] - ty) ** 2, c[1], c[0]))


def play_strategy(scenario, seed, strategy) -> dict:
    """One game of ``strategy``: in every build phase, cannons while the material pays for
    one and a legal cell is left. Returns the game as a dict (buildings, records, totals)."""
    d = Defense(scenario, seed)
    cost = scenario.economy.cannon_cost
    placed = []
    while d.phase == "build":
        while d.material >= cost:
            cell = pick(d, strategy)
            if cell is None:
                break
            d.place(*cell, "cannon")
            placed.append([*cell, "cannon"])
        d.run_wave()
    return {"strategy": strategy, "seed": seed, "outcome": d.phase,
            "waves_won": d.totals.waves_won, "material_left": d.material,
            "buildings": placed, "records": [r.to_dict() for r in d.records],
            "totals": d.totals.to_dict()}


def _strategies_chunk(scenario, jobs):
    return [play_strategy(scenario, seed, strategy) for seed, strategy in jobs]


@dataclass(frozen=True)
class StrategiesResult:
    """The four naive policies for each seed; ``games`` holds one dict per game."""
    scenario: str
    seeds: tuple
    games: tuple
    elapsed_ms: float

    def table(self) -> str:
        """A markdown table: the result and cannons per wave of every policy and seed.

        >>> print(probe_strategies(seeds=(0,)).table().splitlines()[0])
        | policy | seed | result | waves won | cannons before each wave |
        """
        lines = ["| policy | seed | result | waves won | cannons before each wave |",
                 "|---|---|---|---|---|"]
        for g in self.games:
            lost = next((r["wave"] for r in g["records"] if r["outcome"] == "lost"), None)
            result = "won all waves" if lost is None else f"lost wave {lost}"
            per_wave = " / ".join(str(r["cannons"]) for r in g["records"])
            lines.append(f"| {g['strategy']} | {g['seed']} | {result} | {g['waves_won']} | "
                         f"{per_wave} |")
        return "\n".join(lines)

    def to_dict(self) -> dict:
        """JSON-ready dict."""
        return {"probe": "strategies", "scenario": self.scenario, "seeds": list(self.seeds),
                "games": list(self.games), "elapsed_ms": self.elapsed_ms}


def probe_strategies(scenario: Scenario | None = None, seeds: Iterable[int] = (0, 1),
                     executor: Executor | None = None,
                     show_progress: bool = False) -> StrategiesResult:
    """Play the four naive policies on each seed (one game each)."""
    start = now_ns()
    s = _scenario(scenario)
    seeds = tuple(check_seed(x) for x in seeds)
    jobs = [(sd, st) for st in STRATEGIES for sd in seeds]
    chunks = [(s, c) for c in _split(jobs, 8)]
    games = [g for part in _run_chunks(_strategies_chunk, chunks, executor, "strategies",
                                       show_progress) for g in part]
    return StrategiesResult(s.name, seeds, tuple(games), ms_since(start))
