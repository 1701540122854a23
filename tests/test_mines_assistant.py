"""The logic assistant against brute-force references, its caps, exact mode, autoplay."""
import numpy as np
import pytest

from levelforge import ConfigError
from levelforge.engine import mines as K
from levelforge.mines import Assistant, Game, Level, Move, autoplay

import naive_mines as naive
from mines_positions import random_position, trajectory


def _positions(rng):
    """200 random small positions and 40 normal games after their first open."""
    games = [random_position(rng) for _ in range(200)]
    for seed in range(40):
        games.append(Game("normal", seed=seed))
        games[-1].open((3, 3, 0))
    return games


def _flat(obs, cells):
    return {obs.cell_index(c) for c in cells}


def _reference(obs):
    return naive.certain_cells(obs.state.reshape(-1).tolist(), obs.numbers.reshape(-1).tolist(),
                               obs.remaining_mines, obs.width, obs.height, obs.depth)


def test_assistant_matches_bruteforce_reference_on_random_positions():
    rng = np.random.default_rng(2024)
    assistants = [Assistant(), Assistant(complete=True)]
    compared = 0
    found = 0
    for _ in range(4000):
        game = random_position(rng, wrong_flags=0.1)
        if game.status != "playing":
            continue
        obs = game.observe()
        ref = _reference(obs)
        if ref == "skip":
            continue
        for assistant in assistants:
            got = assistant.analyze(obs)
            assert got.skipped == 0
            if ref is None:
                assert got.status == "contradiction"
                continue
            assert got.status != "contradiction"
            assert _flat(obs, got.safe) == ref[0]
            assert _flat(obs, got.mines) == ref[1]
        compared += ref is not None
        found += 0 if ref is None else len(ref[0]) + len(ref[1])
    assert compared > 2500 and found > 2000


def test_assistant_never_wrong_about_the_real_minefield():
    rng = np.random.default_rng(7)
    assistant = Assistant(max_component_cells=4, max_nodes=30)
    for _ in range(1000):
        game = random_position(rng)
        if game.status != "playing":
            continue
        got = assistant.analyze(game.observe())
        assert got.status != "contradiction"     # correct flags only
        obs = game.observe()
        assert not any(game._mine[obs.cell_index(c)] for c in got.safe)
        assert all(game._mine[obs.cell_index(c)] for c in got.mines)


def test_components_over_a_cap_are_skipped_and_counted_never_guessed():
    rng = np.random.default_rng(11)
    skipped_seen = 0
    for _ in range(800):
        game = random_position(rng)
        if game.status != "playing":
            continue
        obs = game.observe()
        ref = _reference(obs)
        if ref in (None, "skip"):
            continue
        full = Assistant().analyze(obs)
        for capped in (Assistant(max_component_cells=2), Assistant(max_nodes=3)):
            got = capped.analyze(obs)
            assert _flat(obs, got.safe) <= ref[0] and _flat(obs, got.mines) <= ref[1]
            if got.skipped:
                skipped_seen += 1
                assert got.status in ("moves", "stuck")
                assert got.components >= got.skipped
        assert full.skipped == 0
    assert skipped_seen > 50


def test_moves_are_proved_cells_that_are_selectable_opens_first():
    rng = np.random.default_rng(5)
    checked = 0
    games = _positions(rng)
    for game in games:
        if game.status != "playing":
            continue
        obs = game.observe()
        got = Assistant().analyze(obs)
        expected = [Move("open", c) for c in got.safe if obs.selectable[c[2], c[1], c[0]]] + \
                   [Move("flag", c) for c in got.mines if obs.selectable[c[2], c[1], c[0]]]
        assert list(got.moves) == expected
        assert got.status == ("moves" if expected else "stuck")
        checked += bool(len(got.safe) + len(got.mines) > len(got.moves))
    assert checked > 0       # some proved cells were not selectable yet


def test_wrong_flag_gives_contradiction():
    game = Game("9x9x1-10", seed=3)
    game.open((4, 4, 0))
    obs = game.observe()
    i = int(np.flatnonzero(obs.numbers.reshape(-1) == 1)[0])
    cx, cy, _ = obs.cell_of(i)
    closed = [(x, y, 0) for x in range(cx - 1, cx + 2) for y in range(cy - 1, cy + 2)
              if 0 <= x < 9 and 0 <= y < 9 and obs.state[0, y, x] == K.CLOSED]
    for c in closed:           # flag every closed neighbour of a 1
        game.flag(c)
    assert len(closed) >= 2
    assert Assistant().analyze(game.observe()).status == "contradiction"


