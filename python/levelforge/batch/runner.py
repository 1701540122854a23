"""Run a generator over many seeds, in-process or on any executor, results in item order."""
import math
from collections import deque
from concurrent.futures import Executor
from typing import Any, Iterator, Protocol

from ..errors import BatchItemError, ConfigError
from ..seeding import check_seed, item_seed

_WARM = set()  # generator configurations already warmed up in this process

TARGET_CHUNK_SECONDS = 0.2  # adaptive chunks aim at this much work each
MAX_CHUNK = 1000


class BatchGenerator(Protocol):
    """What the batch layer needs of a generator (e.g. :class:`levelforge.sokoban.Generator`):
    ``generate(seed)`` returning a result with ``to_dict()`` and ``elapsed_ms``,
    ``warm_up()``, ``to_dict()`` (its configuration, JSON-ready) and optionally
    ``summarize(records)`` (domain figures, means over the records)."""

    def generate(self, seed: int) -> Any: ...

    def warm_up(self) -> Any: ...

    def to_dict(self) -> dict: ...


def _warm(generator):
    """Warm the generator's kernels once per process (not once per chunk)."""
    key = (type(generator).__module__, type(generator).__qualname__,
           repr(sorted(generator.to_dict().items())))
    if key not in _WARM:
        generator.warm_up()
        _WARM.add(key)


def run_chunk(generator, seed, start, stop):
    """Generate items ``start..stop-1``.

    Returns ``(results, error)``: the results before the first failing item, and a
    :class:`BatchItemError` naming that item's seed (``None`` when all succeeded), so
    the caller keeps every good item and still reports the failure. A Ctrl-C during
    the chunk is returned the same way (as the KeyboardInterrupt).
    """
    _warm(generator)
    results = []
    try:
        for index in range(start, stop):
            results.append(_item(generator, seed, index))
    except (BatchItemError, KeyboardInterrupt) as error:  # keep what was made before it
        return results, error
    return results, None


def _item(generator, seed, index):
    s = item_seed(seed, index)
    try:
        return generator.generate(s)
    except Exception as exc:  # reported with the item's seed, never swallowed
        raise BatchItemError(index, s, f"{type(exc).__name__}: {exc}") from exc


def worker_count(executor):
    """Best guess at how many tasks ``executor`` runs at once (1 for in-process)."""
    if executor is None:
        return 1
    n = getattr(executor, "_max_workers", None)
    if n:
        return int(n)
    client = getattr(executor, "_client", None)  # dask.distributed ClientExecutor
    if client is not None:
        try:
            return max(1, sum(client.nthreads().values()))
        except Exception:
            return 4
    return 4


def default_chunk_cap(count, workers):
    """The largest chunk worth making: small enough that ``count`` items still give every
    worker about eight chunks (balance), at most :data:`MAX_CHUNK`."""
    return max(1, min(MAX_CHUNK, math.ceil(count / (workers * 8))))


class ChunkPlanner:
    """Chunk sizes that follow the measured item time: the first chunk is one item (so
    the first record arrives as soon as one item is made), then each chunk may grow 4x
    up to about :data:`TARGET_CHUNK_SECONDS` of work, never above ``cap``. A fixed
    ``size`` turns adaptation off.

    >>> p = ChunkPlanner()
    >>> p.next(), p.next()
    (1, 1)
    >>> p.observe([0.5] * 10)  # 0.5 ms items: 400 fit in 0.2 s
    >>> [p.next() for _ in range(5)]
    [4, 16, 64, 256, 400]
    """

    def __init__(self, size=None, cap=MAX_CHUNK):
        self.fixed = size
        self.cap = max(1, cap)
        self.mean_ms = None
        self.last = 1

    def observe(self, ms):
        """Take the milliseconds of finished items into the running mean."""
        if ms:
            m = sum(ms) / len(ms)
            self.mean_ms = m if self.mean_ms is None else 0.7 * self.mean_ms + 0.3 * m

    def next(self):
        """The size of the next chunk."""
        if self.fixed is not None:
            return self.fixed
        if self.mean_ms is None:
            return 1
        want = int(TARGET_CHUNK_SECONDS * 1e3 / max(self.mean_ms, 1e-6))
        self.last = max(1, min(want, self.cap, 4 * self.last))
        return self.last


