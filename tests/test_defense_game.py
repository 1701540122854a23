"""The defense game rules: scenario, placement, simulation, records, retry, restart."""
import copy
import json

import numpy as np
import pytest

from levelforge import ConfigError, InvalidMoveError
from levelforge.defense import Defense, PlacementRejected, Scenario
from levelforge.engine import defense as k

import naive_defense as naive

LIGHTHOUSE = Scenario.lighthouse()
WINNING = [list(phase) for phase in LIGHTHOUSE.plan]   # the reference plan: wins every wave
REEF = next((x, y) for y, row in enumerate(LIGHTHOUSE.map) for x, ch in enumerate(row)
            if ch == "#")


def _play(seed, plan):
    """plan: one list of (x, y, kind) per build phase; plays until the plan or game ends."""
    d = Defense(LIGHTHOUSE, seed)
    for builds in plan:
        if d.phase != "build":
            break
        for x, y, kind in builds:
            d.place(x, y, kind)
        d.run_wave()
    return d


def _after(seed, plan):
    """The cannon cells legal in the build phase after ``plan``, and the game there."""
    d = _play(seed, plan)
    assert d.phase == "build"
    return d.legal_cells("cannon"), d


def _wrong_side():
    """A wave-2 reinforcement after the reference opening that loses wave 2 (the design's
    old strategy: the side of the previous wave), nearest entrance A."""
    cells, _ = _after(0, WINNING[:1])
    ax, ay = LIGHTHOUSE.entrances["A"]
    for c in sorted(cells, key=lambda c: ((c[0] - ax) ** 2 + (c[1] - ay) ** 2, c[1], c[0])):
        if _play(0, WINNING[:1] + [[(*c, "cannon")]]).outcome_at(2) == "lost":
            return c
    raise AssertionError("every reinforcement survives wave 2")


WRONG = _wrong_side()


# ------------------------------------------------------------------------- scenario
def test_scenario_default_has_source_design_grid_economy_and_health():
    s = LIGHTHOUSE
    assert (s.width, s.height) == (7, 9)
    e = s.economy
    assert (e.initial_material, e.cannon_cost, e.wall_cost, e.beacon_health,
            e.material_per_wave, e.health_per_wave) == (10, 4, 2, 5, 5, 1)
    assert s.cannon.range == 2.9
    assert s.tick_rate == 60
    assert sorted(s.entrances) == ["A", "B"]


def test_scenario_waves_follow_the_issue():
    s = LIGHTHOUSE
    for seed in (0, 1):
        w1, w2, w3 = (s.forecast(w, seed).spawns for w in (1, 2, 3))
        assert len(w1) == 10 and {e for _, _, e in w1} == {"A"}
        assert [n for n, kd, _ in w1 if kd == "armoured"] == [7, 10]
        assert len(w2) == 10 and {e for _, _, e in w2} == {"B"}
        assert [n for n, kd, _ in w2 if kd == "armoured"] == [3, 7]
        assert len(w3) == 12
        assert sum(kd == "skiff" for _, kd, _ in w3) == 8
        assert sum(kd == "armoured" for _, kd, _ in w3) == 4
        assert sum(e == "A" for _, _, e in w3) == 6 == sum(e == "B" for _, _, e in w3)


@pytest.mark.parametrize("seed", range(12))
def test_seed_parity_decides_only_the_final_wave_entrance_order(seed):
    s = LIGHTHOUSE
    same = seed % 2
    for wave in (1, 2):
        assert s.forecast(wave, seed) == s.forecast(wave, 0)
    assert s.forecast(3, seed) == s.forecast(3, same)
    assert s.forecast(3, 0) != s.forecast(3, 1)
    assert s.entry_for_spawn(3, 1, seed) == ("A" if seed % 2 == 0 else "B")


def test_seed_parity_decides_the_final_wave_outcome_of_a_plan():
    cells, _ = _after(0, WINNING[:2])
    split = 0
    for c in cells:
        plan = WINNING[:2] + [[(*c, "cannon")]]
        games = [_play(seed, plan).to_dict() for seed in (0, 2, 1, 3)]
        assert games[0]["records"] == games[1]["records"]
        assert games[2]["records"] == games[3]["records"]
        split += games[0]["records"][2]["outcome"] != games[2]["records"][2]["outcome"]
    assert split > 0   # some third cannon wins on one entrance order only


