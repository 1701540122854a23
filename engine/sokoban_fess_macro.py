"""The packing macro's route (the packing advisor of the feature-space search,
:mod:`levelforge.engine.sokoban_fess`): a box pushed along a whole path onto the next
goal of the packing order. A breadth-first search of pulls from the goal finds the path
(:func:`_macro_path`), a replay with every box in place checks that the player can walk
to each pushing side (:func:`_macro_route`, which bars a push that fails and searches
again), and the residual test of the packing plan chooses among the boxes
(:func:`_macro_choice`). The search stores the macro's state (``_macro`` there).
"""
import numpy as np
from numba import njit

from .grid import flood_fill
from .sokoban import _moved
from .sokoban_fess_residual import residual_stuck
from .sokoban_packing import _packed, parking
from .sokoban_state import C_FILL2, F_FILL

MACRO_TRIES = 3  # path searches of one packing macro (each bars the pushes that failed before)
MACRO_BOXES = 3  # more boxes a packing macro tries while its state fails the residual test


@njit(cache=True, _nrt=False)
def _source(b, sd, order, npacked, target, walls, occ, stamp, epoch, mseen, mark):
    """Whether the box on ``b`` can start a macro path onto ``target`` with a push by
    ``sd``: not barred (all four of its pull-search states marked ``mark`` in
    ``mseen``, see :func:`_macro_route`), not on the first ``npacked`` entries of
    ``order`` (a box parked in the pocket of ``target`` excepted), its pushing side
    ``b - sd`` free and in the player's region (``stamp == epoch``)."""
    pl = b - sd
    if walls[pl] or occ[pl] or stamp[pl] != epoch:
        return False
    if mseen[4 * b] == mark and mseen[4 * b + 1] == mark and mseen[4 * b + 2] == mark \
            and mseen[4 * b + 3] == mark:
        return False
    return unpacked(b, order, npacked, target)


@njit(cache=True, _nrt=False)
def unpacked(b, order, npacked, target):
    """Whether the box on ``b`` may fill ``target``: not on one of the first ``npacked``
    entries of ``order`` (a box parked in the pocket of ``target`` excepted)."""
    for q in range(npacked):
        c, g = parking(order[q])
        if c == b and g != target:
            return False
    return True


@njit(cache=True, _nrt=False)
def pull_step(s, d, walls, compof, width):
    """One step of a pull search over (box cell, player side) states from the state
    ``s`` (``cell * 4 + side``): the box on ``cell`` came from ``cell - step[d]``,
    pushed by a player on ``cell - 2 step[d]`` who then stands where ``side`` joins
    (``compof``: the player walking round the lone box). Returns ``(box cell before,
    player cell)``, or ``(-1, -1)`` when walls forbid it."""
    n = walls.shape[0]
    steps = (-width, -1, 1, width)
    c = s >> 2
    sd = steps[d]
    src = c - sd
    if walls[src] or compof[c * n + src] != compof[c * n + c + steps[s & 3]]:
        return -1, -1
    pl = src - sd
    if walls[pl]:
        return -1, -1
    return src, pl


@njit(cache=True, _nrt=False)
def _path_from(s, push, length, mnext, steps, path):
    """Write ``push`` at ``path[length]``, then the pushes along the ``mnext`` links
    from the pull-search state ``s`` (``cell * 4 + side``) to the target; returns the
    path's length."""
    path[length] = push
    length += 1
    t = s
    while mnext[t] >= 0:
        nx = mnext[t]
        cb = t >> 2
        nb = nx >> 2
        for e in range(4):
            if cb + steps[e] == nb:
                path[length] = cb * 4 + e
                length += 1
                break
        t = nx
    return length


@njit(cache=True, _nrt=False)
def _macro_path(target, order, npacked, occ, blk, walls, dead, compof, width, stamp, epoch,
                mseen, mnext, mqueue, fctr, path):
    """A box path onto the empty goal ``target``: a breadth-first search of pulls from
    the target over (box cell, player side) states, other boxes as obstacles and the
    player's sides joined as with a lone box (``compof``; the caller replays the path and
    drops it if the player cannot walk as assumed). The source is any box not on the
    first ``npacked`` goals of ``order`` whose pushing side the player reaches now
    (``stamp == epoch``). The player's cell of a push must be free, except the
    source's own cell: a source whose first two pushes go the same way stands where
    the player pushes from the second time (without that exception no path starts
    with a straight run, the commonest start). Writes the pushes (``cell * 4 +
    direction``) into ``path`` and returns their number, 0 when there is none."""
    steps = (-width, -1, 1, width)
    fctr[F_FILL] += 1
    mark = fctr[F_FILL]
    tail = 0
    for k in range(4):  # the player ends on any side (another box there or not: the
        p = target + steps[k]  # side stands for the area the player walks in)
        if walls[p] == 0:
            s = 4 * target + k
            mseen[s] = mark
            mnext[s] = -1
            mqueue[tail] = s
            tail += 1
    head = 0
    while head < tail:
        s = mqueue[head]
        head += 1
        for d in range(4):
            # the last push went in direction d: the box came from c - step, the player
            # ends on c - step (side 3 - d of c), which must join the state's side
            src, pl = pull_step(s, d, walls, compof, width)
            if src < 0:
                continue
            sd = steps[d]
            if occ[pl]:
                # the player's cell holds a box: the source itself, when its first two
                # pushes both go in direction d (pl to src to c); any other box blocks
                if occ[src] or not _source(pl, sd, order, npacked, target, walls, occ,
                                           stamp, epoch, mseen, mark):
                    continue
                path[0] = pl * 4 + d
                return _path_from(s, src * 4 + d, 1, mnext, steps, path)
            if occ[src]:
                if not _source(src, sd, order, npacked, target, walls, occ, stamp,
                               epoch, mseen, mark):
                    continue
                return _path_from(s, src * 4 + d, 0, mnext, steps, path)
            if dead[src]:
                continue
            s2 = 4 * src + (3 - d)
            if mseen[s2] == mark:
                continue
            mseen[s2] = mark
            mnext[s2] = s
            mqueue[tail] = s2
            tail += 1
    return 0


