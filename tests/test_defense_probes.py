"""Probes (pairs, campaigns, rescues, naive policies), executors, and the CLI. The design's
facts and studies on the shipped scenario are in test_defense_facts.py."""
import dataclasses
import json
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from itertools import combinations

import pytest

from levelforge import ConfigError
from levelforge.cli import main as levelforge_main
from levelforge.defense import Defense, Scenario, probe_campaign, probe_pairs, probe_strategies
from levelforge.defense.cli import parse_opening
from levelforge.defense.probes import probe_rescues
from levelforge.defense.strategies import STRATEGIES

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
    opening = max(pairs.survivors(), key=lambda s: s[1])[0]
    few = dataclasses.replace(pairs, pairs=tuple(p for p in pairs.pairs if p[0] == opening))
    result = probe_campaign(LIGHTHOUSE, seeds=(0, 1), pairs=few)
    assert result.surviving_pairs == 1
    wins = {0: 0, 1: 0}
    sequences = survivors = 0
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
        survivors += 1
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
    assert result.survivors == (1, survivors) and result.final_sequences == sequences
    assert result.winning_sequences == wins
    assert result.winning_openings == {s: int(wins[s] > 0) for s in (0, 1)}
    assert result.openings_won_by_all == int(min(wins.values()) > 0)


def test_probe_results_are_identical_whatever_the_executor(pairs):
    few = dataclasses.replace(pairs, pairs=pairs.pairs[:80])
    base_pairs = _strip(pairs.to_dict())
    base_campaign = _strip(probe_campaign(LIGHTHOUSE, (0, 1), pairs=few).to_dict())
    base_strategies = _strip(probe_strategies(LIGHTHOUSE, (0,)).to_dict())
    base_rescues = _strip(probe_rescues(LIGHTHOUSE, 0, top=30, pairs=pairs).to_dict())
    with ThreadPoolExecutor(2) as ex:
        assert _strip(probe_pairs(LIGHTHOUSE, 0, ex).to_dict()) == base_pairs
        assert _strip(probe_strategies(LIGHTHOUSE, (0,), ex).to_dict()) == base_strategies
    with ProcessPoolExecutor(2) as ex:
        assert _strip(probe_pairs(LIGHTHOUSE, 0, ex).to_dict()) == base_pairs
        assert _strip(probe_campaign(LIGHTHOUSE, (0, 1), ex, pairs=few).to_dict()) == \
            base_campaign
        assert _strip(probe_rescues(LIGHTHOUSE, 0, 30, ex, pairs=pairs).to_dict()) == \
            base_rescues


def test_strategies_play_the_four_naive_policies_for_both_parities():
    r = probe_strategies(LIGHTHOUSE, seeds=(0, 1))
    assert [(g["strategy"], g["seed"]) for g in r.games] == \
        [(s, sd) for s in STRATEGIES for sd in (0, 1)]
    by = {(g["strategy"], g["seed"]): g for g in r.games}
    first = Defense(LIGHTHOUSE).legal_cells("cannon")
    bx, by_ = LIGHTHOUSE.beacon
    assert by["row_order", 0]["buildings"][0][:2] == list(first[0])
    near = min(first, key=lambda c: ((c[0] - bx) ** 2 + (c[1] - by_) ** 2, c[1], c[0]))
    assert by["nearest_beacon", 0]["buildings"][0][:2] == list(near)
    ax, ay = LIGHTHOUSE.entrances["A"]   # wave 1 comes from A
    near = min(first, key=lambda c: ((c[0] - ax) ** 2 + (c[1] - ay) ** 2, c[1], c[0]))
    assert by["nearest_entrance", 0]["buildings"][0][:2] == list(near)
    for g in r.games:
        assert [rec["wave"] for rec in g["records"]] == list(range(1, len(g["records"]) + 1))
    assert r.table().count("\n") == 1 + len(r.games)


def test_strategy_games_replay_identically_through_defense():
    for g in probe_strategies(LIGHTHOUSE, seeds=(1,)).games:
        d = Defense(LIGHTHOUSE, 1)
        done = 0
        for rec in g["records"]:
            for b in g["buildings"][done:rec["cannons"] + rec["walls"]]:
                d.place(*b)
            done = rec["cannons"] + rec["walls"]
            assert d.run_wave().to_dict() == rec
        assert d.totals.to_dict() == g["totals"] and d.phase == g["outcome"]


def test_probes_reject_bad_arguments(pairs):
    with pytest.raises(ConfigError):
        probe_pairs(LIGHTHOUSE, seed=-3)
    with pytest.raises(ConfigError):
        probe_campaign(LIGHTHOUSE, seeds=())
    with pytest.raises(ConfigError):
        probe_campaign(LIGHTHOUSE, pairs="not a result")
    with pytest.raises(ConfigError):
        probe_strategies("lighthouse")
    with pytest.raises(ConfigError, match="top"):
        probe_rescues(LIGHTHOUSE, top=0, pairs=pairs)
    with pytest.raises(ConfigError, match="item 2 'x3,1'"):
        parse_opening("c1,0 x3,1")


def test_cli_show_prints_forecast_map_distance_field_and_routes(capsys):
    assert levelforge_main(["defense", "show", "--seed", "20"]) == 0
    out = capsys.readouterr().out
    d = Defense(LIGHTHOUSE, 20)
    assert f"next: {d.forecast().banner()}" in out
    assert "next: wave 1 of 3: 10 ships, 8 skiffs + 2 armoured (ships 7, 10); all from A" in out
    assert "then: wave 3 of 3: 12 ships" in out and "alternating, A first" in out
    assert "distance to the beacon" in out
    assert " ".join(f"{v:2d}" if v >= 0 else "--" for v in d.distance_map()[0]) in out
    route = d.route("A")
    assert f"A ({len(route) - 1} steps): " + " ".join(f"({x},{y})" for x, y in route) in out


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


def test_cli_probe_campaign_and_rescues_print_the_design_figures(tmp_path, capsys):
    out = tmp_path / "r.json"
    assert levelforge_main(["defense", "probe", "rescues", "--top", "12", "--workers", "1",
                            "--no-progress", "-o", str(out)]) == 0
    text = capsys.readouterr().out
    assert "on the 12 losing openings with the most kills" in text
    assert json.loads(out.read_text())["examined"] == 12


def test_cli_probe_wave_order_takes_an_opening(capsys):
    code = levelforge_main(["defense", "probe", "wave-order", "--opening",
                            " ".join(f"{k[0]}{x},{y}" for x, y, k in LIGHTHOUSE.plan[0]),
                            "--seed", "19", "--no-progress", "--workers", "1"])
    assert code == 0
    captured = capsys.readouterr()
    assert "| wave-2 reinforcement positions that survive wave 2 |" in captured.err
    assert json.loads(captured.out)["probe"] == "wave-order"
    assert levelforge_main(["defense", "probe", "wave-order", "--opening", "c1"]) == 2
    assert "expected c<x>,<y>" in capsys.readouterr().err
