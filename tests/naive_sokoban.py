"""Plain-Python Sokoban references: moves, pulls, replay, breadth-first search over pushes,
push distances, and the min-cost matching by brute force. Slow and obviously correct.

Cells are ``(x, y)`` tuples; ``walls``, ``goals`` and ``boxes`` are sets of cells.
"""
from itertools import permutations

DIRS = {"u": (0, -1), "l": (-1, 0), "r": (1, 0), "d": (0, 1)}
INF = float("inf")


def add(cell, step, k=1):
    return (cell[0] + k * step[0], cell[1] + k * step[1])


def reachable(walls, boxes, player):
    """Cells the player can walk to without pushing."""
    seen = {player}
    todo = [player]
    while todo:
        c = todo.pop()
        for step in DIRS.values():
            nb = add(c, step)
            if nb not in seen and nb not in walls and nb not in boxes:
                seen.add(nb)
                todo.append(nb)
    return seen



def random_pulls(walls, boxes, player, rng, count):
    """Reverse play: up to ``count`` times, walk anywhere in the player's region and make a
    random legal pull (``rng`` a numpy Generator). Returns the new ``(boxes, player)``."""
    for _ in range(count):
        region = sorted(reachable(walls, boxes, player))
        pulls = [(q, letter) for q in region for letter in "ulrd"
                 if pull(walls, boxes, q, letter) is not None]
        if not pulls:
            break
        q, letter = pulls[int(rng.integers(len(pulls)))]
        boxes, player = pull(walls, boxes, q, letter)
    return boxes, player

def push(walls, boxes, player, letter):
    """One move in direction ``letter`` (a walk or a push): (boxes, player, pushed) or None."""
    step = DIRS[letter.lower()]
    nxt = add(player, step)
    if nxt in walls:
        return None
    if nxt in boxes:
        beyond = add(nxt, step)
        if beyond in walls or beyond in boxes:
            return None
        return (boxes - {nxt}) | {beyond}, nxt, True
    return boxes, nxt, False


def pull(walls, boxes, player, letter):
    """The player steps one cell in direction ``letter`` and the box behind it follows.
    Returns (boxes, player) or None when the pull is illegal."""
    step = DIRS[letter]
    nxt = add(player, step)
    behind = add(player, step, -1)
    if nxt in walls or nxt in boxes or behind not in boxes:
        return None
    return (boxes - {behind}) | {player}, nxt


def replay(level, moves):
    """Replay a LURD string on ``level``: (boxes, player, pushes). Raises ValueError on an
    illegal move or on a letter whose case disagrees with whether it pushes."""
    walls = set(level.walls)
    boxes = frozenset(level.boxes)
    player = level.player
    pushes = 0
    for i, letter in enumerate(moves):
        if letter.lower() not in DIRS:
            raise ValueError(f"move {i}: unknown letter {letter!r}")
        res = push(walls, boxes, player, letter)
        if res is None:
            raise ValueError(f"move {i}: {letter!r} is blocked")
        boxes, player, pushed = res
        if pushed != letter.isupper():
            raise ValueError(f"move {i}: {letter!r} case disagrees with the move")
        pushes += pushed
    return boxes, player, pushes


def _norm(walls, boxes, player):
    region = reachable(walls, boxes, player)
    return min(region, key=lambda c: (c[1], c[0])), region


def bfs_pushes(level, max_states=2_000_000):
    """Least number of pushes that solves ``level`` by plain breadth-first search over
    pushes (states: box set + normalised player region); None when unsolvable."""
    walls = set(level.walls)
    goals = frozenset(level.goals)
    boxes = frozenset(level.boxes)
    if boxes == goals:
        return 0
    start_norm, _ = _norm(walls, boxes, level.player)
    seen = {(boxes, start_norm)}
    frontier = [(boxes, level.player)]
    depth = 0
    while frontier:
        depth += 1
        nxt = []
        for boxes, player in frontier:
            region = reachable(walls, boxes, player)
            for b in boxes:
                for step in DIRS.values():
                    if add(b, step, -1) not in region:
                        continue
                    t = add(b, step)
                    if t in walls or t in boxes:
                        continue
                    nb = (boxes - {b}) | {t}
                    if nb == goals:
                        return depth
                    key = (nb, _norm(walls, nb, b)[0])
                    if key not in seen:
                        seen.add(key)
                        nxt.append((nb, b))
            if len(seen) > max_states:
                raise RuntimeError("naive BFS state budget exceeded")
        frontier = nxt
    return None


def push_distance(walls, cell, goal, floor):
    """Least pushes bringing one box from ``cell`` to ``goal`` on an empty board, the
    player starting on any floor cell (breadth-first search forward over pushes from
    every start at once; the player walks around the box between pushes)."""
    if cell == goal:
        return 0
    frontier = {(cell, _norm(walls, {cell}, p)[0]) for p in floor if p != cell}
    seen = set(frontier)
    frontier = [(b, p) for b, p in frontier]
    depth = 0
    while frontier:
        depth += 1
        nxt = []
        for b, p in frontier:
            region = reachable(walls, {b}, p)
            for step in DIRS.values():
                t = add(b, step)
                if t in walls or add(b, step, -1) not in region:
                    continue
                if t == goal:
                    return depth
                key = (t, _norm(walls, {t}, b)[0])
                if key not in seen:
                    seen.add(key)
                    nxt.append(key)
        frontier = nxt
    return INF


