"""The kernel profile report (``asv_bench/report_profile.py``): the perf map it writes
names each compiled function at the address its execution engine gives, under the
symbol Numba compiled it as; symbols demangle to ``module.function``; perf's lines
add up per function. (``perf`` itself is not needed here.)"""
import gc
import sys
import weakref
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "asv_bench"))

import numpy as np  # noqa: E402

import report_profile as report  # noqa: E402
from levelforge.engine.grid import flood_fill  # noqa: E402

ADD_ROW = ("_ZN10levelforge6engine13sokoban_match8_add_rowB3v59B36c8tJTIeFIjxB2IKSgI4Crv"
           "QCltYEAA_3d_3dEx5ArrayIxLi1E1C7mutable7alignedE")


_Gone = type("_Gone", (), {})  # a class whose instances can be weakly referenced


def test_numba_symbols_demangle_to_module_and_function():
    assert report.demangle(ADD_ROW) == "levelforge.engine.sokoban_match._add_row"
    assert report.demangle("gc_collect_main") == "gc_collect_main"


def test_the_perf_map_names_a_compiled_kernel_at_its_address(tmp_path):
    # a 3x3 room with one free cell: compiles (or loads) flood_fill for these types
    blocked = np.ones(9, np.uint8)
    blocked[4] = 0
    stamp = np.zeros(9, np.int64)
    queue = np.zeros(9, np.int64)
    assert flood_fill(blocked, 3, np.int64(4), stamp, np.int64(1), queue) == 1
    symbols = {cres.fndesc.mangled_name for cres in flood_fill.overloads.values()}
    gone = _Gone()
    proxy = weakref.proxy(gone)  # a dead weak proxy among the objects looked through
    del gone
    assert any(o is proxy for o in gc.get_objects())
    path = tmp_path / "perf.map"
    count = report.write_perf_map(str(path))
    rows = [line.split() for line in path.read_text().splitlines()]
    assert len(rows) == count > 0
    starts = [int(a, 16) for a, _, _ in rows]
    assert starts == sorted(starts)
    ends = [a + int(size, 16) for a, (_, size, _) in zip(starts, rows)]
    assert all(end <= nxt for end, nxt in zip(ends, starts[1:]))  # no overlaps
    named = [name for _, _, name in rows if name in symbols]
    assert named and report.demangle(named[0]) == "levelforge.engine.grid.flood_fill"


def test_perf_lines_add_up_per_function_largest_first():
    text = "\n".join([
        "# Overhead  Symbol",
        f"    12.50%  [.] {ADD_ROW}",
        "     3.00%  [.] gc_collect_main",
        f"     0.50%  [.] {ADD_ROW}x",  # a second copy of the same function
        "     1.00%  [k] clear_page_erms",
        "",
    ])
    assert report.shares(text) == [(13.0, "levelforge.engine.sokoban_match._add_row"),
                                   (3.0, "gc_collect_main"), (1.0, "clear_page_erms")]
