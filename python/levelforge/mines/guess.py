"""Guessing when no move is certain: the safest cell, one ply of look-ahead, an exact endgame.

Everything here reads the public observation only. The ideas below are switches of
:class:`~levelforge.mines.GuessPolicy` (``autoplay(guess=...)`` names five combinations):

- **safest** (:func:`~levelforge.mines.best_guess`): the lowest exact mine probability,
  ties to the cell most likely to show a 0.
- **look-ahead**: among the near-safest cells (within ``MARGIN`` of the lowest mine
  probability, at most ``CANDIDATES`` of them), each cell is opened in thought with
  every number it can show. The exact counting of the position with that number gives the
  probability ``P(safe and shows v)`` (a ratio of placement counts) and what the number
  proves: if some selectable cell becomes safe, the guess made progress; if not, the next
  guess must be taken blind, at the best safety left. The cell of largest
  ``sum_v P(safe, v) * (1 if progress else next safety)`` is opened.
- **dead cells** (with the look-ahead): a candidate that can show only one number (its
  number is the same in every placement where it is safe) tells nothing but its own
  safety, and it stays as safe later as it is now, so it is skipped while a candidate that
  can show two numbers or more exists; when every candidate is dead, the safest is opened.
- **endgame**: when the observation allows at most ``ENDGAME_SOLUTIONS`` placements
  over at most ``ENDGAME_CELLS`` closed cells, every placement is enumerated and the
  move that maximises the exact probability of winning is found by a search over
  information states (the set of placements still possible and the cells opened), with
  memoisation, within ``ENDGAME_NODES`` openings of a cell in a placement (past it,
  a limit: the look-ahead decides).
"""
from __future__ import annotations

import math
from typing import Any

import numpy as np
import numpy.typing as npt

from levelforge.engine import mines as K
from levelforge.engine import mines_enum as E
from levelforge.errors import ConfigError

from .assistant import Assistant
from .endgame import ENDGAME_SOLUTIONS, endgame_move
from .observation import Cell, PublicObservation

MARGIN = 0.1              # look-ahead candidates: mine probability within this of the lowest
CANDIDATES = 8            # and at most this many of them
LOOKAHEAD_NODES = 20_000  # counting states per component of a position thought of, else no
                          # look-ahead for that guess (the safest cell)
FIFTY_RUNS = 24           # analyses with a candidate flagged per 50/50 search
ZERO_RUNS = 48            # counts of exact chances of a 0 per look-ahead
DEEP_CELLS = 100          # a second ply of look-ahead on positions of at most this many
DEEP_CANDIDATES = 4       # closed cells, over this many near-safest cells of each position


def best_guess(obs: PublicObservation, probabilities: npt.ArrayLike | None) -> Cell | None:
    """The safest selectable closed cell (the ``safest`` guess), or None.

    The selectable closed cell of lowest exact mine probability; ties (within 1e-9)
    go to the cell most likely to show a 0, estimated as the product of ``1 - p`` over
    its closed neighbours (0 next to a flag), then to the lowest index. When no
    probability is known (None, or NaN everywhere: a component over the state budget), a
    local estimate stands in: the largest share of mines still missing around an open
    neighbour, or the share of mines left among the closed cells.

    >>> from levelforge.mines import Assistant, Game
    >>> game = Game("9x9x1-10", seed=1)
    >>> _ = game.open((4, 4, 0))
    >>> obs = game.observe()
    >>> best_guess(obs, Assistant().analyze(obs, exact=True).probabilities) is not None
    True
    """
    p, cand, zero = _candidates(obs, probabilities, 1e-9)
    if cand.size == 0:
        return None
    if cand.size > 1:
        cand = cand[zero >= zero.max() - 1e-12]
    return obs.cell_of(int(cand[0]))