def matching(costs):
    """Minimum over permutations of sum(costs[i][perm[i]]) (brute force)."""
    n = len(costs)
    return min(sum(costs[i][p[i]] for i in range(n)) for p in permutations(range(n)))


def dead_squares(walls, goals, cells):
    """Non-wall cells of ``cells`` from which no goal is reachable by pushing."""
    floor = [c for c in cells if c not in walls]
    return {c for c in floor if all(push_distance(walls, c, g, floor) == INF for g in goals)}


def frozen(walls, boxes, goals, dead, cell, testing=frozenset()):
    """Freeze test, recursive as on the Sokoban wiki: 0 movable, 1 frozen with every
    frozen box involved on a goal, 2 frozen with a box off its goal."""
    testing = testing | {cell}
    result = 1 if cell in goals else 2
    for step in ((1, 0), (0, 1)):
        a, b = add(cell, step, -1), add(cell, step)
        if a in walls or b in walls or a in testing or b in testing:
            blocked = 1
        elif a in dead and b in dead:
            blocked = 1
        else:
            blocked = 0
            if a in boxes:
                blocked = frozen(walls, boxes, goals, dead, a, testing)
            if not blocked and b in boxes:
                blocked = frozen(walls, boxes, goals, dead, b, testing)
        if not blocked:
            return 0
        result = max(result, blocked)
    return result


def pi_corral(walls, boxes, goals, dead, player):
    """The boxes the PI-corral rule keeps (see ``levelforge.engine.sokoban.pi_corral``):
    None for all boxes, else the boxes of the chosen corral (empty: a deadlock).

    A corral is a connected area of non-wall cells outside the player's region, boxes
    included; it is eligible when it holds a box off its goal or an empty goal and every
    push of each of its boxes is possible now into a free cell of the corral, or blocked
    until a corral box moves (player cell a wall or in the corral; target a wall, a corral
    box or dead). The eligible corral with the fewest possible pushes wins; ties go to the
    corral met first in (y, x) order of its boxes."""
    region = reachable(walls, boxes, player)
    seen = set()
    best = None
    best_count = None
    for b0 in sorted(boxes, key=lambda c: (c[1], c[0])):
        if b0 in seen:
            continue
        area = {b0}
        todo = [b0]
        while todo:
            c = todo.pop()
            for step in DIRS.values():
                nb = add(c, step)
                if nb not in walls and nb not in region and nb not in area:
                    area.add(nb)
                    todo.append(nb)
        seen |= area
        if all((c in goals) == (c in boxes) for c in area):
            continue
        count = 0
        eligible = True
        for b in (c for c in area if c in boxes):
            for step in DIRS.values():
                p, t = add(b, step, -1), add(b, step)
                if p in walls or p in area or t in walls or t in dead \
                        or (t in boxes and t in area):
                    continue
                if p in region and t in area and t not in boxes:
                    count += 1
                    continue
                eligible = False
        if eligible and (best_count is None or count < best_count):
            best_count = count
            best = frozenset(c for c in area if c in boxes) if count else frozenset()
    return best


def bfs_pushes_to(walls, boxes, player, target_boxes, target_player=None, max_states=200_000):
    """Least pushes taking ``boxes``/``player`` to the box set ``target_boxes`` with the
    player in the region of ``target_player`` (any region for None), by plain
    breadth-first search over pushes; None when impossible."""
    walls, boxes, target_boxes = set(walls), frozenset(boxes), frozenset(target_boxes)

    def done(bs, p):
        return bs == target_boxes and (target_player is None
                                       or target_player in reachable(walls, bs, p))

    if done(boxes, player):
        return 0
    seen = {(boxes, _norm(walls, boxes, player)[0])}
    frontier = [(boxes, player)]
    depth = 0
    while frontier:
        depth += 1
        nxt = []
        for bs, p in frontier:
            region = reachable(walls, bs, p)
            for b in bs:
                for step in DIRS.values():
                    t = add(b, step)
                    if add(b, step, -1) not in region or t in walls or t in bs:
                        continue
                    nb = (bs - {b}) | {t}
                    if done(nb, b):
                        return depth
                    key = (nb, _norm(walls, nb, b)[0])
                    if key not in seen:
                        seen.add(key)
                        nxt.append((nb, b))
            if len(seen) > max_states:
                raise RuntimeError("naive BFS state budget exceeded")
        frontier = nxt
    return None


def corral_deadlock(walls, goals, dead, player, boxes, max_states=200_000):
    """True when ``boxes`` (a corral's boxes, every other box dropped) can never all stand
    on goals: breadth-first search over their pushes, dead squares and freeze deadlocks
    (of this box set) pruned, finds no state with every box on a goal."""
    walls, boxes = set(walls), frozenset(boxes)
    if boxes <= goals:
        return False
    seen = {(boxes, _norm(walls, boxes, player)[0])}
    frontier = [(boxes, player)]
    while frontier:
        nxt = []
        for bs, p in frontier:
            region = reachable(walls, bs, p)
            for b in bs:
                for step in DIRS.values():
                    t = add(b, step)
                    if add(b, step, -1) not in region or t in walls or t in bs or t in dead:
                        continue
                    nb = (bs - {b}) | {t}
                    if frozen(walls, nb, goals, dead, t) == 2:
                        continue
                    if nb <= goals:
                        return False
                    key = (nb, _norm(walls, nb, b)[0])
                    if key not in seen:
                        seen.add(key)
                        nxt.append((nb, b))
            if len(seen) > max_states:
                raise RuntimeError("naive BFS state budget exceeded")
        frontier = nxt
    return True
