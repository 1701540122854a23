"""The exact endgame search: the move that maximises the probability of winning.

When the observation allows few placements of the remaining mines (at most
``ENDGAME_SOLUTIONS`` over at most ``ENDGAME_CELLS`` closed cells), every placement is
enumerated and the information states (the placements still possible and the cells
opened) are searched with memoisation, within ``ENDGAME_NODES`` openings of a cell in a
placement (past it, a limit). :class:`~levelforge.mines.GuessPolicy` calls it; it reads
the public observation only.
"""
from __future__ import annotations

import math
from itertools import combinations

import numpy as np

from levelforge.engine import mines as K

from .observation import Cell, PublicObservation

ENDGAME_SOLUTIONS = 200   # the endgame search enumerates at most this many placements
ENDGAME_CELLS = 60        # over at most this many closed cells
ENDGAME_NODES = 200_000   # openings of a cell in a placement per decision, then a limit
ENUMERATION_NODES = 20_000  # and steps of the placement enumeration


class _Limit(Exception):
    """The endgame search went past its budget."""


def endgame_move(obs: PublicObservation, max_nodes: int | None = None) -> Cell | None:
    """The guess that maximises the exact probability of winning, or None (over the caps).

    Enumerates every placement of the remaining mines on the closed unflagged cells that
    the numbers allow (None past ``ENDGAME_SOLUTIONS`` placements, past
    ``ENDGAME_CELLS`` cells or past ``ENUMERATION_NODES`` steps), then searches
    the information states: a certain safe selectable cell is opened at once (free
    information), certain mines are flagged (in 3-D a flag exposes the cells below it),
    otherwise every selectable cell that is not certain is tried, each number it may show
    (and the cells a 0 opens) splitting the placements. Returns None past ``max_nodes``
    openings of a cell in a placement (default ``ENDGAME_NODES``; a limit) too.

    >>> from levelforge.mines import Game
    >>> game = Game("5x4x1-5", seed=0)
    >>> _ = game.open((0, 0, 0))
    >>> endgame_move(game.observe())
    (4, 0, 0)
    """
    search = _Endgame(obs)
    if not search.enumerate():
        return None
    try:
        _, cell = search.best(max_nodes)
    except _Limit:
        return None
    return None if cell is None else obs.cell_of(int(search.cells[cell]))


def win_probability(obs: PublicObservation, max_nodes: int | None = None) -> float | None:
    """The exact probability of winning from ``obs`` with the best play (the value the
    endgame search maximises); None over the caps.

    >>> from levelforge.mines import Game
    >>> game = Game("5x4x1-5", seed=0)
    >>> _ = game.open((0, 0, 0))
    >>> win_probability(game.observe())
    0.75
    """
    search = _Endgame(obs)
    if not search.enumerate():
        return None
    try:
        return search.best(max_nodes)[0]
    except _Limit:
        return None


