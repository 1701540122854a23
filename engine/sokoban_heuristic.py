"""Sokoban search heuristics: the push-optimal lower bound (a min-cost perfect matching of
boxes to goals over push distances, Hungarian method on preallocated rows) and the
any-solution searches' staged packing heuristic (goals filled layer by layer).
"""
import numpy as np
from numba import njit

from .sokoban_state import C_STAGE, PACK_PENALTY, UNREACHABLE, _BIG


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
def column_cost(dist, col, g):
    """Push distance to goal row ``g`` of the box of column ``col`` (see
    :func:`box_columns`: ``4 * cell + side``, or ``-(cell + 1)`` for the box's best
    side)."""
    if col >= 0:
        return np.int64(dist[g, col])
    b4 = 4 * (-col - 1)
    c = dist[g, b4]
    for k in range(1, 4):
        if dist[g, b4 + k] < c:
            c = dist[g, b4 + k]
    return np.int64(c)


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
                    cur = column_cost(dist, col, j - 1) - hu[i0] - hv[j]
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
        d = column_cost(dist, cols[i], row)
        if d < best:
            best = d
    return best
