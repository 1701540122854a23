"""A search's arrays grow while it runs (``Workspace.grow``: copies and a table rebuild,
seconds at 10M states); a time limit or cancel token that fires meanwhile stops the
growth, leaves every state the workspace held, and the solve says ``cancelled`` or
``limit``."""
import time

import numpy as np

from levelforge import Cancel
from levelforge import cancel as cancel_mod
from levelforge.engine import sokoban as K
from levelforge.engine import sokoban_state as Ks
from levelforge.sokoban import Solver, collections
from levelforge.sokoban import solver as solver_mod

MICROBAN = collections.load("microban")


def filled_workspace(nodes=3000, boxes=3, seed=0):
    """A workspace holding ``nodes`` distinct made-up states, as a search leaves it."""
    rng = np.random.default_rng(seed)
    ws = solver_mod.Workspace().ensure(400, boxes, nodes + 16)
    ws.ctr[Ks.C_BOXES] = boxes
    ws.ctr[Ks.C_NODES] = nodes
    ws.ctr[Ks.C_TEPOCH] = 1
    ws.pool[:nodes * boxes] = rng.integers(0, 400, nodes * boxes)
    ws.nplayer[:nodes] = rng.integers(0, 400, nodes)
    ws.nhash[:nodes] = rng.choice(np.iinfo(np.int64).max, nodes, replace=False)
    ws.ng[:nodes] = rng.integers(0, 100, nodes)
    return ws


def table_nodes(ws):
    """The nodes the table holds in the current generation, found by the probe the
    searches use: a naive lookup of each node's key."""
    mask = ws.table.shape[0] - 1
    found = []
    for j in range(int(ws.ctr[Ks.C_NODES])):
        key = int(ws.nhash[j] ^ ws.zob[1, ws.nplayer[j]])
        slot = key & mask
        while True:
            e = int(ws.table[slot])
            if e >> K._T_GEN_SHIFT != int(ws.ctr[Ks.C_TEPOCH]):
                break
            if e & K._T_NODE_MASK == j:
                found.append(j)
                break
            slot = (slot + 1) & mask
    return found


def test_growth_keeps_every_state_and_the_table_finds_each():
    ws = filled_workspace()
    before = {n: getattr(ws, n)[:3000 * (3 if n == "pool" else 1)].copy()
              for n in ("pool", "nplayer", "nhash", "ng")}
    assert ws.grow(10 ** 6, room=ws.nodes) == Ks.RUNNING  # forces a resize to twice the nodes
    assert ws.nodes >= 6000
    for name, was in before.items():
        assert np.array_equal(getattr(ws, name)[:was.shape[0]], was), name
    assert table_nodes(ws) == list(range(3000))


def test_a_set_halt_slot_stops_the_growth_and_leaves_the_workspace_as_it_was():
    ws = filled_workspace()
    arrays = (ws.pool, ws.nplayer, ws.nparent, ws.ng, ws.nhash, ws.nmove, ws.table, ws.heap)
    nodes = ws.nodes
    ws.ctr[Ks.C_HALT] = 1
    assert ws.grow(10 ** 6, room=ws.nodes) == Ks.HALTED
    assert ws.nodes == nodes
    assert all(a is b for a, b in zip(arrays, (ws.pool, ws.nplayer, ws.nparent, ws.ng,
                                                ws.nhash, ws.nmove, ws.table, ws.heap)))


def test_the_table_rebuild_stops_at_the_halt_slot():
    ws = filled_workspace(nodes=20000)
    table = np.zeros(1 << 16, np.int64)
    ws.ctr[Ks.C_HALT] = 1
    assert not K.table_rebuild(table, ws.ctr, ws.nhash, ws.nplayer, ws.zob)
    assert not table.any()  # stopped before the first node
    ws.ctr[Ks.C_HALT] = 0
    assert K.table_rebuild(table, ws.ctr, ws.nhash, ws.nplayer, ws.zob)
    assert np.count_nonzero(table) == 20000


