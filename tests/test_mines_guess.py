"""Guessing: legal guesses, exact counts and endgame values against brute force, and a guess
that never depends on the hidden minefield."""
import math
from functools import lru_cache
from itertools import combinations

import numpy as np
import pytest

from levelforge import ConfigError
from levelforge.engine import mines as K
from levelforge.engine import mines_enum as E
from levelforge.mines import (Assistant, Game, GuessPolicy, Level, autoplay, endgame_move,
                              guess_policy, win_probability)

import naive_mines as naive
from mines_positions import random_position


# ------------------------------------------------------------------ brute-force references

def placements(obs):
    """Every placement of the remaining mines on the closed unflagged cells that the open
    numbers allow, as frozensets of flat cells (plain Python, no kernel)."""
    w, h, d = obs.width, obs.height, obs.depth
    state = obs.state.reshape(-1).tolist()
    nums = obs.numbers.reshape(-1).tolist()
    closed = [i for i, s in enumerate(state) if s == naive.CLOSED]
    rows = []
    for c in naive.cells(w, h, d):
        i = naive.flat(c, w, h)
        if state[i] == naive.OPEN:
            around = [naive.flat(nb, w, h) for nb in naive.neighbours(c, w, h, d)]
            rows.append(([j for j in around if state[j] == naive.CLOSED],
                         nums[i] - sum(state[j] == naive.FLAGGED for j in around)))
    out = []
    if 0 <= obs.remaining_mines <= len(closed):
        for pick in combinations(closed, obs.remaining_mines):
            mines = set(pick)
            if all(sum(j in mines for j in cs) == need for cs, need in rows):
                out.append(frozenset(mines))
    return out


def reference_values(obs):
    """The exact win probability of every first open (a selectable closed cell) and of the
    best play, by trying every sequence of opens over every placement. Certain mines that
    can be reached are flagged (a flag is free and, in 3-D, exposes the cells below)."""
    w, h, d = obs.width, obs.height, obs.depth
    state0 = obs.state.reshape(-1).tolist()
    sols = placements(obs)
    closed = frozenset(i for i, s in enumerate(state0) if s == naive.CLOSED)
    cell = naive.cells(w, h, d)
    nums = [naive.numbers({cell[i] for i in s}, w, h, d) for s in sols]

    def reachable(opened, flagged):
        st = list(state0)
        for i in opened:
            st[i] = naive.OPEN
        for i in flagged:
            st[i] = naive.FLAGGED
        sel = naive.selectable(st, w, h, d)
        return st, {i for i in closed - opened - flagged if sel[i]}

    @lru_cache(maxsize=None)
    def value(idx, opened, first=None):
        if all(closed - sols[s] <= opened for s in idx):
            return 1.0
        certain = frozenset.intersection(*(sols[s] for s in idx))
        flagged = frozenset()
        while True:
            _, reach = reachable(opened, flagged)
            more = (certain & reach) - flagged
            if not more:
                break
            flagged |= more
        st, reach = reachable(opened, flagged)
        tries = [first] if first is not None else sorted(reach)
        best = 0.0
        for c in tries:
            parts = {}
            for s in idx:
                if c in sols[s]:
                    continue
                got = naive.cascade(cell[c], st, {cell[i] for i in sols[s]}, w, h, d)
                shown = tuple(sorted((naive.flat(g, w, h), nums[s][naive.flat(g, w, h)])
                                     for g in got))
                parts.setdefault(shown, []).append(s)
            v = sum(len(p) / len(idx) * value(tuple(p), opened | {i for i, _ in k})
                    for k, p in parts.items())
            best = max(best, v)
        return best

    root = tuple(range(len(sols)))
    sel = obs.selectable.reshape(-1)
    firsts = {c: value(root, frozenset(), c) for c in sorted(closed) if sel[c]}
    return value(root, frozenset()), firsts


