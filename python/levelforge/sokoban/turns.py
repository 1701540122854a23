"""Searches that take turns: the any-solution mode's feature-space search and its two
backward searches run as generators, each suspended between kernel calls with its
arrays kept, and one loop steps them in turn, so no search waits for another to spend
its share of the time.

A search is a generator that yields ``(nodes, expanded)`` after each step (a kernel
call's budget of expansions, whole however often its arrays grow) and returns
``(status, solution, nodes, expanded)``. The loop charges each search its stored states: the next step goes to the search with the fewest stored states per unit
of its weight (ties: the first listed). Stored states, not seconds, so the order of the
steps, and so the answer, is the same on every run and machine; only where a time
limit cuts it depends on the clock. A stored state's time differs between searches
and boards (on a 64x64 room with 128 boxes a backward search's matchings cost about a
millisecond a state); the weights were measured on hand-made levels
(``docs/figures/sokoban-solving-journal.md``, three searches in turn). A step is one kernel
call of at most a few hundred expansions, so no search may spend long on work done
once (a table made on first use) inside one step: the others wait for it.

>>> def counting(name, steps, status):
...     for k in range(1, steps + 1):
...         yield k, k
...     return status, name, steps, steps
>>> from levelforge.cancel import Limit
>>> take_turns([(counting("a", 9, "limit"), 2), (counting("b", 3, "solved"), 1)], Limit(None))
('solved', 'b', 10, 10)
"""
from __future__ import annotations

from ..engine import sokoban_state as _s


def finished(*result):
    """A search that is over before its first step: it returns ``result`` (a stand-in
    for a search left out)."""
    return result
    yield  # noqa: unreachable: makes this a generator


def whole_steps(status, budget, ctr, limit, grow, run):
    """Drive a search kernel in steps of ``budget`` expansions: the generator a search
    delegates to (``yield from``). ``status`` is its start's; while it says RUNNING or
    GROW, ``grow()`` grows the arrays after GROW and ``run(left)`` calls the kernel for
    at most ``left`` expansions (counted in ``ctr``). Yields ``(nodes, expanded)`` after each whole step (never cut where the
    arrays grow, so where the steps end does not depend on the arrays a workspace kept
    from an earlier solve) and returns the last status: HALTED when ``limit`` stopped
    it or a growth was abandoned, LIMIT when the memory would not hold the growth
    (``grow()`` returns RUNNING when it grew, else the status to end with)."""
    left = budget
    while status == _s.RUNNING or status == _s.GROW:
        if limit.reason() is not None:
            return _s.HALTED
        if status == _s.GROW:
            grown = grow()
            if grown != _s.RUNNING:
                return grown
        before = int(ctr[_s.C_EXPANDED])
        status = run(left)
        left -= int(ctr[_s.C_EXPANDED]) - before
        if status == _s.RUNNING:
            yield int(ctr[_s.C_NODES]), int(ctr[_s.C_EXPANDED])
            left = budget
    return status


def drain(steps):
    """Run a search to its end: its ``(status, solution, nodes, expanded)``."""
    while True:
        try:
            next(steps)
        except StopIteration as done:
            return done.value


def take_turns(runs, limit, main=None):
    """Step the searches ``runs`` (``(generator, weight)`` pairs; a weight may be a
    function of no arguments, asked before each step, for shares that follow how the
    searches fare) in turn until one
    ends ``solved`` or ``unsolvable`` (a proof), ``limit`` (a
    :class:`levelforge.cancel.Limit`) stops them, or every one has ended at its node cap
    or run out of states. Returns ``(status, solution, nodes, expanded)``: the deciding
    search's status and solution (``limit`` or ``cancelled`` from the limit, ``limit``
    with None when every search ended without one) and the stored and expanded states
    of all of them. Searches still suspended are closed. ``main``: the index in ``runs``
    of a search whose end, however it ends, ends the turns with its status (the others
    only help it)."""
    return drain(turn_steps(runs, limit, main))


def turn_steps(runs, limit, main=None):
    """:func:`take_turns` as a search itself (a generator yielding the stored and
    expanded states of all its searches after each step), so that searches in turn can
    take turns with others."""
    live = [[gen, weight, 0, 0] for gen, weight in runs]
    main = None if main is None else live[main]
    nodes = expanded = 0  # of the searches that ended
    status, solution = "limit", None  # every search ended without a solution
    try:
        while live and limit.reason() is None:
            run = min(live, key=lambda r: r[2] / (r[1]() if callable(r[1]) else r[1]))
            try:
                run[2], run[3] = next(run[0])
                yield nodes + sum(r[2] for r in live), expanded + sum(r[3] for r in live)
                continue
            except StopIteration as done:
                found, got, n, e = done.value
            live.remove(run)
            nodes += n
            expanded += e
            if found in ("solved", "unsolvable") or run is main:
                status, solution = found, got
                break
        if status == "limit" and limit.reason() is not None:
            status = limit.reason()
        for run in live:  # the suspended searches' states count too
            nodes += run[2]
            expanded += run[3]
        return status, solution, nodes, expanded
    finally:
        for run in live:
            run[0].close()
