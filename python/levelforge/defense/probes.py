"""Placement probes (the source design's studies): every legal opening pair, every
campaign grown from the surviving pairs, four naive strategies and barrier timing.

Every probe takes an optional :class:`concurrent.futures.Executor` (``None`` runs in this
process); the work is cut into chunks (never one task per simulation) and the results are
identical whatever the executor.

>>> r = probe_pairs(Scenario.lighthouse())
>>> 0 < r.surviving < r.legal_pairs
True
"""
from __future__ import annotations

import math
from concurrent.futures import as_completed
from dataclasses import dataclass

import numpy as np

from ..errors import ConfigError
from ..progress import progress
from ..seeding import check_seed
from ..timing import ms_since, now_ns
from .game import Defense, Rules
from .pathing import CutWorkspace, distance_field
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


def probe_pairs(scenario=None, seed=0, executor=None, show_progress=False) -> PairsResult:
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
    phase, all waves played, for each seed. ``winning_sequences[seed]`` counts the cannon
    sequences that win; ``winning_openings[seed]`` the distinct pairs with at least one."""
    scenario: str
    seeds: tuple
    surviving_pairs: int
    sequences: int
    winning_sequences: dict
    winning_openings: dict
    openings: tuple
    elapsed_ms: float

    def to_dict(self) -> dict:
        """JSON-ready dict."""
        return {"probe": "campaign", "scenario": self.scenario, "seeds": list(self.seeds),
                "surviving_pairs": self.surviving_pairs, "sequences": self.sequences,
                "winning_sequences": {str(k): v for k, v in self.winning_sequences.items()},
                "winning_openings": {str(k): v for k, v in self.winning_openings.items()},
                "openings": [{"cannons": [list(a), list(b)],
                              "winning_sequences": {str(s): n for s, n in zip(self.seeds, w)}}
                             for (a, b), w in self.openings],
                "elapsed_ms": self.elapsed_ms}


def _campaign_chunk(scenario, seeds, items):
    """items: ((a, b), health after wave 1). Returns per item: sequences, wins per seed."""
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
            else:
                wins = []
                for r in rules:
                    out = r.run_rows(wave, rows, [[1] * len(x) for x in rows], healths)
                    wins.append(int((out[:, 0] == 1).sum()))
                results.append((len(rows), tuple(wins)))
                break
        else:  # a scenario of one or two waves: the pair itself is the whole campaign
            results.append((1, tuple(1 for _ in seeds)))
    return results


def probe_campaign(scenario=None, seeds=(0, 1), executor=None, pairs=None,
                   show_progress=False) -> CampaignResult:
    """From every pair that survives wave 1, add one legal, affordable cannon in each
    later build phase and play every wave, for each seed (default one of each parity).

    ``pairs`` may pass a :class:`PairsResult` computed before (its seed must not matter:
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
    openings = tuple((cells, wins) for (cells, _), (_, wins) in zip(pairs.survivors(), outs))
    return CampaignResult(
        s.name, seeds, len(items), sum(n for n, _ in outs) * len(seeds),
        {sd: sum(wn[i] for _, wn in outs) for i, sd in enumerate(seeds)},
        {sd: sum(1 for _, wn in outs if wn[i] > 0) for i, sd in enumerate(seeds)},
        openings, ms_since(start))


# ---------------------------------------------------------------------------- strategies
def _pick(d: Defense, strategy: str):
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


def _barrier(d: Defense, planned):
    """The legal wall cell that, with this phase's ``planned`` cannons, lengthens the
    coming wave's routes most and leaves every route open; ties go to row order."""
    s = d.scenario
    used = d.forecast().entrances
    best, best_len = None, -1
    for x, y in d.legal_cells("wall"):
        if (x, y) in planned:
            continue
        blocked = d.distance_map() < 0
        blocked[y, x] = True
        for px, py in planned:
            blocked[py, px] = True
        dist = distance_field(blocked, s.beacon)
        steps = [int(dist[s.entrances[e][1], s.entrances[e][0]]) for e in ("A", "B")]
        if min(steps) < 0:
            continue
        length = sum(v for e, v in zip(("A", "B"), steps) if e in used)
        if length > best_len:
            best, best_len = (x, y), length
    return best


def _play(scenario, seed, strategy, barrier_wave=None, plan=None):
    """One game: before wave 1 as many cannons as the initial material pays for, then one
    per build phase. The cannons follow ``plan`` (cells per build phase) where it has them
    and they are legal, else the strategy picks. Returns (game dict, cannons per phase)."""
    d = Defense(scenario, seed)
    e = scenario.economy
    placed, phases = [], []
    barrier = None
    deviations = 0
    while d.phase == "build":
        todo = list(plan[d.wave - 1]) if plan is not None and d.wave <= len(plan) else []
        if barrier_wave == d.wave:
            barrier = _barrier(d, set(todo))
            if barrier is not None:
                d.place(*barrier, "wall")
                placed.append([*barrier, "wall"])
        n = max(1, e.initial_material // e.cannon_cost) if d.wave == 1 else 1
        chosen = []
        for i in range(n):
            cell = todo[i] if i < len(todo) else None
            if cell is not None and not d.check_placement(*cell, "cannon").ok:
                deviations += 1
                cell = None
            if cell is None:
                cell = _pick(d, strategy)
            if cell is None or not d.check_placement(*cell, "cannon").ok:
                break
            d.place(*cell, "cannon")
            placed.append([*cell, "cannon"])
            chosen.append(cell)
        phases.append(chosen)
        d.run_wave()
    game = {"strategy": strategy, "seed": seed, "barrier_before_wave": barrier_wave,
            "barrier": list(barrier) if barrier is not None else None,
            "plan_deviations": deviations,
            "outcome": d.phase, "waves_won": d.totals.waves_won, "buildings": placed,
            "records": [r.to_dict() for r in d.records], "totals": d.totals.to_dict()}
    return game, phases


def _strategies_chunk(scenario, jobs):
    """jobs: (seed, strategy). The strategy's own game, then the same plan (its cannons)
    with a barrier before each wave."""
    games = []
    for seed, strategy in jobs:
        base, plan = _play(scenario, seed, strategy)
        games.append(base)
        for bw in range(1, len(scenario.waves) + 1):
            games.append(_play(scenario, seed, strategy, bw, plan)[0])
    return games


@dataclass(frozen=True)
class StrategiesResult:
    """The four naive strategies (two cannons before wave 1, then one per build phase)
    for each seed, and the barrier-timing study: the same plan (the strategy game's
    cannons, phase by phase) with a barrier placed before wave 1, 2 or 3 (the legal wall
    that lengthens the coming routes most). Where the plan has no cannon for a phase (its
    game ended before) or a planned cell became illegal (counted in ``plan_deviations``),
    the strategy picks. ``games`` holds one dict per game."""
    scenario: str
    seeds: tuple
    games: tuple
    elapsed_ms: float

    def table(self) -> str:
        """A markdown table: waves won per strategy, seed and barrier timing.

        >>> print(probe_strategies(seeds=(0,)).table().splitlines()[0])
        | strategy | seed | no barrier | barrier before wave 1 | wave 2 | wave 3 |
        """
        lines = ["| strategy | seed | no barrier | barrier before wave 1 | wave 2 | wave 3 |",
                 "|---|---|---|---|---|---|"]
        by = {(g["strategy"], g["seed"], g["barrier_before_wave"]): g for g in self.games}
        for st in STRATEGIES:
            for sd in self.seeds:
                cells = []
                for bw in (None, 1, 2, 3):
                    g = by.get((st, sd, bw))
                    cells.append("-" if g is None else
                                 f"{g['outcome']} ({g['waves_won']} won)")
                lines.append(f"| {st} | {sd} | " + " | ".join(cells) + " |")
        return "\n".join(lines)

    def to_dict(self) -> dict:
        """JSON-ready dict."""
        return {"probe": "strategies", "scenario": self.scenario, "seeds": list(self.seeds),
                "games": list(self.games), "elapsed_ms": self.elapsed_ms}


def probe_strategies(scenario=None, seeds=(0, 1), executor=None,
                     show_progress=False) -> StrategiesResult:
    """Play the naive strategies as baselines plus the barrier-timing study.

    >>> r = probe_strategies(seeds=(0,))
    >>> sorted({g["strategy"] for g in r.games}) == sorted(STRATEGIES)
    True
    """
    start = now_ns()
    s = _scenario(scenario)
    seeds = tuple(check_seed(x) for x in seeds)
    jobs = [(sd, st) for st in STRATEGIES for sd in seeds]
    chunks = [(s, c) for c in _split(jobs, 8)]
    games = [g for part in _run_chunks(_strategies_chunk, chunks, executor, "strategies",
                                       show_progress) for g in part]
    return StrategiesResult(s.name, seeds, tuple(games), ms_since(start))


__all__ = ["CampaignResult", "PairsResult", "STRATEGIES", "StrategiesResult",
           "probe_campaign", "probe_pairs", "probe_strategies"]
