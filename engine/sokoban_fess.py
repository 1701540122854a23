"""Sokoban kernels of the feature-space search for any solution (after Shoham and
Schaeffer, "The FESS Algorithm: A Feature Based Approach to Single-Agent Search", IEEE
CoG 2020).

Kept apart from the push-optimal search (:mod:`levelforge.engine.sokoban`, whose helpers
and node arrays it shares) so that neither the generator nor a push-optimal solve
compiles it. Its parts: the packing order (:mod:`levelforge.engine.sokoban_packing`),
the cells and their heaps (:mod:`levelforge.engine.sokoban_fess_cells`), the packing
macro's route (:mod:`levelforge.engine.sokoban_fess_macro`), the features and advisors
(:mod:`levelforge.engine.sokoban_fess_features`), the residual test of the packing
plan (:mod:`levelforge.engine.sokoban_fess_residual`) and the opener, the boxes in the
way of the next goal (:mod:`levelforge.engine.sokoban_fess_opener`).

The feature-space search projects every stored state onto a cell of a small *feature
space*: (goals packed in the packing order, regions of free floor; room connectivity
and out of plan can be added, see ``USE_ROOMS`` and ``USE_OOP``). It cycles through the
cells that have open states, one expansion per cell in turn, so progress made in a rare
cell is followed as eagerly as the crowd in a common one. Inside a cell it expands the
state of least *weight*: a move that improves a feature (more goals packed, fewer
regions) or that an advisor proposes (the packing macro: a box pushed along a whole
path onto the next goal of the packing order; the advisors of ``ADVISORS``, each one
push per expansion; when the packing macro makes no child, the opener: the pushes of the
boxes in the way of the next goal, see ``OPENER``) costs 0, any other push 1; ties go
to the smaller matching cost. The
children of an expansion are recorded in ``kids`` and put into their cells once the
advisors have seen them all.
"""
import numpy as np
from numba import njit

from .grid import flood_fill
from .sokoban_match import child_matching, parent_matching
from .sokoban import (_child_norm, _entry, _moved, _region_min, _target_h, _tunnel, _way,
                      place_boxes, tunnel_room)
from .sokoban_board import frozen_state, pi_corral
from .sokoban_corral import corral_deadlock
from .sokoban_deadlock import push_deadlock
from .sokoban_fess_cells import DEFER_KEY, _cell_pop, _cell_push
from .sokoban_fess_macro import _macro_choice, _undo
from .sokoban_fess_opener import in_the_way, in_the_way_mark
from .sokoban_fess_residual import residual_stuck
from .sokoban_packing import _packed, parking
from .sokoban_pairs import pair_dead
from .sokoban_fess_features import (ADV_OUT_OF_PLAN, ADV_ROOMS, FEATURE_MAX, K_ADV, K_FEAT,
                                     K_FIELDS, K_FROM, K_H, K_HOT, K_LINKS, K_NODE, K_OOP,
                                     K_REACH, K_REG, advise, blocked_links, feature_key, hotspot,
                                     loose_around, out_of_plan, regions_reach)
from .sokoban_heuristic import box_columns, matching_cost
from .sokoban_state import (C_BOXES, C_CAP, C_EXPANDED, C_FILL, C_FILL2, C_GOAL, C_HALT, C_HEAP,
                            C_NODES, C_START, C_STATUS, C_TEPOCH, F_CURSOR, F_DEFER, F_DEFERRED,
                            F_FILL, F_MACROS, F_NCELLS, F_OPEN, GROW, HALTED, LIMIT, MAX_G,
                            MAX_GENERATION, RUNNING, SOLVED, UNREACHABLE, UNSOLVABLE,
                            _T_FP_MASK, _T_GEN_SHIFT, _T_NODE_MASK)

