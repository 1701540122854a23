"""Searches taking turns (``levelforge.sokoban.turns``): the order of the steps checked
step by step against the rule, the searches closed, limits and cancels, and the
any-solution mode's five searches sharing their stored states in ``packing.TURNS`` and
``packing.WAYPOINT_TURN``."""
import numpy as np
import pytest

from levelforge.cancel import Cancel, Limit
from levelforge.sokoban import Solver, collections, packing, replay
from levelforge.sokoban.fess import pair_deadlocks
from levelforge.sokoban.turns import drain, finished, take_turns

MICROBAN = collections.load("microban")


def stand_in(name, grow, steps, status, log, closed):
    """A search that stores ``grow`` more states a step for ``steps`` steps, then ends
    with ``status``; each step is logged, and a close is recorded."""
    nodes = 0
    try:
        for _ in range(steps):
            nodes += grow
            log.append((name, nodes))
            yield nodes, nodes // 2
        return status, f"by {name}" if status == "solved" else None, nodes, nodes // 2
    finally:
        closed.add(name)


def watch_searches(monkeypatch, solver, spy):
    """Wrap each of the any mode's searches on ``solver`` as ``spy(name, generator)``,
    named fess, greedy, cells, weighted and waypoint."""
    real_f, real_b, real_w, real_p = solver._fess_steps, solver._backward_steps, \
        solver._weighted_steps, solver._waypoint_steps
    monkeypatch.setattr(solver, "_waypoint_steps", lambda *a: spy("waypoint", real_p(*a)))
    monkeypatch.setattr(solver, "_fess_steps", lambda *a: spy("fess", real_f(*a)))
    monkeypatch.setattr(solver, "_backward_steps",
                        lambda *a, cells=False: spy("cells" if cells else "greedy",
                                                    real_b(*a, cells=cells)))
    monkeypatch.setattr(solver, "_weighted_steps", lambda *a: spy("weighted", real_w(*a)))


