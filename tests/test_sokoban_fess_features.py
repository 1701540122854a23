"""The features and advisors of the feature-space search
(``levelforge.engine.sokoban_fess_features``, ``levelforge.sokoban.fess.room_links``)
against plain-Python references over sets of (x, y) cells, and on hand-made boards."""
import numpy as np
import pytest
from levelforge.engine import sokoban_fess_features as F
from levelforge.sokoban.fess import room_links

STEPS = ((0, -1), (-1, 0), (1, 0), (0, 1))


def random_board(rng, max_side=9, wall_p=0.25):
    """``(walls set, width, height)``: a walled room with random inner walls."""
    w, h = (int(v) for v in rng.integers(4, max_side + 1, size=2))
    walls = {(x, y) for y in range(h) for x in range(w)
             if x in (0, w - 1) or y in (0, h - 1) or rng.random() < wall_p}
    return walls, w, h


def flat(walls, w, h):
    return np.array([(x, y) in walls for y in range(h) for x in range(w)], np.uint8)


def cell(c, w):
    return c[1] * w + c[0]


def floor_of(walls, w, h):
    return [(x, y) for y in range(h) for x in range(w) if (x, y) not in walls]


def component(start, free):
    """Cells of ``free`` (a set) 4-connected to ``start``."""
    seen = {start}
    todo = [start]
    while todo:
        x, y = todo.pop()
        for dx, dy in STEPS:
            nb = (x + dx, y + dy)
            if nb in free and nb not in seen:
                seen.add(nb)
                todo.append(nb)
    return seen


def naive_rooms(walls, w, h):
    """Rooms (list of cell sets, in order of their first cell in row order) and passage
    cells (a set): room cells lie in an open 2x2 square of floor."""
    floor = floor_of(walls, w, h)
    open_cells = set()
    for x, y in floor:
        for ox, oy in ((0, 0), (-1, 0), (0, -1), (-1, -1)):
            square = {(x + ox + a, y + oy + b) for a in (0, 1) for b in (0, 1)}
            if not square & walls:
                open_cells.add((x, y))
    rooms = []
    for c in floor:
        if c in open_cells and not any(c in r for r in rooms):
            rooms.append(component(c, open_cells))
    return rooms, set(floor) - open_cells


def naive_pairs(walls, w, h):
    """Room pairs (index pairs) that one connected run of passages touches both of."""
    rooms, passages = naive_rooms(walls, w, h)
    pairs = set()
    done = set()
    for c in sorted(passages, key=lambda c: (c[1], c[0])):
        if c in done:
            continue
        run = component(c, passages)
        done |= run
        touched = {i for i, r in enumerate(rooms) for x, y in run
                   for dx, dy in STEPS if (x + dx, y + dy) in r}
        pairs |= {(a, b) for a in touched for b in touched if a < b}
    return sorted(pairs)


def naive_blocked_links(walls, w, h, boxes):
    """Neighbouring room pairs with no way left between them through free passages
    (rooms open inside): components over rooms and box-free passages."""
    rooms, passages = naive_rooms(walls, w, h)
    free = set().union(*rooms) | (passages - boxes)
    count = 0
    for a, b in naive_pairs(walls, w, h):
        start = next(iter(rooms[a]))
        if not rooms[b] & component(start, free):
            count += 1
    return count


def board_arrays(walls, w, h):
    walls_a = flat(walls, w, h)
    link, room, pa, pb = room_links(walls_a, w)
    return walls_a, link, room, pa, pb


# --------------------------------------------------------------------------- rooms

def test_room_links_on_two_rooms_and_a_corridor():
    rows = ["##########",
            "#   #    #",
            "#        #",
            "#   #    #",
            "##-###  ##",
            "#  #######",
            "##########"]
    walls = {(x, y) for y, r in enumerate(rows) for x, ch in enumerate(r) if ch == "#"}
    _, link, room, pa, pb = board_arrays(walls, 10, 7)
    # rooms: the left 3x3, the right area; the doorway (4, 2) joins them; the dead end
    # (2, 4) and the cells below it are passages that touch only the left room
    assert room[cell((1, 1), 10)] == 0 and room[cell((6, 1), 10)] == 1
    assert room[cell((4, 2), 10)] == -1 and room[cell((0, 0), 10)] == -2
    assert (pa.tolist(), pb.tolist()) == ([0], [1])
    occ = np.zeros(70, np.uint8)
    rpar = np.zeros(2, np.int32)
    stamp = np.zeros(70, np.int64)
    queue = np.zeros(70, np.int32)
    assert F.blocked_links(occ, 10, link, room, pa, pb, rpar, stamp, 1, queue) == 0
    occ[cell((4, 2), 10)] = 1  # a box in the doorway
    assert F.blocked_links(occ, 10, link, room, pa, pb, rpar, stamp, 2, queue) == 1
    occ[:] = 0
    occ[cell((2, 2), 10)] = 1  # a box inside a room blocks no link
    assert F.blocked_links(occ, 10, link, room, pa, pb, rpar, stamp, 3, queue) == 0


