"""Random bodies and query strings at every route of the play server's API: every answer
is one JSON object with status 200, 400, 403, 404 or 413, never a 500, and the server
keeps answering."""
import json
import re
import string
from types import SimpleNamespace

import pytest

httpx = pytest.importorskip("httpx")
pytest.importorskip("starlette")
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from levelforge import play  # noqa: E402
from levelforge.play.api import endpoints  # noqa: E402

ENDPOINTS = endpoints() + [SimpleNamespace(method="GET", path=p) for p in (
    "/api/info", "/api/status", "/api/watch", "/api/nothing/{item}")]
"""Every route of the API: the engine's, the server's own, and one that does not exist."""
INTERNALS = re.compile(r"Traceback|NoneType|object is not|object has no|unhashable|"
                       r"not subscriptable|invalid literal|File \"|numba|: '\w+'$")
"""Python's own words, which an answer must never show (a KeyError's bare key last)."""
NAMES = sorted({"xsb", "moves", "action", "time_limit", "game", "cell", "step", "frames",
                "size", "board_a", "board_b", "path", "x", "y", "kind", "seed", "width",
                "height", "boxes", "inner_walls", "pushes", "level", "start", "no_guess",
                "exact", "strategy", "solution", "scenario", "page", "per_page", "file", "start",
                "goal", "required", "forbidden"})
XSB = ["#####\n#@$.#\n#####", "######\n#@$ .#\n######", "; t\ud800\n#####\n#+*.#\n#####"]
ACTIONS = ["u", "l", "r", "d", "undo", "restart", "open", "flag", "chord", "place",
           "retry", "fight"]
SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-2 ** 90, 2 ** 90),
                    st.integers(-3, 12), st.floats(allow_nan=False, allow_infinity=False),
                    st.text(max_size=12), st.sampled_from(XSB + ACTIONS))
VALUES = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=4) |
                      st.dictionaries(st.sampled_from(NAMES), inner, max_size=3),
                      max_leaves=8)
POINT = st.lists(st.integers(-2, 9), min_size=2, max_size=2) | VALUES
BOARD = st.fixed_dictionaries({"start": POINT, "goal": POINT}, optional={
    "required": st.lists(POINT, max_size=3) | VALUES,
    "forbidden": st.lists(st.lists(POINT, max_size=3), max_size=3) | VALUES})
INTS = st.integers(-3, 12) | st.integers(-2 ** 90, 2 ** 90)
TYPED = {"size": INTS, "path": st.lists(POINT, max_size=6), "board_a": BOARD,
         "board_b": BOARD, "cell": st.lists(INTS | VALUES, max_size=4), "x": INTS, "y": INTS,
         "step": INTS, "frames": INTS, "xsb": st.sampled_from(XSB) | st.text(max_size=30),
         "action": st.sampled_from(ACTIONS), "moves": st.text("udlrUDLRx", max_size=8),
         "time_limit": st.floats(-1, 2) | INTS, "kind": st.sampled_from(["wall", "cannon"])}
"""Values of the right shape for each field, so that random bodies reach the handlers."""
FIELDS = {"/api/sokoban/move": ("xsb", "moves", "action"),
          "/api/sokoban/solve": ("xsb", "moves", "time_limit"),
          "/api/symmetry/check": ("size", "board_a", "board_b", "path"),
          "/api/mines/act": ("game", "action", "cell"),
          "/api/defense/act": ("game", "action", "x", "y", "kind"),
          "/api/defense/fight": ("game", "step", "frames"),
          "/api/sokoban/edit/check": ("xsb", "rle", "time_limit"),
          "/api/sokoban/edit/improve": ("xsb", "seed", "first", "count", "max_nodes",
                                        "criterion"),
          "/api/symmetry/edit/check": ("size", "board_a", "board_b"),
          "/api/symmetry/edit/finish": ("size", "board_a", "board_b", "seed"),
          "/api/mines/edit/check": ("width", "height", "depth", "mines", "start", "logic"),
          "/api/mines/edit/random": ("width", "height", "depth", "count", "seed", "start"),
          "/api/defense/edit/layout": ("scenario",),
          "/api/defense/edit/balance": ("scenario", "part", "parts", "seeds"),
          "/api/defense/edit/report": ("parts",)}
"""The fields each POST route reads (random bodies use these most of the time)."""
QUERY_TEXT = st.one_of(st.text(string.printable, max_size=8), st.integers(-5, 70).map(str),
                       st.sampled_from(["easy", "9x9x1-10", "4-8", "4,4,0", "1", "0", "2-",
                                        "DIAGONAL", "%", "\x00", "1e99", "-1"]))


@pytest.fixture(scope="module")
def client():
    app = play.create_app(deadline=5)
    with play.running(app=app) as url, httpx.Client(base_url=url, timeout=60) as c:
        yield c


@pytest.fixture(scope="module")
def games(client):
    """A live game of each kind, so that random calls sometimes reach a real game."""
    return [client.get("/api/mines/new?level=easy&seed=1").json()["game"],
            client.get("/api/defense/new?seed=1").json()["game"], "nope"]


def _path(template, data):
    for name in ("index", "number", "item"):
        template = template.replace("{" + name + "}", data.draw(
            st.one_of(st.integers(-3, 200).map(str), st.text(string.ascii_letters + "%.",
                                                             min_size=1, max_size=5))))
    return template


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_random_requests_answer_json_and_never_500(client, games, data):
    endpoint = data.draw(st.sampled_from(ENDPOINTS))
    path = _path(endpoint.path, data)
    params = data.draw(st.dictionaries(st.sampled_from(NAMES + ["game"]), QUERY_TEXT,
                                       max_size=4))
    if "game" in params:
        params["game"] = data.draw(st.sampled_from(games))
    if endpoint.method == "GET":
        response = client.get(path, params=params)
    else:
        known = {name: TYPED.get(name, VALUES) | VALUES for name in FIELDS[endpoint.path]}
        fields = data.draw(st.fixed_dictionaries(known) |
                           st.fixed_dictionaries({}, optional=known) |
                           st.dictionaries(st.sampled_from(NAMES), VALUES, max_size=4))
        if "game" in known and data.draw(st.booleans()):
            fields["game"] = data.draw(st.sampled_from(games))
        body = data.draw(st.one_of(
            st.just(json.dumps(fields).encode()), st.binary(max_size=40),
            VALUES.map(lambda v: json.dumps(v).encode())))
        response = client.post(path, content=body,
                               headers={"Content-Type": "application/json"})
    assert response.status_code in (200, 400, 403, 404, 413), (path, response.text)
    answer = response.json()
    assert isinstance(answer, dict)
    if response.status_code != 200:
        assert set(answer) <= {"error", "limit"} and isinstance(answer["error"], str)
        assert not INTERNALS.search(answer["error"]), answer["error"]
