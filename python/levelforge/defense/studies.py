"""The design's two plan studies: barrier timing and the wave-order comparison.

A *plan* is the buildings of each build phase, ``((x, y, kind), ...)`` per phase (phase
``i`` is built before wave ``i + 1``). :func:`play_plan` plays one; a placement the game
refuses stops the plan there and is reported, never skipped silently.

>>> r = play_plan(Scenario.lighthouse(), 0, Scenario.lighthouse().plan)
>>> r.outcome, r.refused
('victory', None)
"""
from __future__ import annotations

from dataclasses import dataclass

from ..errors import ConfigError
from ..seeding import check_seed
from ..timing import ms_since, now_ns
from .game import Defense, Rules
from .probes import _Board, _run_chunks, _scenario, _split, _xy, probe_campaign
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


def _cannon_sequences(scenario, seeds, opening):
    """Every campaign from ``opening`` (flat cannon cells): one legal cannon per later build
    phase. Returns ``[(cells added per phase, ((status, health) per seed))]`` for the
    sequences that reach the final wave, in enumeration (row) order."""
    rules = [Rules(scenario, sd) for sd in seeds]
    board = _Board(rules[0])
    e = scenario.economy
    n = len(scenario.waves)
    out = rules[0].run_rows(1, [list(opening)], [[1] * len(opening)], [e.beacon_health])
    if out[0, 0] != 1:
        return []
    frontier = [([], list(opening), int(out[0, 1]))]
    for wave in range(2, n + 1):
        rows = [(added + [c], built + [c], h + e.health_per_wave)
                for added, built, h in frontier for c in board.legal(built)]
        cells = [b for _, b, _ in rows]
        flags = [[1] * len(b) for b in cells]
        healths = [h for _, _, h in rows]
        if wave < n:
            res = rules[0].run_rows(wave, cells, flags, healths)
            frontier = [(a, b, int(o[1])) for (a, b, _), o in zip(rows, res) if o[0] == 1]
        else:
            per_seed = [r.run_rows(wave, cells, flags, healths) for r in rules]
            return [(a, tuple((int(o[i, 0]), int(o[i, 1])) for o in per_seed))
                    for i, (a, _, _) in enumerate(rows)]
    return [([], tuple((1, int(out[0, 1])) for _ in seeds))]


