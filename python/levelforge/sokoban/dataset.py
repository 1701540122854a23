"""Sokoban datasets with proofs: Boxoban-format files, each with a JSONL sidecar.

:func:`build` writes ``count`` generated levels into a directory: files of 1,000 levels
in Boxoban's text format (``000.txt``, ``001.txt``, ...) or XSB, and beside each file a
sidecar (``000.jsonl``) with one line per level: its item number and seed, its
push-optimal length and solution, and the effort of an independent solve (nodes,
expanded states). Item ``i`` is ``Generator(**config).generate(item_seed(seed, i))``, so
the dataset is reproducible from its seed, and every level carries its proof.

Splits by difficulty route each level by its optimal pushes or its solver nodes into
its own subdirectory; levels outside every split are skipped. ``splits="effort"`` is
the preset :data:`EFFORT_SPLITS` (easy / medium / hard / harder by solver nodes, cut at
measured quantiles). So are levels that
Boxoban's alphabet (``# @ $ .`` and space) cannot write, with a box or the player
starting on a goal: other Boxoban readers would misread them. ``count`` counts the
levels written; a re-run continues an interrupted directory (or extends it to a larger
``count``). Generation goes through :func:`levelforge.batch.generate`, so any executor
(a process pool, a Dask cluster) gives the same files.

>>> import os, tempfile
>>> out = tempfile.mkdtemp()
>>> summary = build(out, 3, seed=1, config={"width": 7, "height": 7, "boxes": 2},
...                 show_progress=False)
>>> summary.total, sorted(os.listdir(out))
(3, ['000.jsonl', '000.txt', 'dataset.json'])
"""
import json
import os
import re
import sys
from dataclasses import dataclass, field

from ..batch import generate as batch_generate, strip_timings
from ..errors import ConfigError, LevelforgeError
from ..progress import progress
from ..seeding import check_seed
from ..timing import ms_since, now_ns
from .boxoban import boxoban_record
from .generator import Generator
from .solver import Solver

LEVELS_PER_FILE = 1000
FORMATS = {"boxoban": ".txt", "xsb": ".xsb"}
SPLIT_KEYS = ("pushes", "nodes")
EFFORT_SPLITS_CONFIG = {"width": 10, "height": 10, "boxes": 4, "pushes": [15, 50],
                        "method": "farthest"}
"""The configuration whose measured effort quantiles cut :data:`EFFORT_SPLITS` (and the
dataset command's default with ``--splits effort``)."""
EFFORT_SPLITS = {"easy": (0, 94), "medium": (95, 161), "hard": (162, 269), "harder": (270, None)}
"""``splits="effort"``: solver nodes (stored states of the push-optimal solve) cut at
the 25th, 50th and 75th percentiles of :data:`EFFORT_SPLITS_CONFIG` levels (seeds 1000
to 1199, ``asv_bench/report_sokoban_hard.py --quantiles 200`` prints them): easy below
the first quartile, harder above the third."""
MANIFEST = "dataset.json"
_NAME = re.compile(r"^[A-Za-z0-9_-]+$")
_BOXOBAN_CHARS = frozenset("#@$. \n")


@dataclass(frozen=True)
class DatasetLevel:
    """One generated level with its proof: the generator's result (level, push-optimal
    solution, seed) and an independent push-optimal solve of the level (its effort)."""

    result: object
    solve: object

    @property
    def elapsed_ms(self):
        """Generation plus the independent solve, in milliseconds."""
        return self.result.elapsed_ms + self.solve.elapsed_ms

    def record(self, item, number):
        """The sidecar record: item ``item``, level ``number`` of its file."""
        r, s = self.result, self.solve
        rec = {"index": number, "item": item, "seed": r.seed, "pushes": r.pushes,
               "moves": r.moves, "solution": r.solution, "in_target": r.in_target,
               "solve_status": s.status, "nodes": s.nodes, "expanded": s.expanded,
               "attempts": r.attempts.to_dict(), "elapsed_ms": round(r.elapsed_ms, 3),
               "solve_ms": round(s.elapsed_ms, 3)}
        difficulty = getattr(r, "difficulty", None)
        if difficulty is not None:
            rec["box_changes"] = difficulty.box_changes
            rec["dead_squares"] = difficulty.dead_squares
        return rec


