"""The backward search of the any-solution mode: best-first over *pulls* from the solved
states toward the start.

Played backwards a level changes its hard part: boxes leave a goal room instead of
packing it (no fill order to find), and what is hard is putting them back on their
start cells. Levels that jam the forward searches on their goal rooms are often easy
this way round, which is why strong solvers search both ways. The search starts from
every solved state (boxes on the goals, the player in each region of the free cells)
and expands states in order of ``g + weight * h`` (:func:`levelforge.engine.sokoban._key`),
``g`` the pulls so far and ``h`` the min-cost matching of the boxes to the start cells
over lone-box pull distances (:func:`pull_distances`). It ends at the start: the boxes
on their start cells, the player's region the start's. Read backwards, its pulls are
pushes that solve the level. Over *feature cells* instead, the cells take turns, each
expanding its state of least ``h``: a state's cell is how many of its boxes stand on
start cells, how many areas of free floor they cut the board into and how long a
prefix of the feature-space search's packing order they still fill (its states pack
goals in that order, so the backward states that unpack them in reverse are those it
can meet).

With weight 1 (and no cells) it is A* done exactly, a push-optimal search: the goal is
recognised when it is expanded, not when it is stored; a state found again by fewer
pulls before it is expanded (or after, where ``h`` would not be consistent) takes the
shorter way and goes back on the heap, its older entries skipped when they come up; and
``ctr[C_BOUND]`` holds the largest ``f`` expanded, a lower bound on every solution's
pushes (a state on an optimal path is always open with ``f`` at most the optimum). ``h``
is admissible and consistent: a pull changes one box's pull distance to a start cell by
at most one, and pull distances never overestimate.

A pull: the player on ``p = b + s`` next to the box on ``b`` steps on to ``p + s`` and
the box follows onto ``p``. A box on a cell from which no start cell can be reached by
pulls (the player ignored) never gets back to the start, so such states are dropped,
and so are those with a pair of boxes that pulls cannot bring onto two start cells
with the other boxes deleted (the pair table built with pushes from the start cells,
:func:`levelforge.sokoban.pairs.pull_pair_table`).

Node arrays as the farthest-state search's (:mod:`levelforge.engine.sokoban_farthest`:
sorted boxes ``pool``, the region's smallest cell ``nplayer``, its open-addressing
``table``), plus ``nparent``, ``ng`` (pulls) and ``nmove`` (``4 * b + d``: the box's
cell before the pull, the direction of the player's step) and the heap of
:mod:`levelforge.engine.sokoban`. Counters in ``ctr`` (int64, the slots of
:mod:`levelforge.engine.sokoban_state`: C_NODES, C_HEAP, C_FILL, C_FILL2, C_GOAL,
C_EXPANDED, C_STATUS, C_BOXES, C_CAP, C_WEIGHT, C_HALT; ``C_TEPOCH`` holds the used
prefix of ``table``, ``C_TARGET`` the forward node met, see :func:`backward_run`, and
``C_STAGE`` the one root region kept, see :func:`backward_start`).
"""
import numpy as np
from numba import njit

from .grid import flood_fill, ring_runs
from .sokoban import _F_SHIFT, _G_MASK, _G_SHIFT, _heap_pop, _heap_push, _key
from .sokoban_farthest import _insert, _lookup, _pull_norm, _region_min, _rehash, _replaced
from .sokoban_fess_cells import _cell_insert, _cell_pop
from .sokoban_fess import _lookup as _forward
from .sokoban_fess_features import regions_reach
from .sokoban_heuristic import matching_cost
from .sokoban_match import cells_matching, moved_matching
from .sokoban_packing import _packed
from .sokoban_pairs import pair_dead
from .sokoban_state import (C_BOUND, C_BOXES, C_CAP, C_EXPANDED, C_FILL, C_FILL2, C_GOAL,
                            C_HALT, C_HEAP, C_NODES, C_STAGE, C_STATUS, C_TARGET, C_TEPOCH,
                            C_WEIGHT,
                            GROW, HALTED, LIMIT, MAX_G, RUNNING, SOLVED, UNREACHABLE,
                            UNSOLVABLE, _T_NODE_MASK)

