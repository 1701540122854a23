"""No-guess boards: won by certain moves from the first open, reproducible, rated."""
import subprocess
import sys

import numpy as np
import pytest

from levelforge import ConfigError, GenerationError
from levelforge.engine import mines as K
from levelforge.engine import mines_gen as G
from levelforge.mines import Assistant, Game, Level, autoplay
from levelforge.mines import noguess
from levelforge.seeding import kernel_seed

import naive_mines as naive

PRESETS = ["easy", "normal", "hard", "9x9x1-10", "16x16x1-40", "30x16x1-99"]
COMPLETE = Assistant(complete=True)


def _mines(game):
    lv = game.level
    return {naive.cells(lv.width, lv.height, lv.depth)[i] for i in np.flatnonzero(game._mine)}


@pytest.mark.parametrize("level", PRESETS)
def test_no_guess_boards_are_won_by_certain_moves_from_the_first_open(level):
    boards = 200
    for seed in range(boards):
        game = Game(level, seed=seed, no_guess=True)
        result = autoplay(game, COMPLETE)
        assert result.status == "won" and result.guesses == 0, (level, seed, result)
        assert game.rating().solved and game.generation.attempts >= 1


@pytest.mark.parametrize("level", ["easy", "normal", "9x9x1-10", "16x16x1-40", "30x16x1-99"])
def test_easy_no_guess_boards_need_single_numbers_only(level):
    for seed in range(25):
        game = Game(level, seed=seed, no_guess="easy")
        lv = game.level
        start = (lv.width // 2, lv.height // 2, 0)
        game.open(start)
        assert naive.single_number_play(_mines(game), start, lv.width, lv.height, lv.depth)
        rating = game.rating()
        assert rating.logic == "easy" and rating.subset_steps == rating.enumeration_steps == 0
        assert autoplay(game, Assistant()).status == "won"     # the design's caps suffice


def test_no_guess_mine_count_is_exact_and_the_first_open_a_zero():
    for seed in range(40):
        level = Level(8, 7, 3, 12 + seed % 20)
        game = Game(level, seed=seed, no_guess=True)
        start = (seed % 8, (3 * seed) % 7, 0)
        game.open(start)
        placed = _mines(game)
        assert len(placed) == level.mines
        assert start not in placed and not placed & set(naive.neighbours(start, 8, 7, 3))
        assert game.observe().numbers[0, start[1], start[0]] == 0


def test_no_guess_board_is_a_function_of_seed_level_start_and_no_guess():
    boards = {}
    for no_guess in (False, True, "easy"):
        game = Game("30x16x1-99", seed=77, no_guess=no_guess)
        game.open((3, 3, 0))
        boards[no_guess] = np.flatnonzero(game._mine).tolist()
        again = Game("30x16x1-99", seed=77, no_guess=no_guess)
        again.flag((29, 15, 0))
        again.open((3, 3, 0))
        assert np.flatnonzero(again._mine).tolist() == boards[no_guess]
    assert boards[True] != boards[False] != boards["easy"]
    other = Game("30x16x1-99", seed=77, no_guess=True)
    other.open((20, 10, 0))
    assert np.flatnonzero(other._mine).tolist() != boards[True]
    code = ("from levelforge.mines import Game;import numpy as np;"
            "g=Game('30x16x1-99',seed=77,no_guess=True);g.open((3,3,0));"
            "print(np.flatnonzero(g._mine).tolist())")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == str(boards[True])


def test_share_code_carries_no_guess():
    for no_guess, suffix in ((True, "&no_guess=1"), ("easy", "&no_guess=easy"), (False, "")):
        game = Game("hard", seed=5, no_guess=no_guess)
        game.open((4, 4, 0))
        code = game.share_code()
        assert code == "seed=5&level=hard&start=4,4,0" + suffix
        again = Game.from_share_code(code)
        assert again.no_guess == no_guess and _mines(again) == _mines(game)
    with pytest.raises(ConfigError, match="no_guess"):
        Game.from_share_code("seed=5&level=hard&start=4,4,0&no_guess=maybe")
    with pytest.raises(ConfigError, match="no_guess"):
        Game("hard", no_guess="hard")


def test_generation_strategies_all_give_no_guess_boards_with_the_same_mine_count():
    level = Level(9, 9, 1, 14)
    start = 40
    for strategy in noguess.STRATEGIES:
        for seed in range(30):
            rng = np.array([kernel_seed(seed)], np.uint64)
            mine, numbers, info, rating = noguess.generate(level, start, rng, True, strategy)
            assert int(mine.sum()) == 14 and info.strategy == strategy and rating.solved
            game = Game(level, seed=seed)
            game._mine[:] = mine                 # play the generated board as it is
            game._numbers[:] = numbers
            game.start, game.status = (4, 4, 0), "playing"
            game._queue[0] = start
            game._finish_open(K.open_cascade(game._queue, 1, game._mine, game._numbers,
                                             game._state, game._nb26))
            assert autoplay(game, COMPLETE).status == "won"
    with pytest.raises(ConfigError, match="strategy"):
        noguess.generate(level, start, np.array([1], np.uint64), True, "magic")


def test_generation_error_when_no_board_exists_changes_nothing():
    # 6x6 with 26 mines: the 9 start cells and one more safe cell cannot be told apart
    game = Game("6x6x1-26", seed=1, no_guess=True)
    with pytest.raises(GenerationError, match="no-guess"):
        noguess.generate(game.level, 14, np.array([3], np.uint64), True, "reject",
                         max_attempts=5)
    assert game.status == "ready" and game.start is None


def test_no_guess_placement_stays_close_to_uniform():
    level, start, boards = Level(9, 9, 1, 10), 40, 400
    freq = np.zeros(81)
    for seed in range(boards):
        mine, *_ = noguess.generate(level, start, np.array([kernel_seed(seed)], np.uint64))
        freq += mine
    nb26 = K.board_tables(9, 9, 1)[0]
    allowed = np.ones(81, bool)
    allowed[start] = False
    allowed[nb26[start][nb26[start] >= 0]] = False
    p = 10 / allowed.sum()
    assert freq[~allowed].sum() == 0
    chi2 = ((freq[allowed] - boards * p) ** 2 / (boards * p * (1 - p))).mean()
    assert chi2 < 2.0                          # per-cell frequencies near the uniform density


# ------------------------------------------------------------------ rating

def test_3bv_and_openings_match_naive():
    rng = np.random.default_rng(4)
    for _ in range(150):
        w, h, d = (int(v) for v in rng.integers(1, 7, size=3))
        n = w * h * d
        mine = (rng.random(n) < rng.uniform(0.0, 0.5)).astype(np.uint8)
        nb26 = K.board_tables(w, h, d)[0]
        numbers = np.zeros(n, np.int8)
        K.compute_numbers(mine, nb26, numbers)
        got = G.board_figures(mine, numbers, nb26, np.zeros(n, np.uint8), np.zeros(n, np.int32))
        mines = {c for c, m in zip(naive.cells(w, h, d), mine) if m}
        assert tuple(got) == naive.board_figures(mines, w, h, d)


def test_rating_counts_the_steps_beyond_single_numbers():
    solved = easy = 0
    for seed in range(150):
        game = Game("16x16x1-40", seed=seed)
        game.open((8, 8, 0))
        rating = game.rating()
        start = game._index((8, 8, 0), "rating")
        single = noguess.rate(game.level, game._mine, game._numbers, start, "easy")
        assert single.solved == (rating.solved and rating.subset_steps == 0
                                 and rating.enumeration_steps == 0)
        assert single.solved == naive.single_number_play(_mines(game), (8, 8, 0), 16, 16, 1)
        if rating.solved:
            assert autoplay(game, COMPLETE).status == "won"
        solved += rating.solved
        easy += single.solved
    assert 0 < easy < solved < 150


def test_rating_needs_the_first_open():
    game = Game("easy", seed=1)
    with pytest.raises(Exception, match="first"):
        game.rating()
