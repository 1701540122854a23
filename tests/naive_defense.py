"""Plain-Python references for engine/defense.py: BFS distance, route tracer, one BFS per
cell cut test, and a tick-by-tick wave simulation written from the rules."""
from collections import deque

ORDER = ((0, -1), (-1, 0), (1, 0), (0, 1))  # up, left, right, down


def distance(blocked, width, height, target):
    """dict (x, y) -> BFS steps to ``target`` over free cells (blocked: set of (x, y))."""
    dist = {target: 0}
    todo = deque([target])
    while todo:
        x, y = todo.popleft()
        for dx, dy in ORDER:
            n = (x + dx, y + dy)
            if 0 <= n[0] < width and 0 <= n[1] < height and n not in dist \
                    and n not in blocked:
                dist[n] = dist[(x, y)] + 1
                todo.append(n)
    return dist


def distance_grid(blocked, width, height, target):
    """Row-major list of distances, -1 where unreachable."""
    d = distance(blocked, width, height, target)
    return [[d.get((x, y), -1) for x in range(width)] for y in range(height)]


def next_step(dist, cell):
    """The neighbour with the smallest distance (first in up, left, right, down order)."""
    x, y = cell
    best, bd = None, dist[cell]
    for dx, dy in ORDER:
        n = (x + dx, y + dy)
        if n in dist and dist[n] < bd:
            best, bd = n, dist[n]
    return best


def route(blocked, width, height, target, start):
    """Cells from ``start`` to ``target`` following :func:`next_step`; [] if unreachable."""
    dist = distance(blocked, width, height, target)
    if start not in dist:
        return []
    out = [start]
    while out[-1] != target:
        out.append(next_step(dist, out[-1]))
    return out


def cut_cells(blocked, width, height, target, sources):
    """Free cells whose blocking disconnects a (connected) source: one BFS per cell."""
    base = distance(blocked, width, height, target)
    live = [s for s in sources if s in base and s != target]
    out = set()
    for cell in base:
        if cell == target:
            continue
        d = distance(blocked | {cell}, width, height, target)
        if any(s == cell or s not in d for s in live):
            out.add(cell)
    return out


def simulate_wave(scenario, wave, cannons, walls, ships, health):
    """One whole wave (1-based ``wave`` of ``scenario``) by the rules, in plain Python.

    cannons: [(x, y)] in placement order; walls: [(x, y)]; ships: [(kind, entrance)];
    returns a dict like a WaveRecord (outcome, kills, leaks, shots, stops, ticks, health).
    """
    s = scenario
    w, h = s.width, s.height
    tr = s.tick_rate
    reefs = {(x, y) for y, row in enumerate(s.map) for x, ch in enumerate(row) if ch == "#"}
    dist = distance(reefs | set(cannons) | set(walls), w, h, s.beacon)
    c = s.cannon
    range2 = c.range * c.range
    interval = round(c.fire_interval * tr)
    cool = c.cooling / tr
    spawn_every = round(s.waves[wave - 1].spawn_interval * tr)
    guns = [{"cell": g, "timer": 0, "heat": 0.0, "hot": False, "shots": 0, "stops": 0}
            for g in cannons]
    fleet = []
    kills = 0
    leaks = {"A": 0, "B": 0}
    tick = 0
    while True:
        if len(fleet) < len(ships) and tick >= len(fleet) * spawn_every:
            kind, entry = ships[len(fleet)]
            start = s.entrances[entry]
            fleet.append({"cur": start, "nxt": next_step(dist, start), "p": 0.0,
                          "hp": s.enemies[kind].hp, "speed": s.enemies[kind].speed / tr,
                          "entry": entry, "state": "alive"})
        for ship in fleet:
            if ship["state"] != "alive":
                continue
            p = ship["p"] + ship["speed"]
            if p >= 1.0:
                p -= 1.0
                ship["cur"] = ship["nxt"]
                if ship["cur"] == s.beacon:
                    ship["state"] = "leaked"
                    leaks[ship["entry"]] += 1
                    health -= 1
                    if health <= 0:
                        return _result("lost", kills, leaks, guns, tick + 1, health)
                    continue
                ship["nxt"] = next_step(dist, ship["cur"])
            ship["p"] = p
        for g in guns:
            g["heat"] = max(0.0, g["heat"] - cool)
            if g["hot"]:
                if g["heat"] > 0.0:
                    continue
                g["hot"] = False
            if g["timer"] > 0:
                g["timer"] -= 1
                if g["timer"] > 0:
                    continue
            target = _find_target(g["cell"], fleet, dist, range2)
            if target is None:
                continue
            target["hp"] -= c.damage
            if target["hp"] <= 0:
                target["state"] = "killed"
                kills += 1
            g["shots"] += 1
            g["timer"] = interval
            g["heat"] += c.heat_per_shot
            if g["heat"] >= c.overheat_threshold:
                g["hot"] = True
                g["stops"] += 1
        tick += 1
        if len(fleet) == len(ships) and all(f["state"] != "alive" for f in fleet):
            return _result("won", kills, leaks, guns, tick, health)


def _find_target(cell, fleet, dist, range2):
    cx, cy = cell
    best, best_left = None, None
    for ship in fleet:
        if ship["state"] != "alive":
            continue
        (x0, y0), (x1, y1), p = ship["cur"], ship["nxt"], ship["p"]
        dx = x0 + p * (x1 - x0) - cx
        dy = y0 + p * (y1 - y0) - cy
        if dx * dx + dy * dy > range2:
            continue
        left = dist[ship["nxt"]] + (1.0 - p)
        if best is None or left < best_left:
            best, best_left = ship, left
    return best


def _result(outcome, kills, leaks, guns, ticks, health):
    return {"outcome": outcome, "kills": kills, "leaks_a": leaks["A"], "leaks_b": leaks["B"],
            "shots": tuple(g["shots"] for g in guns),
            "overheat_stops": tuple(g["stops"] for g in guns), "ticks": ticks,
            "health": health}
