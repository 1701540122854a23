"""The source design's qualitative facts, all at once, on the shipped (invented) lighthouse,
and the design's probes: wall rescues, barrier timing, wave order, campaign figures.

asv_bench/tune_lighthouse.py is the sweep that found numbers for which every fact holds.
"""
import dataclasses
from importlib import resources

import numpy as np
import pytest

from levelforge import ConfigError
from levelforge.defense import Defense, Scenario, probe_campaign, probe_pairs
from levelforge.defense.game import Rules
from levelforge.defense.probes import probe_rescues
from levelforge.defense.strategies import STRATEGIES, play_strategy
from levelforge.defense.studies import (play_plan, probe_barrier_timing, probe_wave_order,
                                        region, representatives)

LIGHTHOUSE = Scenario.lighthouse()
SEEDS = (19, 20)   # the design's seeds: one of each parity


@pytest.fixture(scope="module")
def pairs():
    return probe_pairs(LIGHTHOUSE, SEEDS[0])


@pytest.fixture(scope="module")
def campaign(pairs):
    return probe_campaign(LIGHTHOUSE, SEEDS, pairs=pairs)


@pytest.fixture(scope="module")
def reps(campaign):
    return representatives(LIGHTHOUSE, SEEDS, campaign)


def _game(seed, phases):
    d = Defense(LIGHTHOUSE, seed)
    for phase in phases:
        for x, y, kind in phase:
            d.place(x, y, kind)
        d.run_wave()
    return d


# ------------------------------------------------------------------------- the facts
def test_lighthouse_map_is_invented_and_says_so():
    toml = resources.files("levelforge.defense").joinpath("lighthouse.toml").read_text()
    assert "The map is invented" in toml and "invented" in LIGHTHOUSE.notes


@pytest.mark.parametrize("seed", SEEDS)
def test_empty_defence_loses_wave_1_with_health_0_after_5_leaks_and_0_kills(seed):
    rec = Defense(LIGHTHOUSE, seed).run_wave()
    assert (rec.outcome, rec.health, rec.leaks_a + rec.leaks_b, rec.kills) == \
        ("lost", 0, 5, 0)


def test_about_30_percent_of_legal_two_cannon_openings_survive_wave_1(pairs):
    assert 0.25 <= pairs.surviving / pairs.legal_pairs <= 0.35
    assert pairs.legal_pairs > 1000   # the design's map: 1,223 legal pairs


def test_no_wave_1_survivor_survives_wave_2_without_reinforcements(pairs):
    survivors = pairs.survivors()
    assert survivors
    for (a, b), health in survivors:
        d = _game(SEEDS[0], [[(*a, "cannon"), (*b, "cannon")]])
        assert d.records[0].outcome == "won" and d.health == health + 1
        assert d.run_wave().outcome == "lost"


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("strategy", STRATEGIES)
def test_every_naive_policy_loses_in_wave_1_or_2_on_both_parities(strategy, seed):
    g = play_strategy(LIGHTHOUSE, seed, strategy)
    assert g["outcome"] == "defeat" and g["waves_won"] <= 1
    assert g["records"][-1]["wave"] in (1, 2)


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_naive_policies_place_cannons_as_far_as_material_allows(strategy):
    g = play_strategy(LIGHTHOUSE, SEEDS[0], strategy)
    cost = LIGHTHOUSE.economy.cannon_cost
    d = Defense(LIGHTHOUSE, SEEDS[0])
    cannons = [b for b in g["buildings"] if b[2] == "cannon"]
    assert len(cannons) == len(g["buildings"])    # cannons only
    done = 0
    for rec in g["records"]:
        for x, y, kind in cannons[done:rec["cannons"]]:
            d.place(x, y, kind)
        done = rec["cannons"]
        assert d.material < cost or not d.legal_cells("cannon")   # nothing left to buy
        d.run_wave()
    assert g["records"][0]["cannons"] == LIGHTHOUSE.economy.initial_material // cost


@pytest.mark.parametrize("seed", SEEDS)
def test_a_good_opening_wins_all_three_waves_on_both_parities(seed, reps):
    assert play_plan(LIGHTHOUSE, seed, LIGHTHOUSE.plan).outcome == "victory"
    assert reps
    for _, plan in reps:   # cannon-only openings with their best reinforcements
        assert play_plan(LIGHTHOUSE, seed, plan).outcome == "victory"


def test_the_same_openings_win_all_three_waves_for_both_seeds(campaign):
    won = campaign.winning_set(SEEDS[0])
    assert won and won == campaign.winning_set(SEEDS[1])
    assert campaign.openings_won_by_all == len(won)
    for seed in SEEDS:
        assert campaign.winning_openings[seed] == len(won)


