"""Fixtures for the browser tests: one Chromium per session (Playwright, the system
browser), play servers in background threads, pages that fail the test on any script
error, and screenshots kept in ``tests/screenshots/`` (gitignored) for people to look at.

Test modules import what they use: ``from browser import browser, page, shot, ...``.
Without Playwright or a Chromium the tests skip with a one-line reason.
"""
import os
import re
import shutil

import pytest

SCREENSHOTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "screenshots")
TIMEOUT_MS = 60_000  # a bound on every wait; the first request may compile kernels
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
_HTTP_ERROR = re.compile(r"Failed to load resource: the server responded with a status of 4\d\d")
_SHARED = {}


def chromium_path():
    """The system Chromium, or None."""
    for name in ("chromium", "chromium-browser", "google-chrome", "chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


def _shared(name, make, close):
    """A session fixture body shared by every module that imports it: ``make()`` once,
    ``close(value)`` after the last user (pytest makes one fixture per importing module)."""
    if name not in _SHARED:
        _SHARED[name] = [make(), 0]
    _SHARED[name][1] += 1
    yield _SHARED[name][0]
    _SHARED[name][1] -= 1
    if _SHARED[name][1] == 0:
        close(_SHARED.pop(name)[0])


def _launch():
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip("playwright is not installed (pip install -e '.[test]')")
    path = chromium_path()
    if path is None:
        pytest.skip("no Chromium found (apt-get install chromium)")
    driver = sync_playwright().start()
    return driver, driver.chromium.launch(executable_path=path, args=ARGS)


def _quit(pair):
    pair[1].close()
    pair[0].stop()


@pytest.fixture(scope="session")
def browser():
    """One Chromium for the whole session, shared by every module that imports this."""
    for driver_and_browser in _shared("browser", _launch, _quit):
        yield driver_and_browser[1]


class Watched:
    """A page with its console errors and uncaught exceptions collected."""

    def __init__(self, page):
        self.page = page
        self.errors = []
        self.http_errors_expected = False
        page.on("pageerror", lambda exc: self.errors.append(f"uncaught: {exc}"))
        page.on("console", lambda msg: msg.type == "error" and self.errors.append(msg.text))

    def unexpected(self):
        return [e for e in self.errors
                if not (self.http_errors_expected and _HTTP_ERROR.search(e))]


def open_page(browser, viewport=(1280, 860), touch=False):
    """A fresh context and page (call ``watched.page.context.close()`` when done); with
    ``touch``, a phone-like context (touch events, mobile viewport rules)."""
    extra = {"has_touch": True, "is_mobile": True} if touch else {}
    context = browser.new_context(viewport={"width": viewport[0], "height": viewport[1]},
                                  **extra)
    context.set_default_timeout(TIMEOUT_MS)
    return Watched(context.new_page())


@pytest.fixture
def touched(browser):
    """A touch-enabled page, failing the test on a script or console error (as
    ``watched``); drive it with :class:`Finger`."""
    w = open_page(browser, touch=True)
    yield w
    w.page.context.close()
    assert w.unexpected() == []


class Finger:
    """One finger on a touch page: real touchstart/touchmove/touchend events sent
    through the Chrome DevTools Protocol (``Input.dispatchTouchEvent``), in CSS pixels
    of the viewport."""

    def __init__(self, page):
        self.page = page
        self.cdp = page.context.new_cdp_session(page)

    def _send(self, kind, points):
        self.cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": [
            {"x": x, "y": y, "id": 0} for x, y in points]})

    def down(self, x, y):
        self._send("touchStart", [(x, y)])
        self.at = (x, y)

    def move(self, x, y, steps=1):
        x0, y0 = self.at
        for k in range(1, steps + 1):
            self._send("touchMove", [(x0 + (x - x0) * k / steps, y0 + (y - y0) * k / steps)])
        self.at = (x, y)

    def up(self):
        self._send("touchEnd", [])

    def tap(self, x, y):
        self.down(x, y)
        self.up()

    def press(self, x, y, ms):
        """Touch and hold for ``ms`` milliseconds of real time, then lift."""
        self.down(x, y)
        self.page.wait_for_timeout(ms)
        self.up()


@pytest.fixture
def watched(browser):
    """A page that fails the test on a script error or a console error (a 4xx answer
    only when the test says it expects one: ``watched.http_errors_expected = True``)."""
    w = open_page(browser)
    yield w
    w.page.context.close()
    assert w.unexpected() == []


def shot(page, name):
    """Save a screenshot of the page as ``tests/screenshots/NAME.png``."""
    os.makedirs(SCREENSHOTS, exist_ok=True)
    page.screenshot(path=os.path.join(SCREENSHOTS, name + ".png"))


def wait_state(page, *states):
    """Wait until the page's ``body[data-state]`` is one of ``states``."""
    selector = ", ".join(f'body[data-state="{s}"]' for s in states)
    page.wait_for_selector(selector, timeout=TIMEOUT_MS)


@pytest.fixture(scope="session")
def sokoban_batch(tmp_path_factory):
    """A 1,000-level Sokoban batch file (JSONL, as ``levelforge batch sokoban`` writes)."""
    def make():
        from levelforge import batch, sokoban
        path = tmp_path_factory.mktemp("play") / "levels.jsonl"
        batch.run(sokoban.Generator(width=7, height=7, boxes=2, pushes=(4, 8)), 1000, seed=5,
                  path=str(path), show_progress=False)
        return path
    yield from _shared("batch", make, lambda path: None)


@pytest.fixture(scope="session")
def server(sokoban_batch):
    """The base URL of a play server started with the 1,000-level batch file."""
    def make():
        from levelforge import play
        context = play.running(sokoban_batch)
        return context, context.__enter__()
    for _, url in _shared("server", make, lambda pair: pair[0].__exit__(None, None, None)):
        yield url
