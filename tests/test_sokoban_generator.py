import json
import pickle
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from levelforge import ConfigError, GenerationError
from levelforge.engine import sokoban_state as Ks
from levelforge.engine import sokoban_generator as G
from levelforge.seeding import item_seed
from levelforge.sokoban import Generator, Solver, campaign, generate, load_xsb
from levelforge.sokoban.generator import CAMPAIGN_STAGES, LEVELS_PER_STAGE

import naive_sokoban as naive


def test_1000_seeds_solutions_replay_and_pushes_equal_the_solver_optimum():
    gen = Generator(width=7, height=7, boxes=2, pushes=(4, 8))
    solver = Solver(max_nodes=100_000)
    for seed in range(1000):
        r = gen.generate(seed)
        boxes, _, pushes = naive.replay(r.level, r.solution)
        assert boxes == r.level.goals, seed
        assert pushes == r.pushes, seed
        assert solver.solve(r.level).pushes == r.pushes, seed
        assert not r.level.is_solved
        assert r.in_target == (4 <= r.pushes <= 8)


def test_10x10_four_box_levels_replay_with_optimal_pushes():
    gen = Generator(width=10, height=10, boxes=4, pushes=(15, 30))
    for seed in range(5):
        r = gen.generate(seed)
        boxes, _, pushes = naive.replay(r.level, r.solution)
        assert boxes == r.level.goals and pushes == r.pushes
        assert Solver().solve(r.level).pushes == r.pushes


