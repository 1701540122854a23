"""``levelforge batch GENERATOR --count N --seed S -o FILE [--jobs J | --scheduler ADDR]``."""
import argparse
import importlib
import json
import os
from concurrent.futures import ProcessPoolExecutor

from ..errors import ConfigError
from .job import run

GENERATORS = {
    "sokoban": ("levelforge.sokoban", "Generator"),
    "symmetry": ("levelforge.symmetry", "Generator"),
}


def make_generator(name, config):
    """The generator object called ``name``, built from a configuration dict."""
    module, cls = GENERATORS[name]
    try:
        return getattr(importlib.import_module(module), cls)(**config)
    except TypeError as exc:
        raise ConfigError(f"bad --config for {name}: {exc}") from exc


def _config(text):
    if text is None:
        return {}
    if text.startswith("@"):
        with open(text[1:], encoding="utf-8") as fh:
            text = fh.read()
    try:
        value = json.loads(text)
    except ValueError as exc:
        raise ConfigError(f"--config is not JSON (or @FILE of JSON): {exc}") from exc
    if not isinstance(value, dict):
        raise ConfigError("--config must be a JSON object of generator arguments")
    return value


def _executor(args):
    if args.scheduler:
        try:
            from dask.distributed import Client
        except ImportError as exc:
            raise ConfigError("--scheduler needs Dask: pip install 'levelforge[dask]'") from exc
        client = Client(args.scheduler)
        return client.get_executor(), client.close
    if args.jobs > 1:
        pool = ProcessPoolExecutor(max_workers=args.jobs)
        return pool, lambda: pool.shutdown(cancel_futures=True)
    return None, lambda: None


def main(argv, prog="levelforge batch"):
    parser = argparse.ArgumentParser(prog=prog, description=(
        "Generate COUNT levels into FILE (JSONL, or XSB for sokoban). Re-running the same "
        "command continues an interrupted file; the same --seed gives the same items on any "
        "machine, with any --jobs or --scheduler."))
    parser.add_argument("generator", choices=sorted(GENERATORS))
    parser.add_argument("--count", type=int, required=True, help="number of items in the file")
    parser.add_argument("--seed", type=int, default=0, help="root seed (default 0)")
    parser.add_argument("--config", help="generator arguments as JSON, or @FILE.json, e.g. "
                                         "'{\"width\": 10, \"height\": 10, \"boxes\": 4}'")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                        help="worker processes on this machine (default: every core)")
    parser.add_argument("--scheduler", help="address of a Dask scheduler, e.g. tcp://host:8786")
    parser.add_argument("--chunk-size", type=int, help="items per task (default: automatic)")
    parser.add_argument("--format", choices=["jsonl", "xsb"], help="default: from FILE's suffix")
    parser.add_argument("--no-timings", action="store_true",
                        help="leave out timing fields (*_ms, timings): the same seed gives a "
                             "byte-identical file")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    parser.add_argument("-o", "--output", required=True, metavar="FILE")
    args = parser.parse_args(argv)
    if args.count < 0:
        raise ConfigError(f"--count must be >= 0, got {args.count}")
    if args.jobs < 1:
        raise ConfigError(f"--jobs must be >= 1, got {args.jobs}")
    if args.format == "xsb" or (args.format is None and args.output.lower().endswith(".xsb")):
        if args.generator != "sokoban":
            raise ConfigError("XSB output is for sokoban; use a .jsonl file")
    generator = make_generator(args.generator, _config(args.config))
    executor, close = _executor(args)
    try:
        summary = run(generator, args.count, args.seed, args.output, executor=executor,
                      chunk_size=args.chunk_size, fmt=args.format,
                      timings=not args.no_timings, show_progress=not args.no_progress)
    finally:
        close()
    return summary.report()
