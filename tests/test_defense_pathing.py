"""Distance fields, routes and cut cells against the plain-Python references."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from levelforge import ConfigError
from levelforge.defense import cut_cells, distance_field, route

import naive_defense as naive


def _case(seed, max_side=10):
    rng = np.random.default_rng(seed)
    h, w = (int(v) for v in rng.integers(1, max_side + 1, size=2))
    blocked = rng.random((h, w)) < rng.random() * 0.45
    free = np.argwhere(~blocked)
    if len(free) == 0:
        blocked[0, 0] = False
        free = np.argwhere(~blocked)
    ty, tx = free[rng.integers(len(free))]
    return rng, blocked, (int(tx), int(ty))


def _blocked_set(blocked):
    return {(int(x), int(y)) for y, x in np.argwhere(blocked)}


@pytest.mark.parametrize("case", range(150))
def test_distance_field_matches_plain_bfs(case):
    _, blocked, target = _case(case)
    h, w = blocked.shape
    expected = naive.distance_grid(_blocked_set(blocked) - {target}, w, h, target)
    assert distance_field(blocked, target).tolist() == expected


@pytest.mark.parametrize("case", range(150))
def test_route_follows_smallest_distance_up_left_right_down(case):
    rng, blocked, target = _case(1000 + case)
    h, w = blocked.shape
    bset = _blocked_set(blocked) - {target}
    for _ in range(3):
        start = (int(rng.integers(w)), int(rng.integers(h)))
        if start in bset:
            continue
        assert route(blocked, target, start) == naive.route(bset, w, h, target, start)


@pytest.mark.parametrize("case", range(150))
def test_cut_cells_match_one_bfs_per_cell(case):
    rng, blocked, target = _case(2000 + case, max_side=9)
    h, w = blocked.shape
    bset = _blocked_set(blocked) - {target}
    n_src = int(rng.integers(1, 4))
    sources = [(int(rng.integers(w)), int(rng.integers(h))) for _ in range(n_src)]
    sources = [s for s in sources if s not in bset] or [target]
    got = cut_cells(blocked, target, sources)
    expected = naive.cut_cells(bset, w, h, target, sources)
    assert {(int(x), int(y)) for y, x in np.argwhere(got)} == expected


@given(st.integers(2, 40), st.integers(2, 40), st.integers(0, 2**32 - 1))
@settings(max_examples=40, deadline=None)
def test_cut_cells_property_blocking_a_non_cut_cell_keeps_every_source_connected(h, w, seed):
    rng = np.random.default_rng(seed)
    blocked = rng.random((h, w)) < 0.3
    blocked[0, 0] = blocked[h - 1, w - 1] = blocked[0, w - 1] = False
    target, sources = (0, 0), [(w - 1, h - 1), (w - 1, 0)]
    dist = distance_field(blocked, target)
    cut = cut_cells(blocked, target, sources)
    live = [s for s in sources if dist[s[1], s[0]] >= 0]
    for y, x in np.argwhere((dist > 0) & ~cut)[:20]:
        b = blocked.copy()
        b[y, x] = True
        d2 = distance_field(b, target)
        assert all(d2[sy, sx] >= 0 for sx, sy in live)
    for y, x in np.argwhere(cut)[:20]:
        b = blocked.copy()
        b[y, x] = True
        d2 = distance_field(b, target)
        assert any(d2[sy, sx] < 0 for sx, sy in live)


def test_cut_cells_on_a_corridor_are_every_cell_but_the_target():
    blocked = np.zeros((1, 6), bool)
    assert cut_cells(blocked, (0, 0), [(5, 0)]).tolist() == [[False] + [True] * 5]


def test_route_of_an_unreachable_start_is_empty():
    blocked = np.array([[0, 1, 0]])
    assert route(blocked, (0, 0), (2, 0)) == []


@pytest.mark.parametrize("bad", [np.zeros(5), np.zeros((0, 3)), np.zeros((2, 2), float)])
def test_pathing_rejects_bad_grids(bad):
    with pytest.raises(ConfigError):
        distance_field(bad, (0, 0))


@pytest.mark.parametrize("target", [(3, 0), (0, -1), "ab", None])
def test_pathing_rejects_bad_cells(target):
    with pytest.raises(ConfigError):
        distance_field(np.zeros((2, 3), bool), target)
