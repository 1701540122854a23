"""The HTML pages: one shell (the shared head and top bar) around each page's own parts.

A page file ``pages/NAME.html`` is a list of named parts, each begun by a line
``<!-- PART -->``: ``title``, optionally ``head`` (extra head lines, such as an import
map), then either ``main`` (a page with its own layout) or ``stage``, ``panel`` and
``share`` (a game: its stage, its side panel and the share box's hint, laid out by
``game.html`` with the error and status lines). ``shell.html`` loads ``js/NAME.js``.
The app assembles every page once, at start-up, by plain substitution of named slots
(:class:`string.Template`, on the shells only: a part's text goes in as it is); no
request data ever goes into a page.

>>> html = assemble("mines")
>>> html.count("<head>"), html.count('<script type="module" src="/static/js/mines.js">')
(1, 1)
>>> '<div id="error"' in html and '<script type="importmap">' in html
True
"""
import os
import re
from string import Template

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "pages")
PAGES = {"/": "index", "/sokoban/edit": "sokoban_edit", "/sokoban": "sokoban",
         "/symmetry/edit": "symmetry_edit", "/symmetry": "symmetry", "/gallery": "gallery",
         "/mines/edit": "mines_edit", "/mines": "mines",
         "/defense/edit": "defense_edit", "/defense": "defense", "/watch": "watch"}
"""Each page path and its page file (paths below ``/sokoban/`` and ``/symmetry/`` too; an
editor's path comes before its game's, which would otherwise take it)."""
_MARK = re.compile(r"^<!-- (\w+) -->\n", re.M)


def _read(name):
    with open(os.path.join(HERE, name + ".html"), encoding="utf-8") as f:
        return f.read()


def parts(name):
    """The named parts of page file ``name`` (a dict of texts)."""
    pieces = _MARK.split(_read(name))
    where = f"pages/{name}.html"
    if pieces[0].strip():
        raise ValueError(f"{where}: text before its first <!-- part --> line")
    found = {}
    for part, text in zip(pieces[1::2], pieces[2::2]):
        if part in found:
            raise ValueError(f"{where}: part {part!r} given twice")
        found[part] = text.rstrip("\n")
    if set(found) - {"head"} not in ({"title", "main"}, {"title", "stage", "panel", "share"}):
        raise ValueError(f"{where}: parts {sorted(found)}; a page has title (and head), then "
                         "main, or stage, panel and share")
    return found


def assemble(name):
    """The whole HTML of page ``name``: its parts in the shell (and the game layout)."""
    p = parts(name)
    main = p["main"] if "main" in p else Template(_read("game")).substitute(p)
    return Template(_read("shell")).substitute(
        title=p["title"], head=p["head"] + "\n" if "head" in p else "", page=name, main=main)
