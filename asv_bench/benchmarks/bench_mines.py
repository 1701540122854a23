"""3D minesweeper: the assistant mid-game on ``hard``, autoplay per level."""
import numpy as np

from levelforge.engine import mines as K
from levelforge.mines import Assistant, Game, autoplay
from levelforge.seeding import item_seed

from .common import SEED

# levels of the figures: the three presets, then 2-D boards (depth 1)
LEVELS = ["easy", "normal", "hard", "9x9x1-10", "16x16x1-40", "30x16x1-99"]


def first_click(level):
    """The default first cell: the middle of the top face (always a zero)."""
    game = Game(level)
    return (game.level.width // 2, game.level.height // 2, 0)


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
    """Win rate (share of games won without guessing) over 100 fixed seeds."""

    params = [LEVELS]
    param_names = ["level"]
    unit = "share"
    timeout = 300

    def setup(self, level):
        self.assistant = Assistant()
        self.assistant.warm_up()

    def track_win_rate(self, level):
        won = sum(autoplay(Game(level, seed=item_seed(SEED, i)), self.assistant).status == "won"
                  for i in range(100))
        return won / 100
