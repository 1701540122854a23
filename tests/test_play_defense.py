"""The Last Lighthouse in a real Chromium: two cannons placed by clicking, a sealing wall
refused with its reason, wave 1 at max speed with the review's figures equal to the
API's WaveRecord for the same seed and placements, a retry after a defeat, and the
victory card after three waves held."""
import copy

from browser import (  # noqa: F401  (fixtures)
    browser, server, shot, sokoban_batch, wait_state, watched)
from levelforge.defense import Defense


def _place(page, x, y):
    before = page.locator("[data-building]").count()
    page.click(f'[data-cell="{x},{y}"]')
    return before


def test_build_refuse_fight_at_max_speed_and_review_the_record(server, watched):
    page = watched.page
    page.goto(server + "defense?seed=4")
    wait_state(page, "build")
    banner = page.locator("#forecast .banner").text_content()
    assert Defense(seed=4).forecast().banner() in banner
    twin = Defense(seed=4)
    cannons = [(x, y) for x, y, kind in twin.scenario.plan[0] if kind == "cannon"]
    for x, y in cannons:
        _place(page, x, y)
        page.wait_for_selector(f'[data-building="{x},{y}"]')
        twin.place(x, y, "cannon")
    assert page.locator("#material").text_content() == "2"
    sealing = next((x, y) for y in range(9) for x in range(7)
                   if twin.check_placement(x, y, "wall").code == "seals_route")
    reason = twin.check_placement(*sealing, "wall")
    page.keyboard.press("w")
    page.hover(f'[data-cell="{sealing[0]},{sealing[1]}"]')
    status = page.locator("#status").text_content()
    assert status.startswith(f"Cannot build a wall at ({sealing[0]}, {sealing[1]}): would seal "
                             f"the route from entrance {' and '.join(reason.entrances)}")
    assert page.locator(".route.cut").count() == len(reason.entrances)
    shot(page, "defense-build")
    page.click(f'[data-cell="{sealing[0]},{sealing[1]}"]')
    page.wait_for_selector('body[data-refused="seals_route"]')
    assert page.locator("#material").text_content() == "2"
    assert page.locator("[data-building]").count() == 2
    page.keyboard.press("c")
    page.click("[data-speed='1']")
    page.click("#start")
    page.wait_for_function("Number(document.getElementById('map').dataset.tick) > 150")
    page.keyboard.press("p")
    shot(page, "defense-wave")
    page.click("[data-speed='max']")
    page.wait_for_selector("#card:not([hidden])")
    rec = twin.run_wave()
    shown = page.locator("#map")  # the last frame the animation drew
    assert [shown.get_attribute(f"data-{k}") for k in ("status", "tick", "kills", "health")] == \
        [rec.outcome, str(rec.ticks), str(rec.kills), str(rec.health)]
    card = page.locator("#card")
    figures = {k: card.locator(f'[data-field="{k}"]').text_content()
               for k in ("kills", "leaks_a", "leaks_b", "buildings", "health")}
    assert figures == {"kills": str(rec.kills), "leaks_a": str(rec.leaks_a),
                       "leaks_b": str(rec.leaks_b), "buildings": f"{rec.cannons} / {rec.walls}",
                       "health": str(rec.health)}
    assert card.locator('[data-field="ticks"]').get_attribute("data-ticks") == str(rec.ticks)
    stops = [card.locator(f'[data-field="stops-{i}"]').text_content() for i in range(2)]
    assert stops == [str(s) for s in rec.overheat_stops]
    shot(page, "defense-review")
    assert page.locator("#material").text_content() == str(twin.material)
    assert page.locator("#wave").text_content() == f"{twin.wave} / 3"


def test_retry_after_a_defeat_restores_the_build(server, watched):
    page = watched.page
    page.goto(server + "defense?seed=0")
    wait_state(page, "build")
    page.click("[data-speed='max']")
    page.keyboard.press("Enter")  # an empty defence loses wave 1
    page.wait_for_selector('#card[data-outcome="lost"]:not([hidden])')
    rec = Defense(seed=0).run_wave()
    assert page.locator('#card [data-field="leaks_a"]').text_content() == str(rec.leaks_a)
    assert page.get_attribute("body", "data-state") == "defeat"
    shot(page, "defense-defeat")
    page.click("#card-retry")
    wait_state(page, "build")
    assert page.locator("#card").is_hidden()
    assert (page.locator("#material").text_content(), page.locator("#health").text_content()) \
        == ("10", "5")
    assert page.locator("#records").text_content().endswith("No wave fought yet.")


def _winning_plan(seed):
    """Cannons to build before waves 1, 2 and 3 that hold all three (found by playing)."""
    cells = [(x, y) for y in range(9) for x in range(7)]
    openings = [((3, 6), (4, 6))] + [(a, b) for i, a in enumerate(cells) for b in cells[i + 1:]]

    def holds(d, more):
        for cell in more:
            if not d.check_placement(*cell, "cannon").ok:
                return None
            d.place(*cell, "cannon")
        return d if d.run_wave().outcome == "won" else None

    for opening in openings:
        first = holds(Defense(seed=seed), opening)
        for c in cells if first else ():
            second = holds(copy.deepcopy(first), [c])
            for e in cells if second else ():
                if holds(copy.deepcopy(second), [e]):
                    return [list(opening), [c], [e]]
    raise AssertionError("no three-wave win found")


def test_three_waves_held_show_the_victory_card_with_every_record(server, watched):
    page = watched.page
    plan = _winning_plan(4)
    page.goto(server + "defense?seed=4")
    wait_state(page, "build")
    page.click("[data-speed='max']")
    for wave, cells in enumerate(plan, 1):
        for x, y in cells:
            page.click(f'[data-cell="{x},{y}"]')
            page.wait_for_selector(f'[data-building="{x},{y}"]')
        page.click("#start")
        page.wait_for_selector('#card[data-outcome="won"]:not([hidden])')
        if wave < 3:
            page.click("#next")
    wait_state(page, "victory")
    assert page.locator("#card h3").text_content() == "The lighthouse stands"
    assert page.locator("#card .wave-cards > div").count() == 3
    assert page.locator("#records tr.won").count() == 3
    shot(page, "defense-victory")
