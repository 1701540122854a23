import subprocess
import sys

import numpy as np
import pytest

from levelforge import ConfigError
from levelforge.sokoban import Generator, Level, Solver, generate
from levelforge.sokoban.difficulty import box_changes, dead_squares, difficulty
from levelforge.sokoban.farthest import FarthestGenerator, pull_space
from levelforge.sokoban.rooms import ROOM_KINDS, make_room

import naive_farthest
import naive_sokoban as naive


def _random_level(rng, w, h, nbox, wall_p=0.15):
    """A random enclosed room with ``nbox`` goals (boxes on them) and the player on a free
    cell, or None when too little floor is left."""
    walls = set()
    for y in range(h):
        for x in range(w):
            if x in (0, w - 1) or y in (0, h - 1) or rng.random() < wall_p:
                walls.add((x, y))
    floor = [(x, y) for y in range(h) for x in range(w) if (x, y) not in walls]
    if len(floor) < nbox + 1:
        return None
    pick = rng.permutation(len(floor))
    goals = {floor[i] for i in pick[:nbox]}
    return Level(w, h, walls, goals, goals, floor[pick[nbox]])


def test_pull_bfs_kernel_equals_a_plain_python_search_over_pulls():
    rng = np.random.default_rng(23)
    checked = 0
    while checked < 60:
        level = _random_level(rng, int(rng.integers(4, 8)), int(rng.integers(4, 7)),
                              int(rng.integers(1, 4)))
        if level is None:
            continue
        got, whole = pull_space(level)
        assert whole
        assert got == naive_farthest.pull_distances(level)
        checked += 1


def test_exact_distances_are_the_forward_solvers_optimal_pushes():
    rng = np.random.default_rng(5)
    solver = Solver(max_nodes=200_000)
    checked = 0
    while checked < 120:
        level = _random_level(rng, int(rng.integers(5, 8)), int(rng.integers(5, 8)),
                              int(rng.integers(1, 4)))
        if level is None:
            continue
        space, _ = pull_space(level)
        states = sorted(space.items(), key=lambda kv: (-kv[1], sorted(kv[0][0]), kv[0][1]))
        for (boxes, player), d in states[:3]:
            start = level.replace(boxes=boxes, player=player)
            r = solver.solve(start)
            assert r.pushes == d == naive.bfs_pushes(start)
            checked += 1


def test_a_capped_search_keeps_exact_distances_for_what_it_met():
    level = Level.from_xsb("#########\n#       #\n# *   * #\n#   @   #\n# *     #\n"
                           "#       #\n#########")
    full, whole = pull_space(level)
    part, part_whole = pull_space(level, max_states=100)
    assert whole and not part_whole and len(full) > 400 and len(part) == 100
    assert all(full[k] == d for k, d in part.items())
    shallow, deep_whole = pull_space(level, max_depth=3)
    assert not deep_whole and max(shallow.values()) == 3
    assert shallow == {k: d for k, d in full.items() if d <= 3}


@pytest.mark.parametrize("config", [
    {"width": 7, "height": 7, "boxes": 2, "pushes": (6, 12)},
    {"width": 8, "height": 8, "boxes": 3, "pushes": (12, 20), "room": "carved"},
    {"width": 9, "height": 9, "boxes": 3, "pushes": (15, 25), "room": "open",
     "inner_walls": 8},
])
def test_every_generated_levels_proof_replays_with_the_solvers_optimum(config):
    gen = FarthestGenerator(**config)
    solver = Solver(max_nodes=500_000)
    lo, hi = config["pushes"]
    for seed in range(12):
        r = gen.generate(seed)
        boxes, _, pushes = naive.replay(r.level, r.solution)
        assert boxes == r.level.goals and pushes == r.pushes
        again = solver.solve(r.level)
        assert again.pushes == r.pushes == r.difficulty.pushes
        assert again.nodes == r.difficulty.nodes and again.expanded == r.difficulty.expanded
        assert r.in_target == (lo <= r.pushes <= hi)
        assert r.difficulty.box_changes == naive_farthest.box_changes(r.level, r.solution)


def test_10x10_four_boxes_reach_35_to_50_pushes():
    gen = Generator(width=10, height=10, boxes=4, pushes=(35, 50), method="farthest")
    for seed in range(3):
        r = gen.generate(seed)
        assert r.in_target and 35 <= r.pushes <= 50
        assert naive.replay(r.level, r.solution)[0] == r.level.goals