class _Endgame:
    """Placements of an observation as bit masks over its closed unflagged cells, and the
    search over information states."""

    def __init__(self, obs):
        w, h, d = obs.width, obs.height, obs.depth
        n = w * h * d
        nb26, nb6, _ = K.board_tables(w, h, d)
        state = obs.state.reshape(n)
        numbers = obs.numbers.reshape(n)
        self.cells = np.flatnonzero(state == K.CLOSED)
        local = {int(c): i for i, c in enumerate(self.cells)}
        self.m = len(self.cells)
        self.remaining = obs.remaining_mines
        flagged = state == K.FLAGGED
        self.nbmask = []     # closed neighbours (26) of each local cell, as a mask
        self.base = []       # flagged neighbours of each local cell
        self.face = []       # closed face neighbours of each local cell, as a mask
        for c in self.cells.tolist():
            around = nb26[c][nb26[c] >= 0]
            self.nbmask.append(sum(1 << local[int(x)] for x in around if int(x) in local))
            self.base.append(int(np.count_nonzero(flagged[around])))
            faces = nb6[c][nb6[c] >= 0]
            self.face.append(sum(1 << local[int(x)] for x in faces if int(x) in local))
        sel = obs.selectable.reshape(n)
        self.sel0 = sum(1 << i for i, c in enumerate(self.cells.tolist()) if sel[c])
        self.rows = []       # (mask, mines needed) per open number with closed neighbours
        for c in np.flatnonzero(state == K.OPEN).tolist():
            around = nb26[c][nb26[c] >= 0]
            mask = sum(1 << local[int(x)] for x in around if int(x) in local)
            if mask:
                need = int(numbers[c]) - int(np.count_nonzero(flagged[around]))
                self.rows.append((mask, need))
        self.sols = []
        self.memo = {}
        self.nodes = 0

    def enumerate(self):
        """Every placement (a mask of mines) the rows and the count allow; False over
        the caps."""
        if self.m > ENDGAME_CELLS or self.remaining < 0:
            return False
        front = 0
        for mask, _ in self.rows:
            front |= mask
        order = [i for i in range(self.m) if front >> i & 1]
        free = [i for i in range(self.m) if not front >> i & 1]
        rows_of = [[k for k, (mask, _) in enumerate(self.rows) if mask >> i & 1]
                   for i in range(self.m)]
        need = [r[1] for r in self.rows]
        left = [bin(r[0]).count("1") for r in self.rows]
        sols = self.sols
        steps = [0]

        def rec(j, mask, mines):
            steps[0] += 1
            if steps[0] > ENUMERATION_NODES:
                raise _Limit
            if j == len(order):
                rest = self.remaining - mines
                if rest < 0 or rest > len(free):
                    return
                if math.comb(len(free), rest) + len(sols) > ENDGAME_SOLUTIONS:
                    raise _Limit
                for pick in combinations(free, rest):
                    sols.append(mask | sum(1 << i for i in pick))
                return
            i = order[j]
            for v in (0, 1):
                if mines + v > self.remaining:
                    break
                ok = True
                for k in rows_of[i]:
                    left[k] -= 1
                    need[k] -= v
                    if need[k] < 0 or need[k] > left[k]:
                        ok = False
                if ok:
                    rec(j + 1, mask | (v << i), mines + v)
                for k in rows_of[i]:
                    left[k] += 1
                    need[k] += v

        try:
            rec(0, 0, 0)
        except _Limit:
            return False
        return bool(sols)

    def _value(self, i, sol):
        return self.base[i] + bin(sol & self.nbmask[i]).count("1")

    def _open(self, i, sol, opened):
        """The cells opening ``i`` opens in placement ``sol`` (a 0 opens its closed
        neighbours, recursively) as a mask, and what they show."""
        todo = [i]
        got = 1 << i
        shown = []
        while todo:
            j = todo.pop()
            v = self._value(j, sol)
            shown.append((j, v))
            if v == self.base[j] and not sol & self.nbmask[j]:
                nxt = self.nbmask[j] & ~opened & ~got & ~sol
                while nxt:
                    b = nxt & -nxt
                    nxt ^= b
                    got |= b
                    todo.append(b.bit_length() - 1)
        shown.sort()
        return got, tuple(shown)

    def _split(self, idx, i, opened):
        """The placements of ``idx`` where ``i`` is safe, by what opening it shows."""
        self.nodes += len(idx)
        if self.nodes > self.max_nodes:
            raise _Limit
        parts = {}
        for s in idx:
            sol = self.sols[s]
            if sol >> i & 1:
                continue
            got, shown = self._open(i, sol, opened)
            parts.setdefault((got, shown), []).append(s)
        return parts

    def best(self, max_nodes):
        """``(win probability, best first cell or None)`` from the root."""
        self.max_nodes = ENDGAME_NODES if max_nodes is None else max_nodes
        return self._solve(tuple(range(len(self.sols))), 0, 0)

    def _solve(self, idx, opened, flagged):
        if len(idx) == 1:
            return 1.0, None
        key = (idx, opened)
        got = self.memo.get(key)
        if got is not None:
            return got
        union = 0
        inter = (1 << self.m) - 1
        for s in idx:
            union |= self.sols[s]
            inter &= self.sols[s]
        closed = ((1 << self.m) - 1) & ~opened
        # flag the certain mines that can be reached (a flag exposes its face neighbours)
        while True:
            reach = self._selectable(opened, flagged)
            new = inter & reach & closed & ~flagged
            if not new:
                break
            flagged |= new
        reach = self._selectable(opened, flagged) & closed & ~flagged
        safe = reach & ~union
        total = len(idx)
        if safe:
            i = (safe & -safe).bit_length() - 1
            value = 0.0
            for (more, _), part in self._split(idx, i, opened).items():
                value += len(part) / total * self._solve(tuple(part), opened | more, flagged)[0]
            out = (value, i)
        else:
            out = (0.0, None)
            guesses = reach & union & ~inter
            while guesses:
                b = guesses & -guesses
                guesses ^= b
                i = b.bit_length() - 1
                value = 0.0
                for (more, _), part in self._split(idx, i, opened).items():
                    value += len(part) / total * self._solve(tuple(part), opened | more,
                                                             flagged)[0]
                if value > out[0] + 1e-12 or out[1] is None:
                    out = (value, i)
                if out[0] >= 1.0 - 1e-12:
                    break
        self.memo[key] = out
        return out

    def _selectable(self, opened, flagged):
        """Local cells selectable once ``opened`` are open and ``flagged`` flagged."""
        exposed = opened | flagged
        mask = self.sel0
        rest = ((1 << self.m) - 1) & ~mask
        while rest:
            b = rest & -rest
            rest ^= b
            if self.face[b.bit_length() - 1] & exposed:
                mask |= b
        return mask
