"""``levelforge sokoban generate|solve``.

Examples::

    levelforge sokoban generate --count 100 --seed 1 --pushes 4-8 -o levels.xsb
    levelforge sokoban solve levels.xsb --level 3
    levelforge sokoban solve levels.xsb --any --optimize --time-limit 10
    levelforge sokoban dataset --format boxoban --count 10000 --seed 7 -o boxoban-like/
"""
import os
import sys

from ..batch import run
from ..cancel import Cancel, call_interruptibly
from ..cli import ArgumentParser, command_line, positive_int as _positive
from ..errors import ConfigError
from ..seeding import check_seed
from .generator import RULES, Generator
from .level import load_xsb
from .solver import DEFAULT_MAX_NODES, Solver


def report_targets(summary, generator, stream=None):
    """Warn, with the count, when levels of this run fell outside the target push range
    (the closest solvable candidate was kept instead). Returns 1 (the exit code) when no
    level of the run reached the range, which then looks unreachable, else 0."""
    share = summary.figures.get("in_target_share")
    if share is None or share >= 1.0 or not summary.items:
        return 0
    outside = round((1.0 - share) * summary.items)
    target = " and ".join(f"{name} {lo}-{hi}" for name, pair in
                          (("push range", generator.pushes),
                           ("effort", getattr(generator, "effort", None)))
                          if pair is not None for lo, hi in [pair])
    print(f"warning: {outside} of {summary.items} level{'s' if summary.items != 1 else ''} "
          f"of this run {'are' if outside != 1 else 'is'} outside the target "
          f"{target} (each is the closest solvable candidate; its comment line says "
          "'outside the target range')"
          + (": the range looks unreachable for this board size and box count; try a "
             "lower --pushes or a larger board" if outside == summary.items else ""),
          file=stream or sys.stderr)
    return 1 if outside == summary.items else 0


def _parser(prog):
    parser = ArgumentParser(prog=prog, description="Sokoban levels: generate, solve, datasets.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    gen = sub.add_parser("generate", help="generate levels by reverse play into an XSB file",
                         description="Generate levels; each level's seed, push-optimal length, "
                                     "solution and milliseconds go into its ';' comment "
                                     "lines. Level i uses levelforge.seeding.item_seed(seed, "
                                     "i); re-running the same command on an interrupted "
                                     "file continues it.")
    gen.add_argument("--count", type=_positive, default=10, help="number of levels (10)")
    gen.add_argument("--seed", type=int, default=0, help="root seed; level i uses "
                     "levelforge.seeding.item_seed(seed, i) (0)")
    gen.add_argument("--width", type=int, default=7, help="width with the outer wall (7)")
    gen.add_argument("--height", type=int, default=7, help="height with the outer wall (7)")
    gen.add_argument("--boxes", type=int, default=2, help="boxes (2)")
    gen.add_argument("--pushes", help="target push-optimal length LO-HI (4-8; none with "
                                      "--effort alone)")
    gen.add_argument("--inner-walls", type=int, default=0, help="random inner walls (0)")
    gen.add_argument("--stop-at-low", action="store_true",
                     help="stop as soon as the length enters the range (always LO pushes) "
                          "instead of aiming at a random length in it")
    gen.add_argument("--method", choices=["pulls", "farthest"], default="pulls",
                     help="pulls: random pulls measured while pulling (default); farthest: "
                          "rooms searched backward over pulls, start states picked by "
                          "their exact push distance (long, hard levels)")
    gen.add_argument("--effort", help="with --method farthest: target solver effort LO-HI "
                                      "(stored states of the push-optimal solve); without "
                                      "--pushes the length is free")
    gen.add_argument("--room", choices=["templates", "carved", "open"],
                     help="with --method farthest: room kind (templates)")
    gen.add_argument("--rules", choices=sorted(RULES),
                     help="a preset of generator rules: 'design' is the source design's "
                          "generator (10 rebuilds, solver cap 20000, a measurement every "
                          "2 pulls, stop at the first length in range)")
    gen.add_argument("-o", "--output", default="-",
                     help="output XSB file, resumed if it exists ('-': stdout)")
    gen.add_argument("--jobs", type=_positive, default=1,
                     help="worker processes (1); Ctrl-C stops within a second either way")
    gen.add_argument("--no-timings", action="store_true",
                     help="leave out the 'ms' comment lines: the same seed gives a "
                          "byte-identical file")
    gen.add_argument("--no-progress", action="store_true", help="no progress bar")
    sol = sub.add_parser("solve", help="solve the levels of an XSB file push-optimally",
                         description="Print status, pushes, moves, milliseconds and the LURD "
                                     "solution of each level (push-optimal unless --any). "
                                     "Exit code 1 if any level is not solved.")
    sol.add_argument("file", help="XSB file (a collection)")
    sol.add_argument("--level", type=_positive, help="solve only level K (1-based)")
    sol.add_argument("--max-nodes", type=_positive, default=DEFAULT_MAX_NODES,
                     help=f"cap on stored search states ({DEFAULT_MAX_NODES})")
    sol.add_argument("--time-limit", type=float, default=None,
                     help="seconds per level (no limit); Ctrl-C stops the running search "
                          "at once and prints its level as 'cancelled'")
    sol.add_argument("--any", action="store_true",
                     help="any solution: found much faster on big levels, marked "
                          "'not proved optimal'")
    sol.add_argument("--optimize", action="store_true",
                     help="with --any: shorten each solution (fewer pushes, then moves) in "
                          "the time left, or without --time-limit until no window of it "
                          "improves")
    _dataset_parser(sub)
    return parser


