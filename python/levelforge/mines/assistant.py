"""The logic assistant: certain moves from public information only, and autoplay.

The assistant reads a :class:`~levelforge.mines.PublicObservation` (never the minefield).
Method: one constraint per open number over its closed unflagged neighbours (flags count
as mines); settle trivial constraints and subtract subsets to a fixed point; split the
rest into connected components and enumerate each (within the caps; a component over a
cap is skipped and counted, never guessed). The global mine count is used only when the
remaining count is 0 or equals the number of closed cells, except with ``exact=True``,
which merges interchangeable cells into weighted groups and combines the components with
the global count to give the exact mine probability of every closed cell.
"""
from dataclasses import dataclass
from typing import NamedTuple
import numpy as np

from levelforge.engine import mines as K
from levelforge.errors import ConfigError, InvalidMoveError
from levelforge.timing import ms_since, now_ns

from .observation import PublicObservation

_BINOM = K.binomial_table()


class Move(NamedTuple):
    """A move the assistant proved: ``action`` is ``open`` (a safe cell) or ``flag`` (a mine).

    >>> Move("open", (1, 2, 0))
    Move(action='open', cell=(1, 2, 0))
    """

    action: str
    cell: tuple


@dataclass(frozen=True, eq=False)
class Analysis:
    """What the assistant proved about a position.

    ``status`` is ``moves`` (some proved cell can be played now), ``stuck`` (no certain
    move: a human must guess) or ``contradiction`` (the flags and numbers cannot all be
    right). ``safe``/``mines`` are the closed unflagged cells proved safe / mines, ``moves``
    those of them that are selectable now (opens first). ``components`` counts the
    components enumerated or skipped, ``skipped`` those over a cap (never guessed),
    ``nodes`` the search nodes. ``probabilities`` (exact mode only) is a float array
    ``[z, y, x]`` with the exact mine probability of each closed unflagged cell (NaN
    elsewhere, and everywhere when a component was skipped or on a contradiction).
    """

    status: str
    safe: tuple
    mines: tuple
    moves: tuple
    components: int
    skipped: int
    nodes: int
    elapsed_ms: float
    exact: bool = False
    probabilities: np.ndarray = None

    def to_dict(self):
        """A JSON-ready summary (cells as lists; probabilities omitted)."""
        return {
            "status": self.status, "safe": [list(c) for c in self.safe],
            "mines": [list(c) for c in self.mines],
            "moves": [{"action": m.action, "cell": list(m.cell)} for m in self.moves],
            "components": self.components, "skipped": self.skipped, "nodes": self.nodes,
            "elapsed_ms": self.elapsed_ms, "exact": self.exact,
        }


