"""The cells of the feature-space search (:mod:`levelforge.engine.sokoban_fess`): each
cell's open states are a pairing heap threaded through per-node arrays (``pkey``,
``pchild``, ``psib``), and cells are found by their feature key in a small
open-addressing table (``ckey``, ``cidx``, ``croot``). The backward search over feature
cells (:mod:`levelforge.engine.sokoban_backward`) keeps its cells the same way.
"""
import numpy as np
from numba import njit

from .sokoban_state import F_DEFER, F_DEFERRED, F_NCELLS, F_OPEN

CELL_SLOTS = 1 << 15  # size of the cell table: at most CELL_SLOTS // 2 cells
DEFER_KEY = np.int64(1) << 40  # the cell key of deferred states (no feature key is as large)
_KEY_W = 42  # heap key: weight << 42 | matching cost << 26 | node
_KEY_H = 26


@njit(cache=True, _nrt=False)
def _meld(a, b, pkey, pchild, psib):
    """Meld two pairing-heap roots (sibling links -1); returns the new root."""
    if pkey[b] < pkey[a]:
        a, b = b, a
    psib[b] = pchild[a]
    pchild[a] = b
    return a


@njit(cache=True, _nrt=False)
def _cell_pop(cell, croot, pkey, pchild, psib):
    """Remove and return the least node of a cell's pairing heap (two-pass pairing)."""
    r = croot[cell]
    c = pchild[r]
    acc = -1  # the pairs of the first pass, linked through psib, last pair first
    while c >= 0:
        a = c
        b = psib[a]
        if b < 0:
            psib[a] = acc
            acc = a
            break
        nxt = psib[b]
        psib[a] = -1
        psib[b] = -1
        m = _meld(a, b, pkey, pchild, psib)
        psib[m] = acc
        acc = m
        c = nxt
    res = -1
    while acc >= 0:
        nxt = psib[acc]
        psib[acc] = -1
        res = acc if res < 0 else _meld(res, acc, pkey, pchild, psib)
        acc = nxt
    croot[cell] = res
    pchild[r] = -1
    return r


@njit(cache=True, _nrt=False)
def _cell_insert(j, key, cell, croot, pkey, pchild, psib):
    """Put node ``j`` with heap key ``key`` into the pairing heap of ``cell``."""
    pkey[j] = key
    pchild[j] = -1
    psib[j] = -1
    croot[cell] = j if croot[cell] < 0 else _meld(croot[cell], j, pkey, pchild, psib)


@njit(cache=True, _nrt=False)
def _cell_push(j, feat, w, h, ckey, cidx, croot, pkey, pchild, psib, fctr):
    """Put node ``j`` (weight ``w``, matching cost ``h``) into the cell of feature key
    ``feat`` (created when new). Returns False when the cell table is full."""
    mask = ckey.shape[0] - 1
    slot = np.int64((feat * 0x9E3779B1) & mask)
    while True:
        if ckey[slot] == feat:
            cell = cidx[slot]
            break
        if ckey[slot] < 0:
            if 2 * fctr[F_NCELLS] >= ckey.shape[0]:
                return False
            cell = fctr[F_NCELLS]
            fctr[F_NCELLS] = cell + 1
            ckey[slot] = feat
            cidx[slot] = cell
            croot[cell] = -1
            break
        slot = (slot + 1) & mask
    if w > 0xFFFF:
        w = 0xFFFF
    if h > 0xFFFF:
        h = 0xFFFF
    _cell_insert(j, (np.int64(w) << _KEY_W) | (np.int64(h) << _KEY_H) | np.int64(j), cell,
                 croot, pkey, pchild, psib)
    fctr[F_OPEN] += 1
    if feat == DEFER_KEY:
        fctr[F_DEFER] = cell
        fctr[F_DEFERRED] += 1
    return True