@njit(cache=True, _nrt=False)
def _macro_choice(u, target, order, npacked, occ, blk, walls, dead, compof, width, stamp,
                  epoch, mseen, mnext, mqueue, fctr, path, nplayer, stamp2, ctr, queue2, nbox,
                  nbox_pool, wbox, res):
    """The packing macro's route for the box that fills ``target``: ``(length, player
    cell, stuck)``, the first two as :func:`_macro_route` returns them. While the state
    it leaves fails the residual test
    (:func:`levelforge.engine.sokoban_fess_residual.residual_stuck`: the box was one
    the rest of the plan needs, or others are shut in by it), the next box the path
    search finds, up to ``MACRO_BOXES`` more; when all fail, the first route, ``stuck``
    True (its state is deferred)."""
    player = np.int64(nplayer[u])
    end = path.shape[0] - 1
    for tries in range(MACRO_BOXES + 1):
        length, at = _macro_route(target, order, npacked, occ, blk, walls, dead, compof,
                                  width, stamp, epoch, mseen, mnext, mqueue, fctr, path,
                                  player, stamp2, ctr, queue2, tries)
        if length == 0:
            break
        first = path[0] >> 2
        last = np.int64(path[length - 1] >> 2) + (-width, -1, 1, width)[path[length - 1] & 3]
        _moved(nbox_pool, u, nbox, first, last, wbox)
        stuck = residual_stuck(wbox, 0, nbox, _packed(occ, order), walls, order, width, res,
                               ctr)
        if tries == MACRO_BOXES or not stuck:
            return length, at, stuck
        _undo(path, length, occ, blk, width)
        path[end - tries] = first  # barred from the next search on
    if tries == 0:
        return 0, player, False
    length, at = _macro_route(target, order, npacked, occ, blk, walls, dead, compof, width,
                              stamp, epoch, mseen, mnext, mqueue, fctr, path, player, stamp2,
                              ctr, queue2, 0)
    return length, at, True


@njit(cache=True, _nrt=False)
def _macro_route(target, order, npacked, occ, blk, walls, dead, compof, width, stamp, epoch,
                 mseen, mnext, mqueue, fctr, path, player, stamp2, ctr, queue2, nboxes):
    """A packing macro's path onto ``target`` that holds with every box in place:
    ``(length, player cell)``, the pushes in ``path`` and played on ``occ`` and ``blk``
    (``(0, player)`` and nothing played when there is none). The path search
    (:func:`_macro_path`) lets the player walk as if the moving box were alone: when the
    replay finds a pushing side out of the player's reach, that push is barred and the
    search runs again, at most ``MACRO_TRIES`` times. The boxes on the cells
    ``path[-nboxes:]`` are barred as sources. ``path`` holds ``4 n + 1 + MACRO_TRIES +
    MACRO_BOXES`` entries (``n`` cells): a path has at most ``4 n + 1`` pushes, the
    barred pushes are kept past it, the barred boxes at its very end."""
    nbar = 0  # the pushes barred so far, kept past the path in ``path``
    top = path.shape[0] - 1 - MACRO_BOXES
    for attempt in range(MACRO_TRIES):
        for q in range(nbar):
            mseen[path[top - q]] = fctr[F_FILL] + 1  # the next search's mark
        for q in range(nboxes):
            b = path[path.shape[0] - 1 - q]
            for k in range(4):
                mseen[4 * b + k] = fctr[F_FILL] + 1
        length = _macro_path(target, order, npacked, occ, blk, walls, dead, compof, width,
                             stamp, epoch, mseen, mnext, mqueue, fctr, path)
        if length == 0:
            break
        end, moved = _replay(path, length, player, occ, blk, width, stamp2, ctr, queue2)
        if moved == length:
            return length, end
        _undo(path, moved, occ, blk, width)
        # the push that failed: its box's cell and pushing side, a pull-search state
        path[top - nbar] = 4 * (path[moved] >> 2) + 3 - (path[moved] & 3)
        nbar += 1
    return 0, player


@njit(cache=True, _nrt=False)
def _replay(path, length, player, occ, blk, width, stamp2, ctr, queue2):
    """Play the macro path's pushes on ``occ`` and ``blk`` while the player can walk to
    each pushing side: ``(player cell, pushes played)``, all ``length`` of them when
    the path holds."""
    steps = (-width, -1, 1, width)
    for q in range(length):
        b = np.int64(path[q] >> 2)
        s = steps[path[q] & 3]
        ctr[C_FILL2] += 1
        flood_fill(blk, width, player, stamp2, ctr[C_FILL2], queue2)
        if stamp2[b - s] != ctr[C_FILL2] or blk[b + s]:
            return player, q
        occ[b] = 0
        blk[b] = 0
        occ[b + s] = 1
        blk[b + s] = 1
        player = b
    return player, length


@njit(cache=True, _nrt=False)
def _undo(path, moved, occ, blk, width):
    """Take back the first ``moved`` pushes of ``path`` that :func:`_replay` played."""
    steps = (-width, -1, 1, width)
    for q in range(moved - 1, -1, -1):
        b = np.int64(path[q] >> 2)
        s = steps[path[q] & 3]
        occ[b + s] = 0
        blk[b + s] = 0
        occ[b] = 1
        blk[b] = 1
