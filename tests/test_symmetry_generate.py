"""Generated symmetry puzzles: uniqueness by the reference counter, mirrors, determinism, CLI."""
import json
import pickle
import subprocess
import sys

import pytest

from levelforge import ConfigError
from levelforge.cli import main as levelforge_main
from levelforge.seeding import item_seed
from levelforge.symmetry import Generator, Puzzle, Strategy, generate, longest_path_points
from levelforge.symmetry.board import mirror_point

from naive_symmetry import count_paths, forbidden_trap_edges, trap_edges

_GENERATORS = {}


def _gen(size, strategy=None):
    key = (size, strategy)
    if key not in _GENERATORS:
        _GENERATORS[key] = Generator(size, strategy)
        _GENERATORS[key].warm_up()
    return _GENERATORS[key]


def _edges(path):
    return {(a, b) if a <= b else (b, a) for a, b in zip(path, path[1:])}


# 300 puzzles over sizes 5-9, mostly small (the reference counter is plain Python); every
# strategy in turn. asv_bench/report_symmetry.py --traps runs a heavier sweep.
TRAP_SWEEP = [(5, 170), (6, 80), (7, 40), (8, 6), (9, 4)]


@pytest.mark.parametrize("size,count", TRAP_SWEEP)
def test_trap_pair_edge_is_never_forbidden_and_every_puzzle_stays_unique(size, count):
    """The design's rule: an edge joining two required points that are lattice neighbours
    but not consecutive on the answer is never forbidden (on A, on B, on the master)."""
    strategies = list(Strategy)
    for i in range(count):
        seed = item_seed(300, size * 1000 + i)
        p = _gen(size, strategies[i % len(strategies)]).generate(seed)
        assert forbidden_trap_edges(p) == {"A": [], "B": [], "master": []}, seed
        m = p.master()
        assert p.difficulty["trap_pairs"] == len(trap_edges(size, m.required, p.solution))
        assert p.check(p.solution)
        assert count_paths(size, m.start, m.goal, m.required, m.forbidden, limit=2,
                           prune=True) == 1, seed
        # A and B are exact mirrors in start and goal
        assert p.board_b.start == mirror_point(p.board_a.start, size)
        assert p.board_b.goal == mirror_point(p.board_a.goal, size)
        assert p.solution[0] == p.board_a.start and p.solution[-1] == p.board_a.goal


def test_trap_pair_that_blocks_uniqueness_is_dropped_not_the_rule():
    """7x7 seed 16: an alternative leaves the answer only through a trap pair's edge and
    misses no answer point, so one point of the pair stops being required."""
    p = _gen(7).generate(16)
    assert p.difficulty["trap_pairs_dropped"] == 1
    assert forbidden_trap_edges(p) == {"A": [], "B": [], "master": []}
    m = p.master()
    assert count_paths(7, m.start, m.goal, m.required, m.forbidden, limit=2, prune=True) == 1


def test_trap_pairs_chosen_first_stay_through_the_reduction():
    kept = 0
    for seed in range(30):
        p = _gen(5).generate(seed)
        m = p.master()
        traps = trap_edges(5, m.required, p.solution)
        kept += bool(traps)
        for a, b in traps:   # a trap pair: neighbours on the board, far apart on the answer
            assert abs(p.solution.index(a) - p.solution.index(b)) >= 3
    assert kept >= 20


def test_required_points_lie_on_the_answer_and_forbidden_edges_avoid_it():
    for seed in range(20):
        p = _gen(5).generate(seed)
        m = p.master()
        assert m.required <= set(p.solution)
        assert not (m.forbidden & _edges(p.solution))
        assert p.difficulty["required"] == len(m.required)
        assert p.difficulty["forbidden"] == len(m.forbidden)


def test_conditions_are_split_between_boards_a_and_b():
    both = 0
    for seed in range(20):
        p = _gen(6).generate(seed)
        a, b = p.board_a, p.board_b
        m = p.master()
        items = len(m.required) + len(m.forbidden)
        na = len(a.required) + len(a.forbidden)
        nb = len(b.required) + len(b.forbidden)
        assert na + nb == items  # each condition on exactly one board
        if items >= 2:
            assert na >= 1 and nb >= 1
        both += not p.difficulty["a_alone_unique"] and not p.difficulty["b_alone_unique"]
    assert both >= 15  # neither board alone determines the answer, nearly always


def test_answer_path_is_the_longest_the_colour_bound_allows_then_shortened_by_two():
    for size in (4, 5, 7):
        for seed in range(8):
            p = _gen(size).generate(seed)
            bound = longest_path_points(size, p.board_a.start, p.board_a.goal)
            got = len(p.solution)
            assert got <= bound and (bound - got) % 2 == 0
            assert p.difficulty["path_points"] == got
            if p.difficulty["z3_attempts"] == 1:
                assert got == bound


def test_z3_resource_limit_shortens_the_path_and_stays_deterministic():
    gen = Generator(6, rlimit=40_000)  # too small for the longest paths of 6x6
    for seed in range(3):
        p = gen.generate(seed)
        bound = p.difficulty["longest_possible"]
        assert p.difficulty["z3_attempts"] > 1
        assert len(p.solution) < bound and (bound - len(p.solution)) % 2 == 0
        assert set(p.waypoints) <= set(p.solution)
        m = p.master()
        assert count_paths(6, m.start, m.goal, m.required, m.forbidden, limit=2,
                           prune=True) == 1
        again = Generator(6, rlimit=40_000).generate(seed)
        assert again.to_json(include_timings=False) == p.to_json(include_timings=False)


