"""The report of the feature-space search started along a solution: the states it starts
from are the solution's replayed prefixes, forcing the order the search would compute
anyway changes nothing, a forced order is the one used, and each line agrees with the
search run by hand."""
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "asv_bench"))

import report_fess_along as report  # noqa: E402
from levelforge.sokoban import Solver, collections, replay  # noqa: E402
from report_fess import fess_only  # noqa: E402

MICROBAN = collections.load("microban")
LEVEL = MICROBAN[9]  # 10: several boxes, solved by the feature-space search alone


@pytest.fixture(scope="module")
def solution():
    found = Solver().solve(LEVEL, optimal=False)
    assert found.solved
    return found.solution


def test_the_states_are_the_solutions_prefixes(solution):
    pushes = sum(letter.isupper() for letter in solution)
    states = report.states_along(LEVEL, solution, [0, 1, pushes])
    assert states[0] == LEVEL
    assert states[pushes].is_solved
    first = solution.index(next(c for c in solution if c.isupper())) + 1
    assert states[1] == replay(LEVEL, solution[:first])
    with pytest.raises(ValueError, match=f"has {pushes} pushes"):
        report.states_along(LEVEL, solution, [pushes + 1])


def test_forcing_the_searchs_own_order_changes_nothing(solution):
    own, order, start, most = report.run_from(LEVEL, 50_000)
    forced, order2, _, _ = report.run_from(LEVEL, 50_000, order)
    plain = fess_only(50_000, backward=False).solve(LEVEL, optimal=False)
    assert order2 == order and own.solved and start == 0 and most == len(order)
    assert (own.solution, own.nodes) == (forced.solution, forced.nodes) == \
        (plain.solution, plain.nodes)


def test_a_forced_order_is_the_one_used():
    _, order, _, _ = report.run_from(LEVEL, 1000)
    turned = order[::-1]
    result, used, _, _ = report.run_from(LEVEL, 1000, turned)
    assert used == turned
    if result.solved:
        assert replay(LEVEL, result.solution).is_solved


def test_the_lines_agree_with_the_search_by_hand(tmp_path, capsys, solution):
    path = tmp_path / "one.xsb"
    path.write_text(LEVEL.to_xsb() + "\n")
    sol = tmp_path / "solution.txt"
    sol.write_text(solution + "\n")
    pushes = sum(letter.isupper() for letter in solution)
    report.main(["--xsb", str(path), "--level", "1", "--solution", str(sol),
                 "--pushes", f"0,{pushes}", "--nodes", "2000"])
    lines = capsys.readouterr().out.strip().splitlines()
    result, order, start, most = report.run_from(LEVEL, 2000)
    assert lines[0] == (f"push 0: {result.status}, {result.nodes:,} stored; packs {start}/"
                        f"{len(order)} entries at the start, {most} at most")
    assert lines[1] == (f"push {pushes}: solved, 1 stored; packs {len(order)}/{len(order)} "
                        f"entries at the start, {len(order)} at most")
