"""The rules of 3D minesweeper, one test per rule, and the game kernels against naive_mines."""
import pickle
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from levelforge import ConfigError, InvalidMoveError
from levelforge.engine import mines as K
from levelforge.mines import PRESETS, Game, Level, PublicObservation

import naive_mines as naive


def _open_cells(game):
    obs = game.observe()
    return {obs.cell_of(i) for i in np.flatnonzero(obs.state.reshape(-1) == K.OPEN)}


def _mines(game):
    lv = game.level
    return {naive.cells(lv.width, lv.height, lv.depth)[i] for i in np.flatnonzero(game._mine)}


def _safe_selectable(game):
    obs = game.observe()
    sel = obs.selectable.reshape(-1) & (obs.state.reshape(-1) == K.CLOSED)
    return [obs.cell_of(i) for i in np.flatnonzero(sel & (game._mine == 0))]


# ------------------------------------------------------------------ board and levels

def test_presets_easy_normal_hard_sizes():
    assert (PRESETS["easy"].width, PRESETS["easy"].height, PRESETS["easy"].depth,
            PRESETS["easy"].mines) == (5, 5, 5, 10)
    assert (PRESETS["normal"].width, PRESETS["normal"].depth, PRESETS["normal"].mines) == (7, 7, 33)
    assert (PRESETS["hard"].width, PRESETS["hard"].depth, PRESETS["hard"].mines) == (10, 10, 99)


def test_sides_from_1_to_32_and_custom_sizes():
    assert Level(32, 1, 32, 5).cells == 1024
    assert Level.parse("9x9-10") == Level(9, 9, 1, 10)
    assert Level.parse("4x5x6-7") == Level(4, 5, 6, 7)
    for bad in [(0, 5, 5, 1), (33, 5, 5, 1), (5, 5, 5, -1), (5, 5, 5, 5 * 5 * 5 - 26)]:
        with pytest.raises(ConfigError):
            Level(*bad)
    with pytest.raises(ConfigError, match="unknown level"):
        Level.parse("enormous")


def test_cells_are_xyz_and_arrays_are_zyx():
    game = Game("4x3x2-1", seed=0)
    game.flag((3, 0, 1))
    obs = game.observe()
    assert obs.state.shape == (2, 3, 4)
    assert obs.state[1, 0, 3] == K.FLAGGED
    assert obs.cell_of(obs.cell_index((3, 2, 1))) == (3, 2, 1)


# ------------------------------------------------------------------ numbers

@settings(max_examples=60, deadline=None)
@given(st.integers(1, 5), st.integers(1, 5), st.integers(1, 5), st.data())
def test_numbers_count_mines_among_26_neighbours(w, h, d, data):
    n = w * h * d
    mine = np.array(data.draw(st.lists(st.integers(0, 1), min_size=n, max_size=n)), np.uint8)
    nb26 = K.board_tables(w, h, d)[0]
    out = np.empty(n, np.int8)
    K.compute_numbers(mine, nb26, out)
    mines = {c for c, m in zip(naive.cells(w, h, d), mine) if m}
    assert out.tolist() == naive.numbers(mines, w, h, d)


# ------------------------------------------------------------------ selectability

@settings(max_examples=80, deadline=None)
@given(st.integers(1, 5), st.integers(1, 5), st.integers(1, 5), st.data())
def test_selectable_mask_matches_naive(w, h, d, data):
    n = w * h * d
    state = np.array(data.draw(st.lists(st.sampled_from([0, 0, 0, 1, 2]), min_size=n,
                                        max_size=n)), np.uint8)
    _, nb6, boundary = K.board_tables(w, h, d)
    out = np.empty(n, np.uint8)
    K.selectable_mask(state, boundary, nb6, out)
    assert out.astype(bool).tolist() == naive.selectable(state.tolist(), w, h, d)


def test_only_surface_cells_may_be_chosen():
    game = Game("5x5x5-10", seed=1)
    with pytest.raises(InvalidMoveError, match="not selectable"):
        game.open((2, 2, 2))
    with pytest.raises(InvalidMoveError, match="not selectable"):
        game.flag((1, 1, 1))
    assert game.status == "ready"
    sel = game.observe().selectable
    assert sel[0, 2, 2] and sel[2, 2, 0] and not sel[2, 2, 2]


def test_face_neighbour_open_or_flagged_gives_access():
    game = Game("5x5x5-10", seed=1)
    game.flag((2, 2, 0))
    assert game.observe().selectable[1, 2, 2]       # behind the flag
    assert not game.observe().selectable[1, 2, 3]   # not behind it


def test_diagonal_contact_never_gives_access():
    game = Game("7x7x7-1", seed=2)
    game.flag((3, 3, 0))
    sel = game.observe().selectable
    assert sel[1, 3, 3]                  # face neighbour of the flag
    assert not sel[1, 3, 4] and not sel[1, 4, 4]   # diagonal only


