"""The Sokoban editor's API: the check against the plain-Python references (breadth-first
optimal pushes, dead squares), every problem of a drawn level listed, run-length XSB round
trips, and improve's versions replayed and harder."""
import numpy as np
import pytest

from levelforge import ConfigError, LevelFormatError, sokoban
from levelforge.sokoban import Level, check, dead_squares, from_rle, improve, to_rle

import naive_sokoban as naive
from test_sokoban_solver import MICROBAN, pulled_level, random_level

ROOM = "########\n#@$   .#\n#      #\n#  $  .#\n#      #\n########"


@pytest.mark.parametrize("case", range(60))
def test_check_answer_equals_naive_bfs_and_naive_dead_squares(case):
    rng = np.random.default_rng(900 + case)
    level = (pulled_level if case % 2 else random_level)(rng)
    if level is None:
        return
    c = check(level.to_xsb(), time_limit=30)
    assert c.valid and c.problems == ()
    expected = naive.bfs_pushes(level)
    if expected is None:
        assert c.status == "unsolvable"
    else:
        assert c.status == "solved" and c.pushes == expected
        assert sokoban.replay(level, c.solution).is_solved
    inside = naive.reachable(set(level.walls), set(), level.player)
    assert c.dead == naive.dead_squares(set(level.walls), level.goals, inside)


@pytest.mark.parametrize("number", [1, 2, 3, 5, 8, 13])
def test_check_pushes_equal_solve_on_microban(number):
    level = MICROBAN[number - 1]
    c = check(level)
    r = sokoban.solve(level)
    assert (c.status, c.pushes) == (r.status, r.pushes)
    assert c.xsb == "\n".join(level.rows())


def test_check_effort_does_not_depend_on_the_levels_checked_before():
    small = "########\n#@    .#\n# $#   #\n#  # $ #\n#     .#\n########"
    first = check(small).nodes
    check(MICROBAN[150])
    assert check(small).nodes == first


def test_check_lists_every_problem_of_a_drawn_level():
    c = check("#####\n#@$@#\n#$  #\n#####\n#.  \n#####")
    assert c.status == "invalid" and not c.valid
    assert c.problems == ("2 players, expected one", "2 boxes but 1 goal",
                          "goal at (1, 4) is not enclosed by walls")
    assert check("####\n#  #\n####").problems == ("no player", "no boxes")
    assert check("#" * 65).problems == ("the level is 65x1; the limit is 64x64",)


def test_check_reports_a_node_cap_as_limit_never_unsolvable():
    c = check(MICROBAN[150], max_nodes=50)
    assert c.status == "limit" and c.pushes is None
    assert c.limit_by == "states" and c.to_dict()["limit_by"] == "states"
    c = check(MICROBAN[143], time_limit=0.3, max_nodes=50_000_000)
    assert (c.status, c.limit_by) == ("limit", "time")
    assert check(MICROBAN[0]).limit_by is None


def test_check_proves_an_unsolvable_level():
    c = check("#####\n#$ .#\n#@ .#\n# $ #\n#####")
    assert c.status == "unsolvable" and naive.bfs_pushes(Level.from_xsb(c.xsb)) is None


def test_dead_squares_of_a_corridor_room():
    level = Level.from_xsb("#####\n#@$.#\n#   #\n#####")
    inside = naive.reachable(set(level.walls), set(), level.player)
    assert dead_squares(level) == naive.dead_squares(set(level.walls), level.goals, inside)


def test_rle_round_trips_every_microban_level():
    for level in MICROBAN:
        rle = to_rle(level)
        assert "\n" not in rle and " " not in rle
        assert Level.from_xsb(from_rle(rle)).rows() == level.rows()


def test_rle_known_answers_groups_and_line_breaks():
    assert to_rle("  ####\n###  #\n#@$ .#\n######") == "2-4#|3#2-#|#@$-.#|6#"
    assert from_rle("2-4#|3#2-#|#@$-.#|6#") == "  ####\n###  #\n#@$ .#\n######"
    assert from_rle("2(#-)#\n5#") == "# # #\n#####"
    assert from_rle("3(2#_)") == "## ## ##"


@pytest.mark.parametrize("text", ["3x", "#(", "#)", "12", "9999#"])
def test_rle_bad_text_is_a_format_error(text):
    with pytest.raises(LevelFormatError):
        from_rle(text)


def test_improve_versions_replay_keep_the_walls_and_get_harder():
    start = Level.from_xsb(ROOM)
    before = check(start)
    found = list(improve(start, seed=3, attempts=150))
    assert found
    last = (before.pushes, before.nodes)
    for f in found:
        assert f.level.walls == start.walls
        assert sokoban.replay(f.level, f.solution).is_solved
        c = check(f.level)
        assert (c.pushes, c.nodes) == (f.pushes, f.nodes) > last
        assert c.pushes == sokoban.solve(f.level).pushes
        last = (f.pushes, f.nodes)
    assert found[-1].pushes >= before.pushes


def test_improve_in_pieces_equals_one_run():
    start = Level.from_xsb(ROOM)
    whole = [(f.attempt, f.level) for f in improve(start, seed=8, attempts=90)]
    pieces, level = [], start
    for first in range(0, 90, 20):
        for f in improve(level, seed=8, first=first, attempts=min(20, 90 - first)):
            pieces.append((f.attempt, f.level))
            level = f.level
    assert pieces == whole and whole


def test_improve_by_effort_increases_the_stored_states():
    start = Level.from_xsb(ROOM)
    found = list(improve(start, seed=2, attempts=80, criterion="effort"))
    assert found and found[-1].nodes > check(start).nodes


def test_improve_refuses_bad_input():
    with pytest.raises(ConfigError, match="solved level"):
        next(improve(Level.from_xsb("#####\n#$ .#\n#@ .#\n# $ #\n#####")))
    with pytest.raises(ConfigError, match="criterion"):
        next(improve(Level.from_xsb(ROOM), criterion="fun"))
    with pytest.raises(ConfigError, match="attempts"):
        next(improve(Level.from_xsb(ROOM), attempts=-1))
