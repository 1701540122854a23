"""The game: placement checks, deterministic waves, per-wave records, retry and restart.

>>> d = Defense(Scenario.lighthouse(), seed=0)
>>> d.check_placement(3, 7, "cannon").code
'none'
>>> d.place(3, 7, "cannon"); d.material
6
>>> d.run_wave().outcome in ("won", "lost")
True
"""
from __future__ import annotations

from dataclasses import asdict, dataclass

import numpy as np

from ..engine import defense as k
from ..engine.grid import bfs_distance
from ..cells import integer_cell
from ..errors import ConfigError, InvalidMoveError
from ..seeding import check_seed
from .pathing import CutWorkspace
from .scenario import BUILDINGS, ENTRANCES, KINDS, Scenario, WaveForecast

BUILD, FIGHT, DEFEAT, VICTORY = "build", "fight", "defeat", "victory"
_STATUS = {k.W_RUNNING: "running", k.W_WON: "won", k.W_LOST: "lost"}


@dataclass(frozen=True)
class PlacementError:
    """The verdict of :meth:`Defense.check_placement`. ``code`` is one of ``none`` (legal),
    ``out_of_bounds``, ``reef``, ``entrance``, ``beacon``, ``occupied``,
    ``not_enough_material``, ``seals_route`` (``entrances`` names the sealed ones) and
    ``not_build_phase``.

    >>> Defense().check_placement(0, 0, "wall").code
    'entrance'
    """
    code: str
    x: int
    y: int
    kind: str
    message: str = ""
    entrances: tuple = ()

    @property
    def ok(self) -> bool:
        """True when the placement is legal."""
        return self.code == "none"


class PlacementRejected(InvalidMoveError):
    """Raised by :meth:`Defense.place` for an illegal placement; ``.error`` holds the
    :class:`PlacementError`. The board is unchanged.

    >>> try:
    ...     Defense().place(3, 8, "wall")
    ... except PlacementRejected as exc:
    ...     exc.error.code
    'beacon'
    """

    def __init__(self, error: PlacementError):
        super().__init__(error.message)
        self.error = error

    def __reduce__(self):
        return (type(self), (self.error,))


@dataclass(frozen=True)
class WaveRecord:
    """What happened in one finished wave. Leaks count by the entrance saved at spawn;
    ``overheat_stops`` and ``shots`` are per cannon, in placement order; ``ticks`` is the
    wave's length in 1/tick_rate s ticks; ``health`` is the beacon's health at its end.

    >>> r = Defense().run_wave(); (r.wave, r.outcome, r.leaks_a)
    (1, 'lost', 5)
    """
    wave: int
    outcome: str
    kills: int
    leaks_a: int
    leaks_b: int
    cannons: int
    walls: int
    overheat_stops: tuple
    shots: tuple
    ticks: int
    health: int

    def to_dict(self) -> dict:
        """JSON-ready dict."""
        d = asdict(self)
        d["overheat_stops"] = list(self.overheat_stops)
        d["shots"] = list(self.shots)
        return d


@dataclass(frozen=True)
class Totals:
    """Cumulative counters of the run (kept apart from the per-wave records): they survive
    wave ends and are rolled back only by :meth:`Defense.retry_wave` / ``restart``.

    >>> Defense().totals.shots
    0
    """
    waves_won: int
    kills: int
    leaks_a: int
    leaks_b: int
    shots: int
    overheat_stops: int
    ticks: int

    def to_dict(self) -> dict:
        """JSON-ready dict."""
        return asdict(self)


# totals array slots
_T_WON, _T_KILLS, _T_LEAK_A, _T_LEAK_B, _T_TICKS = range(5)


