"""The mines board editor's API: the no-guess answer against a plain-Python player that
never guesses (brute force over each frontier, no global mine count, the surface rule),
3BV and openings against the naive figures, and bad boards refused."""
from itertools import product

import numpy as np
import pytest

from levelforge import ConfigError
from levelforge.mines import Game, autoplay, check_board, random_mines

import naive_mines as naive


def naive_no_guess(mines, start, w, h, d, single=False):
    """Whether certain moves clear the board from ``start``: every assignment of the
    closed cells next to open numbers is tried (``single``: one number at a time), cells
    proved safe are opened and proved mines flagged once selectable (on the surface, or
    next to an open or flagged cell)."""
    cells = naive.cells(w, h, d)
    index = {c: i for i, c in enumerate(cells)}
    nb26 = [[index[q] for q in naive.neighbours(c, w, h, d)] for c in cells]
    nb6 = [[index[q] for q in naive.neighbours(c, w, h, d, diagonal=False)] for c in cells]
    edge = [naive.on_boundary(c, w, h, d) for c in cells]
    mine = [c in mines for c in cells]
    nums = [sum(mine[j] for j in nb26[i]) for i in range(len(cells))]
    opened, flagged, known = set(), set(), {index[start]: False}
    while True:
        moved = False
        for i, is_mine in list(known.items()):
            if i in opened or i in flagged:
                continue
            if not (edge[i] or any(j in opened or j in flagged for j in nb6[i])):
                continue
            moved = True
            if is_mine:
                flagged.add(i)
                continue
            todo = [i]
            opened.add(i)
            while todo:
                c = todo.pop()
                if nums[c] == 0:
                    for j in nb26[c]:
                        if j not in opened:
                            opened.add(j)
                            known[j] = False
                            todo.append(j)
        rows = []
        for i in opened:
            unknown = [j for j in nb26[i] if j not in known]
            if unknown:
                rows.append((unknown, nums[i] - sum(known.get(j) is True for j in nb26[i])))
        for group in ([[r] for r in rows] if single else [rows]):
            frontier = sorted({j for cs, _ in group for j in cs})
            fits = [bits for bits in product((0, 1), repeat=len(frontier))
                    if all(sum(bits[frontier.index(j)] for j in cs) == k for cs, k in group)]
            for k, j in enumerate(frontier):
                values = {bits[k] for bits in fits}
                if len(values) == 1 and j not in known:
                    known[j] = values == {1}
                    moved = True
        if not moved:
            return len(opened) == len(cells) - len(mines)


def _cells_of(field):
    d, h, w = field.shape
    return {(x, y, z) for z, y, x in zip(*np.nonzero(field))}


@pytest.mark.parametrize("case", range(60))
def test_no_guess_answer_equals_the_naive_player(case):
    rng = np.random.default_rng(100 + case)
    w, h, d = [(5, 5, 1), (6, 4, 1), (3, 3, 3), (4, 3, 2)][case % 4]
    count = int(rng.integers(1, 6 if d == 1 else 4))
    start = (0, int(rng.integers(h)), 0)
    field = random_mines(w, h, d, count, seed=case, start=None)
    field[start[2], start[1], start[0]] = False
    answer = check_board(field, start)
    mines = _cells_of(field)
    assert answer.no_guess == naive_no_guess(mines, start, w, h, d)
    assert answer.rating.solved == answer.no_guess
    assert (answer.rating.bbbv, answer.rating.openings) == naive.board_figures(mines, w, h, d)
    nums = naive.numbers(mines, w, h, d)
    for (x, y, z) in naive.cells(w, h, d):
        expected = -1 if (x, y, z) in mines else nums[naive.flat((x, y, z), w, h)]
        assert answer.numbers[z, y, x] == expected
    easy = check_board(field, start, logic="easy")
    assert easy.no_guess == naive_no_guess(mines, start, w, h, d, single=True)


def test_a_hand_placed_fifty_fifty_needs_a_guess():
    field = np.zeros((1, 2, 4), bool)
    field[0, 0, 3] = True                  # (3, 0) or (3, 1): both numbers say 1
    answer = check_board(field, (0, 1, 0))
    assert not answer.no_guess
    assert answer.numbers[0, :, 2].tolist() == [1, 1]
    assert not naive_no_guess(_cells_of(field), (0, 1, 0), 4, 2, 1)


def test_a_generated_no_guess_board_checks_as_no_guess():
    game = Game("6x6x6-20", seed=9, no_guess=True)
    game.open((0, 0, 0))
    autoplay(game)
    answer = check_board(game.minefield(), (0, 0, 0))
    assert answer.no_guess and answer.rating == game.rating()


def test_random_mines_keep_the_start_free_and_repeat_from_the_seed():
    field = random_mines(8, 7, 3, 40, seed=5, start=(0, 0, 0))
    assert field.shape == (3, 7, 8) and field.sum() == 40
    assert not field[:2, :2, :2].any()
    assert np.array_equal(field, random_mines(8, 7, 3, 40, seed=5, start=(0, 0, 0)))


@pytest.mark.parametrize("field, start, message", [
    (np.zeros((1, 3, 3), bool), (5, 0, 0), "outside"),
    (np.ones((1, 3, 3), bool), (0, 0, 0), "holds a mine"),
    (np.zeros((3, 3, 3), bool), (1, 1, 1), "surface"),
    (np.zeros((1, 33, 3), bool), (0, 0, 0), "1 to 32"),
    (np.full((1, 2, 2), 2), (0, 0, 0), "only 0 and 1"),
])
def test_bad_boards_are_refused(field, start, message):
    with pytest.raises(ConfigError, match=message):
        check_board(field, start)