# What the search uses of levelforge.engine.sokoban_fess_features, as measured on the
# XSokoban 90 under a node cap (the feature-space search alone, asv_bench/report_fess.py;
# 100,000 states: 34 solved before, 36 now; 300,000 states: 42 before, 43 now): room
# connectivity or out of plan as coordinates of the cells lose levels (33 and 14 of 90
# at 100,000), and so do the hotspot (with the opener) and explorer advisors (32 each);
# the out-of-plan advisor is even at 100,000 states and loses two levels at 300,000.
# The room-connectivity advisor, the one that gained under a node cap, is off too: under
# the 10 s limit (quiet machine, XSokoban 90, any mode) it solved 47/90 against 48/90
# without it (its features cost time on every expansion). Re-measured once the packing
# macro fired as it should (its straight starts, 2026-12-02; 300,000 states: 48/90 with
# no advisor): the room-connectivity advisor 48, the out-of-plan advisor 47. Measured
# again on 2026-12-04 (feature-space then backward search, 300,000 states: 61/90 as set
# here): no switch gains more than it loses, and all four features as cell coordinates
# with all five advisors solve 42/90 (docs/figures/sokoban-solving-journal.md).
USE_ROOMS = False  # the room-connectivity feature in the cell key
USE_OOP = False  # the out-of-plan feature in the cell key
ADVISORS = 0  # the advisors (ADV_* bits) whose pushes are free; ADV_ROOMS: see above
FREE_BETTER = True  # every push that packs a goal or joins regions is free too
# The opener (see _open_way), measured on the XSokoban 90 under a node cap
# (asv_bench/report_fess.py --nodes 300000: 62/90 without it): its advice from the
# start state on, 60/90 (20 gained; 10, 61, 75 lost); one push of the boxes in the way
# (the one that most enlarges the player's region) instead of all, 60/90; advice from
# states of weight 1 on, 61/90; from weight 2 on, 63/90 (20 and 24 gained, 75 lost);
# from weight 3 on, 63/90 (20 and 24 gained, 47 lost). A trade (any mode, 2026-12-06
# night): XSokoban 20 and 25 within 60 s, but 16, 40, 44 and 74 need 1.4-1.6 times the
# stored states, and 28 and 52 are no longer solved within 10 minutes; advice only when
# at most 2 boxes are in the way, or only for those on the moving box's way, does not
# tell the two apart (docs/figures/sokoban-solving-journal.md).
OPENER = True  # pushes of the boxes in the way of the next goal are free
OPENER_MIN_W = 2  # ... in states of at least this weight (the cheap layers go without)


# --------------------------------------------------------------------------- features

@njit(cache=True, _nrt=False)
def _features(occ, blk, pool, base, nbox, player, order, floor, width, stamp3, fctr, queue,
              plan, rpar):
    """``(cell key, feature key, player region cells)`` of the state whose boxes are
    ``pool[base:base + nbox]`` (marked in ``occ`` and ``blk``) and whose player stands on
    the free cell ``player``; ``plan`` holds the level's room links and out-of-plan areas
    (see :mod:`levelforge.engine.sokoban_fess_features`)."""
    packed = _packed(occ, order)
    fctr[F_FILL] += 1
    regions, reach = regions_reach(blk, floor, width, np.int64(player), stamp3, fctr[F_FILL],
                                   queue)
    links = 0  # computed only when the cell key or an advisor uses it
    if USE_ROOMS or ADVISORS & ADV_ROOMS:
        fctr[F_FILL] += 1
        links = blocked_links(occ, width, plan[0], plan[1], plan[2], plan[3], rpar, stamp3,
                              fctr[F_FILL], queue)
    oop = 0
    if USE_OOP or ADVISORS & ADV_OUT_OF_PLAN:
        oop = out_of_plan(pool, base, nbox, packed, plan[4], occ.shape[0], order.shape[0])
    return (feature_key(packed, regions, links if USE_ROOMS else 0, oop if USE_OOP else 0),
            feature_key(packed, regions, links, oop), reach)


