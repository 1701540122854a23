"""The ``levelforge`` command: ``levelforge SYSTEM COMMAND [options]``.

Each system owns its subcommands in ``levelforge.<system>.cli`` (a ``main(argv, prog)``
function); they are imported only when chosen, so ``levelforge sokoban ...`` never pays
for compiling another system's kernels.
"""
import argparse
import importlib
import os
import sys

from .errors import LevelforgeError

SYSTEMS = {
    "sokoban": "box-pushing levels: generate, solve, dataset",
    "symmetry": "mirrored one-stroke line puzzles: generate, show",
    "mines": "3D minesweeper: play, autoplay",
    "defense": "tower-defense core: show, probe",
    "batch": "thousands of levels on every core or a Dask cluster, resumable",
    "play": "the games in a web browser: levelforge play [FILE]",
}


def main(argv=None):
    """Entry point of the console script; returns the process exit code."""
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = argparse.ArgumentParser(
        prog="levelforge",
        description="Generate, solve and verify grid-puzzle levels, each with its proof.",
    )
    parser.add_argument("system", choices=sorted(SYSTEMS), metavar="SYSTEM",
                        help="; ".join(f"{k}: {v}" for k, v in SYSTEMS.items()))
    parser.add_argument("args", nargs=argparse.REMAINDER, help="the system's command and options")
    if not argv or argv[0] in ("-h", "--help"):
        parser.print_help()
        return 0 if argv else 2
    ns = parser.parse_args(argv[:1])
    module = importlib.import_module(f"levelforge.{ns.system}.cli")
    try:
        return module.main(argv[1:], prog=f"levelforge {ns.system}") or 0
    except LevelforgeError as exc:
        print(f"levelforge {ns.system}: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # e.g. piped into `head`: stop quietly, like other tools
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141


if __name__ == "__main__":
    sys.exit(main())