class DatasetGenerator:
    """A :class:`~levelforge.sokoban.Generator` whose every level is solved again from
    scratch (``max_nodes`` caps that solve), so its record holds the solver's effort and a
    second proof of the optimum. Follows the batch protocol; picklable.

    >>> item = DatasetGenerator({"width": 7, "height": 7, "boxes": 2}).generate(5)
    >>> item.solve.pushes == item.result.pushes
    True
    """

    def __init__(self, config=None, max_nodes=1_000_000):
        self.config = dict(config or {})
        self.generator = Generator(**self.config)
        self.solver = Solver(max_nodes=max_nodes)

    def to_dict(self):
        return {"generator": self.generator.to_dict(), "solver_max_nodes": self.solver.max_nodes}

    def __getstate__(self):
        return {"config": self.config, "max_nodes": self.solver.max_nodes}

    def __setstate__(self, state):
        self.__init__(state["config"], state["max_nodes"])

    def warm_up(self):
        self.generator.warm_up()
        self.solver.warm_up()
        return self

    def generate(self, seed):
        result = self.generator.generate(seed)
        solved = self.solver.solve(result.level)
        if solved.solved and solved.pushes != result.pushes:
            raise LevelforgeError(f"seed {seed}: the generator measured {result.pushes} "
                                  f"pushes but a fresh solve finds {solved.pushes}")
        return DatasetLevel(result, solved)


def parse_splits(text):
    """``"easy=0-19,medium=20-29,hard=30-"`` as ``{"easy": (0, 19), ..., "hard": (30, None)}``.

    >>> parse_splits("easy=-9,hard=10-")
    {'easy': (0, 9), 'hard': (10, None)}
    """
    splits = {}
    for part in text.split(","):
        name, _, bounds = part.strip().partition("=")
        lo, dash, hi = bounds.partition("-")
        if not dash or not (lo.strip().isdigit() or not lo.strip()) \
                or not (hi.strip().isdigit() or not hi.strip()):
            raise ConfigError(f"split {part.strip()!r} must look like NAME=LO-HI (LO or HI "
                              f"may be left out), e.g. hard=30-")
        splits[name.strip()] = (int(lo) if lo.strip() else 0, int(hi) if hi.strip() else None)
    return check_splits(splits)


def check_splits(splits):
    """Validate ``{name: (lo, hi or None)}``: safe names, ordered, non-overlapping ranges."""
    if not isinstance(splits, dict) or not splits:
        raise ConfigError(f"splits must be a non-empty dict of name: (lo, hi), got {splits!r}")
    out = {}
    for name, (lo, hi) in splits.items():
        if not isinstance(name, str) or not _NAME.match(name) or name == MANIFEST:
            raise ConfigError(f"split name {name!r} must be letters, digits, '_' or '-'")
        if not isinstance(lo, int) or lo < 0 or (hi is not None and (not isinstance(hi, int)
                                                                   or hi < lo)):
            raise ConfigError(f"split {name!r}: range ({lo!r}, {hi!r}) must have 0 <= lo <= hi")
        out[name] = (lo, hi)
    ranges = sorted(out.values())
    for (lo1, hi1), (lo2, _) in zip(ranges, ranges[1:]):
        if hi1 is None or hi1 >= lo2:
            raise ConfigError(f"split ranges overlap: {out}")
    return out


def _split_of(item, split_by, splits):
    if splits is None:
        return ""
    value = item.result.pushes if split_by == "pushes" else item.solve.nodes
    for name, (lo, hi) in splits.items():
        if lo <= value and (hi is None or value <= hi):
            return name
    return None


@dataclass(frozen=True)
class DatasetSummary:
    """What :func:`build` did: levels written this run and in the directory (per split),
    items generated this run and why some were skipped, time and levels per second."""

    directory: str
    written: int
    total: int
    per_split: dict
    items: int
    skipped: dict
    seconds: float
    interrupted: bool
    exhausted: bool = False
    pushes: dict = field(default_factory=dict)

    def lines(self):
        """The summary as human-readable lines."""
        rate = self.written / self.seconds if self.seconds > 0 else float("nan")
        out = [f"{self.directory}: {self.written} levels this run, {self.total} in the dataset",
               f"{rate:,.1f} levels/s over {self.seconds:.2f} s ({self.items} items generated)"]
        if any(self.per_split):
            out.append("splits: " + ", ".join(f"{k} {v}" for k, v in self.per_split.items()))
        if any(self.skipped.values()):
            out.append("skipped: " + ", ".join(f"{v} {k}" for k, v in self.skipped.items() if v))
        if self.pushes:
            out.append("optimal pushes this run: " + " ".join(
                f"{p}:{n}" for p, n in sorted(self.pushes.items())))
        if self.exhausted:
            out.append("stopped: the item limit was reached before COUNT levels fitted")
        if self.interrupted:
            out.append("interrupted: run the same command again to resume")
        return out

    def report(self, stream=None):
        """Print the summary to ``stream`` (stderr); return the command's exit code."""
        for line in self.lines():
            print(line, file=sys.stderr if stream is None else stream)
        return 130 if self.interrupted else (1 if self.exhausted else 0)