C_SIZE = C_TEPOCH  # the used prefix of ``table`` (doubles as the search grows)
C_MEET = C_TARGET  # the forward node a bidirectional search met, -1 before
C_ROOT = C_STAGE  # set by the caller: 0, or 1 + the normalised player cell of the only
# solved state to search from (a target's: the player must end in that region)


@njit(cache=True, _nrt=False)
def pull_distances(walls, targets, width, pdist, queue):
    """``pdist[t, c]``: the fewest pulls that bring a lone box from cell ``c`` to cell
    ``targets[t]``, the player ignored beyond needing two free cells in line (the cell
    the box enters and the one the player steps to); ``UNREACHABLE`` where none do.
    A breadth-first search back from each target: the box reaches ``y`` from
    ``y - s`` when ``y`` and ``y + s`` are floor."""
    steps = (-width, -1, 1, width)
    n = walls.shape[0]
    for t in range(targets.shape[0]):
        for c in range(n):
            pdist[t, c] = UNREACHABLE
        pdist[t, targets[t]] = 0
        queue[0] = targets[t]
        head = 0
        tail = 1
        while head < tail:
            y = queue[head]
            head += 1
            for s in steps:
                x = y - s
                if walls[x] or walls[y + s] or pdist[t, x] != UNREACHABLE:
                    continue
                pdist[t, x] = pdist[t, y] + 1
                queue[tail] = x
                tail += 1


@njit(cache=True, _nrt=False)
def _h(wbox, nbox, pdist, cols, hu, hv, hp, hway, hminv, hused):
    for i in range(nbox):
        cols[i] = wbox[i]
    return matching_cost(cols, nbox, pdist, hu, hv, hp, hway, hminv, hused)


REGION_CELLS = 8  # connectivity coordinates of the cells: 1..7 areas, 8 or more


@njit(cache=True, _nrt=False)
def _cell(wbox, nbox, startm, blk, floor, width, player, stamp, epoch, queue):
    """The feature cell of a state (boxes ``wbox``, walls and boxes ``blk``, the player
    on ``player``): how many of its boxes stand on start cells, and how many areas of
    free floor the boxes cut the board into (up to ``REGION_CELLS``; counted with the
    fresh ``epoch`` of ``stamp``)."""
    k = 0
    for i in range(nbox):
        k += startm[wbox[i]]
    areas = regions_reach(blk, floor, width, player, stamp, epoch, queue)[0]
    return k * REGION_CELLS + min(areas, REGION_CELLS) - 1


@njit(cache=True, _nrt=False)
def _pulled_cell(cu, startm, blk, width, b, p, stamp, epoch):
    """The feature cell of a pull's child without a fill, or -1 when it takes one (then
    :func:`_cell`): ``cu`` is the parent's cell, ``blk`` the child's board (``b`` open,
    ``p`` blocked) and ``stamp == epoch`` the parent's player region ``R``, which holds
    ``p``. When the open cells around ``p`` that touch it form one run of its ring
    (:func:`levelforge.engine.grid.ring_runs`), blocking ``p`` splits nothing: ``R``
    less ``p`` stays one area, with ``b`` in it (``b`` touches ``p``). ``b``'s other
    open neighbours outside ``R`` then join their areas to it: none, the parent's
    count; one, one area fewer (unless the parent's count was capped); two or more may
    lie in one area, so a fill decides. The count of boxes on start cells changes by
    the pull alone."""
    if ring_runs(blk, width, p) > 1:
        return -1
    joined = 0
    for c in (b - width, b - 1, b + 1, b + width):
        if blk[c] == 0 and stamp[c] != epoch:
            joined += 1
    a = cu % REGION_CELLS
    if joined > 1 or (joined == 1 and a == REGION_CELLS - 1):
        return -1
    k = cu // REGION_CELLS - startm[b] + startm[p]
    return k * REGION_CELLS + a - joined


