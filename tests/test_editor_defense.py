"""The lighthouse scenario editor's API: legal cells and their reasons against a plain BFS
(reefs, entrances, the beacon, cells that would seal a route), routes as shortest paths,
and the balance report: every design fact on the lighthouse, pieces that join into the
same report, facts that fail or cannot be checked on other scenarios."""
import dataclasses

import pytest

from levelforge import ConfigError
from levelforge.defense import (BalanceReport, Scenario, balance, balance_part, layout,
                                probe_campaign, probe_pairs)

LIGHTHOUSE = Scenario.lighthouse()


def _bfs(open_cells, start, goal):
    """Steps from start to goal through open cells (4 neighbours), None if cut off."""
    seen, frontier, steps = {start}, [start], 0
    while frontier:
        if goal in seen:
            return steps
        nxt = []
        for x, y in frontier:
            for c in ((x, y - 1), (x - 1, y), (x + 1, y), (x, y + 1)):
                if c in open_cells and c not in seen:
                    seen.add(c)
                    nxt.append(c)
        frontier, steps = nxt, steps + 1
    return steps if goal in seen else None


def _variant(**changes):
    d = LIGHTHOUSE.to_dict()
    for key, value in changes.items():
        if key in d["economy"]:
            d["economy"][key] = value
        else:
            d[key] = value
    return Scenario.from_dict(d)


@pytest.mark.parametrize("scenario", [LIGHTHOUSE, _variant(map=[
    "A.#...B", ".....##", "...#...", ".#####.", ".......", ".......", ".......", "##..#..",
    ".#.*#.."])])
def test_layout_reasons_and_routes_match_a_plain_bfs(scenario):
    lay = layout(scenario)
    cells = {(x, y): ch for y, row in enumerate(scenario.map) for x, ch in enumerate(row)}
    water = {c for c, ch in cells.items() if ch != "#"}
    beacon, entrances = scenario.beacon, scenario.entrances
    for (x, y), ch in cells.items():
        if ch == "#":
            expected = "reef"
        elif ch in "AB":
            expected = "entrance"
        elif ch == "*":
            expected = "beacon"
        elif any(_bfs(water - {(x, y)}, e, beacon) is None for e in entrances.values()):
            expected = "seals_route"
        else:
            expected = "none"
        assert lay.cannon[y][x] == expected, (x, y)
        assert lay.wall[y][x] == expected, (x, y)
    for name, start in entrances.items():
        path = lay.routes[name]
        assert path[0] == start and path[-1] == beacon
        assert len(path) - 1 == _bfs(water, start, beacon)
        assert all(abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1 for a, b in zip(path, path[1:]))


def test_a_cannon_that_costs_too_much_is_refused_everywhere():
    lay = layout(_variant(cannon_cost=11))
    assert {c for row in lay.cannon for c in row} <= {"reef", "entrance", "beacon",
                                                      "not_enough_material"}
    assert "none" in {c for row in lay.wall for c in row}


@pytest.fixture(scope="module")
def report():
    return balance(LIGHTHOUSE, parts=4)


def test_every_design_fact_holds_on_the_lighthouse(report):
    assert [f.holds for f in report.facts] == [True] * 5
    assert report.first.legal_pairs == 1163 and report.first.surviving_pairs == 324
    assert report.first.wave2_holders == 0
    won = report.winning[19]
    assert won and set(won) == set(report.winning[20])


def test_the_reports_figures_equal_the_probes_run_alone(report):
    pairs = probe_pairs(LIGHTHOUSE, 19)
    kills = {}
    for _, outcome, _, k, _, _ in pairs.pairs:
        kills.setdefault(k, [0, 0])[outcome != "won"] += 1
    assert {k: [w, lost] for k, w, lost in report.first.kills} == kills
    won = set(report.winning[19])
    sample = pairs.survivors()[::40]   # a few survivors, each played through the campaign
    sub = dataclasses.replace(pairs, pairs=tuple(p for p in pairs.pairs
                                                 if p[0] in {c for c, _ in sample}))
    alone = probe_campaign(LIGHTHOUSE, (19, 20), pairs=sub)
    for cells, _ in sample:
        assert (cells in won) == (cells in alone.winning_set(19))


def test_pieces_join_in_any_order_and_round_trip_through_json():
    parts = [balance_part(LIGHTHOUSE, k, 32) for k in (1, 0)]
    with pytest.raises(ConfigError, match="every piece"):
        BalanceReport.from_parts(parts)
    from levelforge.defense import BalancePart
    again = [BalancePart.from_dict(p.to_dict()) for p in parts]
    assert again == parts


def test_a_scenario_without_two_cannons_reports_facts_it_cannot_check():
    r = balance(_variant(initial_material=5), parts=1)
    assert [f.holds for f in r.facts] == [True, None, None, True, None]
    assert "two cannons" in r.problems[0]


def test_a_weaker_map_breaks_the_facts_one_by_one():
    r = balance(_variant(initial_material=14), parts=1)   # three cannons at the start
    facts = {f.text: f.holds for f in r.facts}
    assert facts["The empty defence loses wave 1."] is True
    assert facts["Every naive policy loses in wave 1 or 2."] is False


def test_bad_pieces_are_refused():
    with pytest.raises(ConfigError, match="part must be"):
        balance_part(LIGHTHOUSE, 3, 3)
    with pytest.raises(ConfigError, match="distinct"):
        balance_part(LIGHTHOUSE, seeds=(1, 1))
