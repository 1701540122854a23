"""The dead-state report (``asv_bench/report_dead_states.py``): its sample is the search's
own stored states, each kind agrees with the push-optimal solver run on the state by
hand, and the frozen-goals matching never cuts off a solvable state, nor misses a box
walled off by a goal box frozen in a corner."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "asv_bench"))

import report_dead_states as report  # noqa: E402
import report_fess_furthest  # noqa: E402
from levelforge.sokoban import Level, Solver, collections  # noqa: E402
from levelforge.sokoban.replay import replay  # noqa: E402

MICROBAN = collections.load("microban")


def _cells(state):
    return [y * state.width + x for x, y in state.boxes]


def test_sampled_states_are_stored_states_of_the_level():
    level = MICROBAN[152]  # 153: the feature-space search stops at its cap
    result, stored, states = report.sample_states(level, 3000, 25, seed=1)
    assert result.status == "limit" and stored > 25 and len(states) == 25
    assert len({(s.boxes, s.player) for s in states}) == 25  # drawn without repeats
    for s in states:
        assert (s.walls, s.goals, len(s.boxes)) == (level.walls, level.goals, len(level.boxes))
        assert s.boxes.isdisjoint(level.walls) and s.player not in s.boxes
    again = report.sample_states(level, 3000, 25, seed=1)[2]
    assert [(s.boxes, s.player) for s in again] == [(s.boxes, s.player) for s in states]


def test_kinds_agree_with_the_solver_and_cuts_are_never_solvable():
    level = MICROBAN[150]  # 151: every kind, and states a frozen goal box cuts off
    _, _, states = report.sample_states(level, 3000, 40, seed=2)
    frozen = report.FrozenGoals(level)
    seen = set()
    cuts = 0
    for s in states:
        kind = report.kind(s, 2000)
        r = Solver(max_nodes=2000).solve(s)
        expect = {"unsolvable": "dead at once" if r.nodes <= 2 else "dead by search",
                  "solved": "solvable"}.get(r.status, "unknown")
        assert kind == expect
        cut = frozen.cut(_cells(s))
        if r.solved:
            assert replay(s, r.solution).is_solved
            assert not cut  # a proof of deadlock never cuts a live state
        cuts += cut and r.status == "unsolvable"
        seen.add(kind)
    assert seen == set(report.KINDS) and cuts > 0


def test_boxes_out_of_the_players_reach_are_kept_in_the_states():
    level = MICROBAN[154]  # 155: ten of its 11 boxes parked on goals out of reach
    sealed = report_fess_furthest.sealed_boxes(level)
    assert len(sealed) == 10 and sealed <= level.goals and (18, 14) not in sealed
    _, _, states = report.sample_states(level, 2000, 20, seed=0)
    assert states and all(sealed <= s.boxes and len(s.boxes) == len(level.boxes)
                          for s in states)


def test_a_goal_box_frozen_in_a_corner_cuts_off_the_box_below():
    # the box on the corner goal never moves again, and the other goal lies behind it
    state = Level.from_xsb("\n".join([
        "########",
        "#*   . #",
        "# ######",
        "#      #",
        "#  $@  #",
        "#      #",
        "########"]))
    frozen = report.FrozenGoals(state)
    assert frozen.frozen(_cells(state)) == {1 * 8 + 1}
    assert frozen.cut(_cells(state))
    assert Solver(max_nodes=20_000).solve(state).status == "unsolvable"
    # the goal box moved along to the other goal: nothing frozen, nothing cut, solvable
    loose = Level.from_xsb("\n".join([
        "########",
        "#.   * #",
        "# ######",
        "#      #",
        "#  $@  #",
        "#      #",
        "########"]))
    assert report.FrozenGoals(loose).frozen(_cells(loose)) == set()
    assert not report.FrozenGoals(loose).cut(_cells(loose))
    assert Solver(max_nodes=20_000).solve(loose).solved


def test_the_table_has_one_row_per_level_and_refuses_a_level_past_the_file(tmp_path,
                                                                           capsys):
    path = tmp_path / "two.xsb"
    path.write_text(MICROBAN[0].to_xsb() + "\n\n" + MICROBAN[152].to_xsb() + "\n")
    report.main(["--xsb", str(path), "--nodes", "2000", "--sample", "10", "--check", "500"])
    rows = [r for r in capsys.readouterr().out.splitlines() if r.startswith("| ")][1:]
    assert [r.split(" | ")[0] for r in rows] == ["| 1", "| 2"]
    assert rows[0].split(" | ")[1] == "solved"
    counts = [int(x) for x in rows[1].split(" | ")[3:8]]
    assert counts[0] == sum(counts[1:]) == 10  # sampled = the four kinds
    try:
        report.main(["--xsb", str(path), "--levels", "3"])
    except SystemExit as exc:
        assert exc.code == 2
    else:
        raise AssertionError("level 3 of 2 was not refused")
    assert "level 3 is not in" in capsys.readouterr().err