@njit(cache=True, _nrt=False)
def _child_cell(cu, cbase, wbox, nbox, startm, blk, floor, width, b, p, q, stamp, epoch,
                stamp2, ctr, queue2, porder):
    """The cell key of a pull's child, the parent's being ``cu``: its feature cell
    (:func:`_pulled_cell` from the parent's, or :func:`_cell`'s fill with a fresh epoch
    ``ctr[C_FILL2]`` of ``stamp2`` where local tests do not settle it) plus ``cbase``
    (``REGION_CELLS * (nbox + 1)``) times the filled prefix of the packing order
    ``porder`` (:func:`levelforge.engine.sokoban_packing._packed`; 0 when empty).
    ``blk`` is the child's board, ``wbox`` its sorted boxes, ``q`` its player's cell."""
    cell = _pulled_cell(cu % cbase, startm, blk, width, b, p, stamp, epoch)
    if cell < 0:  # the count floods
        ctr[C_FILL2] += 1
        cell = _cell(wbox, nbox, startm, blk, floor, width, q, stamp2, ctr[C_FILL2], queue2)
    return cell + _packed(blk, porder) * cbase


@njit(cache=True, _nrt=False)
def _pop(heap, ctr, cells, croot, pkey, pchild, psib):
    """The next state to expand and its cell, -1 when none is open: the heap's least
    (cell -1), or with ``cells`` the least of the next cell in turn that has open states
    (``croot[-1]``: the turn)."""
    if ctr[C_HEAP] == 0:
        return np.int64(-1), np.int64(-1)
    if not cells:
        return np.int64(_heap_pop(heap, ctr) & np.int64(0xFFFFFFFF)), np.int64(-1)
    ctr[C_HEAP] -= 1
    ncell = croot.shape[0] - 1
    for t in range(ncell):
        c = (croot[ncell] + t) % ncell
        if croot[c] >= 0:
            croot[ncell] = (c + 1) % ncell
            return np.int64(_cell_pop(c, croot, pkey, pchild, psib)), np.int64(c)
    return np.int64(-1), np.int64(-1)


@njit(cache=True, _nrt=False)
def _store(wbox, nbox, norm, parent, g, move, h, slot, tag, pool, nplayer, nparent, ng,
           nmove, table, heap, ctr, zob, cells, cell, croot, pkey, pchild, psib):
    j = ctr[C_NODES]
    ctr[C_NODES] = j + 1
    for q in range(nbox):
        pool[j * nbox + q] = wbox[q]
    nplayer[j] = norm
    nparent[j] = parent
    ng[j] = g
    nmove[j] = move
    table[slot] = tag | (j + 1)
    if 2 * (j + 1) > ctr[C_SIZE] and 2 * ctr[C_SIZE] <= table.shape[0]:
        ctr[C_SIZE] *= 2
        _rehash(pool, nplayer, nbox, table, ctr[C_SIZE], zob, j + 1)
    if not cells:
        _heap_push(heap, ctr, _key(g, h, ctr[C_WEIGHT], j))
        return j
    _cell_insert(j, _key(g, h, 0, j), cell, croot, pkey, pchild, psib)  # greedy in a cell
    ctr[C_HEAP] += 1
    return j


@njit(cache=True, _nrt=False, nogil=True)
def table_regrow(pool, nplayer, nbox, table, zob, count, ctr):
    """Insert nodes ``0 .. count - 1`` into ``table``: a fresh, zeroed, larger power-of-two
    table, all of it in use from now on (the caller sets ``ctr[C_SIZE]`` to its length,
    so the search never rehashes it again). Returns False, the table unfinished, as soon
    as ``ctr[C_HALT]`` is set (looked at every 4,096 nodes: a rebuild takes seconds at
    10M states, and a time limit or cancel token must be able to stop it); runs without
    the GIL, so that the watchdog thread can set it."""
    mask = table.shape[0] - 1
    for j in range(count):
        if (j & 4095) == 0 and ctr[C_HALT] != 0:
            return False
        _insert(pool, nplayer, nbox, table, mask, zob, j)
    return True


