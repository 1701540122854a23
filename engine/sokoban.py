"""Sokoban solver kernels: dead squares, push distances, freeze deadlocks, PI-corrals,
the best-first search over pushes (A*, weighted A*, greedy) and solution reconstruction.
The reverse-play generator is in :mod:`levelforge.engine.sokoban_generator`.

Boards are flat arrays of ``height * width`` cells (cell ``i = y * width + x``). Every
kernel assumes an *enclosed* board: each non-wall cell has all four neighbours inside
the grid (the API masks every cell the player cannot reach as a wall before calling).
Directions are numbered 0..3 = up, left, right, down (LURD letters ``u l r d``).

A search state is the sorted box cells plus the player's reachable region, normalised
to the smallest cell of the region. The search lives in preallocated arrays (a node
pool, a binary heap of packed keys, an open-addressing transposition table keyed by a
Zobrist hash, each entry stamped with its search generation, so a new search never
clears anything).
"""
import numpy as np
from numba import njit

from .grid import flood_fill

UNREACHABLE = 1 << 24  # push distance of a cell from which a goal cannot be reached
_BIG = np.int64(1) << 50
MAX_G = 32767  # pushes and f values must fit 15 bits of the packed heap key
# a transposition-table entry packs (search generation, hash fingerprint, node index)
_T_NODE_BITS = 26
_T_NODE_MASK = (np.int64(1) << _T_NODE_BITS) - 1
_T_FP_MASK = ((np.int64(1) << 14) - 1) << _T_NODE_BITS
_T_GEN_SHIFT = 40
MAX_GENERATION = (1 << 23) - 1  # then the table is cleared and generations restart

# counter slots of ``ctr`` (int64[16])
C_NODES = 0      # nodes stored in the pool
C_HEAP = 1       # entries in the heap
C_TEPOCH = 2     # transposition-table generation
C_FILL = 3       # flood-fill epoch of ``stamp``
C_FILL2 = 4      # flood-fill epoch of ``stamp2``
C_GOAL = 5       # node index of the solved state, -1 before
C_EXPANDED = 6   # expanded nodes
C_STATUS = 7     # RUNNING / SOLVED / UNSOLVABLE / LIMIT
C_BOXES = 8      # box count of the running search
C_CAP = 9        # node cap of the running search
C_START = 10     # the player's actual start cell (for reconstruction)
C_WEIGHT = 11    # priority of the running search: 1 A*, w > 1 weighted A*, 0 greedy
C_STAGE = 12     # set by the caller: 0, or m > 0 for a packing stage (see _any_h)
N_COUNTERS = 16

RUNNING = 0
SOLVED = 1
UNSOLVABLE = 2
LIMIT = 3
GROW = 4  # search_run only: the node pool, heap or table needs more room (status unchanged)
PACK_PENALTY = 2  # pushes added to h per goal not yet packed (searches for any solution)

_LOWER = np.array([ord("u"), ord("l"), ord("r"), ord("d")], dtype=np.uint8)
_UPPER = np.array([ord("U"), ord("L"), ord("R"), ord("D")], dtype=np.uint8)


# --------------------------------------------------------------------------- board analysis

@njit(cache=True, _nrt=False)
def push_distances(walls, goal_cells, width, dist, dead, sides, lab, compof):
    """Push distance of every cell to every goal, and the dead squares.

    ``dist[k, 4 * c + s]`` is the least number of pushes that bring a lone box from
    ``c`` onto goal ``goal_cells[k]`` with the player next to it on side ``s`` (other
    boxes ignored; the player walks around the box between pushes), ``UNREACHABLE`` if
    none: a breadth-first search of *pulls* from the goal over (box cell, player side)
    states. Sides the player can walk between share one distance.
    ``dead[c]`` is 1 for non-wall cells from which no goal is reachable by pushing (this
    covers dead corners), 0 elsewhere. ``sides`` is an int32 work array of ``12 * n``
    slots, ``lab`` an int64 work array of ``n``; ``compof`` (int8, ``n * n`` slots)
    receives the side components.

    Side components first: which sides of a box the player can walk between. With only
    the box on ``b`` blocking, ``comp[4 * b + k]`` is the smallest side index ``k'``
    whose neighbour cell is connected to side ``k``'s neighbour, -1 where that neighbour
    is a wall; ``compof[b * n + c]`` is that side index for the component holding cell
    ``c`` (-1 when ``c`` touches no side of ``b``).
    """
    steps = (-width, -1, 1, width)  # cell offsets up, left, right, down
    n = walls.shape[0]
    comp = sides[:4 * n]
    sdist = sides[4 * n:8 * n]
    squeue = sides[8 * n:12 * n]
    for c in range(n):
        lab[c] = 0
    for b in range(n):
        for k in range(4):
            comp[4 * b + k] = -1
        rb = b * n
        for c in range(n):
            compof[rb + c] = -1
        if walls[b]:
            continue
        for k in range(4):
            start = b + steps[k]
            if walls[start]:
                continue
            mark = lab[start]
            if mark > 4 * b:  # filled from an earlier side of this same box
                comp[4 * b + k] = comp[4 * b + (mark - 4 * b - 1)]
                continue
            comp[4 * b + k] = k
            epoch = 4 * b + k + 1
            lab[start] = epoch
            squeue[0] = start
            head = 0
            tail = 1
            while head < tail:
                c = squeue[head]
                head += 1
                compof[rb + c] = k
                for d in range(4):
                    nb = c + steps[d]
                    if nb == b or walls[nb] or lab[nb] == epoch:
                        continue
                    lab[nb] = epoch
                    squeue[tail] = nb
                    tail += 1
    # then push distances: a BFS of pulls from each goal
    for c in range(n):
        dead[c] = 0 if walls[c] else 1
    for gi in range(goal_cells.shape[0]):
        for s in range(4 * n):
            sdist[s] = UNREACHABLE
        g = goal_cells[gi]
        tail = 0
        for k in range(4):
            if comp[4 * g + k] >= 0:
                sdist[4 * g + k] = 0
                squeue[tail] = 4 * g + k
                tail += 1
        head = 0
        while head < tail:
            st = squeue[head]
            head += 1
            b = st >> 2
            k = st & 3
            step = steps[k]
            b2 = b + step       # the box came from the player's cell ...
            if walls[b2 + step]:  # ... pushed by a player standing one further
                continue
            c = comp[4 * b2 + k]
            nd = sdist[st] + 1
            for k2 in range(4):
                s2 = 4 * b2 + k2
                if comp[s2] == c and sdist[s2] == UNREACHABLE:
                    sdist[s2] = nd
                    squeue[tail] = s2
                    tail += 1
        row = dist[gi]
        for s in range(4 * n):
            row[s] = sdist[s]
            if sdist[s] < UNREACHABLE:
                dead[s >> 2] = 0
        for k in range(4):
            row[4 * g + k] = 0
        dead[g] = 0