@pytest.mark.parametrize("kind", ROOM_KINDS)
def test_rooms_are_enclosed_connected_and_seeded_deterministic(kind):
    for seed in range(25):
        w, h = 6 + seed % 6, 6 + seed % 5
        walls = make_room(kind, w, h, np.random.default_rng(seed), inner_walls=5)
        again = make_room(kind, w, h, np.random.default_rng(seed), inner_walls=5)
        assert np.array_equal(walls, again)
        grid = walls.reshape(h, w)
        assert grid[0].all() and grid[-1].all() and grid[:, 0].all() and grid[:, -1].all()
        floor = {(x, y) for y in range(h) for x in range(w) if not grid[y, x]}
        assert floor
        start = min(floor)
        assert naive.reachable({(x, y) for y in range(h) for x in range(w) if grid[y, x]},
                               frozenset(), start) == floor


def test_same_seed_same_level_in_another_process():
    r = generate(41, width=8, height=8, boxes=3, pushes=(12, 20), method="farthest")
    code = ("from levelforge.sokoban import generate;"
            "r = generate(41, width=8, height=8, boxes=3, pushes=(12, 20), method='farthest');"
            "print(repr((r.level.to_xsb(), r.solution)))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == repr((r.level.to_xsb(), r.solution))


def test_a_push_range_is_spread_over():
    gen = FarthestGenerator(width=8, height=8, boxes=2, pushes=(8, 15))
    lengths = [gen.generate(seed).pushes for seed in range(48)]
    assert all(8 <= p <= 15 for p in lengths)
    assert len(set(lengths)) >= 6
    assert min(lengths) <= 9 and max(lengths) >= 14


def test_effort_targets_are_honoured_or_reported_out_of_target():
    gen = FarthestGenerator(width=8, height=8, boxes=3, pushes=None, effort=(60, 400))
    solver = Solver()
    hits = 0
    for seed in range(10):
        r = gen.generate(seed)
        nodes = solver.solve(r.level).nodes
        assert nodes == r.difficulty.nodes
        assert r.in_target == (60 <= nodes <= 400)
        hits += r.in_target
    assert hits >= 8
    far = FarthestGenerator(width=7, height=7, boxes=1, pushes=None,
                            effort=(10**7, 10**7 + 1), rooms=3)
    r = far.generate(0)
    assert not r.in_target and r.attempts.fallback and r.difficulty.nodes < 10**7


def test_difficulty_figures_against_references():
    level = Level.from_xsb("#######\n#     #\n# $$  #\n#@  ..#\n#######")
    d = difficulty(level)
    r = Solver().solve(level)
    assert d.pushes == r.pushes and d.nodes == r.nodes
    assert d.box_changes == naive_farthest.box_changes(level, r.solution)
    cells = [(x, y) for y in range(level.height) for x in range(level.width)]
    assert d.dead_squares == len(naive.dead_squares(set(level.walls), level.goals, cells))
    assert box_changes(level, r.solution) == d.box_changes
    assert len(dead_squares(level)) == d.dead_squares


def test_farthest_generator_describes_itself_and_pickles():
    import pickle

    gen = Generator(width=8, height=8, boxes=2, pushes=(6, 10), method="farthest",
                    room="carved")
    d = gen.to_dict()
    assert d["method"] == "farthest" and d["room"] == "carved"
    again = pickle.loads(pickle.dumps(gen))
    assert again.generate(4).level == gen.generate(4).level
    assert Generator(**d).generate(4).level == gen.generate(4).level
    rec = gen.generate(4).to_dict()
    assert set(rec["difficulty"]) == {"pushes", "nodes", "expanded", "box_changes",
                                      "dead_squares"}
    assert rec["search"]["room"] == "carved"


@pytest.mark.parametrize("kwargs, match", [
    ({"effort": (1, 5)}, "need method='farthest'"),
    ({"room": "carved"}, "need method='farthest'"),
    ({"method": "nope"}, "method must be"),
    ({"method": "farthest", "room": "cave"}, "room must be"),
    ({"method": "farthest", "effort": (9, 2)}, "lo must not exceed hi"),
])
def test_bad_farthest_configuration_raises_config_error(kwargs, match):
    with pytest.raises(ConfigError, match=match):
        Generator(**kwargs)


def test_default_path_is_unchanged_and_never_loads_the_backward_search():
    code = ("import hashlib, sys;"
            "from levelforge.sokoban import generate;"
            "h = hashlib.sha256();"
            "[h.update((r.level.to_xsb() + r.solution).encode()) for r in "
            "(generate(s, width=w, height=w, boxes=b, pushes=p) for s in range(10) "
            "for w, b, p in ((7, 2, (4, 8)), (10, 4, (15, 30))))];"
            "print(h.hexdigest(), sorted(m for m in sys.modules if 'farthest' in m "
            "or 'rooms' in m))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.split(maxsplit=1)
    assert out[1].strip() == "[]"  # neither the module nor its kernel is even imported
    assert out[0] == DEFAULT_HASH


# sha256 of the 20 default-path levels above, as generated before the farthest method
DEFAULT_HASH = "dd9995691de1a060e712a1fb78e65dec9b32f4da363f8b1ab0692507de47cad0"


def test_with_no_target_the_farthest_state_of_the_room_is_returned():
    gen = FarthestGenerator(width=6, height=6, boxes=2, pushes=None, rooms=4)
    for seed in range(3):
        r = gen.generate(seed)
        assert r.search.exhaustive and r.search.farthest == r.pushes
        lv = r.level
        free = [(x, y) for y in range(lv.height) for x in range(lv.width)
                if (x, y) not in lv.walls and (x, y) not in lv.goals]
        solved = lv.replace(boxes=lv.goals, player=free[0])
        assert max(naive_farthest.pull_distances(solved).values()) == r.pushes


def test_effort_splits_route_levels_by_solver_nodes_at_the_documented_quartiles(tmp_path):
    import json
    import os
    import re

    from levelforge.sokoban.dataset import EFFORT_SPLITS, build

    bounds = list(EFFORT_SPLITS.values())
    assert list(EFFORT_SPLITS) == ["easy", "medium", "hard", "harder"]
    assert bounds[0][0] == 0 and bounds[-1][1] is None
    assert all(a[1] + 1 == b[0] for a, b in zip(bounds, bounds[1:]))
    guide = os.path.join(os.path.dirname(__file__), "..", "docs", "guide",
                         "sokoban-hard-levels.md")
    with open(guide, encoding="utf-8") as fh:
        text = fh.read()
    for name, (lo, hi) in EFFORT_SPLITS.items():
        row = re.search(rf"^\| {name} \| (\d+) \| (\d+|-) \|", text, re.M)
        assert row, name
        assert (int(row[1]), None if row[2] == "-" else int(row[2])) == (lo, hi)
    config = {"width": 9, "height": 9, "boxes": 3, "pushes": [10, 24], "method": "farthest"}
    summary = build(tmp_path, 12, seed=2, config=config, fmt="xsb", splits="effort",
                    show_progress=False)
    assert sum(summary.per_split.values()) == 12
    for name, (lo, hi) in EFFORT_SPLITS.items():
        path = tmp_path / name / "000.jsonl"
        if not path.exists():
            continue
        for rec in map(json.loads, path.read_text().splitlines()):
            assert lo <= rec["nodes"] and (hi is None or rec["nodes"] <= hi)
            assert {"box_changes", "dead_squares"} <= set(rec)


def test_campaign_ramped_by_effort():
    from levelforge.sokoban import campaign
    from levelforge.sokoban.generator import EFFORT_CAMPAIGN_STAGES, LEVELS_PER_STAGE

    efforts = [stage[3] for stage in EFFORT_CAMPAIGN_STAGES]
    assert all(a[0] < b[0] and a[1] < b[1] for a, b in zip(efforts, efforts[1:]))
    assert campaign(0) == {"width": 6, "height": 6, "boxes": 1, "inner_walls": 0,
                           "pushes": (2, 4)}  # the push ramp is unchanged
    solver = Solver()
    for stage in range(3):
        config = campaign(stage * LEVELS_PER_STAGE, ramp="effort")
        assert config["method"] == "farthest" and config["effort"] == efforts[stage]
        r = generate(stage, **config)
        lo, hi = config["effort"]
        assert r.in_target == (lo <= solver.solve(r.level).nodes <= hi)
    with pytest.raises(ConfigError, match="ramp must be"):
        campaign(0, ramp="walls")


def test_cli_generates_farthest_levels(tmp_path):
    from levelforge.sokoban import load_xsb
    from levelforge.sokoban.cli import main

    out = tmp_path / "hard.xsb"
    code = main(["generate", "--method", "farthest", "--width", "8", "--height", "8",
                 "--boxes", "3", "--pushes", "14-20", "--count", "3", "--no-progress",
                 "-o", str(out)])
    assert code == 0
    levels = load_xsb(out)
    assert len(levels) == 3
    solver = Solver()
    assert all(14 <= solver.solve(lv).pushes <= 20 for lv in levels)


def test_beam_search_depths_and_scores_bound_the_exact_distance():
    from levelforge.engine import sokoban_farthest as F
    from levelforge.sokoban.farthest import _Space

    level = Level.from_xsb("##########\n#        #\n# *  *   #\n#   #  @ #\n# *      #\n"
                           "#    #   #\n##########")
    exact, whole = pull_space(level)
    assert whole
    walls, goals, _, _ = level.arrays()
    sp = _Space(walls.shape[0], 3, 50_000)
    count, status, top = sp.search(walls, np.flatnonzero(goals), level.width, 32766, 40)
    assert status == F.BEAM and count < len(exact)
    scores = sp.scores(count)
    w = level.width
    layers = np.bincount(sp.depth[:count])
    assert layers[1:].max() <= 40
    for j in range(count):
        boxes = frozenset((int(c) % w, int(c) // w) for c in sp.pool[3 * j:3 * j + 3])
        norm = (int(sp.nplayer[j]) % w, int(sp.nplayer[j]) // w)
        assert scores[j] <= exact[(boxes, norm)] <= sp.depth[j]


def test_rooms_too_big_to_search_whole_go_to_the_beam_search():
    gen = FarthestGenerator(width=9, height=9, boxes=4, pushes=(20, 30), room="open",
                            max_states=3000, rooms=3)
    solver = Solver()
    for seed in range(3):
        r = gen.generate(seed)
        assert r.search.beam and not r.search.exhaustive
        assert naive.replay(r.level, r.solution)[0] == r.level.goals
        assert solver.solve(r.level).pushes == r.pushes
        assert r.in_target == (20 <= r.pushes <= 30)


def test_an_unreachable_push_range_gives_the_deepest_state_marked_out_of_target():
    r = FarthestGenerator(width=6, height=6, boxes=1, pushes=(40, 50), rooms=3).generate(2)
    assert not r.in_target and r.attempts.fallback and r.pushes < 40
    assert r.pushes == r.search.farthest and r.search.exhaustive
    assert Solver().solve(r.level).pushes == r.pushes


def test_cli_dataset_splits_by_effort(tmp_path, capsys):
    import json

    from levelforge.sokoban.cli import main

    config = {"width": 8, "height": 8, "boxes": 3, "pushes": [14, 20], "method": "farthest"}
    code = main(["dataset", "--splits", "effort", "--count", "4", "--config",
                 json.dumps(config), "--jobs", "1", "--no-progress", "--format", "xsb",
                 "-o", str(tmp_path)])
    assert code == 0
    manifest = json.loads((tmp_path / "dataset.json").read_text())
    assert manifest["split_by"] == "nodes"
    assert set(manifest["splits"]) == {"easy", "medium", "hard", "harder"}
    assert "4 levels this run" in capsys.readouterr().err


def test_cli_effort_alone_leaves_the_length_free_and_needs_the_farthest_method(tmp_path,
                                                                              capsys):
    from levelforge.sokoban import load_xsb
    from levelforge.sokoban.cli import main

    out = tmp_path / "effort.xsb"
    assert main(["generate", "--method", "farthest", "--width", "8", "--height", "8",
                 "--boxes", "3", "--effort", "80-200", "--count", "2", "--no-progress",
                 "-o", str(out)]) == 0
    solver = Solver()
    nodes = [solver.solve(lv).nodes for lv in load_xsb(out)]
    assert all(80 <= n <= 200 for n in nodes)
    with pytest.raises(ConfigError, match="need method='farthest'"):
        main(["generate", "--effort", "80-200", "-o", str(tmp_path / "x.xsb")])


def test_a_room_where_nothing_can_be_pulled_is_a_generation_error():
    from levelforge import GenerationError

    gen = FarthestGenerator(width=5, height=5, boxes=7, pushes=(1, 3), rooms=2)
    with pytest.raises(GenerationError):
        gen.generate(0)


def test_farthest_generation_keeps_its_time_limit_and_answers_a_cancel():
    from levelforge import Cancel, Cancelled, GenerationError
    from levelforge.timing import now_ns

    gen = Generator(width=12, height=12, boxes=6, pushes=(60, 80), method="farthest")
    t = now_ns()
    with pytest.raises(GenerationError, match="time limit of 0.2 s"):
        gen.generate(1, time_limit=0.2)
    assert (now_ns() - t) / 1e9 < 5  # generous: the unlimited call takes far longer
    token = Cancel()
    token.cancel()
    with pytest.raises(Cancelled):
        gen.generate(1, cancel=token)
    small = Generator(width=7, height=7, boxes=2, pushes=(4, 8), method="farthest")
    a, b = small.generate(3), small.generate(3, time_limit=60)
    assert (a.level, a.solution) == (b.level, b.solution)


def test_farthest_generation_refuses_an_unreachable_push_range_at_once():
    with pytest.raises(ConfigError, match="no 5x5 board"):
        Generator(width=5, height=5, boxes=1, pushes=(100, 200), method="farthest")
