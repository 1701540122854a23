"""Autoplay: the assistant plays a game to its end, with a guess rule for positions it
cannot settle (the design's assistant never guesses).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, Sequence

from ..errors import ConfigError, InvalidMoveError
from ..timing import ms_since, now_ns
from .assistant import Assistant
from .game import Game
from .guess import GuessPolicy


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


GUESS_RULES = (None, "best", "safest", "lookahead", "endgame", "dead")
"""``autoplay``'s guess rules: None (never guess, the design's assistant), ``safest``
(:func:`~levelforge.mines.best_guess`), ``lookahead`` or ``endgame`` (that idea of
:class:`~levelforge.mines.GuessPolicy` over the safest cell), ``best`` (both) and ``dead``
(``best`` with dead candidates skipped, a candidate rule under measurement)."""


def guess_policy(rule: Literal["best", "safest", "lookahead", "endgame", "dead"]) -> GuessPolicy:
    """The :class:`~levelforge.mines.GuessPolicy` of a guess rule (one of
    :data:`~levelforge.mines.GUESS_RULES` but None).

    >>> sorted(k for k, on in guess_policy("lookahead").to_dict().items() if on)
    ['lookahead']
    """
    if rule not in GUESS_RULES[1:]:
        raise ConfigError(f"guess must be None or one of {GUESS_RULES[1:]}, got {rule!r}")
    return GuessPolicy(rule in ("best", "lookahead", "dead"), rule in ("best", "endgame", "dead"),
                       rule == "dead")


def autoplay(game: Game, assistant: Assistant | None = None, start: Sequence[int] | None = None,
             exact: bool = False, max_decisions: int = 100_000,
             guess: Literal["best", "safest", "lookahead", "endgame", "dead"] | GuessPolicy
             | None = None) -> AutoplayResult:
    """Play certain moves until the game ends or the assistant is stuck.

    A game not started yet is opened at ``start`` (default: the middle of the top face,
    ``(width // 2, height // 2, 0)``), which is always a zero. Each round asks the
    assistant once and plays every proved move still legal (opens first, then flags).
    With a ``guess`` rule (for solver benchmarks; the design's assistant never guesses)
    a stuck round asks for exact probabilities and opens the rule's guess instead
    (:data:`~levelforge.mines.GUESS_RULES`; ``best`` is the strongest, ``safest`` the lowest mine
    probability), or a :class:`~levelforge.mines.GuessPolicy` of one's own. The guess
    reads the public observation only.

    >>> from levelforge.mines import Game
    >>> result = autoplay(Game("easy", seed=3))
    >>> result.status in ("won", "stuck")
    True
    >>> autoplay(Game("9x9x1-10", seed=3), guess="best").status in ("won", "lost")
    True
    """
    policy = guess if guess is None or isinstance(guess, GuessPolicy) else guess_policy(guess)
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
