"""The gallery in a real Chromium: a 1,000-level batch file opened, filtered (typed ranges
and a brush on a histogram), and a level played from it; the start page."""
import json
import re

import pytest

from browser import (  # noqa: F401  (fixtures)
    browser, server, shot, sokoban_batch, wait_state, watched)
from levelforge import sokoban

KEYS = {"u": "ArrowUp", "l": "ArrowLeft", "r": "ArrowRight", "d": "ArrowDown"}


def _records(path):
    with open(path) as fh:
        return [json.loads(line) for line in fh]


def _count(page):
    return int(re.match(r"[\d,]+", page.locator("#count").text_content()).group().replace(",", ""))


def test_gallery_of_1000_levels_filtered_then_a_level_played(server, watched, sokoban_batch):
    page = watched.page
    records = _records(sokoban_batch)
    page.goto(server + "gallery?file=levels.jsonl")
    wait_state(page, "ready")
    assert page.locator("#count").text_content() == "1,000 levels"
    assert page.locator(".thumb").count() == 48
    page.wait_for_selector("#chart-pushes svg")
    shot(page, "gallery")
    page.fill("[name=pushes-lo]", "7")
    page.fill("[name=pushes-hi]", "7")
    page.fill("[name=elapsed_ms-hi]", "50")
    page.click("#filters button[type=submit]")
    page.wait_for_url("**pushes=7-7**")
    want = [i for i, r in enumerate(records) if r["pushes"] == 7 and r["elapsed_ms"] <= 50]
    page.wait_for_function(f"document.getElementById('count').textContent.startsWith("
                           f"'{len(want):,} of')")
    items = [int(v) for v in page.locator(".thumb").evaluate_all(
        "els => els.map(e => e.dataset.item)")]
    assert items == want[:48]
    page.click("#next")
    page.wait_for_url("**page=1**")
    page.wait_for_function(f"document.querySelector('.thumb').dataset.item === '{want[48]}'")
    page.locator(".thumb").first.click()
    page.wait_for_url(f"**/sokoban/file/{want[48]}")
    wait_state(page, "playing")
    record = records[want[48]]
    assert page.locator("#optimal").text_content() == "7"
    for letter in record["solution"]:
        page.keyboard.press(KEYS[letter.lower()])
    wait_state(page, "solved")
    assert page.locator("#pushes").text_content() == "7"
    level = sokoban.read_xsb(record["level"])[0]
    assert sokoban.replay(level, record["solution"]).is_solved


def test_brushing_a_histogram_filters_the_levels(server, watched, sokoban_batch):
    page = watched.page
    records = _records(sokoban_batch)
    page.goto(server + "gallery")
    wait_state(page, "ready")
    chart = page.locator("#chart-moves svg")
    chart.wait_for()
    box = chart.bounding_box()
    y = box["y"] + box["height"] * 0.4
    page.mouse.move(box["x"] + box["width"] * 0.3, y)
    page.mouse.down()
    page.mouse.move(box["x"] + box["width"] * 0.6, y, steps=6)
    page.mouse.up()
    page.wait_for_url("**moves=**")
    lo, hi = (int(v) for v in re.search(r"moves=(\d+)-(\d+)", page.url).groups())
    assert lo <= hi
    want = sum(lo <= r["moves"] <= hi for r in records)
    page.wait_for_function(f"document.getElementById('count').textContent.startsWith("
                           f"'{want:,} of')")
    assert page.locator("[name=moves-lo]").input_value() == str(lo)
    shot(page, "gallery-filtered")


def test_start_page_links_every_game_and_names_the_file(server, watched):
    page = watched.page
    page.goto(server)
    page.wait_for_function("document.getElementById('gallery-text').textContent"
                           ".includes('levels.jsonl')")
    hrefs = page.locator(".card").evaluate_all("els => els.map(e => e.getAttribute('href'))")
    assert hrefs == ["/sokoban", "/sokoban/campaign/0", "/sokoban/microban/1", "/symmetry",
                     "/mines", "/defense", "/gallery", "/sokoban/edit", "/symmetry/edit",
                     "/mines/edit", "/defense/edit"]
    shot(page, "home")


@pytest.fixture(scope="module")
def puzzle_server(tmp_path_factory):
    """A play server started with a 40-puzzle symmetry batch (JSONL)."""
    from levelforge import batch, play, symmetry
    path = tmp_path_factory.mktemp("play") / "puzzles.jsonl"
    batch.run(symmetry.Generator(5), 40, seed=2, path=str(path), show_progress=False)
    with play.running(path) as url:
        yield url, path


def test_gallery_of_symmetry_puzzles_opens_one_to_play(puzzle_server, watched):
    url, path = puzzle_server
    page = watched.page
    records = _records(path)
    page.goto(url + "gallery")
    wait_state(page, "ready")
    assert page.locator("#count").text_content() == "40 levels"
    page.wait_for_selector("#chart-branch_points svg")
    shot(page, "gallery-symmetry")
    lo = sorted(r["difficulty"]["branch_points"] for r in records)[20]
    page.fill("[name=branch_points-lo]", str(lo))
    page.click("#filters button[type=submit]")
    want = [i for i, r in enumerate(records) if r["difficulty"]["branch_points"] >= lo]
    page.wait_for_function(f"document.getElementById('count').textContent.startsWith("
                           f"'{len(want)} of')")
    page.locator(".thumb").first.click()
    page.wait_for_url(f"**/symmetry/file/{want[0]}")
    wait_state(page, "playing")
    page.click("#show")
    wait_state(page, "solved")
    drawn = page.evaluate("JSON.parse(document.querySelector('#board-a svg').dataset.path)")
    assert drawn == records[want[0]]["solution"]
