"""Batch output formats: one whole record per item, and the checks that let a run resume.

JSONL: one JSON object a line, keys sorted, with ``index``, ``seed``, ``config`` and
the generator's full metadata. XSB (Sokoban): a header line naming the batch's seed and
configuration, then each level preceded by the comment line ``; item I seed S rows R``
that lets a resumed run prove the last board is whole.

Timing fields (keys ending in ``_ms``, and ``timings`` objects of stage times) are
measurements, not content: with ``timings=False`` they are left out and the same seed
gives a byte-identical file.

Resuming never destroys a file: a file that does not start with a record of this batch
(same seed, configuration and timing fields) is refused and left alone, and only a torn
last record after whole ones is discarded.
"""
import json
import os
import re

from ..errors import ConfigError
from ..seeding import item_seed

FIRST_LINE_LIMIT = 1 << 24  # a first line longer than this is not a levelforge record


def strip_timings(value: object) -> object:
    """A copy of a JSON-ready value without timing fields (``*_ms`` keys, ``timings``)."""
    if isinstance(value, dict):
        return {k: strip_timings(v) for k, v in value.items()
                if not (k.endswith("_ms") or k == "timings")}
    if isinstance(value, list):
        return [strip_timings(v) for v in value]
    return value


def _dumps(obj):
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), allow_nan=False)


def _system(config):
    """The levelforge system a configuration belongs to, or None if unknown."""
    if not isinstance(config, dict):
        return None
    if isinstance(config.get("system"), str):
        return config["system"]
    if {"width", "height", "boxes", "pushes"} <= config.keys():
        return "sokoban"
    return None


def _show(value):
    return value if isinstance(value, str) else _dumps(value)


def config_difference(theirs, ours):
    """How the configuration ``theirs`` (a file's) differs from ``ours`` (this run's); an
    empty string when they are equal.

    >>> config_difference({"width": 10, "boxes": 2}, {"width": 12, "boxes": 2})
    'width 10 in the file, 12 now'
    """
    if not isinstance(theirs, dict):
        return f"the file's configuration is {_show(theirs)}, not an object"
    parts = [f"{k} {_show(theirs[k])} in the file, {_show(ours[k])} now"
             for k in sorted(theirs.keys() & ours.keys()) if theirs[k] != ours[k]]
    parts += [f"{k} {_show(theirs[k])} in the file, not set now"
              for k in sorted(theirs.keys() - ours.keys())]
    parts += [f"{k} not in the file, {_show(ours[k])} now"
              for k in sorted(ours.keys() - theirs.keys())]
    return "; ".join(parts)


def check_batch(path, what, config, their_config, their_timings, timings, seed_problem=None):
    """Raise ConfigError unless a file's batch (configuration, seed, timing fields) is this
    one; the message names what differs and how to proceed."""
    refuse = f"{path}: {what} is not from this batch: "
    theirs, ours = _system(their_config), _system(config)
    if theirs and ours and theirs != ours:
        raise ConfigError(refuse + f"the file holds {theirs} records and this is a {ours} "
                          "job; use another output file")
    diff = config_difference(their_config, config)
    if diff:
        raise ConfigError(refuse + f"--config differs ({diff}); use another output file, "
                          "or the file's configuration to continue it")
    if seed_problem:
        raise ConfigError(refuse + seed_problem + "; use another output file")
    if their_timings != timings:
        have = "has timing fields" if their_timings else "has no timing fields (--no-timings)"
        fix = "without --no-timings" if their_timings else "with --no-timings"
        raise ConfigError(f"{path}: the file {have}; continue it {fix}, so that its records "
                          "keep one shape")


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

    def scan(self, fh, seed, config, timings=True, path="the output file"):
        """Find the whole records at the start of the binary file ``fh`` (not empty).

        Returns ``(count, end)``: how many whole records it holds and the byte offset just
        past the last of them. The first record must be item 0 of this batch (seed,
        configuration, timing fields), else ConfigError: the file is someone else's and
        is left alone. Only the last line may be torn (it has no newline, and is
        discarded); the last whole line must be item ``count - 1`` of this batch. Only the
        first line and the tail are parsed (plus a newline count), so resuming a large
        file is cheap.
        """
        size = fh.seek(0, os.SEEK_END)
        first = _first_line(fh, size)
        if first is None:
            raise ConfigError(f"{path}: the file does not start with a line of JSON (a "
                              "levelforge record); use another output file")
        self._check(_parse(first), 0, seed, config, timings, path)
        end = _last_newline(fh, size) + 1
        start = _last_newline(fh, end - 1) + 1
        count = _count(fh, 0, end, b"\n")
        fh.seek(start)
        self._check(_parse(fh.read(end - start)), count - 1, seed, config, timings, path)
        return count, end

    @staticmethod
    def _check(record, index, seed, config, timings, path):
        what = "its first record" if index == 0 else f"line {index + 1}"
        if not isinstance(record, dict) or "index" not in record or "config" not in record:
            raise ConfigError(f"{path}: {what} is not a levelforge batch record (JSON with "
                              "index, seed and config); use another output file")
        theirs = record.get("seed")
        problem = None
        if record["index"] == index and theirs != item_seed(seed, index):
            problem = (f"item {index} has seed {theirs}, but --seed {seed} gives it seed "
                       f"{item_seed(seed, index)} (it was made with another --seed)")
        check_batch(path, what, config, record["config"], strip_timings(record) != record,
                    timings, problem)
        if record["index"] != index:
            raise ConfigError(f"{path}: line {index + 1} holds item {record['index']!r}, not "
                              f"item {index}: the file is damaged or mixes batches; use "
                              "another output file")


