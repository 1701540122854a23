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
    out = subprocess.run([sys.executable, str(REPORT), "--ways", "rlimit", "--ceiling",
                          "150M", "--rows", "32x32/30", "--time-limit", "60"],
                         capture_output=True, text=True, check=True).stdout
    row = out.strip().splitlines()[-1].split("|")
    way, board, mode, ended, status, by, nodes, seconds, rss = (c.strip() for c in row[1:-1])
    assert (way, board, mode, ended, status, by) == ("rlimit", "32x32/30", "optimal",
                                                     "exit 0", "limit", "memory")
    assert int(nodes) > 16_384  # it grew before the limit stopped it
    assert float(seconds) < 60  # the memory, not the clock