def check_generator(generator):
    """Raise ConfigError unless ``generator`` has the batch protocol's methods."""
    for name in ("generate", "warm_up", "to_dict"):
        if not callable(getattr(generator, name, None)):
            raise ConfigError(f"a batch generator needs a {name}() method; "
                              f"{type(generator).__name__} has none")


def check_count(count, start=0):
    """Validate ``count`` (and ``start``, items already made) as batch arguments."""
    if isinstance(count, bool) or not isinstance(count, int) or count < 0:
        raise ConfigError(f"count must be a non-negative integer, got {count!r}")
    if isinstance(start, bool) or not isinstance(start, int) or not 0 <= start <= count:
        raise ConfigError(f"start must be an integer in [0, count], got {start!r}")


def check_chunk_size(chunk_size):
    """Validate an explicit chunk size (None: adaptive)."""
    if chunk_size is not None and (isinstance(chunk_size, bool)
                                   or not isinstance(chunk_size, int) or chunk_size < 1):
        raise ConfigError(f"chunk_size must be a positive integer, got {chunk_size!r}")


def generate(generator: "BatchGenerator", count: int, seed: int,
             executor: "Executor | None" = None, chunk_size: "int | None" = None,
             start: int = 0) -> "Iterator[Any]":
    """Generate ``count`` items, yielding each result in item order.

    Item ``i`` is ``generator.generate(item_seed(seed, i))`` whatever the executor and
    chunking, so the same ``seed`` gives the same items on a laptop or a cluster.
    ``executor`` is any :class:`concurrent.futures.Executor` (``None`` runs in-process):
    a ``ProcessPoolExecutor`` uses every core; a Dask cluster is reached through
    ``client.get_executor()``. Work travels in chunks that grow with the measured item
    time (or of ``chunk_size`` items), and each worker process warms the kernels once.
    ``start`` skips the first items (resuming). A failing item raises
    :class:`~levelforge.BatchItemError` naming its seed once every earlier item has been
    yielded; a crashed worker raises from its chunk.

    >>> from levelforge.sokoban import Generator
    >>> [r.seed for r in generate(Generator(), 3, seed=7)] == [item_seed(7, i) for i in range(3)]
    True
    """
    check_generator(generator)
    seed = check_seed(seed)
    check_count(count, start)
    check_chunk_size(chunk_size)
    if executor is None:  # item by item, so an interrupt loses nothing already made
        _warm(generator)
        for index in range(start, count):
            yield _item(generator, seed, index)
        return
    planner = ChunkPlanner(chunk_size, default_chunk_cap(count - start, worker_count(executor)))
    for results, error in ordered_chunks(executor, run_chunk, (generator, seed), start, count,
                                         planner,
                                         lambda chunk: [r.elapsed_ms for r in chunk[0]]):
        yield from results
        if error is not None:
            raise error


def ordered_chunks(executor, task, args, start, count, planner, measure):
    """Yield ``task(*args, a, b)`` for consecutive chunks ``[a, b)`` of ``start..count``,
    in order, sized by ``planner`` (fed by ``measure(result)``, the items' milliseconds).
    ``executor=None`` runs them in-process; otherwise at most a few chunks per worker are
    outstanding at once, so memory stays bounded however large ``count``."""
    a = start
    if executor is None:
        while a < count:
            b = min(count, a + planner.next())
            chunk = task(*args, a, b)
            planner.observe(measure(chunk))
            yield chunk
            a = b
        return
    in_flight = 2 * worker_count(executor) + 2
    pending = deque()
    try:
        while a < count or pending:
            while a < count and len(pending) < in_flight:
                b = min(count, a + planner.next())
                pending.append(executor.submit(task, *args, a, b))
                a = b
            chunk = pending.popleft().result()
            planner.observe(measure(chunk))
            yield chunk
    finally:
        for fut in pending:
            fut.cancel()
