"""A resumable batch job: generate into a file, whole chunks at a time, fsynced."""
import os
import sys
from dataclasses import dataclass, field

import numpy as np

from ..errors import ConfigError
from ..progress import progress as _progress
from ..timing import ms_since, now_ns
from .output import format_for
from .runner import default_chunk_size, generate, worker_count


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


def run(generator, count, seed, path, executor=None, chunk_size=None, fmt=None,
        timings=True, show_progress=True):
    """Generate ``count`` items into ``path``, resuming a file a previous run left.

    Records are written a chunk at a time, flushed and fsynced, so the file always ends
    on a whole record; on resume the tail is verified (index, seed, configuration) and
    an incomplete last record is discarded. Ctrl-C leaves a valid file: the returned
    :class:`Summary` has ``interrupted=True`` and re-running the same call continues.
    ``path="-"`` streams to standard output instead (nothing to resume).

    >>> from levelforge.sokoban import Generator
    >>> import tempfile, os
    >>> out = os.path.join(tempfile.mkdtemp(), "levels.jsonl")
    >>> run(Generator(), 5, seed=1, path=out, show_progress=False).total
    5
    """
    form = format_for(path, fmt)
    config = generator.to_dict()
    done, end, size = 0, 0, 0
    if path != "-" and os.path.exists(path):
        with open(path, "rb") as fh:
            size = fh.seek(0, os.SEEK_END)
            if size:
                done, end = form.scan(fh, seed, config)
    if done > count:
        raise ConfigError(f"{path} already holds {done} items, more than --count {count}")
    if chunk_size is None:
        chunk_size = default_chunk_size(count - done, worker_count(executor))
    if path == "-":
        sink = _Stream(sys.stdout.buffer)
    else:
        sink = open(path, "a+b")
        sink.truncate(end)
        sink.seek(0, os.SEEK_END)
    ms, interrupted = [], False
    figures, pending = _Figures(generator), []
    start_ns = now_ns()
    name = "stdout" if path == "-" else os.path.basename(path)
    with sink, _progress(count, name, enabled=show_progress) as bar:
        if end == 0:
            _write(sink, form.header(seed, config))
        bar.update(done)
        buffer, written = [], done
        try:
            results = generate(generator, count, seed, executor, chunk_size, start=done)
            for index, result in enumerate(results, start=done):
                buffer.append(form.record(index, result, config, timings))
                ms.append(result.elapsed_ms)
                pending.append(result)
                if len(buffer) >= chunk_size:
                    _write(sink, "".join(buffer))
                    bar.update(len(buffer))
                    written += len(buffer)
                    buffer = []
                    figures.add(pending)
                    pending = []
        except KeyboardInterrupt:
            interrupted = True
        finally:
            # every buffered record is whole: keep them (an error still propagates after)
            _write(sink, "".join(buffer))
            bar.update(len(buffer))
            written += len(buffer)
            figures.add(pending)
    seconds = ms_since(start_ns) / 1e3
    items = written - done
    q = np.percentile(ms, [50, 95, 100]) if ms else (float("nan"),) * 3
    return Summary(str(path), items, written, done, size - end, seconds,
                   items / seconds if seconds > 0 else float("nan"),
                   float(q[0]), float(q[1]), float(q[2]), interrupted, figures.means())


class _Stream:
    """Standard output as a sink: written and flushed, never closed or fsynced."""

    def __init__(self, raw):
        self.raw = raw

    def write(self, data):
        self.raw.write(data)

    def flush(self):
        self.raw.flush()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.raw.flush()


def _write(fh, text):
    """Write whole records, flush, and fsync a file so they survive a crash."""
    if text:
        fh.write(text.encode("utf-8"))
        fh.flush()
        if not isinstance(fh, _Stream):
            os.fsync(fh.fileno())


class _Figures:
    """Item-weighted running means of ``generator.summarize`` figures, in bounded memory."""

    def __init__(self, generator):
        self.summarize = getattr(generator, "summarize", None)
        self.n = 0
        self.sums = {}

    def add(self, results):
        if not results or self.summarize is None:
            return
        for k, v in self.summarize([r.to_dict() for r in results]).items():
            self.sums[k] = self.sums.get(k, 0.0) + float(v) * len(results)
        self.n += len(results)

    def means(self):
        return {k: v / self.n for k, v in self.sums.items()} if self.n else {}