@pytest.mark.parametrize("seed", range(12))
def test_each_step_goes_to_the_search_furthest_behind_its_share(seed):
    rng = np.random.default_rng(seed)
    k = int(rng.integers(2, 5))
    weights = [int(w) for w in rng.integers(1, 6, k)]
    grows = [int(g) for g in rng.integers(1, 40, k)]
    steps = [int(s) for s in rng.integers(5, 200, k)]
    statuses = ["limit"] * k
    winner = int(rng.integers(0, k + 1))  # k: nobody solves it
    if winner < k:
        statuses[winner] = "solved"
    log, closed = [], set()
    runs = [(stand_in(i, grows[i], steps[i], statuses[i], log, closed), weights[i])
            for i in range(k)]
    status, solution, nodes, expanded = take_turns(runs, Limit(None))
    # replay the log by the rule: each step went to the live search whose stored states
    # over its weight were least (the first listed on a tie)
    stored = [0] * k
    alive = [True] * k
    for name, now in log:
        ratios = [(stored[i] / weights[i], i) for i in range(k) if alive[i]]
        assert min(ratios)[1] == name
        stored[name] = now
        if now == grows[name] * steps[name]:  # its last step: it ends on its next turn
            alive[name] = False
    if winner < k:
        assert (status, solution) == ("solved", f"by {winner}")
        assert stored[winner] == grows[winner] * steps[winner]
    else:
        assert (status, solution) == ("limit", None)
        assert stored == [g * s for g, s in zip(grows, steps)]
    assert nodes == sum(stored) and expanded == sum(n // 2 for n in stored)
    assert closed == set(range(k))  # ended or closed, every one


def test_a_cancel_stops_every_search_and_closes_them():
    token = Cancel()
    log, closed = [], set()

    def cancelling():
        try:
            for step in range(1, 100):
                if step == 7:
                    token.cancel()
                yield step, step
            return "limit", None, 99, 99
        finally:
            closed.add("a")

    runs = [(cancelling(), 1), (stand_in("b", 1, 1000, "solved", log, closed), 1)]
    status, solution, nodes, _ = take_turns(runs, Limit(None, token))
    assert (status, solution) == ("cancelled", None)
    assert nodes == 7 + 6  # a's seven steps and b's six, taken in turn
    assert closed == {"a", "b"}


def test_a_proof_of_unsolvability_ends_the_turns():
    log, closed = [], set()
    runs = [(stand_in("a", 1, 50, "limit", log, closed), 1),
            (stand_in("b", 1, 5, "unsolvable", log, closed), 1)]
    assert take_turns(runs, Limit(None))[:2] == ("unsolvable", None)
    assert closed == {"a", "b"} and len(log) == 6 + 5  # a first on each tie


def test_the_main_search_ending_ends_the_turns():
    """With ``main``, its end (a cap here, not a proof) ends the turns with its status;
    the helper, which would go on, is closed and its states counted."""
    log, closed = [], set()
    runs = [(stand_in("a", 1, 5, "limit", log, closed), 1),
            (stand_in("b", 1, 50, "limit", log, closed), 1)]
    assert take_turns(runs, Limit(None), main=0) == ("limit", None, 5 + 5, 2 + 2)
    assert closed == {"a", "b"}


def test_weights_that_are_functions_are_asked_before_each_step():
    """A weight given as a function is asked before each step: here b leads (three of
    its stored states per state of a's) until a has stored 10, then a does (the rule
    replayed from the log)."""
    log, closed = [], set()

    def stored(name):
        return max([now for n, now in log if n == name], default=0)

    def weight(name):
        return 3 if name == ("b" if stored("a") < 10 else "a") else 1
    runs = [(stand_in("a", 1, 40, "limit", log, closed), lambda: weight("a")),
            (stand_in("b", 1, 40, "limit", log, closed), lambda: weight("b"))]
    take_turns(runs, Limit(None), main=0)
    mine = {"a": 0, "b": 0}
    for name, now in log:
        lead = "b" if mine["a"] < 10 else "a"
        assert min((mine[n] / (3 if n == lead else 1), n) for n in ("a", "b"))[1] == name
        mine[name] = now
    assert mine["a"] == 40 and 10 < mine["b"] < 40


def test_finished_and_drain():
    assert drain(finished("limit", None, 3, 4)) == ("limit", None, 3, 4)
    assert take_turns([(finished("exhausted", None, 3, 4), 1)], Limit(None)) == \
        ("limit", None, 3, 4)


def test_the_any_modes_searches_take_turns_by_their_stored_states(monkeypatch):
    """Microban 153 (the hardest for the backward search) with a cap of 8,000 states a
    search and the packing stages cut short: the feature-space search, the two backward
    searches, weighted A* and the waypoint search all run, and each of their steps goes
    to the one whose stored states over its weight in ``packing.TURNS`` (the waypoint
    search's: ``packing.WAYPOINT_TURN``) are least (the order of the list on a tie),
    replayed step by step from what the searches yielded."""
    solver = Solver()
    log = []

    def spy(name, gen):
        try:
            while True:
                n, e = next(gen)
                log.append((name, n))
                yield n, e
        except StopIteration as done:
            log.append((name, None))
            return done.value

    watch_searches(monkeypatch, solver, spy)
    monkeypatch.setattr(packing, "STAGE_NODES", 10)
    level = MICROBAN[152]
    r = solver.solve(level, optimal=False, max_nodes=8_000)
    names = ("fess", "greedy", "cells", "weighted", "waypoint")
    assert {name for name, _ in log} == set(names)
    weight = dict(zip(names, (*packing.TURNS, packing.WAYPOINT_TURN)))
    stored = dict.fromkeys(names, 0)
    live = list(names)
    for name, n in log:
        assert name == min(live, key=lambda x: stored[x] / weight[x])
        if n is None:
            live.remove(name)
        else:
            stored[name] = n
    if r.solved:
        assert replay(level, r.solution).is_solved


def test_the_any_mode_gives_the_same_answer_every_time():
    """The turns go by stored states, not by the clock: without a time limit the same
    level gives the same solution, nodes and all."""
    level = MICROBAN[152]
    first = Solver().solve(level, optimal=False, max_nodes=300_000)
    again = Solver().solve(level, optimal=False, max_nodes=300_000)
    assert first.solved and replay(level, first.solution).is_solved
    assert (first.solution, first.nodes, first.expanded) == \
        (again.solution, again.nodes, again.expanded)


def test_a_step_is_whole_however_often_the_arrays_grow(monkeypatch):
    """Every step of the four searches is ``_BUDGET`` expansions (the last may be
    shorter), though their arrays start small and grow on the way: a step cut where
    they grow would make the turns depend on the size a solver's workspace kept from
    an earlier solve. So a solver that solved a larger level first gives the same
    answer, nodes and all, as a fresh one."""
    from levelforge.sokoban import backward, fess
    from levelforge.sokoban import solver as solver_module
    solver = Solver()
    steps = {}

    def spy(name, gen):
        last = 0
        while True:
            try:
                n, e = next(gen)
            except StopIteration as done:
                return done.value
            steps.setdefault(name, []).append(e - last)
            last = e
            yield n, e

    watch_searches(monkeypatch, solver, spy)
    level = MICROBAN[152]
    first = solver.solve(level, optimal=False, max_nodes=300_000)
    assert set(steps) == {"fess", "greedy", "cells", "weighted", "waypoint"}
    assert steps["fess"] == [fess._BUDGET] * len(steps["fess"])
    assert steps["weighted"] == [solver_module._BUDGET] * len(steps["weighted"])
    assert steps["greedy"] == [backward._BUDGET] * len(steps["greedy"])
    assert steps["cells"] == [backward._BUDGET] * len(steps["cells"])
    grown = Solver()
    grown.solve(MICROBAN[143], optimal=False, max_nodes=300_000)  # a larger workspace
    again = grown.solve(level, optimal=False, max_nodes=300_000)
    assert first.solved and replay(level, first.solution).is_solved
    assert (first.solution, first.nodes, first.expanded) == \
        (again.solution, again.nodes, again.expanded)


@pytest.mark.parametrize("index", [20, 143, 149])
def test_weighted_a_star_in_turns_is_the_last_resorts_search(monkeypatch, index):
    """The weighted A* that takes turns runs on a workspace of its own and prunes pair
    deadlocks; alone, it gives the solution and node counts of the same search on the
    solver's workspace (the last resort with the turns left out, given the same pair
    database), with a solver that solved another level first (Microban 144: 16 boxes,
    tens of thousands of states over many steps); without the database it stores more."""
    level = MICROBAN[index]
    monkeypatch.setattr(packing, "STAGE_NODES", 0)  # no packing stage
    real = packing.take_turns
    monkeypatch.setattr(packing, "take_turns", lambda runs, limit: real(runs[3:4], limit))
    turns = Solver()
    turns.solve(MICROBAN[152], optimal=False, max_nodes=60_000)  # grown workspaces
    mine = turns.solve(level, optimal=False, max_nodes=200_000)
    monkeypatch.setattr(packing, "take_turns", lambda runs, limit: ("limit", None, 0, 0))
    last = Solver()
    last._stages = False  # the last resort's weighted A* on the solver's workspace
    real_search = last._search

    def with_pairs(board, boxes, player, cap, weight, plan, symtab, limit):
        if weight == packing.ANY_WEIGHT:  # the turn's pair deadlocks, from the start
            last._pdb = pair_deadlocks(board, boxes.shape[0])
        return real_search(board, boxes, player, cap, weight, plan, symtab, limit)
    monkeypatch.setattr(last, "_search", with_pairs)
    ref = last.solve(level, optimal=False, max_nodes=200_000)
    plain = Solver()
    plain._stages = False  # without the pair database: more states stored
    without = plain.solve(level, optimal=False, max_nodes=200_000)
    assert mine.solved and replay(level, mine.solution).is_solved
    assert (mine.solution, mine.nodes, mine.expanded) == \
        (ref.solution, ref.nodes, ref.expanded)
    assert without.solved and mine.nodes < without.nodes


def test_weighted_a_star_cancelled_while_its_pair_database_is_built(monkeypatch):
    """A cancel that comes while the turn's pair database is built stops it before its
    search starts: ``cancelled`` with no states, not the counts a previous solve left
    in its workspace."""
    from levelforge.sokoban import solver as solver_module
    level = MICROBAN[149]
    monkeypatch.setattr(packing, "STAGE_NODES", 0)
    real = packing.take_turns
    monkeypatch.setattr(packing, "take_turns", lambda runs, limit: real(runs[3:4], limit))
    solver = Solver()
    assert solver.solve(level, optimal=False, max_nodes=200_000).nodes > 0
    token = Cancel()
    build = solver_module.pair_deadlocks

    def cancelled_build(*args):
        token.cancel()
        return build(*args)
    monkeypatch.setattr(solver_module, "pair_deadlocks", cancelled_build)
    r = solver.solve(level, optimal=False, max_nodes=200_000, cancel=token)
    assert (r.status, r.solution, r.nodes, r.expanded) == ("cancelled", None, 0, 0)