def test_too_many_flags_is_a_contradiction():
    game = Game("4x4x1-1", seed=0)
    game.flag((0, 0, 0))
    game.flag((3, 3, 0))
    assert Assistant().analyze(game.observe()).status == "contradiction"


def test_global_count_used_only_when_zero_or_all_remaining():
    game = Game("5x5x1-1", seed=1)
    game.open((0, 0, 0))
    mine = int(np.flatnonzero(game._mine)[0])
    obs = game.observe()
    game.flag(obs.cell_of(mine))
    got = Assistant().analyze(game.observe())      # remaining 0: every closed cell is safe
    closed = np.flatnonzero(game.observe().state.reshape(-1) == K.CLOSED)
    assert _flat(obs, got.safe) == set(closed.tolist())
    # with remaining > 0 and no numbers, nothing is certain (no probabilities in this mode)
    fresh = Game("5x5x1-3", seed=1).observe()
    got = Assistant().analyze(fresh)
    assert got.status == "stuck" and got.safe == () and got.probabilities is None
    full = Game(Level(3, 3, 2, 0), seed=0)
    full.flag((0, 0, 0))
    assert Assistant().analyze(full.observe()).status == "contradiction"


def test_analyze_rejects_non_observation_and_bad_caps():
    with pytest.raises(ConfigError):
        Assistant().analyze(Game("easy"))
    with pytest.raises(ConfigError):
        Assistant(max_component_cells=0)
    with pytest.raises(ConfigError):
        Assistant(max_nodes=True)
    with pytest.raises(ConfigError):
        Assistant(complete="yes")


# ------------------------------------------------------------------ complete mode

def _over_the_caps(per_level=3):
    """Positions of guessing games where the design's caps skip a component."""
    found = []
    complete, capped = Assistant(complete=True), Assistant()
    for level, seeds in (("hard", range(3)), ("30x16x1-99", range(8)), ("normal", range(4))):
        mine = []
        for seed in seeds:
            for obs in trajectory(level, seed, complete):
                if len(mine) < per_level and (capped.analyze(obs).skipped
                                              or capped.analyze(obs, exact=True).skipped):
                    mine.append(obs)
        found += mine
    return found


def test_default_assistant_keeps_the_design_caps():
    assert Assistant().to_dict() == {"max_component_cells": 22, "max_nodes": 200_000,
                                     "complete": False}
    assert Assistant(complete=True, max_nodes=50).to_dict()["max_nodes"] == 50


def test_complete_assistant_finds_every_cell_the_oracle_finds():
    positions = _over_the_caps()
    assert len(positions) >= 8
    complete, capped = Assistant(complete=True), Assistant()
    more = 0
    for obs in positions:
        flat = (obs.state.reshape(-1).tolist(), obs.numbers.reshape(-1).tolist())
        for exact in (False, True):
            ref = naive.certain_cells_sat(*flat, obs.remaining_mines, obs.width, obs.height,
                                          obs.depth, use_count=exact)
            got = complete.analyze(obs, exact=exact)
            assert got.skipped == 0 and got.status != "contradiction"
            assert (_flat(obs, got.safe), _flat(obs, got.mines)) == ref
            low = capped.analyze(obs, exact=exact)
            assert _flat(obs, low.safe) <= ref[0] and _flat(obs, low.mines) <= ref[1]
            more += len(got.safe) + len(got.mines) > len(low.safe) + len(low.mines)
            if exact:
                p = got.probabilities
                closed = obs.state == K.CLOSED
                assert np.isfinite(p[closed]).all()
                assert np.sum(p[closed]) == pytest.approx(obs.remaining_mines)
    assert more >= 3            # past the caps, more cells are proved


def test_complete_assistant_reports_a_component_over_its_budget():
    obs = _tube([2, 0, 3, 1, 5])
    tight = Assistant(complete=True, max_nodes=5).analyze(obs, exact=True)
    assert tight.skipped == 1 and np.isnan(tight.probabilities).all()
    assert tight.status == "stuck"          # never guessed
    assert Assistant(complete=True).analyze(obs, exact=True).skipped == 0


