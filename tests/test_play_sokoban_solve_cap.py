"""The play pages' solves store at most ``SOLVE_MAX_NODES`` states (not the solver's
default cap of 1M, which stopped a 30 s solve after 4 s), and a ``limit`` answer says
whether the clock or that cap stopped it (the library's ``SolveResult.limit_by``);
checked against the library's own solve."""
import json

from levelforge.play import sokoban as play_sokoban
from levelforge.sokoban import collections, solve
from rooms import room

HARD = room(32, 32, 40)  # beyond every cap and clock here (unsolved at 20 s, 2.4M states)


def ask(limit):
    body = {"xsb": HARD.to_xsb(), "moves": "", "time_limit": limit}
    return play_sokoban.solve_position(json.dumps(body))


def test_a_solve_stopped_by_its_state_cap_says_so(monkeypatch):
    monkeypatch.setattr(play_sokoban, "SOLVE_MAX_NODES", 20_000)
    answer = ask(30)
    assert answer["status"] == "limit" and answer["elapsed_ms"] < 30_000
    assert (answer["limit_by"], answer["max_nodes"]) == ("states", 20_000)
    alone = solve(HARD, max_nodes=20_000)  # the same search, without the page
    assert (answer["nodes"], answer["lower_bound"]) == (alone.nodes, alone.lower_bound)


def test_a_solve_stopped_by_its_clock_says_so():
    # 6 s: under the solver's default cap this level stops at 1M states first on a fast
    # machine; the pages' cap leaves the clock to stop it
    answer = ask(6)
    assert answer["status"] == "limit" and answer["elapsed_ms"] >= 6_000
    assert answer["limit_by"] == "time" and answer["nodes"] > 0
    assert ask_solved()["limit_by"] is None


def ask_solved():
    level = collections.load("microban")[0]
    body = {"xsb": level.to_xsb(), "moves": "", "time_limit": 5}
    return play_sokoban.solve_position(json.dumps(body))


def test_the_verdict_on_a_finished_level_says_what_stopped_it(monkeypatch):
    monkeypatch.setattr(play_sokoban, "SOLVE_MAX_NODES", 20_000)
    verdict = play_sokoban.optimal.__wrapped__(tuple(HARD.rows()))
    assert verdict["status"] == "limit" and verdict["limit_by"] == "states"
    monkeypatch.setattr(play_sokoban, "SOLVE_MAX_NODES", 50_000_000)
    monkeypatch.setattr(play_sokoban, "OPTIMAL_TIME_LIMIT", 0.5)
    verdict = play_sokoban.optimal.__wrapped__(tuple(HARD.rows()))
    assert verdict["status"] == "limit" and verdict["limit_by"] == "time"
