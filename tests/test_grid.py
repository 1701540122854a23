import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from levelforge.engine import grid
from levelforge.seeding import item_seed, kernel_seed, check_seed
from levelforge import ConfigError

from naive_grid import bfs_distance as naive_bfs, neighbours as naive_neighbours


def _random_grid(rng, h, w, p):
    blocked = (rng.random(h * w) < p).astype(np.uint8)
    return blocked


@pytest.mark.parametrize("case", range(200))
def test_bfs_distance_matches_naive(case):
    rng = np.random.default_rng(case)
    h, w = rng.integers(1, 12, size=2)
    blocked = _random_grid(rng, h, w, rng.random() * 0.5)
    target = int(rng.integers(h * w))
    dist = np.empty(h * w, np.int32)
    queue = np.empty(h * w, np.int32)
    pad = np.empty((h + 2) * (w + 2), np.int32)
    reached = grid.bfs_distance(blocked, w, target, dist, pad, queue)
    expected = naive_bfs([bool(b) and i != target for i, b in enumerate(blocked)], w, target)
    assert dist.tolist() == expected
    assert reached == sum(d >= 0 for d in expected)


@pytest.mark.parametrize("case", range(100))
def test_flood_fill_reuses_stamp_and_matches_bfs(case):
    rng = np.random.default_rng(1000 + case)
    h, w = rng.integers(3, 12, size=2)
    stamp = np.zeros(h * w, np.int64)
    queue = np.empty(h * w, np.int32)
    for epoch in range(1, 4):  # same stamp array, new epoch: no clearing needed
        blocked = _random_grid(rng, h, w, 0.3).reshape(h, w)
        blocked[[0, -1], :] = 1  # an enclosed board: the region never meets the edge
        blocked[:, [0, -1]] = 1
        blocked = blocked.ravel()
        free = np.flatnonzero(blocked == 0)
        if free.size == 0:
            continue
        start = int(rng.choice(free))
        n = grid.flood_fill(blocked, w, start, stamp, epoch, queue)
        expected = {i for i, d in enumerate(naive_bfs(blocked.astype(bool).tolist(), w, start))
                    if d >= 0}
        assert set(queue[:n].tolist()) == expected
        assert queue[0] == start
        assert set(np.flatnonzero(stamp == epoch).tolist()) == expected


@pytest.mark.parametrize("shape", [(7,), (4, 5), (3, 4, 2), (1, 1, 3)])
@pytest.mark.parametrize("diagonal", [False, True])
def test_box_neighbours_matches_naive(shape, diagonal):
    table = grid.box_neighbours(shape, diagonal)
    for cell, expected in enumerate(naive_neighbours(shape, diagonal)):
        row = table[cell]
        assert set(row[row >= 0].tolist()) == expected
        assert len(row[row >= 0]) == len(expected)


def test_box_neighbours_face_order_is_up_left_right_down():
    table = grid.box_neighbours((3, 3), diagonal=False)
    assert table[4].tolist() == [1, 3, 5, 7]


def test_rng_is_deterministic_and_uniform():
    a = np.array([kernel_seed(7)], np.uint64)
    b = np.array([kernel_seed(7)], np.uint64)
    xs = [grid.rng_below(a, 6) for _ in range(6000)]
    assert xs == [grid.rng_below(b, 6) for _ in range(6000)]
    counts = np.bincount(xs, minlength=6)
    # chi-square with 5 degrees of freedom; 20.5 is the 99.9th percentile
    chi2 = ((counts - 1000) ** 2 / 1000).sum()
    assert chi2 < 20.5
    floats = [grid.rng_random(a) for _ in range(1000)]
    assert 0.0 <= min(floats) and max(floats) < 1.0