def stuck_positions(level, seeds, max_closed):
    """Positions where the complete exact assistant has no certain move, reached by its
    certain moves and (cheating) safe opens, with at most ``max_closed`` closed cells."""
    assistant = Assistant(complete=True)
    for seed in seeds:
        game = Game(level, seed=seed)
        lv = game.level
        game.open((0, 0, 0))
        while game.status == "playing":
            obs = game.observe()
            a = assistant.analyze(obs, exact=True)
            if a.moves:
                for m in a.moves:
                    x, y, z = m.cell
                    if game.status == "playing" and game.observe().state[z, y, x] == K.CLOSED:
                        (game.open if m.action == "open" else game.flag)(m.cell)
                continue
            if (obs.state == K.CLOSED).sum() <= max_closed:
                yield obs
                break
            # open a safe selectable cell (this uses the minefield: only to reach positions)
            safe = np.flatnonzero((game._mine == 0) & obs.selectable.reshape(-1)
                                  & (obs.state.reshape(-1) == K.CLOSED))
            game.open(obs.cell_of(int(safe[seed % safe.size])))
        del lv


# ------------------------------------------------------------------ tests

def test_log_count_matches_enumerated_placements():
    rng = np.random.default_rng(5)
    assistant = Assistant(complete=True)
    compared = 0
    for _ in range(400):
        game = random_position(rng)
        if game.status != "playing":
            continue
        obs = game.observe()
        if math.comb(int((obs.state == K.CLOSED).sum()), max(obs.remaining_mines, 0)) > 20000:
            continue
        ref = placements(obs)
        got = assistant.analyze(obs, exact=True)
        if not ref:
            assert got.status == "contradiction" and math.isnan(got.log_count)
            continue
        assert got.log_count == pytest.approx(math.log(len(ref)), abs=1e-9)
        compared += 1
    assert compared > 150
    assert math.isnan(assistant.analyze(obs).log_count)      # plain mode counts nothing


def test_lookahead_shares_of_every_number_add_up_to_the_safety():
    """P(safe and shows v), a ratio of counts, summed over v is 1 - P(mine)."""
    assistant = Assistant(complete=True)
    checked = 0
    for seed in range(12):
        for obs in stuck_positions("16x16x1-40", [seed], 256):
            a = assistant.analyze(obs, exact=True)
            n = obs.width * obs.height
            p = a.probabilities.reshape(n)
            state = np.array(obs.state.reshape(n))
            numbers = np.array(obs.numbers.reshape(n))
            for c in np.flatnonzero(obs.selectable.reshape(n) & (state == K.CLOSED))[:6]:
                state[c] = K.OPEN
                total = 0.0
                for v in range(9):
                    numbers[c] = v
                    if assistant._run((obs.width, obs.height, 1), state, numbers,
                                      obs.remaining_mines, True) == E.A_OK:
                        log_v = assistant._ws.fw[E.log_count_index(n)]
                        total += math.exp(log_v - a.log_count)
                state[c], numbers[c] = K.CLOSED, -1
                assert total == pytest.approx(1.0 - p[c], abs=1e-9)
                checked += 1
    assert checked > 12


@pytest.mark.parametrize("level", ["5x4x1-5", "4x4x1-4", "6x3x1-5", "4x3x2-4"])
def test_endgame_answers_match_brute_force_over_every_move_sequence(level):
    compared = 0
    for obs in stuck_positions(level, range(60), 8):
        ref, firsts = reference_values(obs)
        assert win_probability(obs) == pytest.approx(ref, abs=1e-12)
        cell = endgame_move(obs)
        assert firsts[obs.cell_index(cell)] == pytest.approx(ref, abs=1e-12)
        compared += 1
    assert compared >= 5


def test_endgame_gives_up_over_its_caps():
    game = Game("30x16x1-99", seed=1)
    game.open((3, 3, 0))
    obs = game.observe()
    assert endgame_move(obs) is None and win_probability(obs) is None