# --------------------------------------------------------------------------- heuristic

@njit(cache=True, _nrt=False)
def box_columns(boxes, nbox, player, compof, n, cols):
    """The distance column of each box for :func:`matching_cost`: ``4 * b + s`` where
    ``s`` is the side of box ``b`` the player reaches with ``b`` as the only obstacle
    (``compof``), or ``-(b + 1)`` (best side) when the player can reach no side of it.
    Admissible, since other boxes only block more; consistent, since until the box
    moves the player never leaves that component, and the pushed box's new side is
    where the player stands after the push."""
    for i in range(nbox):
        b = boxes[i]
        k = compof[b * n + player]
        cols[i] = 4 * b + k if k >= 0 else -(b + 1)


@njit(cache=True, _nrt=False)
def matching_cost(cols, nbox, dist, hu, hv, hp, hway, hminv, hused):
    """Minimum-cost perfect matching of boxes to goals (Hungarian method): box ``i``
    costs ``dist[goal, cols[i]]`` (see :func:`box_columns`; a negative column takes the
    best side). An admissible lower bound on the remaining pushes. Returns a value
    ``>= UNREACHABLE`` when no matching exists (the state is then a deadlock).
    Work arrays have ``nbox + 1`` slots each.
    """
    n = nbox
    for j in range(n + 1):
        hu[j] = 0
        hv[j] = 0
        hp[j] = 0
        hway[j] = 0
    for i in range(1, n + 1):
        hp[0] = i
        j0 = 0
        for j in range(n + 1):
            hminv[j] = _BIG
            hused[j] = 0
        while True:
            hused[j0] = 1
            i0 = hp[j0]
            delta = _BIG
            j1 = 0
            col = cols[i0 - 1]
            for j in range(1, n + 1):
                if hused[j] == 0:
                    if col >= 0:
                        cost = np.int64(dist[j - 1, col])
                    else:  # the best side of the box
                        b4 = 4 * (-col - 1)
                        cost = np.int64(dist[j - 1, b4])
                        for k in range(1, 4):
                            if dist[j - 1, b4 + k] < cost:
                                cost = np.int64(dist[j - 1, b4 + k])
                    cur = cost - hu[i0] - hv[j]
                    if cur < hminv[j]:
                        hminv[j] = cur
                        hway[j] = j0
                    if hminv[j] < delta:
                        delta = hminv[j]
                        j1 = j
            for j in range(n + 1):
                if hused[j]:
                    hu[hp[j]] += delta
                    hv[j] -= delta
                else:
                    hminv[j] -= delta
            j0 = j1
            if hp[j0] == 0:
                break
        while True:
            j1 = hway[j0]
            hp[j0] = hp[j1]
            j0 = j1
            if j0 == 0:
                break
    total = -hv[0]
    if total >= UNREACHABLE:
        return UNREACHABLE
    return total


# --------------------------------------------------------------------------- freeze deadlock

