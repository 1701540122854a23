"""A resumable batch job: generate into a file, whole records at a time, fsynced."""
import os
import signal
import sys
import threading
from concurrent.futures import Executor
from contextlib import nullcontext
from dataclasses import dataclass, field
from typing import TextIO

import numpy as np

from ..errors import ConfigError, LevelforgeError
from ..progress import progress as _progress
from ..seeding import check_seed
from ..timing import ms_since, now_ns
from ..compile_notice import CompileNotice
from .output import format_for
from .pool import Chunk, Interrupted, Pool, format_items
from .runner import (BatchGenerator, ChunkPlanner, _warm, check_chunk_size, check_count, check_generator,
                     default_chunk_cap, ordered_chunks, run_chunk, worker_count)


@dataclass(frozen=True)
class Summary:
    """What a batch run did. ``items`` counts this run; ``total`` the whole file.

    ``seconds`` and ``items_per_second`` cover generation only: compiling or loading
    the kernels (``warm_up_seconds``; ``compiled`` says which) comes before. The
    per-item milliseconds are None when this run made no items. ``figures`` holds the
    generator's domain figures (e.g. share in the target push range), averaged over
    this run's items. ``interrupted`` is True after Ctrl-C (``signal`` 2) or SIGTERM
    (``signal`` 15).
    """

    path: str
    items: int
    total: int
    resumed_from: int
    repaired_bytes: int
    seconds: float
    items_per_second: float
    ms_p50: float | None
    ms_p95: float | None
    ms_max: float | None
    interrupted: bool
    figures: dict = field(default_factory=dict)
    signal: int = 0
    warm_up_seconds: float = 0.0
    compiled: bool = False

    def report(self, stream: "TextIO | None" = None, command: "str | None" = None) -> int:
        """Print the summary (and how to resume after Ctrl-C) to ``stream`` (stderr, so
        it never mixes with records streamed to stdout); return the command's exit code
        (0, or 128 + the signal number when interrupted: 130 Ctrl-C, 143 SIGTERM).
        ``command`` is the command line to repeat to resume."""
        stream = sys.stderr if stream is None else stream
        for line in self.lines():
            print(line, file=stream)
        if self.interrupted:
            name = "Ctrl-C" if self.signal in (0, signal.SIGINT) else \
                signal.Signals(self.signal).name
            print(f"interrupted ({name}): {self.path} holds {self.total} whole "
                  f"item{'s' if self.total != 1 else ''}; {resume_hint(command)}",
                  file=stream)
            return 128 + (self.signal or signal.SIGINT)
        return 0

    def lines(self) -> "list[str]":
        """The summary as human-readable lines."""
        if not self.items and not self.interrupted:
            if self.total:
                return [f"{self.path}: already complete: {self.total} items"]
            return [f"{self.path}: no items to make"]
        out = [f"{self.path}: {self.items} item{'s' if self.items != 1 else ''} this run, "
               f"{self.total} in the file"
               + (f" (resumed after item {self.resumed_from - 1})" if self.resumed_from else "")]
        if self.items:
            out.append(f"{self.items_per_second:,.1f} items/s over {self.seconds:.2f} s; "
                       f"per item p50 {self.ms_p50:.3f} ms, p95 {self.ms_p95:.3f} ms, max "
                       f"{self.ms_max:.3f} ms")
        if self.compiled:
            out.append(f"kernels compiled in {self.warm_up_seconds:.1f} s before that "
                       "(first run only: they are cached now)")
        if self.repaired_bytes:
            out.append(f"discarded a torn last record ({self.repaired_bytes} bytes)")
        out += [f"{k}: {v:.4g}" if isinstance(v, float) else f"{k}: {v}"
                for k, v in self.figures.items()]
        return out


def resume_hint(command=None):
    """How to resume: the command to repeat, when known."""
    return f"resume with: {command}" if command else "run the same command again to resume"


def format_chunk(generator, seed, fmt, config, timings, start, stop):
    """Generate items ``start..stop-1`` and format their records (runs in a worker of an
    executor, or in-process)."""
    results, error = run_chunk(generator, seed, start, stop)
    chunk = format_items(generator, fmt, config, timings, start, results)
    return Chunk(chunk.start, chunk.text, chunk.ms, chunk.figures, error)