# --------------------------------------------------------------------------- search

@njit(cache=True, _nrt=False)
def _lookup(table, mask, tepoch, key, norm, wbox, nbox, nplayer, nbox_pool):
    """The node of a stored state (sorted boxes ``wbox``, normalised player ``norm``,
    hash ``key``) and its free table slot: ``(node or -1, slot)``."""
    slot = np.int64(key & np.uint64(mask))
    want = _entry(tepoch, key, np.int64(0))
    while True:
        e = table[slot]
        if (e >> _T_GEN_SHIFT) != tepoch:
            return -1, slot
        j = e & _T_NODE_MASK
        if (e & _T_FP_MASK) == want & _T_FP_MASK and nplayer[j] == norm:
            same = True
            jb = j * nbox
            for q in range(nbox):
                if nbox_pool[jb + q] != wbox[q]:
                    same = False
                    break
            if same:
                return j, slot
        slot = (slot + 1) & mask


@njit(cache=True, _nrt=False)
def fess_start(boxes, nbox, player, cap, walls, goals, dead, dist, zob, width,
               nbox_pool, nplayer, nparent, ng, nhash, nmove, table, ctr,
               occ, blk, stamp, queue, stamp2, queue2, tmp, wbox,
               hu, hv, hp, hway, hminv, hused, fstack, hside, compof,
               nw, pkey, pchild, psib, ckey, cidx, croot, fctr, stamp3, order, floor, plan,
               rpar, pdb):
    """Reset the workspace and store the start state (box cells ``boxes[:nbox]``, player
    cell ``player``) with a node cap ``cap``. Returns RUNNING, SOLVED (already solved) or
    UNSOLVABLE (a dead square, frozen box, no matching or a pair of boxes without a
    two-box solution in the pair database ``pdb``, see
    :func:`levelforge.engine.sokoban_pairs.pair_dead`)."""
    ctr[C_NODES] = 0
    ctr[C_HEAP] = 0  # not used: each cell has its own heap
    if ctr[C_TEPOCH] >= MAX_GENERATION:
        for i in range(table.shape[0]):
            table[i] = 0
        ctr[C_TEPOCH] = 0
    ctr[C_TEPOCH] += 1
    ctr[C_GOAL] = -1
    ctr[C_EXPANDED] = 0
    ctr[C_BOXES] = nbox
    ctr[C_CAP] = cap
    ctr[C_START] = player
    ctr[C_STATUS] = RUNNING
    fctr[F_NCELLS] = 0
    fctr[F_CURSOR] = 0
    fctr[F_OPEN] = 0
    fctr[F_MACROS] = 0
    fctr[F_DEFER] = -1
    fctr[F_DEFERRED] = 0
    for i in range(ckey.shape[0]):
        ckey[i] = -1
    bad = place_boxes(boxes, nbox, walls, goals, dead, occ, blk, wbox, tmp, width, fstack)
    norm = _region_min(blk, width, np.int64(player), stamp2, ctr, C_FILL2, queue2)
    feat, _, _ = _features(occ, blk, wbox, 0, nbox, norm, order, floor, width, stamp3, fctr,
                           queue2, plan, rpar)
    for i in range(nbox):
        occ[wbox[i]] = 0
        blk[wbox[i]] = 0
    box_columns(wbox, nbox, np.int64(norm), compof, walls.shape[0], hside)
    h = _target_h(matching_cost(hside, nbox, dist, hu, hv, hp, hway, hminv, hused), norm, ctr)
    for i in range(nbox):
        bad = bad or pair_dead(pdb, wbox, nbox, wbox[i], norm)
    if bad or h >= UNREACHABLE:
        ctr[C_STATUS] = UNSOLVABLE
        return UNSOLVABLE
    bh = np.uint64(0)
    for i in range(nbox):
        nbox_pool[i] = wbox[i]
        bh ^= zob[0, wbox[i]]
    nplayer[0] = norm
    nparent[0] = -1
    ng[0] = 0
    nhash[0] = bh
    nmove[0] = 0
    nw[0] = 0
    ctr[C_NODES] = 1
    mask = table.shape[0] - 1
    key = bh ^ zob[1, norm]
    table[np.int64(key & np.uint64(mask))] = _entry(ctr[C_TEPOCH], key, np.int64(0))
    if h == 0:
        ctr[C_GOAL] = 0
        ctr[C_STATUS] = SOLVED
        return SOLVED
    _cell_push(0, feat, 0, h, ckey, cidx, croot, pkey, pchild, psib, fctr)
    return RUNNING