# ------------------------------------------------------------------------- campaign figures
def test_campaign_reports_survivors_and_sequences_per_seed(pairs, campaign):
    """Counted again with the kernel batch (Rules.run_rows), wave by wave."""
    w = LIGHTHOUSE.width
    rules = {sd: Rules(LIGHTHOUSE, sd) for sd in SEEDS}
    e = LIGHTHOUSE.economy
    survivors2, final, wins = 0, 0, {sd: 0 for sd in SEEDS}
    for (a, b), health in pairs.survivors()[::7]:
        d = _game(SEEDS[0], [[(*a, "cannon"), (*b, "cannon")]])
        rows, hs = [], []
        for c2 in d.legal_cells("cannon"):
            row = [y * w + x for x, y in (a, b, c2)]
            out = rules[SEEDS[0]].run_rows(2, [row], [[1, 1, 1]], [health + 1])[0]
            if out[0] != 1:
                continue
            survivors2 += 1
            g = _game(SEEDS[0], [[(*a, "cannon"), (*b, "cannon")], [(*c2, "cannon")]])
            assert g.phase == "build" and g.health == out[1] + e.health_per_wave
            for c3 in g.legal_cells("cannon"):
                rows.append(row + [c3[1] * w + c3[0]])
                hs.append(g.health)
        final += len(rows)
        for sd in SEEDS:
            if rows:
                out = rules[sd].run_rows(3, rows, [[1] * 4] * len(rows), hs)
                wins[sd] += int((out[:, 0] == 1).sum())
    sub = probe_campaign(LIGHTHOUSE, SEEDS, pairs=_subset(pairs, pairs.survivors()[::7]))
    assert sub.survivors[1] == survivors2 and sub.final_sequences == final
    assert sub.winning_sequences == wins
    lines = campaign.lines()
    assert f"wave 2 survivors: {campaign.survivors[1]} sequences" in lines[0]
    assert f"{campaign.final_sequences} sequences reach wave 3" in lines[0]
    for sd, line in zip(SEEDS, lines[1:3]):
        assert line.startswith(f"seed {sd}: {campaign.winning_sequences[sd]} winning")


def _subset(pairs, keep):
    cells = {c for c, _ in keep}
    return dataclasses.replace(pairs, pairs=tuple(p for p in pairs.pairs if p[0] in cells))


# ------------------------------------------------------------------------- wall rescues
def test_wall_rescues_count_one_wall_placements_on_the_top_losing_openings(pairs):
    top = 25
    r = probe_rescues(LIGHTHOUSE, SEEDS[0], top=top, pairs=pairs)
    losing = [p for p in pairs.pairs if p[1] == "lost"]
    order = sorted(range(len(losing)), key=lambda i: (-losing[i][3], i))
    chosen = [losing[i] for i in order[:top]]
    assert r.losing_pairs == len(losing) and r.examined == top
    assert r.min_kills == chosen[-1][3]
    placements = rescued = 0
    seen = set()
    for (a, b), *_ in chosen:
        base = Defense(LIGHTHOUSE, SEEDS[0])
        base.place(*a, "cannon")
        base.place(*b, "cannon")
        for wall in base.legal_cells("wall"):
            placements += 1
            d = _game(SEEDS[0], [[(*a, "cannon"), (*b, "cannon"), (*wall, "wall")]])
            if d.records[0].outcome == "won":
                rescued += 1
                seen.add((a, b))
                assert ((a, b), wall, d.records[0].health) in r.rescued
    assert (r.placements, r.rescues, r.rescued_openings) == (placements, rescued, len(seen))
    assert "%" not in r.line() and f"the {top} losing openings with the most kills" in \
        r.line()


# ------------------------------------------------------------------------- barrier timing
def test_barrier_timing_representatives_follow_the_documented_rule(campaign, reps):
    by_region = {}
    for cells, wins in campaign.openings:
        if min(wins) > 0:
            key = region(cells, LIGHTHOUSE)
            if key not in by_region or sum(wins) > sum(by_region[key][1]):
                by_region[key] = (cells, wins)
    assert [k for k, _ in reps] == [k for k in (f"{x} {y}" for y in ("entrance side",
                                                                      "middle", "front")
                                                for x in ("west", "centre", "east"))
                                    if k in by_region]
    for key, plan in reps:
        assert {c[:2] for c in plan[0]} == set(by_region[key][0])
        assert all(len(ph) == 1 and ph[0][2] == "cannon" for ph in plan[1:])


@pytest.fixture(scope="module")
def timing(campaign):
    return probe_barrier_timing(LIGHTHOUSE, SEEDS, campaign=campaign)


