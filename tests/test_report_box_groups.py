"""The box-group report's plain search: with every box in the group it is the level's
push-optimal count (the solver's), and a group is never put away in more pushes than
the whole level needs."""
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "asv_bench"))

import report_box_groups  # noqa: E402
from levelforge.sokoban import collections, solve  # noqa: E402

MICROBAN = collections.load("microban")


@pytest.mark.parametrize("k", [1, 2, 3, 5, 8, 12])
def test_all_boxes_as_one_group_is_the_optimum(k):
    level = MICROBAN[k - 1]
    pushes, _ = report_box_groups.group_pushes(level, set(level.boxes), 200_000)
    assert pushes == solve(level).pushes


@pytest.mark.parametrize("k", [2, 5, 8])
def test_a_smaller_group_needs_no_more_pushes(k):
    level = MICROBAN[k - 1]
    optimum = solve(level).pushes
    for box in sorted(level.boxes):
        pushes, _ = report_box_groups.group_pushes(level, {box}, 100_000)
        assert 0 <= pushes <= optimum


def test_the_report_prints_each_group_and_refuses_a_cell_without_a_box(capsys):
    level = MICROBAN[1]
    box = sorted(level.boxes)[0]
    report_box_groups.main(["--microban", "2", "--group", f"{box[0]},{box[1]}"])
    out = capsys.readouterr().out
    want, _ = report_box_groups.group_pushes(level, {box}, 3_000_000)
    assert out.startswith(f"1 boxes: {want} pushes, ")
    with pytest.raises(SystemExit):
        report_box_groups.main(["--microban", "2", "--group", "0,0"])
    assert "no box on [(0, 0)]" in capsys.readouterr().err