@pytest.mark.parametrize("case", range(40))
def test_room_links_and_blocked_links_match_reference(case):
    rng = np.random.default_rng(31000 + case)
    walls, w, h = random_board(rng, max_side=12, wall_p=0.3)
    _, link, room, pa, pb = board_arrays(walls, w, h)
    rooms, passages = naive_rooms(walls, w, h)
    assert sorted(link.tolist()) == sorted(cell(c, w) for c in passages)
    for i, r in enumerate(rooms):
        assert {c for c in range(w * h) if room[c] == i} == {cell(c, w) for c in r}
    assert list(zip(pa.tolist(), pb.tolist())) == naive_pairs(walls, w, h)
    floor = floor_of(walls, w, h)
    rpar = np.zeros(max(len(rooms), 1), np.int32)
    stamp = np.zeros(w * h, np.int64)
    queue = np.zeros(w * h, np.int32)
    for ep in range(1, 11):
        boxes = {c for c in floor if rng.random() < 0.3}
        occ = flat(boxes, w, h)
        got = F.blocked_links(occ, w, link, room, pa, pb, rpar, stamp, ep, queue)
        assert got == naive_blocked_links(walls, w, h, boxes)


# --------------------------------------------------------------------------- out of plan

@pytest.mark.parametrize("case", range(30))
def test_out_of_plan_areas_and_counts_match_reference(case):
    rng = np.random.default_rng(32000 + case)
    walls, w, h = random_board(rng, wall_p=0.15)
    floor = floor_of(walls, w, h)
    if len(floor) < 4:
        return
    k = int(rng.integers(1, min(5, len(floor) - 1) + 1))
    order = [floor[i] for i in rng.permutation(len(floor))[:k]]
    walls_a = flat(walls, w, h)
    inarea = np.zeros(k * w * h, np.int32)
    blk = np.zeros(w * h, np.uint8)
    F.out_of_plan_areas(walls_a, np.array([cell(g, w) for g in order], np.int32), w, blk,
                        np.zeros(w * h, np.int64), np.zeros(w * h, np.int32), inarea)
    assert np.array_equal(blk, walls_a)
    for i in range(k):
        free = set(floor) - set(order[:i + 1])
        gx, gy = order[i]
        area = set()
        for dx, dy in STEPS:
            if (gx + dx, gy + dy) in free:
                area |= component((gx + dx, gy + dy), free)
        assert {c for c in range(w * h) if inarea[i * w * h + c]} == {cell(c, w) for c in area}
    # the count: boxes off the packed goals outside the area of row packed + 1
    for packed in range(k):
        others = [c for c in floor if c not in order]
        nbox = min(len(others), int(rng.integers(0, 4)))
        boxes = order[:packed] + [others[i] for i in rng.permutation(len(others))[:nbox]]
        pool = np.array(sorted(cell(c, w) for c in boxes), np.int16)
        got = F.out_of_plan(pool, 0, len(boxes), packed, inarea, w * h, k)
        if packed + 1 >= k:
            want = 0
        else:
            row = {c for c in range(w * h) if inarea[(packed + 1) * w * h + c]}
            want = sum(cell(c, w) not in row for c in boxes[packed:])
        assert got == want


# --------------------------------------------------------------------------- connectivity

