"""What a player may see of a game: the public observation.

It holds copies of the public arrays only (cell states, revealed numbers, the selectable
mask) and a few counts; it never holds or references the minefield, so an assistant or a
user interface built on it cannot cheat.
"""
from dataclasses import dataclass

import numpy as np

CLOSED = 0
OPEN = 1
FLAGGED = 2

STATUSES = ("ready", "playing", "won", "lost")


@dataclass(frozen=True, eq=False)
class PublicObservation:
    """The public state of a game; arrays are read-only and indexed ``[z, y, x]``.

    ``state`` holds ``CLOSED`` (0), ``OPEN`` (1) or ``FLAGGED`` (2) per cell; ``numbers``
    the revealed number of each open cell and -1 elsewhere; ``selectable`` the cells that
    may be chosen now; ``remaining_mines`` is ``mines - flags`` (negative when there are
    too many flags); ``status`` is ``ready``, ``playing``, ``won`` or ``lost``.

    >>> from levelforge.mines import Game
    >>> game = Game("easy", seed=1)
    >>> _ = game.open((2, 2, 0))
    >>> obs = game.observe()
    >>> int(obs.numbers[0, 2, 2]), obs.state.shape, obs.remaining_mines
    (0, (5, 5, 5), 10)
    """

    width: int
    height: int
    depth: int
    mines: int
    state: np.ndarray
    numbers: np.ndarray
    selectable: np.ndarray
    remaining_mines: int
    status: str

    @property
    def shape(self):
        """The array shape ``(depth, height, width)``."""
        return (self.depth, self.height, self.width)

    def cell_index(self, cell):
        """The flat index of ``(x, y, z)`` in C order of ``[z, y, x]``."""
        x, y, z = cell
        return (z * self.height + y) * self.width + x

    def cell_of(self, index):
        """The ``(x, y, z)`` tuple of a flat index."""
        index = int(index)
        x = index % self.width
        y = (index // self.width) % self.height
        z = index // (self.width * self.height)
        return (x, y, z)

    @staticmethod
    def _readonly(a):
        a = np.array(a, copy=True)
        a.setflags(write=False)
        return a