def run(generator: "BatchGenerator", count: int, seed: int, path: "str | os.PathLike[str]",
        executor: "Executor | None" = None, chunk_size: "int | None" = None,
        fmt: "str | None" = None, timings: bool = True, show_progress: bool = True,
        jobs: "int | None" = None) -> Summary:
    """Generate ``count`` items into ``path``, resuming a file a previous run left.

    Where the items are made: in this process (the default), on ``executor`` (any
    ``concurrent.futures.Executor``, e.g. a Dask cluster's), or in ``jobs`` worker
    processes of levelforge's own (what the CLI uses): these die with this process,
    stream items back as they finish, and stop within about a second on Ctrl-C or
    SIGTERM even inside a long kernel. Chunks follow the measured item time unless
    ``chunk_size`` fixes them. The kernels are compiled (or loaded) here first, saying
    "compiling kernels, first run only" when they are compiled; workers start after.

    The file gets whole records only, flushed at once and fsynced at least once a
    second. An existing file must hold this batch's records (same seed, configuration
    and timing fields) from its first line, else ConfigError and the file is left
    alone; a torn last record is discarded and the file continued. Ctrl-C or SIGTERM
    leaves a valid file with every item made before the first unfinished one: the
    :class:`Summary` has ``interrupted=True`` and re-running the same call continues.
    ``path="-"`` streams to standard output (nothing to resume).

    >>> from levelforge.sokoban import Generator
    >>> import tempfile, os
    >>> out = os.path.join(tempfile.mkdtemp(), "levels.jsonl")
    >>> run(Generator(), 5, seed=1, path=out, show_progress=False).total
    5
    """
    check_generator(generator)
    form = format_for(path, fmt)
    config = generator.to_dict()
    seed = check_seed(seed)
    check_count(count)
    check_chunk_size(chunk_size)
    if jobs is not None:
        if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
            raise ConfigError(f"jobs must be a positive integer, got {jobs!r}")
        if executor is not None:
            raise ConfigError("give an executor or jobs, not both")
    fh, done, end, size = _open_output(path, form, seed, config, timings)
    with fh or nullcontext():
        if done > count:
            raise ConfigError(f"{path} already holds {done} items, more than the count "
                              f"{count}")
        if done == count:
            return Summary(str(path), 0, done, done, 0, 0.0, 0.0, None, None, None, False)
        with CompileNotice(enabled=show_progress) as notice:
            _warm(generator)
        planner = ChunkPlanner(chunk_size, default_chunk_cap(
            count - done, jobs if jobs else worker_count(executor)))
        with _Signals(raising=jobs is None) as signals, \
                (Pool(jobs, generator, seed, form.name, config, timings) if jobs
                 else nullcontext()) as pool, \
                _Sink(fh, end, form.header(seed, config) if end == 0 else "") as sink:
            figures, ms, stopped = _Figures(), [], 0
            start_ns = now_ns()
            name = "stdout" if path == "-" else os.path.basename(path)
            with _progress(count, name, enabled=show_progress, initial=done) as bar:
                if pool is not None:
                    chunks = pool.chunks(done, count, planner, signals.received)
                else:
                    chunks = ordered_chunks(executor, format_chunk,
                                            (generator, seed, form.name, config, timings),
                                            done, count, planner, lambda c: c.ms)
                try:
                    for chunk in chunks:
                        with signals.critical():
                            sink.write(chunk.text, len(chunk.ms))
                            bar.update(len(chunk.ms))
                            ms.extend(chunk.ms)
                            figures.add(chunk.figures, len(chunk.ms))
                        if chunk.error is not None:  # whole records before it are written
                            raise chunk.error
                except KeyboardInterrupt as exc:
                    stopped = getattr(exc, "signum", signal.SIGINT)
                except LevelforgeError as exc:
                    exc.kept = (str(path), done + sink.items)
                    raise
                finally:
                    signals.quiet()
                    chunks.close()
            seconds = ms_since(start_ns) / 1e3
    items = sink.items
    q = [float(v) for v in np.percentile(ms, [50, 95, 100])] if ms else [None] * 3
    return Summary(str(path), items, done + items, done, size - end, seconds,
                   items / seconds if seconds > 0 else 0.0, *q, bool(stopped),
                   figures.means(), int(stopped), notice.seconds, notice.compiled)


