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
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, NamedTuple, Sequence

import numpy as np
import numpy.typing as npt

from levelforge.engine import mines as K
from levelforge.engine import mines_enum as E
from levelforge.errors import ConfigError, InvalidMoveError
from levelforge.timing import ms_since, now_ns

from .game import Game
from .guess import GuessPolicy
from .observation import Cell, PublicObservation
from .workspace import Workspace

DEFAULT_CELLS = 22          # the design's caps: cells (exact mode: groups) per component
DEFAULT_NODES = 200_000     # and states counted per component
COMPLETE_NODES = 1_000_000  # the state budget per component of ``complete=True``


class Move(NamedTuple):
    """A move the assistant proved: ``action`` is ``open`` (a safe cell) or ``flag`` (a mine).

    >>> Move("open", (1, 2, 0))
    Move(action='open', cell=(1, 2, 0))
    """

    action: str
    cell: Cell


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
    elsewhere, and everywhere when a component was skipped or on a contradiction);
    ``log_count`` (exact mode only, NaN otherwise) the natural log of the number of mine
    placements the observation allows.
    """

    status: str
    safe: tuple[Cell, ...]
    mines: tuple[Cell, ...]
    moves: tuple[Move, ...]
    components: int
    skipped: int
    nodes: int
    elapsed_ms: float
    exact: bool = False
    probabilities: npt.NDArray[np.float64] | None = None
    log_count: float = float("nan")

    def to_dict(self) -> dict[str, Any]:
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

    By default the design's caps apply: a component of more than
    ``max_component_cells`` cells (in exact mode: groups of interchangeable cells) is
    skipped, and so is one whose count needs more than ``max_nodes`` states (the
    distinct partial counts of a frontier dynamic programme; two orders of the groups are
    tried, each with a sixteenth of the budget, then with all of it). Skipped components
    are counted in ``Analysis.skipped``, never guessed.

    ``complete=True`` lifts the cell cap and raises the state budget to
    :data:`~levelforge.mines.assistant.COMPLETE_NODES` per component (unless
    ``max_nodes`` is given): every cell that the public information proves is then
    found, within that budget. A component whose count is over the budget is still
    searched for certain cells, within the same budget: depth-first searches for
    solutions, and for each group windows of up to 4 rows around it (a window with no
    solution proves the group certain). What that
    search proves is sound, but it may miss cells; the component is counted in
    ``skipped`` and its probabilities are unknown. The assistant owns its work arrays and
    reuses them from call to call.

    >>> from levelforge.mines import Game
    >>> game = Game("9x9x1-10", seed=5)
    >>> _ = game.open((4, 4, 0))
    >>> analysis = Assistant().analyze(game.observe())
    >>> analysis.status in ("moves", "stuck")
    True
    >>> Assistant(complete=True).to_dict()
    {'max_component_cells': None, 'max_nodes': 1000000, 'complete': True}
    """

    def __init__(self, max_component_cells: int | None = None, max_nodes: int | None = None,
                 complete: bool = False) -> None:
        if not isinstance(complete, (bool, np.bool_)):
            raise ConfigError(f"complete must be True or False, got {complete!r}")
        for name, v in (("max_component_cells", max_component_cells), ("max_nodes", max_nodes)):
            if v is not None and (isinstance(v, bool) or not isinstance(v, (int, np.integer))
                                  or v < 1):
                raise ConfigError(f"{name} must be a positive integer or None, got {v!r}")
        self.complete = bool(complete)
        if max_component_cells is None and not complete:
            max_component_cells = DEFAULT_CELLS
        if max_nodes is None:
            max_nodes = COMPLETE_NODES if complete else DEFAULT_NODES
        self.max_component_cells = None if max_component_cells is None \
            else int(max_component_cells)
        self.max_nodes = int(max_nodes)
        self._ws: Workspace | None = None
        self._shape: tuple[int, int, int] | None = None

    def to_dict(self) -> dict[str, Any]:
        """The configuration as a JSON-ready dict."""
        return {"max_component_cells": self.max_component_cells, "max_nodes": self.max_nodes,
                "complete": self.complete}

    def warm_up(self) -> None:
        """Compile the kernels (cheap once done): analyze a tiny opened board (and, for a
        complete assistant, compile the witness search it runs past its state budget)."""
        game = Game("4x4x1-2", seed=0)
        game.open((0, 0, 0))
        self.analyze(game.observe())
        self.analyze(game.observe(), exact=True)
        if self.complete:
            self._ws.witness()

    def analyze(self, obs: PublicObservation, exact: bool = False) -> Analysis:
        """Prove what the public ``obs`` allows; returns an :class:`~levelforge.mines.Analysis`.

        With ``exact=True`` interchangeable cells are merged into weighted groups (the
        cap then counts groups) and the global mine count is combined across components:
        ``Analysis.probabilities`` gets the exact mine probability of each closed cell,
        and cells with probability exactly 0 or 1 join the proved cells.
        """
        t0 = now_ns()
        if not isinstance(obs, PublicObservation):
            raise ConfigError(f"analyze needs a PublicObservation, got {type(obs).__name__}")
        w, h, d = obs.width, obs.height, obs.depth
        n = w * h * d
        code = self._run((w, h, d), obs.state.reshape(n), obs.numbers.reshape(n),
                         obs.remaining_mines, exact)
        ws = self._ws
        res = ws.res
        comps, skipped, nodes = int(res[E.R_COMPS]), int(res[E.R_SKIPPED]), int(res[E.R_NODES])
        probabilities = None
        log_count = float("nan")
        if exact:
            log_count = float(ws.fw[E.log_count_index(n)])
            probabilities = ws.prob.reshape(obs.shape).copy()
            if code != E.A_OK:
                probabilities[:] = np.nan
            probabilities.setflags(write=False)
        if code != E.A_OK:
            return Analysis("contradiction", (), (), (), comps, skipped, nodes, ms_since(t0),
                            bool(exact), probabilities)
        ns, nm = int(res[E.R_SAFE]), int(res[E.R_MINES])
        idx = ws.cells_out[:ns + nm]
        sel = obs.selectable.reshape(n)[idx].tolist()
        wh = w * h
        cells = [(i % w, (i // w) % h, i // wh) for i in idx.tolist()]
        safe = tuple(cells[:ns])
        mines = tuple(cells[ns:])
        moves = tuple([Move("open", c) for c, ok in zip(safe, sel) if ok]
                      + [Move("flag", c) for c, ok in zip(mines, sel[ns:]) if ok])
        return Analysis("moves" if moves else "stuck", safe, mines, moves, comps, skipped,
                        nodes, ms_since(t0), bool(exact), probabilities, log_count)

    def _run(self, shape, state, numbers, remaining, exact):
        """The analysis kernel on flat public arrays (the caller checked them); returns
        its outcome code, the results left in the workspace."""
        w, h, d = shape
        n = w * h * d
        ws = self._ws
        if ws is None or ws.n != n or self._shape != shape:
            ws = self._ws = Workspace(n)
            self._shape = shape
            self._nb26 = K.board_tables(w, h, d)[0]
        p = ws.params
        p[E.P_REMAINING] = remaining
        p[E.P_EXACT] = bool(exact)
        p[E.P_MERGE] = bool(exact) or self.complete
        p[E.P_MAX_GROUPS] = n if self.max_component_cells is None else self.max_component_cells
        p[E.P_MAX_NODES] = self.max_nodes
        p[E.P_PUBLIC] = 1
        p[E.P_WITNESS] = self.complete
        return ws.analyze(state, numbers, self._nb26)


@dataclass(frozen=True)
class AutoplayResult:
    """How an autoplay game ended.

    ``status``: ``won``, ``lost`` (only after a guess: certain moves never lose),
    ``stuck`` (no certain move left and no guessing) or ``contradiction``.
    ``opens``/``flags`` count the moves played (guesses included), ``guesses`` the opens
    that were not certain, ``decisions`` the analyses, ``decision_ms`` their total time,
    ``guess_ms`` the time of each guess decision (its analysis and the choice).
    """

    status: str
    opens: int
    flags: int
    decisions: int
    decision_ms: float
    elapsed_ms: float
    skipped: int = 0
    guesses: int = 0
    guess_ms: tuple[float, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict of the fields."""
        return dict(self.__dict__)


GUESS_RULES = (None, "best", "safest", "lookahead", "endgame")
"""``autoplay``'s guess rules: None (never guess, the design's assistant), ``safest``
(:func:`~levelforge.mines.best_guess`), ``lookahead`` or ``endgame`` (that idea of
:class:`~levelforge.mines.GuessPolicy` over the safest cell) and ``best`` (both)."""


def guess_policy(rule: Literal["best", "safest", "lookahead", "endgame"]) -> GuessPolicy:
    """The :class:`~levelforge.mines.GuessPolicy` of a guess rule (one of
    :data:`~levelforge.mines.GUESS_RULES` but None).

    >>> guess_policy("lookahead").to_dict()
    {'lookahead': True, 'endgame': False}
    """
    if rule not in GUESS_RULES[1:]:
        raise ConfigError(f"guess must be None or one of {GUESS_RULES[1:]}, got {rule!r}")
    return GuessPolicy(rule in ("best", "lookahead"), rule in ("best", "endgame"))


def autoplay(game: Game, assistant: Assistant | None = None, start: Sequence[int] | None = None,
             exact: bool = False, max_decisions: int = 100_000,
             guess: Literal["best", "safest", "lookahead", "endgame"] | None = None
             ) -> AutoplayResult:
    """Play certain moves until the game ends or the assistant is stuck.

    A game not started yet is opened at ``start`` (default: the middle of the top face,
    ``(width // 2, height // 2, 0)``), which is always a zero. Each round asks the
    assistant once and plays every proved move still legal (opens first, then flags).
    With a ``guess`` rule (for solver benchmarks; the design's assistant never guesses)
    a stuck round asks for exact probabilities and opens the rule's guess instead
    (:data:`~levelforge.mines.GUESS_RULES`; ``best`` is the strongest, ``safest`` the lowest mine
    probability). The guess reads the public observation only.

    >>> from levelforge.mines import Game
    >>> result = autoplay(Game("easy", seed=3))
    >>> result.status in ("won", "stuck")
    True
    >>> autoplay(Game("9x9x1-10", seed=3), guess="best").status in ("won", "lost")
    True
    """
    policy = None if guess is None else guess_policy(guess)
    t0 = now_ns()
    assistant = Assistant() if assistant is None else assistant
    if game.status == "ready":
        lv = game.level
        game.open(start if start is not None else (lv.width // 2, lv.height // 2, 0))
    opens = flags = decisions = skipped = guesses = 0
    guess_ms = []
    decision_ms = 0.0
    status = None
    while status is None:
        if game.status in ("won", "lost"):
            status = game.status
            break
        if decisions >= max_decisions:
            status = "stuck"
            break
        obs = game.observe()
        analysis = assistant.analyze(obs, exact=exact)
        decisions += 1
        decision_ms += analysis.elapsed_ms
        skipped = analysis.skipped
        if analysis.status == "stuck" and policy is not None:
            t_guess = now_ns() - int(analysis.elapsed_ms * 1e6)
            if not exact:
                analysis = assistant.analyze(obs, exact=True)
                decisions += 1
                decision_ms += analysis.elapsed_ms
            if analysis.status == "stuck":
                cell = policy.choose(obs, analysis)
                if cell is not None:
                    guess_ms.append(ms_since(t_guess))
                    game.open(cell)
                    opens += 1
                    guesses += 1
                    continue
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
    return AutoplayResult(status, opens, flags, decisions, decision_ms, ms_since(t0), skipped,
                          guesses, tuple(guess_ms))
