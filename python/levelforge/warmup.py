"""Kernel warm-up: compile the Numba kernels once (the first run on a machine) or load
them from Numba's cache (every later run), and say so while it happens.

The kernels are ``@njit(cache=True)``: the first process that needs one compiles it and
writes it to the cache (``__pycache__`` next to the engine, or ``NUMBA_CACHE_DIR``);
later processes load it in a fraction of the time. :func:`warm_up` does this ahead of
time for whole systems (the ``levelforge warm-up`` command);
:class:`~levelforge.compile_notice.CompileNotice` prints "compiling kernels, first run
only" the moment Numba starts compiling, so the first run never looks hung.

>>> from levelforge.warmup import SYSTEMS, warm_up
>>> sorted(SYSTEMS)
['defense', 'mines', 'sokoban', 'symmetry']
>>> [r.system for r in warm_up(["defense"])]
['defense']
"""
import sys
from dataclasses import dataclass

from .compile_notice import CompileNotice
from .errors import ConfigError


def _sokoban():
    from .sokoban import Generator, collections, solve
    Generator().warm_up()
    solve(collections.load("microban")[0])


def _symmetry():
    from .symmetry import Generator
    Generator(5).warm_up()


def _mines():
    from .mines import Assistant, Game, autoplay
    assistant = Assistant()
    assistant.warm_up()
    autoplay(Game("easy", seed=0), assistant)
    Game("easy", seed=0, no_guess=True).open((2, 2, 0))     # the no-guess generator


def _defense():
    import numpy as np

    from .defense import Defense, cut_cells, probe_pairs
    d = Defense(seed=0)
    d.place(*d.legal_cells("cannon")[0], "cannon")
    d.run_wave()
    blocked = np.zeros((5, 5), bool)
    cut_cells(blocked, (4, 4), [(0, 0)])
    probe_pairs(d.scenario, 0, show_progress=False)


SYSTEMS = {"sokoban": _sokoban, "symmetry": _symmetry, "mines": _mines, "defense": _defense}
"""What each system's warm-up runs: the kernels its API and commands use."""


@dataclass(frozen=True)
class WarmUp:
    """One system's warm-up: seconds taken and whether kernels were compiled (a cold
    cache) or only loaded."""

    system: str
    seconds: float
    compiled: bool

    def line(self):
        """A one-line report, e.g. ``sokoban: compiled in 9.8 s``."""
        verb = "compiled" if self.compiled else "loaded from the cache"
        return f"{self.system}: {verb} in {self.seconds:.1f} s"


def warm_up(systems=None, notice=None):
    """Compile (or load from the cache) the kernels of ``systems`` (names from
    :data:`SYSTEMS`; all by default); returns one :class:`WarmUp` per system."""
    names = list(SYSTEMS) if not systems else list(systems)
    unknown = [s for s in names if s not in SYSTEMS]
    if unknown:
        raise ConfigError(f"unknown system {unknown[0]!r}; choose from {', '.join(SYSTEMS)}")
    out = []
    for name in names:
        with CompileNotice(f"{name}: compiling kernels, first run only (they are cached "
                           "for later runs) ...", notice, notice is not None) as n:
            SYSTEMS[name]()
        out.append(WarmUp(name, n.seconds, n.compiled))
    return out


def main(argv=None, prog="levelforge warm-up"):
    """``levelforge warm-up [SYSTEM...]``: compile or load every kernel now."""
    from .cli import ArgumentParser

    parser = ArgumentParser(prog=prog, description=(
        "Compile the Numba kernels of the given systems (all by default) into Numba's "
        "cache, so that later commands start at once. Run it once after installing, or "
        "in a container build. Later runs only load the cache."))
    parser.add_argument("systems", nargs="*", metavar="SYSTEM",
                        help=f"any of: {', '.join(SYSTEMS)} (default: all)")
    args = parser.parse_args(argv)
    names = args.systems or list(SYSTEMS)
    warm_up([n for n in names if n not in SYSTEMS][:1])  # an unknown name: one error line
    for name in names:
        (result,) = warm_up([name], notice=sys.stderr)
        print(result.line(), file=sys.stderr)
    return 0