def test_spawner_and_forecast_use_the_same_functions():
    for seed in (0, 1):
        d = Defense(LIGHTHOUSE, seed)
        for wave in (1, 2, 3):
            kinds, entries = d._rules.spawn[wave - 1]
            fc = d.forecast(wave).spawns
            assert [("skiff", "armoured")[i] for i in kinds] == [kd for _, kd, _ in fc]
            assert [("A", "B")[i] for i in entries] == [e for _, _, e in fc]


def test_forecast_is_the_next_wave_and_its_banner_counts_the_spawner():
    d = Defense(LIGHTHOUSE, 20)
    f = d.forecast()
    assert f == d.forecast(1) and f.wave == 1 and f.waves == 3
    assert (f.ships, f.skiffs, f.armoured, f.entrances, f.counts) == \
        (10, 8, (7, 10), ("A",), (("A", 10), ("B", 0)))
    assert f.banner() == ("wave 1 of 3: 10 ships, 8 skiffs + 2 armoured (ships 7, 10); "
                          "all from A, B waits")
    _play_into(d, WINNING[:1])
    assert d.wave == 2 and d.forecast().wave == 2 and d.forecast().order == "B" * 10
    for seed, first in ((19, "B"), (20, "A")):
        f3 = Defense(LIGHTHOUSE, seed).forecast(3)
        kinds, entries = Defense(LIGHTHOUSE, seed)._rules.spawn[2]
        assert f3.order == "".join("AB"[i] for i in entries)
        assert f3.armoured == tuple(i + 1 for i, kd in enumerate(kinds) if kd == 1)
        assert f3.entrances[0] == first and f3.banner().endswith(f"alternating, {first} first")
    assert json.loads(json.dumps(f.to_dict()))["counts"] == {"A": 10, "B": 0}


def _play_into(d, plan):
    for builds in plan:
        for x, y, kind in builds:
            d.place(x, y, kind)
        d.run_wave()


def test_scenario_round_trips_through_json_and_toml_files(tmp_path):
    p = tmp_path / "s.json"
    p.write_text(json.dumps(LIGHTHOUSE.to_dict()))
    assert Scenario.load(p) == LIGHTHOUSE
    from importlib import resources
    t = tmp_path / "s.toml"
    t.write_text(resources.files("levelforge.defense").joinpath("lighthouse.toml")
                 .read_text())
    assert Scenario.load(t) == LIGHTHOUSE


def _broken(path, value):
    d = copy.deepcopy(LIGHTHOUSE.to_dict())
    cur = d
    for key in path[:-1]:
        cur = cur[key]
    if value is KeyError:
        del cur[path[-1]]
    else:
        cur[path[-1]] = value
    return d


@pytest.mark.parametrize("path,value,words", [
    (("economy", "cannon_cost"), 0, "economy.cannon_cost"),
    (("economy", "initial_material"), KeyError, "economy.initial_material"),
    (("enemies", "skiff", "speed"), -1, "enemies.skiff.speed"),
    (("enemies", "skiff", "speed"), 60, "enemies.skiff.speed"),
    (("enemies", "armoured", "hp"), 2.5, "enemies.armoured.hp"),
    (("cannon", "range"), "far", "cannon.range"),
    (("cannon", "fire_interval"), 0.01, "cannon.fire_interval"),
    (("waves", 0, "entrance"), "C", "waves[0].entrance"),
    (("waves", 1, "armoured"), [11], "waves[1].armoured"),
    (("waves",), [], "waves"),
    (("map", 1), ".#.#.#", "map row 1: 6 columns, expected 7"),
    (("map", 2), ".#.x.#.", "map row 2, column 3"),
    (("map", 0), "...#..B", "entrance A"),
    (("map", 7), ".#.*.#.", "beacon"),
    (("map", 1), "####.#.", "no route"),
    (("tick_rate",), 0, "tick_rate"),
    (("cannon", "rnage"), 3, "cannon.rnage': unknown"),
    (("enemies", "frigate"), {"hp": 1, "speed": 1}, "enemies.frigate': unknown"),
    (("waves", 0, "ship"), 3, r"waves[0].ship': unknown"),
])
def test_scenario_validation_names_the_field_at_fault(path, value, words):
    with pytest.raises(ConfigError, match=words.replace("[", r"\[").replace("]", r"\]")):
        Scenario.from_dict(_broken(path, value))