class Rules:
    """Kernel-ready arrays for one scenario and seed, plus a reusable workspace for
    whole-wave batches (used by :class:`Defense` and the probes).

    >>> r = Rules(Scenario.lighthouse(), seed=0)
    >>> int(r.run_rows(1, [[]], [[]], [5])[0, 0]) == 2  # the empty defence loses wave 1
    True
    """

    def __init__(self, scenario: Scenario, seed: int):
        s = scenario
        self.scenario = s
        self.seed = check_seed(seed)
        w, h = s.width, s.height
        self.width, self.height, self.n = w, h, w * h
        bx, by = s.beacon
        self.beacon = by * w + bx
        self.entrances = np.array([y * w + x for x, y in (s.entrances[e] for e in ENTRANCES)],
                                  np.int32)
        self.reefs = np.ascontiguousarray(s.reef_mask().ravel())
        tr = s.tick_rate
        c = s.cannon
        self.iparams = []
        self.spawn = []
        for i, wave in enumerate(s.waves):
            ip = np.zeros(k.N_IPARAMS, np.int64)
            ip[k.P_WIDTH] = w
            ip[k.P_BEACON] = self.beacon
            ip[k.P_DAMAGE] = c.damage
            ip[k.P_INTERVAL] = round(c.fire_interval * tr)
            ip[k.P_SPAWN_INTERVAL] = round(wave.spawn_interval * tr)
            self.iparams.append(ip)
            self.spawn.append(s.spawn_table(i + 1, self.seed))
        self.fparams = np.zeros(k.N_FPARAMS, np.float64)
        self.fparams[k.F_RANGE2] = c.range * c.range
        self.fparams[k.F_HEAT] = c.heat_per_shot
        self.fparams[k.F_OVERHEAT] = c.overheat_threshold
        self.fparams[k.F_COOL] = c.cooling / tr
        self.kind_hp = np.array([s.enemies[x].hp for x in KINDS], np.int32)
        self.kind_speed = np.array([s.enemies[x].speed / tr for x in KINDS], np.float64)
        self.max_ships = max(wv.ships for wv in s.waves)
        # batch workspace
        self._blocked = np.empty(self.n, np.uint8)
        self._dist = np.empty(self.n, np.int32)
        self._nxt = np.empty(self.n, np.int32)
        self._queue = np.empty(self.n, np.int32)
        self._pad = np.empty((self.width + 2) * (self.height + 2), np.int32)
        self._cn = np.zeros((self.n, k.N_CN), np.int64)
        self._cn_heat = np.zeros(self.n, np.float64)
        self._en = np.zeros((self.max_ships, k.N_EN), np.int32)
        self._en_prog = np.zeros(self.max_ships, np.float64)
        self._ctr = np.zeros(k.N_CTR, np.int64)

    def wave_args(self, wave):
        """The static kernel arguments of ``wave`` (1-based)."""
        kinds, entries = self.spawn[wave - 1]
        return (self.iparams[wave - 1], self.fparams, self.kind_hp, self.kind_speed, kinds,
                entries, self.entrances)

    def run_rows(self, wave, cells, is_cannon, health) -> np.ndarray:
        """Simulate ``wave`` once per row of flat building cells (placement order; rows may
        be ragged) and return int64 ``[rows, 6]``: status (1 won, 2 lost), health left,
        kills, leaks A, leaks B, ticks. Rows must be legal placements."""
        m = len(cells)
        width = max([len(r) for r in cells] + [1])
        ca = np.full((m, width), -1, np.int32)
        ia = np.zeros((m, width), np.uint8)
        for r, (row, kinds) in enumerate(zip(cells, is_cannon)):
            ca[r, :len(row)] = row
            ia[r, :len(kinds)] = kinds
        out = np.zeros((m, 6), np.int64)
        k.wave_batch(*self.wave_args(wave), self.reefs, ca, ia,
                     np.asarray(health, np.int64), out, self._blocked, self._dist, self._nxt,
                     self._pad, self._queue, self._cn, self._cn_heat, self._en, self._en_prog,
                     self._ctr)
        return out