def test_reduction_leaves_no_removable_condition_but_trap_pairs():
    for seed in range(6):
        p = _gen(5).generate(seed)
        m = p.master()
        for e in m.forbidden:
            assert count_paths(5, m.start, m.goal, m.required, m.forbidden - {e}, limit=2,
                               prune=True) == 2
        in_traps = {q for e in trap_edges(5, m.required, p.solution) for q in e}
        for r in m.required - in_traps:
            assert count_paths(5, m.start, m.goal, m.required - {r}, m.forbidden, limit=2,
                               prune=True) == 2


def _corner(p, n):
    return p[0] in (0, n - 1) and p[1] in (0, n - 1)


def _central(p, n):
    return abs(p[0] - (n - 1) / 2) + abs(p[1] - (n - 1) / 2) <= 1


@pytest.mark.parametrize("strategy,on_pool", [
    ("EDGE_WALK", lambda p, n: p[0] in (0, n - 1) or p[1] in (0, n - 1)),
    ("DIAGONAL", lambda p, n: p[0] == p[1] or p[0] + p[1] == n - 1),
    ("CORNER_FIRST", _corner),
    ("CENTER_FIRST", _central),
    ("DEFAULT", lambda p, n: True),
])
def test_waypoint_strategies_choose_their_points_and_the_answer_passes_them(strategy,
                                                                           on_pool):
    gen = _gen(5, strategy)
    for seed in range(6):
        p = gen.generate(seed)
        assert p.strategy == strategy
        assert 0 <= len(p.waypoints) <= 3
        assert set(p.waypoints) <= set(p.solution)
        ends = (p.board_a.start, p.board_a.goal)
        # start and goal are never waypoints; when they take none of the four best-ranked
        # points (corners, centre cross), every waypoint comes from the strategy's points
        if not any(on_pool(e, 5) for e in ends) or strategy in ("EDGE_WALK", "DIAGONAL"):
            assert all(on_pool(w, 5) for w in p.waypoints), (p.waypoints, ends)
        assert not set(p.waypoints) & set(ends)


def test_strategy_is_picked_from_the_seed_when_not_given():
    seen = {_gen(4).generate(seed).strategy for seed in range(40)}
    assert seen == {s.value for s in Strategy}


def test_same_seed_same_puzzle_json_identical_in_a_fresh_process():
    seeds = [(4, 11), (5, 12), (6, 13), (7, 14)]
    here = [generate(n, s).to_json(include_timings=False) for n, s in seeds]
    # the fresh process generates in the reverse order: no puzzle depends on earlier ones
    code = ("from levelforge.symmetry import generate\n"
            f"for n, s in {seeds[::-1]!r}:\n"
            "    print(generate(n, s).to_json(include_timings=False))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.splitlines()[::-1] == here
    assert here[0] != generate(4, 15).to_json(include_timings=False)


def test_generator_follows_the_batch_protocol():
    gen = Generator(5, strategy="DIAGONAL")
    clone = pickle.loads(pickle.dumps(gen))
    clone.warm_up()
    p = clone.generate(77)
    assert p.seed == 77 and p.elapsed_ms > 0
    d = p.to_dict()
    assert json.loads(json.dumps(d)) == d
    assert d["config"] == gen.to_dict() and d["seed"] == 77
    assert set(d["timings"]) >= {"path", "uniqueness", "reduction", "z3", "dfs"}
    assert d["difficulty"]["proof_nodes"] >= len(p.solution) - 1
    assert Puzzle.from_dict(d).to_json() == p.to_json()
    d2 = gen.generate(78).to_dict()
    summary = Generator.summarize([d, d2])
    assert summary["mean_path_points"] == (d["difficulty"]["path_points"]
                                           + d2["difficulty"]["path_points"]) / 2
    assert 0.0 < summary["z3_share"] < 1.0 and 0.0 < summary["dfs_share"] < 1.0
    assert all(isinstance(v, float) for v in summary.values())


@pytest.mark.parametrize("kwargs,message", [
    (dict(size=2), "size"), (dict(size=10), "size"), (dict(size="5"), "size"),
    (dict(size=5, strategy="SPIRAL"), "unknown strategy"),
    (dict(size=5, rlimit=0), "rlimit"), (dict(size=5, max_nodes=-1), "max_nodes"),
    (dict(size=5, required_share=2.0), "required_share"),
])
def test_invalid_generator_arguments_raise_config_errors(kwargs, message):
    with pytest.raises(ConfigError, match=message):
        Generator(**kwargs)
    with pytest.raises(ConfigError):
        Generator(5).generate(-1)


def test_cli_generate_then_show(tmp_path, capsys):
    out = tmp_path / "p.jsonl"
    assert levelforge_main(["symmetry", "generate", "--size", "4", "--count", "3", "--seed",
                            "9", "-o", str(out), "--no-progress"]) == 0
    lines = out.read_text().splitlines()
    assert len(lines) == 3
    first = Puzzle.from_json(lines[0])
    assert first.seed == item_seed(9, 0)
    assert first.to_json(include_timings=False) == \
        generate(4, item_seed(9, 0)).to_json(include_timings=False)
    capsys.readouterr()
    assert levelforge_main(["symmetry", "show", str(out), "--index", "2", "--solution"]) == 0
    shown = capsys.readouterr().out
    assert "B (mirror of A)" in shown and "S" in shown and "G" in shown and "#" in shown
    assert levelforge_main(["symmetry", "show", str(out), "--index", "3"]) == 2
    assert "no puzzle at index 3" in capsys.readouterr().err
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"size": 4}\n')
    assert levelforge_main(["symmetry", "show", str(bad)]) == 2
    assert "line 1" in capsys.readouterr().err