def build(directory, count, seed, config=None, fmt="boxoban", split_by="pushes", splits=None,
          executor=None, chunk_size=None, timings=True, show_progress=True, max_nodes=1_000_000,
          max_items=None):
    """Write ``count`` levels with their proofs into ``directory`` (see the module doc).

    ``splits`` (``{name: (lo, hi or None)}``, or text for :func:`parse_splits`) routes
    levels by ``split_by`` (``"pushes"`` or ``"nodes"``) into subdirectories;
    ``splits="effort"`` is :data:`EFFORT_SPLITS` by nodes (``split_by`` ignored). ``executor``
    is any :class:`concurrent.futures.Executor`. ``timings=False`` leaves the timing
    fields out of the sidecars, so the same seed gives byte-identical files.
    ``max_items`` (default: 100 times the levels still to write) bounds the items
    generated when splits or the alphabet skip many; reaching it sets ``exhausted``.
    Returns a :class:`DatasetSummary`.
    """
    seed = check_seed(seed)
    if isinstance(count, bool) or not isinstance(count, int) or count < 0:
        raise ConfigError(f"count must be a non-negative integer, got {count!r}")
    if fmt not in FORMATS:
        raise ConfigError(f"unknown dataset format {fmt!r}; choose one of {sorted(FORMATS)}")
    if split_by not in SPLIT_KEYS:
        raise ConfigError(f"split_by must be one of {SPLIT_KEYS}, got {split_by!r}")
    if splits == "effort":
        splits, split_by = EFFORT_SPLITS, "nodes"
    if isinstance(splits, str):
        splits = parse_splits(splits)
    elif splits is not None:
        splits = check_splits(splits)
    gen = DatasetGenerator(config, max_nodes)
    manifest = {"levelforge_dataset": 1, "format": fmt, "seed": seed, **gen.to_dict(),
                "split_by": split_by if splits else None,
                "splits": {k: list(v) for k, v in splits.items()} if splits else None,
                "levels_per_file": LEVELS_PER_FILE}
    _claim(directory, manifest)
    names = list(splits) if splits else [""]
    files = {name: _SplitFiles(os.path.join(directory, name), FORMATS[fmt]) for name in names}
    start = max(f.next_item for f in files.values())
    done = sum(f.total for f in files.values())
    need = count - done
    limit = 100 * max(need, 1) if max_items is None else max_items
    skipped = {"outside every split": 0, "not in Boxoban's alphabet": 0}
    pushes, items, interrupted, exhausted = {}, 0, False, False
    t0 = now_ns()
    with progress(count, os.path.basename(os.path.abspath(directory)),
                  unit="level", enabled=show_progress) as bar, _Writers(files) as out:
        bar.update(done)
        if chunk_size is None and executor is not None:
            chunk_size = max(1, min(256, need // 16))
        stream = batch_generate(gen, start + limit, seed, executor=executor,
                                chunk_size=chunk_size, start=start) if need > 0 else iter(())
        try:
            written = 0
            for index, item in enumerate(stream, start):
                items += 1
                name = _split_of(item, split_by, splits)
                if name is None:
                    skipped["outside every split"] += 1
                    continue
                text = _level_text(fmt, out.number(name), item.result.level)
                if text is None:
                    skipped["not in Boxoban's alphabet"] += 1
                    continue
                record = item.record(index, out.number(name))
                out.write(name, text, record if timings else strip_timings(record))
                pushes[item.result.pushes] = pushes.get(item.result.pushes, 0) + 1
                written += 1
                bar.update(1)
                if written == need:
                    break
            else:
                exhausted = need > 0 and written < need
        except KeyboardInterrupt:
            interrupted = True
        finally:
            close = getattr(stream, "close", None)
            if close is not None:
                close()
    per_split = {name: f.total for name, f in files.items()}
    total = sum(per_split.values())
    return DatasetSummary(str(directory), total - done, total,
                          per_split if splits else {}, items, skipped,
                          ms_since(t0) / 1e3, interrupted, exhausted, pushes)


def _level_text(fmt, number, level):
    if fmt == "xsb":
        return level.replace(title=str(number), comments=()).to_xsb() + "\n"
    text = boxoban_record(number, level)
    body = text.split("\n", 1)[1]
    return text if _BOXOBAN_CHARS.issuperset(body) else None


def _claim(directory, manifest):
    """Create ``directory`` with its manifest, or check that the one there matches."""
    path = os.path.join(directory, MANIFEST)
    text = json.dumps(manifest, sort_keys=True, indent=1) + "\n"
    if os.path.exists(path):
        with open(path, encoding="utf-8") as fh:
            try:
                there = json.load(fh)
            except ValueError as exc:
                raise ConfigError(f"{path} is not a dataset manifest: {exc}") from None
        if there != json.loads(text):
            diff = sorted(k for k in set(there) | set(manifest) if there.get(k) != manifest.get(k))
            raise ConfigError(f"{directory} holds another dataset (its {', '.join(diff)} "
                              f"differ): use another directory")
        return
    if os.path.isdir(directory) and os.listdir(directory):
        raise ConfigError(f"{directory} is not empty and holds no {MANIFEST}: use a new "
                          f"or empty directory")
    os.makedirs(directory, exist_ok=True)
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as fh:
        fh.write(text)
    os.replace(tmp, path)


class _SplitFiles:
    """The numbered files of one split: how many whole levels they hold (an incomplete
    last level, left by a killed run, is cut off) and the next item to generate."""

    def __init__(self, directory, suffix):
        self.directory, self.suffix = directory, suffix
        os.makedirs(directory, exist_ok=True)
        numbers = sorted(int(f[:-6]) for f in os.listdir(directory)
                         if f.endswith(".jsonl") and f[:-6].isdigit())
        self.file = numbers[-1] if numbers else 0
        self.in_file, self.next_item = 0, 0
        if numbers:
            self.in_file, self.next_item = self._repair(self.file)
        self.total = self.file * LEVELS_PER_FILE + self.in_file
        if self.in_file == LEVELS_PER_FILE:
            self.file, self.in_file = self.file + 1, 0

    def path(self, file, ext):
        return os.path.join(self.directory, f"{file:03d}{ext}")

    def _repair(self, file):
        side, text = self.path(file, ".jsonl"), self.path(file, self.suffix)
        with open(side, "rb") as fh:
            data = fh.read()
        lines = data.split(b"\n")[:-1]  # a last line without its newline is incomplete
        keep, last = 0, None
        for line in lines:
            try:
                last = json.loads(line)
            except ValueError:
                break
            keep += 1
        _truncate(side, sum(len(x) + 1 for x in lines[:keep]))
        body = ""
        if os.path.exists(text):
            with open(text, encoding="utf-8") as fh:
                body = fh.read()
        heads = [m.start() for m in re.finditer(r"^; \d+$", body, re.M)]
        # cut before the level after the last whole one, or after the last blank line
        # (every level ends with one) when only a partial header follows it
        cut = heads[keep] if len(heads) > keep else (body.rfind("\n\n") + 2 if keep else 0)
        body = body[:cut]
        if len(re.findall(r"^; \d+$", body, re.M)) != keep:
            raise ConfigError(f"{text} and {side} disagree on the levels they hold")
        if os.path.exists(text):
            _truncate(text, len(body.encode()))
        return keep, (last["item"] + 1 if last else 0)


def _truncate(path, size):
    with open(path, "r+b") as fh:
        fh.truncate(size)


class _Writers:
    """Open files per split; each level's text, then its sidecar line, flushed at once
    (so a killed run leaves at most one incomplete level), fsynced at most once a second."""

    SYNC_NS = 1_000_000_000

    def __init__(self, files):
        self.files, self.open, self.synced = files, {}, now_ns()

    def number(self, name):
        return self.files[name].in_file

    def write(self, name, text, record):
        f = self.files[name]
        if name not in self.open:
            self.open[name] = (open(f.path(f.file, f.suffix), "a", encoding="utf-8"),
                               open(f.path(f.file, ".jsonl"), "a", encoding="utf-8"))
        level_fh, side_fh = self.open[name]
        level_fh.write(text)
        level_fh.flush()
        side_fh.write(json.dumps(record, sort_keys=True, separators=(",", ":")) + "\n")
        side_fh.flush()
        f.in_file += 1
        f.total += 1
        if f.in_file == LEVELS_PER_FILE:  # the next level starts the next file
            self._close(name)
            f.file, f.in_file = f.file + 1, 0
        if now_ns() - self.synced > self.SYNC_NS:
            for pair in self.open.values():
                for fh in pair:
                    os.fsync(fh.fileno())
            self.synced = now_ns()

    def _close(self, name):
        for fh in self.open.pop(name, ()):
            fh.flush()
            os.fsync(fh.fileno())
            fh.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        for name in list(self.open):
            self._close(name)