def test_scenario_load_rejects_bad_files(tmp_path):
    with pytest.raises(ConfigError, match="cannot read"):
        Scenario.load(tmp_path / "missing.toml")
    bad = tmp_path / "bad.toml"
    bad.write_text("name = \n")
    with pytest.raises(ConfigError, match="not valid toml"):
        Scenario.load(bad)
    other = tmp_path / "s.yaml"
    other.write_text("x")
    with pytest.raises(ConfigError, match=".toml or .json"):
        Scenario.load(other)


# ------------------------------------------------------------------------- wave 2 from B
def test_surviving_opening_can_lose_wave_2_if_reinforced_on_the_wrong_side():
    wrong = _play(0, WINNING[:1] + [[(*WRONG, "cannon")]])
    right = _play(0, WINNING[:2])
    assert wrong.outcome_at(1) == right.outcome_at(1) == "won"
    assert wrong.outcome_at(2) == "lost" and wrong.records[1].leaks_b > 0
    assert right.outcome_at(2) == "won"


# ------------------------------------------------------------------------- placement
LEGAL = Defense().legal_cells("cannon")


def _neighbours(cell):
    x, y = cell
    return [(x + dx, y + dy) for dx, dy in ((0, -1), (-1, 0), (1, 0), (0, 1))
            if 0 <= x + dx < LIGHTHOUSE.width and 0 <= y + dy < LIGHTHOUSE.height
            and LIGHTHOUSE.map[y + dy][x + dx] == "."]


def test_placement_error_none_for_a_legal_cell():
    e = Defense().check_placement(*LEGAL[0], "cannon")
    assert e.ok and e.code == "none"


@pytest.mark.parametrize("xy,code", [((7, 0), "out_of_bounds"), ((-1, 3), "out_of_bounds"),
                                     (REEF, "reef"), (LIGHTHOUSE.entrances["A"], "entrance"),
                                     (LIGHTHOUSE.entrances["B"], "entrance"),
                                     (LIGHTHOUSE.beacon, "beacon")])
def test_placement_errors_for_cells_that_never_take_a_building(xy, code):
    e = Defense().check_placement(*xy, "wall")
    assert e.code == code and not e.ok and str(xy) in e.message


def test_placement_error_occupied():
    d = Defense()
    d.place(*LEGAL[0], "wall")
    assert d.check_placement(*LEGAL[0], "cannon").code == "occupied"


def test_placement_error_not_enough_material():
    d = Defense()
    d.place(*LEGAL[-1], "cannon")
    d.place(*LEGAL[-2], "cannon")
    cell = d.legal_cells("wall")[0]     # 2 material left: a wall, not a cannon
    e = d.check_placement(*cell, "cannon")
    assert e.code == "not_enough_material" and "costs 4" in e.message


@pytest.mark.parametrize("entrance", ["A", "B"])
def test_placement_error_seals_route_names_the_entrance(entrance):
    d = Defense()
    *first, last = _neighbours(LIGHTHOUSE.entrances[entrance])
    for cell in first:
        d.place(*cell, "wall")
    e = d.check_placement(*last, "wall")
    assert e.code == "seals_route" and e.entrances == (entrance,)
    assert f"entrance {entrance}" in e.message


def test_placement_error_seals_both_routes_near_the_beacon():
    d = Defense()
    *first, last = _neighbours(LIGHTHOUSE.beacon)
    for cell in first:
        d.place(*cell, "wall")
    e = d.check_placement(*last, "wall")
    assert e.code == "seals_route" and e.entrances == ("A", "B")


def test_placement_error_not_in_the_build_phase():
    d = Defense()
    d.start_wave()
    assert d.check_placement(*LEGAL[0], "wall").code == "not_build_phase"
    d.run_wave()
    assert d.phase == "defeat"
    assert d.check_placement(*LEGAL[0], "wall").code == "not_build_phase"


