"""Level collections shipped with levelforge, so a standard benchmark set comes with ``pip install``.

``microban``: David W. Skinner's Microban (155 levels, revised April 2000), freely
distributable with its credit kept; see ``data/CREDITS.md``.

>>> from levelforge.sokoban import collections
>>> collections.names()
['microban']
>>> levels = collections.load("microban")
>>> len(levels), levels[0].title
(155, '1')
"""
from importlib import resources

from ..errors import ConfigError
from .level import load_xsb

_FILES = {"microban": "microban.xsb"}


def names():
    """The names :func:`load` accepts."""
    return sorted(_FILES)


def path(name):
    """The installed file of collection ``name`` (a :class:`pathlib.Path`-like object)."""
    if name not in _FILES:
        raise ConfigError(f"unknown collection {name!r}; available: {', '.join(names())}")
    return resources.files(__package__).joinpath("data", _FILES[name])


def load(name):
    """All levels of collection ``name``, in order; level ``k`` (1-based title) is ``[k - 1]``."""
    return load_xsb(path(name))
