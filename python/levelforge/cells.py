"""One rule for cell coordinates everywhere in the API (mines, defense, symmetry): a tuple
(or list) of Python or NumPy integers. Floats are refused even when whole (``2.0``), and
so are bools and strings, so a computed coordinate never slips in rounded.

>>> check_cell((2, 3), (7, 9), "cannon")
(2, 3)
>>> check_cell((2.0, 3), (7, 9), "cannon")
Traceback (most recent call last):
...
levelforge.errors.ConfigError: cannon: coordinates must be integers, got (2.0, 3)
"""
import numpy as np

from .errors import ConfigError

_NAMES = {2: "(x, y)", 3: "(x, y, z)"}


def integer_cell(cell, dims, what="cell", error=ConfigError, noun="cell"):
    """``cell`` as a tuple of ``dims`` ints (no bounds check), else ``error`` naming
    ``what``."""
    try:
        values = tuple(cell)
    except TypeError:
        values = ()
    if isinstance(cell, (str, bytes)) or len(values) != dims:
        raise error(f"{what}: expected a {noun} {_NAMES.get(dims, '')}, a tuple of "
                    f"integers, got {cell!r}")
    for v in values:
        if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, np.integer)):
            raise error(f"{what}: coordinates must be integers, got {cell!r}")
    return tuple(int(v) for v in values)


def check_cell(cell, sizes, what="cell", error=ConfigError, noun="cell"):
    """``cell`` as a tuple of ints, each ``0 <= v < size`` for the board's ``sizes``
    (``(width, height)`` or ``(width, height, depth)``); else ``error`` naming ``what``
    (``noun`` is what the system calls a cell: a symmetry board has points)."""
    values = integer_cell(cell, len(sizes), what, error, noun)
    if not all(0 <= v < n for v, n in zip(values, sizes)):
        board = "x".join(str(n) for n in sizes)
        raise error(f"{what}: {noun} {values} is outside the {board} board")
    return values
