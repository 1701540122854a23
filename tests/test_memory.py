"""The memory guard (``levelforge.memory``): a growth of a search's arrays is refused when
the process would not fit in what it holds plus what the system has available, and the
search then stops with ``limit`` (``limit_by == "memory"``) instead of being killed."""
import gc
import threading

import numpy as np
import pytest

from levelforge import memory
from levelforge.engine import sokoban_state as Ks
from levelforge.sokoban import Solver, collections, replay
from levelforge.sokoban import backward as backward_mod
from levelforge.sokoban import solver as solver_mod

from test_sokoban_backward import filled_arrays
from test_sokoban_grow import filled_workspace

MICROBAN = collections.load("microban")
MB = 1 << 20


@pytest.fixture
def machine(monkeypatch):
    """A made-up machine: ``free`` bytes available, the process holding ``rss``, no
    reserve, and no owner but the test's."""
    box = {"free": 0, "rss": 0}
    monkeypatch.setattr(memory, "available", lambda: box["free"])
    monkeypatch.setattr(memory, "resident", lambda: box["rss"])
    monkeypatch.setattr(memory, "RESERVE", 0)
    monkeypatch.setattr(memory, "_held", type(memory._held)())
    return box


class Owner:
    """Something that holds arrays (a workspace)."""


def fits_naive(held, asked_by, nbytes, free, rss):
    """The rule in plain words: after the growth the process will hold the memory that
    is not in any owner's arrays (what it holds now less the arrays' pages written so
    far, at most all of them) plus every owner's arrays in full; that must not pass what
    it holds now plus what is free."""
    written = min(rss, sum(held.values()))
    others = rss - written
    total = sum(v for k, v in held.items() if k is not asked_by) + nbytes
    return others + total <= rss + free


@pytest.mark.parametrize("seed", range(40))
def test_hold_decides_as_the_plain_rule(machine, seed):
    rng = np.random.default_rng(seed)
    owners = [Owner() for _ in range(3)]
    held = {}
    for o in owners:
        held[o] = int(rng.integers(0, 1000)) * MB
        assert memory.hold(o, held[o], force=True)
    for _ in range(20):
        machine["free"] = int(rng.integers(0, 3000)) * MB
        machine["rss"] = int(rng.integers(0, 4000)) * MB
        o = owners[int(rng.integers(3))]
        ask = int(rng.integers(0, 2000)) * MB
        want = ask <= held[o] or fits_naive(held, o, ask, machine["free"], machine["rss"])
        assert memory.hold(o, ask) == want
        if want:
            held[o] = ask


def test_refusals_are_counted_per_thread_and_force_always_records(machine):
    o = Owner()
    assert memory.hold(o, 10 * MB, force=True)
    before = memory.refusals()
    assert not memory.hold(o, 20 * MB)
    assert memory.refusals() == before + 1
    counts = []
    t = threading.Thread(target=lambda: counts.append(memory.refusals()))
    t.start()
    t.join()
    assert counts == [0]
    assert memory.hold(o, 5 * MB)  # shrinking is always allowed
    assert memory._held[o] == 5 * MB
    del o
    gc.collect()
    assert len(memory._held) == 0  # a workspace gone frees its share


def test_the_machine_is_read_on_linux():
    free = memory.available()
    assert free is None or free > 0
    assert memory.resident() >= 0


def test_a_refused_growth_leaves_the_workspace_as_it_was(machine):
    ws = filled_workspace()
    arrays = (ws.pool, ws.nplayer, ws.nparent, ws.ng, ws.nhash, ws.nmove, ws.table, ws.heap)
    nodes = ws.nodes
    assert ws.grow(10 ** 6, room=ws.nodes) == Ks.LIMIT
    assert ws.nodes == nodes
    assert all(a is b for a, b in zip(arrays, (ws.pool, ws.nplayer, ws.nparent, ws.ng,
                                                ws.nhash, ws.nmove, ws.table, ws.heap)))
    machine["free"] = 1 << 40
    assert ws.grow(10 ** 6, room=ws.nodes) == Ks.RUNNING and ws.nodes > nodes