@njit(cache=True, _nrt=False)
def frozen_state(c0, walls, occ, dead, goals, tmp, width, fstack):
    """Freeze test of the box on ``c0``: 0 movable, 1 frozen (every frozen box involved on
    a goal), 2 frozen with a box off its goal (a deadlock).

    A box is frozen when it is blocked on both axes; an axis is blocked by a wall on
    either side, by dead squares on both sides, or by a frozen box on either side
    (tested recursively, with the boxes under test counted as walls). The recursion runs
    on the explicit stack ``fstack`` (int64, one frame per box, packed as
    ``cell * 64 + axis * 16 + stage * 4 + result``). ``tmp`` is a zeroed uint8 work
    array; it is zero again on return.
    """
    tmp[c0] = 1
    fstack[0] = np.int64(c0) * 64 + (1 if goals[c0] else 2)
    sp = 1
    ret = 0
    while sp > 0:
        fr = fstack[sp - 1]
        c = fr >> 6
        axis = (fr >> 4) & 1
        stage = (fr >> 2) & 3
        result = fr & 3
        s = 1 if axis == 0 else width
        a = c - s
        b = c + s
        child = -1
        blocked = 0
        if stage == 0:
            if walls[a] or walls[b] or tmp[a] or tmp[b] or (dead[a] and dead[b]):
                blocked = 1
            elif occ[a]:
                stage = 1
                child = a
            elif occ[b]:
                stage = 2
                child = b
        elif stage == 1:
            if ret:
                blocked = ret
            elif occ[b]:
                stage = 2
                child = b
        else:
            blocked = ret
        if child >= 0:
            fstack[sp - 1] = c * 64 + axis * 16 + stage * 4 + result
            tmp[child] = 1
            fstack[sp] = np.int64(child) * 64 + (1 if goals[child] else 2)
            sp += 1
            continue
        if blocked == 0:
            tmp[c] = 0
            sp -= 1
            ret = 0
            continue
        if blocked > result:
            result = blocked
        if axis == 0:
            fstack[sp - 1] = c * 64 + 16 + result
            continue
        tmp[c] = 0
        sp -= 1
        ret = result
    return ret


# --------------------------------------------------------------------------- heap

@njit(cache=True, _nrt=False)
def _key(g, h, weight, node):
    """The heap key of a node: its priority (``g + h`` for A*, ``g + weight * h``
    weighted, ``h`` greedy for weight 0), then larger ``g`` first, then the node."""
    f = h if weight == 0 else g + weight * h
    if f > 0xFFFF:  # far beyond any representable solution (MAX_G): keep it last
        f = 0xFFFF
    return (np.int64(f) << 47) | (np.int64(MAX_G - g) << 32) | np.int64(node)


@njit(cache=True, _nrt=False)
def _heap_push(heap, ctr, key):
    i = ctr[C_HEAP]
    ctr[C_HEAP] = i + 1
    while i > 0:
        parent = (i - 1) >> 1
        if heap[parent] <= key:
            break
        heap[i] = heap[parent]
        i = parent
    heap[i] = key


@njit(cache=True, _nrt=False)
def _heap_pop(heap, ctr):
    top = heap[0]
    n = ctr[C_HEAP] - 1
    ctr[C_HEAP] = n
    if n == 0:
        return top
    last = heap[n]
    i = 0
    while True:
        child = 2 * i + 1
        if child >= n:
            break
        if child + 1 < n and heap[child + 1] < heap[child]:
            child += 1
        if heap[child] >= last:
            break
        heap[i] = heap[child]
        i = child
    heap[i] = last
    return top


# --------------------------------------------------------------------------- search

@njit(cache=True, _nrt=False)
def _region_min(blk, width, start, stamp, ctr, slot, queue):
    ctr[slot] += 1
    m = flood_fill(blk, width, start, stamp, ctr[slot], queue)
    best = queue[0]
    for i in range(1, m):
        if queue[i] < best:
            best = queue[i]
    return best


@njit(cache=True, _nrt=False)
def _child_norm(blk, width, b, t, pnorm, stamp, epoch, stamp2, ctr, queue2):
    """The normalised player cell after the push ``b -> t`` without a flood fill of the
    whole region, or -1 when the cheap argument does not apply. ``blk`` is the child's
    board, ``stamp == epoch`` marks the parent's player region ``R`` (smallest cell
    ``pnorm``).

    Blocking ``t`` splits nothing when ``t`` was outside ``R``, or when the open
    neighbours of ``t`` all lie on one run of open cells of the ring of eight around it
    (every path through ``t`` can go round it). Then the child's region is ``R - {t}``
    plus the open cells outside ``R`` joined through ``b`` (a fill of those only, on
    ``stamp2``/``queue2``), and its smallest cell follows unless ``t == pnorm``."""
    # the eight cells around a cell, in cyclic order from up, clockwise
    ring = (-width, -width + 1, 1, width + 1, width, width - 1, -1, -width - 1)
    steps = (-width, -1, 1, width)  # cell offsets up, left, right, down
    if stamp[t] == epoch:
        if t == pnorm:
            return -1
        # count runs of open ring cells that contain an orthogonal neighbour
        start = -1
        for k in range(8):
            if blk[t + ring[k]] != 0:
                start = k
                break
        if start >= 0:
            runs = 0
            open_run = False
            has4 = False
            for j in range(1, 9):
                k = (start + j) & 7
                if blk[t + ring[k]] == 0:
                    if not open_run:
                        open_run = True
                        has4 = False
                    if (k & 1) == 0:
                        has4 = True
                else:
                    if open_run and has4:
                        runs += 1
                    open_run = False
            if runs > 1:
                return -1
    best = pnorm
    ctr[C_FILL2] += 1
    ep = ctr[C_FILL2]
    stamp2[b] = ep
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
            if blk[nb] == 0 and stamp[nb] != epoch and stamp2[nb] != ep:
                stamp2[nb] = ep
                queue2[tail] = nb
                tail += 1
    return best


