"""The design's two plan studies: barrier timing and the wave-order comparison.

A *plan* is the buildings of each build phase, ``((x, y, kind), ...)`` per phase (phase
``i`` is built before wave ``i + 1``). :func:`play_plan` plays one; a placement the game
refuses stops the plan there and is reported, never skipped silently.

>>> r = play_plan(Scenario.lighthouse(), 0, Scenario.lighthouse().plan)
>>> r.outcome, r.refused
('victory', None)
"""
from __future__ import annotations

from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Iterable, NamedTuple

from ..errors import ConfigError
from ..seeding import check_seed
from ..timing import ms_since, now_ns
from .game import Defense, Rules
from .probes import CampaignResult, _Board, _run_chunks, _scenario, _split, probe_campaign
from .scenario import Scenario

REGIONS_X = ("west", "centre", "east")
REGIONS_Y = ("entrance side", "middle", "front")


@dataclass(frozen=True)
class PlanResult:
    """One plan played on one seed: the game's phase at the end (``victory``/``defeat``,
    or ``build`` when the plan stopped at a ``refused`` placement: ``(phase, (x, y, kind),
    code)``), the waves won, the beacon's health, and the per-wave records (dicts)."""
    outcome: str
    waves_won: int
    health: int
    refused: tuple | None
    records: tuple

    @property
    def lost_wave(self):
        """The wave lost, or None."""
        return next((r["wave"] for r in self.records if r["outcome"] == "lost"), None)

    def short(self) -> str:
        """``won, health 3`` / ``lost wave 2`` / ``refused (3, 6) wall: occupied``."""
        if self.refused is not None:
            (x, y, kind), code = self.refused[1], self.refused[2]
            return f"refused {(x, y)} {kind}: {code}"
        if self.outcome == "victory":
            return f"won, health {self.health}"
        return f"lost wave {self.lost_wave}"


def play_plan(scenario: Scenario, seed: int, plan) -> PlanResult:
    """Play ``plan`` (buildings per build phase) on ``seed``; phases beyond the plan build
    nothing. Stops at the first refused placement."""
    d = Defense(scenario, seed)
    phase = 0
    while d.phase == "build":
        for x, y, kind in (plan[phase] if phase < len(plan) else ()):
            err = d.check_placement(x, y, kind)
            if not err.ok:
                return PlanResult("build", d.totals.waves_won, d.health,
                                  (phase, (x, y, kind), err.code),
                                  tuple(r.to_dict() for r in d.records))
            d.place(x, y, kind)
        d.run_wave()
        phase += 1
    return PlanResult(d.phase, d.totals.waves_won, d.health, None,
                      tuple(r.to_dict() for r in d.records))


def region(cells, scenario: Scenario) -> str:
    """The region of an opening by its cannons' centroid: west/centre/east by thirds of the
    width, entrance side/middle/front by thirds of the height (entrances on the top rows,
    the beacon at the bottom: the front is the beacon's side).

    >>> region([(0, 8), (1, 7)], Scenario.lighthouse())
    'west front'
    """
    cx = sum(x for x, _ in cells) / len(cells)
    cy = sum(y for _, y in cells) / len(cells)
    third = lambda v, size: min(2, int(3 * v / (size - 1))) if size > 1 else 1  # noqa: E731
    return f"{REGIONS_X[third(cx, scenario.width)]} {REGIONS_Y[third(cy, scenario.height)]}"