def _open_output(path, form, seed, config, timings):
    """Open ``path`` (created if missing) and find its whole records of this batch.

    Returns ``(fh, done, end, size)``; ``fh`` is None for ``"-"`` (standard output).
    Nothing is written or cut here: a refused file is left exactly as it was.
    """
    if path == "-":
        return None, 0, 0, 0
    if os.path.isdir(path):
        raise ConfigError(f"{path} is a directory; the output must be a file")
    try:
        fh = open(path, "a+b")
    except OSError as exc:
        raise ConfigError(f"cannot write {path}: {exc.strerror}") from None
    try:
        size = fh.seek(0, os.SEEK_END)
        done, end = form.scan(fh, seed, config, timings, path) if size else (0, 0)
    except BaseException:
        fh.close()
        raise
    return fh, done, end, size


class _Signals:
    """SIGINT and SIGTERM handling during a run (main thread only; elsewhere Python's
    defaults stay).

    ``raising``: the first signal raises :class:`Interrupted` where the run is (in-process
    and executor runs), except inside :meth:`critical` sections (a record being
    written), where it is raised at the section's end. Otherwise the signals are only
    recorded (:meth:`received`), for a loop that polls them (the worker pool). After
    :meth:`quiet`, signals are recorded and never raised, so a second Ctrl-C cannot
    break the cleanup.
    """

    def __init__(self, raising):
        self.raising = raising
        self.got = []
        self.in_critical = False
        self.saved = {}

    def received(self):
        return list(self.got)

    def _handle(self, signum, frame):
        self.got.append(signum)
        if self.raising and len(self.got) == 1 and not self.in_critical:
            raise Interrupted(signum)

    def critical(self):
        signals = self

        class _Critical:
            def __enter__(self):
                signals.in_critical = True

            def __exit__(self, *exc):
                signals.in_critical = False
                if signals.raising and len(signals.got) == 1 and exc[0] is None:
                    signals.raising = False
                    raise Interrupted(signals.got[0])

        return _Critical()

    def quiet(self):
        self.raising = False

    def __enter__(self):
        if threading.current_thread() is threading.main_thread():
            for s in (signal.SIGINT, signal.SIGTERM):
                self.saved[s] = signal.signal(s, self._handle)
        return self

    def __exit__(self, *exc):
        for s, handler in self.saved.items():
            signal.signal(s, handler)


class _Sink:
    """The output file after its verified whole records (cut to ``end`` bytes), or
    standard output (``fh`` None).

    Every write is whole records, flushed at once, so a killed process leaves whole
    records only. fsync (for power loss) runs at most once a second and on close: syncing
    every small chunk would cost more than generating cheap levels. ``header`` goes out
    with the first records.
    """

    SYNC_SECONDS = 1.0

    def __init__(self, fh, end, header=""):
        self.fh, self.owned = (sys.stdout.buffer, False) if fh is None else (fh, True)
        self.end = end
        self.header = header
        self.items = 0
        self.synced_ns = now_ns()

    def write(self, text, items):
        if self.header:
            text, self.header = self.header + text, ""
        if not text:
            return
        self.fh.write(text.encode("utf-8"))
        self.fh.flush()
        self.items += items
        if self.owned and now_ns() - self.synced_ns > self.SYNC_SECONDS * 1e9:
            os.fsync(self.fh.fileno())
            self.synced_ns = now_ns()

    def __enter__(self):
        if self.owned:
            self.fh.truncate(self.end)
            self.fh.seek(0, os.SEEK_END)
        return self

    def __exit__(self, *exc):
        self.write("", 0)  # a header with no records yet
        self.fh.flush()
        if self.owned:
            os.fsync(self.fh.fileno())


class _Figures:
    """Item-weighted running means of per-chunk ``generator.summarize`` figures: exact,
    since summarize returns means over its records, and bounded in memory."""

    def __init__(self):
        self.n = 0
        self.sums = {}

    def add(self, figures, n):
        for k, v in figures.items():
            self.sums[k] = self.sums.get(k, 0.0) + float(v) * n
        if figures:
            self.n += n

    def means(self):
        return {k: v / self.n for k, v in self.sums.items()} if self.n else {}