@njit(cache=True, _nrt=False)
def _entry(generation, key, node):
    """A transposition-table entry: the search generation (an empty slot holds an older
    one), 14 bits of the state's hash above the slot bits, and the node index."""
    fp = np.int64((key >> np.uint64(_T_GEN_SHIFT)) & np.uint64(0x3FFF))
    return (np.int64(generation) << _T_GEN_SHIFT) | (fp << _T_NODE_BITS) | np.int64(node)


@njit(cache=True, _nrt=False)
def pi_corral(nbox_pool, base, nbox, walls, goals, occ, dead, stamp, epoch, width, stamp2,
              ctr, queue2):
    """The boxes worth pushing in the state whose boxes are ``nbox_pool[base:base+nbox]``
    (marked in ``occ``) and whose player region is ``stamp == epoch``: -1 for all of
    them, 0 when the state is a deadlock, else an epoch ``e > 0``: push only the boxes
    on cells with ``stamp2 == e`` (the chosen corral; no box count limit).

    A *corral* ``Z`` is a connected area of non-wall cells outside the player's region
    (its boxes included). It is chosen when it holds a box off its goal or an empty goal
    (so every solution pushes one of its boxes) and every push of each of its boxes is
    either possible now and into a free cell of ``Z``, or impossible until one of its
    boxes moves (the player would stand on a wall or in ``Z``; the box would go onto a
    wall, a box of ``Z`` or a dead square). Then in any solution the first push of a
    ``Z`` box is possible now and can be made first without changing the pushes around
    it: no other box enters ``Z`` and the player never walks in it before, so only the
    pushes of ``Z``'s boxes need be expanded, which keeps push-optimality. With no such
    push at all the state is a deadlock. Among several such corrals the one with the
    fewest pushes is taken. ``stamp2`` and ``queue2`` are work arrays (their epochs
    come from ``ctr[C_FILL2]``)."""
    steps = (-width, -1, 1, width)  # cell offsets up, left, right, down
    first = ctr[C_FILL2] + 1
    best = np.int64(-1)
    best_count = 1 << 30
    for i in range(nbox):
        b0 = nbox_pool[base + i]
        if stamp2[b0] >= first:
            continue  # in a corral seen already
        ctr[C_FILL2] += 1
        ep = ctr[C_FILL2]
        stamp2[b0] = ep
        queue2[0] = b0
        head = 0
        tail = 1
        need = False
        while head < tail:
            c = queue2[head]
            head += 1
            if goals[c] != occ[c]:
                need = True
            for d in range(4):
                nb = c + steps[d]
                if walls[nb] or stamp[nb] == epoch or stamp2[nb] == ep:
                    continue
                stamp2[nb] = ep
                queue2[tail] = nb
                tail += 1
        if not need:
            continue
        ok = True
        count = 0
        for j in range(i, nbox):
            bj = nbox_pool[base + j]
            if stamp2[bj] != ep:
                continue
            for d in range(4):
                sd = steps[d]
                pb = bj - sd
                tb = bj + sd
                if walls[pb] or stamp2[pb] == ep or walls[tb] or dead[tb] \
                        or (occ[tb] and stamp2[tb] == ep):
                    continue  # impossible until a box of the corral moves
                if stamp[pb] == epoch and stamp2[tb] == ep and not occ[tb]:
                    count += 1  # possible now, into the corral
                    continue
                ok = False
                break
            if not ok:
                break
        if ok and count < best_count:
            best_count = count
            best = ep if count > 0 else np.int64(0)
    return best


@njit(cache=True, _nrt=False)
def _canonical(wbox, nbox, m, zob, symtab, queue2):
    """Bring the state with sorted boxes ``wbox[:nbox]`` and player region ``queue2[:m]``
    to its canonical image under the board's symmetries (rows of ``symtab``: the cell
    permutation, then the direction map, the composition row and the inverse): the image
    with the smallest Zobrist key. Rewrites ``wbox`` (sorted) and returns
    ``(symmetry, normalised player cell, box hash)``."""
    nsym = symtab.shape[0]
    best_k = 0
    best_key = np.uint64(0)
    best_norm = 0
    best_bh = np.uint64(0)
    for k in range(nsym):
        bh = np.uint64(0)
        for q in range(nbox):
            bh ^= zob[0, symtab[k, wbox[q]]]
        mk = symtab[k, queue2[0]]
        for i in range(1, m):
            v = symtab[k, queue2[i]]
            if v < mk:
                mk = v
        key = bh ^ zob[1, mk]
        if k == 0 or key < best_key:
            best_k = k
            best_key = key
            best_norm = mk
            best_bh = bh
    if best_k != 0:
        for q in range(nbox):
            v = symtab[best_k, wbox[q]]
            j = q
            while j > 0 and wbox[j - 1] > v:
                wbox[j] = wbox[j - 1]
                j -= 1
            wbox[j] = v
    return best_k, best_norm, best_bh