@njit(cache=True, _nrt=False)
def _store(u, wbox, nbox, norm, bh, move, g1, w, feat, h, slot, want,
           nbox_pool, nplayer, nparent, ng, nhash, nmove, table, ctr,
           nw, pkey, pchild, psib, ckey, cidx, croot, fctr):
    """Store a new child of ``u`` and put it into its cell; returns its node, or -1
    when the cell table is full."""
    j = _store_node(u, wbox, nbox, norm, bh, move, g1, slot, want, nbox_pool, nplayer,
                    nparent, ng, nhash, nmove, table, ctr)
    nw[j] = w
    if h > 0 and not _cell_push(j, feat, w, h, ckey, cidx, croot, pkey, pchild, psib, fctr):
        return -1  # the cell table is full: the search stops (a limit, not a proof)
    return j


@njit(cache=True, _nrt=False)
def _store_node(u, wbox, nbox, norm, bh, move, g1, slot, want, nbox_pool, nplayer, nparent,
                ng, nhash, nmove, table, ctr):
    """Store a new child of ``u`` (not yet in any cell); returns its node."""
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
    return j


@njit(cache=True, _nrt=False)
def expansion_room(nbox, n):
    """The most nodes one expansion adds on a board of ``n`` cells: its pushes, a
    packing macro's (at most ``n``) and the tunnel pushes on the way
    (:func:`levelforge.engine.sokoban.tunnel_room`)."""
    return 2 + 4 * n + tunnel_room(nbox, n)


@njit(cache=True, _nrt=False)
def _record(kids, r, j, h, feat, full, reach, src, hot):
    """Write child record ``r`` of ``kids`` (see sokoban_fess_features.K_FIELDS): cell
    key ``feat``, all four features in ``full``."""
    rec = r * K_FIELDS
    kids[rec + K_NODE] = j
    kids[rec + K_H] = h
    kids[rec + K_FEAT] = feat
    kids[rec + K_REG] = (full >> 8) & FEATURE_MAX
    kids[rec + K_LINKS] = (full >> 16) & FEATURE_MAX
    kids[rec + K_OOP] = (full >> 24) & FEATURE_MAX
    kids[rec + K_REACH] = reach
    kids[rec + K_FROM] = src
    kids[rec + K_HOT] = hot
    kids[rec + K_ADV] = 0


@njit(cache=True, _nrt=False)
def _push_kids(kids, nk, wu, fu, ureach, pool, base, nbox, occ, goals, width, nw, pkey, pchild,
               psib, ckey, cidx, croot, fctr):
    """Put the ``nk`` recorded children of a parent of weight ``wu`` (features ``fu``,
    player region ``ureach`` cells, boxes ``pool[base:base + nbox]`` marked in ``occ``)
    into their cells: an advised push (or, with ``FREE_BETTER``, one that packs a goal or
    joins regions) costs no weight, any other 1. Returns LIMIT when the cell table is
    full, else RUNNING."""
    if ADVISORS:
        hot_cell, hot = hotspot(pool, base, nbox, occ, goals, width)
        advise(kids, nk, fu, ureach, hot_cell, hot, width, ADVISORS)
    for r in range(nk):
        rec = r * K_FIELDS
        fc = kids[rec + K_FEAT]
        free = kids[rec + K_ADV] == 1
        if FREE_BETTER and ((fc & FEATURE_MAX) > (fu & FEATURE_MAX)
                            or kids[rec + K_REG] < ((fu >> 8) & FEATURE_MAX)):
            free = True
        j = kids[rec + K_NODE]
        w = wu if free else wu + 1
        nw[j] = w
        if kids[rec + K_H] > 0 and not _cell_push(j, fc, w, kids[rec + K_H], ckey, cidx, croot,
                                                  pkey, pchild, psib, fctr):
            return LIMIT  # the cell table is full: the search stops (a limit, not a proof)
    return RUNNING


