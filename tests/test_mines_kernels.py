"""Each assistant kernel against a plain-Python reference (naive_mines)."""
from itertools import product

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from levelforge.engine import mines as K
from levelforge.engine import mines_count as C
from levelforge.engine import mines_witness as W

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
    known = np.where(state == K.FLAGGED, K.MINE, K.UNKNOWN).astype(np.int8)
    k = K.build_constraints(state, numbers, known, nb26, con, ln, cnt, alive)
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


def test_build_constraints_leaves_out_known_cells():
    rng = np.random.default_rng(8)
    for obs in _positions(4, 200):
        state, numbers, n = _arrays(obs)
        w, h, d = obs.width, obs.height, obs.depth
        known = np.where(state == K.FLAGGED, K.MINE, K.UNKNOWN).astype(np.int8)
        closed = np.flatnonzero(state == K.CLOSED)
        known[closed] = rng.choice([K.UNKNOWN, K.UNKNOWN, K.SAFE, K.MINE], size=closed.size)
        nb26 = K.board_tables(w, h, d)[0]
        con, ln = np.empty((n, 26), np.int32), np.zeros(n, np.int32)
        cnt, alive = np.zeros(n, np.int32), np.zeros(n, np.uint8)
        k = K.build_constraints(state, numbers, known, nb26, con, ln, cnt, alive)
        ref, bad = [], False
        for i, cell in enumerate(naive.cells(w, h, d)):
            if state[i] != K.OPEN:
                continue
            nbs = [naive.flat(nb, w, h) for nb in naive.neighbours(cell, w, h, d)]
            free = sorted(j for j in nbs if state[j] != K.OPEN and known[j] == K.UNKNOWN)
            need = numbers[i] - sum(state[j] != K.OPEN and known[j] == K.MINE for j in nbs)
            bad |= need < 0 or need > len(free)
            if free:
                ref.append((free, int(need)))
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


def _system_arrays(sizes, rows):
    """The kernels' form of a group system: groups of each row, rows of each group."""
    i32 = np.int32
    c_ptr = np.zeros(len(rows) + 1, i32)
    c_grp = np.array([g for gs, _ in rows for g in gs], i32)
    c_ptr[1:] = np.cumsum([len(gs) for gs, _ in rows])
    g_lists = [[r for r, (gs, _) in enumerate(rows) if g in gs] for g in range(len(sizes))]
    g_ptr = np.zeros(len(sizes) + 1, i32)
    g_ptr[1:] = np.cumsum([len(x) for x in g_lists])
    g_con = np.array([r for x in g_lists for r in x], i32)
    return c_ptr, c_grp, g_ptr, g_con


def _run_count(sizes, rows, track_m=True, q=None, qf=None, max_states=10**6):
    """The frontier count of one component through the kernels, with small pools."""
    ng, nk = len(sizes), len(rows)
    s = sum(sizes)
    i32, i64 = np.int32, np.int64
    c_ptr, c_grp, g_ptr, g_con = _system_arrays(sizes, rows)
    order = np.zeros(ng + 1, i32)
    work = [np.zeros(max(ng, nk) + 2, i32) for _ in range(9)]
    C.bfs_order(ng, 0, c_ptr, c_grp, g_ptr, g_con, order, work[0])
    assert sorted(order[:ng].tolist()) == list(range(ng))
    st, ed = np.zeros((4, 6), i64), np.zeros((4, 2), i32)
    keys, ht = np.zeros(4, np.int8), np.zeros((4, 2), i64)
    fp = np.zeros(4)
    ep = np.ones(1, i64)                # hash stamps never repeat across the retries
    while True:           # grow the pools the way the workspace does
        top, lay = np.zeros(4, i64), np.zeros(ng + 2, i32)
        nodes = C.forward_pass(ng, np.array(sizes, i32), nk, np.array([c for _, c in rows], i32),
                               c_ptr, c_grp, g_ptr, g_con, order, track_m, max_states, top, st,
                               ed, keys, ht, ep, fp, BINOM, lay, *work,
                               np.zeros((27, 3), i64))
        if nodes == C.NEED_STATES:
            st = np.zeros((2 * len(st), 6), i64)
        elif nodes == C.NEED_EDGES:
            ed = np.zeros((2 * len(ed), 2), i32)
        elif nodes == C.NEED_KEYS:
            keys = np.zeros(2 * len(keys), np.int8)
        elif nodes == C.NEED_HASH:
            ht = np.zeros((2 * len(ht), 2), i64)
        elif nodes == C.NEED_WEIGHTS:
            fp = np.zeros(2 * len(fp))
        else:
            break
    if nodes < 0:
        return nodes, None
    fin = lay[ng]
    lo, hi = int(st[fin, C.LO]), int(st[fin, C.HI])
    totals = np.zeros(s + 1)
    totals[lo:hi + 1] = fp[st[fin, C.FOFF]:st[fin, C.FOFF] + hi - lo + 1]
    span = hi - lo + 1
    qq = np.ones(span) if q is None else np.asarray(q, float)[lo:hi + 1].copy()
    qb = np.ones(span, np.uint8) if qf is None else np.asarray(qf, np.uint8)[lo:hi + 1].copy()
    out = [np.zeros(ng), np.zeros(ng), np.zeros(ng, np.uint8), np.zeros(ng, np.uint8)]
    C.backward_pass(ng, np.array(sizes, i32), order, track_m, lay, st, ed, fp, np.zeros(len(fp)),
                    np.zeros(len(fp), np.uint8), BINOM, qq, qb, *out)
    return nodes, (totals, *out)


