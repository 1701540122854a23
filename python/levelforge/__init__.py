"""levelforge: generate, solve and verify grid-puzzle levels, each with its proof.

Systems live in subpackages: :mod:`levelforge.sokoban`, :mod:`levelforge.symmetry`,
:mod:`levelforge.mines`, :mod:`levelforge.defense`; :mod:`levelforge.batch` runs any
generator over thousands of seeds. Importing ``levelforge`` itself is cheap: the
subpackages (and their Numba kernels) load when first used.

>>> import levelforge
>>> issubclass(levelforge.LevelFormatError, ValueError)
True
"""
from .cancel import Cancel
from .errors import (
    BatchItemError,
    Cancelled,
    ConfigError,
    GenerationError,
    InvalidMoveError,
    LevelFormatError,
    LevelforgeError,
    WorkerError,
)

__version__ = "0.1.0"

__all__ = [
    "BatchItemError",
    "Cancel",
    "Cancelled",
    "ConfigError",
    "GenerationError",
    "InvalidMoveError",
    "LevelFormatError",
    "LevelforgeError",
    "WorkerError",
    "__version__",
]
