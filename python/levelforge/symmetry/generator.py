"""Generation of symmetry puzzles with a proved unique solution.

1. Answer path with Z3 (Boolean encoding), longest length the colour bound allows,
   shortened by 2 on UNSAT or when the deterministic resource limit is reached.
2. Required points on the answer: trap pairs, then corners, then straight points.
3. Forbidden edges until unique: the counting DFS finds an alternative; one of its edges
   that the answer does not use is forbidden (seeded choice), until one solution remains.
   A trap pair's edge (two required points that are lattice neighbours but not
   consecutive on the answer) is never forbidden, at any step: the design's rule.
4. Reduction: drop each forbidden edge, then each required point (but those of the trap
   pairs chosen in step 2), if uniqueness survives.
5. Split the conditions between boards A and B (seeded), B's mirrored.

>>> p = generate(4, seed=7)
>>> p.check(p.solution), count_solutions(p.master())
(True, 1)
"""
from __future__ import annotations

from enum import Enum
from typing import Any, Mapping, Sequence

import numpy as np

from ..cancel import Cancel, Limit, raise_stopped
from ..engine import paths as _paths
from ..errors import ConfigError, GenerationError
from ..seeding import check_seed
from ..timing import ms_since, now_ns
from .board import EXACT, HALTED, NODE_CAP, Board, Workspace, count_solutions  # noqa: F401
from .puzzle import Puzzle, split_items
from .zpath import SAT, longest_path_points, solve_path

GEN_MIN_SIZE, GEN_MAX_SIZE = 3, 9


class Strategy(str, Enum):
    """How the 1-3 waypoints of the answer path are chosen.

    >>> Strategy("EDGE_WALK") is Strategy.EDGE_WALK
    True
    """

    DEFAULT = "DEFAULT"            # any point
    CORNER_FIRST = "CORNER_FIRST"  # board corners first
    CENTER_FIRST = "CENTER_FIRST"  # nearest the centre first
    DIAGONAL = "DIAGONAL"          # on the two diagonals
    EDGE_WALK = "EDGE_WALK"        # on the perimeter


_STRATEGIES = list(Strategy)


def _waypoint_pool(size, strategy, rng):
    """Candidate waypoints (points), best first, for ``strategy``; ties broken by ``rng``."""
    pts = [(x, y) for y in range(size) for x in range(size)]
    order = rng.permutation(len(pts))
    pts = [pts[i] for i in order]
    last = size - 1
    if strategy is Strategy.CORNER_FIRST:
        corners = {(0, 0), (last, 0), (0, last), (last, last)}
        return [p for p in pts if p in corners] + [p for p in pts if p not in corners]
    if strategy is Strategy.CENTER_FIRST:
        c = last / 2
        return sorted(pts, key=lambda p: abs(p[0] - c) + abs(p[1] - c))  # stable: seeded ties
    if strategy is Strategy.DIAGONAL:
        return [p for p in pts if p[0] == p[1] or p[0] + p[1] == last]
    if strategy is Strategy.EDGE_WALK:
        return [p for p in pts if p[0] in (0, last) or p[1] in (0, last)]
    return pts


