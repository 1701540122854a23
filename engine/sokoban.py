"""Sokoban search kernels: the best-first search over pushes (A*, weighted A*, greedy) with
player-region normalisation, symmetry canonicalisation, the transposition table, and
solution reconstruction. Board analysis (dead squares, push distances, freeze deadlocks,
PI-corrals) is in :mod:`levelforge.engine.sokoban_board`, the heuristics in
:mod:`levelforge.engine.sokoban_heuristic`, the shared counter slots and statuses in
:mod:`levelforge.engine.sokoban_state`; the reverse-play generator in
:mod:`levelforge.engine.sokoban_generator`.

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

from .grid import flood_fill, outside_min, ring_runs
from .sokoban_board import frozen_state, pi_corral
from .sokoban_heuristic import _any_h, box_columns, matching_cost
from .sokoban_match import child_matching, parent_matching
from .sokoban_triples import triples_dead
from .sokoban_pairs import pair_bound, pair_dead
from .sokoban_state import (C_BOUND, C_BOXES, C_CAP, C_EXPANDED, C_FILL, C_FILL2, C_GOAL,
                            C_HALT, C_HEAP, C_NODES, C_PARTIAL, C_START, C_STATUS, C_TARGET,
                            C_CHECKED, C_TEPOCH, C_UPPER, C_WEIGHT, GROW, HALTED, LIMIT, MAX_G,
                            MAX_GENERATION, RUNNING, SOLVED, UNREACHABLE, UNSOLVABLE, _T_FP_MASK,
                            _T_FP_BITS, _T_GEN_SHIFT, _T_NODE_BITS, _T_NODE_MASK)

_LOWER = np.array([ord("u"), ord("l"), ord("r"), ord("d")], dtype=np.uint8)
_UPPER = np.array([ord("U"), ord("L"), ord("R"), ord("D")], dtype=np.uint8)


@njit(cache=True, _nrt=False)
def _key(g, h, weight, node):
    """The heap key of a node: its priority (``g + h`` for A*, ``g + weight * h``
    weighted, ``h`` greedy for weight 0), then larger ``g`` first, then the node (a
    push-optimal search puts a tie field above it: :func:`_tie`)."""
    f = h if weight == 0 else g + weight * h
    if f > F_MOST:  # beyond any representable solution (MAX_G): keep it last
        f = F_MOST
    return (np.int64(f) << _F_SHIFT) | (np.int64(MAX_G - g) << _G_SHIFT) | np.int64(node)


@njit(cache=True, _nrt=False)
def _target_h(h, norm, ctr):
    """``h``, or 1 for a state whose boxes all stand on their goals while its normalised
    player cell ``norm`` is not the target's (``ctr[C_TARGET]``, 0 for none): it is not
    solved and needs a push at least, so the bound stays admissible and consistent and
    a solved state is still recognised when it is generated."""
    t = ctr[C_TARGET]
    if h == 0 and t > 0 and norm != t - 1:
        return np.int64(1)
    return h


# A heap key packs, from bit 62 down: f (15 bits, at most F_MOST), MAX_G - g (15 bits),
# the flags _PAIRED and _PARTIAL, a push-optimal search's tie field (4 bits) and the node
# (_T_NODE_BITS, as in the table's entries). Bit 63 stays clear: keys compare as int64.
_NODE_BITS = np.int64((1 << _T_NODE_BITS) - 1)  # a heap key's node
_TIE_SHIFT = _T_NODE_BITS  # a push-optimal heap key's tie field, 4 bits above the node
_TIE_MOST = 15  # boxes off goals counted in it (4 bits)
_PARTIAL = np.int64(1) << (_T_NODE_BITS + 4)  # a heap key's flag: a node expanded in
# part before, keyed with its children's pushes (one more than its own) so that ties go
# as if the children themselves were in the heap
_PAIRED = np.int64(1) << (_T_NODE_BITS + 5)  # a heap key's flag: its bound has the box
# pairs in it
_G_SHIFT = _T_NODE_BITS + 6  # a heap key's MAX_G - g
_F_SHIFT = _G_SHIFT + 15  # a heap key's f
_G_MASK = np.int64((1 << (_F_SHIFT - _G_SHIFT)) - 1)  # the width of MAX_G - g
F_MOST = (1 << (63 - _F_SHIFT)) - 1  # the largest f a key holds (MAX_G: none beyond counts)
_NO_F = np.int64(1) << 40  # above every f: nothing deferred


@njit(cache=True, _nrt=False)
def _slot(node, lifo):
    """A node's field in a heap key and back (its own inverse): the node itself, or
    with ``lifo`` its complement, so that of equal keys the newest node comes first."""
    return _NODE_BITS - node if lifo else node


TIES = True
"""Whether the push-optimal searches break ties of ``f`` and ``g`` toward the state
with fewer boxes off their goals (:func:`_tie`); False for comparisons."""
TIES_FROM = 8
"""Boxes from which they do. Measured (docs/figures/sokoban-optimal.md): with 4 boxes
(generated 10x10 levels, Boxoban's size) the rule stores 7% more states; from 8 boxes
on it is even or better, and it solves levels of 13 to 19 boxes that the node order
alone leaves at the limit."""


@njit(cache=True, _nrt=False)
def _tie(off):
    """The tie field of a push-optimal heap key for a state with ``off`` boxes off
    goals (at most ``_TIE_MOST`` counted): of states of equal ``f`` and ``g`` the one
    with fewer comes first, before the node order (oldest, or newest when expanding in
    part). The key's ``f`` is untouched, so A* stays push-optimal; only the order in
    which a layer of equal ``f`` is searched changes. The idea: on the last layer, where
    the optimum lies, every state has the same bound, and one that has put more boxes
    away has less left to do (measured in docs/figures/sokoban-optimal.md)."""
    return np.int64(min(off, _TIE_MOST)) << _TIE_SHIFT


@njit(cache=True, _nrt=False)
def _partial(pdb, weight, ctr):
    """Whether a search expands in part with newest-first ties (:func:`search_run`):
    push-optimal (``weight`` 1, a ``pdb``) and asked for by the caller (``C_PARTIAL``)."""
    return pdb is not None and weight == 1 and ctr[C_PARTIAL] != 0


@njit(cache=True, _nrt=False)
def _pair_raised(u, gu, hm, nbox, nbox_pool, nplayer, compof, pdb, wbox, hside, heap, ctr,
                 lifo, tie):
    """The box-pair bound, evaluated lazily: when node ``u`` (``gu`` pushes, pushed with
    the matching cost ``hm``) is popped, rather than for every child stored (most are
    never expanded: A* stores two to four states per expansion). True when the node
    must not be expanded now: the pair bound is larger (the node goes back into the
    heap with it, flagged ``_PAIRED`` so that the next pop expands it) or proves a
    pair deadlock (the node is dropped). Admissible keys stay admissible, so A* stays
    push-optimal (see :mod:`levelforge.engine.sokoban_pairs`). ``tie``: the node's tie
    field (:func:`_tie`), kept when it goes back."""
    if gu + hm >= F_MOST:
        return False  # a capped key: its bound is unknown here, expand as eager A* would
    base = u * nbox
    for i in range(nbox):
        wbox[i] = nbox_pool[base + i]
    norm = np.int64(nplayer[u])
    box_columns(wbox, nbox, norm, compof, np.int64(pdb[2]), hside)  # pdb[2]: cells
    h = pair_bound(hm, wbox, nbox, norm, hside, pdb)
    if h >= UNREACHABLE:
        return True
    if u < ctr[C_CHECKED] and triples_dead(pdb, wbox, nbox, norm):
        return True  # stored before the table: its triples were never looked at
    if h > hm:
        _heap_push(heap, ctr, _key(gu, h, np.int64(1), _slot(u, lifo)) | _PAIRED | tie)
        return True
    return False


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
    _sift_down(heap, n, 0, heap[n])
    return top


@njit(cache=True, _nrt=False)
def _sift_down(heap, n, i, key):
    """Put ``key`` at slot ``i`` of the heap's first ``n`` slots, moved down to its place."""
    while True:
        child = 2 * i + 1
        if child >= n:
            break
        if child + 1 < n and heap[child + 1] < heap[child]:
            child += 1
        if heap[child] >= key:
            break
        heap[i] = heap[child]
        i = child
    heap[i] = key


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
    if stamp[t] == epoch:
        if t == pnorm:
            return -1
        if ring_runs(blk, width, t) > 1:
            return -1
    ctr[C_FILL2] += 1
    return outside_min(blk, width, b, pnorm, stamp, epoch, stamp2, ctr[C_FILL2], queue2)


@njit(cache=True, _nrt=False)
def _moved(nbox_pool, u, nbox, first, last, wbox):
    """Write into ``wbox`` the boxes of node ``u``, sorted, with the one on ``first``
    moved to ``last``."""
    k = 0
    for j in range(nbox):
        v = nbox_pool[u * nbox + j]
        if v != first:
            wbox[k] = v
            k += 1
    k = nbox - 1
    while k > 0 and wbox[k - 1] > last:
        wbox[k] = wbox[k - 1]
        k -= 1
    wbox[k] = last


@njit(cache=True, _nrt=False)
def tunnel_room(nbox, n):
    """The most nodes one expansion adds on a board of ``n`` cells when pushes go on
    through tunnels: one per push and the pushes on the way (each tunnel cell crossed
    at most once each way)."""
    return 4 * nbox + 1 + 2 * n


@njit(cache=True, _nrt=False)
def _tunnel(t, s, tun, occ, blk, dead):
    """Push the box just pushed onto ``t`` (step ``s``) on while it stands on a tunnel
    cell (``tun``, see :func:`levelforge.sokoban.fess.tunnel_cells`: a macro that loses
    no solution and keeps push-optimality); ``occ`` and ``blk`` follow it. Returns
    ``(e, extra)``: its last cell and the pushes added, or ``(-e - 1, extra)`` when it
    must go on against a box or onto a dead square (a deadlock; the box is left on
    ``e``)."""
    e = t
    extra = 0
    while tun[e]:
        f = e + s
        if blk[f] or dead[f]:
            return -e - 1, extra
        occ[e] = 0
        blk[e] = 0
        occ[f] = 1
        blk[f] = 1
        e = f
        extra += 1
    return e, extra


@njit(cache=True, _nrt=False)
def _way(u, b, s, d, extra, g1, nplayer, nparent, ng, nhash, nmove, ctr):
    """Store the first ``extra`` pushes of a tunnel move of the box on ``b`` (step
    ``s``, direction ``d``) from ``u`` as nodes outside the table and the cells (for
    the solution's reconstruction); returns the last one (``u`` when there are none)."""
    parent = u
    g = g1
    c = b
    for _ in range(extra):
        j = ctr[C_NODES]
        ctr[C_NODES] = j + 1
        nplayer[j] = -1  # not a stored state: never looked up
        nparent[j] = parent
        ng[j] = g
        nmove[j] = c * 4 + d
        nhash[j] = 0
        parent = j
        g += 1
        c += s
    return parent


@njit(cache=True, _nrt=False)
def _entry(generation, key, node):
    """A transposition-table entry: the search generation (an empty slot holds an older
    one), ``_T_FP_BITS`` bits of the state's hash above the slot bits, and the node index."""
    fp = np.int64((key >> np.uint64(_T_GEN_SHIFT)) & np.uint64((1 << _T_FP_BITS) - 1))
    return (np.int64(generation) << _T_GEN_SHIFT) | (fp << _T_NODE_BITS) | np.int64(node)


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
                 hu, hv, hp, hway, hminv, hused, fstack, hside, compof, plan, symtab,
                 pdb):
    """Reset the search workspace and insert the start state (box cells ``boxes[:nbox]``,
    player cell ``player``) with a node cap ``cap``. ``weight`` orders the open list:
    1 is A* on ``g + h`` (push-optimal), ``w > 1`` weighted A* on ``g + w * h``, 0
    greedy best-first on ``h`` (the last two find solutions, not proved optimal, and
    never reopen a state). With a goal order ``plan`` (not None; only for ``w != 1``)
    the search is guided by :func:`_any_h` instead of ``h``; with None that code is not
    compiled. ``symtab`` is None or the board's symmetry table (see
    :func:`search_run`). ``pdb``: None (that code is not compiled) or a box-pair
    pattern database whose admissible bound raises the matching cost (an array of at
    most one slot: none; see :func:`levelforge.engine.sokoban_pairs.pair_bound`); with
    it, ``ctr[C_PARTIAL]`` (set by the caller) chooses the partial expansion of
    :func:`search_run`. Returns the status: RUNNING, SOLVED (already solved) or
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
    if pdb is not None and not bad:
        h = pair_bound(h, wbox, nbox, np.int64(norm), hside, pdb)
    h = _target_h(h, np.int64(norm), ctr)
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
    _heap_push(heap, ctr, _key(np.int64(0), h, weight,
                               _slot(np.int64(0), _partial(pdb, weight, ctr))))
    return RUNNING


@njit(cache=True, _nrt=False)
def _child_pair_dead(pdb, wbox, nbox, te, norm, symtab, ksym):
    """:func:`levelforge.engine.sokoban_pairs.pair_dead` for a child whose boxes ``wbox``
    and player cell ``norm`` are, on a symmetric board (``symtab``), the canonical image
    under symmetry ``ksym``: the pushed box's cell ``te`` is taken to the same frame. The
    board maps onto itself, walls, goals and dead squares alike, so the pair table holds
    for every image."""
    if symtab is None:
        return pair_dead(pdb, wbox, nbox, te, norm)
    return pair_dead(pdb, wbox, nbox, np.int64(symtab[ksym, te]), norm)


@njit(cache=True, _nrt=False)
def _child_h(mw, symtab, matched, nbox_pool, base, nbox, pnorm, i, t, norm, compof, dist,
             hside, hu, hv, hp, hway, hminv, hused):
    """``(matching cost, matched)`` of the child where box ``i`` of the expanded state
    (boxes ``nbox_pool[base:base + nbox]``, player ``pnorm``) moved to ``t``, player
    ``norm``, its columns in ``hside``: repaired from the expanded state's matching in
    ``mw`` (solved there first unless ``matched``) when ``mw`` is a non-empty array and
    there is no ``symtab`` (a child's ``norm`` is then in the real board's frame), else solved
    from scratch."""
    if mw is not None and mw.shape[0] > 0 and symtab is None:
        n = dist.shape[1] // 4  # the board's cells
        if not matched:
            parent_matching(nbox_pool, base, nbox, np.int64(pnorm), compof, n, dist, mw,
                            hway, hminv, hused)
        return child_matching(nbox_pool, base, nbox, i, t, norm, compof, n, dist, mw, hu, hv,
                              hp, hway, hminv, hused), True
    return matching_cost(hside, nbox, dist, hu, hv, hp, hway, hminv, hused), matched


@njit(cache=True, _nrt=False, nogil=True)
def search_run(budget, walls, goals, dead, dist, zob, width,
               nbox_pool, nplayer, nparent, ng, nhash, nmove, heap, table, ctr,
               occ, blk, stamp, queue, stamp2, queue2, tmp, wbox,
               hu, hv, hp, hway, hminv, hused, fstack, hside, compof, plan, symtab,
               pdb, mw=None, tun=None):
    """Continue the search for at most ``budget`` expansions. When ``symtab`` is not None
    (the board's symmetries, see :func:`levelforge.sokoban.solver.board_symmetries`)
    every state is stored as its canonical image (:func:`_canonical`): images have the
    same pushes to go, so the optimum is kept, and each node's move records the symmetry
    taken; with None that code is not even compiled. Returns the status: RUNNING (budget
    used up; call again), SOLVED (``ctr[C_GOAL]`` is the solved node), UNSOLVABLE (the
    open list is exhausted: proved), LIMIT (the node cap) or GROW (before an expansion
    could overflow the node arrays, the heap or half the table: grow them, see
    :func:`table_rebuild`, and call again; nothing was lost) or HALTED (``ctr[C_HALT]``
    was set, looked at before each push: the search is abandoned). With a work array
    ``mw`` (int64, ``8 * (nbox + 1)`` slots) and no ``symtab``, the children's matching
    costs are repaired from the expanded state's
    (:func:`levelforge.engine.sokoban_match.child_matching`, ``O(n^2)`` a child instead of
    ``O(n^3)``, the same costs); an empty ``mw`` solves each from scratch in the same
    specialisation (the solver picks by box count), and with None that code is not
    compiled. With tunnel
    cells ``tun`` (uint8 per cell, :func:`levelforge.sokoban.fess.tunnel_cells`) and no
    ``symtab``, a push onto a tunnel cell goes on along the tunnel in one move
    (:func:`_tunnel`; push-optimality kept) and the pushes on the way are nodes outside
    the table (:func:`_way`); only for searches whose goal is every box on a goal. Runs
    without the GIL, so that a watchdog thread can set ``ctr[C_HALT]``.

    A push-optimal search (``weight`` 1 and a ``pdb``, even an empty one) with
    ``ctr[C_PARTIAL]`` nonzero (set by the caller before the first call) expands in
    part, a partial expansion A* (Yoshizumi, Miura and Ishida 2000): a node stores
    only its children whose ``f`` is at most its own and goes back into the heap with
    the least ``f`` of the others (flagged ``_PARTIAL``; expanded again, it finds its
    stored children in the table). Its key is a lower bound of those children's, so A*
    stays push-optimal; most of the states plain A* stores are never expanded, and
    these are not stored at all. Its ties of ``f``, ``g`` and boxes off goals go to the
    newest node (:func:`_slot`): a node put back then comes before older nodes of its
    children's ``g``, as its children would, and the last ``f`` layer is searched depth
    first. With ``TIES_FROM`` boxes or more, every push-optimal search breaks ties of
    ``f`` and ``g`` toward fewer boxes off goals first (:func:`_tie`). The generator's
    search (``pdb`` None) compiles none of this.

    A push-optimal search keeps in ``ctr[C_BOUND]`` the largest ``f`` it has popped: a
    proved lower bound on the pushes of every solution. At any time the open list holds
    a state of some push-optimal solution reached by its optimal pushes (or, expanding
    in part, its parent keyed with at most its ``f``), whose key is at most the optimum
    since every bound used is admissible; the least key, the one popped, is no larger.

    With ``ctr[C_UPPER]`` set (by the caller, before the first call) to the pushes ``U``
    of a known solution, a push-optimal search stores no child whose ``f`` is ``U`` or
    more (every solution through it has at least ``U`` pushes) and ends UNSOLVABLE when
    the key it pops reaches ``U``: by the same argument no solution has fewer pushes, so
    the known one is push-optimal. States reached again more cheaply keep their ``f``
    below ``U`` (the same bound, a smaller ``g``), so nothing else changes."""
    steps = (-width, -1, 1, width)  # cell offsets up, left, right, down
    if ctr[C_STATUS] != RUNNING:
        return ctr[C_STATUS]
    nbox = ctr[C_BOXES]
    cap = ctr[C_CAP]
    weight = ctr[C_WEIGHT]
    mask = table.shape[0] - 1
    tepoch = ctr[C_TEPOCH]
    room = 4 * nbox + 1  # the most states one expansion can add
    if tun is not None:
        room = tunnel_room(nbox, walls.shape[0])
    lifo = _partial(pdb, weight, ctr)  # in part, newest first on ties
    # push-optimal, from TIES_FROM boxes: ties by boxes off goals
    tied = TIES and pdb is not None and weight == 1 and nbox >= TIES_FROM
    upper = np.int64(0x10000)  # no incumbent: a bound no key reaches
    if pdb is not None and weight == 1 and ctr[C_UPPER] > 0:
        upper = ctr[C_UPPER]
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
        fk = key >> _F_SHIFT
        if pdb is not None and weight == 1 and fk > ctr[C_BOUND]:
            ctr[C_BOUND] = fk  # the open list's least f: a proved bound (docstring)
        if fk >= upper:  # every state below the incumbent searched: it is optimal
            ctr[C_STATUS] = UNSOLVABLE
            return UNSOLVABLE
        u = _slot(np.int64(key & _NODE_BITS), lifo)
        tu = key & (np.int64(_TIE_MOST) << _TIE_SHIFT)  # its tie field, kept on re-keying
        gu = MAX_G - np.int64((key >> _G_SHIFT) & _G_MASK)
        if key & _PARTIAL:
            gu -= 1
        if gu != ng[u]:
            continue  # stale entry: the node was reached more cheaply since
        if pdb is not None and pdb.shape[0] > 1 and weight == 1 and (key & _PAIRED) == 0:
            hm = fk - gu  # the matching cost the node was pushed with
            if _pair_raised(u, gu, hm, nbox, nbox_pool, nplayer, compof, pdb, wbox, hside,
                            heap, ctr, lifo, tu):
                continue  # back in the heap with the larger bound, or a pair deadlock
        # with lifo, store only the children whose f is at most the node's and put it
        # back with the least f of the others (partial expansion: see the docstring)
        fu = fk if lifo and fk < F_MOST else _NO_F  # a capped key defers nothing
        fnext = _NO_F
        if gu + 1 + (0 if tun is None else walls.shape[0]) >= MAX_G:  # unrepresentable: unknown
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
        offu = 0  # boxes off goals, for the ties (a child's tie field: ``tie`` below)
        if tied:
            for i in range(nbox):
                offu += 1 - goals[nbox_pool[base + i]]
        status = RUNNING
        matched = False  # the expanded state's matching is in mw (solved on first need)
        for i in range(nbox):
            b = np.int64(nbox_pool[base + i])
            if zmask == 0 or (zmask > 0 and stamp2[b] != zmask):
                continue  # a deadlock, or a box outside the chosen corral
            for d in range(4):
                if ctr[C_HALT] != 0:  # a child's matching: 50 ms with 128 boxes at 64x64
                    status = HALTED
                    break
                s = steps[d]
                t = b + s
                if blk[t] or dead[t] or stamp[b - s] != epoch:
                    continue
                occ[b] = 0
                blk[b] = 0
                occ[t] = 1
                blk[t] = 1
                te = t  # the box's last cell (on along a tunnel: ``extra`` pushes more)
                extra = 0
                if tun is not None and symtab is None:
                    te, extra = _tunnel(t, s, tun, occ, blk, dead)
                if te >= 0 and frozen_state(te, walls, occ, dead, goals, tmp, width,
                                           fstack) != 2:
                    _moved(nbox_pool, u, nbox, b, te, wbox)  # the child's boxes, sorted
                    tie = _tie(offu + goals[b] - goals[te]) if tied else np.int64(0)
                    ksym = 0
                    if symtab is not None:
                        ctr[C_FILL2] += 1
                        m = flood_fill(blk, width, b, stamp2, ctr[C_FILL2], queue2)
                        ksym, norm, bh = _canonical(wbox, nbox, m, zob, symtab, queue2)
                    else:
                        norm = -1
                        if extra == 0:
                            norm = _child_norm(blk, width, b, t, np.int64(nplayer[u]), stamp,
                                               epoch, stamp2, ctr, queue2)
                        if norm < 0:
                            norm = _region_min(blk, width, te - s, stamp2, ctr, C_FILL2, queue2)
                        bh = nhash[u] ^ zob[0, b] ^ zob[0, te]
                    move = (ksym << 24) | ((te - s) * 4 + d)
                    ge = g1 + extra  # the child's pushes
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
                        if ge < ng[found] and weight == 1:
                            box_columns(wbox, nbox, norm, compof, walls.shape[0], hside)
                            h, matched = _child_h(mw, symtab, matched, nbox_pool, base, nbox,
                                                  nplayer[u], i, te, norm, compof, dist, hside,
                                                  hu, hv, hp, hway, hminv, hused)
                            h = _target_h(h, np.int64(norm), ctr)
                            ng[found] = ge
                            last = u
                            if tun is not None:  # the generator's search compiles no macro
                                last = _way(u, b, s, d, extra, g1, nplayer, nparent, ng,
                                            nhash, nmove, ctr)
                            nparent[found] = last
                            nmove[found] = move
                            _heap_push(heap, ctr,
                                       _key(ge, h, weight, _slot(found, lifo)) | tie)
                    elif pdb is not None and _child_pair_dead(pdb, wbox, nbox, te, norm,
                                                              symtab, ksym):
                        pass  # a pair deadlock: never stored
                    else:
                        box_columns(wbox, nbox, norm, compof, walls.shape[0], hside)
                        h, matched = _child_h(mw, symtab, matched, nbox_pool, base, nbox,
                                              nplayer[u], i, te, norm, compof, dist, hside, hu,
                                              hv, hp, hway, hminv, hused)
                        h = _target_h(h, np.int64(norm), ctr)
                        if plan is not None and h < UNREACHABLE:
                            h = _any_h(h, occ, plan, ctr, dist, hside, wbox, nbox)
                        if h >= UNREACHABLE:
                            pass  # no matching: a deadlock, never stored
                        elif ge + h >= upper:
                            pass  # no shorter than the incumbent: never stored
                        elif h > 0 and ge + h > fu:
                            fnext = min(fnext, ge + h)  # stored when u is expanded again
                        elif ctr[C_NODES] + extra >= cap:
                            status = LIMIT
                        else:
                            last = u
                            if tun is not None:
                                last = _way(u, b, s, d, extra, g1, nplayer, nparent, ng,
                                            nhash, nmove, ctr)
                            j = ctr[C_NODES]
                            ctr[C_NODES] = j + 1
                            jb = j * nbox
                            for q in range(nbox):
                                nbox_pool[jb + q] = wbox[q]
                            nplayer[j] = norm
                            nparent[j] = last
                            ng[j] = ge
                            nhash[j] = bh
                            nmove[j] = move
                            table[slot] = want | j
                            if h == 0:
                                ctr[C_GOAL] = j
                                status = SOLVED
                            else:
                                _heap_push(heap, ctr,
                                           _key(ge, h, weight, _slot(j, lifo)) | tie)
                if te < 0:
                    te = -te - 1
                occ[te] = 0
                blk[te] = 0
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
        if fnext < _NO_F:  # its children of larger f, when the search gets there
            _heap_push(heap, ctr, _key(gu + 1, fnext - gu - 1, np.int64(1), _slot(u, lifo))
                       | tu | _PAIRED | _PARTIAL)
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


@njit(cache=True, _nrt=False, nogil=True)
def table_rebuild(table, ctr, nhash, nplayer, zob):
    """Insert every node of the running search into ``table`` (a fresh, larger, zeroed
    power-of-two table; the old one is dropped): how the transposition table grows
    with the search instead of being sized by the node cap up front. Nodes with a
    negative player cell (the pushes inside a macro move) are left out. Returns False,
    the table unfinished, as soon as ``ctr[C_HALT]`` is set (looked at every 4,096
    nodes: 1.6 s for 16M states, so a time limit must be able to stop it), else True."""
    mask = table.shape[0] - 1
    tepoch = ctr[C_TEPOCH]
    for j in range(ctr[C_NODES]):
        if (j & 4095) == 0 and ctr[C_HALT] != 0:
            return False
        if nplayer[j] < 0:
            continue  # a push inside a macro move, not a stored state
        key = nhash[j] ^ zob[1, nplayer[j]]
        slot = np.int64(key & np.uint64(mask))
        while (table[slot] >> _T_GEN_SHIFT) == tepoch:
            slot = (slot + 1) & mask
        table[slot] = _entry(tepoch, key, np.int64(j))
    return True