@settings(max_examples=300, deadline=None)
@given(_group_system(), st.data())
def test_frontier_count_matches_weighted_bruteforce(system, data):
    sizes, rows = system
    s = sum(sizes)
    ref_w, ref_e, ref_hm, ref_hs = (np.array(a, float) for a in
                                    naive.weighted_enumeration(sizes, rows))
    q = np.array(data.draw(st.lists(st.floats(0.0, 3.0), min_size=s + 1, max_size=s + 1)))
    qf = q > 0
    nodes, out = _run_count(sizes, rows, True, q, qf)
    if not ref_w.any():
        assert nodes == -2 and out is None
        return
    assert nodes >= 1
    totals, ge, gz, hm, hs = out
    assert totals.tolist() == pytest.approx(ref_w.tolist())
    assert gz == pytest.approx(np.full(len(sizes), (q * ref_w).sum()))
    assert ge == pytest.approx((ref_e * q).sum(axis=1))
    assert hm.tolist() == (ref_hm[:, qf] > 0).any(axis=1).astype(int).tolist()
    assert hs.tolist() == (ref_hs[:, qf] > 0).any(axis=1).astype(int).tolist()
    # without totals: one state per assignment prefix class, admissibility only
    nodes, (_, _, _, hm2, hs2) = _run_count(sizes, rows, False)
    assert hm2.tolist() == (ref_hm > 0).any(axis=1).astype(int).tolist()
    assert hs2.tolist() == (ref_hs > 0).any(axis=1).astype(int).tolist()


def test_frontier_count_reports_the_state_cap_and_merges_states():
    sizes = [1] * 12
    rows = [(list(range(12)), 6)]
    nodes, out = _run_count(sizes, rows, max_states=20)
    assert nodes == -1 and out is None
    nodes, (totals, *_) = _run_count(sizes, rows)
    assert totals[6] == 924                      # C(12, 6) solutions...
    assert nodes <= 12 * 7 + 1                   # ...from at most 7 partial sums a layer


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


@settings(max_examples=150, deadline=None)
@given(_group_system(), st.integers(0, 12), st.sampled_from([10, 10**6]))
def test_witness_search_matches_bruteforce_and_never_claims_too_much(system, m_hi, budget):
    sizes, rows = system
    ng, nk = len(sizes), len(rows)
    i32 = np.int32
    c_ptr, c_grp, g_ptr, g_con = _system_arrays(sizes, rows)
    work = [np.zeros(max(ng, nk) + 2, i32) for _ in range(7)]
    hm, hs = np.zeros(ng, np.uint8), np.zeros(ng, np.uint8)
    nodes, unresolved = W.witness_search(
        ng, np.array(sizes, i32), nk, np.array([c for _, c in rows], i32), c_ptr, c_grp, g_ptr,
        g_con, m_hi, budget, hm, hs, *work, np.zeros(26 * ng + 27, i32),
        np.zeros((ng + 1, 4), np.int64))
    _, _, ref_hm, ref_hs = (np.array(a) for a in naive.weighted_enumeration(sizes, rows))
    ref_hm = (ref_hm[:, :m_hi + 1] > 0).any(axis=1)
    ref_hs = (ref_hs[:, :m_hi + 1] > 0).any(axis=1)
    if not ref_hm.any() and not ref_hs.any():
        assert nodes in (-1, -2) or unresolved > 0 or (not hm.any() and not hs.any())
        return
    if nodes == -2:
        pytest.fail("a solvable system was called contradictory")
    if nodes >= 0:
        # sound: a group called safe (no mine anywhere) or mine is one, in every case
        assert (hm.astype(bool) >= ref_hm).all() and (hs.astype(bool) >= ref_hs).all()
        if unresolved == 0:
            assert hm.astype(bool).tolist() == ref_hm.tolist()
            assert hs.astype(bool).tolist() == ref_hs.tolist()