class Generator:
    """Symmetry puzzle generator for one board size (picklable; owns its kernel workspace).

    ``strategy`` fixes the waypoint strategy (a :class:`Strategy` or its name; None picks
    one per puzzle from the seed). ``rlimit`` is Z3's deterministic resource limit per
    solve (reaching it shortens the path by 2, like UNSAT). ``max_nodes`` caps each
    counting-DFS run, deterministically: a capped run while forbidding edges pins one more
    early answer point and forbids one early non-answer edge; a capped reduction trial
    keeps its condition. ``required_share`` is the share of the answer's points first made
    required (reduction removes the unneeded ones).

    >>> g = Generator(5, strategy="CORNER_FIRST")
    >>> g.warm_up()
    >>> g.generate(3).strategy
    'CORNER_FIRST'
    """

    def __init__(self, size: int, strategy: Strategy | str | None = None, *,
                 rlimit: int = 3_000_000, max_nodes: int = 200_000,
                 required_share: float = 0.3) -> None:
        if isinstance(size, bool) or not isinstance(size, (int, np.integer)) \
                or not GEN_MIN_SIZE <= size <= GEN_MAX_SIZE:
            raise ConfigError(f"size must be an integer in [{GEN_MIN_SIZE}, {GEN_MAX_SIZE}], "
                              f"got {size!r}")
        if strategy is not None:
            try:
                strategy = Strategy(strategy.value if isinstance(strategy, Strategy)
                                    else str(strategy).upper())
            except ValueError:
                raise ConfigError(f"unknown strategy {strategy!r}; choose one of "
                                  f"{[s.value for s in Strategy]}") from None
        for name, value in (("rlimit", rlimit), ("max_nodes", max_nodes)):
            if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
                raise ConfigError(f"{name} must be a positive integer, got {value!r}")
        if not 0.0 <= float(required_share) <= 1.0:
            raise ConfigError(f"required_share must be in [0, 1], got {required_share!r}")
        self.size = int(size)
        self.strategy = strategy
        self.rlimit = int(rlimit)
        self.max_nodes = int(max_nodes)
        self.required_share = float(required_share)
        self._ws = None

    def __getstate__(self):
        state = dict(self.__dict__)
        state["_ws"] = None  # work arrays are rebuilt in each process
        return state

    def to_dict(self) -> dict[str, Any]:
        """The configuration as a JSON-ready dict."""
        return {"system": "symmetry", "size": self.size,
                "strategy": None if self.strategy is None else self.strategy.value,
                "rlimit": self.rlimit, "max_nodes": self.max_nodes,
                "required_share": self.required_share}

    def _workspace(self):
        if self._ws is None:
            self._ws = Workspace(self.size, max_solutions=2)
        return self._ws

    def warm_up(self) -> None:
        """Compile (or load from cache) the kernels and load Z3; cheap when already done."""
        global _KERNELS_LOADED
        _KERNELS_LOADED = True
        ws = self._workspace()
        start, goal = 0, ws.n - 1
        adj, req = ws.arrays(start, goal, [], [])
        ws.count(start, goal, adj, req, 2, 1000)
        ws.profile(start, goal, adj, req, list(range(self.size)) + [ws.n - 1])
        solve_path(3, (0, 0), (2, 2), 9, seed=0)

    def generate(self, seed: int, time_limit: float | None = None,
                 cancel: Cancel | None = None) -> Puzzle:
        """A puzzle whose master board has exactly one solution, reproducible from ``seed``.

        ``time_limit`` (seconds, default None: no limit) bounds the call: reaching it
        raises :class:`~levelforge.GenerationError` naming the limit; setting ``cancel``
        (a :class:`~levelforge.Cancel`, from another thread or process) raises
        :class:`~levelforge.Cancelled`. Z3 gets the time left as its timeout and is
        interrupted on a cancel; the counting DFS looks at both every 1024 nodes. A
        puzzle made within the limit is the puzzle made without it.

        >>> from levelforge import GenerationError
        >>> try:
        ...     Generator(9).generate(1, time_limit=0.001)
        ... except GenerationError as e:
        ...     print(str(e).split(": ")[-1])
        stopped at the time limit of 0.001 s
        """
        seed = check_seed(seed)
        if not _KERNELS_LOADED:  # once per process, outside the timing
            self.warm_up()
        t_all = now_ns()
        limit = Limit(time_limit, cancel, t_all)
        run = _Run(self, seed, limit)
        with limit.watch(run.ws.stats, _paths.S_HALT):
            puzzle = run.build()
        return Puzzle(**puzzle, elapsed_ms=ms_since(t_all))

    @staticmethod
    def summarize(records: Sequence[Mapping[str, Any]]) -> dict[str, float]:
        """Batch figures from puzzle dicts (``Puzzle.to_dict()``), each a mean over the
        puzzles (shares are means of per-puzzle fractions), so the batch layer can merge
        the figures of any number of chunks exactly by weighting them with their counts.

        >>> Generator.summarize([generate(4, seed=1).to_dict()])["mean_path_points"]
        15.0
        """
        if not records:
            return {}
        tm = [r.get("timings", {}) for r in records]
        df = [r.get("difficulty", {}) for r in records]
        total = [r.get("elapsed_ms", 0.0) or 1.0 for r in records]

        def mean(values):
            return float(np.mean(list(values)))

        return {
            "mean_ms": mean(r.get("elapsed_ms", 0.0) for r in records),
            "mean_path_ms": mean(t.get("path", 0.0) for t in tm),
            "mean_uniqueness_ms": mean(t.get("uniqueness", 0.0) for t in tm),
            "mean_reduction_ms": mean(t.get("reduction", 0.0) for t in tm),
            "z3_share": mean(t.get("z3", 0.0) / w for t, w in zip(tm, total)),
            "dfs_share": mean(t.get("dfs", 0.0) / w for t, w in zip(tm, total)),
            "mean_path_points": mean(d.get("path_points", 0) for d in df),
            "mean_required": mean(d.get("required", 0) for d in df),
            "mean_forbidden": mean(d.get("forbidden", 0) for d in df),
            "mean_branch_points": mean(d.get("branch_points", 0) for d in df),
            "mean_proof_nodes": mean(d.get("proof_nodes", 0) for d in df),
            "share_split_ok": mean(not d.get("a_alone_unique", False)
                                   and not d.get("b_alone_unique", False) for d in df),
        }


