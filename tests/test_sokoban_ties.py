"""The push-optimal search's tie rule (engine/sokoban.py, ``_tie``): of open states of
equal ``f`` and ``g``, the one with fewer boxes off goals comes first, then the node
order (oldest first, newest first when expanding in part), from ``TIES_FROM`` boxes on.
Checked against a sort of plain tuples, and its push counts against the ones found
before it and a plain-Python replay."""
import numpy as np
import pytest

from levelforge.engine import sokoban as k
from levelforge.engine import sokoban_state as s
from levelforge.sokoban import Solver, collections, replay

import naive_sokoban as naive


def reference_order(entries, lifo):
    """The pop order the tie rule asks for: least f, then larger g, then fewer boxes off
    goals (counted up to 15), then the oldest node (the newest with ``lifo``)."""
    return sorted(entries, key=lambda e: (e[0], -e[1], min(e[2], 15),
                                          -e[3] if lifo else e[3]))


@pytest.mark.parametrize("lifo", [False, True])
@pytest.mark.parametrize("seed", range(5))
def test_heap_pops_follow_the_tie_rule(seed, lifo):
    rng = np.random.default_rng(seed)
    # few distinct f and g so that ties are common; nodes up to the largest cap
    entries = []
    for node in rng.choice(1 << s._T_NODE_BITS, size=300, replace=False):
        g = int(rng.integers(0, 6))
        f = g + int(rng.integers(0, 4))
        entries.append((f, g, int(rng.integers(0, 40)), int(node)))
    heap = np.zeros(len(entries), np.int64)
    ctr = np.zeros(s.N_COUNTERS, np.int64)
    for f, g, off, node in entries:
        key = k._key(np.int64(g), np.int64(f - g), np.int64(1),
                     k._slot(np.int64(node), lifo)) | k._tie(np.int64(off))
        k._heap_push(heap, ctr, key)
    popped = []
    while ctr[s.C_HEAP]:
        key = k._heap_pop(heap, ctr)
        popped.append((int(key >> k._F_SHIFT), int(s.MAX_G - ((key >> k._G_SHIFT) & 0x7FFF)),
                       int(key >> k._TIE_SHIFT) & k._TIE_MOST,
                       int(k._slot(np.int64(key & k._NODE_BITS), lifo))))
    want = reference_order(entries, lifo)
    assert [(f, g, min(off, 15), node) for f, g, off, node in want] == popped


def test_the_tie_field_leaves_the_flags_and_node_alone():
    # the partial expansion's and the pair bound's flags sit above the tie field
    tie = k._tie(np.int64(99))
    assert tie & k._NODE_BITS == 0
    assert tie & (k._PAIRED | k._PARTIAL) == 0
    assert int(tie >> k._TIE_SHIFT) == k._TIE_MOST


def test_a_key_holds_its_fields_apart_up_to_the_largest_values():
    # the largest node, f and g, with every flag and the full tie field: each reads back
    node = (1 << s._T_NODE_BITS) - 1
    for f, g in ((k.F_MOST, 0), (s.MAX_G, s.MAX_G), (5, 3)):
        key = k._key(np.int64(g), np.int64(f - g), np.int64(1), np.int64(node)) \
            | k._tie(np.int64(99)) | k._PAIRED | k._PARTIAL
        assert key > 0  # the sign bit stays clear: keys order as int64
        assert int(key >> k._F_SHIFT) == f
        assert int(s.MAX_G - ((key >> k._G_SHIFT) & 0x7FFF)) == g
        assert int(key & k._NODE_BITS) == node
        assert int(key >> k._TIE_SHIFT) & k._TIE_MOST == k._TIE_MOST
    # f beyond what a key holds is capped, never wrapped into the g field
    key = k._key(np.int64(2), np.int64(10 ** 6), np.int64(1), np.int64(0))
    assert int(key >> k._F_SHIFT) == k.F_MOST
    assert int(s.MAX_G - ((key >> k._G_SHIFT) & 0x7FFF)) == 2


# Microban levels of 8 boxes and more (the rule's TIES_FROM), with their push-optimal
# counts as the search found them before the rule (ties by node alone)
BEFORE = {95: 8, 105: 24, 107: 10, 145: 18, 146: 14, 155: 175}


def test_levels_of_eight_boxes_and_more_keep_their_optimum():
    microban = collections.load("microban")
    solver = Solver()
    for number, pushes in BEFORE.items():
        level = microban[number - 1]
        assert len(level.boxes) >= k.TIES_FROM
        r = solver.solve(level)
        assert r.status == "solved" and r.optimal and r.pushes == pushes, number
        boxes, _, counted = naive.replay(level, r.solution)
        assert boxes == level.goals and counted == pushes
        assert replay(level, r.solution).is_solved
