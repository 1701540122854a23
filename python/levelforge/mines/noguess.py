"""No-guess boards and the figures that rate a board.

A no-guess board is one a player who never guesses wins from the first open: the
mines are placed (after the first open, from the seed) until certain moves alone clear
the board, with single numbers, subsets and exact counting of each component, never the
global mine count (``no_guess=True``), or with single numbers only (``"easy"``). Such a
board is won by :func:`~levelforge.mines.autoplay` with ``Assistant(complete=True)``:
what a sound but weaker player proves, the complete assistant proves too, on the same
or any later position.
"""
from __future__ import annotations

import threading
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Literal

import numpy as np

from levelforge.engine import mines as K
from levelforge.engine import mines_enum as E
from levelforge.engine import mines_gen as G
from levelforge.cancel import Cancel, Limit, raise_stopped
from levelforge.errors import ConfigError, GenerationError
from levelforge.timing import ms_since, now_ns

from .workspace import Workspace, _BINOM

STRATEGIES = {"reject": G.STRATEGY_REJECT, "perturb": G.STRATEGY_PERTURB,
              "hybrid": G.STRATEGY_HYBRID}
DEFAULT_STRATEGY = "perturb"
HYBRID_AFTER = 20               # placements tried as they come before perturbing
MAX_ATTEMPTS = 1000             # placements before GenerationError
PLAY_NODES = 50_000             # counting states per component in the play


def check_no_guess(value: object) -> bool | Literal["easy"]:
    """``False``, ``True`` or ``"easy"`` (also accepted: 0/1 and their strings)."""
    if isinstance(value, str):
        key = value.strip().lower()
        value = {"0": False, "false": False, "1": True, "true": True, "easy": "easy"}.get(key,
                                                                                          value)
    elif isinstance(value, (int, np.integer)) and not isinstance(value, bool) \
            and value in (0, 1):
        value = bool(value)
    if value is True or value is False:
        return value
    if isinstance(value, str) and value == "easy":
        return "easy"
    raise ConfigError(f"no_guess must be False, True or 'easy', got {value!r}")


@dataclass(frozen=True)
class BoardRating:
    """Figures of a board, as players rate boards (3D versions use 26 neighbours).

    ``bbbv``: 3BV, the fewest opens that clear the board (openings plus the safe cells
    no zero touches; flags aside). ``openings``: connected regions of zeros. ``solved``:
    whether certain moves win from the first open (``logic``: ``"full"`` or ``"easy"``,
    single numbers only); ``subset_steps`` / ``enumeration_steps``: how many times single
    numbers ran dry and subsets, or exact counting of a component, found the next move.

    >>> from levelforge.mines import Game
    >>> game = Game("9x9x1-10", seed=2, no_guess=True)
    >>> _ = game.open((4, 4, 0))
    >>> r = game.rating()
    >>> r.solved and r.bbbv >= r.openings >= 1
    True
    """

    bbbv: int
    openings: int
    solved: bool
    subset_steps: int
    enumeration_steps: int
    logic: str = "full"

    def to_dict(self):
        """A JSON-ready dict of the fields."""
        return dict(self.__dict__)


@dataclass(frozen=True)
class Generation:
    """How a no-guess board was made: placements tried, perturbations, replays, time."""

    no_guess: object
    strategy: str
    attempts: int
    perturbations: int
    replays: int
    elapsed_ms: float

    def to_dict(self):
        """A JSON-ready dict of the fields."""
        return dict(self.__dict__)


class _Play:
    """Work arrays of generation and play for one board size."""

    def __init__(self, n):
        self.n = n
        self.ws = Workspace(n)
        self.cand = np.zeros(n, np.int32)
        self.known = np.zeros(n, np.int8)
        self.known2 = np.zeros(n, np.int8)
        self.pw = np.zeros(G.N_PLAY_INT * n, np.int32)
        self.pb = np.zeros(G.N_PLAY_BYTE * n, np.uint8)
        self.out = np.zeros(G.O_HALT + 1, np.int64)
        self.mark = np.zeros(n, np.uint8)

    def args(self):
        ws = self.ws
        p = ws.params                          # the play's analyses: plain, complete
        p[E.P_EXACT], p[E.P_MERGE], p[E.P_REDUCE_FIRST] = 0, 1, 1
        p[E.P_MAX_GROUPS], p[E.P_MAX_NODES], p[E.P_REMAINING] = self.n, PLAY_NODES, 0
        return (self.known, self.known2, ws.prob, self.pw, self.pb, self.out, p, ws.res, ws.iw,
                ws.ir, ws.u8, ws.fw, ws.st, ws.ed, ws.keys, ws.ht, ws.fp, ws.bq, ws.bf, ws.gw,
                ws.gb, _BINOM)


