"""``levelforge batch GENERATOR --count N --seed S -o FILE [--jobs J | --scheduler ADDR]``."""
import importlib
import inspect
import os

from ..cli import ArgumentParser, command_line, positive_int
from ..errors import ConfigError
from .executors import SCHEDULER_TIMEOUT, open_executor, parse_config
from .job import run

GENERATORS = {
    "sokoban": ("levelforge.sokoban", "Generator"),
    "symmetry": ("levelforge.symmetry", "Generator"),
}


def make_generator(name, config):
    """The generator object called ``name``, built from a configuration dict; an unknown
    key is refused with the list of valid ones.

    >>> make_generator("sokoban", {"wdith": 9})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    levelforge.errors.ConfigError: --config: unknown key 'wdith' for sokoban; valid keys: width, height, boxes, pushes, inner_walls, ..., method, effort, room
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
    generator = make_generator(args.generator, parse_config(args.config))
    with open_executor(scheduler=args.scheduler) as executor:
        summary = run(generator, args.count, args.seed, args.output, executor=executor,
                      chunk_size=args.chunk_size, fmt=args.format,
                      timings=not args.no_timings, show_progress=not args.no_progress,
                      jobs=None if executor else args.jobs)
    code = summary.report(command=command_line(prog, argv))
    if args.generator == "sokoban":
        from ..sokoban.cli import report_targets
        return report_targets(summary, generator) or code
    return code
