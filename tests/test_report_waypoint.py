"""The waypoint report: its lines agree with the waypoint search run directly, and its
room table's choice comes back (every waypoint, or none when stopped)."""
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "asv_bench"))

import report_waypoint  # noqa: E402
from levelforge.cancel import Limit  # noqa: E402
from levelforge.sokoban import Solver, collections, replay  # noqa: E402
from levelforge.sokoban import waypoint  # noqa: E402
from levelforge.sokoban.turns import drain  # noqa: E402


def test_levels_are_reported_as_the_search_finds_them(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(waypoint, "PULLS", 200)  # a waypoint is needed (its own tests)
    level = collections.load("microban")[150]
    path = tmp_path / "one.xsb"
    path.write_text(level.to_xsb())
    report_waypoint.main(["--xsb", str(path)])
    solver = Solver(report_waypoint.CAP)
    board, boxes, player, _ = solver._prepare(level, report_waypoint.CAP, Limit(None), False)
    status, solution, nodes, _ = drain(waypoint.waypoint_steps(
        Solver(report_waypoint.CAP), level, board, boxes, player, report_waypoint.CAP,
        Limit(None)))
    assert status == "solved" and replay(level, solution).is_solved
    line = capsys.readouterr().out.splitlines()[2]
    assert line.startswith(f"| 1 | solved | {nodes:,} | ")


def test_a_constant_set_for_the_run(tmp_path, capsys, monkeypatch):
    """``--set``: the run says so and the search keeps to it. With waypoints too small to
    reach (``NODES=50``), Microban 153 is searched towards more than one waypoint, and
    with ``TRIES=1`` too, towards one (the constants are restored after the test)."""
    for name in report_waypoint.SETTABLE:
        monkeypatch.setattr(waypoint, name, getattr(waypoint, name))
    path = tmp_path / "one.xsb"
    path.write_text(collections.load("microban")[152].to_xsb())
    small = ["--xsb", str(path), "--set", "PULLS=500", "--set", "NODES=50"]
    tried = []
    for extra in ([], ["--set", "TRIES=1"]):
        report_waypoint.main(small + extra)
        out = capsys.readouterr().out.splitlines()
        assert "waypoint.PULLS = 500" in out[0] and out[0].endswith("waypoint.NODES = 50")
        status, tried_here = out[3].split(" | ")[1], int(out[3].split(" | ")[3])
        assert status == "limit"
        tried.append(tried_here)
    assert tried[0] > 1 and tried[1] == 1 and waypoint.TRIES == 1
    for bad in ("TRIES", "TRIES=x", "SPEED=3"):
        with pytest.raises(SystemExit):
            report_waypoint.main(["--xsb", str(path), "--set", bad])


def test_rooms_and_bad_input(capsys):
    report_waypoint.main(["--rooms", "12x12/6", "--pulls", "2000"])
    line = capsys.readouterr().out.splitlines()[2]
    assert line.startswith("| 12x12 | 6 | ")
    for bad in (["--rooms", "12x12"], []):
        with pytest.raises(SystemExit) as stop:
            report_waypoint.main(bad)
        assert stop.value.code == 2
