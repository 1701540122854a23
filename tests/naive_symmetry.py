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
    edges; stop at ``limit`` if given. ``prune=False`` is pure brute force; ``prune=True``
    cuts a partial path when a flood fill from its head over unvisited points (the goal
    not passed through) misses the goal or a remaining required point, or a remaining
    required point has fewer than two unvisited-or-head neighbours."""
    required = set(required)
    forbidden = set(forbidden)
    moves = {(x, y): [q for q in neighbours(size, (x, y)) if _edge((x, y), q) not in forbidden]
             for x in range(size) for y in range(size)}
    found = [0]

    def alive(head, visited):
        left = {r for r in required if r not in visited and r != goal}
        for r in left:
            free = [q for q in moves[r] if q == head or q not in visited]
            if len(free) < 2:
                return False
        seen = {head}
        todo = [head]
        reached_goal = False
        while todo:
            c = todo.pop()
            for q in moves[c]:
                if q in seen or q in visited:
                    continue
                seen.add(q)
                if q == goal:
                    reached_goal = True
                    continue
                todo.append(q)
        return reached_goal and left <= seen

    def walk(head, visited):
        if limit is not None and found[0] >= limit:
            return
        if head == goal:
            if required <= visited:
                found[0] += 1
            return
        if prune and not alive(head, visited):
            return
        for q in moves[head]:
            if q not in visited:
                visited.add(q)
                walk(q, visited)
                visited.discard(q)

    walk(start, {start})
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