def test_flagged_cell_is_always_selectable():
    game = Game("5x5x5-10", seed=1)
    game.flag((2, 2, 0))
    game.flag((2, 2, 1))                 # reached through the first flag
    game.flag((2, 2, 0))                 # remove the first flag: (2, 2, 1) stays selectable
    assert game.observe().selectable[1, 2, 2]
    assert game.flag((2, 2, 1)) is False  # and can be unflagged


def test_removing_a_flag_hides_cells_behind_it_again():
    game = Game("5x5x5-10", seed=1)
    game.flag((2, 2, 0))
    assert game.observe().selectable[1, 2, 2]
    game.flag((2, 2, 0))
    assert not game.observe().selectable[1, 2, 2]
    with pytest.raises(InvalidMoveError):
        game.open((2, 2, 1))


def test_removing_a_flag_keeps_cells_reached_another_way():
    game = Game("5x5x5-10", seed=1)
    game.flag((2, 2, 0))
    game.flag((2, 1, 0))
    game.flag((2, 1, 1))                 # another route to (2, 2, 1): its face neighbour
    game.flag((2, 2, 0))
    assert game.observe().selectable[1, 2, 2]


# ------------------------------------------------------------------ placement and opening

@pytest.mark.parametrize("seed", range(40))
def test_mines_never_on_first_cell_or_its_neighbours_first_number_zero(seed):
    rng = np.random.default_rng(seed)
    w, h, d = (int(v) for v in rng.integers(3, 8, size=3))
    reserved = 27
    mines = int(rng.integers(0, w * h * d - reserved + 1))
    game = Game(Level(w, h, d, mines), seed=seed)
    boundary = [c for c in naive.cells(w, h, d) if naive.on_boundary(c, w, h, d)]
    start = boundary[int(rng.integers(len(boundary)))]
    game.open(start)
    placed = _mines(game)
    assert len(placed) == mines
    assert start not in placed and not placed & set(naive.neighbours(start, w, h, d))
    assert int(game.observe().numbers[start[2], start[1], start[0]]) == 0


