"""Sokoban backward search kernel: a breadth-first search over *pulls* from the solved
state, the search behind the farthest-state generator
(:mod:`levelforge.sokoban.farthest`).

A pull is a push played backwards (the player steps back, the box follows into the cell
the player left), so a breadth-first search over pulls started from every solved state
(the boxes on the goals, the player in each region of the free cells) meets every state
at its exact push-optimal distance to solved. States are kept in the order they are met,
so the depths are non-decreasing and each depth is one run of node indices. Capped at
``cap`` states, the search still gives exact distances for every state it met; only the
states past the cap are missing.

Kept apart from the solver and the pull generator's kernels, so a process that does not
ask for farthest-state generation never compiles it. Boards are flat, enclosed arrays of
``height * width`` cells (see :mod:`levelforge.engine.sokoban`).
"""
import numpy as np
from numba import njit

from .grid import flood_fill, outside_min, ring_runs

COMPLETE = 1  # the whole pull space was searched
CAPPED = 2    # the cap was reached: the states met have exact depths, others are missing
DEEP = 3      # stopped at max_depth: every state up to that depth was met, none deeper
BEAM = 4      # a beam search cut layers: depths are pull-path lengths (upper bounds)
HALTED = 5    # out[HALT] was set (a time limit or a cancel): the search is incomplete
HALT = 8      # the slot of ``out`` a watchdog sets to stop the search


@njit(cache=True, _nrt=False)
def _key(pool, base, nbox, norm, zob):
    key = zob[1, norm]
    for i in range(nbox):
        key ^= zob[0, pool[base + i]]
    return key


@njit(cache=True, _nrt=False)
def _lookup(pool, nplayer, nbox, table, mask, zob, wbox, norm):
    """The slot of the state (sorted boxes ``wbox``, normalised player ``norm``) in the
    first ``mask + 1`` slots of the open-addressing ``table`` (entries: 31 bits of the
    state's key above the node index + 1, 0 empty) and the node index stored there, -1
    if the state is new (the slot is then the free slot to use), and the entry's tag."""
    key = _key(wbox, 0, nbox, norm, zob)
    tag = np.int64(key >> np.uint64(33)) << 32
    slot = np.int64(key & np.uint64(mask))
    while True:
        e = table[slot]
        if e == 0:
            return slot, np.int64(-1), tag
        if (e >> 32) << 32 == tag:
            j = (e & 0xFFFFFFFF) - 1
            if nplayer[j] == norm:
                same = True
                base = j * nbox
                for i in range(nbox):
                    if pool[base + i] != wbox[i]:
                        same = False
                        break
                if same:
                    return slot, j, tag
        slot = (slot + 1) & mask


@njit(cache=True, _nrt=False)
def _insert(pool, nplayer, nbox, table, mask, zob, j):
    """Put node ``j`` into the first ``mask + 1`` slots of ``table`` (see :func:`_lookup`)."""
    key = _key(pool, j * nbox, nbox, nplayer[j], zob)
    slot = np.int64(key & np.uint64(mask))
    while table[slot] != 0:
        slot = (slot + 1) & mask
    table[slot] = (np.int64(key >> np.uint64(33)) << 32) | (j + 1)


@njit(cache=True, _nrt=False)
def _rehash(pool, nplayer, nbox, table, size, zob, count):
    """Clear the first ``size`` slots of ``table`` and insert nodes ``0 .. count - 1``."""
    for i in range(size):
        table[i] = 0
    for j in range(count):
        _insert(pool, nplayer, nbox, table, size - 1, zob, j)


@njit(cache=True, _nrt=False)
def _region_min(blk, width, start, stamp, epoch, queue):
    m = flood_fill(blk, width, start, stamp, epoch, queue)
    best = queue[0]
    for i in range(1, m):
        if queue[i] < best:
            best = queue[i]
    return best


@njit(cache=True, _nrt=False)
def _pull_norm(blk, width, b, p, q, pnorm, stamp, epoch, stamp2, epoch2, queue2):
    """The smallest cell of the player's region after the pull that moves the box from
    ``b`` to ``p`` and the player to ``q`` (``blk`` is the child's board: ``b`` open, ``p``
    blocked; ``stamp == epoch`` marks the parent's region ``R``, smallest cell ``pnorm``).

    When the open cells around ``p`` that touch it form one run of its ring of eight
    cells, blocking ``p`` splits nothing and ``b`` joins the rest of ``R`` along that run:
    the child's region is ``R - {p}`` plus ``b`` and the open cells outside ``R`` joined
    through ``b`` (a fill of those only). Otherwise, or when ``p`` was ``R``'s smallest
    cell, a fill of the whole region."""
    if p == pnorm:
        return _region_min(blk, width, q, stamp2, epoch2, queue2)
    if ring_runs(blk, width, p) > 1:
        return _region_min(blk, width, q, stamp2, epoch2, queue2)
    return outside_min(blk, width, b, pnorm, stamp, epoch, stamp2, epoch2, queue2)


