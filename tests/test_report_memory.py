"""The memory report: a long solve in a child whose address space is limited (``ulimit
-v``, unprivileged) ends with ``limit`` by memory and exits normally, where an
allocation error would have killed it; its peak RSS stays near the ceiling."""
import subprocess
import sys
from pathlib import Path

import pytest

REPORT = Path(__file__).resolve().parents[1] / "asv_bench" / "report_memory.py"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_a_solve_under_an_address_space_limit_stops_by_memory():
    # 32x32/40: past 2.4M states at 20 s, unsolved (32x32/30, used before, is solved in
    # 0.5 s since the backward search takes turns in push-optimal solves)
    out = subprocess.run([sys.executable, str(REPORT), "--ways", "rlimit", "--ceiling",
                          "150M", "--rows", "32x32/40", "--time-limit", "60"],
                         capture_output=True, text=True, check=True).stdout
    row = out.strip().splitlines()[-1].split("|")
    way, board, mode, ended, status, by, nodes, seconds, rss = (c.strip() for c in row[1:-1])
    assert (way, board, mode, ended, status, by) == ("rlimit", "32x32/40", "optimal",
                                                     "exit 0", "limit", "memory")
    assert int(nodes) > 16_384  # it grew before the limit stopped it
    assert float(seconds) < 60  # the memory, not the clock


def test_a_collection_level_without_a_ceiling_or_clock_is_the_solve_done_here(tmp_path):
    """``--ways none`` with ``--time-limit 0``: the child's capped solve of a collection
    level is the same search as one in this process, whose peak RSS it reports."""
    from levelforge.sokoban import Solver, collections
    level = collections.load("microban")[92]  # 93: far more than 40,000 states
    path = tmp_path / "one.xsb"
    path.write_text(level.to_xsb())
    out = subprocess.run([sys.executable, str(REPORT), "--ways", "none", "--xsb", str(path),
                          "--levels", "1", "--time-limit", "0", "--max-nodes", "40000"],
                         capture_output=True, text=True, check=True).stdout
    row = out.strip().splitlines()[-1].split("|")
    way, board, mode, ended, status, by, nodes, seconds, rss = (c.strip() for c in row[1:-1])
    want = Solver(max_nodes=40_000).solve(level)
    assert (way, board, mode, ended, status, by) == ("none", "1", "optimal", "exit 0",
                                                     want.status, want.limit_by)
    assert int(nodes) == want.nodes and want.limit_by == "states"
    assert float(rss) > 0
