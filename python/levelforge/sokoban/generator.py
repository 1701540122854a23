"""The reverse-play Sokoban generator: pull boxes away from their goals, measure the
push-optimal length while pulling, stop inside the target range.

>>> from levelforge.sokoban import generate
>>> result = generate(7, width=7, height=7, boxes=2, pushes=(4, 8))
>>> result.in_target, 4 <= result.pushes <= 8, result.level.width
(True, True, 7)
"""
from __future__ import annotations

import math
import statistics
from collections import OrderedDict
from typing import Any, Literal, Mapping, Sequence

import numpy as np

from ..engine import sokoban_state as _s
from ..engine import sokoban_generator as _g
from ..cancel import Cancel, Limit, raise_stopped
from ..errors import ConfigError, GenerationError
from ..seeding import check_seed, kernel_seed
from ..timing import ms_since, now_ns
from .level import MAX_SIDE, Level
from .result import Attempts, GenerateResult, bounded_int
from .solver import MAX_BOXES, MAX_NODES, Workspace


def _push_range(pushes):
    if isinstance(pushes, str):
        parts = pushes.split("-")
        if len(parts) != 2 or not all(p.strip().isdigit() for p in parts):
            raise ConfigError(f"pushes must look like LO-HI, got {pushes!r}")
        pushes = (int(parts[0]), int(parts[1]))
    try:
        lo, hi = pushes
    except (TypeError, ValueError):
        raise ConfigError(f"pushes must be a pair (lo, hi), got {pushes!r}") from None
    lo = bounded_int("pushes lo", lo, 1, _s.MAX_G - 1)
    hi = bounded_int("pushes hi", hi, 1, _s.MAX_G - 1)
    if lo > hi:
        raise ConfigError(f"pushes: lo must not exceed hi, got {lo}-{hi}")
    return lo, hi


_DEFAULTS: dict[str, Any] = {"rebuilds": 40, "every": 1, "node_cap": 50_000, "spread": True}
RULES: dict[str, dict[str, Any]] = {
    "design": {"rebuilds": 10, "every": 2, "node_cap": 20_000, "spread": False}}
"""Named presets of :class:`Generator` settings: ``"design"`` is the source design's
generator (10 rebuilds, solver cap 20,000, a measurement every 2 pulls, stop at the first
length in range)."""