@njit(cache=True, _nrt=False)
def _replaced(pool, base, nbox, b, p, wbox):
    """Write into ``wbox`` the sorted boxes ``pool[base:base + nbox]`` with ``b``
    replaced by ``p`` (a pull's child)."""
    k = 0
    placed = False
    for r in range(nbox):
        v = np.int64(pool[base + r])
        if v == b:
            continue
        if not placed and p < v:
            wbox[k] = p
            k += 1
            placed = True
        wbox[k] = v
        k += 1
    if not placed:
        wbox[k] = p


@njit(cache=True, _nrt=False)
def _expand(u, walls, nbox, width, limit, zob, pool, nplayer, depth, table, meta, blk,
            stamp, queue, stamp2, queue2, wbox):
    """Store the new states one pull away from node ``u`` while fewer than ``limit``
    nodes are stored (``meta``: [0] node count, [1] table prefix size, [2] fill epoch of
    ``stamp``, [3] of ``stamp2``). Returns True when a new state was left out."""
    steps = (-width, -1, 1, width)  # cell offsets up, left, right, down
    base = u * nbox
    for i in range(nbox):
        blk[pool[base + i]] = 1
    meta[2] += 1
    epoch = meta[2]
    flood_fill(blk, width, np.int64(nplayer[u]), stamp, epoch, queue)
    du = depth[u] + 1
    left_out = False
    # pulls: the player on p next to the box b steps on to p + s, b follows to p
    for i in range(nbox):
        b = np.int64(pool[base + i])
        for d in range(4):
            s = steps[d]
            p = b + s
            q = p + s
            if stamp[p] != epoch or blk[q]:
                continue
            _replaced(pool, base, nbox, b, p, wbox)
            blk[b] = 0
            blk[p] = 1
            meta[3] += 1
            norm = _pull_norm(blk, width, b, p, q, np.int64(nplayer[u]), stamp, epoch,
                              stamp2, meta[3], queue2)
            blk[p] = 0
            blk[b] = 1
            mask = meta[1] - 1
            slot, j, tag = _lookup(pool, nplayer, nbox, table, mask, zob, wbox, norm)
            if j >= 0:
                continue
            count = meta[0]
            if count >= limit:
                left_out = True
                break
            jb = count * nbox
            for r in range(nbox):
                pool[jb + r] = wbox[r]
            nplayer[count] = norm
            depth[count] = du
            table[slot] = tag | (count + 1)
            count += 1
            meta[0] = count
            if 2 * count > meta[1] and 2 * meta[1] <= table.shape[0]:
                meta[1] *= 2
                _rehash(pool, nplayer, nbox, table, meta[1], zob, count)
        if left_out:
            break
    for i in range(nbox):
        blk[pool[base + i]] = 0
    return left_out


