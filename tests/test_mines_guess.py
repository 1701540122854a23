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
                              fifty_fifty_move, guess_policy, win_probability)

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
    chosen_by = set()
    for rule in ("best", "lookahead", "endgame", "safest", "switches"):
        policy = GuessPolicy(fifty=True, zero=True, deep=True) if rule == "switches" \
            else guess_policy(rule)
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
                chosen_by.add(policy.last)
                game.open((x, y, z))
    assert guessed > 20
    assert {"endgame", "lookahead"} <= chosen_by


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
                switches = GuessPolicy(fifty=True, zero=True, deep=True)
                assert switches.choose(other, b) == switches.choose(obs, a)
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


def shown_values(obs, sols, c):
    """The numbers cell ``c`` (flat) shows over the placements where it is safe."""
    w, h, d = obs.width, obs.height, obs.depth
    state = obs.state.reshape(-1).tolist()
    around = [naive.flat(nb, w, h) for nb in naive.neighbours(obs.cell_of(c), w, h, d)]
    flags = sum(state[j] == naive.FLAGGED for j in around)
    return {flags + sum(j in s for j in around) for s in sols if c not in s}


@pytest.mark.parametrize("level", ["8x8x1-13", "6x6x1-9", "4x4x2-6"])
def test_dead_rule_skips_cells_that_can_show_one_number(level):
    """Against brute force: the ``dead`` rule opens a cell that can show a single number
    only when every look-ahead candidate is such a cell, and then the safest."""
    from levelforge.mines.guess import CANDIDATES, MARGIN, _lookahead_move
    assistant = Assistant(complete=True)
    probe = Assistant(complete=True)
    seen = mixed = 0
    for obs in stuck_positions(level, range(60), 16):
        a = assistant.analyze(obs, exact=True)
        sols = placements(obs)
        n = obs.width * obs.height * obs.depth
        state = obs.state.reshape(-1)
        sel = np.flatnonzero(obs.selectable.reshape(-1) & (state == K.CLOSED))
        p = {c: sum(c in s for s in sols) / len(sols) for c in sel.tolist()}
        low = min(p.values())
        cand = [c for c in p if p[c] <= low + MARGIN]
        if len(cand) > CANDIDATES:
            continue
        dead = {c for c in cand if len(shown_values(obs, sols, c)) <= 1}
        chosen = obs.cell_index(_lookahead_move(obs, a.probabilities, a.log_count, probe, True))
        assert chosen in cand and chosen < n
        if chosen in dead:
            assert dead == set(cand) and p[chosen] == pytest.approx(low, abs=1e-9)
        mixed += bool(dead) and dead != set(cand)
        seen += 1
    assert seen >= 5 and mixed >= 1


def _qualifies(obs, sols, a):
    """Brute force: is flat cell ``a`` safe or one half of an unavoidable 50/50 (a partner
    ``b`` such that no open cell sees one of them only and every placement with ``a`` a
    mine has ``b`` safe and the closed cells next to exactly one of them mines)?"""
    w, h, d = obs.width, obs.height, obs.depth
    state = obs.state.reshape(-1).tolist()
    nbs = [{naive.flat(nb, w, h) for nb in naive.neighbours(obs.cell_of(c), w, h, d)}
           for c in range(w * h * d)]
    with_a = [s for s in sols if a in s]
    if not with_a or len(with_a) == len(sols):
        return False
    for b in range(w * h * d):
        if b == a or state[b] != naive.CLOSED:
            continue
        only = (nbs[a] ^ nbs[b]) - {a, b}
        if any(state[x] == naive.OPEN for x in only):
            continue
        closed = {x for x in only if state[x] == naive.CLOSED}
        if all(b not in s and closed <= s for s in with_a):
            return True
    return False


@pytest.mark.parametrize("level", ["8x8x1-13", "6x6x1-9", "5x5x1-7", "4x4x2-6"])
def test_fifty_fifty_cells_qualify_by_brute_force(level):
    """Every cell the 50/50 rule returns is selectable and qualifies over every placement;
    on these boards the rule finds some."""
    assistant = Assistant(complete=True)
    found = checked = 0
    for obs in stuck_positions(level, range(80), 16):
        a = assistant.analyze(obs, exact=True)
        cell = fifty_fifty_move(obs, a.probabilities)
        checked += 1
        if cell is None:
            continue
        x, y, z = cell
        assert obs.selectable[z, y, x] and obs.state[z, y, x] == K.CLOSED
        assert _qualifies(obs, placements(obs), obs.cell_index(cell))
        assert GuessPolicy(fifty=True).choose(obs, a) in (cell, endgame_move(obs))
        found += 1
    assert checked >= 20 and found >= 2