@njit(cache=True, _nrt=False)
def unpacked(occ, plan):
    """How many goals are not packed yet: ``plan`` lists the ``k`` goal cells in fill
    order (``plan[:k]``), each one's layer (``plan[k:2k]``, non-decreasing; goals of a
    layer may be filled in any order) and its row of ``dist`` (``plan[2k:]``); a goal
    counts as packed when it holds a box and every goal of the earlier layers does too.
    An empty plan packs nothing (0)."""
    k = plan.shape[0] // 3
    packed = 0
    layer = 0
    complete = True
    for i in range(k):
        if plan[k + i] != layer:
            if not complete:
                break
            layer = plan[k + i]
        if occ[plan[i]]:
            packed += 1
        else:
            complete = False
    return k - packed


@njit(cache=True, _nrt=False)
def _any_h(h, occ, plan, ctr, dist, cols, wbox, nbox):
    """The guide of the searches for any solution, from the matching cost ``h`` of a
    state whose boxes ``wbox`` are marked in ``occ`` (``cols`` from box_columns).
    Outside a stage: ``h + PACK_PENALTY * unpacked``. In packing stage ``m``
    (``ctr[C_STAGE]``): 0 once ``m`` goals are packed (the stage's goal state) and a
    free box can still reach the next layer (``UNREACHABLE``, a dead end, if none can),
    else ``1 + 4 d + h`` where ``d`` is the least push distance from a box not on the
    first ``m - 1`` plan goals to an empty goal of goal ``m``'s layer."""
    late = unpacked(occ, plan)
    stage = ctr[C_STAGE]
    if stage == 0:
        return h + PACK_PENALTY * late
    k = plan.shape[0] // 3
    if late <= k - stage:  # the stage's goal, unless no box can go on to the next layer
        if stage == k or _layer_distance(stage + 1, occ, plan, dist, cols, wbox,
                                         nbox) < UNREACHABLE:
            return np.int64(0)
        return np.int64(UNREACHABLE)
    return 1 + 4 * _layer_distance(stage, occ, plan, dist, cols, wbox, nbox) + h


@njit(cache=True, _nrt=False)
def _layer_distance(stage, occ, plan, dist, cols, wbox, nbox):
    """The least push distance from a box not on the first ``stage - 1`` plan goals to
    an empty goal of the layer of plan goal ``stage`` (``UNREACHABLE`` if none)."""
    k = plan.shape[0] // 3
    layer = plan[k + stage - 1]
    best = np.int64(UNREACHABLE)
    for g in range(stage - 1, k):
        if plan[k + g] != layer:
            break
        if occ[plan[g]] == 0:
            d = _nearest(plan[2 * k + g], occ, plan, stage, dist, cols, wbox, nbox)
            if d < best:
                best = d
    return best


@njit(cache=True, _nrt=False)
def _nearest(row, occ, plan, stage, dist, cols, wbox, nbox):
    """The least push distance to the goal of ``dist`` row ``row`` from a box not on
    the first ``stage - 1`` goals of ``plan`` (see :func:`_any_h`)."""
    best = np.int64(UNREACHABLE)
    for i in range(nbox):
        b = wbox[i]
        placed = False
        for q in range(stage - 1):
            if plan[q] == b:
                placed = True
                break
        if placed:
            continue
        col = cols[i]
        if col >= 0:
            d = np.int64(dist[row, col])
        else:
            b4 = 4 * (-col - 1)
            d = np.int64(dist[row, b4])
            for k in range(1, 4):
                if dist[row, b4 + k] < d:
                    d = np.int64(dist[row, b4 + k])
        if d < best:
            best = d
    return best


@njit(cache=True, _nrt=False)
def place_boxes(boxes, nbox, walls, goals, dead, occ, blk, wbox, tmp, width, fstack):
    """Set up a search's start: ``blk`` = the walls, ``wbox`` = the boxes sorted, each box
    marked in ``occ`` and ``blk`` (the caller clears the marks). Returns True when a box
    stands on a dead square or is frozen off a goal: the start is a deadlock."""
    for c in range(walls.shape[0]):
        blk[c] = walls[c]
    for i in range(nbox):
        v = boxes[i]
        j = i
        while j > 0 and wbox[j - 1] > v:
            wbox[j] = wbox[j - 1]
            j -= 1
        wbox[j] = v
    for i in range(nbox):
        occ[wbox[i]] = 1
        blk[wbox[i]] = 1
    bad = False
    for i in range(nbox):
        c = wbox[i]
        if dead[c]:
            bad = True
        elif frozen_state(np.int64(c), walls, occ, dead, goals, tmp, width, fstack) == 2:
            bad = True
    return bad