@pytest.mark.parametrize("case", range(30))
def test_regions_reach_and_hotspot_match_reference(case):
    rng = np.random.default_rng(33000 + case)
    walls, w, h = random_board(rng, wall_p=0.15)
    floor = floor_of(walls, w, h)
    if len(floor) < 3:
        return
    boxes = {c for c in floor if rng.random() < 0.3}
    goals = {c for c in floor if rng.random() < 0.3}
    free = set(floor) - boxes
    if not free:
        return
    player = min(free)
    blk = flat(walls | boxes, w, h)
    stamp = np.zeros(w * h, np.int64)
    regions, reach = F.regions_reach(blk, np.array([cell(c, w) for c in floor], np.int32), w,
                                     cell(player, w), stamp, 7, np.zeros(w * h, np.int32))
    comps = []
    for c in sorted(free):
        if not any(c in r for r in comps):
            comps.append(component(c, free))
    assert regions == len(comps)
    assert reach == len(component(player, free))
    occ = flat(boxes, w, h)
    goals_a = flat(goals, w, h)

    def loose(c):
        x, y = c
        return sum((x + dx, y + dy) in boxes - goals for dx, dy in STEPS)

    for c in boxes:
        assert F.loose_around(occ, goals_a, cell(c, w), w) == loose(c)
    ranked = sorted((-loose(c), cell(c, w)) for c in boxes - goals if loose(c) >= 2)
    pool = np.array(sorted(cell(c, w) for c in boxes), np.int16)
    got = F.hotspot(pool, 0, len(boxes), occ, goals_a, w)
    assert got == ((ranked[0][1], -ranked[0][0]) if ranked else (-1, 0))


# --------------------------------------------------------------------------- advisors

def naive_advise(kids, fu, reach, hot_cell, hot, width, which):
    """The advised children (indices) of child dicts, by the rules of ``advise``."""
    def best(cands, score):
        cands = [r for r in cands]
        return min(cands, key=lambda r: (score(kids[r]), kids[r]["h"], r)) if cands else None

    chosen = set()
    everyone = range(len(kids))
    rules = [(F.ADV_CONNECTIVITY, "reg", (fu >> 8) & 255),
             (F.ADV_ROOMS, "links", (fu >> 16) & 255),
             (F.ADV_OUT_OF_PLAN, "oop", (fu >> 24) & 255)]
    for bit, key, below in rules:
        if which & bit:
            r = best([r for r in everyone if kids[r][key] < below], lambda k, key=key: k[key])
            if r is not None:
                chosen.add(r)
    if which & F.ADV_EXPLORER:
        r = best([r for r in everyone if kids[r]["reach"] > reach], lambda k: -k["reach"])
        if r is not None:
            chosen.add(r)
    if which & F.ADV_HOTSPOTS and hot_cell >= 0:
        r = best([r for r in everyone if kids[r]["from"] == hot_cell and kids[r]["hot"] < hot],
                 lambda k: k["hot"])
        if r is None:
            r = best([r for r in everyone
                      if abs(kids[r]["from"] - hot_cell) in (1, width)], lambda k: 0)
        if r is not None:
            chosen.add(r)
    return chosen


@pytest.mark.parametrize("case", range(200))
def test_advise_matches_reference(case):
    rng = np.random.default_rng(34000 + case)
    width = 7
    nk = int(rng.integers(0, 9))
    kids = [dict(h=int(rng.integers(0, 4)), reg=int(rng.integers(1, 4)),
                 links=int(rng.integers(0, 3)), oop=int(rng.integers(0, 3)),
                 reach=int(rng.integers(5, 9)), hot=int(rng.integers(0, 4)),
                 **{"from": int(rng.choice([15, 16, 22, 8, 30]))}) for _ in range(nk)]
    fu = F.feature_key(3, int(rng.integers(1, 4)), int(rng.integers(0, 3)),
                       int(rng.integers(0, 3)))
    reach = int(rng.integers(5, 9))
    hot_cell, hot = (15, int(rng.integers(2, 4))) if rng.random() < 0.7 else (-1, 0)
    which = int(rng.integers(0, 32))
    arr = np.zeros(max(nk, 1) * F.K_FIELDS, np.int64)
    for r, k in enumerate(kids):
        rec = r * F.K_FIELDS
        arr[rec + F.K_H] = k["h"]
        arr[rec + F.K_REG] = k["reg"]
        arr[rec + F.K_LINKS] = k["links"]
        arr[rec + F.K_OOP] = k["oop"]
        arr[rec + F.K_REACH] = k["reach"]
        arr[rec + F.K_FROM] = k["from"]
        arr[rec + F.K_HOT] = k["hot"]
        arr[rec + F.K_ADV] = 1  # stale marks are cleared
    count = F.advise(arr, nk, fu, reach, hot_cell, hot, width, which)
    got = {r for r in range(nk) if arr[r * F.K_FIELDS + F.K_ADV]}
    assert got == naive_advise(kids, fu, reach, hot_cell, hot, width, which)
    assert count == len(got)


def test_feature_key_caps_each_count():
    key = F.feature_key(300, 2, 3, 4)
    assert [(key >> s) & 255 for s in (0, 8, 16, 24)] == [255, 2, 3, 4]