def cannon_sequences(scenario, seeds, opening):
    """Every campaign from ``opening`` (``(x, y, kind)`` built before wave 1): one legal
    cannon per later build phase, all waves played in the kernel batch. Returns
    ``[(cells added per phase, ((status, health) per seed))]`` for the sequences that reach
    the final wave, in enumeration (row) order (status 1 won, 2 lost); ``[]`` when the
    opening loses before.

    >>> seqs = cannon_sequences(Scenario.lighthouse(), (0, 1), Scenario.lighthouse().plan[0])
    >>> any(all(st == 1 for st, _ in res) for _, res in seqs)
    True
    """
    rules = [Rules(scenario, sd) for sd in seeds]
    board = _Board(rules[0])
    e = scenario.economy
    w = scenario.width
    n = len(scenario.waves)
    cells = [y * w + x for x, y, _ in opening]
    flags = [int(kind == "cannon") for _, _, kind in opening]
    out = rules[0].run_rows(1, [cells], [flags], [e.beacon_health])
    if out[0, 0] != 1:
        return []
    frontier = [((), cells, int(out[0, 1]))]
    for wave in range(2, n + 1):
        rows = [(added + ((c % w, c // w),), built + [c], h + e.health_per_wave)
                for added, built, h in frontier for c in board.legal(built)]
        built = [b for _, b, _ in rows]
        kinds = [flags + [1] * (len(b) - len(flags)) for b in built]
        healths = [h for _, _, h in rows]
        if wave < n:
            res = rules[0].run_rows(wave, built, kinds, healths)
            frontier = [(a, b, int(o[1])) for (a, b, _), o in zip(rows, res) if o[0] == 1]
        else:
            per_seed = [r.run_rows(wave, built, kinds, healths) for r in rules]
            return [(a, tuple((int(o[i, 0]), int(o[i, 1])) for o in per_seed))
                    for i, (a, _, _) in enumerate(rows)]
    return [((), tuple((1, int(out[0, 1])) for _ in seeds))]


def best_sequence(seqs):
    """The sequence that wins on every seed with the most health left (summed; ties: row
    order), or None."""
    wins = [(sum(h for _, h in res), added) for added, res in seqs
            if all(st == 1 for st, _ in res)]
    if not wins:
        return None
    top = max(h for h, _ in wins)
    return next(a for h, a in wins if h == top)


def representatives(scenario, seeds, campaign):
    """The barrier study's openings, one per region, by this rule: among the openings that
    win on every seed, the one with the most winning sequences (summed over the seeds;
    ties: row order); its plan is its cannon sequence that wins on every seed with the
    most health left (summed; ties: row order). Returns ``[(region, plan)]``."""
    best = {}
    for cells, wins in campaign.openings:
        if min(wins) == 0:
            continue
        key = region(cells, scenario)
        if key not in best or sum(wins) > sum(best[key][1]):
            best[key] = (cells, wins)
    out = []
    for ry in REGIONS_Y:
        for rx in REGIONS_X:
            key = f"{rx} {ry}"
            if key not in best:
                continue
            opening = tuple((x, y, "cannon") for x, y in best[key][0])
            added = best_sequence(cannon_sequences(scenario, seeds, opening))
            out.append((key, (opening,) + tuple(((x, y, "cannon"),) for x, y in added)))
    return out


def _with_barrier(plan, wave, cell):
    phases = [list(p) for p in plan] + [[] for _ in range(max(0, wave - len(plan)))]
    phases[wave - 1].append((cell[0], cell[1], "wall"))
    return tuple(tuple(p) for p in phases)


def _timing_chunk(scenario, seeds, jobs):
    """jobs: (plan index, plan). Every cell x timing x seed for each plan."""
    cells = [(x, y) for y, row in enumerate(scenario.map) for x, ch in enumerate(row)
             if ch == "."]
    out = []
    for i, plan in jobs:
        base = tuple(play_plan(scenario, sd, plan) for sd in seeds)
        cases = {}
        for wave in range(1, len(scenario.waves) + 1):
            for cell in cells:
                cases[wave, cell] = tuple(play_plan(scenario, sd,
                                                    _with_barrier(plan, wave, cell))
                                          for sd in seeds)
        out.append((i, base, cases))
    return out


@dataclass(frozen=True)
class BarrierTimingResult:
    """The barrier-timing study: for each plan (the region representatives, then the
    scenario's reference plan), no barrier against one wall placed before wave 1, 2 or 3
    on each open cell, on each seed. A case is (plan, cell, wave, seed); the wall is placed
    after that phase's planned cannons. ``refused`` cases (the wall or a later planned
    building is refused: occupied, sealing a route, not enough material) are not played
    further; ``not_reached`` cases lost before the wall's wave, so the wall never stood.
    ``plans`` holds ``(label, plan, no-barrier PlanResult per seed)``; ``cases`` maps
    ``(plan index, (x, y), wave)`` to a PlanResult per seed."""
    scenario: str
    seeds: tuple
    plans: tuple
    cases: dict
    elapsed_ms: float

    def counts(self, i, wave) -> dict:
        """Case counts of plan ``i`` with the wall before ``wave``: played, won, lost per
        wave, refused, not reached (cases are per seed)."""
        c = {"played": 0, "won": 0, "refused": 0, "not_reached": 0}
        for (j, _, wv), results in self.cases.items():
            if j != i or wv != wave:
                continue
            for r in results:
                if r.refused is not None:
                    c["refused"] += 1
                    continue
                if len(r.records) < wave:
                    c["not_reached"] += 1
                    continue
                c["played"] += 1
                if r.outcome == "victory":
                    c["won"] += 1
                else:
                    c[f"lost wave {r.lost_wave}"] = c.get(f"lost wave {r.lost_wave}", 0) + 1
        return c

    @property
    def played(self) -> int:
        """Cases played with the wall standing (the design's 2,780 for its map)."""
        return sum(self.counts(i, w)["played"] for i in range(len(self.plans))
                   for w in range(1, self._waves() + 1))

    def _waves(self):
        return max(w for _, _, w in self.cases) if self.cases else 0

    def early_loses_late_wins(self) -> list:
        """``(plan index, cell, wave lost)`` where the wall placed before every wave but
        the last loses, in the same wave on every seed, and the same wall before the last
        wave wins on every seed: the design's example of a wall that pays only when it
        waits (its wall loses wave 2 early). Those losing wave 2 come first."""
        last = self._waves()
        out = []
        for (i, cell, wv), res in self.cases.items():
            if wv != last or not all(r.outcome == "victory" for r in res):
                continue
            early = [r for w in range(1, last) for r in self.cases[i, cell, w]]
            lost = {r.lost_wave for r in early if r.refused is None}
            if early and len(lost) == 1 and None not in lost and \
                    all(r.refused is None for r in early):
                out.append((i, cell, lost.pop()))
        return sorted(out, key=lambda t: (t[2] != 2, t[0], t[1][1], t[1][0]))

    def table(self) -> str:
        """Markdown: one row per plan, the no-barrier result per seed and the won / played
        cases with the wall before each wave (losses by wave in brackets)."""
        waves = range(1, self._waves() + 1)
        head = "| plan | opening | reinforcements | no barrier | " + \
            " | ".join(f"wall before wave {w}: won / played (lost in wave 1, 2, ...)"
                       for w in waves) + " | refused |"
        lines = [head, "|" + "---|" * (5 + len(waves))]
        for i, (label, plan, base) in enumerate(self.plans):
            opening = " ".join(f"{k[0]}{x},{y}" for x, y, k in plan[0])
            later = " then ".join(" ".join(f"{k[0]}{x},{y}" for x, y, k in p)
                                  for p in plan[1:])
            cells = []
            refused = 0
            for w in waves:
                c = self.counts(i, w)
                refused += c["refused"] + c["not_reached"]
                losses = ", ".join(str(c.get(f"lost wave {v}", 0)) for v in waves)
                cells.append(f"{c['won']} / {c['played']} ({losses})")
            lines.append(f"| {label} | {opening} | {later} | "
                         f"{' / '.join(r.short() for r in base)} | " + " | ".join(cells) +
                         f" | {refused} |")
        return "\n".join(lines)

    def example(self) -> str:
        """The first wall that loses when placed early and wins when it waits, as the
        design's table: kills and leaks in the wave the early wall loses, and the result
        on each seed, for each timing."""
        found = self.early_loses_late_wins()
        if not found:
            return "no wall loses when placed early and wins when placed before the last wave"
        i, cell, lost = found[0]
        label, plan, _ = self.plans[i]
        lines = [f"plan {label}: {plan_text(plan)}; wall at {cell}", "",
                 f"| wall placed | wave {lost} kills / leaks A / leaks B (seed {self.seeds[0]}) "
                 "| " + " | ".join(f"seed {sd}" for sd in self.seeds) + " |",
                 "|---|---|" + "---|" * len(self.seeds)]
        for w in range(1, self._waves() + 1):
            res = self.cases[i, cell, w]
            rec = res[0].records[lost - 1]
            lines.append(f"| before wave {w} | {rec['kills']} / {rec['leaks_a']} / "
                         f"{rec['leaks_b']} | " + " | ".join(r.short() for r in res) + " |")
        return "\n".join(lines)

    def to_dict(self) -> dict:
        """JSON-ready dict (every case)."""
        return {"probe": "barrier-timing", "scenario": self.scenario, "seeds": list(self.seeds),
                "plans": [{"label": lb, "plan": [[list(b) for b in ph] for ph in plan],
                           "no_barrier": [r.short() for r in base]}
                          for lb, plan, base in self.plans],
                "cases": [{"plan": i, "cell": list(cell), "wave": w,
                           "results": [r.short() for r in res]}
                          for (i, cell, w), res in sorted(self.cases.items())],
                "played": self.played,
                "early_loses_late_wins": [[i, list(c), w]
                                          for i, c, w in self.early_loses_late_wins()],
                "elapsed_ms": self.elapsed_ms}


def plan_text(plan) -> str:
    """``c3,5 c4,5 | c4,2 | c5,4`` (c cannon, w wall; phases split by ``|``).

    >>> plan_text(((( 1, 0, "cannon"), (3, 1, "wall")), ((5, 2, "cannon"),)))
    'c1,0 w3,1 | c5,2'
    """
    return " | ".join(" ".join(f"{k[0]}{x},{y}" for x, y, k in p) for p in plan)


def probe_barrier_timing(scenario: Scenario | None = None, seeds: Iterable[int] = (0, 1),
                         executor: Executor | None = None,
                         campaign: CampaignResult | None = None,
                         show_progress: bool = False) -> BarrierTimingResult:
    """The barrier-timing study on the region representatives (see :func:`~levelforge.defense.studies.representatives`)
    plus the scenario's reference plan (if it has one).

    ``campaign`` may pass a :class:`~levelforge.defense.probes.CampaignResult` of the same
    scenario and seeds computed before.
    """
    start = now_ns()
    s = _scenario(scenario)
    seeds = tuple(check_seed(x) for x in seeds)
    if campaign is None:
        campaign = probe_campaign(s, seeds, executor, show_progress=show_progress)
    elif campaign.scenario != s.name or tuple(campaign.seeds) != seeds:
        raise ConfigError("campaign must be the CampaignResult of the same scenario and seeds")
    plans = representatives(s, seeds, campaign)
    if s.plan:
        plans.append(("reference", s.plan))
    jobs = list(enumerate(p for _, p in plans))
    chunks = [(s, seeds, c) for c in _split(jobs, len(jobs))]
    outs = [x for part in _run_chunks(_timing_chunk, chunks, executor, "barrier timing",
                                      show_progress) for x in part]
    cases = {}
    rows = []
    for (i, base, cs), (label, plan) in zip(outs, plans):
        rows.append((label, plan, base))
        for (wave, cell), res in cs.items():
            cases[i, cell, wave] = res
    return BarrierTimingResult(s.name, seeds, tuple(rows), cases, ms_since(start))


# ---------------------------------------------------------------------------- wave order
class WaveOrderSide(NamedTuple):
    """One scenario of a wave-order comparison: the opening's wave-1 result, the wave-2
    reinforcement positions that survive wave 2, the sequences (one cannon per later
    build phase) that win every wave, the best of them (most health left; ties: row
    order) and ``{sequence: PlanResult}`` for every sequence that reached the last wave
    (plus the other side's best)."""
    scenario: str
    wave1: str
    positions: int
    wins: int
    best: tuple | None
    results: dict


@dataclass(frozen=True)
class WaveOrderResult:
    """One fixed opening on two scenarios (e.g. two wave orders), one seed."""
    opening: tuple
    seed: int
    sides: tuple
    elapsed_ms: float

    def table(self) -> str:
        """The design's comparison table, plus each side's best sequence played on both."""
        a, b = self.sides
        lines = [f"opening {plan_text((self.opening,))}, seed {self.seed}", "",
                 f"| | {a.scenario} | {b.scenario} |", "|---|---|---|",
                 f"| the opening in wave 1 | {a.wave1} | {b.wave1} |",
                 f"| wave-2 reinforcement positions that survive wave 2 | {a.positions} | "
                 f"{b.positions} |",
                 f"| sequences that win all waves | {a.wins} | {b.wins} |"]
        for side in (a, b):
            if side.best is None:
                continue
            res = [sd.results.get(side.best) for sd in (a, b)]
            lines.append(f"| {side.scenario}'s best: wave 2 " +
                         " then wave 3 ".join(f"{x},{y}" for x, y in side.best) + " | " +
                         " | ".join("-" if r is None else r.short() for r in res) + " |")
        return "\n".join(lines)

    def to_dict(self) -> dict:
        """JSON-ready dict."""
        return {"probe": "wave-order", "opening": [list(b) for b in self.opening],
                "seed": self.seed,
                "sides": [{"scenario": sd.scenario, "wave1": sd.wave1,
                           "wave2_positions": sd.positions, "winning_sequences": sd.wins,
                           "best": None if sd.best is None else [list(c) for c in sd.best]}
                          for sd in self.sides],
                "elapsed_ms": self.elapsed_ms}


def _reinforced(scenario, seed, opening, added):
    """The opening, then one cannon per later build phase; the PlanResult."""
    return play_plan(scenario, seed, (opening,) + tuple(((x, y, "cannon"),) for x, y in added))


def _side(scenario, seed, opening):
    first = play_plan(scenario, seed, (opening,))
    if first.refused is not None:
        raise ConfigError(f"opening on {scenario.name}: {first.short()}")
    wave1 = first.records[0]["outcome"]
    results, positions = {}, 0
    frontier = [()] if wave1 == "won" else []
    n = len(scenario.waves)
    for wave in range(2, n + 1):
        nxt = []
        for added in frontier:
            d = Defense(scenario, seed)
            for phase in ((opening,) + tuple(((x, y, "cannon"),) for x, y in added)):
                for x, y, kind in phase:
                    d.place(x, y, kind)
                d.run_wave()
            for cell in d.legal_cells("cannon"):
                res = _reinforced(scenario, seed, opening, added + (cell,))
                if wave == n:
                    results[added + (cell,)] = res
                elif res.records[wave - 1]["outcome"] == "won":
                    nxt.append(added + (cell,))
                    positions += wave == 2
        frontier = nxt
    wins = {q: r for q, r in results.items() if r.outcome == "victory"}
    best = max(wins, key=lambda q: (wins[q].health, [(-y, -x) for x, y in q]), default=None)
    return WaveOrderSide(scenario.name, "won" if wave1 == "won" else "lost", positions,
                         len(wins), best, results)


def probe_wave_order(opening: Iterable[tuple[int, int, str]] | None = None,
                     scenarios: Iterable[Scenario] | None = None,
                     seed: int = 19) -> WaveOrderResult:
    """Run one fixed opening (cannons and walls before wave 1; default: the first phase of
    the scenario's reference plan) on two scenarios, default the lighthouse's earlier wave
    order A -> A -> both (``Scenario.lighthouse("aab")``) and the shipped A -> B -> both,
    with every legal reinforcement cannon in each later build phase.

    >>> r = probe_wave_order()
    >>> [side.scenario for side in r.sides]
    ['lighthouse-aab', 'lighthouse']
    """
    start = now_ns()
    seed = check_seed(seed)
    if scenarios is None:
        scenarios = (Scenario.lighthouse("aab"), Scenario.lighthouse())
    scenarios = tuple(_scenario(s) for s in scenarios)
    if len(scenarios) != 2:
        raise ConfigError(f"wave order compares two scenarios, got {len(scenarios)}")
    if opening is None:
        if not scenarios[1].plan:
            raise ConfigError("no opening given and the scenario has no reference plan")
        opening = scenarios[1].plan[0]
    opening = tuple((int(x), int(y), str(k)) for x, y, k in opening)
    sides = [_side(s, seed, opening) for s in scenarios]
    for i, side in enumerate(sides):   # each side's best, played on the other too
        other = sides[1 - i]
        if side.best is not None and side.best not in other.results:
            other.results[side.best] = _reinforced(scenarios[1 - i], seed, opening, side.best)
    return WaveOrderResult(opening, seed, tuple(sides), ms_since(start))


__all__ = ["BarrierTimingResult", "PlanResult", "WaveOrderResult", "WaveOrderSide",
           "best_sequence",
           "cannon_sequences", "play_plan", "plan_text", "probe_barrier_timing",
           "probe_wave_order", "region", "representatives"]
