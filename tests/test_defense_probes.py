"""Probes (pairs, campaigns, strategies, barrier timing), executors, and the CLI."""
import dataclasses
import json
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from itertools import combinations

import pytest

from levelforge import ConfigError
from levelforge.cli import main as levelforge_main
from levelforge.defense import Defense, Scenario, probe_campaign, probe_pairs, probe_strategies
from levelforge.defense.probes import STRATEGIES

LIGHTHOUSE = Scenario.lighthouse()


@pytest.fixture(scope="module")
def pairs():
    return probe_pairs(LIGHTHOUSE, seed=0)


def _strip(d):
    d = dict(d)
    d.pop("elapsed_ms")
    return d


def test_pair_probe_enumerates_every_unordered_legal_affordable_pair(pairs):
    first = Defense(LIGHTHOUSE).legal_cells("cannon")
    expected = set()
    for a, b in combinations(first, 2):
        d = Defense(LIGHTHOUSE)
        d.place(*a, "cannon")
        if d.check_placement(*b, "cannon").ok:
            expected.add((a, b))
    assert {p[0] for p in pairs.pairs} == expected
    assert pairs.legal_pairs == len(expected)


def test_pair_probe_outcomes_match_games_played_through_defense(pairs):
    for cells, outcome, health, kills, leaks_a, leaks_b in pairs.pairs[::25]:
        d = Defense(LIGHTHOUSE)
        for c in cells:
            d.place(*c, "cannon")
        r = d.run_wave()
        assert (r.outcome, r.health, r.kills, r.leaks_a, r.leaks_b) == \
            (outcome, health, kills, leaks_a, leaks_b)


def test_campaign_counts_match_games_played_through_defense(pairs):
    opening = ((2, 0), (2, 7))
    few = dataclasses.replace(pairs, pairs=tuple(p for p in pairs.pairs if p[0] == opening))
    result = probe_campaign(LIGHTHOUSE, seeds=(0, 1), pairs=few)
    assert result.surviving_pairs == 1
    wins = {0: 0, 1: 0}
    sequences = 0
    d2 = Defense(LIGHTHOUSE)
    for c in opening:
        d2.place(*c, "cannon")
    d2.run_wave()
    for c2 in d2.legal_cells("cannon"):
        d = Defense(LIGHTHOUSE)
        for c in opening:
            d.place(*c, "cannon")
        d.run_wave()
        d.place(*c2, "cannon")
        if d.run_wave().outcome != "won":
            continue
        for c3 in d.legal_cells("cannon"):
            sequences += 1
            for seed in (0, 1):
                g = Defense(LIGHTHOUSE, seed)
                for builds in ([*opening], [c2], [c3]):
                    for c in builds:
                        g.place(*c, "cannon")
                    g.run_wave()
                wins[seed] += g.phase == "victory"
    assert sequences > 0
    assert result.sequences == 2 * sequences
    assert result.winning_sequences == wins
    assert result.winning_openings == {s: int(wins[s] > 0) for s in (0, 1)}


def test_probe_results_are_identical_whatever_the_executor(pairs):
    few = dataclasses.replace(pairs, pairs=pairs.pairs[:80])
    base_pairs = _strip(pairs.to_dict())
    base_campaign = _strip(probe_campaign(LIGHTHOUSE, (0, 1), pairs=few).to_dict())
    base_strategies = _strip(probe_strategies(LIGHTHOUSE, (0,)).to_dict())
    with ThreadPoolExecutor(2) as ex:
        assert _strip(probe_pairs(LIGHTHOUSE, 0, ex).to_dict()) == base_pairs
        assert _strip(probe_strategies(LIGHTHOUSE, (0,), ex).to_dict()) == base_strategies
    with ProcessPoolExecutor(2) as ex:
        assert _strip(probe_pairs(LIGHTHOUSE, 0, ex).to_dict()) == base_pairs
        assert _strip(probe_campaign(LIGHTHOUSE, (0, 1), ex, pairs=few).to_dict()) == \
            base_campaign


