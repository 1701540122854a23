"""Each assistant kernel against a plain-Python reference (naive_mines)."""
from itertools import product

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from levelforge.engine import mines as K

import naive_mines as naive
from mines_positions import random_position

BINOM = K.binomial_table()


def _arrays(obs):
    n = obs.width * obs.height * obs.depth
    return obs.state.reshape(-1).copy(), obs.numbers.reshape(-1).copy(), n


def _build(obs):
    state, numbers, n = _arrays(obs)
    nb26 = K.board_tables(obs.width, obs.height, obs.depth)[0]
    con = np.empty((n, 26), np.int32)
    ln = np.zeros(n, np.int32)
    cnt = np.zeros(n, np.int32)
    alive = np.zeros(n, np.uint8)
    k = K.build_constraints(state, numbers, nb26, con, ln, cnt, alive)
    return k, con, ln, cnt, alive, n


def _rows(k, con, ln, cnt, alive):
    return sorted((con[i, :ln[i]].tolist(), int(cnt[i])) for i in range(k) if alive[i])


def _positions(seed, count):
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < count:
        game = random_position(rng, wrong_flags=0.1)
        if game.status == "playing":
            out.append(game.observe())
    return out


def test_build_constraints_matches_naive():
    for obs in _positions(1, 300):
        k, con, ln, cnt, alive, _ = _build(obs)
        state, numbers, _ = _arrays(obs)
        ref = naive.constraints(state.tolist(), numbers.tolist(), obs.width, obs.height,
                                obs.depth)
        bad = any(c < 0 or c > len(cs) for cs, c in ref) or any(
            c != 0 for cs, c in naive._constraints(state.tolist(), numbers.tolist(), obs.width,
                                                  obs.height, obs.depth) if not cs)
        if bad:
            assert k == -1
        else:
            assert _rows(k, con, ln, cnt, alive) == sorted(ref)


def _solutions(cells, rows, known=None):
    """Every 0/1 assignment of ``cells`` satisfying ``rows`` (and ``known`` marks)."""
    pos = {c: i for i, c in enumerate(cells)}
    out = set()
    for bits in product((0, 1), repeat=len(cells)):
        if known is not None and any(
                (known[c] == K.SAFE and bits[i]) or (known[c] == K.MINE and not bits[i])
                for c, i in pos.items()):
            continue
        if all(sum(bits[pos[c]] for c in cs) == cnt for cs, cnt in rows):
            out.add(bits)
    return out


def test_reduce_constraints_keeps_exactly_the_same_solutions():
    checked = 0
    for obs in _positions(2, 400):
        k, con, ln, cnt, alive, n = _build(obs)
        if k < 0:
            continue
        before = _rows(k, con, ln, cnt, alive)
        cells = sorted({c for cs, _ in before for c in cs})
        if len(cells) > 12:
            continue
        known = np.zeros(n, np.int8)
        passes = K.reduce_constraints(k, con, ln, cnt, alive, known, np.zeros(n + 1, np.int32),
                                      np.zeros(n * 26, np.int32))
        original = _solutions(cells, before)
        if passes < 0:
            assert not original
            continue
        after = _rows(k, con, ln, cnt, alive)
        assert {c for cs, _ in after for c in cs} <= set(cells)
        assert all(known[c] == K.UNKNOWN for cs, _ in after for c in cs)
        assert _solutions(cells, after, known) == original
        checked += 1
    assert checked > 200


def _split(obs, merge):
    k, con, ln, cnt, alive, n = _build(obs)
    known = np.zeros(n, np.int8)
    i32 = np.int32
    if k < 0 or K.reduce_constraints(k, con, ln, cnt, alive, known, np.zeros(n + 1, i32),
                                     np.zeros(n * 26, i32)) < 0:
        return None
    out = dict(parent=np.zeros(n + 1, i32), gcell=np.zeros(n, i32),
               comp_gptr=np.zeros(n + 1, i32), comp_kptr=np.zeros(n + 1, i32),
               comp_cons=np.zeros(n, i32), grp_cptr=np.zeros(n + 1, i32),
               grp_cells=np.zeros(n, i32), grp_size=np.zeros(n, i32))
    nc, ng = K.split_components(k, con, ln, alive, merge, out["parent"], out["gcell"],
                                out["comp_gptr"], out["comp_kptr"], out["comp_cons"],
                                out["grp_cptr"], out["grp_cells"], out["grp_size"],
                                np.zeros(n + 1, i32), np.zeros(n * 26, i32),
                                np.zeros(n + 1, i32), np.zeros(n + 1, i32),
                                np.zeros(n + 1, i32), np.zeros(n + 1, i32))
    return nc, ng, out, _rows(k, con, ln, cnt, alive), (k, con, ln, cnt, alive)


