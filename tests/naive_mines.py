"""Plain-Python references for engine/mines.py and the assistant.

Cells are (x, y, z) tuples here; ``flat(cell, w, h)`` maps them to the C-order index of
``[z, y, x]`` used by the kernels. States: 0 closed, 1 open, 2 flagged.
"""
from collections import deque
from itertools import combinations, product

import numpy as np

CLOSED, OPEN, FLAGGED = 0, 1, 2


def flat(cell, w, h):
    x, y, z = cell
    return (z * h + y) * w + x


def cells(w, h, d):
    """Every cell in flat-index order."""
    return [(x, y, z) for z in range(d) for y in range(h) for x in range(w)]


def neighbours(cell, w, h, d, diagonal=True):
    """Cells differing by at most 1 on each axis (diagonal) or face neighbours."""
    x, y, z = cell
    out = []
    for dx, dy, dz in product((-1, 0, 1), repeat=3):
        steps = abs(dx) + abs(dy) + abs(dz)
        if steps == 0 or (not diagonal and steps != 1):
            continue
        nx, ny, nz = x + dx, y + dy, z + dz
        if 0 <= nx < w and 0 <= ny < h and 0 <= nz < d:
            out.append((nx, ny, nz))
    return out


def numbers(mines, w, h, d):
    """Flat list: mines among the 26 neighbours of each cell (``mines`` a set of cells)."""
    return [sum(nb in mines for nb in neighbours(c, w, h, d)) for c in cells(w, h, d)]


def on_boundary(cell, w, h, d):
    x, y, z = cell
    return x in (0, w - 1) or y in (0, h - 1) or z in (0, d - 1)


def selectable(state, w, h, d):
    """Flat list of bools: flagged, or closed and on the surface / next to open-or-flagged."""
    out = []
    for c in cells(w, h, d):
        s = state[flat(c, w, h)]
        if s == OPEN:
            out.append(False)
        elif s == FLAGGED or on_boundary(c, w, h, d):
            out.append(True)
        else:
            out.append(any(state[flat(nb, w, h)] != CLOSED
                           for nb in neighbours(c, w, h, d, diagonal=False)))
    return out


def cascade(start, state, mines, w, h, d):
    """Set of cells a click on safe closed ``start`` opens (flags block the cascade)."""
    nums = numbers(mines, w, h, d)
    opened = {start}
    todo = deque([start])
    while todo:
        c = todo.popleft()
        if nums[flat(c, w, h)] == 0:
            for nb in neighbours(c, w, h, d):
                if nb not in opened and state[flat(nb, w, h)] == CLOSED:
                    opened.add(nb)
                    todo.append(nb)
    return opened


def _constraints(state, nums, w, h, d):
    """[(list of flat closed cells, mines needed)] per open cell; flags count as mines."""
    out = []
    for c in cells(w, h, d):
        i = flat(c, w, h)
        if state[i] != OPEN:
            continue
        nbs = [flat(nb, w, h) for nb in neighbours(c, w, h, d)]
        closed = [j for j in nbs if state[j] == CLOSED]
        flags = sum(state[j] == FLAGGED for j in nbs)
        out.append((closed, nums[i] - flags))
    return out


def certain_cells(state, nums, remaining, w, h, d, max_frontier=16):
    """Brute force over every assignment of the frontier: ``(safe, mines)`` flat sets.

    Uses the global count only when ``remaining`` is 0 or equals the closed cells.
    Returns None on a contradiction, "skip" when the frontier is larger than
    ``max_frontier``.
    """
    closed = [i for i, s in enumerate(state) if s == CLOSED]
    if remaining < 0 or remaining > len(closed):
        return None
    cons = _constraints(state, nums, w, h, d)
    frontier = sorted({j for cs, _ in cons for j in cs})
    if len(frontier) > max_frontier:
        return "skip"
    pos = {c: k for k, c in enumerate(frontier)}
    f = len(frontier)
    # row i of ``assign`` is the binary expansion of i: every assignment once
    assign = (np.arange(2 ** f, dtype=np.int64)[:, None] >> np.arange(f)) & 1
    ok = np.ones(assign.shape[0], bool)
    for cs, cnt in cons:
        cols = [pos[j] for j in cs]
        ok &= assign[:, cols].sum(axis=1) == cnt
    if remaining == 0:
        ok &= assign.sum(axis=1) == 0
    if remaining == len(closed):
        ok &= assign.sum(axis=1) == f
    good = assign[ok]
    if good.shape[0] == 0:
        return None
    safe = {frontier[k] for k in range(f) if not good[:, k].any()}
    mines = {frontier[k] for k in range(f) if good[:, k].all()}
    rest = set(closed) - set(frontier)
    if remaining == 0:
        safe |= rest
    elif remaining == len(closed):
        mines |= rest
    return safe, mines


