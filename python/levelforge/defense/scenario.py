"""Scenarios: the map, economy, enemies, cannon and waves of a defense game, as data.

A scenario is a TOML or JSON file validated on load; the default ships with the package
(``lighthouse.toml``). Map legend: ``.`` open water, ``#`` reef, ``*`` the beacon,
``A`` and ``B`` the two entrances; coordinates are ``(x, y)`` with ``(0, 0)`` top left.

>>> s = Scenario.lighthouse()
>>> (s.width, s.height), s.economy.initial_material
((7, 9), 10)
>>> s.kind_for_spawn(1, 7), s.entry_for_spawn(3, 1, seed=0), s.entry_for_spawn(3, 1, seed=1)
('armoured', 'A', 'B')
"""
from __future__ import annotations

import json
import math
import os
import sys
from dataclasses import asdict, dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from ..errors import ConfigError
from ..seeding import check_seed
from ..textfile import read_text

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib

ENTRANCES = ("A", "B")
KINDS = ("skiff", "armoured")
BUILDINGS = ("cannon", "wall")
ENTRY_MODES = ("A", "B", "alternate")
VARIANTS = ("aab",)
"""Variants shipped beside the lighthouse scenario: ``"aab"`` (``lighthouse_aab.toml``)
is the design's earlier wave order A -> A -> both."""


@dataclass(frozen=True)
class Economy:
    """Material and beacon health: start values, building costs, the gain after each wave."""
    initial_material: int
    cannon_cost: int
    wall_cost: int
    beacon_health: int
    material_per_wave: int
    health_per_wave: int


@dataclass(frozen=True)
class ShipKind:
    """An enemy kind: hit points and speed in cells per second."""
    hp: int
    speed: float


@dataclass(frozen=True)
class CannonSpec:
    """Cannon numbers: range in cells (Euclidean, cell centre to ship), damage per shot,
    seconds between shots, heat per shot, the heat that stops it (overheat) until it has
    cooled back to zero, and the heat it loses per second."""
    range: float
    damage: int
    fire_interval: float
    heat_per_shot: float
    overheat_threshold: float
    cooling: float


@dataclass(frozen=True)
class WaveSpec:
    """One wave: number of ships, where they enter (``"A"``, ``"B"`` or ``"alternate"``:
    alternating, the seed's parity choosing which entrance goes first), the ship numbers
    (1-based) that are armoured, and seconds between spawns."""
    ships: int
    entrance: str
    armoured: tuple
    spawn_interval: float


@dataclass(frozen=True)
class WaveForecast:
    """The forecast of one wave, as the game's banner shows it before the wave starts:
    ``spawns`` holds ``(ship, kind, entrance)`` for every ship (1-based, spawn order).

    >>> f = Scenario.lighthouse().forecast(3, seed=1)
    >>> f.ships, f.skiffs, f.armoured, f.order
    (12, 8, (3, 6, 9, 12), 'BABABABABABA')
    >>> print(f.banner())  # doctest: +NORMALIZE_WHITESPACE
    wave 3 of 3: 12 ships, 8 skiffs + 4 armoured (ships 3, 6, 9, 12); 6 from A, 6 from B,
    alternating, B first
    """
    wave: int
    waves: int
    spawns: tuple

    @property
    def ships(self) -> int:
        """Number of ships."""
        return len(self.spawns)

    @property
    def armoured(self) -> tuple:
        """The numbers (1-based spawn order) of the armoured ships."""
        return tuple(i for i, kind, _ in self.spawns if kind == "armoured")

    @property
    def skiffs(self) -> int:
        """Number of skiffs."""
        return self.ships - len(self.armoured)

    @property
    def order(self) -> str:
        """The entrance of every ship in spawn order, e.g. ``"ABAB..."``."""
        return "".join(e for _, _, e in self.spawns)

    @property
    def entrances(self) -> tuple:
        """The entrances used, in the order of their first ship."""
        return tuple(dict.fromkeys(self.order))

    @property
    def counts(self) -> tuple:
        """``(("A", n), ("B", m))``: ships per entrance."""
        return tuple((e, self.order.count(e)) for e in ENTRANCES)

    def banner(self) -> str:
        """One line: ships, kinds and armoured numbers, ships per entrance and their order
        (an idle entrance is named as waiting)."""
        arm = self.armoured
        kinds = f"{self.skiffs} skiffs + {len(arm)} armoured" + \
            (f" (ships {', '.join(map(str, arm))})" if arm else "")
        used = self.entrances
        if len(used) == 1:
            idle = [e for e in ENTRANCES if e not in used]
            where = f"all from {used[0]}" + (f", {idle[0]} waits" if idle else "")
        else:
            alternating = all(a != b for a, b in zip(self.order, self.order[1:]))
            where = ", ".join(f"{n} from {e}" for e, n in self.counts) + \
                (", alternating" if alternating else "") + f", {used[0]} first"
        return f"wave {self.wave} of {self.waves}: {self.ships} ships, {kinds}; {where}"

    def to_dict(self) -> dict:
        """JSON-ready dict.

        >>> Scenario.lighthouse().forecast(2, seed=0).to_dict()["counts"]
        {'A': 0, 'B': 10}
        """
        return {"wave": self.wave, "waves": self.waves, "ships": self.ships,
                "skiffs": self.skiffs, "armoured": list(self.armoured), "order": self.order,
                "entrances": list(self.entrances), "counts": dict(self.counts),
                "spawns": [list(x) for x in self.spawns], "banner": self.banner()}