def test_strategies_play_four_baselines_and_barrier_timing_for_both_parities():
    r = probe_strategies(LIGHTHOUSE, seeds=(0, 1))
    games = r.games
    assert len(games) == len(STRATEGIES) * 2 * 4
    assert {(g["strategy"], g["seed"], g["barrier_before_wave"]) for g in games} == \
        {(s, sd, b) for s in STRATEGIES for sd in (0, 1) for b in (None, 1, 2, 3)}
    by = {(g["strategy"], g["seed"], g["barrier_before_wave"]): g for g in games}
    # row order: the first legal cells in row order
    assert by["row_order", 0, None]["buildings"][:2] == [[1, 0, "cannon"], [2, 0, "cannon"]]
    # nearest the beacon: its bay first
    assert by["nearest_beacon", 0, None]["buildings"][0] == [3, 7, "cannon"]
    for g in games:
        walls = [b for b in g["buildings"] if b[2] == "wall"]
        reached = g["barrier_before_wave"] is not None and \
            g["barrier_before_wave"] <= len(g["records"])
        assert len(walls) == (1 if reached else 0)
        assert [rec["wave"] for rec in g["records"]] == list(range(1, len(g["records"]) + 1))
    # barrier timing: the same plan (the strategy game's cannons, phase by phase)
    for g in games:
        base = by[g["strategy"], g["seed"], None]
        planned = [b for b in base["buildings"] if b[2] == "cannon"]
        cannons = [b for b in g["buildings"] if b[2] == "cannon"]
        if g["plan_deviations"] == 0:
            n = min(len(planned), len(cannons))
            assert cannons[:n] == planned[:n]
    # the study is not trivial: an early barrier changes some results
    assert any(by[s, 0, 1]["waves_won"] != by[s, 0, None]["waves_won"] for s in STRATEGIES)
    assert len({g["outcome"] for g in games}) == 2


def test_strategy_games_replay_identically_through_defense():
    games = probe_strategies(LIGHTHOUSE, seeds=(1,)).games
    g = next(g for g in games if g["strategy"] == "nearest_centre"
             and g["barrier_before_wave"] == 2)
    assert g["outcome"] == "victory"
    d = Defense(LIGHTHOUSE, 1)
    done = 0
    for rec in g["records"]:
        standing = rec["cannons"] + rec["walls"]
        for b in g["buildings"][done:standing]:
            d.place(*b)
        done = standing
        assert d.run_wave().to_dict() == rec
    assert d.totals.to_dict() == g["totals"]


def test_probes_reject_bad_arguments(pairs):
    with pytest.raises(ConfigError):
        probe_pairs(LIGHTHOUSE, seed=-3)
    with pytest.raises(ConfigError):
        probe_campaign(LIGHTHOUSE, seeds=())
    with pytest.raises(ConfigError):
        probe_campaign(LIGHTHOUSE, pairs="not a result")
    with pytest.raises(ConfigError):
        probe_strategies("lighthouse")


def test_cli_show_prints_map_distance_field_and_routes(capsys):
    assert levelforge_main(["defense", "show"]) == 0
    out = capsys.readouterr().out
    assert "next: wave 1 of 3: 10 ships, 8 skiffs + 2 armoured (ships 7, 10); all from A" in out
    assert "then: wave 3 of 3: 12 ships" in out and "alternating, A first" in out
    assert "A a a # b b B" in out
    assert "distance to the beacon" in out and "11 10  9 --  9 10 11" in out
    assert "A (11 steps): (0,0) (1,0)" in out


def test_cli_probe_pairs_writes_json(tmp_path, capsys, pairs):
    out = tmp_path / "pairs.json"
    code = levelforge_main(["defense", "probe", "pairs", "--seed", "0", "-o", str(out),
                            "--workers", "1", "--no-progress"])
    assert code == 0
    data = json.loads(out.read_text())
    assert _strip(data) == _strip(pairs.to_dict())
    assert f"{pairs.surviving} of {pairs.legal_pairs}" in capsys.readouterr().out


def test_cli_reports_bad_input_with_exit_code_2(tmp_path, capsys):
    code = levelforge_main(["defense", "show", "--scenario", str(tmp_path / "none.toml")])
    assert code == 2
    assert "cannot read scenario" in capsys.readouterr().err