@njit(cache=True, _nrt=False)
def search_start(boxes, nbox, player, cap, weight, walls, goals, dead, dist, zob, width,
                 nbox_pool, nplayer, nparent, ng, nhash, nmove, heap, table, ctr,
                 occ, blk, stamp, queue, stamp2, queue2, tmp, wbox,
                 hu, hv, hp, hway, hminv, hused, fstack, hside, compof, plan, symtab):
    """Reset the search workspace and insert the start state (box cells ``boxes[:nbox]``,
    player cell ``player``) with a node cap ``cap``. ``weight`` orders the open list:
    1 is A* on ``g + h`` (push-optimal), ``w > 1`` weighted A* on ``g + w * h``, 0
    greedy best-first on ``h`` (the last two find solutions, not proved optimal, and
    never reopen a state). With a goal order ``plan`` (not None; only for ``w != 1``)
    the search is guided by :func:`_any_h` instead of ``h``; with None that code is not
    compiled. ``symtab`` is None or the board's symmetry table (see
    :func:`search_run`). Returns the status: RUNNING, SOLVED (already solved) or
    UNSOLVABLE (a dead square, frozen box or no matching)."""
    ctr[C_NODES] = 0
    ctr[C_HEAP] = 0
    if ctr[C_TEPOCH] >= MAX_GENERATION:
        for i in range(table.shape[0]):
            table[i] = 0
        ctr[C_TEPOCH] = 0
    ctr[C_TEPOCH] += 1
    ctr[C_GOAL] = -1
    ctr[C_EXPANDED] = 0
    ctr[C_BOXES] = nbox
    ctr[C_CAP] = cap
    ctr[C_WEIGHT] = weight
    ctr[C_START] = player
    ctr[C_STATUS] = RUNNING
    bad = place_boxes(boxes, nbox, walls, goals, dead, occ, blk, wbox, tmp, width, fstack)
    norm = _region_min(blk, width, np.int64(player), stamp2, ctr, C_FILL2, queue2)
    for i in range(nbox):
        occ[wbox[i]] = 0
        blk[wbox[i]] = 0
    k0 = 0
    if symtab is not None:
        ctr[C_FILL2] += 1
        for i in range(nbox):
            blk[wbox[i]] = 1
        m = flood_fill(blk, width, np.int64(player), stamp2, ctr[C_FILL2], queue2)
        for i in range(nbox):
            blk[wbox[i]] = 0
        k0, norm, _ = _canonical(wbox, nbox, m, zob, symtab, queue2)
    box_columns(wbox, nbox, np.int64(norm), compof, walls.shape[0], hside)
    h = matching_cost(hside, nbox, dist, hu, hv, hp, hway, hminv, hused)
    if bad or h >= UNREACHABLE:
        ctr[C_STATUS] = UNSOLVABLE
        return UNSOLVABLE
    if h >= MAX_G:
        ctr[C_STATUS] = LIMIT
        return LIMIT
    bh = np.uint64(0)
    for i in range(nbox):
        nbox_pool[i] = wbox[i]
        bh ^= zob[0, wbox[i]]
    nplayer[0] = norm
    nparent[0] = -1
    ng[0] = 0
    nhash[0] = bh
    nmove[0] = k0  # the root's symmetry (the stored root is its image)
    ctr[C_NODES] = 1
    mask = table.shape[0] - 1
    key = bh ^ zob[1, norm]
    slot = np.int64(key & np.uint64(mask))
    table[slot] = _entry(ctr[C_TEPOCH], key, np.int64(0))
    if h == 0:
        ctr[C_GOAL] = 0
        ctr[C_STATUS] = SOLVED
        return SOLVED
    if plan is not None:
        for i in range(nbox):
            occ[wbox[i]] = 1
        h = _any_h(h, occ, plan, ctr, dist, hside, wbox, nbox)
        for i in range(nbox):
            occ[wbox[i]] = 0
        if h == 0:
            ctr[C_GOAL] = 0
            ctr[C_STATUS] = SOLVED
            return SOLVED
    _heap_push(heap, ctr, _key(np.int64(0), h, weight, np.int64(0)))
    return RUNNING


