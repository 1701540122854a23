"""``levelforge symmetry generate`` and ``levelforge symmetry show``.

    levelforge symmetry generate --size 5 --count 100 --seed 1 -o puzzles.jsonl
    levelforge symmetry show puzzles.jsonl --index 3 --solution
"""
from ..batch import run
from ..cli import ArgumentParser, command_line, positive_int
from ..errors import ConfigError, LevelFormatError
from ..seeding import check_seed
from ..textfile import read_lines
from .generator import Generator, Strategy
from .puzzle import Puzzle

LEGEND = ("S start  G goal  @ required point  + point  --- | edge  x forbidden edge  "
          "### # answer (with --solution)")


def _edge(a, b):
    return (a, b) if a <= b else (b, a)


def draw_board(board, path=()):
    """Text lines of one board: points joined by edges, forbidden edges shown as ``x``.

    >>> from levelforge.symmetry import Board
    >>> print("\\n".join(draw_board(Board(2, (0, 0), (1, 1), forbidden={((0, 0), (1, 0))}))))
    S x +
    |   |
    +---G
    """
    n = board.size
    used = {_edge(a, b) for a, b in zip(path, path[1:])}

    def point(p):
        if p == board.start:
            return "S"
        if p == board.goal:
            return "G"
        return "@" if p in board.required else "+"

    def link(a, b, plain, on_path, cut):
        e = _edge(a, b)
        if e in board.forbidden:
            return cut
        return on_path if e in used else plain

    lines = []
    for y in range(n):
        row = point((0, y))
        for x in range(1, n):
            row += link((x - 1, y), (x, y), "---", "###", " x ") + point((x, y))
        lines.append(row)
        if y < n - 1:
            lines.append("   ".join(link((x, y), (x, y + 1), "|", "#", "x") for x in range(n)))
    return lines


def draw_puzzle(puzzle, solution=False):
    """Both boards side by side (A left, B right), the answer drawn when ``solution``."""
    path_a = puzzle.solution if solution else ()
    n = puzzle.size
    path_b = [(n - 1 - x, y) for x, y in path_a]
    left = draw_board(puzzle.board_a, path_a)
    right = draw_board(puzzle.board_b, path_b)
    width = 4 * n - 3
    out = ["A".ljust(width) + "      " + "B (mirror of A)"]
    out += [a.ljust(width) + "      " + b for a, b in zip(left, right)]
    return "\n".join(out)


def _read_puzzle(path, index):
    """Puzzle number ``index`` (0-based line) of a JSONL file."""
    count = 0
    for i, line in enumerate(read_lines(path)):
        if i == index:
            try:
                return Puzzle.from_json(line, line=i + 1)
            except LevelFormatError as exc:
                raise exc.in_file(path) from None
        count += 1
    raise ConfigError(f"{path} has no puzzle at index {index} (it holds {count})")


def main(argv=None, prog="levelforge symmetry"):
    """Run the symmetry CLI; returns the exit code."""
    parser = ArgumentParser(prog=prog, description="Mirrored one-stroke line puzzles "
                            "with a proved unique solution.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    gen = sub.add_parser("generate", help="generate puzzles as JSON lines",
                         description="Generate puzzles, one JSON object a line (seed, "
                                     "boards A and B, the answer, difficulty figures and "
                                     "stage timings). Puzzle i uses levelforge.seeding."
                                     "item_seed(seed, i); re-running the same command on "
                                     "an interrupted file continues it.")
    gen.add_argument("--size", type=int, required=True, help="board size N (3-9)")
    gen.add_argument("--count", type=positive_int, default=1,
                     help="number of puzzles (default 1)")
    gen.add_argument("--seed", type=int, default=0, help="root seed (default 0)")
    gen.add_argument("--strategy", type=str.upper, choices=[s.value for s in Strategy],
                     default=None,
                     help="waypoint strategy, any case (default: picked per puzzle from "
                          "its seed)")
    gen.add_argument("-o", "--output", default="-", help="JSONL file, resumed if it exists "
                     "(default stdout)")
    gen.add_argument("--jobs", type=positive_int, default=1,
                     help="worker processes (1); Ctrl-C stops within a second either way")
    gen.add_argument("--no-timings", action="store_true",
                     help="leave out timing fields: the same seed gives a byte-identical file")
    gen.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    show = sub.add_parser("show", help="draw both boards of a puzzle side by side",
                          description="Draw boards A and B of one puzzle of a JSONL file "
                                      "side by side, with a legend; --solution draws the "
                                      "answer too.")
    show.add_argument("file", help="a JSONL file written by generate")
    show.add_argument("--index", type=int, default=0, help="which puzzle (0-based line)")
    show.add_argument("--solution", action="store_true", help="draw the answer path too")
    args = parser.parse_args(argv)

    if args.command == "show":
        if args.index < 0:
            raise ConfigError(f"--index must be >= 0, got {args.index}")
        puzzle = _read_puzzle(args.file, args.index)
        print(f"{puzzle.size}x{puzzle.size}  seed {puzzle.seed}  strategy {puzzle.strategy}")
        print(draw_puzzle(puzzle, args.solution))
        print(LEGEND)
        return 0

    summary = run(Generator(args.size, args.strategy), args.count, check_seed(args.seed),
                  args.output, fmt="jsonl", timings=not args.no_timings,
                  show_progress=not args.no_progress, jobs=args.jobs)
    return summary.report(command=command_line(prog, argv))
