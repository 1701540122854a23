"""The Last Lighthouse in the browser: the server holds each
:class:`~levelforge.defense.Defense` and answers with what the screen shows.

A state holds the map, the routes from both entrances (from the distance field), the
verdict of :meth:`~levelforge.defense.Defense.check_placement` for every cell and both
buildings (so hovering previews legality and its reason without a request), the
forecast of the next wave, the records and totals. A fight comes as
:func:`levelforge.defense.frames` frames, ``step`` ticks apart.

>>> from levelforge.defense import Defense
>>> s = state(Defense(seed=1))
>>> s["phase"], s["checks"]["wall"][0][0]["code"], s["forecast"]["order"]
('build', 'entrance', 'AAAAAAAAAA')
"""
from ..defense import Defense, PlacementRejected, Scenario, frames
from ..defense.scenario import ENTRANCES
from ..errors import ConfigError
from .query import REQUIRED, Query, parse_body

MAX_FRAMES = 2000
"""Most frames one fight request returns."""
MAX_STEP = 100_000
"""Most ticks between two frames of a fight."""


def _scenario_data(s):
    return {"name": s.name, "width": s.width, "height": s.height, "map": list(s.map),
            "beacon": list(s.beacon), "entrances": {e: list(c) for e, c in s.entrances.items()},
            "range": s.cannon.range, "overheat": s.cannon.overheat_threshold,
            "tick_rate": s.tick_rate, "cannon_cost": s.economy.cannon_cost,
            "wall_cost": s.economy.wall_cost, "waves": len(s.waves),
            "material_per_wave": s.economy.material_per_wave,
            "health_per_wave": s.economy.health_per_wave,
            "beacon_health": s.economy.beacon_health, "notes": s.notes}


def _check(defense, x, y, kind):
    e = defense.check_placement(x, y, kind)
    return {"code": e.code, "message": e.message, "entrances": list(e.entrances)}


def state(defense):
    """The JSON a page draws for ``defense`` now."""
    s = defense.scenario
    wave = min(defense.wave, len(s.waves))
    return {"scenario": _scenario_data(s), "seed": defense.seed, "phase": defense.phase,
            "wave": defense.wave, "health": defense.health, "material": defense.material,
            "buildings": [{"x": x, "y": y, "kind": kind} for x, y, kind in defense.buildings],
            "routes": {e: [list(c) for c in defense.route(e)] for e in ENTRANCES},
            "distance": defense.distance_map().tolist(),
            "checks": {kind: [[_check(defense, x, y, kind) for x in range(s.width)]
                              for y in range(s.height)] for kind in ("cannon", "wall")},
            "forecast": defense.forecast(wave).to_dict(),
            "records": [r.to_dict() for r in defense.records],
            "totals": defense.totals.to_dict()}


def _scenario(opened, name):
    if opened is not None and opened.kind == "defense" and name in (None, opened.name):
        return opened.scenario, opened.name
    if name in (None, "lighthouse"):
        return Scenario.lighthouse(), "lighthouse"
    known = "lighthouse" + (f" or {opened.name}" if opened is not None and
                            opened.kind == "defense" else "")
    raise ConfigError(f"unknown scenario {name!r}: this server has {known}")


def new_game(games, opened, query):
    """``GET /api/defense/new?seed=[&scenario=]``: a new game in its first build phase."""
    scenario, name = _scenario(opened, query.text("scenario", None))
    defense = Defense(scenario, query.int("seed", 0))
    return {"game": games.add(defense), "scenario_source": name, **state(defense)}


def act(games, body):
    """``POST /api/defense/act``: ``{"game", "action": place|retry|restart, "x", "y",
    "kind"}``. A refused placement changes nothing and comes back as ``refused``."""
    data = parse_body(body, {"game": (str, REQUIRED), "action": (str, REQUIRED),
                             "x": (int, None), "y": (int, None), "kind": (str, None)}, "act")
    defense = games.get(data["game"])
    refused = None
    if data["action"] == "place":
        if None in (data["x"], data["y"], data["kind"]):
            raise ConfigError("act: place needs x, y and kind")
        try:
            defense.place(data["x"], data["y"], data["kind"])
        except PlacementRejected as exc:
            refused = {"code": exc.error.code, "message": exc.error.message,
                       "entrances": list(exc.error.entrances)}
    elif data["action"] == "retry":
        defense.retry_wave()
    elif data["action"] == "restart":
        defense.restart()
    else:
        raise ConfigError(f"act: unknown action {data['action']!r}; use place, retry or "
                          "restart")
    return {"refused": refused, **state(defense)}


def fight(games, body):
    """``POST /api/defense/fight``: ``{"game", "step", "frames"}`` plays up to ``frames``
    frames of the current wave, ``step`` ticks apart (starting it from the build phase);
    the state comes too once the wave is over."""
    data = parse_body(body, {"game": (str, REQUIRED), "step": (int, 1),
                             "frames": (int, 60)}, "fight")
    defense = games.get(data["game"])
    for name, most in (("frames", MAX_FRAMES), ("step", MAX_STEP)):
        if not 1 <= data[name] <= most:
            raise ConfigError(f"fight: {name} must be in [1, {most}], got {data[name]}")
    if defense.phase not in ("build", "fight"):
        raise ConfigError(f"fight: no wave to play (phase is {defense.phase})")
    shown = [f.to_dict() for f in frames(defense, data["step"], data["frames"])]
    over = defense.phase != "fight"
    return {"frames": shown, "over": over, "state": state(defense) if over else None}


def routes():
    """``(method, path, handler(request, body, state))`` of the defense API."""
    return [
        ("GET", "/api/defense/new", lambda r, b, s: new_game(
            s.defense, s.opened, Query(r.query_params, ("seed", "scenario"), r.url.path))),
        ("POST", "/api/defense/act", lambda r, b, s: act(s.defense, b)),
        ("POST", "/api/defense/fight", lambda r, b, s: fight(s.defense, b)),
    ]