class Defense:
    """One game of tower defense on a scenario: build between waves, fight waves in fixed
    1/60 s ticks, read per-wave records and cumulative totals, retry a lost wave.

    The seed decides only the order of entrances in the alternating (final) wave.

    >>> d = Defense(seed=4)
    >>> d.place(4, 5, "cannon"); d.place(3, 6, "cannon"); d.place(3, 1, "wall")
    >>> d.run_wave().outcome, d.phase, d.material
    ('won', 'build', 5)
    """

    def __init__(self, scenario: Scenario | None = None, seed: int = 0):
        if scenario is None:
            scenario = Scenario.lighthouse()
        if not isinstance(scenario, Scenario):
            raise ConfigError(f"scenario must be a Scenario, got {type(scenario).__name__}")
        self._scenario = scenario
        self._rules = r = Rules(scenario, seed)
        n = r.n
        self._blocked = np.empty(n, np.uint8)
        self._dist = np.empty(n, np.int32)
        self._nxt = np.empty(n, np.int32)
        self._queue = np.empty(n, np.int32)
        self._pad = np.empty((r.width + 2) * (r.height + 2), np.int32)
        self._route = np.empty(n, np.int32)
        self._cn = np.zeros((n, k.N_CN), np.int64)
        self._cn_heat = np.zeros(n, np.float64)
        self._en = np.zeros((r.max_ships, k.N_EN), np.int32)
        self._en_prog = np.zeros(r.max_ships, np.float64)
        self._ctr = np.zeros(k.N_CTR, np.int64)
        self._totals = np.zeros(5, np.int64)
        self._cut_ws = CutWorkspace(r.height, r.width)
        self._cuts = None
        self.restart()

    # ------------------------------------------------------------------ state
    @property
    def scenario(self) -> Scenario:
        """The scenario being played."""
        return self._scenario

    @property
    def seed(self) -> int:
        """The seed (its parity orders the final wave's entrances)."""
        return self._rules.seed

    @property
    def phase(self) -> str:
        """``build`` (between waves), ``fight``, ``defeat`` or ``victory``."""
        return self._phase

    @property
    def wave(self) -> int:
        """The wave being built for or fought (1-based)."""
        return self._wave

    @property
    def health(self) -> int:
        """Beacon health (during a fight: at the last tick)."""
        return int(self._ctr[k.K_HEALTH]) if self._phase == FIGHT else self._health

    @property
    def material(self) -> int:
        """Material left to build with."""
        return self._material

    @property
    def time(self) -> float:
        """Game seconds simulated so far (fixed ticks)."""
        return self._ticks() / self._scenario.tick_rate

    def _ticks(self):
        extra = int(self._ctr[k.K_TICK]) if self._phase == FIGHT else 0
        return int(self._totals[_T_TICKS]) + extra

    @property
    def buildings(self) -> tuple:
        """``((x, y, kind), ...)`` in placement order."""
        w = self._rules.width
        return tuple((c % w, c // w, kind) for c, kind in self._buildings)

    @property
    def records(self) -> tuple:
        """The :class:`WaveRecord` of every finished wave, in order."""
        return tuple(self._records)

    @property
    def totals(self) -> Totals:
        """Cumulative :class:`Totals` (shots and overheat stops over every finished wave)."""
        nc = self._n_cannons
        t = self._totals
        return Totals(int(t[_T_WON]), int(t[_T_KILLS]), int(t[_T_LEAK_A]), int(t[_T_LEAK_B]),
                      int(self._cn[:nc, k.C_SHOTS_TOTAL].sum()),
                      int(self._cn[:nc, k.C_STOPS_TOTAL].sum()), self._ticks())

    def outcome_at(self, wave: int) -> str:
        """``"won"`` or ``"lost"`` for a finished wave; a wave not finished is an error.

        >>> d = Defense(); _ = d.run_wave(); d.outcome_at(1)
        'lost'
        """
        for rec in self._records:
            if rec.wave == wave:
                return rec.outcome
        raise ConfigError(f"wave {wave!r} has not finished")

    def forecast(self, wave: int | None = None) -> WaveForecast:
        """The :class:`WaveForecast` of ``wave`` (default: the current one, i.e. the next
        wave to fight while building): ships, kinds, armoured numbers, entrances in order.

        >>> f = Defense(seed=1).forecast(3)
        >>> f.spawns[0], f.entrances
        ((1, 'skiff', 'B'), ('B', 'A'))
        """
        return self._scenario.forecast(self._wave if wave is None else wave, self.seed)

    def distance_map(self) -> np.ndarray:
        """The current distance field, int32 ``[height, width]`` (-1 blocked/unreachable)."""
        return self._dist.reshape(self._rules.height, self._rules.width).copy()

    def route(self, entrance: str) -> list:
        """The cells ships from ``entrance`` sail through, entrance first, beacon last.

        >>> Defense().route("A")[-1]
        (3, 8)
        """
        if entrance not in ENTRANCES:
            raise ConfigError(f"entrance must be one of {ENTRANCES}, got {entrance!r}")
        n = k.trace_route(self._nxt, self._rules.entrances[ENTRANCES.index(entrance)],
                          self._route)
        w = self._rules.width
        return [(int(c % w), int(c // w)) for c in self._route[:n]]

    def targets(self) -> tuple:
        """During a fight, what each cannon (placement order) aims at now: ``(ship, x, y)``
        with the ship number (1-based spawn order) and its fractional position, or None.
        It is the same ``find_target`` that decides what the cannon hits.

        >>> d = Defense(); d.place(1, 0, "cannon"); d.start_wave(); _ = d.advance(30)
        >>> [(ship, round(x, 2), round(y, 2)) for ship, x, y in d.targets()]
        [(1, 0.0, 0.75)]
        """
        if self._phase != FIGHT:
            return tuple(None for _ in range(self._n_cannons))
        r = self._rules
        w = r.width
        out = []
        n_spawned = int(self._ctr[k.K_SPAWNED])
        for c in range(self._n_cannons):
            cell = int(self._cn[c, k.C_CELL])
            i = k.find_target(cell % w, cell // w, r.fparams[k.F_RANGE2], w, self._en,
                              self._en_prog, n_spawned, self._dist)
            if i < 0:
                out.append(None)
                continue
            cur, nxt, p = int(self._en[i, k.E_CUR]), int(self._en[i, k.E_NXT]), \
                float(self._en_prog[i])
            out.append((i + 1, cur % w + p * (nxt % w - cur % w),
                        cur // w + p * (nxt // w - cur // w)))
        return tuple(out)

    # ------------------------------------------------------------------ placement
    def _cut_map(self):
        if self._cuts is None:
            r = self._rules
            cuts = np.zeros((len(ENTRANCES), r.n), np.uint8)
            ws = self._cut_ws
            for i, cell in enumerate(r.entrances):
                ws.is_source[:] = 0
                ws.is_source[cell] = 1
                cuts[i] = ws.run(self._blocked, r.beacon)
            self._cuts = cuts
        return self._cuts

    def check_placement(self, x: int, y: int, kind: str) -> PlacementError:
        """Whether a ``kind`` (``"cannon"`` or ``"wall"``) may be built at ``(x, y)`` now.

        >>> Defense().check_placement(9, 0, "cannon").code
        'out_of_bounds'
        """
        if kind not in BUILDINGS:
            raise ConfigError(f"kind must be one of {BUILDINGS}, got {kind!r}")
        x, y = integer_cell((x, y), 2, f"{kind} at {(x, y)!r}")
        s, r = self._scenario, self._rules

        def err(code, message, entrances=()):
            return PlacementError(code, x, y, kind, message, entrances)

        where = f"{kind} at {(x, y)}"
        if self._phase != BUILD:
            return err("not_build_phase", f"{where}: building is allowed only between waves "
                                          f"(phase is {self._phase})")
        if not (0 <= x < r.width and 0 <= y < r.height):
            return err("out_of_bounds", f"{where}: outside the {r.width}x{r.height} map")
        c = y * r.width + x
        if r.reefs[c]:
            return err("reef", f"{where}: the cell is a reef")
        if c in r.entrances:
            e = ENTRANCES[list(r.entrances).index(c)]
            return err("entrance", f"{where}: the cell is entrance {e}")
        if c == r.beacon:
            return err("beacon", f"{where}: the cell is the beacon")
        if self._blocked[c]:
            return err("occupied", f"{where}: the cell already holds a building")
        cost = s.economy.cannon_cost if kind == "cannon" else s.economy.wall_cost
        if cost > self._material:
            return err("not_enough_material", f"{where}: costs {cost}, only "
                                              f"{self._material} material left")
        cuts = self._cut_map()
        sealed = tuple(e for i, e in enumerate(ENTRANCES) if cuts[i, c])
        if sealed:
            return err("seals_route", f"{where}: would seal the route from entrance "
                                      f"{' and '.join(sealed)}", sealed)
        return err("none", f"{where}: legal")

    def legal_cells(self, kind: str) -> list[tuple[int, int]]:
        """Every ``(x, y)`` where ``kind`` may be built now (row order).

        >>> (3, 7) in Defense().legal_cells("cannon")
        True
        """
        r = self._rules
        return [(x, y) for y in range(r.height) for x in range(r.width)
                if self.check_placement(x, y, kind).ok]

    def place(self, x: int, y: int, kind: str) -> None:
        """Build ``kind`` at ``(x, y)``, spend its cost and rebuild the distance field;
        raises :class:`PlacementRejected` (nothing changes) when the check fails.

        >>> d = Defense(); d.place(3, 7, "wall"); d.buildings
        ((3, 7, 'wall'),)
        """
        e = self.check_placement(x, y, kind)
        if not e.ok:
            raise PlacementRejected(e)
        c = int(y) * self._rules.width + int(x)
        if kind == "cannon":
            row = self._cn[self._n_cannons]
            row[:] = 0
            row[k.C_CELL] = c
            self._n_cannons += 1
            self._material -= self._scenario.economy.cannon_cost
        else:
            self._material -= self._scenario.economy.wall_cost
        self._buildings.append((c, kind))
        self._blocked[c] = 1
        self._rebuild_field()

    def _rebuild_field(self):
        r = self._rules
        bfs_distance(self._blocked, r.width, r.beacon, self._dist, self._pad, self._queue)
        k.next_steps(self._dist, r.width, self._nxt)
        self._cuts = None

    # ------------------------------------------------------------------ waves
    def start_wave(self) -> None:
        """Leave the build phase and start the current wave (tick 0).

        >>> d = Defense(); d.start_wave(); d.phase
        'fight'
        """
        if self._phase != BUILD:
            raise InvalidMoveError(f"a wave starts only from the build phase "
                                   f"(phase is {self._phase})")
        k.reset_wave(self._cn, self._cn_heat, self._n_cannons, self._en, self._en_prog,
                     self._ctr, self._health)
        self._phase = FIGHT

    def advance(self, ticks: int) -> str:
        """Simulate at most ``ticks`` ticks of the running wave; returns ``running``,
        ``won`` or ``lost`` (the wave is recorded when it ends).

        >>> d = Defense(); d.start_wave(); d.advance(60), d.time
        ('running', 1.0)
        """
        if self._phase != FIGHT:
            raise InvalidMoveError(f"no wave is running (phase is {self._phase})")
        if isinstance(ticks, bool) or not isinstance(ticks, (int, np.integer)) or ticks < 1:
            raise ConfigError(f"ticks must be a positive integer, got {ticks!r}")
        status = k.simulate(*self._rules.wave_args(self._wave), self._dist, self._nxt,
                            self._cn, self._cn_heat, self._n_cannons, self._en, self._en_prog,
                            self._ctr, int(ticks))
        if status != k.W_RUNNING:
            self._finish_wave(status)
        return _STATUS[status]

    def run_wave(self) -> WaveRecord:
        """Start (if building) and play the current wave to its end; returns its record."""
        if self._phase == BUILD:
            self.start_wave()
        while self.advance(1 << 30) == "running":
            pass
        return self._records[-1]

    def _finish_wave(self, status):
        nc = self._n_cannons
        ctr = self._ctr
        walls = sum(1 for _, kind in self._buildings if kind == "wall")
        rec = WaveRecord(self._wave, _STATUS[status], int(ctr[k.K_KILLS]),
                         int(ctr[k.K_LEAK_A]), int(ctr[k.K_LEAK_B]), nc, walls,
                         tuple(int(v) for v in self._cn[:nc, k.C_STOPS_WAVE]),
                         tuple(int(v) for v in self._cn[:nc, k.C_SHOTS_WAVE]),
                         int(ctr[k.K_TICK]), int(ctr[k.K_HEALTH]))
        self._records.append(rec)
        t = self._totals
        t[_T_KILLS] += rec.kills
        t[_T_LEAK_A] += rec.leaks_a
        t[_T_LEAK_B] += rec.leaks_b
        t[_T_TICKS] += rec.ticks
        # end of wave: heat, fire timers and overheat stops reset; totals stay
        k.reset_wave(self._cn, self._cn_heat, nc, self._en, self._en_prog, ctr, 0)
        self._health = rec.health
        if status == k.W_LOST:
            self._phase = DEFEAT
            return
        t[_T_WON] += 1
        e = self._scenario.economy
        self._health += e.health_per_wave
        self._material += e.material_per_wave
        if self._wave == len(self._scenario.waves):
            self._phase = VICTORY
        else:
            self._wave += 1
            self._begin_build()

    # ------------------------------------------------------------------ retry
    def _begin_build(self):
        self._phase = BUILD
        self._snapshot = (list(self._buildings), self._blocked.copy(), self._dist.copy(),
                          self._nxt.copy(), self._cn.copy(), self._cn_heat.copy(),
                          self._n_cannons, self._health, self._material, self._wave,
                          self._totals.copy(), self._ctr.copy(), self._en.copy(),
                          self._en_prog.copy(), list(self._records))

    def retry_wave(self) -> None:
        """After a defeat, restore the snapshot taken when the lost wave's build phase
        began (before its reinforcements): board, health, material, time, counters and
        records; the failed wave's record is dropped. Refused in any other phase.

        >>> d = Defense(); _ = d.run_wave(); d.retry_wave(); d.phase, d.records
        ('build', ())
        """
        if self._phase != DEFEAT:
            raise InvalidMoveError(f"retry is possible only after a defeat "
                                   f"(phase is {self._phase})")
        (b, blocked, dist, nxt, cn, heat, nc, health, material, wave, totals, ctr, en, prog,
         records) = self._snapshot
        self._buildings = list(b)
        for dst, src in ((self._blocked, blocked), (self._dist, dist), (self._nxt, nxt),
                         (self._cn, cn), (self._cn_heat, heat), (self._totals, totals),
                         (self._ctr, ctr), (self._en, en), (self._en_prog, prog)):
            np.copyto(dst, src)
        self._n_cannons = nc
        self._health, self._material, self._wave = health, material, wave
        self._records = list(records)
        self._cuts = None
        self._phase = BUILD

    def restart(self) -> None:
        """Clear everything: empty board, initial material and health, wave 1.

        >>> d = Defense(); d.place(2, 5, "wall"); d.restart(); d.buildings, d.material
        ((), 10)
        """
        r = self._rules
        e = self._scenario.economy
        np.copyto(self._blocked, r.reefs)
        self._buildings = []
        self._cn[:] = 0
        self._cn_heat[:] = 0.0
        self._n_cannons = 0
        self._en[:] = 0
        self._en_prog[:] = 0.0
        self._ctr[:] = 0
        self._totals[:] = 0
        self._health = e.beacon_health
        self._material = e.initial_material
        self._wave = 1
        self._records = []
        self._rebuild_field()
        self._begin_build()

    # ------------------------------------------------------------------ export
    def to_dict(self) -> dict:
        """The whole observable state as a JSON-ready dict (identical for identical runs).

        >>> Defense().to_dict()["material"]
        10
        """
        return {
            "scenario": self._scenario.name,
            "seed": self.seed,
            "phase": self._phase,
            "wave": self._wave,
            "health": self.health,
            "material": self._material,
            "ticks": self._ticks(),
            "buildings": [{"x": x, "y": y, "kind": kd} for x, y, kd in self.buildings],
            "distance": self._dist.tolist(),
            "records": [rec.to_dict() for rec in self._records],
            "totals": self.totals.to_dict(),
            "cannon_shots": self._cn[:self._n_cannons, k.C_SHOTS_TOTAL].tolist(),
            "cannon_overheat_stops": self._cn[:self._n_cannons, k.C_STOPS_TOTAL].tolist(),
        }