def _parse(line):
    try:
        return json.loads(line)
    except ValueError:
        return None


def _first_line(fh, size):
    """The first line of ``fh`` (with its newline), or None if it holds no whole line."""
    fh.seek(0)
    data = b""
    while len(data) < min(size, FIRST_LINE_LIMIT):
        block = fh.read(1 << 16)
        k = block.find(b"\n")
        if k >= 0:
            return data + block[:k + 1]
        data += block
    return None


def _last_newline(fh, before, block=1 << 16):
    """Offset of the last b"\\n" before byte ``before``, or -1."""
    pos = before
    while pos > 0:
        lo = max(0, pos - block)
        fh.seek(lo)
        k = fh.read(pos - lo).rfind(b"\n")
        if k >= 0:
            return lo + k
        pos = lo
    return -1


def _count(fh, start, end, pattern, block=1 << 20):
    """Occurrences of ``pattern`` (which holds one b"\\n", its first byte) in bytes
    ``start..end-1`` of ``fh``."""
    fh.seek(start)
    n, pos, carry = 0, start, b""
    while pos < end:
        data = fh.read(min(block, end - pos))
        pos += len(data)
        n += (carry + data).count(pattern)
        carry = data[-(len(pattern) - 1):] if len(pattern) > 1 else b""
    return n


_HEADER = re.compile(r"; levelforge batch seed (\d+) config (\{.*\})\n\n")
_ITEM = re.compile(r"^; item (\d+) seed (\d+) rows (\d+)$", re.M)
_ITEM_START = "; item "


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

    def scan(self, fh, seed, config, timings=True, path="the output file"):
        """Like :meth:`JsonlFormat.scan`: whole levels at the start of binary file ``fh``.

        The file must start with this batch's header (seed and configuration). The last
        level must have its declared number of board rows and the blank line that ends a
        record; a torn last level (text after the last whole one that begins like
        ``; item``) is discarded, anything else is refused.
        """
        size = fh.seek(0, os.SEEK_END)
        fh.seek(0)
        first = _first_line(fh, size) or b""
        fh.seek(0)
        match = _HEADER.match(fh.read(len(first) + 1).decode("utf-8", "replace"))
        if match is None:
            shown = first.decode("utf-8", "replace").rstrip("\n")[:60]
            raise ConfigError(f"{path}: the file starts with {shown!r}, not a levelforge "
                              "batch header ('; levelforge batch seed S config {...}'); "
                              "use another output file")
        hlen = match.end()
        block = 1 << 16
        while True:  # read a tail holding the last two records (or the whole file)
            lo = max(hlen, size - block)
            fh.seek(lo)
            tail = fh.read(size - lo).decode("utf-8", "replace")
            items = list(_ITEM.finditer(tail))
            if lo == hlen or len(items) >= 2:
                break
            block *= 4
        found = None
        for k in range(len(items) - 1, max(-1, len(items) - 3), -1):
            stop = items[k + 1].start() if k + 1 < len(items) else len(tail)
            segment = tail[items[k].start():stop]
            board = [ln for ln in segment.split("\n")
                     if ln.strip() and not ln.lstrip().startswith(";")]
            if segment.endswith("\n\n") and len(board) == int(items[k].group(3)):
                found = items[k], stop, re.search(r"^; ms ", segment, re.M) is not None
                break
        item, stop, timed = found or (None, 0, timings)
        their_seed = int(match.group(1))
        check_batch(path, "its header", config, _parse(match.group(2)), timed, timings,
                    None if their_seed == seed else f"it was made with --seed {their_seed}, "
                    f"this run uses --seed {seed}")
        rest = tail[stop:]
        if rest and not _torn_level(rest):
            where = "the header" if item is None else f"item {item.group(1)}"
            raise ConfigError(f"{path}: the text after {where} is not a level record (it "
                              "does not begin with '; item'); the file is damaged or not "
                              "only this batch's output: use another output file")
        if item is None:
            return 0, hlen
        index, end = int(item.group(1)), lo + len(tail[:stop].encode())
        if int(item.group(2)) != item_seed(seed, index) or \
                _count(fh, hlen - 1, end, b"\n" + _ITEM_START.encode()) != index + 1:
            raise ConfigError(f"{path}: its levels are not items 0..{index} of this batch: "
                              "the file is damaged or mixes batches; use another output file")
        return index + 1, end


def _torn_level(text):
    """Whether ``text`` can be the start of one level record cut short: it begins like
    ``; item``, and holds at most the blank line after its comments and at most its
    declared number of board rows."""
    if not (text.startswith(_ITEM_START) or _ITEM_START.startswith(text)):
        return False
    if text.count("\n\n") > 1:
        return False
    match = _ITEM.match(text)
    board = [ln for ln in text.split("\n") if ln.strip() and not ln.lstrip().startswith(";")]
    return match is None or len(board) <= int(match.group(3))


FORMATS = {"jsonl": JsonlFormat(), "xsb": XsbFormat()}


def format_for(path, fmt=None):
    """The output format named ``fmt``, or guessed from the file's suffix (JSONL default)."""
    if fmt is None:
        fmt = "xsb" if str(path).lower().endswith(".xsb") else "jsonl"
    if fmt not in FORMATS:
        raise ConfigError(f"unknown output format {fmt!r}; choose one of {sorted(FORMATS)}")
    return FORMATS[fmt]