def test_issue_position_past_the_caps_is_solved_by_the_complete_assistant():
    game = Game("30x16x1-99", 10)
    assert autoplay(game, exact=True).status == "stuck"
    assert Assistant().analyze(game.observe(), exact=True).skipped == 1
    got = Assistant(complete=True).analyze(game.observe(), exact=True)
    assert got.skipped == 0 and (11, 8, 0) in got.safe


# ------------------------------------------------------------------ exact mode

def test_exact_probabilities_match_minefield_enumeration():
    rng = np.random.default_rng(99)
    assistant = Assistant()
    compared = 0
    for _ in range(1500):
        game = random_position(rng, wrong_flags=0.05)
        if game.status != "playing":
            continue
        obs = game.observe()
        ref = naive.exact_probabilities(obs.state.reshape(-1).tolist(),
                                        obs.numbers.reshape(-1).tolist(), obs.remaining_mines,
                                        obs.width, obs.height, obs.depth)
        if ref == "skip":
            continue
        got = assistant.analyze(obs, exact=True)
        if ref is None:
            assert got.status == "contradiction"
            continue
        assert got.status != "contradiction" and got.skipped == 0
        p = got.probabilities.reshape(-1)
        for c, q in ref.items():
            assert p[c] == pytest.approx(q, abs=1e-9)
        assert _flat(obs, got.safe) == {c for c, q in ref.items() if q == 0}
        assert _flat(obs, got.mines) == {c for c, q in ref.items() if q == 1}
        assert np.isnan(p[obs.state.reshape(-1) != K.CLOSED]).all()
        compared += 1
    assert compared > 700


def test_exact_mode_is_at_least_as_strong_as_the_default():
    rng = np.random.default_rng(3)
    games = _positions(rng)
    for game in games:
        if game.status != "playing":
            continue
        obs = game.observe()
        a = Assistant().analyze(obs)
        b = Assistant().analyze(obs, exact=True)
        assert set(a.safe) <= set(b.safe) and set(a.mines) <= set(b.mines)


def _tube(columns):
    """A 5x3x3 position: the axis (x, 1, 1) is open, every other cell closed.

    Column x (the 8 closed cells around (x, 1, 1)) holds ``columns[x]`` mines; each open
    cell sees the columns x-1, x, x+1. Column cells are interchangeable: one group each.
    """
    from levelforge.mines import PublicObservation
    w = len(columns)
    state = np.zeros((3, 3, w), np.uint8)
    numbers = np.full((3, 3, w), -1, np.int8)
    state[1, 1, :] = K.OPEN
    for x in range(w):
        numbers[1, 1, x] = sum(columns[max(0, x - 1):x + 2])
    sel = np.zeros((3, 3, w), bool)
    sel[state == K.CLOSED] = True
    return PublicObservation(width=w, height=3, depth=3, mines=sum(columns), state=state,
                             numbers=numbers, selectable=sel, remaining_mines=sum(columns),
                             status="playing")


def test_exact_groups_scale_past_the_cell_cap():
    from itertools import product
    from math import comb
    columns = [2, 0, 3, 1, 5]
    obs = _tube(columns)
    plain = Assistant().analyze(obs)
    assert plain.skipped >= 1 and plain.safe == () and plain.status == "stuck"   # > 22 cells
    exact = Assistant().analyze(obs, exact=True)
    assert exact.skipped == 0 and exact.components >= 1
    # reference: weighted enumeration of mines per column
    nums = [sum(columns[max(0, x - 1):x + 2]) for x in range(len(columns))]
    total = 0
    expect = np.zeros(len(columns))
    for ks in product(range(9), repeat=len(columns)):
        if sum(ks) != sum(columns) or any(sum(ks[max(0, x - 1):x + 2]) != nums[x]
                                          for x in range(len(columns))):
            continue
        weight = np.prod([comb(8, k) for k in ks])
        total += weight
        expect += weight * np.array(ks) / 8
    expect /= total
    p = exact.probabilities
    for x in range(len(columns)):
        assert p[0, 0, x] == pytest.approx(expect[x], rel=1e-12)
        assert p[2, 1, x] == pytest.approx(expect[x], rel=1e-12)
    assert np.isnan(p[1, 1, :]).all()


def test_exact_probabilities_sum_to_remaining_mines():
    rng = np.random.default_rng(17)
    for _ in range(200):
        game = random_position(rng)
        if game.status != "playing":
            continue
        obs = game.observe()
        got = Assistant().analyze(obs, exact=True)
        if got.skipped:
            continue
        closed = obs.state == K.CLOSED
        assert np.sum(got.probabilities[closed]) == pytest.approx(obs.remaining_mines)