def _candidates(obs, probabilities, margin):
    """The selectable closed cells whose mine probability is within ``margin`` of the
    lowest (ascending index), with the probabilities used and each candidate's chance
    of showing a 0 (the product of ``1 - p`` over its closed neighbours, 0 next to a
    flag)."""
    n = obs.width * obs.height * obs.depth
    p = np.full(n, np.nan) if probabilities is None \
        else np.asarray(probabilities, float).reshape(n)
    state = obs.state.reshape(n)
    nb = K.board_tables(obs.width, obs.height, obs.depth)[0]
    selectable = obs.selectable.reshape(n) & (state == K.CLOSED)
    if not np.any(selectable & ~np.isnan(p)):
        p = _local_estimate(obs, state, nb)
    cand = np.flatnonzero(selectable & ~np.isnan(p))
    if cand.size == 0:
        return p, cand, np.zeros(0)
    pc = p[cand]
    cand = cand[pc <= pc.min() + margin]
    stay = np.where(state == K.CLOSED, 1.0 - np.nan_to_num(p, nan=0.5),
                    np.where(state == K.FLAGGED, 0.0, 1.0))
    rows = nb[cand]
    zero = np.where(rows >= 0, stay[rows], 1.0).prod(axis=1)
    return p, cand, zero


def _local_estimate(obs, state, nb):
    """Mine shares from single numbers: per closed cell the largest ``missing / closed``
    over its open neighbours, else the mines left over the closed cells."""
    n = state.size
    closed = state == K.CLOSED
    inside = nb >= 0
    around = np.where(inside, nb, 0)
    flags = (inside & (state[around] == K.FLAGGED)).sum(axis=1)
    unknown = (inside & closed[around]).sum(axis=1)
    share = np.where((state == K.OPEN) & (unknown > 0),
                     (obs.numbers.reshape(n) - flags) / np.maximum(unknown, 1), -1.0)
    est = np.where(inside, share[around], -1.0).max(axis=1)
    left = obs.remaining_mines / max(int(closed.sum()), 1)
    return np.where(closed, np.where(est >= 0, est, left), np.nan)


class GuessPolicy:
    """The guess ``autoplay`` opens when no move is certain (public information only).

    ``lookahead`` and ``endgame`` switch the two ideas of the module on; with both off this
    is :func:`~levelforge.mines.best_guess`. :meth:`~levelforge.mines.GuessPolicy.choose`
    needs an exact analysis of the observation; the positions a guess may lead to are
    counted by the policy's own assistant, with no cell cap and ``LOOKAHEAD_NODES``
    states per component (a count over that budget leaves that guess to the safest
    cell).

    >>> from levelforge.mines import Assistant, Game
    >>> game = Game("9x9x1-10", seed=1)
    >>> _ = game.open((4, 4, 0))
    >>> assistant = Assistant(complete=True)
    >>> obs = game.observe()
    >>> cell = GuessPolicy().choose(obs, assistant.analyze(obs, exact=True))
    >>> bool(obs.selectable[cell[2], cell[1], cell[0]])
    True
    """

    def __init__(self, lookahead: bool = True, endgame: bool = True, dead: bool = False,
                 fifty: bool = False, zero: bool = False, deep: bool = False) -> None:
        switches = {"lookahead": lookahead, "endgame": endgame, "dead": dead, "fifty": fifty,
                    "zero": zero, "deep": deep}
        for name, v in switches.items():
            if not isinstance(v, (bool, np.bool_)):
                raise ConfigError(f"{name} must be True or False, got {v!r}")
        self.lookahead = bool(lookahead)
        self.endgame = bool(endgame)
        self.dead = bool(dead)
        self.fifty = bool(fifty)
        self.zero = bool(zero)
        self.deep = bool(deep)
        self.last = "safest"        # which idea chose the last guess
        self._probe = None

    def to_dict(self) -> dict[str, Any]:
        """The configuration as a JSON-ready dict."""
        return {"lookahead": self.lookahead, "endgame": self.endgame, "dead": self.dead,
                "fifty": self.fifty, "zero": self.zero, "deep": self.deep}

    def _assistant(self):
        if self._probe is None:
            self._probe = Assistant(max_component_cells=1 << 20, max_nodes=LOOKAHEAD_NODES)
        return self._probe

    def choose(self, obs: PublicObservation, analysis: Any) -> Cell | None:
        """The cell to open in ``obs`` (a selectable closed cell), or None when there is none.

        ``analysis`` is an :class:`~levelforge.mines.Analysis` of ``obs`` with
        ``exact=True``; when it has no exact count (a component over a cap) the safest
        guess stands in.
        """
        log_count = analysis.log_count
        p = analysis.probabilities
        self.last = "safest"
        if p is None or math.isnan(log_count):
            return best_guess(obs, p)
        if self.endgame and log_count <= math.log(ENDGAME_SOLUTIONS) + 1e-9:
            cell = endgame_move(obs)
            if cell is not None:
                self.last = "endgame"
                return cell
        if self.fifty:
            cell = fifty_fifty_move(obs, p, self._assistant())
            if cell is not None:
                self.last = "fifty"
                return cell
        if self.lookahead:
            cell = _lookahead_move(obs, p, log_count, self._assistant(), self.dead, self.zero,
                                   self.deep)
            if cell is not None:
                self.last = "lookahead"
                return cell
        return best_guess(obs, p)


