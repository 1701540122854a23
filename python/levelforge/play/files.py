"""The file ``levelforge play FILE`` was started with: a batch of levels to look at, or a
defense scenario to play.

Sokoban levels come as XSB (a collection, with the proof comments ``levelforge sokoban
generate`` writes, or without) or as the JSONL of ``levelforge batch sokoban``; symmetry
puzzles as the JSONL of ``levelforge batch symmetry``. The file is read once, its figures
(push counts, difficulty figures, ``elapsed_ms``) kept for the gallery's histograms and
filters; levels are parsed when first shown. A ``.toml`` file, or a ``.json`` file holding
one object with a ``map``, is a defense scenario (:meth:`Scenario.load`).

>>> import os, tempfile
>>> from levelforge import sokoban
>>> opened = open_file(sokoban.collections.path("microban"))
>>> opened.kind, opened.count, opened.figures, opened.level(0).title
('sokoban', 155, ['boxes'], '1')
"""
import json
import math
import os
import re
from functools import lru_cache

from ..defense import Scenario
from ..errors import ConfigError, LevelFormatError
from ..sokoban import load_xsb, read_xsb
from ..symmetry import Puzzle

SOKOBAN, SYMMETRY, DEFENSE = "sokoban", "symmetry", "defense"
_PUSHES = re.compile(r"^pushes (\d+) moves (\d+)")
_MS = re.compile(r"^ms ([0-9.]+)$")
_SOLUTION = re.compile(r"^solution ([lurdLURD]*)$")
_SYMMETRY_CHARTED = ("branch_points", "proof_nodes", "path_points")


class OpenedFile:
    """Levels of one file: ``kind`` (``"sokoban"`` or ``"symmetry"``), ``count``, the
    figure names (``figures``) and each item's values (``values[name][i]``), titles."""

    def __init__(self, path, kind, records, figures, values, titles, scenario=None):
        self.scenario = scenario  # the Scenario of a defense file
        self.path = os.path.abspath(os.fspath(path))
        self.name = os.path.basename(self.path)
        self.kind = kind
        self._records = records
        self.figures = figures
        self.values = values
        self.titles = titles
        self.count = len(records)
        self._parse = lru_cache(maxsize=4096)(self._parse_item)

    def _check(self, item):
        if isinstance(item, bool) or not isinstance(item, int) or not 0 <= item < self.count:
            raise ConfigError(f"{self.name} holds items 0 to {self.count - 1}; there is no "
                              f"item {item!r}")
        return item

    def _parse_item(self, item):
        record = self._records[item]
        if self.kind == SYMMETRY:
            try:
                return Puzzle.from_dict(record)
            except LevelFormatError as exc:
                raise LevelFormatError(f"{self.name}, item {item}: {exc}") from None
        if isinstance(record, dict):  # a JSONL record: its level is XSB text
            try:
                return read_xsb(record["level"])[0]
            except LevelFormatError as exc:
                raise LevelFormatError(f"{self.name}, item {item}: {exc}") from None
        return record

    def level(self, item):
        """Sokoban level ``item`` (0-based position in the file)."""
        if self.kind != SOKOBAN:
            raise ConfigError(f"{self.name} holds {self.kind} puzzles, not Sokoban levels")
        return self._parse(self._check(item))

    def puzzle(self, item):
        """Symmetry puzzle ``item`` (0-based position in the file)."""
        if self.kind != SYMMETRY:
            raise ConfigError(f"{self.name} holds {self.kind} levels, not symmetry puzzles")
        return self._parse(self._check(item))

    def proof(self, item):
        """``(pushes, solution)`` recorded with Sokoban level ``item``, or None."""
        record = self._records[self._check(item)]
        if isinstance(record, dict):
            if isinstance(record.get("solution"), str) and isinstance(record.get("pushes"), int):
                return record["pushes"], record["solution"]
            return None
        return _xsb_proof(record)

    def record(self, item):
        """The item's figures as a dict."""
        item = self._check(item)
        return {name: self.values[name][item] for name in self.figures}

    def charted(self):
        """The figures the gallery draws histograms of and filters by: those that vary
        (for symmetry puzzles, the main difficulty figures and ``elapsed_ms``)."""
        names = self.figures
        if self.kind == SYMMETRY:
            names = [f for f in _SYMMETRY_CHARTED + ("elapsed_ms",) if f in self.figures]
        return [f for f in names if len(set(self.values[f])) > 1]

    def matching(self, filters):
        """Positions of the items whose figures lie in every ``(lo, hi)`` of ``filters``
        (a mapping of figure name to range; an item without the figure never matches)."""
        keep = range(self.count)
        for name, (lo, hi) in filters.items():
            column = self.values[name]
            keep = [i for i in keep if column[i] is not None and lo <= column[i] <= hi]
        return list(keep)