# ------------------------------------------------------------------ autoplay

def test_autoplay_1000_games_never_opens_a_mine_and_flags_only_mines():
    assistant = Assistant()
    outcomes = {}
    for seed in range(1000):
        game = Game("6x6x3-12" if seed % 2 else "9x9x1-10", seed=seed)
        result = autoplay(game, assistant)
        assert result.status in ("won", "stuck"), (seed, result)
        assert game.status != "lost"
        flagged = game.observe().state.reshape(-1) == K.FLAGGED
        assert (game._mine[flagged] == 1).all()
        assert result.flags == int(flagged.sum())
        outcomes[result.status] = outcomes.get(result.status, 0) + 1
    assert outcomes.get("won", 0) > 300 and outcomes.get("stuck", 0) > 10


def test_autoplay_guess_best_opens_the_lowest_probability_cell():
    from levelforge.mines import best_guess
    guessed = won = lost = 0
    for seed in range(40):
        game = Game("16x16x1-40", seed=seed)
        game.open((8, 8, 0))
        while game.status == "playing":
            obs = game.observe()
            a = Assistant(complete=True).analyze(obs, exact=True)
            if a.moves:
                for move in a.moves:
                    x, y, z = move.cell
                    if game.status == "playing" and game.observe().state[z, y, x] == K.CLOSED:
                        (game.open if move.action == "open" else game.flag)(move.cell)
                continue
            cell = best_guess(obs, a.probabilities)
            p = a.probabilities[obs.selectable & (obs.state == K.CLOSED)]
            assert a.probabilities[cell[2], cell[1], cell[0]] == pytest.approx(p.min())
            guessed += 1
            game.open(cell)
        won += game.status == "won"
        lost += game.status == "lost"
        again = autoplay(Game("16x16x1-40", seed=seed), Assistant(complete=True),
                         start=(8, 8, 0), exact=True, guess="safest")
        assert again.status == game.status          # the same choices, the same end
        assert again.guesses >= 1 or again.status == "won"
    assert guessed > 10 and won > 20 and lost > 0
    with pytest.raises(ConfigError, match="guess"):
        autoplay(Game("easy"), guess="random")


def test_autoplay_reports_what_happened():
    game = Game("hard", seed=1)
    result = autoplay(game, Assistant(), start=(0, 0, 0))
    assert game.start == (0, 0, 0)
    assert result.decisions >= 1 and result.decision_ms > 0 and result.elapsed_ms > 0
    assert result.status == game.status or result.status == "stuck"
    assert result.opens + 1 <= game.opened
    assert set(result.to_dict()) >= {"status", "opens", "flags", "decisions", "decision_ms"}


def test_best_guess_without_probabilities_uses_single_numbers():
    from levelforge.mines import best_guess
    for seed in range(20):
        game = Game("16x16x1-40", seed=seed)
        game.open((8, 8, 0))
        if game.status != "playing":
            continue
        obs = game.observe()
        cell = best_guess(obs, np.full(obs.shape, np.nan))
        assert best_guess(obs, None) == cell      # None: no probability known
        state, numbers = obs.state[0], obs.numbers[0]

        def estimate(x, y):
            shares = []
            for nx in range(x - 1, x + 2):
                for ny in range(y - 1, y + 2):
                    if 0 <= nx < 16 and 0 <= ny < 16 and state[ny, nx] == K.OPEN:
                        around = [(i, j) for i in range(nx - 1, nx + 2)
                                  for j in range(ny - 1, ny + 2)
                                  if 0 <= i < 16 and 0 <= j < 16 and (i, j) != (nx, ny)]
                        closed = [c for c in around if state[c[1], c[0]] == K.CLOSED]
                        flags = [c for c in around if state[c[1], c[0]] == K.FLAGGED]
                        if closed:
                            shares.append((numbers[ny, nx] - len(flags)) / len(closed))
            return max(shares) if shares else obs.remaining_mines / (state == K.CLOSED).sum()

        best = min(estimate(x, y) for y in range(16) for x in range(16)
                   if state[y, x] == K.CLOSED)
        assert state[cell[1], cell[0]] == K.CLOSED
        assert estimate(cell[0], cell[1]) == pytest.approx(best)
