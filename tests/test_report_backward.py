"""The backward search's report script runs and its counts agree with the searches."""
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "asv_bench"))

import report_backward  # noqa: E402
from levelforge.sokoban import collections  # noqa: E402
from levelforge.sokoban.backward import backward_solve  # noqa: E402


def test_the_report_counts_what_each_order_solves(capsys):
    report_backward.main(["--microban", "--levels", "1-3,144", "--nodes", "5000"])
    out = capsys.readouterr().out.splitlines()
    micro = collections.load("microban")
    for name, cells in report_backward.ORDERS:
        want = [k for k in (1, 2, 3, 144)
                if backward_solve(micro[k - 1], 5000, cells=cells)[0] == "solved"]
        row = next(line for line in out if line.startswith(f"| {name} |"))
        assert row == f"| {name} | {len(want)}/4 | {' '.join(map(str, want)) or '-'} |"


def test_orders_runs_one_order_alone_and_refuses_unknown_names(capsys):
    report_backward.main(["--microban", "--levels", "1", "--nodes", "5000", "--orders",
                          "cells"])
    rows = [line for line in capsys.readouterr().out.splitlines() if line.startswith("| ")]
    assert [row.split(" | ")[0] for row in rows[1:]] == ["| cells"]
    with pytest.raises(SystemExit) as stop:
        report_backward.main(["--microban", "--orders", "cells,greedier"])
    assert stop.value.code == 2
    assert "--orders cells,greedier" in capsys.readouterr().err
