"""The features and advisors of the feature-space search
(:mod:`levelforge.engine.sokoban_fess`), after Shoham and Schaeffer's FESS.

A state's *feature key* packs four counts, 8 bits each (capped at 255):

- **packing**: goals filled in the packing order (the length of the filled prefix);
- **connectivity**: regions of free floor (neither wall nor box);
- **room connectivity**: pairs of neighbouring rooms between which boxes in the
  passages leave no way. Rooms are the connected areas of floor cells that lie in an
  open 2x2 square; the other floor cells are passages (tunnels, doorways); two rooms are
  neighbours when a run of passage cells joins them (computed once per level by
  :func:`levelforge.sokoban.fess.room_links`); boxes inside rooms are ignored;
- **out of plan**: boxes standing where the packing order is about to seal them in:
  with ``p`` goals packed, a box off those goals counts when its cell is cut off from
  the next goal to fill, ``order[p + 1]``, once the goals ``order[:p + 2]`` are filled
  (other boxes ignored; :func:`out_of_plan_areas` tabulates it per ``p``).

The advisors each propose at most one child of an expanded state, a push that costs no
weight (:func:`advise`): connectivity, room connectivity and out of plan (the push that
lowers that feature most), hotspots (the box with the most other loose boxes around it,
pushed where it has fewer; the *opener* pushes one of its neighbours away when it cannot
move itself) and the explorer (the push that most enlarges the player's region). The
packing advisor, a box pushed along a whole path onto the next goal of the packing
order, stays in :mod:`levelforge.engine.sokoban_fess`.
"""
import numpy as np
from numba import njit

from .grid import flood_fill

FEATURE_MAX = 255  # each count of the feature key is capped to its 8 bits

# fields of one child record in ``kids`` (int64, K_FIELDS per child)
K_NODE = 0    # the child's node
K_H = 1       # its matching cost
K_FEAT = 2    # its feature key
K_REG = 3     # its connectivity: regions of free floor
K_LINKS = 4   # its room connectivity: room pairs cut apart
K_OOP = 5     # its boxes out of plan
K_REACH = 6   # cells of the player's region
K_FROM = 7    # the pushed box's cell before the push
K_HOT = 8     # loose boxes next to the pushed box after the push
K_ADV = 9     # 1 when an advisor proposes it
K_FIELDS = 10

# the advisors of :func:`advise`, one bit each
ADV_CONNECTIVITY = 1
ADV_ROOMS = 2
ADV_OUT_OF_PLAN = 4
ADV_EXPLORER = 8
ADV_HOTSPOTS = 16  # with the opener


@njit(cache=True, _nrt=False)
def label_areas(blocked, width, label, queue):
    """Number the 4-connected areas of unblocked cells in order of their first cells:
    ``label[c]`` (int64) is the area of cell ``c``, -1 where blocked (the border must be
    blocked). Returns the number of areas."""
    label[:] = -1
    count = 0
    for c0 in range(blocked.shape[0]):
        if not blocked[c0] and label[c0] < 0:
            # the labels are the fill's stamps: area ``count`` is stamped ``count``, and
            # no fill from a new cell reaches an area numbered before (areas are maximal)
            flood_fill(blocked, width, np.int64(c0), label, np.int64(count), queue)
            count += 1
    return count


@njit(cache=True, _nrt=False)
def feature_key(packed, regions, links, oop):
    """The four counts, each capped at ``FEATURE_MAX``, packed into one key."""
    return (np.int64(min(packed, FEATURE_MAX)) | (np.int64(min(regions, FEATURE_MAX)) << 8)
            | (np.int64(min(links, FEATURE_MAX)) << 16) | (np.int64(min(oop, FEATURE_MAX)) << 24))


@njit(cache=True, _nrt=False)
def out_of_plan_areas(walls, order, width, blk, stamp, queue, inarea):
    """``inarea[i * n + c] = 1`` (``n`` cells) when cell ``c`` is joined through floor to
    a free side of goal ``order[i]`` with the goals ``order[:i + 1]`` filled, boxes
    otherwise ignored; rows ``0 .. k - 1`` for ``k`` goals. ``blk`` (uint8, one per cell)
    and ``stamp`` (int64, zeroed) are work arrays; ``blk`` is left equal to ``walls``."""
    n = walls.shape[0]
    k = order.shape[0]
    steps = (-width, -1, 1, width)
    for c in range(n):
        blk[c] = walls[c]
    for i in range(k):
        g = order[i]
        blk[g] = 1
        ep = np.int64(i + 1)
        for s in steps:
            if blk[g + s] == 0 and stamp[g + s] != ep:
                flood_fill(blk, width, np.int64(g + s), stamp, ep, queue)
        row = i * n
        for c in range(n):
            inarea[row + c] = 1 if stamp[c] == ep else 0
    for c in range(n):
        blk[c] = walls[c]


@njit(cache=True, _nrt=False)
def out_of_plan(pool, base, nbox, packed, inarea, n, k):
    """Boxes ``pool[base:base + nbox]`` off the ``packed`` goals that the next goals of
    the packing order cut off from the goal after them (see the module doc)."""
    if packed + 1 >= k:
        return 0
    row = (packed + 1) * n
    count = 0
    for q in range(nbox):
        if inarea[row + pool[base + q]] == 0:
            count += 1
    return count - packed  # the packed boxes stand on filled goals, outside every area


@njit(cache=True, _nrt=False)
def _root(rpar, r):
    while rpar[r] != r:
        rpar[r] = rpar[rpar[r]]
        r = rpar[r]
    return r