class Generator:
    """A configured generator with its own work arrays (picklable; arrays rebuilt lazily).

    ``width`` and ``height`` include the outer wall (a 7x7 board has a 5x5 floor); each
    is 3 to ``MAX_SIDE`` (64). ``boxes`` is 1 to ``MAX_BOXES`` (128) and below the floor
    size.
    ``pushes=(lo, hi)`` is the target range of the push-optimal length. The generator
    builds the solved room (border walls, ``inner_walls`` random inner walls that keep
    the floor connected, a box on every goal, the player on a free cell), then walks and
    pulls at random. After ``skip`` pulls (default ``lo``: the optimum cannot exceed the
    pull count) it measures the optimum every ``every`` pulls with the solver capped at
    ``node_cap`` states: inside the range it stops; past ``hi``, at the cap (unknown, not
    unsolvable) or after ``max_pulls`` pulls it leaves the board. Up to ``rebuilds``
    boards, then the closest solvable candidate, then fewer inner walls; only then
    :class:`~levelforge.GenerationError`.

    The optimum grows by at most one push per pull, so stopping as soon as it enters the
    range (``spread=False``, the source design's rule) gives exactly ``lo`` pushes every
    time. The default ``spread=True`` draws an aim uniformly in ``[lo, hi]`` from the seed
    and pulls on until the optimum reaches it (a board that falls short but reached the
    range still counts as in target), so lengths spread over the whole range.

    ``rules="design"`` takes the source design's generator as it is (:data:`~levelforge.sokoban.generator.RULES`):
    10 rebuilds, solver cap 20,000, measuring every 2 pulls after the first ``lo``
    (the design skips "the early pulls" without a number; below ``lo`` pulls the
    optimum cannot be in range), stopping at the first length in range. Arguments
    given explicitly override the preset. Why the defaults differ, as measured by
    ``asv_bench/report_sokoban_design.py`` (README): ``spread`` (the design's rule gives
    one length, ``lo``, on every level), ``every=1`` (every 2 pulls reaches fewer
    distinct lengths), 40 rebuilds (10 missed the target on 1 of 100 10x10 levels). The
    50,000 cap made no difference there; it only costs time where a search reaches it.

    ``method="farthest"`` takes the farthest-state generator instead
    (:class:`~levelforge.sokoban.farthest.FarthestGenerator`: rooms of kind ``room``,
    default ``"templates"``, searched backward over pulls, a start state picked by its
    exact distance); only then may ``effort=(lo, hi)`` (the solver's stored states) be
    a target and ``pushes`` be None. The pull generator's own settings do not apply.

    >>> gen = Generator(width=7, height=7, boxes=2, pushes=(4, 8))
    >>> gen.generate(1).pushes == gen.generate(1).pushes
    True
    >>> d = Generator(rules="design")
    >>> d.rebuilds, d.node_cap, d.every, d.spread, d.skip
    (10, 20000, 2, False, 4)
    """

    def __init__(self, width: int = 7, height: int = 7, boxes: int = 2,
                 pushes: tuple[int, int] | list[int] | str | None = (4, 8), inner_walls: int = 0,
                 rebuilds: int | None = None, max_pulls: int | None = None,
                 every: int | None = None, node_cap: int | None = None,
                 skip: int | None = None, spread: bool | None = None,
                 rules: Literal["design"] | None = None,
                 method: Literal["pulls", "farthest"] = "pulls",
                 effort: tuple[int, int] | list[int] | str | None = None,
                 room: Literal["templates", "carved", "open"] | None = None) -> None:
        self.method = method
        self._farthest = None
        if method == "farthest":
            from .farthest import FarthestGenerator  # only this method loads its module

            f = self._farthest = FarthestGenerator(width, height, boxes, pushes, effort,
                                                   room or "templates", inner_walls)
            self.width, self.height, self.boxes, self.pushes = f.width, f.height, f.boxes, \
                f.pushes
            self.inner_walls, self.effort, self.room, self.rules = f.inner_walls, f.effort, \
                f.room, None
            if self.pushes is not None:
                _check_reachable(self)
            return
        if method != "pulls" or effort is not None or room is not None:
            raise ConfigError(f"method must be 'pulls' or 'farthest', got {method!r}"
                              if method != "pulls" else
                              "effort and room need method='farthest'")
        if rules is not None and rules not in RULES:
            raise ConfigError(f"rules must be None or one of {sorted(RULES)}, got {rules!r}")
        preset = {**_DEFAULTS, **(RULES[rules] if rules is not None else {})}
        rebuilds = preset["rebuilds"] if rebuilds is None else rebuilds
        every = preset["every"] if every is None else every
        node_cap = preset["node_cap"] if node_cap is None else node_cap
        spread = preset["spread"] if spread is None else spread
        self.rules = rules
        self.width = bounded_int("width", width, 3, MAX_SIDE)
        self.height = bounded_int("height", height, 3, MAX_SIDE)
        floor = (self.width - 2) * (self.height - 2)
        self.boxes = bounded_int("boxes", boxes, 1, min(MAX_BOXES, max(1, floor - 1)))
        self.inner_walls = bounded_int("inner_walls", inner_walls, 0, max(0, floor - self.boxes - 1))
        self.pushes = _push_range(pushes)
        self.rebuilds = bounded_int("rebuilds", rebuilds, 1, 1_000_000)
        default_pulls = max(3 * self.pushes[1], self.pushes[1] + 10)
        self.max_pulls = bounded_int("max_pulls", default_pulls if max_pulls is None else max_pulls,
                              1, 100_000)
        self.skip = bounded_int("skip", self.pushes[0] if skip is None else skip, 0, 1_000_000)
        self.every = bounded_int("every", every, 1, 1_000_000)
        self.node_cap = bounded_int("node_cap", node_cap, 1, MAX_NODES)
        if not isinstance(spread, (bool, np.bool_)):
            raise ConfigError(f"spread must be True or False, got {spread!r}")
        self.spread = bool(spread)
        self._ws = None
        _check_reachable(self)

    def to_dict(self) -> dict[str, Any]:
        """The configuration as a JSON-ready dict (``Generator(**d)`` rebuilds it); a
        preset's name is kept under ``rules`` (its settings are all in the dict too)."""
        if self._farthest is not None:
            f = self._farthest.to_dict()
            return {k: f[k] for k in ("method", "width", "height", "boxes", "pushes",
                                      "inner_walls", "effort", "room")}
        d = {"width": self.width, "height": self.height, "boxes": self.boxes,
             "pushes": list(self.pushes), "inner_walls": self.inner_walls,
             "rebuilds": self.rebuilds, "max_pulls": self.max_pulls, "every": self.every,
             "node_cap": self.node_cap, "skip": self.skip, "spread": self.spread}
        if self.rules is not None:
            d["rules"] = self.rules
        return d

    def __repr__(self):
        args = ", ".join(f"{k}={v!r}" for k, v in self.to_dict().items())
        return f"Generator({args})"

    def __getstate__(self):
        return self.to_dict()

    def __setstate__(self, state):
        self.__init__(**state)

    def _workspace(self):
        if self._ws is None:
            n = self.width * self.height
            # room for node_cap states: a capped search never asks to grow
            ws = Workspace().ensure(n, self.boxes, self.node_cap + 4 * self.boxes + 1)
            ws.gen = (np.zeros(n, np.uint8), np.zeros(n, np.uint8), np.zeros(n, np.uint8),
                      np.zeros((self.boxes, 4 * n), np.int32), np.zeros(self.boxes, np.int32),
                      np.zeros(n, np.int32), np.zeros(4 * n, np.int32))
            ws.best = (np.zeros(n, np.uint8), np.zeros(n, np.uint8),
                       np.zeros(self.boxes, np.int32), np.zeros(16, np.int64),
                       np.zeros((self.max_pulls + 1) * (n + 1), np.uint8))
            ws.rng = np.zeros(1, np.uint64)
            self._ws = ws
        return self._ws

    def warm_up(self) -> Generator:
        """Compile (or load from cache) the kernels and allocate the work arrays."""
        if self._farthest is not None:
            self._farthest.warm_up()
            return self
        self.generate(0)
        return self

    def generate(self, seed: int, time_limit: float | None = None,
                 cancel: Cancel | None = None) -> GenerateResult:
        """One level from ``seed`` (same seed, same level, in any process).

        ``time_limit`` (seconds, default None: no limit) bounds the call: reaching it
        raises :class:`~levelforge.GenerationError` naming the limit; setting ``cancel``
        (a :class:`~levelforge.Cancel`, from another thread or process) raises
        :class:`~levelforge.Cancelled`. The kernel looks at both on every pull, in a
        board's push distances and in the solver before each push it tries, so the call
        ends within milliseconds of the limit. A level made within the limit is the
        level made without it.

        >>> from levelforge import GenerationError
        >>> try:
        ...     Generator(width=30, height=30, boxes=20, pushes=(200, 300)).generate(
        ...         1, time_limit=0.05)
        ... except GenerationError as e:
        ...     print(str(e).split(": ")[-1])
        stopped at the time limit of 0.05 s
        """
        if self._farthest is not None:
            return self._farthest.generate(seed, time_limit=time_limit, cancel=cancel)
        seed = check_seed(seed)
        if not _KERNELS_LOADED:  # once per process, outside the timing
            _load_kernels()
        start = now_ns()
        limit = Limit(time_limit, cancel, start)
        ws = self._workspace()
        ws.rng[0] = kernel_seed(seed)
        lo, hi = self.pushes
        aim = lo + int(kernel_seed(seed, 1) % np.uint64(hi - lo + 1)) if self.spread else lo
        walls, goals, dead, dist, goal_cells, cells, cand = ws.gen
        best_walls, best_goals, best_boxes, stats, out = ws.best
        with limit.watch(ws.ctr, _s.C_HALT):
            status = _g.generate_level(
                self.width, self.height, self.boxes, self.inner_walls, lo, hi, aim, self.skip,
                self.rebuilds, self.max_pulls, self.every, self.node_cap, ws.rng, ws.zob,
                walls, goals, dead, dist, goal_cells, cells, cand, ws.sides, ws.lab,
                *ws.search_arrays(),
                ws.prev, ws.chain, best_walls, best_goals, best_boxes, stats, out)
        if status == 3:
            raise_stopped(limit, f"no {self.width}x{self.height} level with {self.boxes} "
                                 f"box{'es' if self.boxes != 1 else ''} (seed {seed})")
        if status == 0:
            raise GenerationError(
                f"no solvable {self.width}x{self.height} board with {self.boxes} "
                f"box{'es' if self.boxes != 1 else ''} found "
                f"in {int(stats[3])} boards (seed {seed}, every inner-wall count down to 0)")
        boxes = np.zeros(self.width * self.height, np.uint8)
        boxes[best_boxes] = 1
        level = Level.from_arrays(self.width, self.height, best_walls, best_goals, boxes,
                                  int(stats[0]))
        solution = out[:stats[2]].tobytes().decode("ascii")
        border = 2 * (self.width + self.height) - 4
        attempts = Attempts(int(stats[3]), int(stats[4]), int(stats[5]), int(stats[8]),
                            int(stats[6]), int(best_walls.sum()) - border, status != 1)
        return GenerateResult(level, int(stats[1]), solution, status == 1, seed,
                              ms_since(start), attempts, self.to_dict())

    @staticmethod
    def summarize(records: Sequence[Mapping[str, Any]]) -> dict[str, float]:
        """Domain figures of ``GenerateResult.to_dict()`` records, each a mean over the
        levels (so the batch layer merges chunks exactly): in-target share, mean pushes
        and moves, share of closest-candidate fallbacks, mean solver calls.

        >>> Generator.summarize([generate(s).to_dict() for s in range(4)])['in_target_share']
        1.0
        """
        if not records:
            return {}
        n = len(records)
        return {"in_target_share": sum(bool(r["in_target"]) for r in records) / n,
                "mean_pushes": statistics.fmean(r["pushes"] for r in records),
                "mean_moves": statistics.fmean(r["moves"] for r in records),
                "fallback_share": sum(bool(r["attempts"]["fallback"]) for r in records) / n,
                "mean_solver_calls": statistics.fmean(r["attempts"]["solver_calls"]
                                                      for r in records)}