def test_a_solve_cancelled_while_its_arrays_grow_stops_there_and_the_solver_goes_on(
        monkeypatch):
    """The token is set inside the first growth of the search and the watchdog's halt
    awaited, so the stop comes in the copy; the next solve on the same solver is right."""
    level = MICROBAN[92]  # 93: about a million states, so the arrays grow many times
    solver = Solver(max_nodes=4_000_000).warm_up()
    token = Cancel()
    resize = solver_mod.Workspace._resize
    grown = []

    def cancelled_resize(self, nodes, keep, check=True):
        if self is solver.workspace and keep and not grown:
            token.cancel()
            t = time.monotonic()
            while self.ctr[Ks.C_HALT] == 0 and time.monotonic() - t < 10:
                time.sleep(0.001)
        out = resize(self, nodes, keep, check)
        if self is solver.workspace and keep:
            grown.append(out)
        return out

    monkeypatch.setattr(solver_mod.Workspace, "_resize", cancelled_resize)
    r = solver.solve(level, cancel=token)
    assert r.status == "cancelled" and r.solution is None
    assert grown == [Ks.HALTED]  # stopped in the first growth, nothing after it
    assert 0 < r.nodes <= solver_mod._FIRST_NODES
    monkeypatch.setattr(solver_mod.Workspace, "_resize", resize)
    want = Solver().solve(MICROBAN[5])
    got = solver.solve(MICROBAN[5])
    assert (got.status, got.pushes, got.nodes) == ("solved", want.pushes, want.nodes)


def test_a_halt_between_the_copies_leaves_every_state_and_the_old_capacity(monkeypatch):
    """The copies are made one array at a time, each taking its old one's place; a halt
    after some of them leaves larger arrays beside old ones, so the kernels' capacity
    (``nplayer``'s length, copied last) must still be the old one and every state kept."""
    ws = filled_workspace()
    nodes, nplayer = ws.nodes, ws.nplayer
    before = {n: getattr(ws, n)[:3000 * (3 if n == "pool" else 1)].copy()
              for n in ("pool", "nplayer", "nhash", "ng")}
    copy = cancel_mod.copy_unless_halted
    done = []

    def halting_copy(dst, src, n, flags, slot):
        done.append(n)
        if len(done) == 3:
            flags[slot] = 1
        return copy(dst, src, n, flags, slot)

    monkeypatch.setattr(cancel_mod, "copy_unless_halted", halting_copy)
    assert ws.grow(10 ** 6, room=ws.nodes) == Ks.HALTED
    assert ws.nodes == nodes and ws.nplayer is nplayer
    assert ws.pool.shape[0] > nodes * 3 and ws.nparent.shape[0] > nodes  # these two grew
    for name, was in before.items():
        assert np.array_equal(getattr(ws, name)[:was.shape[0]], was), name
    assert min(getattr(ws, n).shape[0] for n in ("nparent", "ng", "nhash", "nmove")) \
        >= nplayer.shape[0]


def test_from_halves_from_the_nodes_grow_by_half_and_the_table_is_kept_when_big_enough(
        monkeypatch):
    monkeypatch.setattr(solver_mod, "_BY_HALF_FROM", 1024)
    ws = filled_workspace()  # 3016 node slots, a table of 8192
    table = ws.table
    assert ws.grow(10 ** 6, room=17) == Ks.RUNNING
    assert ws.nodes == 3016 + 3016 // 2 and ws.table.shape[0] == 16384  # rebuilt, larger
    assert table_nodes(ws) == list(range(3000))
    ws.ctr[Ks.C_NODES] = ws.nodes - 8  # full again: 4524 -> 6786, the table is big enough
    ws.nhash[3000:ws.nodes] = np.arange(3000, ws.nodes) * 7919 + 1
    assert K.table_rebuild(ws.table, ws.ctr, ws.nhash, ws.nplayer, ws.zob)
    table = ws.table
    assert ws.grow(10 ** 6, room=17) == Ks.RUNNING
    assert ws.nodes == 4524 + 2262 and ws.table is table
    assert table_nodes(ws) == list(range(int(ws.ctr[Ks.C_NODES])))


def test_a_search_is_the_same_whatever_its_arrays_grow_by(monkeypatch):
    level = MICROBAN[92]  # 93: hundreds of thousands of states, many growths
    want = Solver(max_nodes=300_000).solve(level)
    monkeypatch.setattr(solver_mod, "_BY_HALF_FROM", 1 << 12)
    got = Solver(max_nodes=300_000).solve(level)
    assert (got.status, got.pushes, got.nodes, got.expanded) == \
        (want.status, want.pushes, want.nodes, want.expanded)