@njit(cache=True, _nrt=False)
def backward_start(walls, goal_cells, width, pdist, zob, pool, nplayer, nparent, ng, nmove,
                   heap, table, ctr, blk, stamp, queue, wbox, cols, hu, hv, hp, hway, hminv,
                   hused, cells, startm, croot, pkey, pchild, psib, floor, pdb, porder):
    """Store the solved states (boxes on ``goal_cells``, sorted; the player in each
    region of the free cells that touches a box, or only in the region of
    ``ctr[C_ROOT] - 1`` when that is set) as the roots, but none with a pair of
    boxes the pull pair table ``pdb`` condemns (see :func:`backward_run`; ``cells`` and
    ``porder`` as there). ``ctr[C_BOXES]``,
    ``[C_CAP]`` and ``[C_WEIGHT]`` are set by the caller (which answers a solved start
    itself). Returns the
    status: RUNNING, or UNSOLVABLE when no root is kept."""
    nbox = ctr[C_BOXES]
    ctr[C_NODES] = 0
    ctr[C_HEAP] = 0
    ctr[C_EXPANDED] = 0
    ctr[C_GOAL] = -1
    ctr[C_MEET] = -1
    ctr[C_BOUND] = 0
    ctr[C_STATUS] = RUNNING
    size = min(64, table.shape[0])  # a power of two, as the table's size
    ctr[C_SIZE] = size
    for i in range(size):
        table[i] = 0
    for i in range(croot.shape[0]):
        croot[i] = -1
    croot[croot.shape[0] - 1] = 0
    for i in range(nbox):
        wbox[i] = goal_cells[i]
        blk[goal_cells[i]] = 1
    h = _h(wbox, nbox, pdist, cols, hu, hv, hp, hway, hminv, hused)
    cell = 0  # the roots' cell: the same boxes, so the same areas
    if cells:
        ctr[C_FILL] += 1
        cell = _cell(wbox, nbox, startm, blk, floor, width, np.int64(goal_cells[0]), stamp,
                     ctr[C_FILL], queue) + _packed(blk, porder) * REGION_CELLS * (nbox + 1)
    for c in range(walls.shape[0]):
        if walls[c] or blk[c]:
            continue
        if not (blk[c - width] or blk[c - 1] or blk[c + 1] or blk[c + width]):
            continue
        ctr[C_FILL] += 1
        norm = _region_min(blk, width, np.int64(c), stamp, ctr[C_FILL], queue)
        if ctr[C_ROOT] > 0 and norm != ctr[C_ROOT] - 1:
            continue
        slot, j, tag = _lookup(pool, nplayer, nbox, table, ctr[C_SIZE] - 1, zob, wbox, norm)
        if j >= 0 or h >= UNREACHABLE:
            continue
        dead = False
        for i in range(nbox):
            if pair_dead(pdb, wbox, nbox, np.int64(wbox[i]), norm):
                dead = True
                break
        if not dead:
            _store(wbox, nbox, norm, -1, 0, -1, h, slot, tag, pool, nplayer, nparent, ng,
                   nmove, table, heap, ctr, zob, cells, cell, croot, pkey, pchild, psib)
    for i in range(nbox):
        blk[goal_cells[i]] = 0
    if ctr[C_HEAP] == 0:
        ctr[C_STATUS] = UNSOLVABLE
    return ctr[C_STATUS]


@njit(cache=True, _nrt=False)
def _pulled_h(nbox, i, p, pdist, mw, hu, hv, hp, hway, hminv, hused, norm, start_norm):
    """``h`` of the child whose box ``i`` was pulled onto ``p`` (its normalised player
    ``norm``): the expanded state's matching repaired, and 1 where the boxes are home
    but the player is not in the start's region."""
    h = moved_matching(nbox, i, p, pdist, mw, hu, hv, hp, hway, hminv, hused)
    if h == 0 and norm != start_norm:
        h = 1  # the boxes are home, the player is not
    return h


