"""The opener's relaxed route (``levelforge.engine.sokoban_fess_opener.in_the_way``)
against a plain-Python search that runs the other way.

The kernel searches pulls back from the target; the reference searches pushes forward
from each source box with Dijkstra's algorithm: the player first walks from its region
to the first pushing side (each box's cell stepped on costs 1), then between pushes
walks around the moving box alone; every later push costs 1 for a box on the player's
cell (the source's own start cell too, but for a second push the same way as the first:
a straight start) and 1 for a box on the cell the moving box enters (its own start cell
too). The kernel's search backwards cannot tell which box is the source, so the relaxed
cost counts the source's start cell as a box's after it has left, but for the straight
start. The two must agree on the cheapest cost, and the boxes the
kernel marks must be the ones that cost it: deleted from the board (the source box
excepted), nothing is in the way.
"""
import heapq

import numpy as np

from levelforge.engine import sokoban_fess_opener as Ko
from levelforge.engine.grid import flood_fill

import naive_sokoban as naive
from test_sokoban_macro_path import STEPS, board_arrays, cases


def player_costs(level, here):
    """The player's cheapest cost to each cell from its region ``here``."""
    cost = {c: 0 for c in here}
    heap = [(0, c) for c in here]
    while heap:
        w, c = heapq.heappop(heap)
        if w > cost[c]:
            continue
        for d in STEPS:
            t = naive.add(c, d)
            if t in level.walls:
                continue
            w2 = w + (t in level.boxes)
            if w2 < cost.get(t, 1 << 30):
                cost[t] = w2
                heapq.heappush(heap, (w2, t))
    return cost


def reference_cost(level, order, npacked, dead):
    """The cheapest relaxed route onto ``order[npacked]`` (cells as (x, y)), None when
    there is none."""
    target = order[npacked]
    here = naive.reachable(level.walls, level.boxes, level.player)
    pcost = player_costs(level, here)
    best = None
    for source in level.boxes - set(order[:npacked]):
        heap, seen = [], {}
        for d in STEPS:
            pl, t = naive.add(source, d, -1), naive.add(source, d, 1)
            if pl in level.walls or pl not in pcost or t in level.walls:
                continue
            if t != target and dead[t]:
                continue
            w = pcost[pl] + (t in level.boxes)
            heapq.heappush(heap, (w, t, source, STEPS.index(d)))
        while heap:
            w, box, player, first = heapq.heappop(heap)
            area = naive.reachable(level.walls, {box}, player)
            key = (box, min(area))
            if key in seen:
                continue
            seen[key] = w
            if box == target:
                best = w if best is None else min(best, w)
                break
            for d in STEPS:
                pl, t = naive.add(box, d, -1), naive.add(box, d, 1)
                if pl not in area or t in level.walls or (t != target and dead[t]):
                    continue
                straight = first == STEPS.index(d)  # the second push, the same way as the first
                w2 = w + (pl in level.boxes and not straight) + (t in level.boxes)
                heapq.heappush(heap, (w2, t, box, -1))
    return best


def kernel_cost(level, order, npacked, walls, dead, compof, boxes=None):
    """The kernel's route cost (-1: none), the boxes it marks and its source box, as
    (x, y) cells, with the level's boxes or ``boxes``."""
    boxes = level.boxes if boxes is None else boxes
    width, n = level.width, walls.shape[0]
    cell = lambda c: c[1] * width + c[0]
    occ = np.zeros(n, np.uint8)
    occ[[cell(b) for b in boxes]] = 1
    blk = (walls | occ).astype(np.uint8)
    stamp = np.zeros(n, np.int64)
    flood_fill(blk, np.int64(width), np.int64(cell(level.player)), stamp, np.int64(1),
               np.zeros(n, np.int32))
    ow = np.zeros(Ko.OW_PER_CELL * n, np.int64)
    korder = np.array([cell(c) for c in order], np.int32)
    cost, src = Ko.in_the_way(np.int64(korder[npacked]), korder, npacked, occ, walls, dead, compof,
                         np.int64(width), stamp, np.int64(1), ow, np.int64(7))
    marked = {(c % width, c // width) for c in range(n)
              if Ko.in_the_way_mark(ow, n, c, np.int64(7))}
    return int(cost), marked, (int(src) % width, int(src) // width)


def test_route_cost_matches_a_forward_search_and_the_marked_boxes_are_its_cost():
    costs = []
    for level, order, npacked in cases(500, seed=20261206, max_side=9, max_boxes=6,
                                       wall_p=0.15):
        walls, dead, compof = board_arrays(level)
        dead_xy = {(c % level.width, c // level.width): bool(dead[c])
                   for c in range(walls.shape[0])}
        want = reference_cost(level, order, npacked, dead_xy)
        got, marked, source = kernel_cost(level, order, npacked, walls, dead, compof)
        assert got == (-1 if want is None else want), (level, order, npacked)
        assert marked <= set(level.boxes)
        assert bool(marked) == (got > 0)
        assert len(marked) <= max(got, 0)
        if marked:  # the marked boxes but the source deleted: the same route costs
            # nothing, or only the source's own cell when the player's way crosses it
            others = marked - {source}
            again, _, _ = kernel_cost(level, order, npacked, walls, dead, compof,
                                      boxes=level.boxes - others)
            assert again <= got - len(others)
            if source not in marked:
                assert again == 0, (level, order, npacked, marked)
        costs.append(got)
    assert costs.count(0) > 0 and sum(c > 0 for c in costs) > 20 and costs.count(-1) > 0


def test_the_box_in_the_doorway_is_marked():
    # the player is shut in the left room by the box packed in the doorway; the box on
    # the right must be pushed onto the next goal from the right room
    from levelforge.sokoban import Level
    level = Level.from_xsb("\n".join(["#########",
                                      "#   #   #",
                                      "# @ * $.#",
                                      "#   #   #",
                                      "#########"]))
    walls, dead, compof = board_arrays(level)
    cost, marked, source = kernel_cost(level, [(4, 2), (7, 2)], 1, walls, dead, compof)
    assert (cost, marked, source) == (1, {(4, 2)}, (6, 2))
    cost, marked, _ = kernel_cost(level.replace(player=(5, 1)), [(4, 2), (7, 2)], 1, walls,
                               dead, compof)
    assert cost == 0 and marked == set()