class Assistant:
    """Proves safe cells and mines from a public observation (Numba kernels).

    ``max_component_cells`` caps the cells (in exact mode: the groups) of a component
    that is enumerated, ``max_nodes`` the search nodes of one enumeration. The assistant
    owns its work arrays and reuses them from call to call.

    >>> from levelforge.mines import Game
    >>> game = Game("9x9x1-10", seed=5)
    >>> _ = game.open((4, 4, 0))
    >>> analysis = Assistant().analyze(game.observe())
    >>> analysis.status in ("moves", "stuck")
    True
    """

    def __init__(self, max_component_cells=22, max_nodes=200_000):
        for name, v in (("max_component_cells", max_component_cells), ("max_nodes", max_nodes)):
            if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < 1:
                raise ConfigError(f"{name} must be a positive integer, got {v!r}")
        self.max_component_cells = int(max_component_cells)
        self.max_nodes = int(max_nodes)
        self._n = -1

    def to_dict(self):
        """The configuration as a JSON-ready dict."""
        return {"max_component_cells": self.max_component_cells, "max_nodes": self.max_nodes}

    def warm_up(self):
        """Compile the kernels (cheap once done): analyze a tiny opened board."""
        from .game import Game
        game = Game("4x4x1-2", seed=0)
        game.open((0, 0, 0))
        self.analyze(game.observe())
        self.analyze(game.observe(), exact=True)

    def _workspace(self, obs):
        n = obs.width * obs.height * obs.depth
        shape = (obs.width, obs.height, obs.depth)
        if self._n != n or self._shape != shape:
            self._n = n
            self._shape = shape
            self._nb26 = K.board_tables(obs.width, obs.height, obs.depth)[0]
            i32 = np.int32
            self._con_cells = np.empty((n, K.MAX_NB), i32)
            self._con_len = np.zeros(n, i32)
            self._con_cnt = np.zeros(n, i32)
            self._con_alive = np.zeros(n, np.uint8)
            self._known = np.zeros(n, np.int8)
            self._inc_ptr = np.zeros(n + 1, i32)
            self._inc_list = np.zeros(n * K.MAX_NB, i32)
            self._parent = np.zeros(n + 1, i32)
            self._gcell = np.zeros(n, i32)
            self._comp_gptr = np.zeros(n + 1, i32)
            self._comp_kptr = np.zeros(n + 1, i32)
            self._comp_cons = np.zeros(n, i32)
            self._grp_cptr = np.zeros(n + 1, i32)
            self._grp_cells = np.zeros(n, i32)
            self._grp_size = np.zeros(n, i32)
            self._stamp = np.zeros(n + 1, i32)
            self._work = np.zeros(n + 1, i32)
            self._work2 = np.zeros(n + 1, i32)
            self._work3 = np.zeros(n + 1, i32)
            self._c_ptr = np.zeros(n + 1, i32)
            self._c_grp = np.zeros(n * K.MAX_NB, i32)
            self._g_ptr = np.zeros(n + 1, i32)
            self._g_con = np.zeros(n * K.MAX_NB, i32)
            self._order = np.zeros(n + 1, i32)
            self._val = np.zeros(n + 1, i32)
            self._wstk = np.zeros(n + 1, np.float64)
            self._mstk = np.zeros(n + 1, i32)
            self._cur = np.zeros(n + 1, i32)
            self._rem = np.zeros(n + 1, i32)
            self._ccnt = np.zeros(n + 1, i32)
            self._comp_status = np.zeros(n, np.int8)
            self._comp_nodes = np.zeros(n, np.int64)

    def analyze(self, obs, exact=False):
        """Prove what the public ``obs`` allows; returns an :class:`Analysis`.

        With ``exact=True`` interchangeable cells are merged into weighted groups (the
        cap then counts groups) and the global mine count is combined across components:
        ``Analysis.probabilities`` gets the exact mine probability of each closed cell,
        and cells with probability exactly 0 or 1 join the proved cells.
        """
        t0 = now_ns()
        if not isinstance(obs, PublicObservation):
            raise ConfigError(f"analyze needs a PublicObservation, got {type(obs).__name__}")
        self._workspace(obs)
        n = self._n
        state = np.ascontiguousarray(obs.state).reshape(n)
        numbers = np.ascontiguousarray(obs.numbers).reshape(n)
        known = self._known
        known[:] = K.UNKNOWN
        closed = state == K.CLOSED
        n_closed = int(np.count_nonzero(closed))
        remaining = int(obs.remaining_mines)
        contradiction = remaining < 0 or remaining > n_closed
        n_comps = 0
        nodes = 0
        skipped = 0
        comp_res = None
        if not contradiction:
            if remaining == 0:
                known[closed] = K.SAFE
            elif remaining == n_closed:
                known[closed] = K.MINE
            n_con = K.build_constraints(state, numbers, self._nb26, self._con_cells,
                                        self._con_len, self._con_cnt, self._con_alive)
            contradiction = n_con < 0
        if not contradiction:
            passes = K.reduce_constraints(n_con, self._con_cells, self._con_len, self._con_cnt,
                                          self._con_alive, known, self._inc_ptr, self._inc_list)
            contradiction = passes < 0
        if not contradiction:
            n_comps, n_groups = K.split_components(
                n_con, self._con_cells, self._con_len, self._con_alive, bool(exact),
                self._parent, self._gcell, self._comp_gptr, self._comp_kptr, self._comp_cons,
                self._grp_cptr, self._grp_cells, self._grp_size, self._inc_ptr,
                self._inc_list, self._stamp, self._work, self._work2, self._work3)
            comp_res = self._enumerate(n_comps)
            nodes = int(comp_res[0])
            status = self._comp_status[:n_comps]
            skipped = int(np.count_nonzero((status == K.COMP_OVER_CELLS)
                                           | (status == K.COMP_OVER_NODES)))
            contradiction = bool(np.any(status == K.COMP_NO_SOLUTION))
        probabilities = None
        if exact:
            probabilities = np.full(n, np.nan)
            if not contradiction and skipped == 0:
                contradiction = not self._combine(n_comps, comp_res, closed, remaining,
                                                  probabilities)
            if contradiction:
                probabilities[:] = np.nan
            probabilities = probabilities.reshape(obs.shape)
            probabilities.setflags(write=False)
        return self._result(obs, state, contradiction, n_comps, skipped, nodes, exact,
                            probabilities, t0)

    def _enumerate(self, n_comps):
        """Size the per-component outputs and run the enumeration kernel."""
        gptr = self._comp_gptr[:n_comps + 1]
        ng = np.diff(gptr)
        sizes = self._grp_size
        csum = np.concatenate(([0], np.cumsum(sizes[:gptr[-1]] if n_comps else [])))
        cells = (csum[gptr[1:]] - csum[gptr[:-1]]).astype(np.int64)
        ok = ng <= self.max_component_cells
        wlen = np.where(ok, cells + 1, 0)
        elen = np.where(ok, ng * (cells + 1), 0)
        w_off = np.where(ok, np.cumsum(wlen) - wlen, -1).astype(np.int64)
        e_off = (np.cumsum(elen) - elen).astype(np.int64)
        wsum = np.zeros(int(wlen.sum()), np.float64)
        esum = np.zeros(int(elen.sum()), np.float64)
        has_mine = np.zeros(int(elen.sum()), np.uint8)
        has_safe = np.zeros(int(elen.sum()), np.uint8)
        nodes = K.enumerate_components(
            n_comps, self._comp_gptr, self._comp_kptr, self._comp_cons, self._grp_cptr,
            self._grp_cells, self._grp_size, self._gcell, self._con_cells, self._con_len,
            self._con_cnt, self.max_component_cells, self.max_nodes, _BINOM, w_off, e_off,
            wsum, esum, has_mine, has_safe, self._known, self._comp_status, self._comp_nodes,
            self._c_ptr, self._c_grp, self._g_ptr, self._g_con, self._order, self._stamp,
            self._val, self._wstk, self._mstk, self._cur, self._rem, self._ccnt)
        return nodes, ng, cells, w_off, e_off, wsum, esum, has_mine, has_safe

    def _combine(self, n_comps, comp_res, closed, remaining, prob):
        """Exact probabilities and globally certain cells; False on a contradiction."""
        _, ng, cells, w_off, e_off, wsum, esum, has_mine, has_safe = comp_res
        known = self._known
        gcell = self._gcell
        # cells already settled by reduction; the rest are components or off-frontier
        free = closed & (known == K.UNKNOWN) & (gcell < 0)
        # cells marked known by the enumeration stay component cells (variables here)
        settled_mines = int(np.count_nonzero(closed & (known == K.MINE) & (gcell < 0)))
        r = remaining - settled_mines
        u = int(np.count_nonzero(free))
        ws, feas = [], []
        for ci in range(n_comps):
            s = int(cells[ci])
            w = wsum[w_off[ci]:w_off[ci] + s + 1]
            ws.append(w / w.max())
            feas.append((w > 0).astype(np.int64))

        def bconv(a, b):
            return (np.convolve(a, b) > 0).astype(np.int64)

        def fconv(a, b):
            return np.convolve(a, b)

        log_fact = np.concatenate(([0.0], np.cumsum(np.log(np.arange(1, u + 1)))))

        def log_binom_u(k):
            k = np.asarray(k)
            ok = (k >= 0) & (k <= u)
            kk = np.clip(k, 0, u)
            return np.where(ok, log_fact[u] - log_fact[kk] - log_fact[u - kk], -np.inf)

        # products of all components but one, from prefix and suffix products
        pre_f, pre_p, suf_f, suf_p = [np.ones(1)], [np.ones(1)], [np.ones(1)], [np.ones(1)]
        for ci in range(n_comps):
            pre_f.append(bconv(pre_f[-1], feas[ci]))
            pre_p.append(fconv(pre_p[-1], ws[ci]))
            suf_f.append(bconv(suf_f[-1], feas[n_comps - 1 - ci]))
            suf_p.append(fconv(suf_p[-1], ws[n_comps - 1 - ci]))
        f_all = pre_f[-1]
        big_m = np.arange(f_all.size)
        glob_ok = (f_all > 0) & (r - big_m >= 0) & (r - big_m <= u)
        if not glob_ok.any():
            return False
        p_all = pre_p[-1]
        lb = log_binom_u(r - big_m)
        with np.errstate(divide="ignore"):
            lt = np.log(np.where(glob_ok, p_all, 0.0)) + lb
        shift = lt[glob_ok].max()
        t_all = np.where(glob_ok, np.exp(lt - shift), 0.0)
        z = t_all.sum()
        # off-frontier cells
        if u > 0:
            mines_free = np.where(glob_ok, r - big_m, 0)
            prob_free = float((t_all * mines_free).sum() / z / u)
            if np.all(mines_free[glob_ok] == 0):
                prob_free = 0.0
                known[free] = K.SAFE
            elif np.all(mines_free[glob_ok] == u):
                prob_free = 1.0
                known[free] = K.MINE
            prob[free] = prob_free
        for ci in range(n_comps):
            s = int(cells[ci])
            stride = s + 1
            others_f = bconv(pre_f[ci], suf_f[n_comps - 1 - ci])
            others_p = fconv(pre_p[ci], suf_p[n_comps - 1 - ci])
            mm = np.arange(stride)
            # q[m] = sum_M' others[M'] * C(u, r - m - M') / exp(shift), feasibility alike
            tot = mm[:, None] + np.arange(others_p.size)[None, :]
            lbm = log_binom_u(r - tot)
            ok = (others_f[None, :] > 0) & np.isfinite(lbm)
            with np.errstate(divide="ignore"):
                q = np.where(ok, others_p[None, :] * np.exp(np.where(ok, lbm, 0.0) - shift),
                             0.0).sum(axis=1)
            m_ok = ok.any(axis=1) & (feas[ci] > 0)
            g0 = int(self._comp_gptr[ci])
            base = int(e_off[ci])
            scale = wsum[w_off[ci]:w_off[ci] + stride].max()
            for g in range(int(ng[ci])):
                sl = slice(base + g * stride, base + (g + 1) * stride)
                e = esum[sl] / scale
                size = int(self._grp_size[g0 + g])
                p = float((e * q).sum() / z / size)
                cs = self._grp_cells[self._grp_cptr[g0 + g]:self._grp_cptr[g0 + g + 1]]
                if not np.any(has_mine[sl][m_ok]):
                    p = 0.0
                    known[cs] = K.SAFE
                elif not np.any(has_safe[sl][m_ok]):
                    p = 1.0
                    known[cs] = K.MINE
                prob[cs] = min(max(p, 0.0), 1.0)
        prob[closed & (known == K.SAFE)] = 0.0
        prob[closed & (known == K.MINE)] = 1.0
        return True

    @staticmethod
    def _cells(obs, idx):
        """``(x, y, z)`` tuples of flat indices, in index order."""
        z, y, x = np.unravel_index(idx, obs.shape)
        return tuple(zip(x.tolist(), y.tolist(), z.tolist()))

    def _result(self, obs, state, contradiction, n_comps, skipped, nodes, exact,
                probabilities, t0):
        if contradiction:
            return Analysis("contradiction", (), (), (), n_comps, skipped, nodes, ms_since(t0),
                            exact, probabilities)
        known = self._known
        closed = state == K.CLOSED
        safe_idx = np.flatnonzero(closed & (known == K.SAFE))
        mine_idx = np.flatnonzero(closed & (known == K.MINE))
        sel = np.ascontiguousarray(obs.selectable).reshape(-1)
        safe = self._cells(obs, safe_idx)
        mines = self._cells(obs, mine_idx)
        moves = tuple([Move("open", c) for c, ok in zip(safe, sel[safe_idx].tolist()) if ok]
                      + [Move("flag", c) for c, ok in zip(mines, sel[mine_idx].tolist()) if ok])
        status = "moves" if moves else "stuck"
        return Analysis(status, safe, mines, moves, n_comps, skipped, nodes, ms_since(t0),
                        exact, probabilities)