@njit(cache=True, _nrt=False)
def meet_scan(fpool, fplayer, lo, hi, pool, nplayer, table, ctr, zob, wbox):
    """The first of a forward search's nodes ``lo .. hi - 1`` (boxes ``fpool``, sorted,
    ``ctr[C_BOXES]`` a node; normalised players ``fplayer``, -1 for the pushes on a
    macro's way, which are skipped) that this backward search has stored:
    ``(forward node, backward node)``, or ``(-1, -1)``. :func:`backward_run` finds the
    meetings where the backward search comes second; this finds those where the
    forward search does (a state the backward search stored long before, near the
    goals, that the forward search reaches later)."""
    nbox = ctr[C_BOXES]
    mask = ctr[C_SIZE] - 1
    for f in range(lo, hi):
        if fplayer[f] < 0:
            continue  # a push on a macro's way: not a stored state, its boxes not written
        base = f * nbox
        for i in range(nbox):
            wbox[i] = fpool[base + i]
        _, j, _ = _lookup(pool, nplayer, nbox, table, mask, zob, wbox, np.int64(fplayer[f]))
        if j >= 0:
            return f, j
    return -1, -1


@njit(cache=True, _nrt=False, nogil=True)
def backward_run(budget, walls, start_norm, width, pdist, alive, zob, ftable, fpool,
                 fplayer, ftepoch, pool, nplayer, nparent, ng, nmove, heap, table, ctr, blk,
                 stamp, queue, stamp2, queue2, wbox, hu, hv, hp, hway, hminv, hused, mw,
                 cells, startm, croot, pkey, pchild, psib, floor, pdb, porder):
    """Expand at most ``budget`` states (see the module docstring; ``alive[c]`` is 1
    where a box can still be pulled to a start cell; a new state whose pulled box has
    no way back to two start cells with another box, in the pull pair table ``pdb``
    (:func:`levelforge.sokoban.pairs.pull_pair_table`; at most one slot: none), is dropped: it
    reaches neither the start nor a forward state). With ``cells`` the feature cells take
    turns (:func:`_pop`); a state's cell counts its boxes on start cells (``startm``),
    its areas of free floor and the filled prefix of the forward search's packing order
    ``porder`` (none when empty): :func:`_child_cell`. Returns the status: RUNNING,
    SOLVED (``ctr[C_GOAL]`` is the start's node, or a state the forward search met:
    below), UNSOLVABLE (every state reachable by pulls searched: the start is not among
    them), LIMIT (``ctr[C_CAP]`` states), GROW (the node arrays or the heap could
    overflow in the next expansion: grow them and call again) or HALTED
    (``ctr[C_HALT]`` set, looked at before each pull).

    A forward search's transposition table (``ftable``, generation ``ftepoch``, its
    nodes' boxes ``fpool`` and players ``fplayer``, keyed with the same ``zob``; empty
    arrays for none) makes it bidirectional: a new state found there is a meeting, its
    forward node in ``ctr[C_MEET]``; the forward path to it and the pulls from it,
    read backwards, solve the level.

    Each child's ``h`` is repaired from the expanded state's matching (kept in ``mw``,
    :func:`levelforge.engine.sokoban_match.cells_matching`): a pull moves one box and
    pull distances ignore the player, so one row changes."""
    steps = (-width, -1, 1, width)
    nbox = ctr[C_BOXES]
    room = 4 * nbox
    cbase = REGION_CELLS * (nbox + 1)  # cells per entry of the packing order filled
    exact = not cells and ctr[C_WEIGHT] == 1  # push-optimal A* (the module docstring)
    done = 0
    while done < budget:
        if ctr[C_STATUS] != RUNNING:
            return ctr[C_STATUS]
        if ctr[C_NODES] + room > nplayer.shape[0] or ctr[C_HEAP] + room > heap.shape[0] \
                or 2 * (ctr[C_NODES] + room) > table.shape[0]:
            return GROW
        if exact:
            if ctr[C_HEAP] == 0:
                ctr[C_STATUS] = UNSOLVABLE
                return UNSOLVABLE
            key = _heap_pop(heap, ctr)
            u = key & _T_NODE_MASK
            g = MAX_G - ((key >> _G_SHIFT) & _G_MASK)
            if g != ng[u]:
                continue  # an older entry: the state was found again by fewer pulls
            f = key >> _F_SHIFT
            ctr[C_BOUND] = max(ctr[C_BOUND], f)
            if f == g:  # h 0: the start
                ctr[C_GOAL] = u
                ctr[C_STATUS] = SOLVED
                return SOLVED
            cu = np.int64(-1)
        else:
            u, cu = _pop(heap, ctr, cells, croot, pkey, pchild, psib)
            if u < 0:
                ctr[C_STATUS] = UNSOLVABLE
                return UNSOLVABLE
        done += 1
        ctr[C_EXPANDED] += 1
        base = u * nbox
        for i in range(nbox):
            blk[pool[base + i]] = 1
        ctr[C_FILL] += 1
        epoch = ctr[C_FILL]
        flood_fill(blk, width, np.int64(nplayer[u]), stamp, epoch, queue)
        cells_matching(pool, base, nbox, pdist, mw, hway, hminv, hused)
        g1 = ng[u] + 1
        for i in range(nbox):
            b = np.int64(pool[base + i])
            for d in range(4):
                if ctr[C_HALT] != 0:
                    ctr[C_STATUS] = HALTED
                    break
                s = steps[d]
                p = b + s
                q = p + s
                if stamp[p] != epoch or blk[q] or not alive[p] or g1 >= MAX_G:
                    continue
                _replaced(pool, base, nbox, b, p, wbox)  # the child's boxes, sorted
                blk[b] = 0
                blk[p] = 1
                ctr[C_FILL2] += 1
                norm = _pull_norm(blk, width, b, p, q, np.int64(nplayer[u]), stamp, epoch,
                                  stamp2, ctr[C_FILL2], queue2)
                slot, j, tag = _lookup(pool, nplayer, nbox, table, ctr[C_SIZE] - 1, zob,
                                       wbox, norm)
                dead = j < 0 and pair_dead(pdb, wbox, nbox, p, norm)
                cell = 0
                if cells and j < 0 and not dead:  # a new state's cell only
                    cell = _child_cell(cu, cbase, wbox, nbox, startm, blk, floor, width, b,
                                       p, q, stamp, epoch, stamp2, ctr, queue2, porder)
                blk[p] = 0
                blk[b] = 1
                if exact and j >= 0 and g1 < ng[j]:  # a shorter way to a stored state
                    h = _pulled_h(nbox, i, p, pdist, mw, hu, hv, hp, hway, hminv, hused,
                                  norm, start_norm)
                    ng[j] = g1
                    nparent[j] = u
                    nmove[j] = 4 * b + d
                    _heap_push(heap, ctr, _key(g1, h, 1, j))
                    continue
                if j >= 0 or dead:
                    continue  # met before (best-first for any solution keeps the first way)
                if ctr[C_NODES] >= ctr[C_CAP]:
                    ctr[C_STATUS] = LIMIT
                    break
                if ftable.shape[0] > 0:
                    key = zob[1, norm]
                    for r in range(nbox):
                        key ^= zob[0, wbox[r]]
                    f, _ = _forward(ftable, ftable.shape[0] - 1, ftepoch, key, norm, wbox,
                                    nbox, fplayer, fpool)
                    if f >= 0:
                        ctr[C_MEET] = f
                        ctr[C_GOAL] = _store(wbox, nbox, norm, u, g1, 4 * b + d, 0, slot,
                                             tag, pool, nplayer, nparent, ng, nmove, table,
                                             heap, ctr, zob, cells, 0, croot, pkey,
                                             pchild, psib)
                        ctr[C_STATUS] = SOLVED
                        break
                h = _pulled_h(nbox, i, p, pdist, mw, hu, hv, hp, hway, hminv, hused, norm,
                              start_norm)
                if h >= UNREACHABLE:
                    continue
                j = _store(wbox, nbox, norm, u, g1, 4 * b + d, h, slot, tag, pool, nplayer,
                           nparent, ng, nmove, table, heap, ctr, zob, cells, cell, croot,
                           pkey, pchild, psib)
                if h == 0 and not exact:  # (the exact search stops when it expands it)
                    ctr[C_GOAL] = j
                    ctr[C_STATUS] = SOLVED
                    break
            if ctr[C_STATUS] != RUNNING:
                break
        for i in range(nbox):
            blk[pool[base + i]] = 0
    return ctr[C_STATUS]
