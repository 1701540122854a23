"""Progress bars for long work (tqdm on stderr; silent when disabled)."""
import sys

from tqdm import tqdm


def progress(total, desc, unit="item", enabled=True):
    """A tqdm bar over ``total`` items, showing items per second and an ETA.

    Disabled bars still accept ``update`` calls, so callers need no special case.
    """
    return tqdm(total=total, desc=desc, unit=unit, disable=not enabled, file=sys.stderr,
                dynamic_ncols=True, smoothing=0.1)
