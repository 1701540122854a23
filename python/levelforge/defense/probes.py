"""Placement probes (the source design's studies): every legal opening pair, every
campaign grown from the surviving pairs, and wall rescues of losing pairs.

Every probe takes an optional :class:`concurrent.futures.Executor` (``None`` runs in this
process); the work is cut into chunks (never one task per simulation) and the results are
identical whatever the executor.

>>> r = probe_pairs(Scenario.lighthouse())
>>> 0 < r.surviving < r.legal_pairs
True
"""
from __future__ import annotations

import math
from concurrent.futures import Executor, as_completed
from dataclasses import dataclass
from typing import Iterable

import numpy as np

from ..errors import ConfigError
from ..progress import progress
from ..seeding import check_seed
from ..timing import ms_since, now_ns
from .game import Rules
from .pathing import CutWorkspace
from .scenario import Scenario

STRATEGIES = ("row_order", "nearest_beacon", "nearest_entrance", "nearest_centre")


def _scenario(scenario):
    if scenario is None:
        return Scenario.lighthouse()
    if not isinstance(scenario, Scenario):
        raise ConfigError(f"scenario must be a Scenario, got {type(scenario).__name__}")
    return scenario


def _run_chunks(fn, chunks, executor, desc, show):
    """``[fn(*chunk) for chunk in chunks]`` in order, in process or on ``executor``."""
    bar = progress(len(chunks), desc, unit="chunk", enabled=show)
    try:
        if executor is None:
            out = []
            for c in chunks:
                out.append(fn(*c))
                bar.update(1)
            return out
        futures = {executor.submit(fn, *c): i for i, c in enumerate(chunks)}
        out = [None] * len(chunks)
        for f in as_completed(futures):
            out[futures[f]] = f.result()
            bar.update(1)
        return out
    finally:
        bar.close()


def _split(items, n_chunks):
    n_chunks = max(1, min(len(items), n_chunks))
    size = math.ceil(len(items) / n_chunks) if items else 1
    return [items[i:i + size] for i in range(0, len(items), size)]


class _Board:
    """Legal cells of a board (flat), via one cut-cell pass for both entrances."""

    def __init__(self, rules: Rules):
        self.r = rules
        self.ws = CutWorkspace(rules.height, rules.width)
        self.ws.is_source[:] = 0
        self.ws.is_source[rules.entrances] = 1
        self.blocked = np.empty(rules.n, np.uint8)
        self.forbidden = rules.reefs.copy()
        self.forbidden[rules.entrances] = 1
        self.forbidden[rules.beacon] = 1

    def legal(self, built):
        b = self.blocked
        np.copyto(b, self.r.reefs)
        b[list(built)] = 1
        cut = self.ws.run(b, self.r.beacon)
        ok = (b == 0) & (cut == 0) & (self.forbidden == 0)
        return np.flatnonzero(ok).tolist()


