"""Batch output formats: one whole record per item, and a tail check for resuming.

JSONL: one JSON object a line, keys sorted, with ``index``, ``seed``, ``config`` and
the generator's full metadata. XSB (Sokoban): each level preceded by the comment line
``; item I seed S rows R`` that lets a resumed run prove the last board is whole.

Timing fields (keys ending in ``_ms``, and ``timings`` objects of stage times) are
measurements, not content: with ``timings=False`` they are left out and the same seed
gives a byte-identical file.
"""
import json
import os
import re

from ..errors import ConfigError, LevelFormatError
from ..seeding import item_seed


def strip_timings(value):
    """A copy of a JSON-ready value without timing fields (``*_ms`` keys, ``timings``)."""
    if isinstance(value, dict):
        return {k: strip_timings(v) for k, v in value.items()
                if not (k.endswith("_ms") or k == "timings")}
    if isinstance(value, list):
        return [strip_timings(v) for v in value]
    return value


def _dumps(obj):
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), allow_nan=False)


class JsonlFormat:
    """One JSON record a line: ``{"index": i, "seed": ..., "config": {...}, ...}``."""

    name = "jsonl"

    def header(self, seed, config):
        return ""

    def record(self, index, result, data, config, timings=True):
        """One line for ``result`` (``data`` is its ``to_dict()``, computed once)."""
        data = dict(data)
        data["index"] = index
        data.setdefault("config", config)
        if not timings:
            data = strip_timings(data)
        return _dumps(data) + "\n"

    def scan(self, fh, seed, config):
        """Find the whole records at the start of the binary file ``fh``.

        Returns ``(count, end)``: how many whole records it holds and the byte offset just
        past the last of them. Only the tail is read and parsed (plus a newline count), so
        resuming a file of a million records is cheap. A last line without its newline, or
        one that does not parse, is an incomplete record to discard. A last record of
        another batch (index, seed or configuration differ) raises ConfigError.
        """
        end = _last_newline(fh, fh.seek(0, os.SEEK_END)) + 1
        while end > 0:
            start = _last_newline(fh, end - 1) + 1
            fh.seek(start)
            try:
                last = json.loads(fh.read(end - start))
            except ValueError:
                end = start  # a damaged last line: discard it too
                continue
            count = _count_newlines(fh, end)
            _check_record(last, count - 1, seed, config, "the last record")
            return count, end
        return 0, 0


def _last_newline(fh, before, block=1 << 16):
    """Offset of the last b"\n" before byte ``before``, or -1."""
    pos = before
    while pos > 0:
        lo = max(0, pos - block)
        fh.seek(lo)
        k = fh.read(pos - lo).rfind(b"\n")
        if k >= 0:
            return lo + k
        pos = lo
    return -1


def _count_newlines(fh, end, block=1 << 20):
    fh.seek(0)
    n, pos = 0, 0
    while pos < end:
        data = fh.read(min(block, end - pos))
        n += data.count(b"\n")
        pos += len(data)
    return n


def _check_record(record, index, seed, config, what):
    if not isinstance(record, dict) or record.get("index") != index:
        raise ConfigError(f"{what} of the output file should be item {index} but is "
                          f"{record.get('index') if isinstance(record, dict) else record!r}: "
                          "the file is not this batch's output")
    if record.get("seed") != item_seed(seed, index):
        raise ConfigError(f"{what} (item {index}) has seed {record.get('seed')}, but this batch "
                          f"gives item {index} seed {item_seed(seed, index)}: the file was made "
                          "with another --seed; use another output file")
    if record.get("config") != config:
        raise ConfigError(f"{what} (item {index}) was made with configuration "
                          f"{record.get('config')}, not {config}: use another output file")


_ITEM = re.compile(r"^; item (\d+) seed (\d+) rows (\d+)$", re.M)


class XsbFormat:
    """An XSB collection of Sokoban levels, each with its seed and proof in comments."""

    name = "xsb"

    def header(self, seed, config):
        return f"; levelforge batch seed {seed} config {_dumps(config)}\n\n"

    def record(self, index, result, data, config, timings=True):
        """The level titled with its index; comments hold its seed, its push-optimal
        length, whether that is in the target range, the solution and milliseconds."""
        level = result.level
        comments = [f"item {index} seed {result.seed} rows {level.height}",
                    f"pushes {result.pushes} moves {len(result.solution)}"
                    + ("" if result.in_target else " (outside the target range)"),
                    f"solution {result.solution}"]
        if timings:
            comments.append(f"ms {result.elapsed_ms:.3f}")
        return level.replace(title=str(index), comments=tuple(comments)).to_xsb() + "\n"

    def scan(self, fh, seed, config):
        """Like :meth:`JsonlFormat.scan`: whole levels at the start of binary file ``fh``.

        Reads the header and the tail: the last level must have its declared number of
        board rows and the blank line that ends a record, else it is discarded.
        """
        header = self.header(seed, config).encode()
        size = fh.seek(0, os.SEEK_END)
        fh.seek(0)
        head = fh.read(len(header))
        if head != header:
            if header.startswith(head):
                return 0, 0  # the header itself was cut: rewrite it
            first = head.split(b"\n", 1)[0].decode("utf-8", "replace")
            raise ConfigError(f"the output file starts with {first!r}, not this batch's header "
                              f"{header.decode().splitlines()[0]!r}: use another output file")
        block = 1 << 16
        while True:  # read a tail holding the last two records (or the whole file)
            lo = max(len(header), size - block)
            fh.seek(lo)
            tail = fh.read(size - lo).decode("utf-8", "replace")
            items = list(_ITEM.finditer(tail))
            if lo == len(header) or len(items) >= 2:
                break
            block *= 4
        for k in range(len(items) - 1, max(-1, len(items) - 3), -1):
            stop = items[k + 1].start() if k + 1 < len(items) else len(tail)
            segment = tail[items[k].start():stop]
            index, item_s, rows = (int(g) for g in items[k].groups())
            board = [ln for ln in segment.split("\n")
                     if ln.strip() and not ln.lstrip().startswith(";")]
            if segment.endswith("\n\n") and len(board) == rows:
                if item_s != item_seed(seed, index):
                    raise ConfigError(f"item {index} of the output file has seed {item_s}, "
                                      f"not {item_seed(seed, index)}: the file is not this "
                                      "batch's output")
                return index + 1, lo + len(tail[:stop].encode())
            if k + 1 < len(items):
                raise LevelFormatError(f"item {index} in the output file is damaged")
        return 0, len(header)


FORMATS = {"jsonl": JsonlFormat(), "xsb": XsbFormat()}


def format_for(path, fmt=None):
    """The output format named ``fmt``, or guessed from the file's suffix (JSONL default)."""
    if fmt is None:
        fmt = "xsb" if str(path).lower().endswith(".xsb") else "jsonl"
    if fmt not in FORMATS:
        raise ConfigError(f"unknown output format {fmt!r}; choose one of {sorted(FORMATS)}")
    return FORMATS[fmt]