def test_rejected_placement_changes_nothing():
    d = Defense()
    d.place(*LEGAL[0], "cannon")
    before = json.dumps(d.to_dict())
    cuts = d._cut_map().copy()
    for x, y, kind in [(*REEF, "wall"), (*LEGAL[0], "wall"), (9, 9, "cannon"),
                       (*LIGHTHOUSE.entrances["A"], "cannon")]:
        with pytest.raises(PlacementRejected) as info:
            d.place(x, y, kind)
        assert not info.value.error.ok
        assert isinstance(info.value, InvalidMoveError)
        assert json.dumps(d.to_dict()) == before
    assert (d._cut_map() == cuts).all()


def test_place_spends_material_and_rebuilds_the_distance_field():
    d = Defense()
    before = d.distance_map()
    route = d.route("A")
    step = route[1]
    d.place(*step, "wall")
    assert d.material == 8 and d.buildings == ((*step, "wall"),)
    after = d.distance_map()
    assert after[step[1], step[0]] == -1 and (after != before).any()
    assert d.route("A")[1] != step and d.route("A")[0] == route[0]
    assert d.route("A")[-1] == LIGHTHOUSE.beacon


def test_bad_arguments_raise_config_errors():
    d = Defense()
    with pytest.raises(ConfigError):
        d.check_placement(1, 1, "tower")
    with pytest.raises(ConfigError):
        d.check_placement(1.0, 1, "wall")
    with pytest.raises(ConfigError):
        d.route("C")
    with pytest.raises(ConfigError):
        Defense(seed=-1)
    with pytest.raises(ConfigError):
        Defense(scenario="lighthouse")


def test_legal_cells_match_check_placement_and_exclude_cut_cells():
    d = Defense()
    first, last = _neighbours(LIGHTHOUSE.entrances["A"])[:2]
    d.place(*first, "wall")
    cells = d.legal_cells("wall")
    assert last not in cells and LEGAL[-1] in cells
    assert all(d.check_placement(x, y, "wall").ok for x, y in cells)


# ------------------------------------------------------------------------- simulation
def _random_plan(rng, d):
    """Random legal cannons (and sometimes a wall) for the current build phase."""
    n = 2 if d.wave == 1 else 1
    for _ in range(n):
        cells = d.legal_cells("cannon")
        if cells:
            d.place(*cells[rng.integers(len(cells))], "cannon")
    if rng.random() < 0.4:
        cells = d.legal_cells("wall")
        if cells:
            d.place(*cells[rng.integers(len(cells))], "wall")


@pytest.mark.parametrize("case", range(12))
def test_simulation_matches_plain_python_rules(case):
    rng = np.random.default_rng(case)
    seed = int(rng.integers(2**31))
    d = Defense(LIGHTHOUSE, seed)
    health = LIGHTHOUSE.economy.beacon_health
    while d.phase == "build":
        _random_plan(rng, d)
        cannons = [(x, y) for x, y, kd in d.buildings if kd == "cannon"]
        walls = [(x, y) for x, y, kd in d.buildings if kd == "wall"]
        ships = [(kd, e) for _, kd, e in d.forecast().spawns]
        expected = naive.simulate_wave(LIGHTHOUSE, d.wave, cannons, walls, ships, health)
        rec = d.run_wave()
        got = {key: getattr(rec, key) for key in expected}
        assert got == expected
        health = rec.health + 1


def test_find_target_aims_at_the_ship_with_least_path_left_in_range():
    width = 7
    dist = np.arange(63, dtype=np.int32)  # distance grows with the cell index
    en = np.zeros((3, k.N_EN), np.int32)
    prog = np.array([0.5, 0.0, 0.9])
    en[:, k.E_STATUS] = k.S_ALIVE
    en[:, k.E_CUR] = [10, 9, 40]
    en[:, k.E_NXT] = [3, 2, 33]       # ship 1 has the least path left; ship 2 is far away
    assert k.find_target(2, 1, 2.9 ** 2, width, en, prog, 3, dist) == 1
    en[1, k.E_STATUS] = k.S_KILLED
    assert k.find_target(2, 1, 2.9 ** 2, width, en, prog, 3, dist) == 0
    assert k.find_target(0, 8, 2.9 ** 2, width, en, prog, 2, dist) == -1


