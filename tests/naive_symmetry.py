"""Plain-Python references for the symmetry puzzles (engine/paths.py and the parity bound).

Points are (x, y) tuples; a board is given as size, start, goal, a set of required points
and a set of forbidden edges (sorted point pairs). No NumPy, no Numba.
"""


def neighbours(size, p):
    x, y = p
    out = []
    for dx, dy in ((0, -1), (-1, 0), (1, 0), (0, 1)):
        nx, ny = x + dx, y + dy
        if 0 <= nx < size and 0 <= ny < size:
            out.append((nx, ny))
    return out


def _edge(a, b):
    return (a, b) if a <= b else (b, a)


def count_paths(size, start, goal, required=(), forbidden=(), limit=None, prune=False):
    """Count self-avoiding start-goal paths passing every required point, avoiding forbidden
    edges; stop at ``limit`` if given. ``prune=False`` is pure brute force over point sets;
    ``prune=True`` (:func:`_count_pruned`) cuts a partial path when no component of the
    unvisited points next to its head (the goal not passed through) both touches the goal
    and holds every remaining required point, or when a remaining required point has fewer
    than two unvisited-or-head neighbours."""
    if prune:
        return _count_pruned(size, start, goal, required, forbidden, limit)
    required = set(required)
    forbidden = set(forbidden)
    moves = {(x, y): [q for q in neighbours(size, (x, y)) if _edge((x, y), q) not in forbidden]
             for x in range(size) for y in range(size)}
    found = [0]

    def walk(head, visited):
        if limit is not None and found[0] >= limit:
            return
        if head == goal:
            if required <= visited:
                found[0] += 1
            return
        for q in moves[head]:
            if q not in visited:
                visited.add(q)
                walk(q, visited)
                visited.discard(q)

    walk(start, {start})
    return found[0]


def _count_pruned(size, start, goal, required, forbidden, limit):
    """The pruned count on Python integers used as bit sets (bit ``y * size + x``). The
    rest of a partial path runs through one component of the unvisited points (goal
    excluded) next to its head, so some such component must hold every remaining required
    point and touch the goal. A flood fill moves a whole frontier per step by shifting it
    along each direction that an allowed-move mask permits."""
    n = size
    bit = lambda p: 1 << (p[1] * n + p[0])  # noqa: E731
    forbidden = set(forbidden)
    masks = []  # (mask of points that may move this way, shift); shift > 0: left shift
    for (dx, dy), shift in (((1, 0), 1), ((-1, 0), -1), ((0, 1), n), ((0, -1), -n)):
        m = 0
        for x in range(n):
            for y in range(n):
                q = (x + dx, y + dy)
                if 0 <= q[0] < n and 0 <= q[1] < n and _edge((x, y), q) not in forbidden:
                    m |= bit((x, y))
        masks.append((m, shift))
    moves = {bit((x, y)): [bit(q) for q in neighbours(n, (x, y))
                           if _edge((x, y), q) not in forbidden]
             for x in range(n) for y in range(n)}
    goal_b = bit(goal)
    req = [bit(p) for p in set(required)]
    req_all = sum(req)
    found = [0]

    def spread(cells):
        out = 0
        for m, shift in masks:
            f = cells & m
            out |= f << shift if shift > 0 else f >> -shift
        return out

    def alive(head, visited):
        left = req_all & ~visited & ~goal_b
        for r in req:
            if r & left and sum(1 for q in moves[r] if q == head or not q & visited) < 2:
                return False
        free = ~visited & ~goal_b
        seen = 0
        for q in moves[head]:
            if q == goal_b:
                if not left:
                    return True
                continue
            if q & visited or q & seen:
                continue
            comp = frontier = q      # the component of unvisited points (goal excluded)
            while frontier:
                frontier = spread(frontier) & free & ~comp
                comp |= frontier
            seen |= comp
            if left & ~comp == 0 and spread(comp) & goal_b:
                return True
        return False

    def walk(head, visited):
        if limit is not None and found[0] >= limit:
            return
        if head == goal_b:
            if req_all & ~visited == 0:
                found[0] += 1
            return
        if not alive(head, visited):
            return
        for q in moves[head]:
            if not q & visited:
                walk(q, visited | q)

    walk(bit(start), bit(start))
    return found[0]


def all_paths(size, start, goal, required=(), forbidden=()):
    """Every solution as a list of points (brute force; small boards only)."""
    required = set(required)
    out = []

    def walk(path, visited):
        head = path[-1]
        if head == goal:
            if required <= visited:
                out.append(list(path))
            return
        for q in neighbours(size, head):
            if q not in visited and _edge(head, q) not in forbidden:
                visited.add(q)
                path.append(q)
                walk(path, visited)
                path.pop()
                visited.discard(q)

    walk([start], {start})
    return out


def longest_paths_from(size, start):
    """Most points on a self-avoiding path from ``start`` to each point (brute force over
    every self-avoiding walk from ``start``); a dict point -> points."""
    best = {}

    def walk(head, visited, n):
        if n > best.get(head, 0):
            best[head] = n
        for q in neighbours(size, head):
            if q not in visited:
                visited.add(q)
                walk(q, visited, n + 1)
                visited.discard(q)

    walk(start, {start}, 1)
    return best


def branch_profile(size, start, goal, required, forbidden, path):
    """Legal moves (unvisited neighbour over an allowed edge) at each step of ``path``:
    ``[steps with >= 2 legal moves]`` (the first figure of the kernel's profile)."""
    forbidden = set(forbidden)
    visited = {start}
    steps = 0
    for i in range(len(path) - 1):
        head = path[i]
        legal = [q for q in neighbours(size, head)
                 if q not in visited and _edge(head, q) not in forbidden]
        steps += len(legal) >= 2
        visited.add(path[i + 1])
    return steps


def trap_edges(size, required, answer):
    """Edges joining two ``required`` points that are lattice neighbours but not
    consecutive on the ``answer`` path (the design's trap pairs), as sorted point pairs."""
    answer_edges = {_edge(a, b) for a, b in zip(answer, answer[1:])}
    out = set()
    for p in required:
        for q in neighbours(size, p):
            if q in required and _edge(p, q) not in answer_edges:
                out.add(_edge(p, q))
    return out


def forbidden_trap_edges(puzzle):
    """The trap-pair edges forbidden on board A, on board B and on the master board, each
    in that board's own coordinates (B is A mirrored: x -> N-1-x); required points are the
    puzzle's (A's plus the mirror of B's)."""
    n = puzzle.size
    mirror = lambda p: (n - 1 - p[0], p[1])  # noqa: E731
    answer = list(puzzle.solution)
    required = set(puzzle.board_a.required) | {mirror(p) for p in puzzle.board_b.required}
    on_a = trap_edges(n, required, answer)
    on_b = trap_edges(n, {mirror(p) for p in required}, [mirror(p) for p in answer])
    master = puzzle.master()
    return {"A": sorted(on_a & puzzle.board_a.forbidden),
            "B": sorted(on_b & puzzle.board_b.forbidden),
            "master": sorted(on_a & master.forbidden)}