def _check_reachable(gen):
    """Refuse a push range no board of the generator's size can reach
    (:class:`ConfigError`): a push-optimal solution never repeats a state, and after
    each push the player stands next to a box, so on ``F`` floor cells with ``B`` boxes
    no optimum exceeds ``C(F, B) * min(F - B, 4 B)`` pushes. (A reachable range the
    settings miss, such as ``lo`` above ``max_pulls``, gives the closest candidate.)"""
    lo = gen.pushes[0]
    floor = (gen.width - 2) * (gen.height - 2)
    most = math.comb(floor, gen.boxes) * min(floor - gen.boxes, 4 * gen.boxes)
    if lo > most:
        raise ConfigError(f"pushes {lo}-{gen.pushes[1]}: no {gen.width}x{gen.height} board "
                          f"with {gen.boxes} box{'es' if gen.boxes != 1 else ''} needs more "
                          f"than {most} pushes (it has no more distinct positions)")


_KERNELS_LOADED = False


def _load_kernels():
    """Compile (cold cache) or load the generator kernels once per process, so that no
    level's ``elapsed_ms`` (or time limit) pays for it: on a tiny board, since the
    caller's configuration may take long without a limit."""
    global _KERNELS_LOADED
    _KERNELS_LOADED = True
    Generator(width=5, height=5, boxes=1, pushes=(1, 2)).generate(0)


