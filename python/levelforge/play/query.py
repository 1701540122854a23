"""Request input for the play server: query parameters and JSON bodies, checked at the
boundary with messages that say what was wrong and where.

>>> q = Query({"seed": "7", "width": "9"}, ("seed", "width", "height"), "/sokoban")
>>> q.int("seed"), q.int("height", 7)
(7, 7)
>>> Query({"size": "7", "colour": "red"}, ("size",), "/symmetry")
Traceback (most recent call last):
...
levelforge.errors.ConfigError: /symmetry: unknown parameter 'colour'; it accepts size
"""
import json
import math

from ..errors import ConfigError

REQUIRED = object()
"""Default meaning "the parameter must be given"."""
MAX_BODY = 1 << 20
"""Largest JSON request body accepted, in bytes."""


class Query:
    """The query parameters of one request (a mapping of names to strings), checked against
    the names the route accepts; ``where`` names the route in messages."""

    def __init__(self, params, accepted, where):
        self.where = where
        self._params = {}
        for key in params.keys():
            if key not in accepted:
                listed = ", ".join(accepted) if accepted else "no parameters"
                raise ConfigError(f"{where}: unknown parameter {key!r}; it accepts {listed}")
            values = params.getlist(key) if hasattr(params, "getlist") else [params[key]]
            if len(values) > 1:
                raise ConfigError(f"{where}: parameter {key!r} is given {len(values)} times")
            self._params[key] = values[0]

    def __contains__(self, name):
        return name in self._params

    def text(self, name, default=REQUIRED):
        """The parameter as a string (``default`` when absent)."""
        if name not in self._params:
            if default is REQUIRED:
                raise ConfigError(f"{self.where}: missing parameter {name!r}")
            return default
        return self._params[name]

    def int(self, name, default=REQUIRED):
        """The parameter as an integer; the API checks its range."""
        if name not in self._params:
            return self.text(name, default)  # the default, or the "missing" error
        return parse_int(self._params[name], f"{self.where}: parameter {name!r}")

    def range(self, name):
        """A filter ``LO-HI`` (decimal numbers, either side may be empty) as a pair of
        floats with ``-inf``/``inf`` for an open side, or None when absent."""
        text = self.text(name, None)
        if text is None:
            return None
        lo, sep, hi = text.partition("-")
        try:
            if not sep:
                raise ValueError
            pair = (float(lo) if lo.strip() else -math.inf, float(hi) if hi.strip() else math.inf)
        except ValueError:
            raise ConfigError(f"{self.where}: parameter {name!r} must look like LO-HI "
                              f"(e.g. 4-8, 2-, -0.5), got {text!r}") from None
        if any(math.isnan(v) for v in pair) or pair[0] > pair[1]:
            raise ConfigError(f"{self.where}: parameter {name!r}: LO must not exceed HI, "
                              f"got {text!r}")
        return pair


def parse_int(text, what):
    """``text`` as an int, else ConfigError naming ``what``."""
    try:
        return int(str(text).strip())
    except ValueError:
        raise ConfigError(f"{what}: expected an integer, got {text!r}") from None


_JSON_NAMES = {dict: "an object", list: "a list", str: "a string", int: "an integer",
               float: "a number", bool: "true or false", type(None): "null"}


def parse_body(raw, fields, where):
    """The JSON object in request body ``raw`` (bytes) with exactly ``fields`` (a mapping of
    name to (type or tuple of types, default or REQUIRED)), checked."""
    if len(raw) > MAX_BODY:
        raise ConfigError(f"{where}: the request body is {len(raw)} bytes; the limit is "
                          f"{MAX_BODY}")
    try:
        data = json.loads(raw or b"null")
    except (ValueError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{where}: the request body is not JSON ({exc})") from None
    if not isinstance(data, dict):
        raise ConfigError(f"{where}: the request body must be a JSON object")
    unknown = sorted(set(data) - set(fields))
    if unknown:
        raise ConfigError(f"{where}: unknown field {unknown[0]!r}; it accepts "
                          f"{', '.join(fields)}")
    out = {}
    for name, (kind, default) in fields.items():
        if name not in data:
            if default is REQUIRED:
                raise ConfigError(f"{where}: missing field {name!r}")
            out[name] = default
            continue
        value = data[name]
        if isinstance(value, bool) and bool not in (kind if isinstance(kind, tuple) else (kind,)):
            value = None  # JSON true/false is not a number here
        if not isinstance(value, kind):
            names = " or ".join(_JSON_NAMES.get(k, k.__name__)
                                for k in (kind if isinstance(kind, tuple) else (kind,)))
            raise ConfigError(f"{where}: field {name!r} must be {names}, got {data[name]!r}")
        out[name] = value
    return out
