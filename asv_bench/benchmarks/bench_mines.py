"""3D minesweeper: the assistant on the positions of real games, no-guess generation, autoplay."""
import numpy as np

from levelforge.engine import mines as K
from levelforge.mines import Assistant, Game, autoplay, best_guess, guess_policy
from levelforge.mines import noguess
from levelforge.seeding import item_seed, kernel_seed

from .common import SEED

# levels of the figures: the three presets, then 2-D boards (depth 1)
LEVELS = ["easy", "normal", "hard", "9x9x1-10", "16x16x1-40", "30x16x1-99"]


def first_click(level):
    """The default first cell: the middle of the top face (always a zero)."""
    game = Game(level)
    return (game.level.width // 2, game.level.height // 2, 0)


def trajectory(level, seed, assistant):
    """The observations of one game as a guessing player meets them, before each analysis:
    certain moves first (complete exact analysis), else the best guess."""
    game = Game(level, seed=seed)
    game.open(first_click(level))
    out = []
    while game.status == "playing":
        obs = game.observe()
        out.append(obs)
        analysis = assistant.analyze(obs, exact=True)
        if not analysis.moves:
            game.open(best_guess(obs, analysis.probabilities))
            continue
        for move in analysis.moves:
            x, y, z = move.cell
            if game.status == "playing" and game.observe().state[z, y, x] == K.CLOSED:
                (game.open if move.action == "open" else game.flag)(move.cell)
    return out


def game_positions(level, games, seed=SEED):
    """Every position met in ``games`` guessing games from fixed seeds."""
    assistant = Assistant(complete=True)
    out = []
    for i in range(games):
        out += trajectory(level, item_seed(seed, i), assistant)
    return out


def midgame(seed, level="hard", fraction=0.5):
    """A game after the first click and random safe opens until ``fraction`` of the safe
    cells are open (an oracle picks the opens; no flags): a position full of numbers."""
    game = Game(level, seed=seed)
    game.open(first_click(level))
    rng = np.random.default_rng(seed)
    target = fraction * (game.level.cells - game.level.mines)
    while game.opened < target and game.status == "playing":
        obs = game.observe()
        choice = obs.selectable.reshape(-1) & (obs.state.reshape(-1) == K.CLOSED)
        safe = np.flatnonzero(choice & (game._mine == 0))
        game.open(obs.cell_of(int(rng.choice(safe))))
    return game


def midgame_positions(count, level="hard"):
    """``count`` mid-game observations from fixed seeds."""
    return [midgame(item_seed(SEED, i), level).observe() for i in range(count)]


class AnalyzeGamePositions:
    """``Assistant.analyze`` over the positions of 5 guessing games per level."""

    params = [["16x16x1-40", "30x16x1-99", "hard"], ["capped", "complete"], [False, True]]
    param_names = ["level", "assistant", "exact"]
    timeout = 300

    def setup(self, level, kind, exact):
        self.positions = game_positions(level, 5)
        self.assistant = Assistant(complete=kind == "complete")
        self.assistant.warm_up()

    def time_analyze_all(self, level, kind, exact):
        for obs in self.positions:
            self.assistant.analyze(obs, exact=exact)


class AnalyzeHard:
    """``Assistant.analyze`` on mid-game ``hard`` positions (10x10x10, 99 mines)."""

    params = [["plain", "exact"], [0, 1, 2]]
    param_names = ["mode", "position"]

    def setup(self, mode, position):
        self.obs = midgame_positions(3)[position]
        self.assistant = Assistant()
        self.assistant.warm_up()
        self.exact = mode == "exact"
        self.assistant.analyze(self.obs, exact=self.exact)

    def time_analyze(self, mode, position):
        self.assistant.analyze(self.obs, exact=self.exact)


class NoGuessGeneration:
    """One no-guess board (placement after the first open at the middle of the top face)."""

    params = [["30x16x1-99", "hard"], list(noguess.STRATEGIES)]
    param_names = ["level", "strategy"]

    def setup(self, level, strategy):
        self.level = Game(level).level
        x, y, _ = first_click(level)
        self.start = y * self.level.width + x
        self.i = 0
        noguess.generate(self.level, self.start, np.array([kernel_seed(SEED)], np.uint64))

    def time_generate(self, level, strategy):
        self.i += 1
        noguess.generate(self.level, self.start,
                         np.array([kernel_seed(item_seed(SEED, self.i))], np.uint64),
                         True, strategy)


class AutoplayGame:
    """One autoplay game from the first click to the end (or stuck)."""

    params = [LEVELS]
    param_names = ["level"]

    def setup(self, level):
        self.assistant = Assistant()
        self.assistant.warm_up()

    def time_autoplay(self, level):
        autoplay(Game(level, seed=SEED), self.assistant)


class AutoplayRates:
    """Win rate (share of games won) over 100 fixed seeds: certain moves only, and with
    the safest or the best guess (look-ahead and endgame) when stuck."""

    params = [LEVELS, [None, "safest", "best"]]
    param_names = ["level", "guess"]
    unit = "share"
    timeout = 600

    def setup(self, level, guess):
        self.assistant = Assistant(complete=True)
        self.assistant.warm_up()

    def track_win_rate(self, level, guess):
        won = sum(autoplay(Game(level, seed=item_seed(SEED, i)), self.assistant,
                           exact=guess is not None, guess=guess).status == "won"
                  for i in range(100))
        return won / 100


class GuessDecision:
    """One guess decision (``GuessPolicy.choose``) on the stuck positions of 20 expert
    games (30x16/99, certain moves then the safest guess), per rule."""

    params = [["safest", "lookahead", "endgame", "best"]]
    param_names = ["guess"]
    timeout = 600

    def setup(self, guess):
        self.assistant = Assistant(complete=True)
        self.policy = guess_policy(guess)
        self.stuck = []
        for i in range(20):
            for obs in trajectory("30x16x1-99", item_seed(SEED, i), self.assistant):
                a = self.assistant.analyze(obs, exact=True)
                if not a.moves:
                    self.stuck.append((obs, a))
        self.policy.choose(*self.stuck[0])

    def time_choose(self, guess):
        for obs, a in self.stuck:
            self.policy.choose(obs, a)