def _lookahead_move(obs, probabilities, log_count, assistant, dead=False, zero_exact=False,
                    deep=False):
    """The near-safest cell of largest ``sum_v P(safe, v) * (1 if progress else the best
    safety left)``; None when there is no candidate. With ``dead``, candidates that can
    show only one number lose to any that can show more, and the safest candidate is
    taken when all are dead. With ``zero_exact``, cells tied at the cut of the
    ``CANDIDATES`` are ranked by their exact chance of showing a 0. With ``deep``, on a
    position of at most ``DEEP_CELLS`` closed cells, a number that makes no progress is
    worth the best one-ply score of the position it leaves (its ``DEEP_CANDIDATES``
    near-safest cells) instead of the best safety left."""
    p, cand, zero = _candidates(obs, probabilities, MARGIN)
    if cand.size == 0:
        return None
    order = np.lexsort((cand, -zero, p[cand]))
    if zero_exact and cand.size > CANDIDATES:
        cut = p[cand[order[CANDIDATES - 1]]]
        tied = np.abs(p[cand] - cut) <= 1e-9
        if np.count_nonzero(tied) > 1:
            zero = np.array(zero)
            zero[tied] = zero_chance(obs, cand[tied], log_count, assistant)
            order = np.lexsort((cand, -zero, p[cand]))
    cand = cand[order[:CANDIDATES]]
    if cand.size == 1:
        return obs.cell_of(int(cand[0]))
    plies = 2 if deep and np.count_nonzero(obs.state == K.CLOSED) <= DEEP_CELLS else 1
    best = _best_of(obs, p, cand, log_count, assistant, dead, plies)[0]
    return None if best is None else obs.cell_of(best)


def _best_of(obs, p, cand, log_count, assistant, dead, plies):
    """``(cell, score)`` of the candidate (flat) of largest look-ahead score over
    ``plies`` plies; ``(None, nan)`` when a count is over a cap."""
    w, h, d = obs.width, obs.height, obs.depth
    n = w * h * d
    nb26, nb6, boundary = K.board_tables(w, h, d)
    state = np.array(obs.state.reshape(n))
    numbers = np.array(obs.numbers.reshape(n))
    sel = np.zeros(n, np.uint8)
    best, best_score = None, -1.0
    if dead:
        best = int(cand[0])             # the safest, kept when every candidate is dead
    for c in cand.tolist():
        around = nb26[c][nb26[c] >= 0]
        flags = int(np.count_nonzero(state[around] == K.FLAGGED))
        closed = around[state[around] == K.CLOSED]
        lo = flags + int(np.count_nonzero(p[closed] >= 1.0))
        hi = flags + int(np.count_nonzero(p[closed] > 0.0))
        state[c] = K.OPEN
        K.selectable_mask(state, boundary, nb6, sel)
        score = 0.0
        shows = 0
        for v in range(lo, hi + 1):
            numbers[c] = v
            if assistant._run((w, h, d), state, numbers, obs.remaining_mines, True) != E.A_OK:
                continue
            ws = assistant._ws
            log_v = float(ws.fw[E.log_count_index(n)])
            if math.isnan(log_v):        # a component over a cap: no exact count here
                return None, math.nan
            share = math.exp(log_v - log_count)
            shows += share > 0.0
            unknown = (state == K.CLOSED) & (sel != 0) & (ws.known != K.MINE)
            if np.any(unknown & (ws.known == K.SAFE)) or not np.any(unknown):
                score += share
                continue
            safety = 1.0 - float(np.nanmin(ws.prob[unknown]))
            if plies > 1:
                safety = _next_step(obs, state, numbers, sel, ws.prob, log_v, assistant, safety)
            score += share * safety
        state[c] = K.CLOSED
        numbers[c] = -1
        if dead and shows <= 1:
            continue
        if score > best_score + 1e-12:
            best, best_score = c, score
    return best, best_score