def _play_json(seed):
    return json.dumps(_play(seed, WINNING).to_dict(), sort_keys=True)


def test_identical_runs_give_identical_json_in_any_process():
    from concurrent.futures import ProcessPoolExecutor
    with ProcessPoolExecutor(1) as ex:
        other = ex.submit(_play_json, 3).result()
    assert other == _play_json(3)


def test_identical_runs_give_identical_json():
    a = json.dumps(_play(5, WINNING).to_dict(), sort_keys=True)
    b = json.dumps(_play(5, WINNING).to_dict(), sort_keys=True)
    assert a == b and json.loads(a)["phase"] == "victory"


def test_advance_in_small_steps_equals_one_whole_wave():
    a = _play(0, WINNING[:1])
    d = Defense(LIGHTHOUSE, 0)
    for x, y, kd in WINNING[0]:
        d.place(x, y, kd)
    d.start_wave()
    while d.advance(7) == "running":
        assert d.phase == "fight"
    assert d.to_dict() == a.to_dict()


def test_end_of_wave_resets_heat_timers_and_stops_but_keeps_cumulative_counts():
    d = _play(0, WINNING[:2])
    r1, r2 = d.records
    assert sum(r1.overheat_stops) > 0
    nc = len(r2.shots)
    assert (d._cn_heat[:nc] == 0).all() and (d._cn[:nc, k.C_TIMER] == 0).all()
    assert (d._cn[:nc, k.C_STOPS_WAVE] == 0).all() and not d._cn[:nc, k.C_OVERHEATED].any()
    stops = d.to_dict()["cannon_overheat_stops"]
    assert stops[:2] == [a + b for a, b in zip(r1.overheat_stops, r2.overheat_stops[:2])]
    assert d.totals.overheat_stops == sum(r1.overheat_stops) + sum(r2.overheat_stops)


def test_per_wave_records_and_cumulative_totals_add_up():
    d = _play(0, WINNING)
    assert d.phase == "victory" and len(d.records) == 3
    t = d.totals
    recs = d.records
    assert t.kills == sum(r.kills for r in recs)
    assert t.leaks_a == sum(r.leaks_a for r in recs)
    assert t.leaks_b == sum(r.leaks_b for r in recs)
    assert t.shots == sum(sum(r.shots) for r in recs)
    assert t.overheat_stops == sum(sum(r.overheat_stops) for r in recs)
    assert t.ticks == sum(r.ticks for r in recs) and t.waves_won == 3
    assert d.time == t.ticks / 60
    for r, n in zip(recs, (10, 10, 12)):
        assert r.kills + r.leaks_a + r.leaks_b == n
    built = [0, 0]
    for phase, r in zip(WINNING, recs):
        built[0] += sum(kind == "cannon" for _, _, kind in phase)
        built[1] += sum(kind == "wall" for _, _, kind in phase)
        assert (r.cannons, r.walls) == tuple(built)
    # health: 5, +1 after each won wave, -1 per leak
    assert recs[0].health == 5 - recs[0].leaks_a - recs[0].leaks_b
    assert recs[1].health == recs[0].health + 1 - recs[1].leaks_a - recs[1].leaks_b


def test_outcome_at_reads_only_finished_waves():
    d = Defense()
    with pytest.raises(ConfigError, match="not finished"):
        d.outcome_at(1)
    d.start_wave()
    d.advance(60)
    with pytest.raises(ConfigError, match="not finished"):
        d.outcome_at(1)
    d.run_wave()
    assert d.outcome_at(1) == "lost"


def test_leaks_count_by_the_entrance_saved_at_spawn():
    cells, _ = _after(0, WINNING[:2])
    both = 0
    for c in cells:
        d = _play(0, WINNING[:2] + [[(*c, "cannon")]])
        r3 = d.records[2]
        expected = naive.simulate_wave(
            LIGHTHOUSE, 3, [(x, y) for x, y, kd in d.buildings if kd == "cannon"],
            [(x, y) for x, y, kd in d.buildings if kd == "wall"],
            [(kd, e) for _, kd, e in d.forecast(3).spawns], d.records[1].health + 1)
        assert (r3.leaks_a, r3.leaks_b) == (expected["leaks_a"], expected["leaks_b"])
        both += r3.leaks_a > 0 and r3.leaks_b > 0
    assert both > 0