def exact_probabilities(state, nums, remaining, w, h, d, max_fields=60000):
    """Mine probability of each closed cell over every consistent minefield.

    Enumerates each choice of ``remaining`` mines among the closed unflagged cells
    (flags count as mines). Returns a dict flat cell -> probability, None on a
    contradiction, "skip" when there would be more than ``max_fields`` minefields.
    """
    closed = [i for i, s in enumerate(state) if s == CLOSED]
    if remaining < 0 or remaining > len(closed):
        return None
    from math import comb
    if comb(len(closed), remaining) > max_fields:
        return "skip"
    cons = _constraints(state, nums, w, h, d)
    for cs, cnt in cons:
        if cnt < 0:
            return None
    pos = {c: k for k, c in enumerate(closed)}
    rows = np.array(list(combinations(range(len(closed)), remaining)), np.int64)
    rows = rows.reshape(max(1, rows.shape[0]) if remaining == 0 else -1, remaining)
    fields = np.zeros((rows.shape[0], len(closed)), np.int64)
    fields[np.arange(rows.shape[0])[:, None], rows] = 1
    ok = np.ones(rows.shape[0], bool)
    for cs, cnt in cons:
        ok &= fields[:, [pos[j] for j in cs]].sum(axis=1) == cnt
    good = fields[ok]
    if good.shape[0] == 0:
        return None
    p = good.mean(axis=0)
    return {c: float(p[k]) for k, c in enumerate(closed)}


def weighted_enumeration(sizes, rows):
    """Reference for ``enumerate_component``: every choice of mines per group.

    ``sizes[g]`` cells per group, ``rows`` a list of (groups, count). Returns
    ``(wsum, esum, has_mine, has_safe)`` as nested lists indexed like the kernel's
    outputs (``esum[g][m]``), ``m`` the total number of mines.
    """
    from math import comb
    s = sum(sizes)
    wsum = [0.0] * (s + 1)
    esum = [[0.0] * (s + 1) for _ in sizes]
    has_mine = [[0] * (s + 1) for _ in sizes]
    has_safe = [[0] * (s + 1) for _ in sizes]
    for ks in product(*(range(z + 1) for z in sizes)):
        if any(sum(ks[g] for g in groups) != cnt for groups, cnt in rows):
            continue
        m = sum(ks)
        w = 1.0
        for z, k in zip(sizes, ks):
            w *= comb(z, k)
        wsum[m] += w
        for g, (z, k) in enumerate(zip(sizes, ks)):
            esum[g][m] += w * k
            has_mine[g][m] |= k > 0
            has_safe[g][m] |= k < z
    return wsum, esum, has_mine, has_safe


def constraints(state, nums, w, h, d):
    """The constraints of a position: [(sorted flat cells, count)] (rows with cells)."""
    return [(sorted(cs), cnt) for cs, cnt in _constraints(state, nums, w, h, d) if cs]