def _next_step(obs, state, numbers, sel, prob, log_count, assistant, safety):
    """The best one-ply score of the position ``state``/``numbers`` thought of (its exact
    probabilities ``prob``, log count ``log_count``), over its ``DEEP_CANDIDATES``
    near-safest cells; ``safety`` when a count is over a cap."""
    shape = obs.shape
    child = PublicObservation(obs.width, obs.height, obs.depth, obs.mines,
                              state.reshape(shape).copy(), numbers.reshape(shape).copy(),
                              (sel != 0).reshape(shape), obs.remaining_mines, "playing")
    cp, cand, zero = _candidates(child, prob.copy(), MARGIN)
    cand = cand[np.lexsort((cand, -zero, cp[cand]))[:DEEP_CANDIDATES]]
    score = _best_of(child, cp, cand, log_count, assistant, False, 1)[1]
    return safety if math.isnan(score) else score


def fifty_fifty_move(obs: PublicObservation, probabilities: npt.ArrayLike,
                     assistant: Assistant | None = None) -> Cell | None:
    """A selectable cell that is safe or one half of an unavoidable 50/50, or None.

    A closed cell ``a`` next to an open number (mine probability strictly between 0 and
    1) qualifies with a partner ``b`` when no open number sees one of the two without the
    other, and in every placement where ``a`` is a mine, ``b`` is safe and every closed
    cell next to exactly one of them is a mine. Then whenever ``a`` is a mine, swapping ``a`` and ``b`` gives
    a placement that no later opening of another cell can tell apart: that guess is
    coming anyway, so it is taken now and its number, if ``a`` is safe, may settle its
    neighbours (JSMinesweeper's 50/50 and pseudo-50/50 rule). The condition is proved by
    the assistant's logic on the observation with ``a`` flagged (its proofs are sound, so
    a cell returned always qualifies; a pair it cannot settle is missed). Of the cells
    that qualify, the one of lowest mine probability (then lowest index) is returned.

    >>> from levelforge.mines import Assistant, Game
    >>> game = Game("9x9x1-10", seed=1)
    >>> _ = game.open((4, 4, 0))
    >>> obs = game.observe()
    >>> fifty_fifty_move(obs, Assistant().analyze(obs, exact=True).probabilities) is None
    True
    """
    assistant = Assistant(max_component_cells=1 << 20, max_nodes=LOOKAHEAD_NODES) \
        if assistant is None else assistant
    w, h, d = obs.width, obs.height, obs.depth
    n = w * h * d
    p = np.asarray(probabilities, float).reshape(n)
    nb26 = K.board_tables(w, h, d)[0]
    state = np.array(obs.state.reshape(n))
    closed = state == K.CLOSED
    inside = nb26 >= 0
    seen = np.zeros(n, bool)
    seen[nb26[state == K.OPEN][inside[state == K.OPEN]]] = True
    # a cell next to exactly one of the pair must be a mine under the hypothesis: an open
    # cell never qualifies, nor an unconstrained closed cell that may be safe
    bad = (state == K.OPEN) | (closed & (p < 1.0) & ~seen)
    uncertain = closed & (p > 0.0) & (p < 1.0)
    # a is next to a number (in a 50/50 without one, its partner is) and such neighbours
    # of a must be b or next to b too: at most 1 + the 4 (in 3-D 16) that two share
    nbad = (inside & bad[np.where(inside, nb26, 0)]).sum(axis=1)
    cand = np.flatnonzero(uncertain & seen & obs.selectable.reshape(n)
                          & (nbad <= (5 if d == 1 else 17)))
    runs = 0
    for a in cand[np.lexsort((cand, p[cand]))].tolist():
        na = set(nb26[a][inside[a]].tolist())
        pairs = []
        for b in sorted(set(nb26[list(na)][inside[list(na)]].tolist()) | na):
            if b == a or not uncertain[b] or 1.0 - p[b] < p[a] - 1e-9:
                continue
            nb = set(nb26[b][inside[b]].tolist())
            only = [x for x in (na ^ nb) - {a, b} if state[x] != K.FLAGGED]
            if not any(bad[x] or p[x] < p[a] - 1e-9 for x in only):
                pairs.append((b, only))
        if not pairs:
            continue
        if runs == FIFTY_RUNS:
            break
        runs += 1
        state[a] = K.FLAGGED
        code = assistant._run((w, h, d), state, obs.numbers.reshape(n),
                              obs.remaining_mines - 1, True)
        state[a] = K.CLOSED
        if code != E.A_OK:
            continue
        known = assistant._ws.known
        for b, only in pairs:
            if known[b] == K.SAFE and all(known[x] == K.MINE for x in only):
                return obs.cell_of(a)
    return None