def test_same_seed_same_level_in_another_process():
    r = generate(123, width=8, height=8, boxes=3, pushes=(8, 12), inner_walls=3)
    code = ("from levelforge.sokoban import generate;"
            "r = generate(123, width=8, height=8, boxes=3, pushes=(8, 12), inner_walls=3);"
            "print(repr((r.level.to_xsb(), r.solution, r.pushes)))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == repr((r.level.to_xsb(), r.solution, r.pushes))
    assert generate(124, width=8, height=8, boxes=3, pushes=(8, 12),
                    inner_walls=3).level != r.level


def test_room_has_border_walls_inner_walls_and_a_box_on_every_goal_when_solved():
    gen = Generator(width=8, height=7, boxes=3, pushes=(5, 9), inner_walls=4)
    for seed in range(30):
        r = gen.generate(seed)
        lv = r.level
        border = {(x, y) for x in range(8) for y in range(7) if x in (0, 7) or y in (0, 6)}
        assert border <= lv.walls
        assert len(lv.walls - border) == r.attempts.inner_walls <= 4
        solved = naive.replay(lv, r.solution)
        assert solved[0] == lv.goals and len(lv.boxes) == 3


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**32), st.integers(4, 7), st.integers(4, 7), st.integers(1, 3))
def test_pull_then_push_back_is_the_identity(seed, w, h, nbox):
    """Pull/push inverse: the kernel's pull is one of the legal pulls, and pushing the
    box back the way it came restores the boxes with the player next to them."""
    rng = np.random.default_rng(seed)
    n = w * h
    walls = np.zeros(n, np.uint8)
    for c in range(n):
        x, y = c % w, c // w
        walls[c] = x in (0, w - 1) or y in (0, h - 1) or rng.random() < 0.15
    free = np.flatnonzero(walls == 0)
    if free.size < nbox + 1:
        return
    pick = rng.permutation(free)
    occ = np.zeros(n, np.uint8)
    occ[pick[:nbox]] = 1
    player = int(pick[nbox])
    wset = {(c % w, c // w) for c in np.flatnonzero(walls)}
    before = frozenset((int(c) % w, int(c) // w) for c in np.flatnonzero(occ))
    region = naive.reachable(wset, before, (player % w, player // w))
    legal = {naive.pull(wset, before, q, letter) for q in region for letter in "ulrd"} - {None}
    state = np.array([np.uint64(seed)], np.uint64)
    ctr = np.zeros(Ks.N_COUNTERS, np.int64)
    newp = G._random_pull(walls, occ, w, player, state, np.zeros(n, np.int64), ctr,
                          np.zeros(n, np.int32), np.zeros(4 * n, np.int32))
    if newp < 0:
        assert not legal
        return
    after = frozenset((int(c) % w, int(c) // w) for c in np.flatnonzero(occ))
    pcell = (newp % w, newp // w)
    assert (after, pcell) in legal
    (moved,) = after - before
    letter = next(k for k, s in naive.DIRS.items() if naive.add(moved, s) == pcell)
    opposite = {"u": "d", "d": "u", "l": "r", "r": "l"}[letter]
    boxes, back, pushed = naive.push(wset, after, pcell, opposite.upper())
    assert pushed and boxes == before and back == moved


def test_target_range_is_met_and_reported():
    for seed in range(50):
        r = generate(seed, width=7, height=7, boxes=2, pushes=(5, 7))
        assert r.in_target and 5 <= r.pushes <= 7
        assert not r.attempts.fallback


def test_closest_candidate_when_the_target_is_out_of_reach():
    # a 7x7 board with 2 boxes never reaches 10-24 pushes (issue): closest candidate
    r = generate(3, width=7, height=7, boxes=2, pushes=(20, 24), rebuilds=3)
    assert not r.in_target and r.attempts.fallback
    assert 0 < r.pushes < 20
    boxes, _, pushes = naive.replay(r.level, r.solution)
    assert boxes == r.level.goals and pushes == r.pushes
    assert Solver().solve(r.level).pushes == r.pushes


def test_fewer_inner_walls_before_giving_up():
    # a 1x4 corridor with 2 inner walls keeps 2 cells: nothing can be pulled there
    for seed in range(5):
        r = generate(seed, width=3, height=6, boxes=1, pushes=(1, 3), inner_walls=2,
                     rebuilds=3)
        assert r.attempts.inner_walls < 2
        assert len(r.level.walls) == 14 + r.attempts.inner_walls
    assert naive.replay(r.level, r.solution)[0] == r.level.goals


def test_generation_error_when_nothing_can_be_pulled():
    # one floor row of two cells: the box can never be pulled off its goal
    with pytest.raises(GenerationError, match="no solvable"):
        generate(0, width=4, height=3, boxes=1, pushes=(1, 2), rebuilds=3)


def test_a_still_solved_state_is_never_a_candidate():
    for seed in range(200):
        r = generate(seed, width=5, height=5, boxes=2, pushes=(1, 2), inner_walls=2)
        assert not r.level.is_solved and r.pushes >= 1


def test_solver_cap_is_unknown_not_unsolvable():
    # a node cap of 1 stops every measurement: boards are left, nothing is emitted
    with pytest.raises(GenerationError):
        generate(0, width=7, height=7, boxes=2, pushes=(4, 8), node_cap=1, rebuilds=3)
    r = generate(0, width=7, height=7, boxes=2, pushes=(4, 8), node_cap=2000, rebuilds=3)
    assert r.attempts.solver_capped <= r.attempts.solver_calls


def test_generator_is_picklable_and_describes_itself():
    gen = Generator(width=8, height=8, boxes=3, pushes=(8, 12), inner_walls=2)
    first = gen.generate(9)
    clone = pickle.loads(pickle.dumps(gen))
    assert clone.to_dict() == gen.to_dict()
    assert clone.generate(9).level == first.level
    assert Generator(**gen.to_dict()).to_dict() == gen.to_dict()
    rec = json.loads(json.dumps(first.to_dict()))
    for key in ("level", "seed", "config", "pushes", "solution", "in_target", "elapsed_ms",
                "attempts"):
        assert key in rec
    assert rec["config"] == gen.to_dict() and rec["seed"] == 9
    assert set(rec["attempts"]) >= {"boards", "pulls", "solver_calls", "solver_nodes"}
    assert first.elapsed_ms > 0


def test_summarize_gives_domain_figures():
    gen = Generator()
    recs = [gen.generate(s).to_dict() for s in range(20)]
    summary = Generator.summarize(recs)
    assert summary["in_target_share"] == sum(r["in_target"] for r in recs) / 20
    assert summary["mean_pushes"] == pytest.approx(np.mean([r["pushes"] for r in recs]))
    assert summary["mean_moves"] == pytest.approx(np.mean([len(r["solution"]) for r in recs]))
    assert all(isinstance(v, float) for v in summary.values())
    # means merge exactly: two halves weighted by their counts give the whole
    halves = [Generator.summarize(recs[:7]), Generator.summarize(recs[7:])]
    merged = {k: (7 * halves[0][k] + 13 * halves[1][k]) / 20 for k in summary}
    assert merged == pytest.approx(summary)


def test_campaign_rises_from_6x6_one_box_to_8x8_three_boxes_four_walls():
    first, last = campaign(0), campaign(10_000)
    assert (first["width"], first["height"], first["boxes"], first["inner_walls"]) == \
        (6, 6, 1, 0)
    assert (last["width"], last["height"], last["boxes"], last["inner_walls"]) == (8, 8, 3, 4)
    sizes = [(c["width"] * c["height"], c["boxes"], c["inner_walls"])
             for c in (campaign(i * LEVELS_PER_STAGE) for i in range(len(CAMPAIGN_STAGES)))]
    assert sizes == sorted(sizes)
    for i in range(0, len(CAMPAIGN_STAGES) * LEVELS_PER_STAGE, LEVELS_PER_STAGE):
        results = [generate(s, **campaign(i)) for s in range(10)]
        assert sum(r.in_target for r in results) >= 9  # targets come from measured ranges
    with pytest.raises(ConfigError):
        campaign(-1)


@pytest.mark.parametrize("kwargs, match", [
    ({"width": 2}, "width"), ({"height": 65}, "height"), ({"boxes": 0}, "boxes"),
    ({"boxes": 25}, "boxes"), ({"pushes": (5, 4)}, "lo must not exceed hi"), ({"pushes": "x"}, "LO-HI"),
    ({"pushes": 3}, "pair"), ({"inner_walls": -1}, "inner_walls"), ({"rebuilds": 0}, "rebuilds"),
    ({"every": 0}, "every"), ({"node_cap": 0}, "node_cap"), ({"width": 7.0}, "width"),
])
def test_bad_configuration_raises_config_error(kwargs, match):
    with pytest.raises(ConfigError, match=match):
        Generator(**kwargs)


def test_bad_seed_raises_config_error():
    with pytest.raises(ConfigError, match="seed"):
        Generator().generate(-1)


def test_closest_candidate_above_the_range_replays():
    # measuring only from pull 20 on, every candidate overshoots a target of 1 push
    for seed in range(10):
        r = generate(seed, width=10, height=10, boxes=4, pushes=(1, 1), skip=20, rebuilds=1)
        assert not r.in_target and r.pushes > 1
        boxes, _, pushes = naive.replay(r.level, r.solution)
        assert boxes == r.level.goals and pushes == r.pushes


def test_spread_aims_over_the_whole_target_range():
    plain = Generator(width=7, height=7, boxes=2, pushes=(4, 8), spread=False)
    spread = Generator(width=7, height=7, boxes=2, pushes=(4, 8))
    # one pull changes the optimum by at most one push: measuring every pull stops at lo
    assert {plain.generate(s).pushes for s in range(40)} == {4}
    results = [spread.generate(s) for s in range(40)]
    assert all(r.in_target and 4 <= r.pushes <= 8 for r in results)
    assert len({r.pushes for r in results}) >= 3
    for r in results[:10]:
        assert naive.replay(r.level, r.solution)[0] == r.level.goals
    assert spread.to_dict()["spread"] is True
    with pytest.raises(ConfigError, match="spread"):
        Generator(spread="yes")


def test_pulling_stops_when_the_optimum_passes_the_upper_bound():
    gen = Generator(width=8, height=8, boxes=3, pushes=(3, 3), skip=6, max_pulls=200,
                    rebuilds=1)
    over = 0
    for seed in range(40):
        r = gen.generate(seed)
        if r.pushes > 3:  # the first measurement (after 6 pulls) was already past 3
            over += 1
            assert not r.in_target
            assert r.attempts.solver_calls == 1 and r.attempts.pulls <= 6
    assert over >= 3


def test_the_last_state_is_measured_too():
    # measuring would start at pull 100, but a board ends after 5 pulls: only the last
    # state is measured, once per board
    gen = Generator(width=7, height=7, boxes=2, pushes=(20, 24), skip=100, max_pulls=5,
                    rebuilds=1)
    for seed in range(20):
        r = gen.generate(seed)
        assert r.attempts.solver_calls == 1 and r.attempts.pulls <= 5
        assert 1 <= r.pushes <= 5 and not r.in_target


# --------------------------------------------------------------------------- rules="design"

def test_design_rules_preset_is_the_design_generator():
    """rules="design": 10 rebuilds, solver cap 20,000, a measurement every 2 pulls
    after the first lo, the first length in range taken; explicit arguments win."""
    design = Generator(rules="design")
    assert (design.rebuilds, design.node_cap, design.every, design.spread, design.skip) \
        == (10, 20_000, 2, False, 4)
    same = Generator(rebuilds=10, node_cap=20_000, every=2, spread=False)
    for seed in range(30):
        a, b = design.generate(seed), same.generate(seed)
        assert (a.level, a.pushes, a.solution, a.in_target) == \
            (b.level, b.pushes, b.solution, b.in_target)
    assert design.to_dict()["rules"] == "design"
    assert Generator(**design.to_dict()).to_dict() == design.to_dict()
    assert "rules" not in Generator().to_dict()
    assert Generator(rules="design", every=1, rebuilds=3).to_dict()["every"] == 1
    with pytest.raises(ConfigError, match="rules"):
        Generator(rules="paper")


def test_design_rules_stop_at_the_first_length_in_range():
    """Measured every 2 pulls from lo on, the optimum (at most one push more per pull)
    enters the range at lo or lo + 1, and the design stops there."""
    gen = Generator(width=7, height=7, boxes=2, pushes=(4, 8), rules="design")
    for seed in range(100):
        r = gen.generate(seed)
        assert r.pushes in (4, 5) if r.in_target else not 4 <= r.pushes <= 8


def test_design_rules_measure_every_second_pull_after_lo():
    lo = 5
    for rules, every in (("design", 2), (None, 1)):
        gen = Generator(width=8, height=8, boxes=3, pushes=(lo, 12), rules=rules)
        for seed in range(40):
            a = gen.generate(seed).attempts
            # per board: the scheduled measurements from pull lo on, and the last state
            assert a.solver_calls <= (a.pulls - a.boards * lo) // every + 2 * a.boards


def test_cli_generate_takes_the_design_rules(tmp_path):
    from levelforge.sokoban.cli import main
    out = tmp_path / "design.xsb"
    assert main(["generate", "--count", "5", "--seed", "3", "--rules", "design",
                 "--no-progress", "-o", str(out)]) == 0
    levels = load_xsb(out)
    assert len(levels) == 5
    for lv, seed in zip(levels, range(5)):
        r = Generator(rules="design").generate(item_seed(3, seed))
        assert lv.walls == r.level.walls and lv.boxes == r.level.boxes