_KERNELS_LOADED = False


def generate(size: int, seed: int = 0, strategy: Strategy | str | None = None, *,
             rlimit: int = 3_000_000, max_nodes: int = 200_000,
             required_share: float = 0.3, time_limit: float | None = None,
             cancel: Cancel | None = None) -> Puzzle:
    """One symmetry puzzle of ``size`` x ``size`` from ``seed`` (default 0, like every
    levelforge seed; see :class:`Generator` for the options, and
    :meth:`Generator.generate` for ``time_limit`` and ``cancel``).

    >>> generate(4).seed
    0
    >>> p = generate(5, seed=42, strategy="DIAGONAL")
    >>> p.board_b.start == (4 - p.board_a.start[0], p.board_a.start[1])
    True
    """
    return Generator(size, strategy, rlimit=rlimit, max_nodes=max_nodes,
                     required_share=required_share).generate(seed, time_limit, cancel)


class _Run:
    """The state of one generation (flat point indices throughout)."""

    def __init__(self, gen, seed, limit):
        self.gen = gen
        self.seed = seed
        self.limit = limit
        self.size = gen.size
        self.ws = gen._workspace()
        self.rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(0x5113,)))
        self.timings = {"path": 0.0, "required": 0.0, "uniqueness": 0.0, "reduction": 0.0,
                        "proof": 0.0, "split": 0.0, "z3": 0.0, "dfs": 0.0}
        self.dfs_nodes = 0

    # -- helpers -------------------------------------------------------------------
    def _count(self, required, forbidden, limit=2):
        if self.limit.reason() is not None:  # a short run never looks at the halt slot
            self._stopped()
        t = now_ns()
        adj, req = self.ws.arrays(self.s, self.g, required, forbidden)
        res = self.ws.count(self.s, self.g, adj, req, limit, self.gen.max_nodes)
        self.timings["dfs"] += ms_since(t)
        self.dfs_nodes += res.nodes
        if res.status == HALTED:
            self._stopped()
        return res

    def _stopped(self):
        raise_stopped(self.limit, f"no {self.size}x{self.size} symmetry puzzle (seed {self.seed})")

    def _unique(self, required, forbidden):
        res = self._count(required, forbidden)
        return res.status == EXACT and res.count == 1

    # -- stages ----------------------------------------------------------------------
    def build(self):
        n, rng = self.size, self.rng
        strategy = self.gen.strategy or _STRATEGIES[int(rng.integers(len(_STRATEGIES)))]
        t = now_ns()
        path, waypoints, attempts, rl_used = self._answer(strategy)
        self.timings["path"] = ms_since(t)
        ix = lambda p: p[1] * n + p[0]  # noqa: E731
        flat = [ix(p) for p in path]
        self.s, self.g = flat[0], flat[-1]

        t = now_ns()
        required, trap_pairs = self._required(flat)
        self.timings["required"] = ms_since(t)

        t = now_ns()
        required, forbidden, rounds, caps, drops = self._forbid_until_unique(flat, required)
        self.timings["uniqueness"] = ms_since(t)

        t = now_ns()
        required, forbidden = self._reduce(required, forbidden, trap_pairs)
        self.timings["reduction"] = ms_since(t)

        t = now_ns()
        proof = self._count(required, forbidden)
        if not (proof.status == EXACT and proof.count == 1):
            raise GenerationError(f"seed {self.seed}: uniqueness lost after reduction")
        adj, req = self.ws.arrays(self.s, self.g, required, forbidden)
        prof = self.ws.profile(self.s, self.g, adj, req, flat)
        self.timings["proof"] = ms_since(t)

        t = now_ns()
        board_a, board_b, a_uni, b_uni = self._split(required, forbidden)
        self.timings["split"] = ms_since(t)

        difficulty = {
            "path_points": len(flat),
            "longest_possible": longest_path_points(n, path[0], path[-1]),
            "z3_attempts": attempts,
            "z3_rlimit": rl_used,
            "required": len(required),
            "forbidden": len(forbidden),
            "alternatives_removed": rounds,
            "node_cap_rounds": caps,
            "trap_pairs_dropped": drops,
            "trap_pairs": len(self._traps(self._chords(flat), required)),
            "branch_points": prof[0],
            "viable_branch_points": prof[1],
            "viable_alternatives": prof[2],
            "proof_nodes": proof.nodes,
            "dfs_nodes_total": self.dfs_nodes,
            "a_alone_unique": a_uni,
            "b_alone_unique": b_uni,
        }
        return dict(size=n, board_a=board_a, board_b=board_b, solution=tuple(path),
                    seed=self.seed, strategy=strategy.value, waypoints=tuple(waypoints),
                    timings=self.timings, difficulty=difficulty, config=self.gen.to_dict())

    def _answer(self, strategy):
        """Stage 1: the longest answer path Z3 finds within the resource limit."""
        n, rng = self.size, self.rng
        cells = n * n
        a = int(rng.integers(cells))
        b = int(rng.integers(cells - 1))
        b += b >= a
        start, goal = (a % n, a // n), (b % n, b // n)
        pool = [p for p in _waypoint_pool(n, strategy, rng) if p not in (start, goal)]
        k = min(int(rng.integers(1, 4)), len(pool))
        head = pool[:max(k, min(len(pool), 4))]
        picks = rng.permutation(len(head))[:k]
        waypoints = [head[i] for i in sorted(picks)]
        z3_seed = int(rng.integers(2**31))
        shortest = abs(start[0] - goal[0]) + abs(start[1] - goal[1]) + 1
        attempts = 0
        for wps in (waypoints, []):
            length = longest_path_points(n, start, goal)
            while length >= shortest:
                attempts += 1
                if self.limit.reason() is not None:
                    self._stopped()
                res = solve_path(n, start, goal, length, wps, seed=z3_seed,
                                 rlimit=self.gen.rlimit, limit=self.limit)
                self.timings["z3"] += res.build_ms + res.check_ms
                if res.status != SAT and self.limit.reason() is not None:
                    self._stopped()
                if res.status == SAT:
                    return res.path, wps, attempts, res.rlimit_used
                length -= 2
        raise GenerationError(f"seed {self.seed}: no answer path from {start} to {goal} "
                              f"within Z3 rlimit {self.gen.rlimit}")

    def _required(self, flat):
        """Stage 2: trap pairs, then corners of the path, then straight points. Returns
        the required points and the chosen trap pairs."""
        n, rng = self.size, self.rng
        pos = {p: i for i, p in enumerate(flat)}
        inner = range(1, len(flat) - 1)
        target = int(round(self.gen.required_share * len(flat)))
        traps = []
        for i in inner:
            p = flat[i]
            x, y = p % n, p // n
            for q in ((p + 1) if x < n - 1 else -1, (p + n) if y < n - 1 else -1):
                j = pos.get(q, -1)
                if 0 < j < len(flat) - 1 and abs(i - j) >= 3:
                    traps.append((abs(i - j), p, q))
        traps.sort(key=lambda t: -t[0])
        far = traps[:max(1, len(traps) // 3)]
        chosen = []
        for idx in rng.permutation(len(far))[:max(1, target // 6)]:
            chosen += [far[idx][1], far[idx][2]]
        trap_pairs = [(chosen[i], chosen[i + 1]) for i in range(0, len(chosen), 2)]
        corners, straight = [], []
        for i in inner:
            a, b, c = flat[i - 1], flat[i], flat[i + 1]
            (corners if b - a != c - b else straight).append(b)
        for group, share in ((corners, 0.8), (straight, 1.0)):
            for idx in rng.permutation(len(group)):
                if len(set(chosen)) >= max(1, int(round(share * target))):
                    break
                chosen.append(group[idx])
        return sorted(set(chosen)), trap_pairs

    def _chords(self, flat):
        """Lattice edges (sorted pairs) joining two answer points that are not consecutive
        on the answer. Once both ends are required, a chord is a trap pair's edge."""
        n = self.size
        pos = {p: i for i, p in enumerate(flat)}
        out = set()
        for i, p in enumerate(flat):
            for q in ((p + 1) if p % n < n - 1 else -1, p + n if p + n < n * n else -1):
                j = pos.get(q, -1)
                if j >= 0 and abs(i - j) > 1:
                    out.add((p, q))
        return out

    @staticmethod
    def _traps(chords, required):
        """The trap pairs' edges: chords with both ends required (never forbidden)."""
        req = set(required)
        return {e for e in chords if e[0] in req and e[1] in req}

    @staticmethod
    def _may_require(p, chords, required, forbidden):
        """Whether ``p`` can become required without turning a forbidden edge into a trap
        pair's edge."""
        req = set(required)
        return not any(p in e and (e[0] if e[1] == p else e[1]) in req
                       for e in chords if e in forbidden)

    def _forbid_until_unique(self, flat, required, forbidden=()):
        """Stage 3: forbid an edge of each alternative the DFS finds, until unique
        (``forbidden``: edges forbidden from the start, as a designer's; see
        :func:`levelforge.symmetry.finish`).

        The design's rule: the edge joining a trap pair (two required points that are
        lattice neighbours but not consecutive on the answer) is never forbidden, since a
        forbidden edge there would announce the trap. When an alternative uses no other
        edge off the answer, a point of the answer it misses becomes required (when that
        creates no forbidden trap edge); when it misses none, one point of a trap pair it
        uses stops being required (the pair is dropped, not the rule) and is never required
        again. Returns ``(required, forbidden, rounds, caps, dropped_pairs)``."""
        rng = self.rng
        answer_edges = {tuple(sorted(e)) for e in zip(flat, flat[1:])}
        chords = self._chords(flat)
        forbidden = set(forbidden)
        required = list(required)
        dropped = set()
        rounds = caps = drops = 0

        def requirable(points):
            return [p for p in points if p not in required and p not in dropped
                    and self._may_require(p, chords, required, forbidden)]

        while True:
            count, _, status, sols = self._count(required, forbidden)  # a CountResult
            if status == EXACT:
                if count == 1:
                    return required, sorted(forbidden), rounds, caps, drops
                raise GenerationError(f"seed {self.seed}: the answer is not a solution")
            keep = answer_edges | self._traps(chords, required)
            if status == NODE_CAP:
                # Too open to settle within the node cap. The search tree is widest near
                # the start, so pin an answer point and forbid a non-answer edge there.
                early = flat[:max(2, len(flat) // 3)]
                free = requirable(early[1:])
                if free:
                    required.append(free[int(rng.integers(len(free)))])
                    required.sort()
                    keep = answer_edges | self._traps(chords, required)
                cands = self._spare_edges(early, keep, forbidden)
                if not cands:
                    cands = self._spare_edges(flat, keep, forbidden)
                if not cands and not free:
                    raise GenerationError(f"seed {self.seed}: DFS node cap "
                                          f"{self.gen.max_nodes} reached")
                if cands:
                    forbidden.add(cands[int(rng.integers(len(cands)))])
                caps += 1
                continue
            alt = next(s for s in sols if s != flat)
            # The answer's own edges are never forbidden, so start and goal stay connected
            # whichever of these edges is chosen.
            alt_edges = {tuple(sorted(e)) for e in zip(alt, alt[1:])}
            cands = sorted(alt_edges - keep)
            if cands:
                forbidden.add(cands[int(rng.integers(len(cands)))])
                rounds += 1
                continue
            on_alt = set(alt)
            missed = requirable(p for p in flat if p not in on_alt)
            if missed:
                required.append(missed[int(rng.integers(len(missed)))])
                required.sort()
                continue
            pairs = sorted(alt_edges & (keep - answer_edges))
            pair = pairs[int(rng.integers(len(pairs)))]
            p = pair[int(rng.integers(2))]
            required.remove(p)
            dropped.add(p)
            drops += 1

    def _spare_edges(self, points, keep, forbidden):
        """Edges touching ``points`` that are neither in ``keep`` nor forbidden."""
        n = self.size
        out = set()
        for p in points:
            x, y = p % n, p // n
            for q, ok in ((p - n, y > 0), (p - 1, x > 0), (p + 1, x < n - 1),
                          (p + n, y < n - 1)):
                e = (min(p, q), max(p, q))
                if ok and e not in keep and e not in forbidden:
                    out.add(e)
        return sorted(out)

    def _reduce(self, required, forbidden, trap_pairs):
        """Stage 4: drop each forbidden edge, then each required point, if still unique.
        The points of a trap pair chosen in stage 2 stay while both are required (the
        design's reduction removes forbidden edges only; its trap pairs come first)."""
        rng = self.rng
        forbidden = list(forbidden)
        required = list(required)
        for e in [forbidden[i] for i in rng.permutation(len(forbidden))]:
            trial = [f for f in forbidden if f != e]
            if self._unique(required, trial):
                forbidden = trial
        for p in [required[i] for i in rng.permutation(len(required))]:
            if any(p in pair and pair[0] in required and pair[1] in required
                   for pair in trap_pairs):
                continue
            trial = [q for q in required if q != p]
            if self._unique(trial, forbidden):
                required = trial
        return sorted(required), sorted(forbidden)

    def _split(self, required, forbidden, tries=8):
        """Stage 5: share the conditions between A and B (B mirrored), so that neither
        board alone is proved unique when that can be arranged within ``tries``."""
        n, rng = self.size, self.rng
        m = len(required) + len(forbidden)
        pt = lambda i: (i % n, i // n)  # noqa: E731
        req_pts = [pt(p) for p in required]
        forb_pts = [(pt(a), pt(b)) for a, b in forbidden]
        best = None
        for _ in range(tries):
            to_b = rng.integers(2, size=m).astype(bool)
            if m >= 2 and (to_b.all() or not to_b.any()):
                to_b[int(rng.integers(m))] ^= True
            a_alone = self._unique([p for i, p in enumerate(required) if not to_b[i]],
                                   [e for i, e in enumerate(forbidden)
                                    if not to_b[len(required) + i]])
            b_alone = self._unique([p for i, p in enumerate(required) if to_b[i]],
                                   [e for i, e in enumerate(forbidden)
                                    if to_b[len(required) + i]])
            score = int(a_alone) + int(b_alone)
            if best is None or score < best[0]:
                best = (score, to_b, a_alone, b_alone)
            if score == 0:
                break
        _, to_b, a_alone, b_alone = best
        a_req, a_forb, b_req, b_forb = split_items(n, req_pts, forb_pts, to_b)
        start, goal = pt(self.s), pt(self.g)
        board_a = Board(n, start, goal, a_req, a_forb)
        board_b = Board(n, (n - 1 - start[0], start[1]), (n - 1 - goal[0], goal[1]),
                        b_req, b_forb)
        return board_a, board_b, bool(a_alone), bool(b_alone)