def _xsb_proof(level):
    pushes = solution = None
    for line in level.comments:
        m = _PUSHES.match(line)
        if m:
            pushes = int(m.group(1))
        m = _SOLUTION.match(line)
        if m:
            solution = m.group(1)
    return None if pushes is None or solution is None else (pushes, solution)


def _xsb_figures(level):
    fig = {"boxes": len(level.boxes)}
    for line in level.comments:
        m = _PUSHES.match(line)
        if m:
            fig["pushes"], fig["moves"] = int(m.group(1)), int(m.group(2))
        m = _MS.match(line)
        if m:
            fig["elapsed_ms"] = float(m.group(1))
    return fig


def _columns(figs, order):
    """Figure names present in every item (in ``order``, then sorted) and their columns."""
    names = set(figs[0]) if figs else set()
    for f in figs:
        names &= set(f)
    names = [n for n in order if n in names] + sorted(names - set(order))
    return names, {n: [f[n] for f in figs] for n in names}


def _number(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool) and \
        math.isfinite(value)


def _read_jsonl(path):
    records = []
    try:
        fh = open(path, encoding="utf-8-sig")
    except OSError as exc:
        raise LevelFormatError(f"cannot read {path}: {exc.strerror}") from None
    with fh:
        try:
            for n, line in enumerate(fh, 1):
                if not line.strip():
                    continue
                try:
                    record = json.loads(line)
                except ValueError as exc:
                    raise LevelFormatError(f"not JSON ({exc})", n, file=path) from None
                if not isinstance(record, dict):
                    raise LevelFormatError("a record must be a JSON object", n, file=path)
                records.append((n, record))
        except UnicodeDecodeError as exc:
            raise LevelFormatError(f"{path}: not UTF-8 text ({exc.reason})") from None
    if not records:
        raise LevelFormatError(f"{path}: no records (an empty file)")
    return records


def _open_jsonl(path):
    lines = _read_jsonl(path)
    first = lines[0][1]
    if "board_a" in first:
        kind, order = SYMMETRY, _SYMMETRY_CHARTED
    elif isinstance(first.get("level"), str):
        kind, order = SOKOBAN, ("pushes", "moves", "boxes")
    else:
        raise LevelFormatError("neither a Sokoban batch record (a 'level' field) nor a symmetry "
                               "puzzle (a 'board_a' field)", lines[0][0], file=path)
    figs, titles, records = [], [], []
    for n, record in lines:
        if kind == SYMMETRY:
            if "board_a" not in record:
                raise LevelFormatError("not a symmetry puzzle record (no 'board_a')", n,
                                       file=path)
            fig = {k: v for k, v in record.get("difficulty", {}).items() if _number(v)}
        else:
            if not isinstance(record.get("level"), str):
                raise LevelFormatError("not a Sokoban record (no 'level' text)", n, file=path)
            fig = {k: record[k] for k in ("pushes", "moves") if _number(record.get(k))}
            fig["boxes"] = sum(record["level"].count(c) for c in "$*")
        if _number(record.get("elapsed_ms")):
            fig["elapsed_ms"] = record["elapsed_ms"]
        figs.append(fig)
        titles.append(f"#{record['index']}" if isinstance(record.get("index"), int)
                      else f"line {n}")
        records.append(record)
    names, values = _columns(figs, order + ("elapsed_ms",))
    return OpenedFile(path, kind, records, names, values, titles)


def _is_scenario(path):
    """True for a ``.json`` file holding one object with a ``map`` (a scenario)."""
    try:
        with open(path, encoding="utf-8-sig") as fh:
            data = json.load(fh)
    except (OSError, ValueError):
        return False
    return isinstance(data, dict) and "map" in data


def open_file(path):
    """Read a level file (``.xsb``, or ``.jsonl`` from ``levelforge batch``) or a defense
    scenario (``.toml``, ``.json``).

    Raises :class:`~levelforge.LevelFormatError` naming the file (and line) when it cannot
    be read or holds no valid level.
    """
    path = os.fspath(path)
    if not os.path.isfile(path):
        raise ConfigError(f"{path}: no such file")
    if path.lower().endswith(".xsb"):
        levels = load_xsb(path)
        names, values = _columns([_xsb_figures(lv) for lv in levels],
                                 ("pushes", "moves", "boxes", "elapsed_ms"))
        titles = [lv.title or f"level {k + 1}" for k, lv in enumerate(levels)]
        return OpenedFile(path, SOKOBAN, levels, names, values, titles)
    lower = path.lower()
    if lower.endswith(".toml") or (lower.endswith(".json") and _is_scenario(path)):
        return OpenedFile(path, DEFENSE, [], [], {}, [], Scenario.load(path))
    if lower.endswith((".jsonl", ".json", ".ndjson")):
        return _open_jsonl(path)
    raise ConfigError(f"{path}: levelforge play opens .xsb and .jsonl level files and .toml "
                      "or .json defense scenarios")