def _field(d, key, where):
    if not isinstance(d, dict):
        raise ConfigError(f"scenario field {where!r}: expected a table, got {type(d).__name__}")
    if key not in d:
        raise ConfigError(f"scenario field {where + '.' + key if where else key!r}: missing")
    return d[key]


def _known(d, keys, where):
    """Reject keys the format does not define (a typo would otherwise be ignored)."""
    if isinstance(d, dict):
        for key in d:
            if key not in keys:
                name = f"{where}.{key}" if where else key
                raise ConfigError(f"scenario field {name!r}: unknown (expected one of "
                                  f"{', '.join(keys)})")


def _int(d, key, where, lo=0):
    name = f"{where}.{key}" if where else key
    v = _field(d, key, where)
    if isinstance(v, bool) or not isinstance(v, int):
        raise ConfigError(f"scenario field {name!r}: expected an integer, got {v!r}")
    if v < lo:
        raise ConfigError(f"scenario field {name!r}: must be >= {lo}, got {v}")
    return v


def _num(d, key, where, positive=True):
    name = f"{where}.{key}" if where else key
    v = _field(d, key, where)
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
        raise ConfigError(f"scenario field {name!r}: expected a number, got {v!r}")
    if positive and v <= 0:
        raise ConfigError(f"scenario field {name!r}: must be > 0, got {v}")
    return float(v)


def _plan(plan, width, height, waves):
    """The optional reference plan: per build phase (at most one per wave) a list of
    ``[x, y, kind]`` buildings. Only the shape is checked here; legality is the game's."""
    if not isinstance(plan, list) or len(plan) > waves:
        raise ConfigError(f"scenario field 'plan': expected a list of at most {waves} build "
                          f"phases, got {plan!r}")
    out = []
    for i, phase in enumerate(plan):
        if not isinstance(phase, list):
            raise ConfigError(f"scenario field 'plan[{i}]': expected a list of [x, y, kind]")
        items = []
        for j, b in enumerate(phase):
            where = f"plan[{i}][{j}]"
            if not (isinstance(b, list) and len(b) == 3 and b[2] in BUILDINGS
                    and all(isinstance(v, int) and not isinstance(v, bool) for v in b[:2])):
                raise ConfigError(f"scenario field {where!r}: expected [x, y, kind] with kind "
                                  f"one of {', '.join(BUILDINGS)}, got {b!r}")
            if not (0 <= b[0] < width and 0 <= b[1] < height):
                raise ConfigError(f"scenario field {where!r}: {tuple(b[:2])} is outside the "
                                  f"{width}x{height} map")
            items.append((b[0], b[1], b[2]))
        out.append(tuple(items))
    return tuple(out)


