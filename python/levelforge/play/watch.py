"""A browser window that follows positions sent from Python: Gymnasium's
``render_mode="human"`` for :class:`levelforge.sokoban.env.SokobanEnv`, or a script.

The first :meth:`Viewer.show` starts a play server in a background thread and opens
``/watch`` in the browser (unless ``open_browser=False`` or the environment variable
``LEVELFORGE_NO_BROWSER`` is set); the page polls ``/api/watch`` and draws the latest
position with :meth:`Level.to_svg`.

>>> import json, urllib.request
>>> from levelforge.sokoban import Level
>>> viewer = Viewer(open_browser=False)
>>> viewer.show(Level.from_xsb("#####\\n#@$.#\\n#####"), "step 0")
>>> shown = json.load(urllib.request.urlopen(viewer.url + "api/watch"))
>>> shown["version"], shown["caption"], shown["svg"][:4]
(1, 'step 0', '<svg')
>>> viewer.close()
"""
import os
import webbrowser

from .app import create_app
from .server import running

CELL = 48
"""Pixels a square of the drawn positions."""


class Viewer:
    """Shows levels in a browser page as they are sent; ``close()`` stops its server."""

    def __init__(self, open_browser=None):
        self.open_browser = (not os.environ.get("LEVELFORGE_NO_BROWSER")
                             if open_browser is None else bool(open_browser))
        self.url = None
        self._app = None
        self._server = None
        self._version = 0

    def show(self, level, caption=""):
        """Show ``level`` (a Sokoban :class:`~levelforge.sokoban.Level`) with ``caption``."""
        self._version += 1
        shown = {"version": self._version, "caption": str(caption),
                 "svg": level.to_svg(cell=CELL)}
        if self._server is None:
            self._app = create_app(workers=0)  # it shows positions: no engine work
            self._app.state.watch = shown
            self._server = running(app=self._app)
            self.url = self._server.__enter__()
            if self.open_browser:
                webbrowser.open(self.url + "watch")
        self._app.state.watch = shown

    def close(self):
        """Stop the server (the page then says the run has ended)."""
        if self._server is not None:
            self._server.__exit__(None, None, None)
            self._server = None