@pytest.mark.parametrize("seed", range(30))
def test_zero_opens_its_26_neighbours_recursively(seed):
    rng = np.random.default_rng(100 + seed)
    w, h, d = (int(v) for v in rng.integers(2, 7, size=3))
    mines = int(rng.integers(0, max(1, w * h * d // 5)))
    mines = min(mines, w * h * d - min(w, 3) * min(h, 3) * min(d, 3))
    game = Game(Level(w, h, d, mines), seed=seed)
    game.open((0, 0, 0))
    placed = _mines(game)
    state = [0] * (w * h * d)
    assert _open_cells(game) == naive.cascade((0, 0, 0), state, placed, w, h, d)
    # a second click on a safe selectable cell cascades the same way from the new state
    safe = _safe_selectable(game)
    if safe and game.status == "playing":
        before = game.observe().state.reshape(-1).tolist()
        cell = safe[int(rng.integers(len(safe)))]
        game.open(cell)
        expected = naive.cascade(cell, before, placed, w, h, d) | {
            naive.cells(w, h, d)[i] for i, s in enumerate(before) if s == K.OPEN}
        assert _open_cells(game) == expected


def test_cascade_does_not_open_flags():
    game = Game("6x6x1-1", seed=4)
    game.flag((5, 5, 0))
    game.open((0, 0, 0))
    assert game.observe().state[0, 5, 5] == K.FLAGGED


def test_chord_opens_other_closed_neighbours_when_flags_equal_number():
    for seed in range(200):
        game = Game("6x6x3-20", seed=seed)
        game.open((0, 0, 0))
        mines = _mines(game)
        obs = game.observe()
        for i in np.flatnonzero(obs.numbers.reshape(-1) > 0):
            c = obs.cell_of(i)
            nbs = naive.neighbours(c, 6, 6, 3)
            closed = [nb for nb in nbs if obs.state[nb[2], nb[1], nb[0]] == K.CLOSED]
            if all(obs.selectable[nb[2], nb[1], nb[0]] for nb in closed) \
                    and any(nb not in mines for nb in closed):
                for nb in closed:
                    if nb in mines:
                        game.flag(nb)
                game.chord(c)
                after = game.observe()
                assert all(after.state[nb[2], nb[1], nb[0]] == K.OPEN
                           for nb in closed if nb not in mines)
                assert game.status in ("playing", "won")
                return
    pytest.fail("no chord position found")


def test_chord_opens_only_selectable_cells():
    # the reproduction: (8, 8, 1) is not selectable, so the chord must not open it
    game = Game("hard", 0)
    game.open((5, 5, 0))
    game.flag((8, 6, 0))
    game.flag((7, 8, 0))
    with pytest.raises(InvalidMoveError, match="not selectable"):
        game.open((8, 8, 1))
    assert game.chord((7, 7, 0)) > 0 and game.status == "playing"
    assert game.observe().state[1, 8, 8] == K.CLOSED
    # and in general: a chord opens the cascades of the neighbours selectable before it
    checked = 0
    for seed in range(60):
        game = Game("6x6x4-30", seed=seed)
        game.open((2, 2, 0))
        mines = _mines(game)
        obs = game.observe()
        for i in np.flatnonzero(obs.numbers.reshape(-1) > 0):
            c = obs.cell_of(i)
            nbs = naive.neighbours(c, 6, 6, 4)
            wanted = [nb for nb in nbs if nb in mines]
            if not all(obs.selectable[z, y, x] or obs.state[z, y, x] == K.FLAGGED
                       for x, y, z in wanted):
                continue
            for nb in wanted:
                if obs.state[nb[2], nb[1], nb[0]] != K.FLAGGED:
                    game.flag(nb)
            before = game.observe()
            flat = before.state.reshape(-1).tolist()
            expected = set(_open_cells(game))
            for x, y, z in nbs:
                if before.state[z, y, x] == K.CLOSED and before.selectable[z, y, x]:
                    expected |= naive.cascade((x, y, z), flat, mines, 6, 6, 4)
            game.chord(c)
            assert _open_cells(game) == expected
            checked += 1
            break
    assert checked > 20


def test_chord_with_wrong_flag_count_is_illegal_and_changes_nothing():
    game = Game("9x9x1-10", seed=3)
    game.open((4, 4, 0))
    obs = game.observe()
    i = int(np.flatnonzero(obs.numbers.reshape(-1) > 0)[0])
    before = obs.state.copy()
    with pytest.raises(InvalidMoveError, match="flagged neighbours"):
        game.chord(obs.cell_of(i))
    with pytest.raises(InvalidMoveError, match="not open"):
        game.chord((0, 0, 0) if obs.state[0, 0, 0] != K.OPEN else (8, 8, 0))
    assert (game.observe().state == before).all()


def test_chord_on_a_wrong_flag_loses():
    for seed in range(200):
        game = Game("9x9x1-10", seed=seed)
        game.open((4, 4, 0))
        mines = _mines(game)
        obs = game.observe()
        for i in np.flatnonzero(obs.numbers.reshape(-1) == 1):
            c = obs.cell_of(i)
            closed = [nb for nb in naive.neighbours(c, 9, 9, 1)
                      if obs.state[0, nb[1], nb[0]] == K.CLOSED]
            wrong = [nb for nb in closed if nb not in mines]
            if wrong:
                game.flag(wrong[0])
                game.chord(c)
                assert game.status == "lost"
                return
    pytest.fail("no position found")


# ------------------------------------------------------------------ reproducibility

def test_same_seed_level_start_rebuild_the_same_minefield_in_any_process():
    game = Game("hard", seed=12345)
    game.open((3, 4, 0))
    mine_here = np.flatnonzero(game._mine).tolist()
    code = ("from levelforge.mines import Game;import numpy as np;"
            "g=Game('hard',seed=12345);g.flag((9,9,0));g.open((3,4,0));"
            "print(np.flatnonzero(g._mine).tolist())")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == str(mine_here)


def test_minefield_depends_on_seed_and_start_cell():
    a, b, c = Game("normal", seed=1), Game("normal", seed=2), Game("normal", seed=1)
    a.open((0, 0, 0))
    b.open((0, 0, 0))
    c.open((6, 6, 0))
    assert _mines(a) != _mines(b) and _mines(a) != _mines(c)


def test_share_code_is_query_style_and_restarts_the_same_problem():
    game = Game("normal", seed=77)
    with pytest.raises(InvalidMoveError, match="first"):
        game.share_code()
    game.open((1, 2, 0))
    code = game.share_code()
    assert code == "seed=77&level=normal&start=1,2,0"
    game.flag(_safe_selectable(game)[0])
    again = Game.from_share_code(code)
    assert _mines(again) == _mines(game)
    assert again.flags == 0 and _open_cells(again) == naive.cascade(
        (1, 2, 0), [0] * 343, _mines(game), 7, 7, 7)
    custom = Game("9x9x1-10", seed=5)
    custom.open((4, 4, 0))
    assert Game.from_share_code(custom.share_code()).level == Level(9, 9, 1, 10)


@pytest.mark.parametrize("code", ["seed=1&level=hard", "seed=x&level=hard&start=0,0,0",
                                  "seed=1&level=hard&start=0,0", "seed=1&level=zz&start=0,0,0",
                                  "seed=1&level=hard&start=5,5,5"])
def test_bad_share_code_is_rejected(code):
    with pytest.raises(ConfigError):
        Game.from_share_code(code)


# ------------------------------------------------------------------ end of game

def test_win_when_every_safe_cell_is_open():
    game = Game("6x6x1-3", seed=9)
    game.open((0, 0, 0))
    while game.status == "playing":
        game.open(_safe_selectable(game)[0])
    assert game.status == "won"
    assert game.observe().status == "won"


def test_lose_on_opening_a_mine():
    game = Game("normal", seed=9)
    game.open((3, 3, 0))
    obs = game.observe()
    mine = next(c for c in _mines(game) if obs.selectable[c[2], c[1], c[0]])
    assert game.open(mine) == 0
    assert game.status == "lost" and game.exploded == mine
    assert game.minefield()[mine[2], mine[1], mine[0]]


def test_illegal_actions_raise_and_change_nothing():
    game = Game("normal", seed=9)
    with pytest.raises(InvalidMoveError):
        game.minefield()
    game.open((3, 3, 0))
    obs = game.observe()
    hidden = obs.cell_of(np.flatnonzero((obs.state.reshape(-1) == K.CLOSED)
                                        & ~obs.selectable.reshape(-1))[0])
    snap = (obs.state.copy(), game.flags, game.status)
    for action, cell, pattern in [
        (game.open, (7, 0, 0), "outside"), (game.open, (0, 0), "tuple"),
        (game.flag, (-1, 0, 0), "outside"), (game.open, (3, 3, 0), "already open"),
        (game.open, hidden, "not selectable"), (game.flag, (3, 3, 0), "open"),
    ]:
        with pytest.raises(InvalidMoveError, match=pattern):
            action(cell)
    flagged = _safe_selectable(game)[0]
    game.flag(flagged)
    with pytest.raises(InvalidMoveError, match="flagged"):
        game.open(flagged)
    game.flag(flagged)
    after = game.observe()
    assert (after.state == snap[0]).all() and game.flags == snap[1] and game.status == snap[2]
    mine = next(c for c in _mines(game) if after.selectable[c[2], c[1], c[0]])
    game.open(mine)
    end = game.observe().state.copy()
    for action in (game.open, game.flag, game.chord):
        with pytest.raises(InvalidMoveError, match="over"):
            action((3, 3, 0))
    assert (game.observe().state == end).all()


# ------------------------------------------------------------------ public observation

def test_observation_holds_no_minefield():
    game = Game("easy", seed=21)
    game.open((2, 2, 0))
    obs = game.observe()
    fields = set(vars(obs))
    assert fields == {"width", "height", "depth", "mines", "state", "numbers", "selectable",
                      "remaining_mines", "status"}
    for name in ("state", "numbers", "selectable"):
        a = getattr(obs, name)
        assert a.base is None or a.base is not game._mine
        assert not np.shares_memory(a, game._mine) and not np.shares_memory(a, game._numbers)
        assert not a.flags.writeable
    # numbers only where cells are open
    assert (obs.numbers[obs.state != K.OPEN] == -1).all()
    # the pickle does not change when only the hidden minefield differs
    twin = Game("easy", seed=21)
    twin.open((2, 2, 0))
    twin._mine[:] = 0                  # same public state, no mines at all behind it
    assert pickle.dumps(obs) == pickle.dumps(twin.observe())
    back = pickle.loads(pickle.dumps(obs))
    assert isinstance(back, PublicObservation) and set(vars(back)) == fields


def test_observation_remaining_mines_is_mines_minus_flags():
    game = Game("easy", seed=21)
    game.flag((0, 0, 0))
    game.flag((1, 0, 0))
    obs = game.observe()
    assert obs.remaining_mines == 8 and obs.status == "ready"
    assert obs.selectable[0, 0, 0]


def test_hand_made_observation_is_validated():
    good = Game("4x3x2-1", seed=0).observe()
    fields = {k: getattr(good, k) for k in vars(good)}
    PublicObservation(**fields)
    for change, pattern in [
        ({"width": 0}, "width"), ({"status": "paused"}, "status"),
        ({"state": np.zeros((2, 4, 3), np.uint8)}, "shape"),
        ({"state": np.full((2, 3, 4), 3, np.uint8)}, "state at cell"),
        ({"numbers": np.zeros((2, 3, 4), np.int8)}, "number at cell"),
        ({"remaining_mines": 1.5}, "remaining_mines"),
    ]:
        with pytest.raises(ConfigError, match=pattern):
            PublicObservation(**{**fields, **change})
    mutable = np.zeros((2, 3, 4), np.uint8)
    obs = PublicObservation(**{**fields, "state": mutable})
    mutable[0, 0, 0] = K.OPEN           # the caller's array is copied, not referenced
    assert obs.state[0, 0, 0] == K.CLOSED and not obs.state.flags.writeable