def representatives(scenario, seeds, campaign):
    """The barrier study's openings, one per region, by this rule: among the openings that
    win on every seed, the one with the most winning sequences (summed over the seeds;
    ties: row order); its plan is its cannon sequence that wins on every seed with the
    most health left (summed; ties: row order). Returns ``[(region, plan)]``."""
    w = scenario.width
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
            cells = best[key][0]
            seqs = _cannon_sequences(scenario, seeds, [y * w + x for x, y in cells])
            wins = [(sum(h for _, h in res), added) for added, res in seqs
                    if all(st == 1 for st, _ in res)]
            top = max(h for h, _ in wins)
            added = next(a for h, a in wins if h == top)
            plan = (tuple((x, y, "cannon") for x, y in cells),) + \
                tuple(((c % w, c // w, "cannon"),) for c in added)
            out.append((key, plan))
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
                    reached = len(r.records) >= r.refused[0]
                    c["refused" if reached else "not_reached"] += 1
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
        """``(plan index, cell)`` where the wall before every wave but the last loses (on
        every seed) and the same wall before the last wave wins on every seed: the design's
        example of a wall that pays only when it waits."""
        last = self._waves()
        out = []
        for (i, cell, wv), res in self.cases.items():
            if wv != last or not all(r.outcome == "victory" for r in res):
                continue
            early = [self.cases[i, cell, w] for w in range(1, last)]
            if all(r.refused is None and r.outcome == "defeat" for rs in early for r in rs):
                out.append((i, cell))
        return sorted(out)

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
        """The first wall that loses wave 2 early and wins when it waits, as the design's
        table: wave-2 kills and leaks and the result per seed for each timing."""
        found = self.early_loses_late_wins()
        if not found:
            return "no wall loses when placed early and wins when placed before the last wave"
        i, cell = found[0]
        label, plan, _ = self.plans[i]
        lines = [f"plan {label}: {plan_text(plan)}; wall at {cell}",
                 "| wall placed | wave 2 kills / leaks A / leaks B | " +
                 " | ".join(f"seed {sd}" for sd in self.seeds) + " |",
                 "|---|---|" + "---|" * len(self.seeds)]
        for w in range(1, self._waves() + 1):
            res = self.cases[i, cell, w]
            r2 = res[0].records[1] if len(res[0].records) > 1 else None
            fig = f"{r2['kills']} / {r2['leaks_a']} / {r2['leaks_b']}" if r2 else "-"
            lines.append(f"| before wave {w} | {fig} | " +
                         " | ".join(r.short() for r in res) + " |")
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
                "early_loses_late_wins": [[i, list(c)] for i, c in self.early_loses_late_wins()],
                "elapsed_ms": self.elapsed_ms}


def plan_text(plan) -> str:
    """``c3,5 c4,5 | c4,2 | c5,4`` (c cannon, w wall; phases split by ``|``).

    >>> plan_text(((( 1, 0, "cannon"), (3, 1, "wall")), ((5, 2, "cannon"),)))
    'c1,0 w3,1 | c5,2'
    """
    return " | ".join(" ".join(f"{k[0]}{x},{y}" for x, y, k in p) for p in plan)


def probe_barrier_timing(scenario=None, seeds=(0, 1), executor=None, campaign=None,
                         show_progress=False) -> BarrierTimingResult:
    """The barrier-timing study on the region representatives (see :func:`representatives`)
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
@dataclass(frozen=True)
class WaveOrderResult:
    """One fixed opening on two scenarios (e.g. two wave orders), one seed: for each, the
    reinforcement cannons (one per later build phase) that survive wave 2 and the
    sequences that win every wave. ``sides[i]`` = ``(scenario name, wave-2 surviving
    positions, winning sequences, best sequence, {sequence: PlanResult})``."""
    opening: tuple
    seed: int
    sides: tuple
    elapsed_ms: float

    def table(self) -> str:
        """The design's comparison table, plus each side's best sequence played on both.

        The best sequence of a side wins every wave there with the most health left
        (ties: row order)."""
        a, b = self.sides
        lines = [f"opening {plan_text((self.opening,))}, seed {self.seed}", "",
                 f"| | {a[0]} | {b[0]} |", "|---|---|---|",
                 f"| wave-2 reinforcement positions that survive wave 2 | {a[1]} | {b[1]} |",
                 f"| sequences that win all waves | {a[2]} | {b[2]} |"]
        for side in (a, b):
            best = side[3]
            if best is None:
                continue
            text = " then ".join(f"{x},{y}" for x, y in best)
            res = [sd[4].get(best) for sd in (a, b)]
            lines.append(f"| {side[0]}'s best: " + text + " | " +
                         " | ".join("-" if r is None else r.short() for r in res) + " |")
        return "\n".join(lines)

    def to_dict(self) -> dict:
        """JSON-ready dict."""
        return {"probe": "wave-order", "opening": [list(b) for b in self.opening],
                "seed": self.seed,
                "sides": [{"scenario": n, "wave2_positions": p, "winning_sequences": w,
                           "best": None if best is None else [list(c) for c in best]}
                          for n, p, w, best, _ in self.sides],
                "elapsed_ms": self.elapsed_ms}


def _sequences_from(scenario, seed, opening):
    """Play every sequence of one legal cannon per build phase after ``opening``; returns
    ``{cells added: PlanResult}`` for the sequences that reach the final wave, and the
    number of wave-2 positions that survive wave 2."""
    results = {}
    frontier = [()]
    survivors = 0
    n = len(scenario.waves)
    for wave in range(2, n + 1):
        nxt = []
        for added in frontier:
            d = Defense(scenario, seed)
            for x, y, kind in opening:
                d.place(x, y, kind)
            for phase, (x, y) in enumerate(added):
                d.run_wave()
                d.place(x, y, "cannon")
            d.run_wave()
            if d.phase != "build":
                continue
            for cell in d.legal_cells("cannon"):
                seq = added + (cell,)
                res = play_plan(scenario, seed, (opening,) + tuple(((x, y, "cannon"),)
                                                                   for x, y in seq))
                if wave < n:
                    if len(res.records) >= wave and res.records[wave - 1]["outcome"] == "won":
                        nxt.append(seq)
                        survivors += wave == 2
                else:
                    results[seq] = res
        frontier = nxt
    return results, survivors


def probe_wave_order(opening=None, scenarios=None, seed=19) -> WaveOrderResult:
    """Run one fixed opening (cannons and walls before wave 1; default: the first phase of
    the scenario's reference plan) on two scenarios, default the lighthouse's earlier wave
    order A -> A -> both (``Scenario.lighthouse("aab")``) and the shipped A -> B -> both.

    >>> r = probe_wave_order()
    >>> [side[0] for side in r.sides]
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
    sides = []
    for s in scenarios:
        d = Defense(s, seed)
        for x, y, kind in opening:
            err = d.check_placement(x, y, kind)
            if not err.ok:
                raise ConfigError(f"opening on {s.name}: {err.message}")
            d.place(x, y, kind)
        results, survivors = _sequences_from(s, seed, opening)
        wins = {seq: r for seq, r in results.items() if r.outcome == "victory"}
        best = max(wins, key=lambda q: (wins[q].health, [(-y, -x) for x, y in q]),
                   default=None)
        sides.append([s.name, survivors, len(wins), best, results])
    for i, side in enumerate(sides):  # each side's best, also played on the other
        other = sides[1 - i]
        if side[3] is not None and side[3] not in other[4]:
            other[4][side[3]] = play_plan(scenarios[1 - i], seed, (opening,) + tuple(
                ((x, y, "cannon"),) for x, y in side[3]))
    return WaveOrderResult(opening, seed, tuple(tuple(x) for x in sides), ms_since(start))


__all__ = ["BarrierTimingResult", "PlanResult", "WaveOrderResult", "play_plan",
           "plan_text", "probe_barrier_timing", "probe_wave_order", "region",
           "representatives"]