def test_barrier_timing_plays_every_plan_cell_and_wave_and_replays(timing):
    cells = [(x, y) for y, row in enumerate(LIGHTHOUSE.map) for x, ch in enumerate(row)
             if ch == "."]
    n = len(timing.plans)
    assert n == len({lb for lb, _, _ in timing.plans}) and timing.plans[-1][0] == "reference"
    assert len(timing.cases) == n * len(cells) * 3
    total = 0
    for i in range(n):
        for wave in (1, 2, 3):
            c = timing.counts(i, wave)
            lost = sum(v for k, v in c.items() if k.startswith("lost wave"))
            assert c["played"] == c["won"] + lost
            total += c["played"] + c["refused"] + c["not_reached"]
    assert total == n * len(cells) * 3 * len(SEEDS)
    rng = np.random.default_rng(0)
    keys = sorted(timing.cases)
    for k in rng.choice(len(keys), 12, replace=False):
        i, cell, wave = keys[k]
        plan = timing.plans[i][1]
        for sd, res in zip(SEEDS, timing.cases[i, cell, wave]):
            d = Defense(LIGHTHOUSE, sd)
            refused = None
            for ph in range(3):
                builds = list(plan[ph]) if ph < len(plan) else []
                if ph + 1 == wave:
                    builds.append((*cell, "wall"))
                for x, y, kind in builds:
                    if refused is None and d.phase == "build":
                        err = d.check_placement(x, y, kind)
                        if not err.ok:
                            refused = err.code
                        else:
                            d.place(x, y, kind)
                if refused is not None or d.phase != "build":
                    break
                d.run_wave()
            assert (res.refused[2] if res.refused else None) == refused
            assert [r.to_dict() for r in d.records] == list(res.records)


def test_barrier_timing_shows_a_wall_that_loses_early_and_wins_when_it_waits(timing):
    found = timing.early_loses_late_wins()
    assert found and found[0][2] == 2   # the design's: the early wall loses wave 2
    i, cell, _ = found[0]
    for wave in (1, 2):
        for res in timing.cases[i, cell, wave]:
            assert res.outcome == "defeat" and res.lost_wave == 2
    assert all(r.outcome == "victory" for r in timing.cases[i, cell, 3])
    assert f"wall at {cell}" in timing.example()


# ------------------------------------------------------------------------- wave order
def test_wave_order_variant_differs_only_in_the_order_of_the_waves():
    a, b = Scenario.lighthouse("aab").to_dict(), LIGHTHOUSE.to_dict()
    assert [w["entrance"] for w in a["waves"]] == ["A", "A", "alternate"]
    assert [w["entrance"] for w in b["waves"]] == ["A", "B", "alternate"]
    for d in (a, b):
        d["waves"][1]["entrance"] = "-"
        d.pop("name")
        d.pop("notes")
    assert a == b
    with pytest.raises(ConfigError, match="unknown lighthouse variant"):
        Scenario.lighthouse("abc")


def test_wave_order_probe_counts_match_the_kernel_batch():
    r = probe_wave_order(seed=SEEDS[0])
    opening = LIGHTHOUSE.plan[0]
    w = LIGHTHOUSE.width
    for scenario, side in zip((Scenario.lighthouse("aab"), LIGHTHOUSE), r.sides):
        rules = Rules(scenario, SEEDS[0])
        d = Defense(scenario, SEEDS[0])
        for x, y, kind in opening:
            d.place(x, y, kind)
        assert d.run_wave().outcome == "won"
        base = [y * w + x for x, y, _ in opening]
        flags = [int(k == "cannon") for _, _, k in opening]
        survivors = wins = 0
        for c2 in d.legal_cells("cannon"):
            row = base + [c2[1] * w + c2[0]]
            out = rules.run_rows(2, [row], [flags + [1]], [d.health])[0]
            if out[0] != 1:
                continue
            survivors += 1
            g = Defense(scenario, SEEDS[0])
            for x, y, kind in opening:
                g.place(x, y, kind)
            g.run_wave()
            g.place(*c2, "cannon")
            g.run_wave()
            rows = [row + [c3[1] * w + c3[0]] for c3 in g.legal_cells("cannon")]
            res = rules.run_rows(3, rows, [flags + [1, 1]] * len(rows), [g.health] * len(rows))
            wins += int((res[:, 0] == 1).sum())
        assert (side.wave1, side.positions, side.wins) == ("won", survivors, wins)
    text = r.table()
    assert f"| sequences that win all waves | {r.sides[0].wins} | {r.sides[1].wins} |" in text
