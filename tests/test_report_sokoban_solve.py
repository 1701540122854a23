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


def test_pulls_from_sets_where_the_backward_search_joins(tmp_path, capsys, monkeypatch):
    """``--pulls-from 0``: the push-optimal solves without the backward search, as a
    solve with ``solver.PULLS_FROM`` 0 (Microban 144 capped at 100,000 states stays
    unsolved; with the backward search, capped at 600,000, it is solved: its own
    tests)."""
    from levelforge.sokoban import solver as solver_mod
    monkeypatch.setattr(solver_mod, "PULLS_FROM", solver_mod.PULLS_FROM)  # restored after
    path = tmp_path / "one.xsb"
    path.write_text(collections.load("microban")[143].to_xsb())
    report_sokoban_solve.main(["--xsb", str(path), "--mode", "optimal", "--nodes", "100000",
                               "--pulls-from", "0"])
    assert solver_mod.PULLS_FROM == 0
    assert "| one 1, push-optimal | 0/1 | 0/1 |" in capsys.readouterr().out
    with pytest.raises(SystemExit) as stop:
        report_sokoban_solve.main(["--xsb", str(path), "--pulls-from", "-1"])
    assert stop.value.code == 2 and "0 or more" in capsys.readouterr().err


def test_waypoint_turn_sets_the_waypoint_searchs_share(tmp_path, capsys, monkeypatch):
    """``--waypoint-turn 0``: the any mode without its waypoint search (its turns hold
    the four others only); a negative share is refused."""
    monkeypatch.setattr(packing, "WAYPOINT_TURN", packing.WAYPOINT_TURN)  # restored after
    monkeypatch.setattr(packing, "STAGE_NODES", 0)  # no packing stage: the turns run
    seen = []
    real = packing.take_turns
    monkeypatch.setattr(packing, "take_turns",
                        lambda runs, limit: seen.append(len(runs)) or real(runs, limit))
    path = tmp_path / "one.xsb"
    path.write_text(collections.load("microban")[0].to_xsb())
    report_sokoban_solve.main(["--xsb", str(path), "--mode", "any", "--waypoint-turn", "0"])
    assert packing.WAYPOINT_TURN == 0 and seen == [4]
    assert "| one 1, any | 1/1 | 1/1 |" in capsys.readouterr().out
    with pytest.raises(SystemExit) as stop:
        report_sokoban_solve.main(["--xsb", str(path), "--waypoint-turn", "-1"])
    assert stop.value.code == 2 and "0 or more" in capsys.readouterr().err
