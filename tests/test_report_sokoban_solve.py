"""The solving report's generated levels: its stored-state total agrees with solving the
same levels directly."""
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "asv_bench"))

import report_sokoban_solve  # noqa: E402
from levelforge.sokoban import collections, generate, packing, replay, solve  # noqa: E402


def test_generated_levels_are_counted_as_solved_directly(capsys):
    report_sokoban_solve.main(["--generated", "5"])
    out = capsys.readouterr().out.splitlines()
    total = 0
    for seed in range(5):
        level = generate(seed, width=10, height=10, boxes=4, pushes=(15, 30)).level
        r = solve(level)
        assert r.solved and replay(level, r.solution).is_solved
        total += r.nodes
    assert out[2].startswith("| generated 10x10, 4 boxes, 5, push-optimal | 5/5 | 5/5 |")
    assert out[-3] == f"stored states in all: {total:,}"
    assert out[-1].startswith("peak RSS: ") and out[-1].endswith(" MB")


def test_turns_sets_the_any_modes_shares_for_the_run(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(packing, "TURNS", packing.TURNS)  # restored after the test
    path = tmp_path / "one.xsb"
    path.write_text(collections.load("microban")[0].to_xsb())
    report_sokoban_solve.main(["--xsb", str(path), "--mode", "any", "--turns", "1,2,3,4"])
    assert packing.TURNS == (1, 2, 3, 4)
    assert "| one 1, any | 1/1 | 1/1 |" in capsys.readouterr().out
    for bad in ("4,2,2", "4,0,2,1", "a,b,c,d"):
        with pytest.raises(SystemExit) as stop:
            report_sokoban_solve.main(["--xsb", str(path), "--turns", bad])
        assert stop.value.code == 2
        assert "four positive whole numbers" in capsys.readouterr().err
