"""The ``levelforge`` command: ``levelforge SYSTEM COMMAND [options]``.

Each system owns its subcommands in ``levelforge.<system>.cli`` (a ``main(argv, prog)``
function); they are imported only when chosen, so ``levelforge sokoban ...`` never pays
for compiling another system's kernels.

Exit codes: 0 done; 1 the work failed (a level not solved, an item or a worker failed);
2 bad input (one line on stderr says what and where); 130 Ctrl-C; 143 SIGTERM.
"""
import argparse
import importlib
import os
import shlex
import sys

from . import __version__
from .errors import ConfigError, LevelforgeError
from .compile_notice import CompileNotice

SYSTEMS = {
    "sokoban": "box-pushing levels: generate, solve, dataset",
    "symmetry": "mirrored one-stroke line puzzles: generate, show",
    "mines": "3D minesweeper: play, autoplay",
    "defense": "tower-defense core: show, probe",
    "batch": "thousands of levels on every core or a Dask cluster, resumable",
    "play": "the games in a web browser: levelforge play [FILE]",
    "warm-up": "compile the Numba kernels now (first run only), so later commands start at once",
}
MODULES = {"warm-up": "levelforge.warmup"}


class ArgumentParser(argparse.ArgumentParser):
    """argparse, with its errors as one line (a ConfigError, exit code 2) instead of the
    usage text and a SystemExit; ``--help`` still prints the usage."""

    def error(self, message):
        raise ConfigError(f"{message} (see {self.prog} --help)")


def positive_int(text):
    """An argparse type: an integer >= 1 (``--count 0`` is refused with one line)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def command_line(prog, argv):
    """The command line that ran (``prog`` plus ``argv``), quoted for a shell: what to
    repeat to resume.

    >>> command_line("levelforge batch", ["symmetry", "--config", '{"size": 7}'])
    'levelforge batch symmetry --config \\'{"size": 7}\\''
    """
    return shlex.join([*prog.split(), *argv])


def _failure(exc, system, argv):
    """The one line printed for a LevelforgeError, and the exit code."""
    line = f"levelforge {system}: error: {exc}"
    kept = getattr(exc, "kept", None)
    if kept is not None:
        path, total = kept
        line += f"; {path} holds {total} whole item{'s' if total != 1 else ''}"
        if not hasattr(exc, "seed"):  # not an item that fails the same way every time
            line += f"; resume with: {command_line('levelforge ' + system, argv)}"
    return line, 2 if isinstance(exc, ValueError) else 1


def main(argv=None):
    """Entry point of the console script; returns the process exit code."""
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = argparse.ArgumentParser(
        prog="levelforge",
        description="Generate, solve and verify grid-puzzle levels, each with its proof.",
        epilog="'levelforge SYSTEM --help' describes a system's commands.")
    parser.add_argument("--version", action="version", version=f"levelforge {__version__}")
    parser.add_argument("system", choices=list(SYSTEMS), metavar="SYSTEM",
                        help="; ".join(f"{k}: {v}" for k, v in SYSTEMS.items()))
    parser.add_argument("args", nargs=argparse.REMAINDER, help="the system's command and options")
    if not argv or argv[0] in ("-h", "--help"):
        parser.print_help()
        return 0 if argv else 2
    ns = parser.parse_args(argv[:1])
    module = importlib.import_module(MODULES.get(ns.system, f"levelforge.{ns.system}.cli"))
    try:
        # the first run on a machine compiles: say so, never look hung (warm-up speaks itself)
        with CompileNotice(enabled=ns.system != "warm-up"):
            return module.main(argv[1:], prog=f"levelforge {ns.system}") or 0
    except LevelforgeError as exc:
        line, code = _failure(exc, ns.system, argv[1:])
        print(line, file=sys.stderr)
        return code
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # e.g. piped into `head`: stop quietly, like other tools
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141


if __name__ == "__main__":
    sys.exit(main())