@dataclass(frozen=True)
class Scenario:
    """A validated defense scenario (immutable). Build one with :meth:`lighthouse`,
    :meth:`load` or :meth:`from_dict`. ``plan`` is an optional reference plan: the
    buildings ``(x, y, kind)`` of each build phase (the lighthouse's wins all three waves;
    the wave-order and barrier-timing probes start from it).

    >>> s = Scenario.lighthouse()
    >>> s.beacon, s.entrances["A"], len(s.waves)
    ((3, 8), (0, 0), 3)
    """
    name: str
    map: tuple
    tick_rate: int
    economy: Economy
    enemies: dict
    cannon: CannonSpec
    waves: tuple
    notes: str = ""
    plan: tuple = ()

    # ----------------------------------------------------------------- loading
    @classmethod
    def lighthouse(cls, variant: str | None = None) -> "Scenario":
        """The shipped default scenario (``lighthouse.toml``), or one of its shipped
        variants (``lighthouse_<variant>.toml``; see :data:`~levelforge.defense.scenario.VARIANTS`).

        >>> Scenario.lighthouse().name, Scenario.lighthouse("aab").waves[1].entrance
        ('lighthouse', 'A')
        """
        if variant is None:
            name = "lighthouse.toml"
        elif variant in VARIANTS:
            name = f"lighthouse_{variant}.toml"
        else:
            raise ConfigError(f"unknown lighthouse variant {variant!r}; shipped: "
                              f"{', '.join(VARIANTS)}")
        text = resources.files(__package__).joinpath(name).read_text("utf-8")
        return cls.from_dict(tomllib.loads(text))

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> Scenario:
        """Load and validate a ``.toml`` or ``.json`` scenario file.

        >>> import tempfile, os
        >>> p = os.path.join(tempfile.mkdtemp(), "s.json")
        >>> _ = open(p, "w").write(json.dumps(Scenario.lighthouse().to_dict()))
        >>> Scenario.load(p) == Scenario.lighthouse()
        True
        """
        path = Path(path)
        text = read_text(path, "scenario ", ConfigError)
        try:
            if path.suffix.lower() == ".toml":
                data = tomllib.loads(text)
            elif path.suffix.lower() == ".json":
                data = json.loads(text)
            else:
                raise ConfigError(f"scenario {str(path)!r}: expected a .toml or .json file")
        except (tomllib.TOMLDecodeError, json.JSONDecodeError) as exc:
            raise ConfigError(f"scenario {str(path)!r} is not valid {path.suffix[1:]}: {exc}") \
                from None
        return cls.from_dict(data)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Scenario:
        """Validate a plain dict (the parsed file) into a Scenario; raises ConfigError
        naming the field (or map row and column) at fault.

        >>> d = Scenario.lighthouse().to_dict(); d["economy"]["cannon_cost"] = 0
        >>> Scenario.from_dict(d)
        Traceback (most recent call last):
        ...
        levelforge.errors.ConfigError: scenario field 'economy.cannon_cost': must be >= 1, got 0
        """
        if not isinstance(d, dict):
            raise ConfigError("a scenario must be a table/object at the top level")
        _known(d, ("name", "notes", "map", "tick_rate", "economy", "enemies", "cannon",
                   "waves", "plan"), "")
        name = _field(d, "name", "")
        if not isinstance(name, str) or not name:
            raise ConfigError("scenario field 'name': expected a non-empty string")
        rows = _field(d, "map", "")
        if not isinstance(rows, list) or not rows or not all(isinstance(r, str) for r in rows):
            raise ConfigError("scenario field 'map': expected a non-empty list of strings")
        width = len(rows[0])
        counts = {"*": 0, "A": 0, "B": 0}
        for y, row in enumerate(rows):
            if len(row) != width:
                raise ConfigError(f"map row {y}: {len(row)} columns, expected {width}")
            for x, ch in enumerate(row):
                if ch not in ".#*AB":
                    raise ConfigError(f"map row {y}, column {x}: unknown cell {ch!r} "
                                      "(use . # * A B)")
                if ch in counts:
                    counts[ch] += 1
        for ch, what in (("*", "beacon"), ("A", "entrance A"), ("B", "entrance B")):
            if counts[ch] != 1:
                raise ConfigError(f"scenario field 'map': needs exactly one {what} ({ch!r}), "
                                  f"found {counts[ch]}")
        tick_rate = _int(d, "tick_rate", "", lo=1)
        e = _field(d, "economy", "")
        _known(e, tuple(Economy.__dataclass_fields__), "economy")
        economy = Economy(*(_int(e, k, "economy", lo=1 if k.endswith("cost") or k ==
                                 "beacon_health" else 0)
                            for k in ("initial_material", "cannon_cost", "wall_cost",
                                      "beacon_health", "material_per_wave",
                                      "health_per_wave")))
        en = _field(d, "enemies", "")
        _known(en, KINDS, "enemies")
        enemies = {}
        for kind in KINDS:
            k = _field(en, kind, "enemies")
            _known(k, ("hp", "speed"), f"enemies.{kind}")
            where = f"enemies.{kind}"
            speed = _num(k, "speed", where)
            if speed >= tick_rate:
                raise ConfigError(f"scenario field {where + '.speed'!r}: must be below "
                                  f"tick_rate ({tick_rate}) cells per second, got {speed}")
            enemies[kind] = ShipKind(_int(k, "hp", where, lo=1), speed)
        c = _field(d, "cannon", "")
        _known(c, tuple(CannonSpec.__dataclass_fields__), "cannon")
        cannon = CannonSpec(_num(c, "range", "cannon"), _int(c, "damage", "cannon", lo=1),
                            _num(c, "fire_interval", "cannon"),
                            _num(c, "heat_per_shot", "cannon", positive=False),
                            _num(c, "overheat_threshold", "cannon"),
                            _num(c, "cooling", "cannon"))
        if c["heat_per_shot"] < 0:
            raise ConfigError("scenario field 'cannon.heat_per_shot': must be >= 0")
        waves = _field(d, "waves", "")
        if not isinstance(waves, list) or not waves:
            raise ConfigError("scenario field 'waves': expected a non-empty list of tables")
        specs = []
        for i, w in enumerate(waves):
            where = f"waves[{i}]"
            ships = _int(w, "ships", where, lo=1)
            _known(w, ("ships", "entrance", "armoured", "spawn_interval"), where)
            entrance = _field(w, "entrance", where)
            if entrance not in ENTRY_MODES:
                raise ConfigError(f"scenario field {where + '.entrance'!r}: expected one of "
                                  f"{', '.join(ENTRY_MODES)}, got {entrance!r}")
            arm = w.get("armoured", [])
            if (not isinstance(arm, list) or any(isinstance(a, bool) or not isinstance(a, int)
                                                 or not 1 <= a <= ships for a in arm)
                    or len(set(arm)) != len(arm)):
                raise ConfigError(f"scenario field {where + '.armoured'!r}: expected distinct "
                                  f"ship numbers in 1..{ships}, got {arm!r}")
            specs.append(WaveSpec(ships, entrance, tuple(sorted(arm)),
                                  _num(w, "spawn_interval", where)))
        notes = d.get("notes", "")
        if not isinstance(notes, str):
            raise ConfigError("scenario field 'notes': expected a string")
        plan = _plan(d.get("plan", []), width, len(rows), len(specs))
        s = cls(name, tuple(rows), tick_rate, economy, enemies, cannon, tuple(specs), notes,
                plan)
        s._check_ticks()
        s._check_routes()
        return s

    def _check_ticks(self):
        for name, seconds in (("cannon.fire_interval", self.cannon.fire_interval),
                              *((f"waves[{i}].spawn_interval", w.spawn_interval)
                                for i, w in enumerate(self.waves))):
            ticks = seconds * self.tick_rate
            if abs(ticks - round(ticks)) > 1e-9 or round(ticks) < 1:
                raise ConfigError(f"scenario field {name!r}: {seconds} s is not a whole "
                                  f"number of ticks at {self.tick_rate} ticks per second")

    def _check_routes(self):
        from .pathing import distance_field  # local import keeps kernels lazy
        dist = distance_field(self.reef_mask(), self.beacon)
        for e, (x, y) in self.entrances.items():
            if dist[y, x] < 0:
                raise ConfigError(f"scenario field 'map': entrance {e} at {(x, y)} has no "
                                  "route to the beacon")

    # ----------------------------------------------------------------- geometry
    @property
    def width(self) -> int:
        """Number of columns."""
        return len(self.map[0])

    @property
    def height(self) -> int:
        """Number of rows."""
        return len(self.map)

    def _find(self, ch):
        for y, row in enumerate(self.map):
            x = row.find(ch)
            if x >= 0:
                return (x, y)
        raise ConfigError(f"map has no {ch!r}")  # unreachable after validation

    @property
    def beacon(self) -> tuple:
        """The beacon cell ``(x, y)``."""
        return self._find("*")

    @property
    def entrances(self) -> dict:
        """``{"A": (x, y), "B": (x, y)}``."""
        return {e: self._find(e) for e in ENTRANCES}

    def reef_mask(self) -> np.ndarray:
        """uint8 ``[height, width]``, 1 on reefs."""
        return np.array([[ch == "#" for ch in row] for row in self.map], dtype=np.uint8)

    # ----------------------------------------------------------------- waves
    def _wave(self, wave):
        if isinstance(wave, bool) or not isinstance(wave, (int, np.integer)) \
                or not 1 <= wave <= len(self.waves):
            raise ConfigError(f"wave must be in 1..{len(self.waves)}, got {wave!r}")
        return self.waves[int(wave) - 1]

    def kind_for_spawn(self, wave: int, ship: int) -> str:
        """The kind of ship number ``ship`` (1-based) of ``wave`` (1-based).

        >>> [Scenario.lighthouse().kind_for_spawn(2, i)[0] for i in range(1, 11)]
        ['s', 's', 'a', 's', 's', 's', 'a', 's', 's', 's']
        """
        w = self._wave(wave)
        if not 1 <= ship <= w.ships:
            raise ConfigError(f"wave {wave} has ships 1..{w.ships}, got {ship!r}")
        return "armoured" if ship in w.armoured else "skiff"

    def entry_for_spawn(self, wave: int, ship: int, seed: int) -> str:
        """The entrance (``"A"``/``"B"``) of ship ``ship`` of ``wave``; for an alternating
        wave an even seed sends ship 1 from A, an odd seed from B.

        >>> s = Scenario.lighthouse()
        >>> "".join(s.entry_for_spawn(3, i, seed=7) for i in range(1, 13))
        'BABABABABABA'
        """
        w = self._wave(wave)
        if not 1 <= ship <= w.ships:
            raise ConfigError(f"wave {wave} has ships 1..{w.ships}, got {ship!r}")
        if w.entrance != "alternate":
            return w.entrance
        parity = check_seed(seed) & 1
        return ENTRANCES[(ship - 1 + parity) & 1]

    def forecast(self, wave: int, seed: int) -> "WaveForecast":
        """What ``wave`` will send, from the same two functions that drive the spawner.

        >>> f = Scenario.lighthouse().forecast(1, seed=0)
        >>> f.spawns[6], f.armoured, f.counts
        ((7, 'armoured', 'A'), (7, 10), (('A', 10), ('B', 0)))
        """
        w = self._wave(wave)
        spawns = tuple((i, self.kind_for_spawn(wave, i), self.entry_for_spawn(wave, i, seed))
                       for i in range(1, w.ships + 1))
        return WaveForecast(int(wave), len(self.waves), spawns)

    def spawn_table(self, wave: int, seed: int) -> tuple[npt.NDArray[np.int32],
                                                           npt.NDArray[np.int32]]:
        """int32 arrays (kind index, entrance index) per ship, for the kernels."""
        f = self.forecast(wave, seed).spawns
        kinds = np.array([KINDS.index(k) for _, k, _ in f], dtype=np.int32)
        entries = np.array([ENTRANCES.index(e) for _, _, e in f], dtype=np.int32)
        return kinds, entries

    # ----------------------------------------------------------------- export
    def to_dict(self) -> dict:
        """The scenario as a JSON-ready dict (the file format).

        >>> Scenario.from_dict(Scenario.lighthouse().to_dict()) == Scenario.lighthouse()
        True
        """
        return {
            "name": self.name,
            "notes": self.notes,
            "map": list(self.map),
            "tick_rate": self.tick_rate,
            "economy": asdict(self.economy),
            "enemies": {k: asdict(v) for k, v in self.enemies.items()},
            "cannon": asdict(self.cannon),
            "waves": [{"ships": w.ships, "entrance": w.entrance, "armoured": list(w.armoured),
                       "spawn_interval": w.spawn_interval} for w in self.waves],
            "plan": [[[x, y, kind] for x, y, kind in phase] for phase in self.plan],
        }
