"""Farthest-state generation: rooms and goals searched backward over pulls, start states
picked by their exact push-optimal distance, each level proved by the forward solver.

A breadth-first search over pulls from the solved state (:func:`pull_space`) meets every
state at its exact push-optimal distance, so a target length is a layer of that search:
:class:`FarthestGenerator` draws the length uniformly in the asked range, builds rooms
(:mod:`levelforge.sokoban.rooms`) with several goal placements each, keeps the placement
whose search goes deepest, and takes a state of that layer. The push-optimal solver then
solves the level again (its solution ships with the level and must have exactly that
many pushes) and measures its :class:`Difficulty`.

>>> gen = FarthestGenerator(width=8, height=8, boxes=2, pushes=(10, 14))
>>> r = gen.generate(3)
>>> r.in_target, 10 <= r.pushes <= 14, r.difficulty.pushes == r.pushes
(True, True, True)
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..engine import sokoban_board as _b
from ..engine import sokoban_farthest as _f
from ..engine.sokoban_state import UNREACHABLE
from ..cancel import CANCELLED, LIMIT, Cancel, Limit, raise_stopped
from ..errors import ConfigError, GenerationError, LevelforgeError
from ..seeding import check_seed
from ..timing import ms_since, now_ns
from .difficulty import Difficulty, _reachable, box_changes, dead_squares
from .level import Level
from .result import Attempts, GenerateResult, bounded_int
from .rooms import ROOM_KINDS, RoomKind, make_room
from .solver import Solver

DEFAULT_STATES = 1_000_000
"""Default cap on the states one backward search stores."""


_WHAT = "farthest-state generation"


@dataclass(frozen=True)
class PullSearch:
    """What the backward search of the emitted room and goals found: ``states`` met,
    ``exhaustive`` (the whole pull space was searched, so ``farthest`` is the farthest
    any start state of this room and goals can be: a physical limit), ``farthest`` (the
    deepest layer met), the ``room`` kind and the number of rooms and goal placements
    searched for this level. ``beam`` is True when the pull space did not fit and a beam
    search found the state (``farthest`` is then a lower bound of its deepest states'
    distance)."""

    states: int
    exhaustive: bool
    farthest: int
    room: str
    rooms: int
    goal_sets: int
    beam: bool = False

    def to_dict(self) -> dict[str, Any]:
        """The figures as a JSON-ready dict."""
        return dict(self.__dict__)


class _Space:
    """Work arrays of the backward search for one board size, box count and cap."""

    def __init__(self, cells, nbox, cap):
        self.nbox, self.cap = nbox, cap
        self.zob = np.random.default_rng(0xFA57).integers(0, 2**63, size=(2, cells),
                                                          dtype=np.uint64)
        self.pool = np.zeros(cap * nbox, np.int16)
        self.nplayer = np.zeros(cap, np.int32)
        self.depth = np.zeros(cap, np.int16)
        self.table = np.zeros(1 << (2 * cap - 1).bit_length(), np.int64)
        self.work = (np.zeros(cells, np.uint8), np.zeros(cells, np.int64),
                     np.zeros(cells, np.int32), np.zeros(cells, np.int64),
                     np.zeros(cells, np.int32), np.zeros(nbox, np.int16))
        self.out = np.zeros(_f.HALT + 1, np.int64)
        self.limit = Limit()  # the running call's time limit and cancel token
        self.celld = np.zeros(cells, np.int32)
        self.order = np.zeros(0, np.int64)  # the beam search's, made on its first use
        self.counts = np.zeros(4096, np.int64)

    def search(self, walls, goal_cells, width, max_depth, beam=0):
        """Search from the solved state (``beam > 0``: a beam search, scored by lone-box
        push distances); returns (count, status, deepest depth)."""
        if beam:
            self.celld[:] = _lone_box_distances(walls, goal_cells, width)
            if self.order.shape[0] < self.cap:
                self.order = np.zeros(self.cap, np.int64)
        with self.limit.watch(self.out, _f.HALT):
            _f.pull_bfs(walls, goal_cells.astype(np.int32), self.nbox, width, self.cap,
                        int(max_depth), int(beam), self.celld, self.order, self.counts,
                        self.zob, self.pool, self.nplayer, self.depth, self.table, *self.work,
                        self.out)
        count, status = int(self.out[0]), int(self.out[1])
        if status == _f.HALTED:
            raise_stopped(self.limit, _WHAT)
        return count, status, int(self.depth[count - 1])

    def scores(self, count):
        """The beam score (lower bound of the distance) of the first ``count`` nodes."""
        boxes = self.pool[:count * self.nbox].reshape(count, self.nbox)
        return self.celld[boxes].sum(axis=1)


def _lone_box_distances(walls, goal_cells, width):
    """Per cell, the fewest pushes that bring a lone box from it onto some goal (0 where
    none can: no state of the pull space has a box there)."""
    n = walls.shape[0]
    dist = np.zeros((goal_cells.shape[0], 4 * n), np.int32)
    dead = np.zeros(n, np.uint8)
    _b.push_distances(walls, goal_cells.astype(np.int32), width, dist, dead,
                      np.zeros(12 * n, np.int32), np.zeros(n, np.int64),
                      np.zeros(n * n, np.int8))
    best = dist.reshape(goal_cells.shape[0], n, 4).min(axis=(0, 2))
    return np.where(best >= UNREACHABLE, 0, best).astype(np.int32)


def pull_space(level: Level, max_states: int = DEFAULT_STATES,
               max_depth: int = 32766) -> tuple[dict[tuple[frozenset, tuple[int, int]], int], bool]:
    """Every state the backward search meets from ``level``'s solved state, as
    ``{(boxes, smallest cell of the player's region): push-optimal distance}``, and
    whether the whole pull space was searched (False at ``max_states`` or past
    ``max_depth``). Cells are ``(x, y)``.

    >>> space, whole = pull_space(Level.from_xsb("######\\n#@$ .#\\n######"))
    >>> whole, max(space.values())
    (True, 2)
    """
    walls, goals, _, _ = level.arrays()
    nbox = int(goals.sum())
    sp = _Space(walls.shape[0], nbox, max_states)
    count, status, _ = sp.search(walls, np.flatnonzero(goals), level.width, max_depth)
    w = level.width

    def cell(c):
        return int(c) % w, int(c) // w

    boxes = sp.pool[:count * nbox].reshape(count, nbox)
    out = {(frozenset(cell(c) for c in boxes[j]), cell(sp.nplayer[j])): int(sp.depth[j])
           for j in range(count)}
    return out, status == _f.COMPLETE


def _corner_goals(walls, width, nbox, rng):
    """``nbox`` goals grown as one connected blob from a floor cell with two or more
    walls around it (a corner or a corridor), or None if the floor is too small."""
    floor = np.flatnonzero(walls == 0)
    if floor.shape[0] < nbox + 2:
        return None
    steps = (-width, -1, 1, width)
    around = walls[floor - width] + walls[floor - 1] + walls[floor + 1] + walls[floor + width]
    starts = floor[around >= 2] if np.any(around >= 2) else floor
    got = [int(rng.choice(starts))]
    while len(got) < nbox:
        frontier = sorted({c + s for c in got for s in steps
                           if walls[c + s] == 0 and c + s not in got})
        if not frontier:
            return None
        got.append(int(rng.choice(frontier)))
    return np.array(got, np.int64)


def _range(name, value, hi_max):
    if value is None:
        return None
    if isinstance(value, str):
        lo, dash, hi = value.partition("-")
        if not dash or not lo.strip().isdigit() or not hi.strip().isdigit():
            raise ConfigError(f"{name} must look like LO-HI, got {value!r}")
        value = (int(lo), int(hi))
    try:
        lo, hi = value
    except (TypeError, ValueError):
        raise ConfigError(f"{name} must be a pair (lo, hi), got {value!r}") from None
    for v in (lo, hi):
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or not 0 <= v <= hi_max:
            raise ConfigError(f"{name} bounds must be integers in [0, {hi_max}], got {value!r}")
    if lo > hi:
        raise ConfigError(f"{name}: lo must not exceed hi, got {lo}-{hi}")
    return int(lo), int(hi)


class FarthestGenerator:
    """Levels whose start state is picked by its exact push-optimal distance.

    For each level: the aim, a length drawn uniformly in ``pushes`` from the seed (so
    lengths spread over the range); then up to ``rooms`` rooms of kind ``room``
    (:func:`levelforge.sokoban.rooms.make_room`), each with ``goal_sets`` goal
    placements (connected goals grown from a corner or corridor cell). Each placement is
    searched backward over pulls (at most ``max_states`` states, never deeper than the
    aim); the placement whose search goes deepest is kept. A room whose search reaches
    the aim gives a state of that layer (one with no box on a goal where there is one);
    otherwise the deepest layer in range met so far is taken after ``patience`` rooms.
    The solver (capped at ``solver_nodes``) then proves the length; a level whose proof
    hits the cap is replaced by another state.

    ``effort=(lo, hi)`` targets the solver's stored states instead of (or as well as)
    the pushes: in each room whose search reaches the push range, layers are tried by
    bisection on depth (effort grows with depth) until a state's effort is in range,
    for up to ``4 * patience`` rooms. ``pushes=None`` leaves the length free; with no
    target at all the generator searches all ``rooms`` rooms to the end of their pull
    space (or ``max_states``) and returns the farthest state found: the hardest level.
    ``in_target`` is False when the level is the closest one found outside the target.
    The result's ``attempts`` count rooms built (``boards``), states stored by the
    backward searches (``pulls``) and the solver's calls, capped calls and stored states.

    >>> g = FarthestGenerator(width=7, height=7, boxes=2, pushes=(6, 9))
    >>> g.generate(1).level == g.generate(1).level
    True
    """

    def __init__(self, width: int = 10, height: int = 10, boxes: int = 4,
                 pushes: tuple[int, int] | list[int] | str | None = (15, 30),
                 effort: tuple[int, int] | list[int] | str | None = None,
                 room: RoomKind = "templates", inner_walls: int = 0, goal_sets: int = 4,
                 rooms: int = 60, patience: int = 3, max_states: int = DEFAULT_STATES,
                 solver_nodes: int = 2_000_000) -> None:
        self.width = bounded_int("width", width, 5, 64)
        self.height = bounded_int("height", height, 5, 64)
        floor = (self.width - 2) * (self.height - 2)
        self.boxes = bounded_int("boxes", boxes, 1, min(16, floor - 2))
        self.pushes = _range("pushes", pushes, 32766)
        self.effort = _range("effort", effort, 1 << 26)
        if self.pushes is not None and self.pushes[0] < 1:
            raise ConfigError(f"pushes lo must be at least 1, got {self.pushes}")
        if room not in ROOM_KINDS:
            raise ConfigError(f"room must be one of {list(ROOM_KINDS)}, got {room!r}")
        self.room = room
        self.inner_walls = bounded_int("inner_walls", inner_walls, 0, floor)
        self.goal_sets = bounded_int("goal_sets", goal_sets, 1, 1000)
        self.rooms = bounded_int("rooms", rooms, 1, 100_000)
        self.patience = bounded_int("patience", patience, 1, 100_000)
        self.max_states = bounded_int("max_states", max_states, 16, 1 << 26)
        self.solver_nodes = bounded_int("solver_nodes", solver_nodes, 1, 1 << 26)
        self._space = None
        self._solver = None

    def to_dict(self) -> dict[str, Any]:
        """The configuration as a JSON-ready dict (``FarthestGenerator(**d)`` rebuilds it)."""
        return {"method": "farthest", "width": self.width, "height": self.height,
                "boxes": self.boxes,
                "pushes": list(self.pushes) if self.pushes else None,
                "effort": list(self.effort) if self.effort else None, "room": self.room,
                "inner_walls": self.inner_walls, "goal_sets": self.goal_sets,
                "rooms": self.rooms, "patience": self.patience,
                "max_states": self.max_states, "solver_nodes": self.solver_nodes}

    def __repr__(self):
        return "FarthestGenerator(" + ", ".join(
            f"{k}={v!r}" for k, v in self.to_dict().items() if k != "method") + ")"

    def __getstate__(self):
        return {k: v for k, v in self.to_dict().items() if k != "method"}

    def __setstate__(self, state):
        self.__init__(**state)

    def warm_up(self) -> FarthestGenerator:
        """Compile (or load) the kernels and allocate the work arrays."""
        self.generate(0)
        return self

    def _arrays(self):
        if self._space is None:
            self._space = _Space(self.width * self.height, self.boxes, self.max_states)
            self._solver = Solver(max_nodes=self.solver_nodes)
        return self._space, self._solver

    def generate(self, seed: int, time_limit: float | None = None,
                 cancel: Cancel | None = None) -> Any:
        """One level from ``seed`` (same seed, same level, in any process), as a
        :class:`~levelforge.sokoban.GenerateResult` with its ``difficulty`` and
        ``search`` filled in.

        ``time_limit`` (seconds, default None: no limit) and ``cancel`` (a
        :class:`~levelforge.Cancel`) stop the call: the pull search looks at them before
        each state it expands and the solver before each push it tries, so the call
        raises :class:`~levelforge.GenerationError` naming the limit (or
        :class:`~levelforge.Cancelled`) within milliseconds of it. A level made within
        the limit is the level made without it."""
        seed = check_seed(seed)
        if not _LOADED:
            _load_kernels()
        start = now_ns()
        limit = Limit(time_limit, cancel, start)
        space, solver = self._arrays()
        space.limit = limit
        try:
            return self._generate(seed, start, space, solver)
        finally:
            space.limit = Limit()

    def _generate(self, seed, start, space, solver):
        rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(0xFA57,)))
        if self.pushes is not None:
            lo, hi = self.pushes
            aim = int(rng.integers(lo, hi + 1))
        else:
            lo, hi, aim = 1, 32766, 32766
        stats = {"boards": 0, "states": 0, "goal_sets": 0, "calls": 0, "capped": 0,
                 "nodes": 0}
        best = None  # (depth, walls, goals, count, status): the deepest in range so far
        fallback = None  # the deepest placement of all
        proved = None  # (gap, level, difficulty, solution, placement): the closest proved
        in_range_rooms = 0
        for _ in range(self.rooms):
            if space.limit.reason() is not None:
                raise_stopped(space.limit, _WHAT)
            found = self._room(rng, space, aim, stats)
            if found is None:
                continue
            depth = found[0]
            if fallback is None or depth > fallback[0]:
                fallback = found
            if depth < lo:
                continue
            in_range_rooms += 1
            if best is None or depth > best[0]:
                best = found
            if self.effort is not None:  # prove this room's states until one fits
                got = self._prove(rng, space, solver, found, aim, lo, hi, stats)
                if got is not None and (proved is None or got[0] < proved[0]):
                    proved = got
                if (proved is not None and proved[0] == 0) \
                        or in_range_rooms >= 4 * self.patience:
                    break
            elif self.pushes is not None and (depth >= aim or in_range_rooms >= self.patience):
                break
        if proved is None:
            chosen = best or fallback
            if chosen is None:
                raise GenerationError(f"no room with a floor for {self.boxes} boxes in "
                                      f"{stats['boards']} {self.room} rooms "
                                      f"({self.width}x{self.height}, seed {seed})")
            proved = self._prove(rng, space, solver, chosen, aim, lo, hi, stats)
            if proved is None:
                raise GenerationError(
                    f"no unsolved state of the chosen room could be proved (seed {seed}): "
                    f"nothing can be pulled there, or every proof hit the solver's cap "
                    f"of {self.solver_nodes} states (raise solver_nodes)")
        _, level, diff, solution, (depth, walls, _, count, status, beam) = proved
        in_target = (self.pushes is None or lo <= diff.pushes <= hi) and (
            self.effort is None or self.effort[0] <= diff.nodes <= self.effort[1])
        border = 2 * (self.width + self.height) - 4
        attempts = Attempts(stats["boards"], stats["states"], stats["calls"],
                            stats["capped"], stats["nodes"], int(walls.sum()) - border,
                            not in_target)
        search = PullSearch(count, status == _f.COMPLETE, depth, self.room, stats["boards"],
                            stats["goal_sets"], beam)
        return GenerateResult(level, diff.pushes, solution, in_target, seed, ms_since(start),
                              attempts, self.to_dict(), diff, search)

    def _prove(self, rng, space, solver, placement, aim, lo, hi, stats):
        """Search ``placement`` again (the work arrays hold the last search) and pick a
        proved state of it: (gap to the target, level, difficulty, solution, placement),
        or None when every proof hit the solver's cap."""
        depth, walls, goals = placement[:3]
        if placement[5]:
            space.search(walls, goals, self.width, 32766, self._beam())
            got = self._pick_beam(rng, space, solver, walls, goals, lo, hi, stats)
        else:
            space.search(walls, goals, self.width, min(depth, aim) if self.effort is None
                         else min(hi, depth))
            got = self._pick(rng, space, solver, walls, goals, min(depth, aim, hi), lo, hi,
                             stats)
        if got is None:
            return None
        level, diff, solution = got
        return self._gap(diff), level, diff, solution, placement

    def _gap(self, diff):
        """0 in the effort target, else how far out (a ratio above 1)."""
        if self.effort is None:
            return 0.0
        lo, hi = self.effort
        n = max(diff.nodes, 1)
        return 0.0 if lo <= n <= hi else max(lo / n, n / max(hi, 1))

    def _room(self, rng, space, aim, stats):
        """One room and its goal placements: the deepest (depth, walls, goals, count,
        status), or None when the room has no floor for the boxes."""
        walls = make_room(self.room, self.width, self.height, rng, self.inner_walls)
        stats["boards"] += 1
        best = None
        for _ in range(self.goal_sets):
            goals = _corner_goals(walls, self.width, self.boxes, rng)
            if goals is None:
                return None
            stats["goal_sets"] += 1
            count, status, depth = space.search(walls, goals, self.width, aim)
            beam = status == _f.CAPPED and depth < aim
            if beam:  # too big to search whole: a beam search goes deeper
                count, status, top = space.search(walls, goals, self.width, 32766,
                                                  self._beam())
                # ranked by a lower bound: the best score of its deepest layers
                deep = max(0, count - 4 * self._beam())
                depth = max(depth, int(space.scores(count)[deep:].max()))
            stats["states"] += count
            if best is None or depth > best[0]:
                best = (depth, walls, goals, count, status, beam)
            if depth >= aim:
                break
        return best

    def _beam(self):
        """The beam width: room for about 128 layers within ``max_states``."""
        return max(16, self.max_states // 128)

    def _pick_beam(self, rng, space, solver, walls, goals, lo, hi, stats):
        """A proved state of a beam search, whose depths are upper bounds and scores lower
        bounds of the distance: for a push range, states with both bounds in it first;
        with no push target, the best-scored state of each of the four deepest layers,
        the farthest once proved. (level, difficulty, solution) or None."""
        count = int(space.out[0])
        depths = space.depth[:count].astype(np.int64)
        scores = space.scores(count)
        if self.pushes is not None:
            sure = np.flatnonzero((scores >= lo) & (depths <= hi))
            rest = np.flatnonzero((depths >= lo) & (scores < lo))
            picks = list(sure[np.lexsort((-scores[sure], -depths[sure]))][:2]) + \
                list(rest[np.lexsort((-depths[rest], -scores[rest]))][:2])
        else:
            picks = []
            for d in sorted(set(depths[-4 * self._beam():].tolist()))[-4:][::-1]:
                layer = np.flatnonzero(depths == d)
                picks.append(int(layer[np.argmax(scores[layer])]))
        goal_mask = np.zeros(walls.shape[0], bool)
        goal_mask[goals] = True
        best = None
        for j in picks:
            level = self._node_level(rng, space, walls, goal_mask, int(j))
            r = _solve(solver, level, space.limit)
            stats["calls"] += 1
            stats["nodes"] += r.nodes
            if not r.solved:
                stats["capped"] += 1
                continue
            if not scores[j] <= r.pushes <= depths[j]:
                raise LevelforgeError(f"the beam search bounds this state's distance by "
                                      f"{scores[j]}-{depths[j]} pushes but the solver finds "
                                      f"{r.pushes}:\n{level.to_xsb()}")
            inside = self.pushes is None or lo <= r.pushes <= hi
            key = (inside, r.pushes if self.pushes is None else -abs(r.pushes - hi))
            if best is None or key > best[0]:
                best = (key, level, r)
            if self.pushes is not None and inside:
                break
        if best is None:
            return None
        _, level, r = best
        diff = Difficulty(r.pushes, r.nodes, r.expanded, box_changes(level, r.solution),
                          len(dead_squares(level)))
        return level, diff, r.solution

    def _pick(self, rng, space, solver, walls, goals, depth, lo, hi, stats):
        """A state of layer ``depth`` (or, for an effort target, of the layer a bisection
        on depth settles on: effort grows with depth) as a level, proved by the solver:
        (level, difficulty, solution), or None when every proof hit the solver's cap."""
        count = int(space.out[0])
        depths = space.depth[:count]
        top = int(depths[-1])
        if top < 1:
            return None  # nothing can be pulled: no unsolved state
        lo_d = min(max(1, lo), top)
        hi_d = max(lo_d, min(top, hi))
        d = min(depth, top) if self.effort is None else (lo_d + hi_d + 1) // 2
        closest = None
        for _ in range(12 if self.effort is not None else 4):
            level = self._level(rng, space, walls, goals, d, depths)
            r = _solve(solver, level, space.limit)
            stats["calls"] += 1
            stats["nodes"] += r.nodes
            if not r.solved:  # the cap: unknown; another state, shallower for effort
                stats["capped"] += 1
                if self.effort is not None:
                    hi_d = d - 1
                    if lo_d > hi_d:
                        break
                    d = (lo_d + hi_d + 1) // 2
                continue
            if r.pushes != d:
                raise LevelforgeError(f"the backward search put this state at {d} pushes "
                                      f"but the solver finds {r.pushes}:\n{level.to_xsb()}")
            diff = Difficulty(r.pushes, r.nodes, r.expanded, 0, 0)
            gap = self._gap(diff)
            if closest is None or gap < closest[0]:
                closest = (gap, level, r)
            if gap == 0:
                break
            if r.nodes < self.effort[0]:
                lo_d = d + 1
            else:
                hi_d = d - 1
            if lo_d > hi_d:
                break
            d = (lo_d + hi_d + 1) // 2
        if closest is None:
            return None
        _, level, r = closest
        diff = Difficulty(r.pushes, r.nodes, r.expanded, box_changes(level, r.solution),
                          len(dead_squares(level)))
        return level, diff, r.solution

    def _level(self, rng, space, walls, goals, d, depths):
        """A random state of layer ``d`` as a level (one with no box on a goal where the
        layer has one)."""
        nbox = self.boxes
        a, b = np.searchsorted(depths, d, "left"), np.searchsorted(depths, d, "right")
        boxes = space.pool[a * nbox:b * nbox].reshape(b - a, nbox)
        goal_mask = np.zeros(walls.shape[0], bool)
        goal_mask[goals] = True
        clear = np.flatnonzero(~goal_mask[boxes].any(axis=1))
        j = int(rng.choice(clear)) if clear.size else int(rng.integers(b - a))
        return self._node_level(rng, space, walls, goal_mask, int(a + j))

    def _node_level(self, rng, space, walls, goal_mask, j):
        """Node ``j`` as a level, the player on a random cell of its region, off the
        goals if it can."""
        nbox = self.boxes
        box_cells = space.pool[j * nbox:(j + 1) * nbox].astype(np.int64)
        region = _region(walls, box_cells, int(space.nplayer[j]), self.width)
        off = [c for c in region if not goal_mask[c]]
        player = int(rng.choice(off or region))
        occ = np.zeros(walls.shape[0], np.uint8)
        occ[box_cells] = 1
        return Level.from_arrays(self.width, self.height, walls, goal_mask.astype(np.uint8),
                                 occ, player)


def _region(walls, boxes, start, width):
    """The cells the player reaches from ``start`` among ``boxes`` (sorted)."""
    blocked = walls.copy()
    blocked[boxes] = 1
    return [int(c) for c in np.flatnonzero(_reachable(blocked, width, start))]


_LOADED = False


def _solve(solver, level, limit):
    """``solver.solve(level)`` within what is left of ``limit``; a solve that ``limit``
    stopped raises as the generator does (a node cap is a plain ``limit`` result)."""
    left = None if limit.deadline is None else max(1e-3, (limit.deadline - now_ns()) / 1e9)
    r = solver.solve(level, time_limit=left, cancel=limit.cancel)
    if r.status in (LIMIT, CANCELLED) and limit.reason() is not None:
        raise_stopped(limit, _WHAT)
    return r


def _load_kernels():
    """Compile (cold cache) or load the backward search kernel once per process."""
    global _LOADED
    _LOADED = True
    pull_space(Level.from_xsb("######\n#@$ .#\n######"), max_states=64)