def zero_chance(obs: PublicObservation, cells: npt.ArrayLike, log_count: float,
                assistant: Assistant) -> npt.NDArray[np.float64]:
    """The exact probability that each of ``cells`` (flat indices of closed cells) is safe
    and shows a 0, from the counts: the observation with the cell opened as a 0 over the
    observation's own count (``log_count``, from an exact analysis). A cell next to a flag
    cannot show a 0. Cells no open number sees whose closed neighbours no open number sees
    either are interchangeable up to their number of closed neighbours, so they are counted
    once per number; at most ``ZERO_RUNS`` counts are made, the rest keep NaN.

    >>> from levelforge.mines import Assistant, Game
    >>> game = Game("9x9x1-10", seed=1)
    >>> _ = game.open((4, 4, 0))
    >>> obs = game.observe()
    >>> a = Assistant().analyze(obs, exact=True)
    >>> chance = float(zero_chance(obs, [0], a.log_count, Assistant())[0])
    >>> bool(0 < chance < 1 - a.probabilities[0, 0, 0])
    True
    """
    w, h, d = obs.width, obs.height, obs.depth
    n = w * h * d
    nb26 = K.board_tables(w, h, d)[0]
    inside = nb26 >= 0
    state = np.array(obs.state.reshape(n))
    numbers = np.array(obs.numbers.reshape(n))
    opened = state == K.OPEN
    seen = np.zeros(n, bool)
    seen[nb26[opened][inside[opened]]] = True
    out = np.full(len(cells), np.nan)
    by_count = {}
    runs = 0
    for k, c in enumerate(np.asarray(cells, np.int64).tolist()):
        around = nb26[c][inside[c]]
        if np.any(state[around] == K.FLAGGED):
            out[k] = 0.0
            continue
        key = None
        if not seen[c] and not np.any(seen[around]):
            key = int(np.count_nonzero(state[around] == K.CLOSED))
            if key in by_count:
                out[k] = by_count[key]
                continue
        if runs == ZERO_RUNS:
            continue
        runs += 1
        state[c], numbers[c] = K.OPEN, 0
        share = 0.0
        if assistant._run((w, h, d), state, numbers, obs.remaining_mines, True) == E.A_OK:
            share = math.exp(float(assistant._ws.fw[E.log_count_index(n)]) - log_count)
        state[c], numbers[c] = K.CLOSED, -1
        out[k] = share
        if key is not None:
            by_count[key] = share
    return out