@dataclass(frozen=True)
class AutoplayResult:
    """How an autoplay game ended.

    ``status``: ``won``, ``lost`` (never expected: the assistant only plays certain
    moves), ``stuck`` (no certain move left) or ``contradiction``. ``opens``/``flags`` count
    the moves played, ``decisions`` the analyses, ``decision_ms`` their total time.
    """

    status: str
    opens: int
    flags: int
    decisions: int
    decision_ms: float
    elapsed_ms: float
    skipped: int = 0

    def to_dict(self):
        """A JSON-ready dict of the fields."""
        return dict(self.__dict__)


def autoplay(game, assistant=None, start=None, exact=False, max_decisions=100_000):
    """Play certain moves until the game ends or the assistant is stuck.

    A game not started yet is opened at ``start`` (default: the middle of the top face,
    ``(width // 2, height // 2, 0)``), which is always a zero. Each round asks the
    assistant once and plays every proved move still legal (opens first, then flags).

    >>> from levelforge.mines import Game
    >>> result = autoplay(Game("easy", seed=3))
    >>> result.status in ("won", "stuck")
    True
    """
    t0 = now_ns()
    assistant = Assistant() if assistant is None else assistant
    if game.status == "ready":
        lv = game.level
        game.open(start if start is not None else (lv.width // 2, lv.height // 2, 0))
    opens = flags = decisions = skipped = 0
    decision_ms = 0.0
    status = None
    while status is None:
        if game.status in ("won", "lost"):
            status = game.status
            break
        if decisions >= max_decisions:
            status = "stuck"
            break
        analysis = assistant.analyze(game.observe(), exact=exact)
        decisions += 1
        decision_ms += analysis.elapsed_ms
        skipped = analysis.skipped
        if analysis.status != "moves":
            status = analysis.status
            break
        for move in analysis.moves:
            if game.status != "playing":
                break
            try:
                if move.action == "open":
                    game.open(move.cell)
                    opens += 1
                else:
                    game.flag(move.cell)
                    flags += 1
            except InvalidMoveError:
                # already opened by an earlier cascade of this round
                continue
    return AutoplayResult(status, opens, flags, decisions, decision_ms, ms_since(t0), skipped)
