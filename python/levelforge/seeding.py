"""Seeds: an integer in, identical output out, in any process on any machine.

Per-item seeds derive from a root seed through :class:`numpy.random.SeedSequence`,
never from Python's ``hash()`` or global random state.

>>> item_seed(42, 0) == item_seed(42, 0)
True
>>> item_seed(42, 0) != item_seed(42, 1)
True
"""
import numpy as np

from .errors import ConfigError

MAX_SEED = 2**63 - 1


def check_seed(seed: int) -> int:
    """Return ``seed`` as an int if it is a non-negative integer below 2**63, else raise."""
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)):
        raise ConfigError(f"seed must be a non-negative integer, got {seed!r}")
    seed = int(seed)
    if not 0 <= seed <= MAX_SEED:
        raise ConfigError(f"seed must be in [0, 2**63), got {seed}")
    return seed


def item_seed(seed: int, index: int) -> int:
    """The seed of item ``index`` of a batch rooted at ``seed`` (a 63-bit integer)."""
    ss = np.random.SeedSequence(check_seed(seed), spawn_key=(int(index),))
    return int(ss.generate_state(1, np.uint64)[0] >> np.uint64(1))


def kernel_seed(seed: int, stream: int = 0) -> np.uint64:
    """A well-mixed 64-bit state for the kernel PRNG (``engine.grid.rng_*``) from ``seed``.

    ``stream`` separates independent random streams drawn from one seed.
    """
    ss = np.random.SeedSequence(check_seed(seed), spawn_key=(0x5EED, int(stream)))
    return ss.generate_state(1, np.uint64)[0]