# the few most recent configurations and their work arrays
_GENERATORS: OrderedDict[tuple[tuple[str, Any], ...], Generator] = OrderedDict()
_GENERATORS_KEPT = 8


def generate(seed: int = 0, *, width: int = 7, height: int = 7, boxes: int = 2,
             pushes: tuple[int, int] | list[int] | str | None = (4, 8), inner_walls: int = 0,
             rebuilds: int = 40, max_pulls: int | None = None, every: int = 1,
             node_cap: int = 50_000, skip: int | None = None,
             spread: bool = True, method: Literal["pulls", "farthest"] = "pulls",
             effort: tuple[int, int] | list[int] | str | None = None,
             room: Literal["templates", "carved", "open"] | None = None,
             time_limit: float | None = None, cancel: Cancel | None = None) -> GenerateResult:
    """One level from ``seed`` (default 0, like every levelforge seed) with a cached
    :class:`Generator` of this configuration (see it for the options; the last few
    configurations keep their work arrays between calls). ``time_limit`` (seconds,
    default None: no limit) and ``cancel`` stop the call as in
    :meth:`Generator.generate`; a push range no board of this size can reach is
    refused at once (:class:`~levelforge.ConfigError`).

    >>> r = generate(5, width=7, height=7, boxes=2, pushes=(4, 8))
    >>> r.level.to_xsb() == generate(5, width=7, height=7, boxes=2, pushes=(4, 8)).level.to_xsb()
    True
    """
    gen = Generator(width=width, height=height, boxes=boxes, pushes=pushes,
                    inner_walls=inner_walls, rebuilds=rebuilds, max_pulls=max_pulls,
                    every=every, node_cap=node_cap, skip=skip, spread=spread,
                    method=method, effort=effort, room=room)
    key = tuple(sorted((k, tuple(v) if isinstance(v, list) else v)
                       for k, v in gen.to_dict().items()))
    gen = _GENERATORS.setdefault(key, gen)
    _GENERATORS.move_to_end(key)
    while len(_GENERATORS) > _GENERATORS_KEPT:
        _GENERATORS.popitem(last=False)
    return gen.generate(seed, time_limit=time_limit, cancel=cancel)