def _dataset_parser(sub):
    ds = sub.add_parser("dataset", help="a dataset in Boxoban's format, each level with "
                                         "its proof in a JSONL sidecar",
                        description="Write COUNT levels into DIR: files of 1,000 levels in "
                                    "Boxoban's text format (or XSB), each with a JSONL "
                                    "sidecar holding every level's item, seed, optimal "
                                    "pushes, solution and solver effort. Re-running the "
                                    "same command continues an interrupted DIR (or extends "
                                    "it to a larger --count).")
    ds.add_argument("--format", choices=["boxoban", "xsb"], default="boxoban",
                    help="level files: boxoban (000.txt, ...) or xsb (000.xsb, ...)")
    ds.add_argument("--count", type=_positive, required=True, help="levels in the dataset")
    ds.add_argument("--seed", type=int, default=0, help="root seed; item i uses "
                    "levelforge.seeding.item_seed(seed, i) (0)")
    ds.add_argument("--config", help="generator arguments as JSON or @FILE.json (default: "
                                     "10x10, 4 boxes, 15-30 pushes, Boxoban's size)")
    ds.add_argument("--split-by", choices=["pushes", "nodes"], default="pushes",
                    help="what --splits ranges measure: optimal pushes or solver nodes")
    ds.add_argument("--splits", help="difficulty splits NAME=LO-HI,..., e.g. "
                                     "'easy=-19,medium=20-29,hard=30-'; each goes into its "
                                     "own subdirectory, levels outside every range are "
                                     "skipped; 'effort': easy/medium/hard/harder by solver "
                                     "nodes at measured quartiles (default config then: "
                                     "10x10, 4 boxes, 15-50 pushes, method farthest)")
    ds.add_argument("--jobs", type=_positive, default=os.cpu_count() or 1,
                    help="worker processes on this machine (default: every core)")
    ds.add_argument("--scheduler", help="address of a Dask scheduler, e.g. tcp://host:8786")
    ds.add_argument("--chunk-size", type=_positive, help="items per task (default: automatic)")
    ds.add_argument("--no-timings", action="store_true",
                    help="leave timing fields out of the sidecars (byte-identical reruns)")
    ds.add_argument("--no-progress", action="store_true", help="no progress bar")
    ds.add_argument("-o", "--output", required=True, metavar="DIR")