@given(st.integers(1, 50), st.data(), st.integers(0, 2**63 - 1))
@settings(max_examples=50, deadline=None)
def test_rng_choose_keeps_a_permutation_and_leaves_the_tail_unchosen(n, data, seed):
    k = data.draw(st.integers(0, n))
    a = np.arange(n + 3, dtype=np.int64)
    state = np.array([kernel_seed(seed)], np.uint64)
    grid.rng_choose(state, a, n, k)
    assert sorted(a[:n].tolist()) == list(range(n)) and a[n:].tolist() == [n, n + 1, n + 2]


def test_rng_choose_picks_every_subset_equally_often():
    counts = {}
    state = np.array([kernel_seed(3)], np.uint64)
    for _ in range(6000):  # 2 of 4: six subsets, 1000 expected each
        a = np.arange(4, dtype=np.int64)
        grid.rng_choose(state, a, 4, 2)
        key = tuple(sorted(a[:2].tolist()))
        counts[key] = counts.get(key, 0) + 1
    assert len(counts) == 6
    chi2 = sum((c - 1000) ** 2 / 1000 for c in counts.values())
    assert chi2 < 20.5  # 5 degrees of freedom, 99.9th percentile


def test_item_seeds_are_stable_and_distinct():
    seeds = [item_seed(123, i) for i in range(1000)]
    assert len(set(seeds)) == 1000
    assert all(0 <= s < 2**63 for s in seeds)
    assert seeds[:3] == [item_seed(123, i) for i in range(3)]


@pytest.mark.parametrize("bad", [-1, 2**63, 1.5, "3", True, None])
def test_check_seed_rejects_bad_seeds(bad):
    with pytest.raises(ConfigError):
        check_seed(bad)


def _naive_ring_runs(open_cells):
    """Runs of open cells around the ring (8 booleans, clockwise from up) that contain an
    orthogonal neighbour (even index); 1 when the whole ring is open."""
    if all(open_cells):
        return 1
    start = open_cells.index(False)
    order = [open_cells[(start + j) % 8] for j in range(1, 9)]
    idx = [(start + j) % 8 for j in range(1, 9)]
    runs, run = 0, []
    for k, is_open in zip(idx, order):
        if is_open:
            run.append(k)
        else:
            runs += any(i % 2 == 0 for i in run)
            run = []
    return runs


def test_ring_runs_counts_every_neighbourhood_as_the_naive_rule():
    from levelforge.engine.grid import ring_runs
    width = 3
    offsets = (-width, -width + 1, 1, width + 1, width, width - 1, -1, -width - 1)
    for mask in range(256):  # every ring of eight around the centre of a 3x3 board
        blk = np.zeros(9, np.uint8)
        open_cells = [(mask >> k) & 1 == 0 for k in range(8)]
        for k in range(8):
            blk[4 + offsets[k]] = 0 if open_cells[k] else 1
        assert ring_runs(blk, width, 4) == _naive_ring_runs(open_cells), mask


def test_outside_min_is_the_smallest_cell_reached_around_a_region():
    from levelforge.engine.grid import outside_min
    rng = np.random.default_rng(5)
    width = 9
    for _ in range(200):
        blk = (rng.random(width * width) < 0.3).astype(np.uint8)
        blk[:width] = blk[-width:] = blk[::width] = blk[width - 1::width] = 1
        stamp = np.where(rng.random(width * width) < 0.3, 7, 0).astype(np.int64)
        free = [c for c in range(width * width) if blk[c] == 0 and stamp[c] != 7]
        if not free:
            continue
        b = int(rng.choice(free))
        seen, todo = {b}, [b]  # plain breadth-first fill outside the region
        while todo:
            c = todo.pop()
            for nb in (c - width, c - 1, c + 1, c + width):
                if blk[nb] == 0 and stamp[nb] != 7 and nb not in seen:
                    seen.add(nb)
                    todo.append(nb)
        best = int(rng.integers(0, width * width))
        got = outside_min(blk, width, b, best, stamp, 7, np.zeros(width * width, np.int64), 1,
                          np.zeros(width * width, np.int32))
        assert got == min(best, *seen)
