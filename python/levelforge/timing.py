"""Wall-clock timing with perf_counter_ns, the one clock every result uses."""
from time import perf_counter_ns


def now_ns() -> int:
    """A monotonic timestamp in nanoseconds."""
    return perf_counter_ns()


def ms_since(start_ns: int) -> float:
    """Milliseconds elapsed since ``start_ns`` (a value of :func:`now_ns`)."""
    return (perf_counter_ns() - start_ns) / 1e6
