"""What a player may see of a game: the public observation.

It holds copies of the public arrays only (cell states, revealed numbers, the selectable
mask) and a few counts; it never holds or references the minefield, so an assistant or a
user interface built on it cannot cheat.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np
import numpy.typing as npt

from levelforge.errors import ConfigError

CLOSED = 0
OPEN = 1
FLAGGED = 2

STATUSES = ("ready", "playing", "won", "lost")

Cell = tuple[int, int, int]
"""A cell ``(x, y, z)``."""


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
    state: npt.NDArray[np.uint8]
    numbers: npt.NDArray[np.int8]
    selectable: npt.NDArray[np.bool_]
    remaining_mines: int
    status: str

    def __post_init__(self):
        for name in ("width", "height", "depth"):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or not 1 <= v <= 32:
                raise ConfigError(f"observation {name} must be an integer from 1 to 32, got {v!r}")
        for name in ("mines", "remaining_mines"):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
                raise ConfigError(f"observation {name} must be an integer, got {v!r}")
        if self.status not in STATUSES:
            raise ConfigError(f"observation status must be one of {STATUSES}, got {self.status!r}")
        shape = (self.depth, self.height, self.width)
        arrays = {}
        for name, dtype in (("state", np.uint8), ("numbers", np.int8), ("selectable", bool)):
            a = np.asarray(getattr(self, name))
            if a.shape != shape:
                raise ConfigError(f"observation {name} must have shape {shape} ([z, y, x]), "
                                  f"got {a.shape}")
            if a.dtype != dtype or a.flags.writeable or not a.flags.c_contiguous:
                a = np.array(a, dtype=dtype, order="C")
                a.setflags(write=False)
            arrays[name] = a
        state, numbers = arrays["state"], arrays["numbers"]
        bad = np.argwhere(state > FLAGGED)
        if bad.size:
            z, y, x = bad[0]
            raise ConfigError(f"observation state at cell {(x, y, z)} is {state[z, y, x]}, "
                              "not 0 (closed), 1 (open) or 2 (flagged)")
        bad = np.argwhere(np.where(state == OPEN, (numbers < 0) | (numbers > 26), numbers != -1))
        if bad.size:
            z, y, x = bad[0]
            raise ConfigError(f"observation number at cell {(x, y, z)} is {numbers[z, y, x]}: "
                              "open cells show 0..26, others -1")
        for name, a in arrays.items():
            object.__setattr__(self, name, a)

    @property
    def shape(self) -> tuple[int, int, int]:
        """The array shape ``(depth, height, width)``."""
        return (self.depth, self.height, self.width)

    def cell_index(self, cell: Sequence[int]) -> int:
        """The flat index of ``(x, y, z)`` in C order of ``[z, y, x]``."""
        x, y, z = cell
        return (z * self.height + y) * self.width + x

    def cell_of(self, index: int) -> Cell:
        """The ``(x, y, z)`` tuple of a flat index."""
        index = int(index)
        x = index % self.width
        y = (index // self.width) % self.height
        z = index // (self.width * self.height)
        return (x, y, z)

    @staticmethod
    def _readonly(a):
        a = np.array(a, copy=True, order="C")
        a.setflags(write=False)
        return a