DATASET_CONFIG = {"width": 10, "height": 10, "boxes": 4, "pushes": [15, 30]}
"""The dataset command's default generator configuration (Boxoban's room size and boxes)."""


def _dataset(args):
    from ..batch.executors import open_executor, parse_config
    from .dataset import build

    from .dataset import EFFORT_SPLITS_CONFIG

    default = EFFORT_SPLITS_CONFIG if args.splits == "effort" else DATASET_CONFIG
    config = parse_config(args.config) if args.config else dict(default)
    with open_executor(args.jobs, args.scheduler) as executor:
        summary = build(args.output, args.count, check_seed(args.seed), config, args.format,
                        args.split_by, args.splits, executor=executor,
                        chunk_size=args.chunk_size, timings=not args.no_timings,
                        show_progress=not args.no_progress)
    return summary.report()


def _generate(args, command):
    extra = {k: v for k, v in (("effort", args.effort), ("room", args.room)) if v is not None}
    if args.method != "pulls":
        extra["method"] = args.method
    pushes = args.pushes or (None if args.effort and args.method == "farthest" else "4-8")
    gen = Generator(width=args.width, height=args.height, boxes=args.boxes,
                    pushes=pushes, inner_walls=args.inner_walls,
                    spread=False if args.stop_at_low else None, rules=args.rules, **extra)
    summary = run(gen, args.count, check_seed(args.seed), args.output, fmt="xsb",
                  timings=not args.no_timings, show_progress=not args.no_progress,
                  jobs=args.jobs)
    return summary.report(command=command) or report_targets(summary, gen)


def _solve(args):
    if args.optimize and not args.any:
        raise ConfigError("--optimize shortens the solutions of --any: a push-optimal "
                          "solution has the fewest pushes already")
    levels = load_xsb(args.file)
    if args.level is not None:
        if args.level > len(levels):
            raise ConfigError(f"--level {args.level}: {args.file} holds {len(levels)} "
                              f"level{'s' if len(levels) != 1 else ''}")
        chosen = [(args.level, levels[args.level - 1])]
    else:
        chosen = list(enumerate(levels, 1))
    solver = Solver(max_nodes=args.max_nodes)
    unsolved = 0
    token = Cancel()  # Ctrl-C cancels the running search, which then says so
    for k, level in chosen:
        r = call_interruptibly(lambda: solver.solve(level, time_limit=args.time_limit,
                                                    optimal=not args.any, cancel=token,
                                                    optimize=args.optimize),
                               token)
        name = f"level {k}" + (f" ({level.title})" if level.title else "")
        kind = " (not proved optimal)" if r.solved and not r.optimal else ""
        kind += " (best solution found, not proved optimal)" \
            if not r.solved and r.solution is not None else ""
        kind += " (Ctrl-C)" if r.status == "cancelled" else ""
        if r.limit_by == "time":  # which bound stopped it
            kind += " (time limit)"
        elif r.limit_by == "memory":
            kind += " (memory: the machine would not hold more states)"
        elif r.limit_by is not None:
            kind += f" (state cap {args.max_nodes:,}: raise --max-nodes)"
        bound = "" if r.solved or r.lower_bound is None else f" lower_bound={r.lower_bound}"
        print(f"{name}: {r.status}{kind} pushes={r.pushes} moves={r.moves} nodes={r.nodes} "
              f"ms={r.elapsed_ms:.1f}{bound}", flush=True)
        if r.solution is not None:
            print(f"  {r.solution}")
        if not r.solved:
            unsolved += 1
        if token.cancelled:
            raise KeyboardInterrupt
    return 1 if unsolved else 0


def main(argv=None, prog="levelforge sokoban"):
    """Run a sokoban subcommand; returns the exit code."""
    args = _parser(prog).parse_args(argv)
    if args.command == "generate":
        return _generate(args, command_line(prog, argv))
    return {"solve": _solve, "dataset": _dataset}[args.command](args)