@njit(cache=True, _nrt=False)
def search_run(budget, walls, goals, dead, dist, zob, width,
               nbox_pool, nplayer, nparent, ng, nhash, nmove, heap, table, ctr,
               occ, blk, stamp, queue, stamp2, queue2, tmp, wbox,
               hu, hv, hp, hway, hminv, hused, fstack, hside, compof, plan, symtab):
    """Continue the search for at most ``budget`` expansions. When ``symtab`` is not None
    (the board's symmetries, see :func:`levelforge.sokoban.solver.board_symmetries`)
    every state is stored as its canonical image (:func:`_canonical`): images have the
    same pushes to go, so the optimum is kept, and each node's move records the symmetry
    taken; with None that code is not even compiled. Returns the status: RUNNING (budget
    used up; call again), SOLVED (``ctr[C_GOAL]`` is the solved node), UNSOLVABLE (the
    open list is exhausted: proved), LIMIT (the node cap) or GROW (before an expansion
    could overflow the node arrays, the heap or half the table: grow them, see
    :func:`table_rebuild`, and call again; nothing was lost)."""
    steps = (-width, -1, 1, width)  # cell offsets up, left, right, down
    if ctr[C_STATUS] != RUNNING:
        return ctr[C_STATUS]
    nbox = ctr[C_BOXES]
    cap = ctr[C_CAP]
    weight = ctr[C_WEIGHT]
    mask = table.shape[0] - 1
    tepoch = ctr[C_TEPOCH]
    room = 4 * nbox + 1  # the most states one expansion can add
    done = 0
    while done < budget:
        nodes = ctr[C_NODES]
        if nodes + room > nplayer.shape[0] or 2 * (nodes + room) > table.shape[0] \
                or ctr[C_HEAP] + room > heap.shape[0]:
            return GROW
        if ctr[C_HEAP] == 0:
            ctr[C_STATUS] = UNSOLVABLE
            return UNSOLVABLE
        key = _heap_pop(heap, ctr)
        u = np.int64(key & np.int64(0xFFFFFFFF))
        gu = MAX_G - np.int64((key >> 32) & np.int64(0x7FFF))
        if gu != ng[u]:
            continue  # stale entry: the node was reached more cheaply since
        if gu + 1 >= MAX_G:  # longer solutions cannot be represented: unknown
            ctr[C_STATUS] = LIMIT
            return LIMIT
        done += 1
        ctr[C_EXPANDED] += 1
        base = u * nbox
        for i in range(nbox):
            c = nbox_pool[base + i]
            occ[c] = 1
            blk[c] = 1
        ctr[C_FILL] += 1
        epoch = ctr[C_FILL]
        flood_fill(blk, width, np.int64(nplayer[u]), stamp, epoch, queue)
        zmask = pi_corral(nbox_pool, base, nbox, walls, goals, occ, dead, stamp, epoch,
                          width, stamp2, ctr, queue2)
        g1 = gu + 1
        status = RUNNING
        for i in range(nbox):
            b = np.int64(nbox_pool[base + i])
            if zmask == 0 or (zmask > 0 and stamp2[b] != zmask):
                continue  # a deadlock, or a box outside the chosen corral
            for d in range(4):
                s = steps[d]
                t = b + s
                if blk[t] or dead[t] or stamp[b - s] != epoch:
                    continue
                occ[b] = 0
                blk[b] = 0
                occ[t] = 1
                blk[t] = 1
                if frozen_state(t, walls, occ, dead, goals, tmp, width, fstack) != 2:
                    # child boxes, sorted: parent's with b replaced by t
                    k = 0
                    for j in range(nbox):
                        v = nbox_pool[base + j]
                        if j == i:
                            continue
                        wbox[k] = v
                        k += 1
                    k = nbox - 1
                    while k > 0 and wbox[k - 1] > t:
                        wbox[k] = wbox[k - 1]
                        k -= 1
                    wbox[k] = t
                    ksym = 0
                    if symtab is not None:
                        ctr[C_FILL2] += 1
                        m = flood_fill(blk, width, b, stamp2, ctr[C_FILL2], queue2)
                        ksym, norm, bh = _canonical(wbox, nbox, m, zob, symtab, queue2)
                    else:
                        norm = _child_norm(blk, width, b, t, np.int64(nplayer[u]), stamp, epoch,
                                           stamp2, ctr, queue2)
                        if norm < 0:
                            norm = _region_min(blk, width, b, stamp2, ctr, C_FILL2, queue2)
                        bh = nhash[u] ^ zob[0, b] ^ zob[0, t]
                    move = (ksym << 24) | (b * 4 + d)
                    # look the child up first: a known state needs no heuristic
                    key = bh ^ zob[1, norm]
                    slot = np.int64(key & np.uint64(mask))
                    want = _entry(tepoch, key, np.int64(0))
                    found = -1
                    while True:
                        e = table[slot]
                        if (e >> _T_GEN_SHIFT) != tepoch:
                            break
                        j = e & _T_NODE_MASK
                        if (e & _T_FP_MASK) == want & _T_FP_MASK and nplayer[j] == norm:
                            same = True
                            jb = j * nbox
                            for q in range(nbox):
                                if nbox_pool[jb + q] != wbox[q]:
                                    same = False
                                    break
                            if same:
                                found = j
                                break
                        slot = (slot + 1) & mask
                    if found >= 0:
                        # a shorter way to a known state: A* reopens it; the searches
                        # for any solution keep the first way (no re-expansions)
                        if g1 < ng[found] and weight == 1:
                            box_columns(wbox, nbox, norm, compof, walls.shape[0], hside)
                            h = matching_cost(hside, nbox, dist, hu, hv, hp, hway,
                                              hminv, hused)
                            ng[found] = g1
                            nparent[found] = u
                            nmove[found] = move
                            _heap_push(heap, ctr, _key(g1, h, weight, found))
                    else:
                        box_columns(wbox, nbox, norm, compof, walls.shape[0], hside)
                        h = matching_cost(hside, nbox, dist, hu, hv, hp, hway, hminv, hused)
                        if plan is not None and h < UNREACHABLE:
                            h = _any_h(h, occ, plan, ctr, dist, hside, wbox, nbox)
                        if h >= UNREACHABLE:
                            pass  # no matching: a deadlock, never stored
                        elif ctr[C_NODES] >= cap:
                            status = LIMIT
                        else:
                            j = ctr[C_NODES]
                            ctr[C_NODES] = j + 1
                            jb = j * nbox
                            for q in range(nbox):
                                nbox_pool[jb + q] = wbox[q]
                            nplayer[j] = norm
                            nparent[j] = u
                            ng[j] = g1
                            nhash[j] = bh
                            nmove[j] = move
                            table[slot] = want | j
                            if h == 0:
                                ctr[C_GOAL] = j
                                status = SOLVED
                            else:
                                _heap_push(heap, ctr, _key(g1, h, weight, j))
                occ[t] = 0
                blk[t] = 0
                occ[b] = 1
                blk[b] = 1
                if status != RUNNING:
                    break
            if status != RUNNING:
                break
        for i in range(nbox):
            c = nbox_pool[base + i]
            occ[c] = 0
            blk[c] = 0
        if status != RUNNING:
            ctr[C_STATUS] = status
            return status
    return RUNNING