@njit(cache=True, _nrt=False, nogil=True)
def fess_run(budget, walls, goals, dead, dist, zob, width,
             nbox_pool, nplayer, nparent, ng, nhash, nmove, table, ctr,
             occ, blk, stamp, queue, stamp2, queue2, tmp, wbox,
             hu, hv, hp, hway, hminv, hused, fstack, hside, compof,
             nw, pkey, pchild, psib, ckey, cidx, croot, fctr, stamp3, order, floor,
             mseen, mnext, mqueue, path, mw,
             cblk, cocc, cstamp, cstamp2, cqueue, cpool, cplayer, ctable, cctr,
             dkey, dnorm, dbox, dres, plan, rpar, kids, wcache, wwork, tun, res, pdb, ow):
    """Continue the feature-space search for at most ``budget`` expansions. A state
    whose PI-corral's boxes alone can never reach goals
    (:func:`levelforge.engine.sokoban_corral.corral_deadlock`, work arrays ``cblk`` to
    ``dres``) is a deadlock: none of its children is made. A child (or packing macro)
    that :func:`levelforge.engine.sokoban_deadlock.push_deadlock` proves a deadlock (a
    stuck set, or a window deadlock with the cache ``wcache`` and work array ``wwork``)
    is not stored, nor is one whose moved box and another box have no two-box solution
    in the pair database ``pdb`` (:func:`levelforge.engine.sokoban_pairs.pair_dead`; a
    one-slot array: none). A push onto a tunnel cell (``tun``, see
    :func:`levelforge.sokoban.fess.tunnel_cells`) goes on along the tunnel in one move
    (the pushes on the way are nodes outside the table and the cells); one that must go
    on against a box or onto a dead square is a deadlock. Returns
    RUNNING (budget used), SOLVED (``ctr[C_GOAL]``), UNSOLVABLE (no open state left:
    every reachable state was expanded, a proof), LIMIT (node cap, cell table full or
    pushes past ``MAX_G``), GROW (the node arrays or the table need room: grow them
    and call again) or HALTED (``ctr[C_HALT]`` was set, looked at before each
    expansion; runs without the GIL)."""
    steps = (-width, -1, 1, width)
    if ctr[C_STATUS] != RUNNING:
        return ctr[C_STATUS]
    n = walls.shape[0]
    nbox = ctr[C_BOXES]
    cap = ctr[C_CAP]
    mask = table.shape[0] - 1
    tepoch = ctr[C_TEPOCH]
    room = expansion_room(nbox, n)
    done = 0
    while done < budget:
        nodes = ctr[C_NODES]
        if nodes + room > nplayer.shape[0] or 2 * (nodes + room) > table.shape[0]:
            return GROW
        if fctr[F_OPEN] == 0:
            ctr[C_STATUS] = UNSOLVABLE
            return UNSOLVABLE
        if ctr[C_HALT] != 0:
            ctr[C_STATUS] = HALTED
            return HALTED
        # the next cell with open states, in turn
        ncells = fctr[F_NCELLS]
        cell = fctr[F_CURSOR]
        only_deferred = fctr[F_OPEN] == fctr[F_DEFERRED]
        for _ in range(ncells):
            if cell >= ncells:
                cell = 0
            if croot[cell] >= 0 and (cell != fctr[F_DEFER] or only_deferred):
                break
            cell += 1
        fctr[F_CURSOR] = cell + 1
        u = _cell_pop(cell, croot, pkey, pchild, psib)
        fctr[F_OPEN] -= 1
        if cell == fctr[F_DEFER]:
            fctr[F_DEFERRED] -= 1
        gu = np.int64(ng[u])
        if gu + n + 2 >= MAX_G:
            ctr[C_STATUS] = LIMIT
            return LIMIT
        done += 1
        ctr[C_EXPANDED] += 1
        wu = np.int64(nw[u])
        base = u * nbox
        for i in range(nbox):
            c = nbox_pool[base + i]
            occ[c] = 1
            blk[c] = 1
        ctr[C_FILL] += 1
        epoch = ctr[C_FILL]
        flood_fill(blk, width, np.int64(nplayer[u]), stamp, epoch, queue)
        _, fu, ureach = _features(occ, blk, nbox_pool, base, nbox, nplayer[u], order, floor, width,
                               stamp3, fctr, queue2, plan, rpar)
        nk = 0  # children recorded in kids, put into their cells after the advisors
        parent_matching(nbox_pool, base, nbox, np.int64(nplayer[u]), compof, n, dist, mw,
                        hway, hminv, hused)
        zmask = pi_corral(nbox_pool, base, nbox, walls, goals, occ, dead, stamp, epoch,
                          width, stamp2, ctr, queue2)
        if zmask > 0 and corral_deadlock(nbox_pool, base, nbox, zmask, stamp2,
                                         np.int64(nplayer[u]), walls, goals, dead, zob, width,
                                         tmp, fstack, cblk, cocc, cstamp, cstamp2, cqueue,
                                         cpool, cplayer, ctable, cctr, dkey, dnorm, dbox,
                                         dres):
            zmask = 0
        g1 = gu + 1
        status = RUNNING
        for i in range(nbox):
            b = np.int64(nbox_pool[base + i])
            if zmask == 0 or (zmask > 0 and stamp2[b] != zmask):
                continue
            for d in range(4):
                s = steps[d]
                t = b + s
                if blk[t] or dead[t] or stamp[b - s] != epoch:
                    continue
                occ[b] = 0
                blk[b] = 0
                occ[t] = 1
                blk[t] = 1
                e, extra = _tunnel(t, s, tun, occ, blk, dead)
                if e >= 0 and frozen_state(e, walls, occ, dead, goals, tmp, width,
                                           fstack) != 2 \
                        and not push_deadlock(e, e - s, walls, goals, occ, dead, width, tmp,
                                              fstack, stamp3, fctr, F_FILL, queue2, wcache,
                                              wwork):
                    _moved(nbox_pool, u, nbox, b, e, wbox)
                    norm = -1
                    if extra == 0:
                        norm = _child_norm(blk, width, b, t, np.int64(nplayer[u]), stamp,
                                           epoch, stamp2, ctr, queue2)
                    if norm < 0:
                        norm = _region_min(blk, width, e - s, stamp2, ctr, C_FILL2, queue2)
                    bh = nhash[u] ^ zob[0, b] ^ zob[0, e]
                    key = bh ^ zob[1, norm]
                    found, slot = _lookup(table, mask, tepoch, key, norm, wbox, nbox, nplayer,
                                          nbox_pool)
                    if found < 0 and not pair_dead(pdb, wbox, nbox, e, norm):
                        h = _target_h(child_matching(nbox_pool, base, nbox, i, e, norm, compof,
                                                     n, dist, mw, hu, hv, hp, hway, hminv,
                                                     hused), norm, ctr)
                        if h < UNREACHABLE:
                            if ctr[C_NODES] + extra >= cap:
                                status = LIMIT
                            else:
                                fc, full, reach = _features(occ, blk, wbox, 0, nbox, norm, order,
                                                      floor, width, stamp3, fctr, queue2,
                                                      plan, rpar)
                                if (fc & FEATURE_MAX) > (fu & FEATURE_MAX) and residual_stuck(
                                        wbox, 0, nbox, fc & FEATURE_MAX, walls, order, width,
                                        res, ctr):
                                    fc = DEFER_KEY
                                last = _way(u, b, s, d, extra, g1, nplayer, nparent, ng,
                                            nhash, nmove, ctr)
                                j = _store_node(last, wbox, nbox, norm, bh, (e - s) * 4 + d,
                                                g1 + extra, slot,
                                                _entry(tepoch, key, np.int64(0)), nbox_pool,
                                                nplayer, nparent, ng, nhash, nmove, table, ctr)
                                _record(kids, nk, j, h, fc, full, reach, b,
                                        loose_around(occ, goals, e, width) if ADVISORS else 0)
                                nk += 1
                                if h == 0:
                                    ctr[C_GOAL] = j
                                    status = SOLVED
                if e < 0:
                    e = -e - 1
                occ[e] = 0
                blk[e] = 0
                occ[b] = 1
                blk[b] = 1
                if status != RUNNING:
                    break
            if status != RUNNING:
                break
        npacked = _packed(occ, order)
        macros = fctr[F_MACROS]
        if status == RUNNING:
            status = _macro(u, npacked, occ, blk, walls, goals, dead, dist, zob, width,
                            nbox, cap, nbox_pool, nplayer, nparent, ng, nhash, nmove, table,
                            ctr, stamp, epoch, stamp2, queue2, tmp, wbox, hu, hv, hp, hway,
                            hminv, hused, fstack, hside, compof, nw, pkey, pchild, psib,
                            ckey, cidx, croot, fctr, stamp3, order, floor, mseen, mnext,
                            mqueue, path, mw, plan, rpar, wcache, wwork, res, pdb)
        if status == RUNNING and OPENER and fctr[F_MACROS] == macros \
                and npacked < order.shape[0] and wu >= OPENER_MIN_W:
            _open_way(kids, nk, npacked, order, occ, walls, dead, compof, width, stamp,
                      epoch, ow, fctr)
        if status == RUNNING:
            status = _push_kids(kids, nk, wu, fu, ureach, nbox_pool, base, nbox, occ, goals,
                                width, nw, pkey, pchild, psib, ckey, cidx, croot, fctr)
        for i in range(nbox):
            c = nbox_pool[base + i]
            occ[c] = 0
            blk[c] = 0
        if status != RUNNING:
            ctr[C_STATUS] = status
            return status
    return RUNNING


