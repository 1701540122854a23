"""Batch output formats: one whole record per item, and a tail check for resuming.

JSONL: one JSON object a line, keys sorted, with ``index``, ``seed``, ``config`` and
the generator's full metadata. XSB (Sokoban): each level preceded by the comment line
``; item I seed S rows R`` that lets a resumed run prove the last board is whole.

Timing fields (keys ending in ``_ms``) are measurements, not content: with
``timings=False`` they are left out and the same seed gives a byte-identical file.
"""
import json
import re

from ..errors import ConfigError, LevelFormatError
from ..seeding import item_seed


def strip_timings(value):
    """A copy of a JSON-ready value without any key ending in ``_ms``."""
    if isinstance(value, dict):
        return {k: strip_timings(v) for k, v in value.items() if not k.endswith("_ms")}
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

    def record(self, index, result, config, timings=True):
        data = dict(result.to_dict())
        data["index"] = index
        data.setdefault("config", config)
        if not timings:
            data = strip_timings(data)
        return _dumps(data) + "\n"

    def scan(self, text, seed, config):
        """Count the whole records at the start of ``text``; return ``(count, end)``, the
        number of whole records and the character offset just past the last of them.

        A last line without its newline, or that does not parse, is an incomplete
        record to discard. A record that belongs to another batch (index, seed or
        configuration differ) raises :class:`~levelforge.ConfigError`.
        """
        end = text.rfind("\n") + 1  # drop a last line without its newline
        while end > 0:
            start = text.rfind("\n", 0, end - 1) + 1
            try:
                last = json.loads(text[start:end])
            except ValueError:
                end = start  # a damaged last line: discard it too
                continue
            count = text.count("\n", 0, end)
            _check_record(last, count - 1, seed, config, "the last record")
            return count, end
        return 0, 0


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

    def record(self, index, result, config, timings=True):
        level = result.level
        comments = [f"item {index} seed {result.seed} rows {level.height}"]
        comments += [f"{k} {_dumps(v)}" for k, v in sorted(_xsb_fields(result, timings).items())]
        return level.replace(title=str(index), comments=tuple(comments)).to_xsb() + "\n"

    def scan(self, text, seed, config):
        """Like :meth:`JsonlFormat.scan`: whole levels at the start of ``text``."""
        header = self.header(seed, config)
        if not text.startswith(header):
            if header.startswith(text):
                return 0, 0  # the header itself was cut: rewrite it
            first = text.split("\n", 1)[0]
            raise ConfigError(f"the output file starts with {first!r}, not this batch's header "
                              f"{header.splitlines()[0]!r}: use another output file")
        items = list(_ITEM.finditer(text))
        count, end = 0, len(header)
        for k, m in enumerate(items):
            stop = items[k + 1].start() if k + 1 < len(items) else len(text)
            segment = text[m.start():stop]
            index, item_s, rows = (int(g) for g in m.groups())
            board = [ln for ln in segment.split("\n")
                     if ln.strip() and not ln.lstrip().startswith(";")]
            if not segment.endswith("\n\n") or len(board) != rows:
                if k + 1 < len(items):
                    raise LevelFormatError(f"item {index} in the output file is damaged "
                                           "before its end")
                break  # an incomplete last record
            if index != count or item_s != item_seed(seed, index):
                raise ConfigError(f"item {count} of the output file is item {index} with "
                                  f"seed {item_s}: the file is not this batch's output")
            count, end = count + 1, stop
        return count, end


def _xsb_fields(result, timings):
    data = result.to_dict()
    keep = {k: data[k] for k in ("pushes", "moves", "in_target", "elapsed_ms") if k in data}
    return keep if timings else strip_timings(keep)


FORMATS = {"jsonl": JsonlFormat(), "xsb": XsbFormat()}


def format_for(path, fmt=None):
    """The output format named ``fmt``, or guessed from the file's suffix (JSONL default)."""
    if fmt is None:
        fmt = "xsb" if str(path).lower().endswith(".xsb") else "jsonl"
    if fmt not in FORMATS:
        raise ConfigError(f"unknown output format {fmt!r}; choose one of {sorted(FORMATS)}")
    return FORMATS[fmt]