@njit(cache=True, _nrt=False, nogil=True)
def pull_bfs(walls, goal_cells, nbox, width, cap, max_depth, beam, celld, order, counts,
             zob, pool, nplayer, depth, table, blk, stamp, queue, stamp2, queue2, wbox,
             out):
    """Breadth-first search over pulls from the solved state of the board ``walls`` with
    boxes on ``goal_cells[:nbox]``.

    Fills node ``j`` (``j < count``): its sorted box cells ``pool[j * nbox:(j + 1) *
    nbox]`` (int16), its player region by the region's smallest cell ``nplayer[j]`` and
    its depth ``depth[j]`` (int16, non-decreasing in ``j``): the push-optimal distance
    to solved. States deeper than ``max_depth`` are not searched. ``table`` is an int64
    power-of-two table of at least ``2 * cap`` slots (the search uses a prefix that
    doubles as it grows, so a small search touches little memory); ``blk`` (uint8),
    ``stamp``, ``stamp2`` (int64), ``queue`` and ``queue2`` (int32) hold one slot per
    cell, ``wbox`` (int16) ``nbox``.

    ``beam > 0`` makes it a beam search for spaces too big to search whole: each layer
    keeps at most ``beam`` new states, met by expanding the layer before in order of a
    score (the sum of ``celld``, int32 per cell, over the boxes: with ``celld`` a lone
    box's push distance to its nearest goal, a lower bound of the distance), highest
    first (``order``: int64, ``cap`` slots; ``counts``: int64, one slot per score, the
    last one for all higher scores). A depth is then the length of a pull path: an upper
    bound of the distance, proved by the solver afterwards.

    Writes ``out[0]`` = count, ``out[1]`` = :data:`COMPLETE` (the whole pull space),
    :data:`CAPPED` (``cap`` reached), :data:`DEEP` (stopped at ``max_depth``) or
    :data:`BEAM` (a layer was cut to the beam) or :data:`HALTED` (``out[HALT]`` was
    set, by a watchdog while the kernel runs without the GIL: looked at before each
    expansion), ``out[2]`` = expanded states; returns the count."""
    n = walls.shape[0]
    for c in range(n):
        blk[c] = walls[c]
        stamp[c] = 0
        stamp2[c] = 0
    # the goals, sorted, with a box on each
    for i in range(nbox):
        v = np.int16(goal_cells[i])
        j = i
        while j > 0 and wbox[j - 1] > v:
            wbox[j] = wbox[j - 1]
            j -= 1
        wbox[j] = v
    for i in range(nbox):
        blk[wbox[i]] = 1
    count = np.int64(0)
    epoch = np.int64(1)
    size = min(np.int64(1024), np.int64(table.shape[0]))
    _rehash(pool, nplayer, nbox, table, size, zob, count)
    # one solved state per region of the free cells (scanning up: the first cell met of
    # a region is its smallest)
    for c in range(n):
        if blk[c] or stamp[c] == epoch:
            continue
        flood_fill(blk, width, np.int64(c), stamp, epoch, queue)
        if count < cap:
            slot, _, tag = _lookup(pool, nplayer, nbox, table, size - 1, zob, wbox, c)
            for i in range(nbox):
                pool[count * nbox + i] = wbox[i]
            nplayer[count] = c
            depth[count] = 0
            table[slot] = tag | (count + 1)
            count += 1
    for i in range(nbox):
        blk[wbox[i]] = 0
    meta = out[4:8]  # node count, table prefix size, the two fill epochs
    meta[0] = count
    meta[1] = size
    meta[2] = epoch
    meta[3] = 0
    status = COMPLETE
    expanded = np.int64(0)
    if beam <= 0:
        head = np.int64(0)
        while head < meta[0]:
            if out[HALT] != 0:
                status = HALTED
                break
            if depth[head] >= max_depth:
                status = DEEP
                break
            expanded += 1
            if _expand(head, walls, nbox, width, cap, zob, pool, nplayer, depth, table,
                       meta, blk, stamp, queue, stamp2, queue2, wbox):
                status = CAPPED
                break
            head += 1
    else:
        top = counts.shape[0] - 1
        start = np.int64(0)
        end = meta[0]
        while start < end:
            if depth[start] >= max_depth:
                status = DEEP
                break
            # the layer in order of score, highest first (a counting sort)
            for k in range(top + 1):
                counts[k] = 0
            for j in range(start, end):
                sc = np.int64(0)
                for i in range(nbox):
                    sc += celld[pool[j * nbox + i]]
                counts[min(sc, top)] += 1
            pos = np.int64(0)
            for k in range(top, -1, -1):
                c = counts[k]
                counts[k] = pos
                pos += c
            for j in range(start, end):
                sc = np.int64(0)
                for i in range(nbox):
                    sc += celld[pool[j * nbox + i]]
                sc = min(sc, top)
                order[counts[sc]] = j
                counts[sc] += 1
            limit = min(cap, end + beam)
            cut = False
            for k in range(end - start):
                if out[HALT] != 0:
                    break
                expanded += 1
                if _expand(order[k], walls, nbox, width, limit, zob, pool, nplayer, depth,
                           table, meta, blk, stamp, queue, stamp2, queue2, wbox):
                    cut = True
                    break
            if out[HALT] != 0:
                status = HALTED
                break
            if cut:
                if meta[0] >= cap:
                    status = CAPPED
                    break
                status = BEAM
            start = end
            end = meta[0]
    out[0] = meta[0]
    out[1] = status
    out[2] = expanded
    return meta[0]
