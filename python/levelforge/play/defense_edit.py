"""The lighthouse scenario editor's endpoints: the live layout (legal cells and why,
routes) of an edited scenario, and the balance report in pieces.

The page keeps the whole scenario (the dict a scenario file holds) and sends it with each
request; the server validates it with :meth:`levelforge.defense.Scenario.from_dict`, so a
broken scenario answers 400 naming the field at fault. The balance report runs a piece
at a time (:func:`levelforge.defense.balance_part`): the page shows the progress, can
stop, and asks for the joined report with the pieces it got back.

>>> import json
>>> answer = layout_of(json.dumps({"scenario": None}).encode())
>>> answer["scenario"]["name"], answer["layout"]["cannon"][8][3]
('lighthouse', 'beacon')
"""
from ..defense import BalancePart, BalanceReport, Scenario, balance_part, layout
from ..errors import ConfigError
from .query import REQUIRED, parse_body

MAX_PARTS = 64


def _scenario(data):
    return Scenario.lighthouse() if data is None else Scenario.from_dict(data)


def layout_of(body):
    """``POST /api/defense/edit/layout``: ``{"scenario"}`` (None: the lighthouse) to the
    validated scenario, its :func:`~levelforge.defense.layout` and the waves' forecasts."""
    data = parse_body(body, {"scenario": ((dict, type(None)), None)}, "layout")
    s = _scenario(data["scenario"])
    return {"scenario": s.to_dict(), "layout": layout(s).to_dict(),
            "forecasts": [s.forecast(w, 0).banner() for w in range(1, len(s.waves) + 1)]}


def balance_piece(body):
    """``POST /api/defense/edit/balance``: ``{"scenario", "part", "parts", "seeds"}`` to
    one :class:`~levelforge.defense.BalancePart` as a dict."""
    data = parse_body(body, {"scenario": ((dict, type(None)), None), "part": (int, 0),
                             "parts": (int, 8), "seeds": (list, [19, 20])}, "balance")
    if not 1 <= data["parts"] <= MAX_PARTS:
        raise ConfigError(f"balance: parts must be in [1, {MAX_PARTS}], got {data['parts']}")
    if len(data["seeds"]) > 4:
        raise ConfigError("balance: at most 4 seeds")
    return balance_part(_scenario(data["scenario"]), data["part"], data["parts"],
                        data["seeds"]).to_dict()


def report(body):
    """``POST /api/defense/edit/report``: ``{"parts": [piece, ...]}`` to the joined
    :class:`~levelforge.defense.BalanceReport` with its facts."""
    data = parse_body(body, {"parts": (list, REQUIRED)}, "report")
    try:
        parts = [BalancePart.from_dict(p) for p in data["parts"]]
    except (TypeError, KeyError, ValueError, AttributeError):
        raise ConfigError("report: the pieces must be the balance answers, unchanged") from None
    return BalanceReport.from_parts(parts).to_dict()


def routes():
    """``(method, path, handler(request, body, state))`` of the editor's API."""
    return [("POST", "/api/defense/edit/layout", lambda r, b, s: layout_of(b)),
            ("POST", "/api/defense/edit/balance", lambda r, b, s: balance_piece(b)),
            ("POST", "/api/defense/edit/report", lambda r, b, s: report(b))]