# ------------------------------------------------------------------------- retry, restart
def test_retry_restores_the_build_phase_snapshot_exactly_three_times():
    d = _play(0, [WINNING[0]])
    start_of_build = json.dumps(d.to_dict(), sort_keys=True)
    assert d.phase == "build" and d.wave == 2
    for _ in range(3):
        d.place(*WRONG, "cannon")
        rec = d.run_wave()
        assert rec.outcome == "lost" and d.phase == "defeat" and len(d.records) == 2
        d.retry_wave()
        assert json.dumps(d.to_dict(), sort_keys=True) == start_of_build
        assert len(d.records) == 1
    d.place(*WINNING[1][0])
    assert d.run_wave().outcome == "won"


def test_retry_is_refused_while_building_fighting_or_after_victory():
    d = Defense()
    with pytest.raises(InvalidMoveError, match="phase is build"):
        d.retry_wave()
    d.start_wave()
    with pytest.raises(InvalidMoveError, match="phase is fight"):
        d.retry_wave()
    won = _play(0, WINNING)
    assert won.phase == "victory"
    with pytest.raises(InvalidMoveError, match="phase is victory"):
        won.retry_wave()


def test_restart_clears_everything():
    d = _play(0, WINNING)
    d.restart()
    assert d.to_dict() == Defense(LIGHTHOUSE, 0).to_dict()
    assert d.records == () and d.totals.shots == 0 and d.material == 10


def test_waves_start_only_from_the_build_phase():
    d = Defense()
    with pytest.raises(InvalidMoveError):
        d.advance(1)
    d.start_wave()
    with pytest.raises(InvalidMoveError):
        d.start_wave()
    with pytest.raises(ConfigError):
        d.advance(0)


def _variant(**changes):
    d = copy.deepcopy(LIGHTHOUSE.to_dict())
    for path, value in changes.items():
        sec, key = path.split("__")
        (d["enemies"][sec] if sec in ("skiff", "armoured") else d[sec])[key] = value
    return Scenario.from_dict(d)


@pytest.mark.parametrize("changes", [
    {"cannon__overheat_threshold": 2.0, "cannon__cooling": 3.0},
    {"skiff__speed": 2.5, "armoured__hp": 4, "cannon__damage": 2},
    {"cannon__range": 1.5, "cannon__fire_interval": 0.25, "cannon__heat_per_shot": 0.0},
])
@pytest.mark.parametrize("case", range(3))
def test_simulation_matches_plain_python_rules_on_other_numbers(changes, case):
    scenario = _variant(**changes)
    rng = np.random.default_rng(100 + case)
    d = Defense(scenario, case)
    health = scenario.economy.beacon_health
    while d.phase == "build":
        _random_plan(rng, d)
        expected = naive.simulate_wave(
            scenario, d.wave, [(x, y) for x, y, kd in d.buildings if kd == "cannon"],
            [(x, y) for x, y, kd in d.buildings if kd == "wall"],
            [(kd, e) for _, kd, e in d.forecast().spawns], health)
        rec = d.run_wave()
        assert {key: getattr(rec, key) for key in expected} == expected
        health = rec.health + 1


def test_cannons_aim_with_the_same_find_target_that_decides_hits():
    d = Defense(LIGHTHOUSE, 0)
    cannons = [(x, y) for x, y, kind in WINNING[0] if kind == "cannon"]
    for c in cannons:
        d.place(*c, "cannon")
    assert d.targets() == (None, None)
    d.start_wave()
    seen = 0
    while d.advance(5) == "running":
        for (cx, cy), aim in zip(cannons, d.targets()):
            if aim is None:
                continue
            ship, x, y = aim
            assert (x - cx) ** 2 + (y - cy) ** 2 <= 2.9 ** 2
            assert d._en[ship - 1, k.E_STATUS] == k.S_ALIVE
            seen += 1
    assert seen > 10