@pytest.mark.parametrize("merge", [False, True])
def test_split_components_matches_naive_connectivity_and_groups(merge):
    for obs in _positions(3, 200):
        res = _split(obs, merge)
        if res is None:
            continue
        nc, ng, out, rows, _ = res
        # reference: connected components of cells linked by rows (plain union of sets)
        comps = []
        for cs, _ in rows:
            joined = set(cs)
            for comp in [c for c in comps if c & joined]:
                joined |= comp
                comps.remove(comp)
            comps.append(joined)
        got = []
        for ci in range(nc):
            cells = set()
            for g in range(out["comp_gptr"][ci], out["comp_gptr"][ci + 1]):
                members = out["grp_cells"][out["grp_cptr"][g]:out["grp_cptr"][g + 1]].tolist()
                assert len(members) == out["grp_size"][g] >= 1
                assert all(out["gcell"][c] == g for c in members)
                sets = {tuple(i for i, (cs, _) in enumerate(rows) if c in cs) for c in members}
                assert len(sets) == 1                     # identical rows within a group
                if not merge:
                    assert len(members) == 1
                cells |= set(members)
            got.append(frozenset(cells))
        assert sorted(map(sorted, got)) == sorted(map(sorted, comps))
        if merge:   # groups are maximal: no two groups of a component share their rows
            for ci in range(nc):
                sigs = []
                for g in range(out["comp_gptr"][ci], out["comp_gptr"][ci + 1]):
                    c = out["grp_cells"][out["grp_cptr"][g]]
                    sigs.append(tuple(i for i, (cs, _) in enumerate(rows) if c in cs))
                assert len(sigs) == len(set(sigs))
        frontier = int((out["gcell"] >= 0).sum())
        assert frontier == len(set().union(*comps)) if comps else frontier == 0
        assert ng <= frontier and (merge or ng == frontier)


@st.composite
def _group_system(draw):
    n_groups = draw(st.integers(1, 5))
    sizes = draw(st.lists(st.integers(1, 4), min_size=n_groups, max_size=n_groups))
    hidden = [draw(st.integers(0, z)) for z in sizes]
    rows = []
    for _ in range(draw(st.integers(1, 4))):
        groups = sorted(set(draw(st.lists(st.integers(0, n_groups - 1), min_size=1,
                                          max_size=n_groups))))
        cnt = sum(hidden[g] for g in groups)
        if draw(st.booleans()) and draw(st.booleans()):
            cnt += draw(st.integers(-2, 2))      # sometimes no solution at all
        rows.append((groups, cnt))
    # every group in some row (components are built that way)
    covered = {g for gs, _ in rows for g in gs}
    for g in range(n_groups):
        if g not in covered:
            rows.append(([g], hidden[g]))
    return sizes, rows


def _run_enumeration(sizes, rows, max_nodes=10**6):
    ng, nk = len(sizes), len(rows)
    s = sum(sizes)
    c_ptr = np.zeros(nk + 1, np.int32)
    c_grp = np.array([g for gs, _ in rows for g in gs], np.int32)
    c_ptr[1:] = np.cumsum([len(gs) for gs, _ in rows])
    g_lists = [[r for r, (gs, _) in enumerate(rows) if g in gs] for g in range(ng)]
    g_ptr = np.zeros(ng + 1, np.int32)
    g_ptr[1:] = np.cumsum([len(x) for x in g_lists])
    g_con = np.array([r for x in g_lists for r in x], np.int32)
    order = np.arange(ng, dtype=np.int32)[::-1].copy()
    wsum = np.zeros(s + 1)
    esum = np.zeros(ng * (s + 1))
    hm = np.zeros(ng * (s + 1), np.uint8)
    hs = np.zeros(ng * (s + 1), np.uint8)
    nodes = K.enumerate_component(
        ng, np.array(sizes, np.int32), nk, np.array([c for _, c in rows], np.int32), c_ptr,
        c_grp, g_ptr, g_con, order, max_nodes, BINOM, wsum, esum, hm, hs,
        np.zeros(ng + 1, np.int32), np.zeros(ng + 1), np.zeros(ng + 1, np.int32),
        np.zeros(nk, np.int32), np.zeros(nk, np.int32))
    return nodes, wsum, esum.reshape(ng, s + 1), hm.reshape(ng, s + 1), hs.reshape(ng, s + 1)


@settings(max_examples=300, deadline=None)
@given(_group_system())
def test_enumerate_component_matches_weighted_bruteforce(system):
    sizes, rows = system
    nodes, wsum, esum, hm, hs = _run_enumeration(sizes, rows)
    ref = naive.weighted_enumeration(sizes, rows)
    assert nodes >= 1
    assert wsum.tolist() == pytest.approx(ref[0])
    assert esum.tolist() == [pytest.approx(r) for r in ref[1]]
    assert hm.tolist() == [[int(v) for v in r] for r in ref[2]]
    assert hs.tolist() == [[int(v) for v in r] for r in ref[3]]


def test_enumerate_component_reports_the_node_cap():
    sizes = [1] * 12
    rows = [(list(range(12)), 6)]
    nodes, *_ = _run_enumeration(sizes, rows, max_nodes=50)
    assert nodes == -1
    nodes, wsum, *_ = _run_enumeration(sizes, rows)
    assert nodes > 50 and wsum[6] == 924        # C(12, 6) solutions


@pytest.mark.parametrize("seed", range(20))
def test_place_mines_uniform_count_and_exclusion(seed):
    rng = np.random.default_rng(seed)
    w, h, d = (int(v) for v in rng.integers(3, 7, size=3))
    n = w * h * d
    nb26 = K.board_tables(w, h, d)[0]
    start = int(rng.integers(n))
    free = n - 1 - int((nb26[start] >= 0).sum())
    mines = int(rng.integers(0, free + 1))
    mine = np.zeros(n, np.uint8)
    state = np.array([seed + 1], np.uint64)
    m = K.place_mines(nb26, start, mines, state, mine, np.empty(n, np.int32))
    assert m == free and int(mine.sum()) == mines
    cells = naive.cells(w, h, d)
    banned = {cells[start], *naive.neighbours(cells[start], w, h, d)}
    assert not {cells[i] for i in np.flatnonzero(mine)} & banned
