"""Kernels several systems share: the PRNG, flood fill, BFS distance field.

Grids are flat arrays of ``height * width`` cells, cell ``i = y * width + x``.
Neighbours are visited in the fixed order up, left, right, down.
"""
import numpy as np
from numba import njit

# splitmix64 constants
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)
_S11 = np.uint64(11)
_TWO53 = 1.0 / 9007199254740992.0


@njit(cache=True)
def rng_next(state):
    """Advance ``state`` (uint64[1]) and return the next 64-bit output (splitmix64)."""
    state[0] += _GOLDEN
    z = state[0]
    z = (z ^ (z >> _S30)) * _MIX1
    z = (z ^ (z >> _S27)) * _MIX2
    return z ^ (z >> _S31)


@njit(cache=True)
def rng_below(state, n):
    """A uniform integer in ``[0, n)`` for ``n >= 1`` (rejection sampling, no modulo bias)."""
    un = np.uint64(n)
    limit = np.uint64(0xFFFFFFFFFFFFFFFF) - (np.uint64(0xFFFFFFFFFFFFFFFF) % un)
    while True:
        r = rng_next(state)
        if r < limit:
            return np.int64(r % un)


@njit(cache=True)
def rng_random(state):
    """A uniform float in ``[0, 1)`` with 53 random bits."""
    return np.float64(rng_next(state) >> _S11) * _TWO53


@njit(cache=True)
def rng_choose(state, a, n, k):
    """Move a uniform random ``k``-subset of ``a[:n]`` into ``a[:k]``, in random order
    (the first ``k`` steps of a Fisher-Yates shuffle; ``k = n`` shuffles all of it)."""
    for i in range(k):
        j = i + rng_below(state, n - i)
        t = a[i]
        a[i] = a[j]
        a[j] = t


@njit(cache=True)
def flood_fill(blocked, width, start, stamp, epoch, queue):
    """Mark every cell 4-connected to ``start`` through unblocked cells.

    The region must not touch the grid's edge (a Sokoban board enclosed by walls, or any
    grid with a blocked border), so the inner loop needs no bounds checks. ``stamp`` is a
    reusable visited array: a cell is visited when ``stamp[c] == epoch``, so a new fill
    only needs a new epoch, never a clear. On return ``queue[:n]`` holds the ``n``
    reached cells in BFS order (``start`` first, neighbours up, left, right, down).
    ``start`` must be unblocked.
    """
    stamp[start] = epoch
    queue[0] = start
    head = 0
    tail = 1
    while head < tail:
        c = queue[head]
        head += 1
        for nb in (c - width, c - 1, c + 1, c + width):
            if not blocked[nb] and stamp[nb] != epoch:
                stamp[nb] = epoch
                queue[tail] = nb
                tail += 1
    return tail


