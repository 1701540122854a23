"""Frames of a running wave: what a screen shows at one tick of the simulation.

:func:`frames` plays the current wave of a :class:`~levelforge.defense.Defense` with the
same :meth:`~levelforge.defense.Defense.advance` calls that
:meth:`~levelforge.defense.Defense.run_wave` makes, ``step`` ticks at a time, and yields a
:class:`Frame` after each step: ships at their fractional positions with their hit points,
cannons with heat, overheat, shots and the ship they aim at, the wave's counters. The
last frame of a wave carries the wave's :class:`~levelforge.defense.WaveRecord` figures.

>>> from levelforge.defense import Defense
>>> d = Defense(seed=4); d.place(4, 5, "cannon"); d.place(3, 6, "cannon")
>>> shown = list(frames(d, step=60))
>>> last = shown[-1]
>>> last.status, last.kills, last.leaks_a, len(shown), len(shown[0].ships)
('won', 6, 4, 21, 1)
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator

from ..engine import defense as k
from ..errors import ConfigError, InvalidMoveError
from .game import Defense

_SHIP_STATUS = {k.S_WAITING: "waiting", k.S_ALIVE: "alive", k.S_KILLED: "killed",
                k.S_LEAKED: "leaked"}


@dataclass(frozen=True)
class ShipView:
    """One spawned ship: number (1-based spawn order), kind, entrance, status (``alive``,
    ``killed``, ``leaked``; ``gone`` in a wave's last frame for a ship still afloat when a
    lost wave ended), fractional position ``(x, y)`` and hit points."""
    number: int
    kind: str
    entrance: str
    status: str
    x: float
    y: float
    hp: int
    max_hp: int


@dataclass(frozen=True)
class CannonView:
    """One cannon (placement order): cell, heat, overheated flag, shots and overheat
    stops in this wave, and the ship number it aims at now (None: no ship in range)."""
    x: int
    y: int
    heat: float
    overheated: bool
    shots: int
    overheat_stops: int
    target: int | None


@dataclass(frozen=True)
class Frame:
    """The fight at one tick: ``status`` is ``running``, ``won`` or ``lost``."""
    wave: int
    tick: int
    status: str
    health: int
    kills: int
    leaks_a: int
    leaks_b: int
    spawned: int
    ships: tuple
    cannons: tuple

    def to_dict(self) -> dict:
        """JSON-ready dict (positions rounded to 1/1000 cell)."""
        return {"wave": self.wave, "tick": self.tick, "status": self.status,
                "health": self.health, "kills": self.kills, "leaks_a": self.leaks_a,
                "leaks_b": self.leaks_b, "spawned": self.spawned,
                "ships": [{"number": s.number, "kind": s.kind, "entrance": s.entrance,
                           "status": s.status, "x": round(s.x, 3), "y": round(s.y, 3),
                           "hp": s.hp, "max_hp": s.max_hp} for s in self.ships],
                "cannons": [{"x": c.x, "y": c.y, "heat": round(c.heat, 3),
                             "overheated": c.overheated, "shots": c.shots,
                             "overheat_stops": c.overheat_stops, "target": c.target}
                            for c in self.cannons]}


def frame(defense) -> Frame:
    """The :class:`Frame` of the running wave now (phase ``fight``)."""
    if defense.phase != "fight":
        raise InvalidMoveError(f"no wave is running (phase is {defense.phase})")
    d = defense
    w = d._rules.width
    ctr, en, prog, cn, heat = d._ctr, d._en, d._en_prog, d._cn, d._cn_heat
    spawns = d.forecast().spawns
    hp = {kind: d.scenario.enemies[kind].hp for kind in d.scenario.enemies}
    ships = []
    for i in range(int(ctr[k.K_SPAWNED])):
        cur, nxt, p = int(en[i, k.E_CUR]), int(en[i, k.E_NXT]), float(prog[i])
        if nxt < 0:  # at the beacon
            nxt, p = cur, 0.0
        number, kind, entrance = spawns[i]
        ships.append(ShipView(number, kind, entrance, _SHIP_STATUS[int(en[i, k.E_STATUS])],
                              cur % w + p * (nxt % w - cur % w),
                              cur // w + p * (nxt // w - cur // w),
                              max(0, int(en[i, k.E_HP])), hp[kind]))
    targets = d.targets()
    cannons = tuple(CannonView(int(cn[c, k.C_CELL]) % w, int(cn[c, k.C_CELL]) // w,
                               float(heat[c]), bool(cn[c, k.C_OVERHEATED]),
                               int(cn[c, k.C_SHOTS_WAVE]), int(cn[c, k.C_STOPS_WAVE]),
                               None if targets[c] is None else targets[c][0])
                    for c in range(len(targets)))
    return Frame(d.wave, int(ctr[k.K_TICK]), "running", int(ctr[k.K_HEALTH]),
                 int(ctr[k.K_KILLS]), int(ctr[k.K_LEAK_A]), int(ctr[k.K_LEAK_B]),
                 int(ctr[k.K_SPAWNED]), tuple(ships), cannons)


def _final(defense, before) -> Frame:
    """The frame that ends a wave: the wave's record (the simulation's own end-of-wave
    counters); ships as last seen, those still afloat now gone with the wave."""
    rec = defense.records[-1]
    ships = tuple(s if s.status != "alive" else
                  ShipView(s.number, s.kind, s.entrance, "gone", s.x, s.y, s.hp, s.max_hp)
                  for s in before.ships)
    cannons = tuple(CannonView(c.x, c.y, c.heat, c.overheated, rec.shots[i],
                               rec.overheat_stops[i], None)
                    for i, c in enumerate(before.cannons))
    return Frame(rec.wave, rec.ticks, rec.outcome, rec.health, rec.kills, rec.leaks_a,
                 rec.leaks_b, before.spawned, ships, cannons)


def frames(defense: Defense, step: int = 1, limit: int | None = None) -> Iterator[Frame]:
    """Play the current wave (starting it when building), ``step`` ticks a frame, and
    yield each :class:`Frame`; stops after the wave's last frame, or after ``limit``
    frames (the wave then stays running: call again to go on)."""
    for name, v in (("step", step), ("limit", 1 if limit is None else limit)):
        if isinstance(v, bool) or not isinstance(v, int) or v < 1:
            raise ConfigError(f"{name} must be a positive integer, got {v!r}")
    if defense.phase == "build":
        defense.start_wave()
    shown = 0
    last = frame(defense)
    while limit is None or shown < limit:
        if defense.advance(step) != "running":
            yield _final(defense, last)
            return
        last = frame(defense)
        yield last
        shown += 1
