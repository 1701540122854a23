"""A resumable batch job: generate into a file, whole chunks at a time, fsynced."""
import os
import sys
from dataclasses import dataclass, field

import numpy as np

from ..errors import ConfigError
from ..progress import progress as _progress
from ..seeding import check_seed
from ..timing import ms_since, now_ns
from .output import FORMATS, format_for
from .runner import (check_generator, default_chunk_size, ordered_chunks, run_chunk,
                     worker_count)


@dataclass(frozen=True)
class Summary:
    """What a batch run did. ``items`` counts this run; ``total`` the whole file.

    ``figures`` holds the generator's domain figures (e.g. share in the target push
    range), averaged over this run's items. ``interrupted`` is True after Ctrl-C.
    """

    path: str
    items: int
    total: int
    resumed_from: int
    repaired_bytes: int
    seconds: float
    items_per_second: float
    ms_p50: float
    ms_p95: float
    ms_max: float
    interrupted: bool
    figures: dict = field(default_factory=dict)

    def report(self, stream=None):
        """Print the summary (and how to resume after Ctrl-C) to ``stream`` (stderr, so
        it never mixes with records streamed to stdout); return the command's exit code."""
        stream = sys.stderr if stream is None else stream
        for line in self.lines():
            print(line, file=stream)
        if self.interrupted:
            print(f"interrupted: {self.path} holds {self.total} whole items; run the same "
                  "command again to resume", file=stream)
            return 130
        return 0

    def lines(self):
        """The summary as human-readable lines."""
        out = [f"{self.path}: {self.items} items this run, {self.total} in the file"
               + (f" (resumed after item {self.resumed_from - 1})" if self.resumed_from else ""),
               f"{self.items_per_second:,.1f} items/s over {self.seconds:.2f} s; per item "
               f"p50 {self.ms_p50:.3f} ms, p95 {self.ms_p95:.3f} ms, max {self.ms_max:.3f} ms"]
        if self.repaired_bytes:
            out.append(f"discarded an incomplete last record ({self.repaired_bytes} bytes)")
        out += [f"{k}: {v:.4g}" if isinstance(v, float) else f"{k}: {v}"
                for k, v in self.figures.items()]
        return out


@dataclass(frozen=True)
class Chunk:
    """What a worker sends back for items ``start..start+len(ms)-1``: their records,
    already formatted (the parent only writes), their milliseconds, the generator's
    figures for them, and the error or Ctrl-C that ended the chunk early, if any."""

    start: int
    text: str
    ms: tuple
    figures: dict
    error: BaseException | None


def format_chunk(generator, seed, fmt, config, timings, start, stop):
    """Generate items ``start..stop-1`` and format their records (runs in a worker)."""
    results, error = run_chunk(generator, seed, start, stop)
    form = FORMATS[fmt]
    datas = [r.to_dict() for r in results]
    text = "".join(form.record(start + k, r, d, config, timings)
                   for k, (r, d) in enumerate(zip(results, datas)))
    summarize = getattr(generator, "summarize", None)
    figures = summarize(datas) if summarize is not None and datas else {}
    return Chunk(start, text, tuple(r.elapsed_ms for r in results), figures, error)


def run(generator, count, seed, path, executor=None, chunk_size=None, fmt=None,
        timings=True, show_progress=True):
    """Generate ``count`` items into ``path``, resuming a file a previous run left.

    Workers format whole records; the file gets them a chunk at a time, flushed and
    fsynced, so it always ends on a whole record. On resume the tail is verified (index,
    seed, configuration) and an incomplete last record is discarded. Ctrl-C leaves a
    valid file: the returned :class:`Summary` has ``interrupted=True`` and re-running the
    same call continues. ``path="-"`` streams to standard output (nothing to resume).
    In-process chunks default to small ones, so progress and checkpoints stay frequent.

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
    if isinstance(count, bool) or not isinstance(count, int) or count < 0:
        raise ConfigError(f"count must be a non-negative integer, got {count!r}")
    done, end, size = 0, 0, 0
    if path != "-" and os.path.exists(path):
        with open(path, "rb") as fh:
            size = fh.seek(0, os.SEEK_END)
            if size:
                done, end = form.scan(fh, seed, config)
    if done > count:
        raise ConfigError(f"{path} already holds {done} items, more than --count {count}")
    if chunk_size is None:
        chunk_size = (default_chunk_size(count - done, worker_count(executor)) if executor
                      else max(1, min(64, (count - done) // 100)))
    if isinstance(chunk_size, bool) or not isinstance(chunk_size, int) or chunk_size < 1:
        raise ConfigError(f"chunk_size must be a positive integer, got {chunk_size!r}")
    sink = _Sink(None if path == "-" else path, end)
    ms, figures, interrupted, written = [], _Figures(), False, done
    start_ns = now_ns()
    name = "stdout" if path == "-" else os.path.basename(path)
    with sink, _progress(count, name, enabled=show_progress) as bar:
        if end == 0:
            sink.write(form.header(seed, config))
        bar.update(done)
        chunks = ordered_chunks(executor, format_chunk,
                                (generator, seed, form.name, config, timings),
                                done, count, chunk_size)
        try:
            for chunk in chunks:
                sink.write(chunk.text)
                written += len(chunk.ms)
                bar.update(len(chunk.ms))
                ms.extend(chunk.ms)
                figures.add(chunk.figures, len(chunk.ms))
                if chunk.error is not None:  # whole records before it are written
                    raise chunk.error
        except KeyboardInterrupt:
            interrupted = True
        finally:
            chunks.close()
    seconds = ms_since(start_ns) / 1e3
    items = written - done
    q = np.percentile(ms, [50, 95, 100]) if ms else (float("nan"),) * 3
    return Summary(str(path), items, written, done, size - end, seconds,
                   items / seconds if seconds > 0 else float("nan"),
                   float(q[0]), float(q[1]), float(q[2]), interrupted, figures.means())


class _Sink:
    """The output file, cut to ``end`` bytes (a verified tail), or standard output.

    Every write is whole records, flushed at once, so a killed process leaves whole
    records only. fsync (for power loss) runs at most once a second and on close: syncing
    every small chunk would cost more than generating cheap levels.
    """

    SYNC_SECONDS = 1.0

    def __init__(self, path, end):
        if path is None:
            self.fh, self.owned = sys.stdout.buffer, False
        else:
            self.fh, self.owned = open(path, "a+b"), True
            self.fh.truncate(end)
            self.fh.seek(0, os.SEEK_END)
        self.synced_ns = now_ns()

    def write(self, text):
        if not text:
            return
        self.fh.write(text.encode("utf-8"))
        self.fh.flush()
        if self.owned and now_ns() - self.synced_ns > self.SYNC_SECONDS * 1e9:
            os.fsync(self.fh.fileno())
            self.synced_ns = now_ns()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.fh.flush()
        if self.owned:
            os.fsync(self.fh.fileno())
            self.fh.close()


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