@njit(cache=True)
def bfs_distance(blocked, width, target, dist, pad, queue):
    """Breadth-first distance (4-neighbour steps) from ``target`` to every cell.

    Fills ``dist`` (int32, one per cell) with the step count, -1 where unreachable or
    blocked; the target itself counts as free even if ``blocked`` marks it. Runs on
    ``pad``, an int32 work array of ``(height + 2) * (width + 2)`` cells with a blocked
    border (-2 blocked, -1 unvisited), so the inner loop has no bounds checks and one load
    per neighbour. ``queue``: int32 work array, one slot per cell.
    Returns the number of cells reached.
    """
    n = blocked.shape[0]
    h = n // width
    pw = width + 2
    for i in range(pw):
        pad[i] = -2
        pad[(h + 1) * pw + i] = -2
    for y in range(h):
        row = (y + 1) * pw
        pad[row] = -2
        pad[row + pw - 1] = -2
        src = y * width
        for x in range(width):
            pad[row + 1 + x] = -2 if blocked[src + x] else -1
    t = (target // width + 1) * pw + target % width + 1
    pad[t] = 0
    queue[0] = t
    head = 0
    tail = 1
    while head < tail:
        c = queue[head]
        head += 1
        d = pad[c] + 1
        nb = c - pw
        if pad[nb] == -1:
            pad[nb] = d
            queue[tail] = nb
            tail += 1
        nb = c - 1
        if pad[nb] == -1:
            pad[nb] = d
            queue[tail] = nb
            tail += 1
        nb = c + 1
        if pad[nb] == -1:
            pad[nb] = d
            queue[tail] = nb
            tail += 1
        nb = c + pw
        if pad[nb] == -1:
            pad[nb] = d
            queue[tail] = nb
            tail += 1
    for y in range(h):
        row = (y + 1) * pw + 1
        src = y * width
        for x in range(width):
            v = pad[row + x]
            dist[src + x] = v if v >= 0 else -1
    return tail



def box_neighbours(shape, diagonal):
    """Neighbour table of a box grid of 1 to 3 dimensions (not a kernel: built once).

    Returns int32 ``[n_cells, k]`` of flat neighbour indices (C order), -1 past the edge.
    ``diagonal=False`` gives face neighbours (2 per axis); ``True`` gives every cell that
    differs by at most 1 on each axis (8 in 2-D, 26 in 3-D). Order: offsets in C order
    of the displacement vector, e.g. in 2-D up, left, right, down for face neighbours.
    """
    shape = tuple(int(s) for s in shape)
    ndim = len(shape)
    grids = np.indices((3,) * ndim).reshape(ndim, -1).T - 1
    keep = np.abs(grids).sum(axis=1) > 0
    if not diagonal:
        keep &= np.abs(grids).sum(axis=1) == 1
    offsets = grids[keep]
    coords = np.indices(shape).reshape(ndim, -1).T
    table = np.full((coords.shape[0], offsets.shape[0]), -1, dtype=np.int32)
    for k, off in enumerate(offsets):
        nb = coords + off
        inside = np.all((nb >= 0) & (nb < np.array(shape)), axis=1)
        flat = np.ravel_multi_index(tuple(nb[inside].T), shape)
        table[inside, k] = flat
    return table


@njit(cache=True, _nrt=False)
def ring_runs(blk, width, c):
    """How many runs of open cells (``blk == 0``) the ring of eight cells around ``c``
    holds that contain one of its four orthogonal neighbours, or 1 when the whole ring is
    open. At most 1 means that blocking ``c`` cannot split the open cells around it: every
    path through ``c`` can go round it (the cheap test of the searches' player regions)."""
    # the eight cells around a cell, in cyclic order from up, clockwise
    ring = (-width, -width + 1, 1, width + 1, width, width - 1, -1, -width - 1)
    start = -1
    for k in range(8):
        if blk[c + ring[k]] != 0:
            start = k
            break
    if start < 0:
        return 1
    runs = 0
    open_run = False
    has4 = False
    for j in range(1, 9):
        k = (start + j) & 7
        if blk[c + ring[k]] == 0:
            if not open_run:
                open_run = True
                has4 = False
            if (k & 1) == 0:
                has4 = True
        else:
            if open_run and has4:
                runs += 1
            open_run = False
    return runs


@njit(cache=True, _nrt=False)
def outside_min(blk, width, b, best, stamp, epoch, stamp2, epoch2, queue2):
    """The smallest of ``best`` and the open cells (``blk == 0``) reached from ``b``
    without entering the region ``stamp == epoch``: a fill of those cells only, marked
    ``stamp2 == epoch2`` (``b`` included), queued in ``queue2``. The searches use it for
    the player region after a push or pull that left the region whole."""
    steps = (-width, -1, 1, width)  # cell offsets up, left, right, down
    stamp2[b] = epoch2
    queue2[0] = b
    head = 0
    tail = 1
    while head < tail:
        c = queue2[head]
        head += 1
        if c < best:
            best = c
        for d in range(4):
            nb = c + steps[d]
            if blk[nb] == 0 and stamp[nb] != epoch and stamp2[nb] != epoch2:
                stamp2[nb] = epoch2
                queue2[tail] = nb
                tail += 1
    return best