def _xy(rules, c):
    return [int(c % rules.width), int(c // rules.width)]


# ---------------------------------------------------------------------------- pairs
@dataclass(frozen=True)
class PairsResult:
    """Every legal unordered pair of cannons affordable at the start, played through wave 1.
    ``pairs`` holds ``(cells, outcome, health, kills, leaks_a, leaks_b)`` per pair."""
    scenario: str
    seed: int
    legal_pairs: int
    surviving: int
    pairs: tuple
    elapsed_ms: float

    def survivors(self) -> list:
        """The ``((x, y), (x, y))`` openings that survived wave 1, with their health."""
        return [(p[0], p[2]) for p in self.pairs if p[1] == "won"]

    def to_dict(self) -> dict:
        """JSON-ready dict."""
        return {"probe": "pairs", "scenario": self.scenario, "seed": self.seed,
                "legal_pairs": self.legal_pairs, "surviving": self.surviving,
                "pairs": [{"cannons": [list(a), list(b)], "outcome": o, "health": h,
                           "kills": kl, "leaks_a": la, "leaks_b": lb}
                          for (a, b), o, h, kl, la, lb in self.pairs],
                "elapsed_ms": self.elapsed_ms}


def _legal_pairs(rules):
    board = _Board(rules)
    first = board.legal(())
    pairs = []
    for i, a in enumerate(first):
        second = set(board.legal((a,)))
        pairs.extend((a, b) for b in first[i + 1:] if b in second)
    return pairs


def _pairs_chunk(scenario, seed, pairs):
    rules = Rules(scenario, seed)
    health = [scenario.economy.beacon_health] * len(pairs)
    return rules.run_rows(1, [list(p) for p in pairs], [[1, 1]] * len(pairs), health)


def probe_pairs(scenario: Scenario | None = None, seed: int = 0, executor: Executor | None = None,
                show_progress: bool = False) -> PairsResult:
    """Simulate wave 1 for every unordered legal pair of cannons (placed in row order).

    >>> probe_pairs().legal_pairs > 100
    True
    """
    start = now_ns()
    s = _scenario(scenario)
    seed = check_seed(seed)
    e = s.economy
    if 2 * e.cannon_cost > e.initial_material:
        raise ConfigError("the initial material does not pay for two cannons")
    rules = Rules(s, seed)
    pairs = _legal_pairs(rules)
    chunks = [(s, seed, c) for c in _split(pairs, 16)]
    outs = _run_chunks(_pairs_chunk, chunks, executor, "pairs", show_progress)
    out = np.concatenate(outs) if outs else np.zeros((0, 6), np.int64)
    status = {1: "won", 2: "lost"}
    rows = tuple(((tuple(_xy(rules, a)), tuple(_xy(rules, b))), status[int(o[0])], int(o[1]),
                  int(o[2]), int(o[3]), int(o[4])) for (a, b), o in zip(pairs, out))
    return PairsResult(s.name, seed, len(pairs), sum(r[1] == "won" for r in rows), rows,
                       ms_since(start))


# ---------------------------------------------------------------------------- campaign
@dataclass(frozen=True)
class CampaignResult:
    """Campaigns from every surviving pair: one more legal, affordable cannon per build
    phase, all waves played, for each seed (only the final wave depends on the seed).

    ``survivors[i]`` counts the sequences that survive wave ``i + 1`` (wave 1: the surviving
    pairs; wave 2: pair plus one reinforcement, the design's 1,462), ``final_sequences``
    the legal sequences that start the final wave (the design's 68,109), the same for
    every seed. ``winning_sequences[seed]`` counts those that win it,
    ``winning_openings[seed]`` the distinct pairs with at least one, ``openings_won_by_all``
    the pairs that win on every seed. ``openings`` holds ``(cells, wins per seed)``."""
    scenario: str
    seeds: tuple
    survivors: tuple
    final_sequences: int
    winning_sequences: dict
    winning_openings: dict
    openings_won_by_all: int
    openings: tuple
    elapsed_ms: float

    @property
    def surviving_pairs(self) -> int:
        """Openings (pairs) that survive wave 1."""
        return self.survivors[0]

    def winning_set(self, seed) -> set:
        """The openings with at least one winning sequence on ``seed``."""
        i = self.seeds.index(seed)
        return {cells for cells, wins in self.openings if wins[i] > 0}

    def lines(self) -> list:
        """The figures as the design reports them, one line each.

        >>> r = CampaignResult("x", (19, 20), (3, 5), 40, {19: 7, 20: 6}, {19: 2, 20: 2}, 2,
        ...                    (), 1.0)
        >>> print("\\n".join(r.lines()))
        wave 1 survivors: 3 openings; wave 2 survivors: 5 sequences; 40 sequences reach wave 3
        seed 19: 7 winning sequences, 2 distinct winning openings
        seed 20: 6 winning sequences, 2 distinct winning openings
        openings winning on every seed: 2
        """
        surv = [f"wave 1 survivors: {self.survivors[0]} openings"] + \
            [f"wave {i + 1} survivors: {n} sequences" for i, n in enumerate(self.survivors)
             if i > 0]
        out = ["; ".join(surv + [f"{self.final_sequences} sequences reach wave "
                                 f"{len(self.survivors) + 1}"])]
        out += [f"seed {sd}: {self.winning_sequences[sd]} winning sequences, "
                f"{self.winning_openings[sd]} distinct winning openings" for sd in self.seeds]
        out.append(f"openings winning on every seed: {self.openings_won_by_all}")
        return out

    def to_dict(self) -> dict:
        """JSON-ready dict."""
        return {"probe": "campaign", "scenario": self.scenario, "seeds": list(self.seeds),
                "survivors": list(self.survivors), "final_sequences": self.final_sequences,
                "winning_sequences": {str(k): v for k, v in self.winning_sequences.items()},
                "winning_openings": {str(k): v for k, v in self.winning_openings.items()},
                "openings_won_by_all": self.openings_won_by_all,
                "openings": [{"cannons": [list(a), list(b)],
                              "winning_sequences": {str(s): n for s, n in zip(self.seeds, w)}}
                             for (a, b), w in self.openings],
                "elapsed_ms": self.elapsed_ms}


def _campaign_chunk(scenario, seeds, items):
    """items: ((a, b), health after wave 1). Returns per item: (survivors of each middle
    wave, sequences starting the final wave, wins per seed)."""
    rules = [Rules(scenario, sd) for sd in seeds]
    r0 = rules[0]
    board = _Board(r0)
    e = scenario.economy
    n_waves = len(scenario.waves)
    results = []
    for pair, health in items:
        # frontier: (built cells in order, health) after each finished wave
        frontier = [(list(pair), health)]
        material = e.initial_material - 2 * e.cannon_cost
        survived = []
        for wave in range(2, n_waves + 1):
            material += e.material_per_wave
            buy = material >= e.cannon_cost
            if buy:
                material -= e.cannon_cost
            rows, healths = [], []
            for built, h in frontier:
                options = board.legal(built) if buy else [None]
                for c in options:
                    rows.append(built + ([c] if c is not None else []))
                    healths.append(h + e.health_per_wave)
            if wave < n_waves:
                out = r0.run_rows(wave, rows, [[1] * len(x) for x in rows], healths)
                frontier = [(row, int(o[1])) for row, o in zip(rows, out) if o[0] == 1]
                survived.append(len(frontier))
            else:
                wins = []
                for r in rules:
                    out = r.run_rows(wave, rows, [[1] * len(x) for x in rows], healths)
                    wins.append(int((out[:, 0] == 1).sum()))
                results.append((survived, len(rows), tuple(wins)))
                break
        else:  # a scenario of one wave: the pair itself is the whole campaign
            results.append(([], 1, tuple(1 for _ in seeds)))
    return results


def probe_campaign(scenario: Scenario | None = None, seeds: Iterable[int] = (0, 1),
                   executor: Executor | None = None, pairs: PairsResult | None = None,
                   show_progress: bool = False) -> CampaignResult:
    """From every pair that survives wave 1, add one legal, affordable cannon in each
    later build phase and play every wave, for each seed (default one of each parity).

    ``pairs`` may pass a :class:`~levelforge.defense.probes.PairsResult` computed before (its seed must not matter:
    only the final wave depends on the seed).

    >>> import dataclasses
    >>> p = probe_pairs(); few = dataclasses.replace(p, pairs=p.pairs[:60])
    >>> r = probe_campaign(seeds=(0, 1), pairs=few)
    >>> r.surviving_pairs <= 60 and r.winning_openings[0] <= r.surviving_pairs
    True
    """
    start = now_ns()
    s = _scenario(scenario)
    seeds = tuple(check_seed(x) for x in seeds)
    if not seeds:
        raise ConfigError("seeds must not be empty")
    if len(set(seeds)) != len(seeds):
        raise ConfigError(f"seeds must be distinct, got {seeds}")
    if any(w.entrance == "alternate" for w in s.waves[:-1]):
        raise ConfigError("the campaign probe needs seed-independent waves before the last "
                          "(only the final wave may alternate entrances)")
    if pairs is None:
        pairs = probe_pairs(s, seeds[0], executor, show_progress)
    elif not isinstance(pairs, PairsResult) or pairs.scenario != s.name:
        raise ConfigError("pairs must be the PairsResult of the same scenario")
    rules = Rules(s, seeds[0])
    w = rules.width
    items = [((a[1] * w + a[0], b[1] * w + b[0]), h) for (a, b), h in pairs.survivors()]
    chunks = [(s, seeds, c) for c in _split(items, 64)]
    outs = [x for part in _run_chunks(_campaign_chunk, chunks, executor, "campaign",
                                      show_progress) for x in part]
    openings = tuple((cells, wins) for (cells, _), (_, _, wins) in zip(pairs.survivors(),
                                                                       outs))
    middle = tuple(sum(sv[i] for sv, _, _ in outs) for i in range(len(s.waves) - 2))
    return CampaignResult(
        s.name, seeds, (len(items),) + middle, sum(n for _, n, _ in outs),
        {sd: sum(wn[i] for _, _, wn in outs) for i, sd in enumerate(seeds)},
        {sd: sum(1 for _, _, wn in outs if wn[i] > 0) for i, sd in enumerate(seeds)},
        sum(1 for _, _, wn in outs if min(wn) > 0), openings, ms_since(start))


# ---------------------------------------------------------------------------- rescues
@dataclass(frozen=True)
class RescuesResult:
    """Wall rescues (the design's probe): of the two-cannon openings that lose wave 1, the
    ``examined`` with the most kills (ties: row order) each get one wall on every legal
    cell; ``rescues`` counts the placements that turn the loss into a survival. The
    population is those placements, not all openings: it is not a success rate.
    ``rescued`` holds ``(cannons, wall, health)`` per rescue."""
    scenario: str
    seed: int
    losing_pairs: int
    examined: int
    min_kills: int
    placements: int
    rescues: int
    rescued_openings: int
    rescued: tuple
    elapsed_ms: float

    def line(self) -> str:
        """The figure with its population.

        >>> print(RescuesResult("x", 0, 800, 90, 6, 3900, 188, 70, (), 1.0).line())
        ... # doctest: +NORMALIZE_WHITESPACE
        wall rescues: 188 of 3900 one-wall placements on the 90 losing openings with the most
        kills (6 or more; 800 openings lose wave 1) turn the loss into a survival; 70 of the
        90 openings have at least one
        """
        return (f"wall rescues: {self.rescues} of {self.placements} one-wall placements on "
                f"the {self.examined} losing openings with the most kills ({self.min_kills} "
                f"or more; {self.losing_pairs} openings lose wave 1) turn the loss into a "
                f"survival; {self.rescued_openings} of the {self.examined} openings have at "
                "least one")

    def to_dict(self) -> dict:
        """JSON-ready dict."""
        return {"probe": "rescues", "scenario": self.scenario, "seed": self.seed,
                "losing_pairs": self.losing_pairs, "examined": self.examined,
                "min_kills": self.min_kills, "placements": self.placements,
                "rescues": self.rescues, "rescued_openings": self.rescued_openings,
                "rescued": [{"cannons": [list(a), list(b)], "wall": list(wl), "health": h}
                            for (a, b), wl, h in self.rescued],
                "elapsed_ms": self.elapsed_ms}


def _rescues_chunk(scenario, seed, items):
    """items: (a, b) flat cannon cells. Returns per item: [(wall cell, status, health)]."""
    rules = Rules(scenario, seed)
    board = _Board(rules)
    rows, owner = [], []
    for i, (a, b) in enumerate(items):
        for c in board.legal((a, b)):
            rows.append([a, b, c])
            owner.append(i)
    out = rules.run_rows(1, rows, [[1, 1, 0]] * len(rows),
                         [scenario.economy.beacon_health] * len(rows)) if rows else []
    res = [[] for _ in items]
    for row, i, o in zip(rows, owner, out):
        res[i].append((row[2], int(o[0]), int(o[1])))
    return res


def probe_rescues(scenario: Scenario | None = None, seed: int = 0, top: int = 90,
                  executor: Executor | None = None, pairs: PairsResult | None = None,
                  show_progress: bool = False) -> RescuesResult:
    """Add one wall, on every legal cell, to each of the ``top`` losing two-cannon
    openings with the most kills, and count the placements that survive wave 1.

    >>> r = probe_rescues(top=5)
    >>> r.examined, r.rescues <= r.placements
    (5, True)
    """
    start = now_ns()
    s = _scenario(scenario)
    seed = check_seed(seed)
    e = s.economy
    if isinstance(top, bool) or not isinstance(top, int) or top < 1:
        raise ConfigError(f"top must be a positive integer, got {top!r}")
    if 2 * e.cannon_cost + e.wall_cost > e.initial_material:
        raise ConfigError("the initial material does not pay for two cannons and a wall")
    if pairs is None:
        pairs = probe_pairs(s, seed, executor, show_progress)
    elif not isinstance(pairs, PairsResult) or pairs.scenario != s.name:
        raise ConfigError("pairs must be the PairsResult of the same scenario")
    losing = [p for p in pairs.pairs if p[1] == "lost"]
    chosen = sorted(losing, key=lambda p: -p[3])[:top]   # stable: ties keep row order
    rules = Rules(s, seed)
    w = rules.width
    items = [tuple(y * w + x for x, y in p[0]) for p in chosen]
    chunks = [(s, seed, c) for c in _split(items, 16)]
    outs = [x for part in _run_chunks(_rescues_chunk, chunks, executor, "rescues",
                                      show_progress) for x in part]
    rescued = tuple((p[0], tuple(_xy(rules, c)), h) for p, walls in zip(chosen, outs)
                    for c, status, h in walls if status == 1)
    return RescuesResult(s.name, seed, len(losing), len(chosen),
                         min((p[3] for p in chosen), default=0),
                         sum(len(x) for x in outs), len(rescued),
                         len({r[0] for r in rescued}), rescued, ms_since(start))


__all__ = ["CampaignResult", "PairsResult", "RescuesResult", "probe_campaign", "probe_pairs",
           "probe_rescues"]
