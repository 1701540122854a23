"""``python -m levelforge``: the same as the ``levelforge`` command."""
import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main())
