"""Random small minesweeper positions shared by the assistant and kernel tests."""
import numpy as np

from levelforge.engine import mines as K
from levelforge.mines import Game, Level

SHAPES = [(4, 4, 1), (5, 4, 1), (6, 3, 1), (4, 3, 2), (5, 3, 2), (4, 4, 2), (4, 3, 3), (5, 5, 1)]


def random_position(rng, wrong_flags=0.0):
    """A game after a random first click and random (cheating) safe opens and flags."""
    w, h, d = SHAPES[int(rng.integers(len(SHAPES)))]
    reserved = min(w, 3) * min(h, 3) * min(d, 3)
    mines = int(rng.integers(1, max(2, (w * h * d - reserved) * 2 // 3)))
    game = Game(Level(w, h, d, mines), seed=int(rng.integers(2**31)))
    obs = game.observe()
    starts = np.flatnonzero(obs.selectable.reshape(-1))
    game.open(obs.cell_of(int(rng.choice(starts))))
    for _ in range(int(rng.integers(0, 6))):
        if game.status != "playing":
            break
        obs = game.observe()
        choice = np.flatnonzero(obs.selectable.reshape(-1) & (obs.state.reshape(-1) == K.CLOSED))
        if choice.size == 0:
            break
        c = int(rng.choice(choice))
        if game._mine[c]:
            if rng.random() < 0.5:
                game.flag(obs.cell_of(c))
        elif rng.random() < wrong_flags:
            game.flag(obs.cell_of(c))
        else:
            game.open(obs.cell_of(c))
    return game


def trajectory(level, seed, assistant):
    """The observations a guessing player meets, before each analysis, from a zero in the
    middle of the top face to the end (certain moves first, else the best guess)."""
    from levelforge.mines import best_guess
    game = Game(level, seed=seed)
    lv = game.level
    game.open((lv.width // 2, lv.height // 2, 0))
    while game.status == "playing":
        obs = game.observe()
        yield obs
        analysis = assistant.analyze(obs, exact=True)
        if not analysis.moves:
            game.open(best_guess(obs, analysis.probabilities))
            continue
        for move in analysis.moves:
            if game.status != "playing":
                break
            cell_state = game.observe().state[move.cell[2], move.cell[1], move.cell[0]]
            if cell_state == K.CLOSED:
                (game.open if move.action == "open" else game.flag)(move.cell)