@pytest.mark.parametrize("level", ["8x8x1-13", "16x16x1-40", "easy", "5x5x2-12"])
def test_every_guess_is_a_selectable_closed_unflagged_cell(level):
    assistant = Assistant(complete=True)
    guessed = 0
    for rule in ("best", "lookahead", "endgame", "safest"):
        policy = guess_policy(rule)
        for seed in range(15):
            game = Game(level, seed=seed)
            lv = game.level
            game.open((lv.width // 2, lv.height // 2, 0))
            while game.status == "playing":
                obs = game.observe()
                a = assistant.analyze(obs, exact=True)
                if a.moves:
                    for m in a.moves:
                        x, y, z = m.cell
                        if game.status == "playing" and \
                                game.observe().state[z, y, x] == K.CLOSED:
                            (game.open if m.action == "open" else game.flag)(m.cell)
                    continue
                x, y, z = policy.choose(obs, a)
                assert obs.selectable[z, y, x] and obs.state[z, y, x] == K.CLOSED
                guessed += 1
                game.open((x, y, z))
    assert guessed > 20


def _twin(game):
    """A game with the same observation and another minefield (two mines moved to closed
    cells no open number sees), or None."""
    obs = game.observe()
    n = game.level.cells
    state = obs.state.reshape(n)
    seen = np.zeros(n, bool)
    for c in np.flatnonzero(state == K.OPEN):
        nb = game._nb26[c]
        seen[nb[nb >= 0]] = True
    hidden = (state == K.CLOSED) & ~seen
    mines = np.flatnonzero(hidden & (game._mine == 1))
    free = np.flatnonzero(hidden & (game._mine == 0))
    if mines.size < 2 or free.size < 2:
        return None
    twin = Game(game.level, seed=game.seed)
    twin.open(game.start)
    twin._state[:] = game._state
    twin._mine[:] = game._mine
    twin._mine[mines[:2]] = 0
    twin._mine[free[:2]] = 1
    K.compute_numbers(twin._mine, twin._nb26, twin._numbers)
    twin.flags, twin.opened = game.flags, game.opened
    return twin


def test_the_guess_never_depends_on_the_hidden_minefield():
    assistant = Assistant(complete=True)
    compared = 0
    for seed in range(30):
        game = Game("30x16x1-99", seed=seed)
        game.open((3, 3, 0))
        while game.status == "playing" and compared < 40:
            obs = game.observe()
            a = assistant.analyze(obs, exact=True)
            if a.moves:
                for m in a.moves:
                    x, y, z = m.cell
                    if game.status == "playing" and game.observe().state[z, y, x] == K.CLOSED:
                        (game.open if m.action == "open" else game.flag)(m.cell)
                continue
            twin = _twin(game)
            if twin is not None:
                other = twin.observe()
                assert not np.array_equal(twin._mine, game._mine)
                assert np.array_equal(other.state, obs.state)
                assert np.array_equal(other.numbers, obs.numbers)
                b = assistant.analyze(other, exact=True)
                for rule in ("best", "lookahead", "endgame"):
                    assert guess_policy(rule).choose(other, b) == \
                        guess_policy(rule).choose(obs, a)
                compared += 1
            game.open(guess_policy("best").choose(obs, a))
    assert compared >= 20


def test_autoplay_guess_rules_are_reproducible_and_checked():
    assistant = Assistant(complete=True)
    for rule in ("best", "lookahead", "endgame", "safest"):
        runs = [autoplay(Game("16x16x1-40", seed=s), assistant, exact=True, guess=rule)
                for s in range(8)]
        again = [autoplay(Game("16x16x1-40", seed=s), assistant, exact=True, guess=rule)
                 for s in range(8)]
        assert [r.status for r in runs] == [r.status for r in again]
        assert all(r.status in ("won", "lost") for r in runs)
        assert all(len(r.guess_ms) == r.guesses for r in runs)
    with pytest.raises(ConfigError, match="guess"):
        autoplay(Game("easy"), guess="random")
    with pytest.raises(ConfigError, match="lookahead"):
        GuessPolicy(lookahead=1)
    assert Level.parse("9x9-10").cells == 81
