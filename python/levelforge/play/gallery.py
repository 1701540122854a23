"""The gallery: every level of the opened file as a thumbnail, paged and filtered by its
figures, each a link into the game.

>>> from levelforge.sokoban import collections
>>> from .files import open_file
>>> opened = open_file(collections.path("microban"))
>>> page = items_page(opened, {"boxes": (2, 2)}, page=0, per_page=3)
>>> page["matched"], [it["href"] for it in page["items"]]
(28, ['/sokoban/file/0', '/sokoban/file/2', '/sokoban/file/7'])
"""
import math

from ..errors import ConfigError
from .files import SYMMETRY
from .query import Query

PER_PAGE = 48
"""Thumbnails on one page of the gallery (the page may ask for 1 to 200)."""
THUMB = 132
"""Target side of a thumbnail in pixels."""


def _check_file(opened, query):
    if opened is None:
        raise ConfigError("levelforge play was started without a level file: run "
                          "`levelforge play LEVELS.jsonl` (or .xsb) to open the gallery")
    if opened.kind == "defense":
        raise ConfigError(f"{opened.name} is a defense scenario, not a level file: play it "
                          "at /defense")
    name = query.text("file", None)
    if name is not None and name != opened.name:
        raise ConfigError(f"this server shows only {opened.name}, the file it was started "
                          f"with, not {name!r}")
    return opened


def summary(opened, query):
    """``GET /api/gallery``: the file's name, kind, count and every figure's values."""
    _check_file(opened, query)
    return {"name": opened.name, "kind": opened.kind, "count": opened.count,
            "figures": opened.figures, "charted": opened.charted(),
            "values": {n: opened.values[n] for n in opened.charted()}}


def _thumbnail(opened, item):
    if opened.kind == SYMMETRY:
        puzzle = opened.puzzle(item)
        return puzzle.to_svg(cell=max(4, THUMB / 2 / (puzzle.size + 0.5)))
    level = opened.level(item)
    return level.to_svg(cell=max(3, THUMB // max(level.width, level.height)))


def items_page(opened, filters, page=0, per_page=PER_PAGE):
    """One page of the items matching ``filters`` (figure name to ``(lo, hi)``)."""
    unknown = sorted(set(filters) - set(opened.figures))
    if unknown:
        raise ConfigError(f"{opened.name} has no figure {unknown[0]!r}; it has "
                          f"{', '.join(opened.figures)}")
    if not 1 <= per_page <= 200:
        raise ConfigError(f"per_page must be in [1, 200], got {per_page}")
    matched = opened.matching(filters)
    pages = max(1, math.ceil(len(matched) / per_page))
    if not 0 <= page < pages:
        raise ConfigError(f"page {page} does not exist: {len(matched)} matching items make "
                          f"{pages} page(s), numbered from 0")
    game = "symmetry" if opened.kind == SYMMETRY else "sokoban"
    items = [{"item": i, "title": opened.titles[i], "figures": opened.record(i),
              "svg": _thumbnail(opened, i), "href": f"/{game}/file/{i}"}
             for i in matched[page * per_page:(page + 1) * per_page]]
    return {"count": opened.count, "matched": len(matched), "page": page, "pages": pages,
            "per_page": per_page, "items": items}


def items(opened, request):
    """``GET /api/gallery/items?page=&per_page=&FIGURE=LO-HI...``."""
    accepted = ("file", "page", "per_page") + tuple(opened.figures if opened else ())
    query = Query(request.query_params, accepted, request.url.path)
    _check_file(opened, query)
    filters = {n: query.range(n) for n in opened.figures if n in query}
    return items_page(opened, filters, query.int("page", 0), query.int("per_page", PER_PAGE))


def routes():
    """``(method, path, handler(request, body, state))`` of the gallery API."""
    return [
        ("GET", "/api/gallery", lambda r, b, s: summary(
            s.opened, Query(r.query_params, ("file",), r.url.path))),
        ("GET", "/api/gallery/items", lambda r, b, s: items(s.opened, r)),
    ]
