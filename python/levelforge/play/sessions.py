"""Games the server keeps between requests (Minesweeper hides its minefield here; a
defense game keeps its simulation), by an unguessable id, the most recent few only.

>>> games = Sessions(keep=2)
>>> a = games.add("first"); b = games.add("second"); c = games.add("third")
>>> games.get(c), games.get(b)
('third', 'second')
>>> games.get(a)
Traceback (most recent call last):
...
levelforge.errors.ConfigError: no such game here (it ended or was forgotten): start a new one
"""
import secrets
from collections import OrderedDict

from ..errors import ConfigError

KEEP = 64
"""Games kept per kind; the least recently used is forgotten first."""
MISSING = "no such game here (it ended or was forgotten): start a new one"
"""The answer to a game id the server does not hold."""


class Sessions:
    """A bounded map of game id to game object (least recently used forgotten first)."""

    def __init__(self, keep=KEEP):
        self.keep = keep
        self._games = OrderedDict()

    def add(self, game):
        """Keep ``game``; returns its new id."""
        key = secrets.token_urlsafe(12)
        self.put(key, game)
        return key

    def get(self, key):
        """The game with id ``key``."""
        if not isinstance(key, str) or key not in self._games:
            raise ConfigError(MISSING)
        self._games.move_to_end(key)
        return self._games[key]

    def peek(self, key):
        """The game with id ``key``, or None."""
        return self._games.get(key) if isinstance(key, str) else None

    def put(self, key, game):
        """Keep ``game`` under ``key`` (a game a worker made or played)."""
        self._games[key] = game
        self._games.move_to_end(key)
        while len(self._games) > self.keep:
            self._games.popitem(last=False)
