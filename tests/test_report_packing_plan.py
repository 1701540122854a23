"""The packing plan report (``asv_bench/report_packing_plan.py``): the goals left without
a start box of their own after each prefix of an order, against a plain-Python matching
over plain-Python lone-box reaches, and a corridor whose answer is known."""
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "asv_bench"))

import report_packing_plan as report  # noqa: E402
from levelforge.sokoban import Level  # noqa: E402

from test_sokoban_fess_residual import naive_deficit, naive_reaches  # noqa: E402
from test_sokoban_solver import random_level  # noqa: E402


def test_a_corridor_filled_from_its_mouth_strands_the_far_goal():
    level = Level.from_xsb("#######\n#@$$..#\n#######")
    near, far = 1 * 7 + 4, 1 * 7 + 5
    assert report.deficits(level, [near, far]) == ([1, 0], [2])
    assert report.deficits(level, [far, near]) == ([0, 0], [])


@pytest.mark.parametrize("seed", range(40))
def test_deficits_match_a_plain_python_matching(seed):
    rng = np.random.default_rng(seed)
    level = random_level(rng, max_side=7, max_boxes=4, wall_p=0.15)
    if level is None or len(level.goals) < 2:
        pytest.skip("no level with two goals from this seed")
    w = level.width
    goals = sorted(level.goals)
    order = [goals[i] for i in rng.permutation(len(goals))]
    got, unreached = report.deficits(level, [y * w + x for x, y in order])
    want = [naive_deficit(level, level.boxes, frozenset(order[:k]))
            for k in range(1, len(order) + 1)]
    assert got == want
    want_unreached = [k for k in range(1, len(order) + 1)
                      if not any(order[k - 1] in naive_reaches(b, level.walls | set(order[:k - 1]),
                                                               {order[k - 1]})
                                 for b in level.boxes if b not in order[:k - 1])]
    assert unreached == want_unreached


def test_a_level_past_the_file_is_refused_by_name(tmp_path, capsys):
    path = tmp_path / "one.xsb"
    path.write_text("#######\n#@$$..#\n#######\n")
    with pytest.raises(SystemExit):
        report.main(["--xsb", str(path), "--levels", "2"])
    assert "holds levels 1 to 1" in capsys.readouterr().err