def test_a_refused_backward_growth_leaves_the_arrays_as_they_were(machine):
    a, ctr, zob = filled_arrays()
    table = a.table
    assert a.grow(ctr, zob) == backward_mod._s.LIMIT
    assert a.table is table and a.nplayer.shape[0] == 4096
    machine["free"] = 1 << 40
    assert a.grow(ctr, zob) == backward_mod._s.RUNNING and a.nplayer.shape[0] == 8192


def test_a_solve_the_memory_would_not_hold_ends_in_limit_by_memory(machine):
    """Microban 93 stores about a million states push-optimally: with no memory to
    grow into, the search stops at its first arrays and says so; given the memory,
    the same solver solves it, and its solution replays."""
    level = MICROBAN[92]
    solver = Solver(max_nodes=4_000_000)
    r = solver.solve(level)
    assert (r.status, r.limit_by, r.solution) == ("limit", "memory", None)
    assert 0 < r.nodes <= 2 * solver_mod._FIRST_NODES  # the first arrays, per search
    machine["free"] = 1 << 40
    r = solver.solve(level)
    assert r.solved and replay(level, r.solution).is_solved


def test_the_any_mode_stops_by_memory_too(machine):
    """Microban 153 takes the any mode's searches in turn about 250,000 states: with
    no memory to grow into, every search is refused room and the solve ends in ``limit``
    by memory; given the memory, the same solver solves it."""
    level = MICROBAN[152]
    solver = Solver(max_nodes=4_000_000)
    r = solver.solve(level, optimal=False)
    assert (r.status, r.limit_by, r.solution) == ("limit", "memory", None)
    machine["free"] = 1 << 40
    r = solver.solve(level, optimal=False)
    assert r.solved and replay(level, r.solution).is_solved


class _Refusing:
    """numpy with ``zeros`` failing above ``most`` elements, as an allocation does under
    an address-space limit (``ulimit -v``)."""

    def __init__(self, most):
        self.most = most

    def zeros(self, shape, *args, **kwargs):
        if int(np.prod(shape)) > self.most:
            raise MemoryError(f"cannot allocate {shape}")
        return np.zeros(shape, *args, **kwargs)

    def __getattr__(self, name):
        return getattr(np, name)


def test_an_allocation_that_fails_is_a_limit_by_memory_not_a_crash(machine, monkeypatch):
    machine["free"] = 1 << 40  # the guard allows it; the allocation itself fails
    level = MICROBAN[92]
    solver = Solver(max_nodes=4_000_000)
    # the first arrays (16,384 states of 8 boxes: a pool of 131,072) are made; the
    # first growth (262,144) fails
    monkeypatch.setattr(solver_mod, "np", _Refusing(150_000))
    r = solver.solve(level)
    assert (r.status, r.limit_by, r.solution) == ("limit", "memory", None)
    monkeypatch.setattr(solver_mod, "np", np)
    r = solver.solve(level)
    assert r.solved and replay(level, r.solution).is_solved


@pytest.mark.parametrize("version", [1, 2])
def test_a_cgroup_limit_is_read_without_its_inactive_file_pages(tmp_path, version):
    """A made-up cgroup tree: what is left is the limit less the usage, the reclaimable
    file pages given back; no limit (v2 ``max``, v1's huge number) reads as None."""
    proc = tmp_path / "cgroup"
    if version == 2:
        proc.write_text("0::/box\n")
        d = tmp_path / "fs" / "box"
        names = ("memory.max", "memory.current", "inactive_file")
    else:
        proc.write_text("5:cpu:/\n4:memory:/box\n")
        d = tmp_path / "fs" / "memory" / "box"
        names = ("memory.limit_in_bytes", "memory.usage_in_bytes", "total_inactive_file")
    d.mkdir(parents=True)
    (d / names[0]).write_text(f"{1000 * MB}\n")
    (d / names[1]).write_text(f"{700 * MB}\n")
    (d / "memory.stat").write_text(f"cache 5\n{names[2]} {50 * MB}\nother 7\n")
    assert memory._cgroup_left(str(proc), str(tmp_path / "fs")) == (1000 - 700 + 50) * MB
    (d / names[1]).write_text(f"{1200 * MB}\n")  # over its limit: nothing left
    assert memory._cgroup_left(str(proc), str(tmp_path / "fs")) == 0
    (d / names[0]).write_text("max\n" if version == 2 else "9223372036854771712\n")
    assert memory._cgroup_left(str(proc), str(tmp_path / "fs")) is None