@njit(cache=True, _nrt=False)
def _open_way(kids, nk, npacked, order, occ, walls, dead, compof, width, stamp, epoch, ow,
              fctr):
    """The opener (:mod:`levelforge.engine.sokoban_fess_opener`), when the packing
    macro made no child: the recorded children that push a box in the way of the next
    goal of the packing order are advised (free). Called only for expanded states of
    weight ``OPENER_MIN_W`` or more."""
    target, _ = parking(order[npacked])
    fctr[F_FILL] += 1
    mark = fctr[F_FILL]
    cost, _ = in_the_way(target, order, npacked, occ, walls, dead, compof, width, stamp,
                         epoch, ow, mark)
    if cost > 0:
        n = walls.shape[0]
        for r in range(nk):
            if in_the_way_mark(ow, n, kids[r * K_FIELDS + K_FROM], mark):
                kids[r * K_FIELDS + K_ADV] = 1


@njit(cache=True, _nrt=False)
def _macro(u, npacked, occ, blk, walls, goals, dead, dist, zob, width, nbox, cap,
           nbox_pool, nplayer, nparent, ng, nhash, nmove, table, ctr, stamp, epoch,
           stamp2, queue2, tmp, wbox, hu, hv, hp, hway, hminv, hused, fstack, hside,
           compof, nw, pkey, pchild, psib, ckey, cidx, croot, fctr, stamp3, order, floor,
           mseen, mnext, mqueue, path, mw, plan, rpar, wcache, wwork, res, pdb):
    """The packing advisor on the expanded node ``u`` (its boxes marked in ``occ`` and
    ``blk``, its region ``stamp == epoch``): push a box along a whole path onto the next
    goal of the packing order, a child of weight 0 (the pushes on the way are stored as
    nodes outside the table and the cells, for the solution's reconstruction). Returns
    the search status. ``occ`` and ``blk`` are as they were on return."""
    steps = (-width, -1, 1, width)
    n = walls.shape[0]
    if npacked >= order.shape[0]:
        return RUNNING
    target, _ = parking(order[npacked])
    length, player, stuck = _macro_choice(u, target, order, npacked, occ, blk, walls, dead,
                                          compof, width, stamp, epoch, mseen, mnext, mqueue,
                                          fctr, path, nplayer, stamp2, ctr, queue2, nbox,
                                          nbox_pool, wbox, res)
    if length == 0:
        return RUNNING
    first = path[0] >> 2
    last = np.int64(path[length - 1] >> 2) + steps[path[length - 1] & 3]
    status = RUNNING
    if frozen_state(last, walls, occ, dead, goals, tmp, width, fstack) != 2 \
            and not push_deadlock(last, player, walls, goals, occ, dead, width, tmp, fstack,
                                  stamp3, fctr, F_FILL, queue2, wcache, wwork):
        _moved(nbox_pool, u, nbox, first, last, wbox)
        norm = _region_min(blk, width, player, stamp2, ctr, C_FILL2, queue2)
        bh = nhash[u] ^ zob[0, first] ^ zob[0, last]
        key = bh ^ zob[1, norm]
        mask = table.shape[0] - 1
        tepoch = ctr[C_TEPOCH]
        found, slot = _lookup(table, mask, tepoch, key, norm, wbox, nbox, nplayer, nbox_pool)
        if found < 0 and not pair_dead(pdb, wbox, nbox, last, norm):
            mi = 0  # the moved box's index among u's boxes
            while nbox_pool[u * nbox + mi] != first:
                mi += 1
            h = _target_h(child_matching(nbox_pool, u * nbox, nbox, mi, last, norm, compof, n,
                                         dist, mw, hu, hv, hp, hway, hminv, hused), norm, ctr)
            if h < UNREACHABLE:
                if ctr[C_NODES] + length > cap:
                    status = LIMIT
                else:
                    fc, _, _ = _features(occ, blk, wbox, 0, nbox, norm, order, floor, width,
                                      stamp3, fctr, queue2, plan, rpar)
                    if stuck:
                        fc = DEFER_KEY
                    parent = u
                    g = np.int64(ng[u])
                    for q in range(length - 1):  # the pushes on the way
                        j = ctr[C_NODES]
                        ctr[C_NODES] = j + 1
                        nplayer[j] = -1  # not a stored state: never looked up
                        nparent[j] = parent
                        g += 1
                        ng[j] = g
                        nmove[j] = path[q]
                        nhash[j] = 0
                        nw[j] = nw[u]
                        parent = j
                    j = _store(parent, wbox, nbox, norm, bh, path[length - 1], g + 1,
                               np.int64(nw[u]), fc, h, slot, _entry(tepoch, key, np.int64(0)),
                               nbox_pool, nplayer, nparent, ng, nhash, nmove, table, ctr,
                               nw, pkey, pchild, psib, ckey, cidx, croot, fctr)
                    fctr[F_MACROS] += 1
                    if j < 0:
                        status = LIMIT
                    elif h == 0:
                        ctr[C_GOAL] = j
                        status = SOLVED
    _undo(path, length, occ, blk, width)
    return status

