"""``levelforge batch GENERATOR --count N --seed S -o FILE [--jobs J | --scheduler ADDR]``."""
import importlib
import inspect
import json
import os
from concurrent.futures import ProcessPoolExecutor

from ..cli import ArgumentParser, command_line, positive_int
from ..textfile import read_text
from ..errors import ConfigError
from .job import run
from .pool import die_with_parent

GENERATORS = {
    "sokoban": ("levelforge.sokoban", "Generator"),
    "symmetry": ("levelforge.symmetry", "Generator"),
}
SCHEDULER_TIMEOUT = 5  # seconds to reach a Dask scheduler before giving up


def make_generator(name, config):
    """The generator object called ``name``, built from a configuration dict; an unknown
    key is refused with the list of valid ones.

    >>> make_generator("sokoban", {"wdith": 9})
    Traceback (most recent call last):
    ...
    levelforge.errors.ConfigError: --config: unknown key 'wdith' for sokoban; valid keys: width, height, boxes, pushes, inner_walls, rebuilds, max_pulls, every, node_cap, skip, spread, rules
    """
    module, cls = GENERATORS[name]
    factory = getattr(importlib.import_module(module), cls)
    params = inspect.signature(factory).parameters
    valid = [k for k, p in params.items() if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]
    for key in config:
        if key not in valid:
            raise ConfigError(f"--config: unknown key {key!r} for {name}; valid keys: "
                              f"{', '.join(valid)}")
    missing = [k for k, p in params.items() if p.default is p.empty and k in valid
               and k not in config]
    if missing:
        raise ConfigError(f"--config: {name} needs {', '.join(missing)} (e.g. "
                          f"'{{\"{missing[0]}\": 7}}'); valid keys: {', '.join(valid)}")
    return factory(**config)


def _config(text):
    if text is None:
        return {}
    if text.startswith("@"):
        text = read_text(text[1:], "--config file ", ConfigError)
    try:
        value = json.loads(text)
    except ValueError as exc:
        raise ConfigError(f"--config is not JSON (or @FILE of JSON): {exc}") from None
    if not isinstance(value, dict):
        raise ConfigError("--config must be a JSON object of generator arguments")
    return value


def _executor(args):
    """``(executor, close)`` for ``args.scheduler`` (a Dask cluster) or, with ``args.jobs``
    above 1, a local ``ProcessPoolExecutor`` whose workers die with this process (for
    commands built on :func:`levelforge.batch.generate`); ``(None, no-op)`` otherwise."""
    if args.scheduler:
        return _dask(args.scheduler)
    if args.jobs > 1:
        pool = ProcessPoolExecutor(args.jobs, initializer=die_with_parent,
                                   initargs=(os.getpid(),))
        return pool, lambda: pool.shutdown(cancel_futures=True)
    return None, lambda: None


def _dask(address):
    try:
        from dask.distributed import Client
    except ImportError:
        raise ConfigError("--scheduler needs Dask: pip install 'levelforge[dask]'") from None
    try:
        client = Client(address, timeout=f"{SCHEDULER_TIMEOUT}s")
    except (OSError, ValueError, TypeError) as exc:
        raise ConfigError(f"--scheduler {address}: cannot reach a Dask scheduler there "
                          f"within {SCHEDULER_TIMEOUT} s ({exc})") from None
    return client.get_executor(), client.close


def main(argv, prog="levelforge batch"):
    """Run ``levelforge batch``; returns the exit code."""
    parser = ArgumentParser(prog=prog, description=(
        "Generate COUNT levels into FILE (JSONL, or XSB for sokoban) on every core or a "
        "Dask cluster. Re-running the same command continues an interrupted file; the same "
        "--seed gives the same items on any machine, with any --jobs or --scheduler. "
        "Ctrl-C or SIGTERM stops within about a second and keeps every finished item."))
    parser.add_argument("generator", choices=sorted(GENERATORS))
    parser.add_argument("--count", type=positive_int, required=True,
                        help="number of items in the file")
    parser.add_argument("--seed", type=int, default=0, help="root seed (default 0)")
    parser.add_argument("--config", help="generator arguments as JSON, or @FILE.json, e.g. "
                                         "'{\"width\": 10, \"height\": 10, \"boxes\": 4}'")
    parser.add_argument("--jobs", type=positive_int, default=os.cpu_count() or 1,
                        help="worker processes on this machine (default: every core)")
    parser.add_argument("--scheduler", help="address of a Dask scheduler, e.g. tcp://host:8786 "
                        f"(given up after {SCHEDULER_TIMEOUT} s if unreachable)")
    parser.add_argument("--chunk-size", type=positive_int,
                        help="items per task (default: adapted to the item time)")
    parser.add_argument("--format", choices=["jsonl", "xsb"], help="default: from FILE's suffix")
    parser.add_argument("--no-timings", action="store_true",
                        help="leave out timing fields (*_ms, timings): the same seed gives a "
                             "byte-identical file")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    parser.add_argument("-o", "--output", required=True, metavar="FILE")
    args = parser.parse_args(argv)
    if args.format == "xsb" or (args.format is None and args.output.lower().endswith(".xsb")):
        if args.generator != "sokoban":
            raise ConfigError("XSB output is for sokoban; use a .jsonl file")
    generator = make_generator(args.generator, _config(args.config))
    executor, close = _dask(args.scheduler) if args.scheduler else (None, lambda: None)
    try:
        summary = run(generator, args.count, args.seed, args.output, executor=executor,
                      chunk_size=args.chunk_size, fmt=args.format,
                      timings=not args.no_timings, show_progress=not args.no_progress,
                      jobs=None if executor else args.jobs)
    finally:
        close()
    code = summary.report(command=command_line(prog, argv))
    if args.generator == "sokoban":
        from ..sokoban.cli import report_targets
        return report_targets(summary, generator) or code
    return code
