"""The stall report of the feature-space search: the furthest state of a solved level is
the solved state; on a capped one, the printed state and verdict agree with the
push-optimal solver run on that state by hand; its packed prefix agrees with the
kernel's."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "asv_bench"))

import numpy as np  # noqa: E402

import report_fess_furthest as report  # noqa: E402
from levelforge.engine.sokoban_packing import _packed  # noqa: E402
from levelforge.sokoban import Level, Solver, collections  # noqa: E402

MICROBAN = collections.load("microban")


def test_a_solved_level_is_furthest_at_its_solved_state():
    result, best, total, state = report.furthest(MICROBAN[0], 20_000)
    assert result.status == "solved"
    assert best == total > 0
    assert state.boxes == MICROBAN[0].goals


def test_a_capped_level_prints_a_state_whose_verdict_the_solver_confirms(tmp_path, capsys):
    level = MICROBAN[152]  # 153: not solved by the feature-space search in 2,000 states
    path = tmp_path / "one.xsb"
    path.write_text(level.to_xsb() + "\n")
    report.main(["--xsb", str(path), "--nodes", "2000", "--check", "5000"])
    out = capsys.readouterr().out
    head, board = out.split("\n", 1)
    result, best, total, state = report.furthest(level, 2000)
    assert result.status == "limit" and 0 <= best < total
    assert head.startswith(f"level 1: limit, {result.nodes:,} stored; furthest state packs "
                           f"{best}/{total} entries")
    shown = Level.from_xsb(board.strip("\n ").rstrip())
    assert (shown.boxes, shown.player, shown.walls) == (state.boxes, state.player, level.walls)
    check = Solver(max_nodes=5000).solve(shown)
    word = {"unsolvable": "dead", "solved": "solvable"}.get(check.status, "unknown")
    assert head.split("; ")[-1].startswith(word)


def test_the_packed_prefix_agrees_with_the_kernels():
    # cells 0-9; entry 0 parks a box in pocket 7 for goal 3, then goals 3, 5, 2
    order = [-((7 << 16 | 3) + 1), 3, 5, 2]
    rng = np.random.default_rng(5)
    seen = set()
    for _ in range(200):
        boxes = {int(c) for c in rng.choice(10, size=int(rng.integers(0, 6)), replace=False)}
        occ = np.zeros(10, np.uint8)
        occ[list(boxes)] = 1
        got = report.packed(boxes, order)
        assert got == _packed(occ, np.array(order, np.int32))
        seen.add(got)
    assert seen == {0, 1, 2, 3, 4}


def test_boxes_out_of_the_players_reach_stay_in_the_furthest_state():
    level = MICROBAN[154]  # 155: ten of its 11 boxes parked on goals out of reach
    sealed = report.sealed_boxes(level)
    assert len(sealed) == 10
    _, _, _, state = report.furthest(level, 2000)
    assert sealed <= state.boxes and len(state.boxes) == len(level.boxes)
    assert state.player not in state.boxes and not state.boxes & level.walls