_local = threading.local()


def _play_for(n):
    cache = getattr(_local, "plays", None)
    if cache is None:
        cache = _local.plays = {}
    play = cache.get(n)
    if play is None:
        play = cache[n] = _Play(n)
    return play


def _logic(no_guess):
    return G.LOGIC_SINGLE if no_guess == "easy" else G.LOGIC_FULL


def generate(level, start, seed_state, no_guess=True, strategy=DEFAULT_STRATEGY,
             max_attempts=MAX_ATTEMPTS, time_limit: float | None = None,
             cancel: Cancel | None = None):
    """Mines (uint8, flat) and numbers (int8) of a no-guess board, and its :class:`Generation`.

    ``start`` is the flat index of the first open, ``seed_state`` the kernel PRNG state
    (uint64[1], advanced). Raises :class:`~levelforge.GenerationError` when no board is
    found within ``max_attempts`` placements or ``time_limit`` seconds (default None: no
    limit), :class:`~levelforge.Cancelled` when ``cancel`` is set (from another thread
    or process); the kernel looks at both before each play and after each analysis.
    """
    if strategy not in STRATEGIES:
        raise ConfigError(f"strategy must be one of {', '.join(STRATEGIES)}, got {strategy!r}")
    if not _KERNELS_LOADED:  # once per process, outside the timing and the time limit
        _load_kernels()
    t0 = now_ns()
    limit = Limit(time_limit, cancel, t0)
    nb26, nb6, boundary = K.board_tables(level.width, level.height, level.depth)
    n = level.cells
    play = _play_for(n)
    mine = np.zeros(n, np.uint8)
    numbers = np.zeros(n, np.int8)
    rng0 = np.array(seed_state, np.uint64).copy()
    with limit.watch(play.out, G.O_HALT):
        while True:
            rng = rng0.copy()
            G.generate_board(nb26, nb6, boundary, int(start), int(level.mines),
                             _logic(no_guess), STRATEGIES[strategy], HYBRID_AFTER,
                             int(max_attempts), rng, mine, numbers, play.cand, *play.args())
            status = int(play.out[G.O_STATUS])
            if status >= 0:
                break
            play.ws.grow(status)
    out = play.out
    if status == G.HALTED:
        raise_stopped(limit, f"no {'easy ' if no_guess == 'easy' else ''}no-guess board of "
                             f"{level.name} from start {start}")
    info = Generation(no_guess, strategy, int(out[G.O_ATTEMPTS]), int(out[G.O_PERTURB]),
                      int(out[G.O_REPLAYS]), ms_since(t0))
    if status != G.WON:
        raise GenerationError(
            f"no {'easy ' if no_guess == 'easy' else ''}no-guess board of {level.name} from "
            f"start {start} within {max_attempts} placements ({strategy})")
    seed_state[:] = rng
    rating = _rating(level, mine, numbers, out, no_guess, play)
    return mine, numbers, info, rating


_KERNELS_LOADED = False


def _load_kernels():
    """Compile (cold cache) or load the placement kernels on a tiny board, so that no
    board's ``elapsed_ms`` or time limit pays for it."""
    global _KERNELS_LOADED
    _KERNELS_LOADED = True
    tiny = SimpleNamespace(width=5, height=5, depth=1, mines=3, cells=25, name="5x5x1-3")
    try:
        generate(tiny, 12, np.array([1], np.uint64))
    except GenerationError:  # the kernels are compiled either way
        pass


def _rating(level, mine, numbers, out, no_guess, play):
    nb26 = K.board_tables(level.width, level.height, level.depth)[0]
    bbbv, openings = G.board_figures(mine, numbers, nb26, play.mark, play.cand)
    return BoardRating(int(bbbv), int(openings), int(out[G.O_STATUS]) == G.WON,
                       int(out[G.O_SUBSET]), int(out[G.O_ENUM]),
                       "easy" if no_guess == "easy" else "full")


def rate(level, mine, numbers, start, no_guess=True):
    """The :class:`BoardRating` of a board from the first open at flat index ``start``."""
    nb26, nb6, boundary = K.board_tables(level.width, level.height, level.depth)
    play = _play_for(level.cells)
    mine = np.ascontiguousarray(mine, np.uint8)
    numbers = np.array(numbers, np.int8)
    while True:
        G.generate_board(nb26, nb6, boundary, int(start), int(level.mines), _logic(no_guess),
                         G.STRATEGY_RATE, 0, 1, np.zeros(1, np.uint64), mine, numbers,
                         play.cand, *play.args())
        status = int(play.out[G.O_STATUS])
        if status >= 0:
            break
        play.ws.grow(status)
    return _rating(level, mine, numbers, play.out, no_guess, play)