@njit(cache=True, _nrt=False)
def blocked_links(occ, width, link, room, pa, pb, rpar, stamp, ep, queue):
    """Pairs of rooms that touch a common link (``pa[p]``, ``pb[p]``) with no path left
    between them through links free of boxes (rooms count as open inside; boxes are
    marked in ``occ``). ``link`` lists the passage cells, ``room[c]`` is the room of cell
    ``c`` (-1 on a passage, -2 on a wall); ``rpar`` (one per room) is a work array, ``stamp`` is
    marked with the fresh epoch ``ep``."""
    for r in range(rpar.shape[0]):
        rpar[r] = r
    for i in range(link.shape[0]):
        c0 = link[i]
        if occ[c0] or stamp[c0] == ep:
            continue
        # the free link cells joined to c0, and the rooms they touch, joined
        stamp[c0] = ep
        queue[0] = c0
        head = 0
        tail = 1
        first = -1
        while head < tail:
            c = queue[head]
            head += 1
            for nb in (c - width, c - 1, c + 1, c + width):
                r = room[nb]
                if r >= 0:
                    r = _root(rpar, r)
                    if first < 0:
                        first = r
                    elif r != first:
                        rpar[r] = first
                elif r == -1 and occ[nb] == 0 and stamp[nb] != ep:
                    stamp[nb] = ep
                    queue[tail] = nb
                    tail += 1
    count = 0
    for p in range(pa.shape[0]):
        if _root(rpar, pa[p]) != _root(rpar, pb[p]):
            count += 1
    return count


@njit(cache=True, _nrt=False)
def regions_reach(blk, floor, width, player, stamp, ep, queue):
    """``(regions, reach)``: connected regions of free floor (``floor`` lists the floor
    cells, ``blk`` marks walls and boxes) and the cells of the one holding ``player``;
    ``stamp`` is marked with the fresh epoch ``ep``."""
    count = 0
    reach = 0
    for i in range(floor.shape[0]):
        c = floor[i]
        if blk[c] == 0 and stamp[c] != ep:
            m = flood_fill(blk, width, np.int64(c), stamp, ep, queue)
            count += 1
            if reach == 0 and stamp[player] == ep:
                reach = m
    return count, reach


@njit(cache=True, _nrt=False)
def loose_around(occ, goals, c, width):
    """Boxes off goals on the four cells next to ``c``: the boxes a box on ``c`` hinders
    (each can be pushed neither towards it nor away from it)."""
    count = 0
    for nb in (c - width, c - 1, c + 1, c + width):
        if occ[nb] and goals[nb] == 0:
            count += 1
    return count


@njit(cache=True, _nrt=False)
def hotspot(pool, base, nbox, occ, goals, width):
    """``(cell, hotness)`` of the box off a goal with the most loose boxes around it
    (ties: the smaller cell); ``(-1, 0)`` when none has two."""
    best = -1
    hot = 1
    for q in range(nbox):
        c = pool[base + q]
        if goals[c]:
            continue
        v = loose_around(occ, goals, c, width)
        if v > hot:
            best = c
            hot = v
    return best, (hot if best >= 0 else 0)


@njit(cache=True, _nrt=False)
def _pick(kids, nk, field, below, sign, only):
    """The child whose ``field`` (times ``sign``) is least and below ``below`` (ties: the
    smaller matching cost, then the earlier child), among those that pushed the box on
    ``only`` (-1: among all); marks it advised and returns it, -1 when none."""
    best = -1
    for r in range(nk):
        v = sign * kids[r * K_FIELDS + field]
        if v >= below or (only >= 0 and kids[r * K_FIELDS + K_FROM] != only):
            continue
        if best >= 0:
            bv = sign * kids[best * K_FIELDS + field]
            if v > bv or (v == bv and kids[r * K_FIELDS + K_H] >= kids[best * K_FIELDS + K_H]):
                continue
        best = r
    if best >= 0:
        kids[best * K_FIELDS + K_ADV] = 1
    return best


@njit(cache=True, _nrt=False)
def advise(kids, nk, fu, reach, hot_cell, hot, width, which):
    """Mark (``K_ADV``) the children the advisors propose among the ``nk`` records of
    ``kids``, for a parent of feature key ``fu``, player region of ``reach`` cells and
    hotspot on ``hot_cell`` (hotness ``hot``; -1: none). Returns how many are advised.
    (Tested against a plain-Python reference in ``tests/``.)"""
    for r in range(nk):
        kids[r * K_FIELDS + K_ADV] = 0
    if which & ADV_CONNECTIVITY:
        _pick(kids, nk, K_REG, (fu >> 8) & FEATURE_MAX, 1, -1)
    if which & ADV_ROOMS:
        _pick(kids, nk, K_LINKS, (fu >> 16) & FEATURE_MAX, 1, -1)
    if which & ADV_OUT_OF_PLAN:
        _pick(kids, nk, K_OOP, (fu >> 24) & FEATURE_MAX, 1, -1)
    if which & ADV_EXPLORER:  # the largest player region past the parent's
        _pick(kids, nk, K_REACH, -reach, -1, -1)
    if which & ADV_HOTSPOTS and hot_cell >= 0 and _pick(kids, nk, K_HOT, hot, 1, hot_cell) < 0:
        # opener: the hot box cannot get away; push a neighbour of it (least matching cost)
        best = -1
        for r in range(nk):
            d = kids[r * K_FIELDS + K_FROM] - hot_cell
            if (d == 1 or d == -1 or d == width or d == -width) and (
                    best < 0 or kids[r * K_FIELDS + K_H] < kids[best * K_FIELDS + K_H]):
                best = r
        if best >= 0:
            kids[best * K_FIELDS + K_ADV] = 1
    advised = 0
    for r in range(nk):
        advised += kids[r * K_FIELDS + K_ADV]
    return advised
