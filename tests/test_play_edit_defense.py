"""The lighthouse scenario editor in a real Chromium: legal cells and routes as the API
lays them out, before and after painting and editing the material; the exported scenario
loaded by ``Scenario.load`` and played in ``levelforge play FILE``; the balance report
with every design fact, and a report stopped half-way."""
import json
from urllib.parse import parse_qs, urlparse

from browser import (  # noqa: F401  (fixtures)
    browser, open_page, server, shot, sokoban_batch, wait_state, watched)
from levelforge import play
from levelforge.defense import Defense, Scenario, layout


def _scenario(page):
    return Scenario.from_dict(json.loads(parse_qs(urlparse(page.url).query)["scenario"][0]))


def _codes(page, lay):
    h, w = lay.height, lay.width
    got = page.eval_on_selector_all("#grid i", "cells => cells.map(c => c.dataset.code)")
    return [got[y * w:(y + 1) * w] for y in range(h)]


def test_legal_cells_follow_the_map_and_the_material(server, watched):
    page = watched.page
    page.goto(server + "defense/edit")
    wait_state(page, "checked")
    lay = layout(Scenario.lighthouse())
    assert _codes(page, lay) == [list(r) for r in lay.cannon]
    page.click('[data-tool="#"]')
    page.locator('#grid i[data-x="3"][data-y="4"]').click()
    wait_state(page, "checked")
    edited = _scenario(page)
    assert edited.map[4] == "...#..."
    lay = layout(edited)
    assert _codes(page, lay) == [list(r) for r in lay.cannon]
    route_a = {(int(c.get_attribute("data-x")), int(c.get_attribute("data-y")))
               for c in page.locator("#grid i.ra").all()}
    assert route_a == set(lay.routes["A"])
    page.fill('[data-economy="cannon_cost"]', "11")
    page.locator('[data-economy="cannon_cost"]').dispatch_event("change")
    wait_state(page, "checked")
    assert all(c != "none" for row in _codes(page, layout(_scenario(page))) for c in row)
    shot(page, "defense-edit")


def test_exported_scenario_loads_and_plays_in_levelforge_play(server, watched, tmp_path):
    page = watched.page
    page.goto(server + "defense/edit")
    wait_state(page, "checked")
    page.click('[data-tool="#"]')
    page.locator('#grid i[data-x="6"][data-y="6"]').click()
    wait_state(page, "checked")
    with page.expect_download() as info:
        page.click("#download")
    path = tmp_path / "scenario.json"
    info.value.save_as(path)
    loaded = Scenario.load(path)
    assert loaded == _scenario(page) and loaded.map[6] == "......#"
    expected = Defense(loaded, 0).run_wave()
    with play.running(path) as url:
        page.goto(url + "defense?seed=0")
        wait_state(page, "build")
        page.click("[data-speed='max']")
        page.keyboard.press("Enter")
        page.wait_for_selector('#card[data-outcome="lost"]:not([hidden])')
        assert page.locator('#card [data-field="leaks_a"]').text_content() == \
            str(expected.leaks_a)


def test_balance_report_checks_every_design_fact_and_stops(server, watched):
    page = watched.page
    page.goto(server + "defense/edit")
    wait_state(page, "checked")
    page.click("#balance")
    page.wait_for_function("document.getElementById('balance-progress').value > 0")
    page.click("#stop")
    page.wait_for_selector('body[data-balance="stopped"]')
    page.click("#balance")
    page.wait_for_selector('body[data-balance="done"]', timeout=600_000)
    holds = page.eval_on_selector_all("#facts li", "li => li.map(x => x.dataset.holds)")
    assert holds == ["true"] * 5
    assert "324 of 1163" in page.locator("#facts").text_content()
    page.wait_for_selector("#chart-kills svg")
    page.locator("#report").scroll_into_view_if_needed()
    shot(page, "defense-edit-balance")