@pytest.mark.parametrize("level", ["8x8x1-13", "5x5x2-10"])
def test_zero_chance_matches_placements(level):
    """P(safe and shows 0) of every closed cell, from the counts, against the share of
    placements where the cell and its closed neighbours are all safe."""
    from levelforge.mines.guess import zero_chance
    assistant = Assistant(complete=True)
    compared = 0
    for obs in stuck_positions(level, range(40), 18):
        a = assistant.analyze(obs, exact=True)
        sols = placements(obs)
        w, h, d = obs.width, obs.height, obs.depth
        state = obs.state.reshape(-1)
        cells = np.flatnonzero(state == K.CLOSED)
        got = zero_chance(obs, cells, a.log_count, Assistant(complete=True))
        for c, value in zip(cells.tolist(), got.tolist()):
            around = {naive.flat(nb, w, h) for nb in naive.neighbours(obs.cell_of(c), w, h, d)}
            flagged = any(state[j] == K.FLAGGED for j in around)
            want = 0.0 if flagged else sum(not (s & (around | {c})) for s in sols) / len(sols)
            assert value == pytest.approx(want, abs=1e-9)
            compared += 1
    assert compared > 100


def lookahead_reference(obs, sols, c, plies, state=None):
    """Brute force of the look-ahead score of flat cell ``c`` over the placements
    ``sols``: the sum over the numbers ``v`` it can show of P(safe, v) times 1 when some
    selectable cell is then certainly safe (or none is left uncertain), else the best
    safety left (``plies == 1``) or the best one-ply score of any selectable cell of that
    position (``plies == 2``)."""
    w, h, d = obs.width, obs.height, obs.depth
    state = obs.state.reshape(-1).tolist() if state is None else state
    around = [naive.flat(nb, w, h) for nb in naive.neighbours(obs.cell_of(c), w, h, d)]
    flags = sum(state[j] == naive.FLAGGED for j in around)
    parts = {}
    for s in sols:
        if c not in s:
            parts.setdefault(flags + sum(j in s for j in around), []).append(s)
    child = list(state)
    child[c] = naive.OPEN
    sel = naive.selectable(child, w, h, d)
    score = 0.0
    for part in parts.values():
        share = len(part) / len(sols)
        unknown = [i for i, st in enumerate(child) if st == naive.CLOSED and sel[i]
                   and not all(i in s for s in part)]
        if not unknown or any(not any(i in s for s in part) for i in unknown):
            score += share
        elif plies == 1:
            score += share * (1 - min(sum(i in s for s in part) for i in unknown) / len(part))
        else:
            score += share * max(lookahead_reference(obs, part, i, 1, child) for i in
                                 [i for i, st in enumerate(child) if st == naive.CLOSED and sel[i]])
    return score


@pytest.mark.parametrize("level", ["6x6x1-9", "5x5x1-7", "4x4x2-6"])
def test_two_ply_lookahead_scores_match_brute_force(level, monkeypatch):
    """The one- and two-ply look-ahead scores of every selectable cell (every cell of the
    next position a candidate: margin 1, no cap) against brute force over the placements."""
    from levelforge.mines import guess as G
    monkeypatch.setattr(G, "MARGIN", 1.0)
    monkeypatch.setattr(G, "DEEP_CANDIDATES", 10_000)
    assistant = Assistant(complete=True)
    probe = Assistant(complete=True)
    compared = 0
    for obs in stuck_positions(level, range(30), 14):
        a = assistant.analyze(obs, exact=True)
        sols = placements(obs)
        p = a.probabilities.reshape(-1)
        state = obs.state.reshape(-1)
        for c in np.flatnonzero(obs.selectable.reshape(-1) & (state == K.CLOSED)).tolist():
            for plies in (1, 2):
                got = G._best_of(obs, p, np.array([c]), a.log_count, probe, False, plies)[1]
                assert got == pytest.approx(lookahead_reference(obs, sols, c, plies), abs=1e-9)
            compared += 1
    assert compared >= 20
