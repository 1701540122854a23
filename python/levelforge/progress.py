"""Progress bars for long work (tqdm on stderr; silent when disabled)."""
import sys

from tqdm import tqdm


def progress(total, desc, unit="item", enabled=True, initial=0):
    """A tqdm bar over ``total`` items, showing items per second and an ETA.

    ``initial`` items are already done (a resumed file): they count towards the total,
    not towards the rate. Create the bar once the work starts (after compiling kernels),
    so that neither the rate nor the ETA pays for the start-up. Disabled bars still
    accept ``update`` calls, so callers need no special case.
    """
    return tqdm(total=total, desc=desc, unit=unit, disable=not enabled, file=sys.stderr,
                dynamic_ncols=True, smoothing=0.1, initial=initial)