CAMPAIGN_STAGES = (
    # width, height, boxes, inner walls, target pushes: set between the median and the
    # 90th percentile of the longest optimum 60 pulls reach on one board (README table)
    (6, 6, 1, 0, (2, 4)),
    (6, 6, 2, 0, (3, 6)),
    (7, 7, 2, 0, (5, 8)),
    (7, 7, 2, 2, (5, 8)),
    (7, 7, 3, 2, (6, 9)),
    (8, 8, 3, 2, (8, 12)),
    (8, 8, 3, 4, (8, 12)),
)
"""The campaign's configurations, easiest first."""
LEVELS_PER_STAGE = 10
"""Campaign levels per stage; after the last stage the campaign stays there."""


EFFORT_CAMPAIGN_STAGES = (
    # width, height, boxes, target effort (stored states of the push-optimal solve):
    # bands each configuration reaches with method="farthest" (measured, see the guide)
    (6, 6, 1, (2, 8)),
    (6, 6, 2, (10, 20)),
    (7, 7, 2, (20, 40)),
    (7, 7, 3, (30, 80)),
    (8, 8, 3, (80, 200)),
    (9, 9, 3, (120, 300)),
    (10, 10, 4, (300, 2500)),
)
"""The effort-ramped campaign's configurations (``campaign(index, ramp="effort")``)."""


def campaign(index: int, ramp: Literal["pushes", "effort"] = "pushes") -> dict[str, Any]:
    """The generator configuration of campaign level ``index`` (0-based), as keyword
    arguments for :func:`generate` / :class:`Generator`: ten levels per stage of
    :data:`~levelforge.sokoban.generator.CAMPAIGN_STAGES`, from 6x6 with 1 box up to 8x8 with 3 boxes and 4 inner walls.
    ``ramp="effort"`` ramps the solver's measured effort instead
    (:data:`~levelforge.sokoban.generator.EFFORT_CAMPAIGN_STAGES`, ``method="farthest"``,
    from 6x6 with 1 box up to 10x10 with 4 boxes).

    >>> campaign(0)
    {'width': 6, 'height': 6, 'boxes': 1, 'inner_walls': 0, 'pushes': (2, 4)}
    >>> generate(0, **campaign(65)).level.width
    8
    >>> campaign(12, ramp="effort")["effort"]
    (10, 20)
    """
    index = bounded_int("index", index, 0, 2**63 - 1)
    if ramp == "effort":
        w, h, b, effort = EFFORT_CAMPAIGN_STAGES[min(index // LEVELS_PER_STAGE,
                                                     len(EFFORT_CAMPAIGN_STAGES) - 1)]
        return {"width": w, "height": h, "boxes": b, "pushes": None, "effort": effort,
                "method": "farthest"}
    if ramp != "pushes":
        raise ConfigError(f"ramp must be 'pushes' or 'effort', got {ramp!r}")
    w, h, b, iw, pushes = CAMPAIGN_STAGES[min(index // LEVELS_PER_STAGE,
                                              len(CAMPAIGN_STAGES) - 1)]
    return {"width": w, "height": h, "boxes": b, "inner_walls": iw, "pushes": pushes}
