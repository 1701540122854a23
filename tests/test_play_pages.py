"""The HTML pages: each is the one shell (shared head, top bar) around its own parts,
assembled once at start-up; no request data goes into a page; a malformed page file is
refused with its name."""
import re

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

import httpx  # noqa: E402

from levelforge import play  # noqa: E402
from levelforge.play import pages  # noqa: E402

GAMES = ("sokoban", "symmetry", "mines", "defense", "sokoban_edit", "symmetry_edit",
         "mines_edit", "defense_edit")


@pytest.fixture(scope="module")
def client():
    with play.running() as url, httpx.Client(base_url=url, timeout=60) as c:
        yield c


@pytest.mark.parametrize("path", sorted(pages.PAGES))
def test_every_page_is_the_shell_around_its_own_parts(client, path):
    name = pages.PAGES[path]
    answer = client.get(path)
    assert answer.status_code == 200 and answer.headers["content-type"].startswith("text/html")
    html = answer.text
    once = ["<!doctype html>", "<head>", '<meta charset="utf-8">', "</head>",
            '<link rel="stylesheet" href="/static/css/play.css">',
            '<header id="top" class="top"></header>',
            f'<script type="module" src="/static/js/{name}.js"></script>']
    for text in once:
        assert html.count(text) == 1, (path, text)
    assert re.search(r"\$\w", html) is None  # every slot filled
    own = pages.parts(name)
    assert f"<title>{own['title']}</title>" in html
    for part, text in own.items():
        assert text in html, (path, part)
    game = [html.count(text) for text in ('<div id="error"', 'id="status"', 'id="share"')]
    assert game == ([1, 1, 1] if name in GAMES else [int(name != "index")] * 2 + [0])
    assert ('<script type="importmap">' in html) == (name == "mines")


def test_sub_paths_are_their_games_page(client):
    assert client.get("/sokoban/microban/3").text == client.get("/sokoban").text
    assert client.get("/symmetry/file/2").text == client.get("/symmetry").text


def test_pages_hold_no_request_data(client):
    plain = client.get("/mines").text
    assert client.get("/mines?level=%3Cscript%3Ealert(1)%3C/script%3E&title=$page").text \
        == plain


@pytest.mark.parametrize("text, message", [
    ("<!-- title -->\nT\n<!-- stage -->\nS\n<!-- share -->\nH\n",
     "pages/bad.html: parts ['share', 'stage', 'title']; a page has title (and head), then "
     "main, or stage, panel and share"),
    ("<!-- title -->\nT\n<!-- main -->\nM\n<!-- main -->\nM\n",
     "pages/bad.html: part 'main' given twice"),
    ("<main>\n<!-- title -->\nT\n", "pages/bad.html: text before its first <!-- part --> line"),
])
def test_a_malformed_page_file_is_refused_with_its_name(tmp_path, monkeypatch, text, message):
    (tmp_path / "bad.html").write_text(text, encoding="utf-8")
    monkeypatch.setattr(pages, "HERE", str(tmp_path))
    with pytest.raises(ValueError) as err:
        pages.assemble("bad")
    assert str(err.value) == message