@njit(cache=True, _nrt=False)
def reconstruct(walls, width, nbox_pool, nparent, nmove, ctr, occ, stamp2, queue2,
                prev, chain, out, symtab):
    """Write the LURD solution of the solved search into ``out`` (uint8 letters) and
    return its length; -1 if ``out`` is too small. Walks between pushes are shortest
    walks, so the moves are push-optimal but may be move-suboptimal. When ``symtab``
    is not None (as in :func:`search_run`) each node is stored as an image of the real
    state, so the moves are mapped back through the composed symmetries."""
    steps = (-width, -1, 1, width)  # cell offsets up, left, right, down
    nbox = ctr[C_BOXES]
    goal = ctr[C_GOAL]
    n = walls.shape[0]
    npush = 0
    j = goal
    while nparent[j] >= 0:
        chain[npush] = nmove[j]
        npush += 1
        j = nparent[j]
    f = 0  # the symmetry taking real cells to the stored frame of the current node
    nsym = 1 if symtab is None else symtab.shape[0]
    if symtab is not None:
        f = nmove[0]
    for i in range(nbox):
        c = nbox_pool[i]
        if symtab is not None:
            c = symtab[symtab[f, n + 4 + nsym], c]
        occ[c] = 1
    player = ctr[C_START]
    pos = 0
    ok = True
    for k in range(npush - 1, -1, -1):
        mv = chain[k]
        b = (mv & 0xFFFFFF) >> 2
        d = mv & 3
        if symtab is not None:
            fi = symtab[f, n + 4 + nsym]
            b = symtab[fi, b]
            d = symtab[fi, n + d]
            f = symtab[mv >> 24, n + 4 + f]
        s = steps[d]
        if pos + walls.shape[0] + 1 > out.shape[0]:
            ok = False
            break
        # a shortest walk player -> b - s around walls and boxes (BFS on stamp2/queue2)
        dst = b - s
        if player != dst:
            ctr[C_FILL2] += 1
            epoch = ctr[C_FILL2]
            stamp2[player] = epoch
            queue2[0] = player
            head = 0
            tail = 1
            while head < tail and stamp2[dst] != epoch:
                c = queue2[head]
                head += 1
                for e in range(4):
                    nb = c + steps[e]
                    if walls[nb] or occ[nb] or stamp2[nb] == epoch:
                        continue
                    stamp2[nb] = epoch
                    prev[nb] = c * 4 + e
                    queue2[tail] = nb
                    tail += 1
            if stamp2[dst] != epoch:
                ok = False
                break
            length = 0
            c = dst
            while c != player:
                length += 1
                c = prev[c] >> 2
            c = dst
            for q in range(pos + length - 1, pos - 1, -1):
                out[q] = _LOWER[prev[c] & 3]
                c = prev[c] >> 2
            pos += length
        out[pos] = _UPPER[d]
        pos += 1
        occ[b] = 0
        occ[b + s] = 1
        player = b
    for c in range(occ.shape[0]):
        occ[c] = 0
    if not ok:
        return -1
    return pos


@njit(cache=True, _nrt=False)
def table_rebuild(table, ctr, nhash, nplayer, zob):
    """Insert every node of the running search into ``table`` (a fresh, larger, zeroed
    power-of-two table; the old one is dropped): how the transposition table grows
    with the search instead of being sized by the node cap up front. Nodes with a
    negative player cell (the pushes inside a macro move) are left out."""
    mask = table.shape[0] - 1
    tepoch = ctr[C_TEPOCH]
    for j in range(ctr[C_NODES]):
        if nplayer[j] < 0:
            continue  # a push inside a macro move, not a stored state
        key = nhash[j] ^ zob[1, nplayer[j]]
        slot = np.int64(key & np.uint64(mask))
        while (table[slot] >> _T_GEN_SHIFT) == tepoch:
            slot = (slot + 1) & mask
        table[slot] = _entry(tepoch, key, np.int64(j))
