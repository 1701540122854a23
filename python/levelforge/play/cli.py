"""``levelforge play [FILE]``: serve the games on 127.0.0.1 and open the browser.

Examples::

    levelforge play
    levelforge play levels.jsonl --port 8000 --no-browser
    levelforge play my_scenario.toml
"""
from ..cli import ArgumentParser


def main(argv=None, prog="levelforge play"):
    """Run the play server until Ctrl-C; returns the exit code."""
    parser = ArgumentParser(
        prog=prog, description="Play the games in a web browser: Sokoban, symmetry puzzles, "
                               "HyperMines 3D, the Last Lighthouse, and a gallery of FILE. "
                               "The server listens on 127.0.0.1 only.")
    parser.add_argument("file", nargs="?", help="a level file to open in the gallery (.xsb, or "
                        ".jsonl from `levelforge batch`) or a defense scenario (.toml, .json)")
    parser.add_argument("--port", type=int, default=0, help="port (default: a free one)")
    parser.add_argument("--no-browser", action="store_true", help="do not open a browser")
    parser.add_argument("--workers", type=int, default=2, help="worker processes for engine "
                        "work (default: 2; solves and generators use all but one, moves the "
                        "last)")
    args = parser.parse_args(argv)
    if not 0 <= args.port <= 65535:
        parser.error(f"--port must be in [0, 65535], got {args.port}")
    if not 1 <= args.workers <= 64:
        parser.error(f"--workers must be in [1, 64], got {args.workers}")
    try:
        from .server import serve
    except ImportError as exc:
        parser.exit(2, f"{prog}: error: {exc.name} is missing: install the play extra, "
                       f"pip install 'levelforge[play]'\n")
    try:
        serve(args.file, port=args.port, open_browser=not args.no_browser,
              workers=args.workers)
    except OSError as exc:
        parser.exit(2, f"{prog}: error: cannot listen on port {args.port}: {exc.strerror}\n")
    return 0