def certain_cells_sat(state, nums, remaining, w, h, d, use_count=False):
    """Every cell the constraints prove, decided by Z3 (an oracle independent of the kernels).

    Plain mode (``use_count=False``) uses the global count only when ``remaining`` is 0
    or equals the closed cells, like the assistant; with ``use_count`` the frontier and
    the ``u`` closed cells off it hold exactly ``remaining`` mines. Returns flat
    ``(safe, mines)`` sets, or None on a contradiction.
    """
    import z3
    closed = [i for i, s in enumerate(state) if s == CLOSED]
    if remaining < 0 or remaining > len(closed):
        return None
    cons = _constraints(state, nums, w, h, d)
    frontier = sorted({j for cs, _ in cons for j in cs})
    rest = sorted(set(closed) - set(frontier))
    solver = z3.Solver()
    var = {c: z3.Int(f"c{c}") for c in frontier}
    for v in var.values():
        solver.add(v >= 0, v <= 1)
    for cs, cnt in cons:
        solver.add(z3.Sum([var[j] for j in cs] + [z3.IntVal(0)]) == cnt)
    off = z3.Int("off")
    count_rule = use_count or remaining in (0, len(closed))
    if count_rule:
        solver.add(off >= 0, off <= len(rest),
                   z3.Sum(list(var.values()) + [z3.IntVal(0)]) + off == remaining)
    if solver.check() != z3.sat:
        return None
    seen = {c: set() for c in frontier}

    def record(model):
        for c in frontier:
            seen[c].add(model.eval(var[c], model_completion=True).as_long())

    record(solver.model())
    for c in frontier:
        for value in (0, 1):
            if value in seen[c]:
                continue
            solver.push()
            solver.add(var[c] == value)
            if solver.check() == z3.sat:
                record(solver.model())
            solver.pop()
    safe = {c for c in frontier if seen[c] == {0}}
    mines = {c for c in frontier if seen[c] == {1}}
    if count_rule and rest:
        for test, cells, target in ((off > 0, rest, safe), (off < len(rest), rest, mines)):
            solver.push()
            solver.add(test)
            if solver.check() != z3.sat:
                target |= set(cells)
            solver.pop()
    return safe, mines


def board_figures(mines, w, h, d):
    """``(3BV, openings)``: regions of zeros joined by the 26 neighbourhood, and the safe
    cells no zero touches, each one more click."""
    nums = numbers(mines, w, h, d)
    zeros = {c for c in cells(w, h, d) if c not in mines and nums[flat(c, w, h)] == 0}
    seen, covered, openings = set(), set(), 0
    for z in zeros:
        if z in seen:
            continue
        openings += 1
        seen.add(z)
        todo = [z]
        while todo:
            c = todo.pop()
            covered.add(c)
            for nb in neighbours(c, w, h, d):
                covered.add(nb)
                if nb in zeros and nb not in seen:
                    seen.add(nb)
                    todo.append(nb)
    lone = [c for c in cells(w, h, d) if c not in mines and c not in covered]
    return openings + len(lone), openings


def single_number_play(mines, start, w, h, d):
    """Whether a player using single numbers only (and the surface rule) clears the board
    from the open ``start``: a number whose unknown neighbours are all mines or all safe
    settles them; proved cells are opened or flagged once selectable."""
    all_cells = cells(w, h, d)
    n = len(all_cells)
    nb26 = [[flat(nb, w, h) for nb in neighbours(c, w, h, d)] for c in all_cells]
    nb6 = [[flat(nb, w, h) for nb in neighbours(c, w, h, d, diagonal=False)] for c in all_cells]
    edge = [on_boundary(c, w, h, d) for c in all_cells]
    mine = [c in mines for c in all_cells]
    nums = [sum(mine[j] for j in nb26[i]) for i in range(n)]
    state = [CLOSED] * n
    known = {}

    def open_from(i):                          # the cascade of a click on safe cell i
        todo = [i]
        state[i] = OPEN
        while todo:
            c = todo.pop()
            if nums[c] == 0:
                for j in nb26[c]:
                    if state[j] == CLOSED:
                        state[j] = OPEN
                        todo.append(j)

    open_from(flat(start, w, h))
    while True:
        progress = False
        for i in range(n):
            if state[i] != OPEN:
                continue
            nbs = [j for j in nb26[i] if state[j] != OPEN]
            unknown = [j for j in nbs if j not in known]
            need = nums[i] - sum(known.get(j) == "mine" for j in nbs)
            if unknown and need in (0, len(unknown)):
                for j in unknown:
                    known[j] = "safe" if need == 0 else "mine"
                progress = True
        for i, what in list(known.items()):
            if state[i] != CLOSED or not (edge[i] or any(state[j] != CLOSED for j in nb6[i])):
                continue
            if what == "safe":
                open_from(i)
            else:
                state[i] = FLAGGED
            progress = True
        if state.count(OPEN) == n - len(mines):
            return True
        if not progress:
            return False
