"""``levelforge mines play`` (a text game) and ``levelforge mines autoplay`` (statistics).

``play`` reads one command a line from standard input, so it can be scripted::

    printf 'open 3 3 0\\nhint\\nquit\\n' | levelforge mines play --level normal --seed 1
"""
import json
import sys

import numpy as np

from levelforge.cancel import Cancel, call_interruptibly
from levelforge.cli import ArgumentParser, positive_int
from levelforge.errors import Cancelled, ConfigError, InvalidMoveError
from levelforge.progress import progress
from levelforge.seeding import check_seed, item_seed
from levelforge.warmup import CompileNotice

from .assistant import Assistant, autoplay
from .game import Game, Level
from .noguess import check_no_guess
from .observation import CLOSED, FLAGGED, OPEN

LEGEND = ("# hidden (not selectable yet), + hidden and selectable, F flag, . open 0, "
          "1-9 a-q open with 1-26 mines around, * mine, X the mine that exploded, "
          "f a wrong flag (the last three once the game is over)")

HELP = """commands (cells are x y z; z is the layer, 0 on top):
  open X Y Z   (o)   open a selectable cell
  flag X Y Z   (f)   put or remove a flag
  chord X Y Z  (c)   open the other neighbours of a number whose flags are complete
  hint         (h)   ask the assistant for certain moves (hint exact, hint complete)
  rate               the board's figures: 3BV, openings, steps beyond single numbers
  show [Z]     (s)   print every layer, or layer Z
  code               print the share code of this problem
  help         (?)   this text
  quit         (q)   leave
symbols: """ + LEGEND

_DIGITS = "0123456789abcdefghijklmnopq"


def _symbol(state, number, selectable, mine, exploded):
    if exploded:
        return "X"
    if state == OPEN:
        return "." if number == 0 else _DIGITS[number]
    if state == FLAGGED:
        return "F" if mine is None or mine else "f"
    if mine:
        return "*"
    return "+" if selectable else "#"


def render_layer(obs, z, minefield=None, exploded=None):
    """The text view of layer ``z``: ``#`` hidden, ``+`` selectable, ``F`` flag,
    ``.`` zero, digits (``a``..``q`` for 10..26), ``*`` mines and ``X`` the exploded
    cell once the game is over (``f`` marks a wrong flag).

    >>> from levelforge.mines import Game
    >>> print(render_layer(Game("3x2x1-0").observe(), 0))
    z=0   0 1 2
       0  + + +
       1  + + +
    """
    w = obs.width
    lines = [f"z={z:<3} " + " ".join(f"{x % 10}" for x in range(w))]
    for y in range(obs.height):
        row = []
        for x in range(w):
            mine = None if minefield is None else bool(minefield[z, y, x])
            row.append(_symbol(obs.state[z, y, x], int(obs.numbers[z, y, x]),
                               obs.selectable[z, y, x], mine, exploded == (x, y, z)))
        lines.append(f"{y:>4}  " + " ".join(row))
    return "\n".join(lines)


def _status_line(game):
    obs = game.observe()
    return (f"[{game.level.name}] {game.status}: mines left {obs.remaining_mines}, "
            f"open {game.opened}/{game.level.cells - game.level.mines}, "
            f"time {game.elapsed_ms / 1000:.0f} s")


def _parse_cell(args, game):
    if len(args) == 2 and game.level.depth == 1:
        args = args + ["0"]
    if len(args) != 3:
        raise InvalidMoveError("a cell is three integers: X Y Z")
    try:
        return tuple(int(a) for a in args)
    except ValueError:
        raise InvalidMoveError(f"a cell is three integers, got {' '.join(args)!r}") from None


def _show(game, out, z=None):
    obs = game.observe()
    over = game.status in ("won", "lost")
    field = game.minefield() if over else None
    layers = range(obs.depth) if z is None else [z]
    for layer in layers:
        print(render_layer(obs, layer, field, game.exploded), file=out)
        print(file=out)


def _rating_line(game):
    r = game.rating()
    how = ("certain moves win from the first open" if r.solved
           else "certain moves alone do not win")
    return (f"board: 3BV {r.bbbv}, openings {r.openings}; {how} ({r.subset_steps} subset, "
            f"{r.enumeration_steps} counting step(s))")


def play(game, lines, out, assistant=None):
    """Run the text game on an iterable of command ``lines``; returns the final status."""
    assistant = assistant or Assistant()
    complete = Assistant(complete=True)
    kind = {True: ", no guessing needed", "easy": ", no guessing needed (easy)"}.get(
        game.no_guess, "")
    print(f"3D minesweeper {game.level.width}x{game.level.height}x{game.level.depth}, "
          f"{game.level.mines} mines, seed {game.seed}{kind}. Type 'help' for commands.",
          file=out)
    print(LEGEND, file=out)
    _show(game, out, 0)
    for raw in lines:
        words = raw.split()
        if not words:
            continue
        cmd, args = words[0].lower(), words[1:]
        try:
            if cmd in ("q", "quit", "exit"):
                break
            elif cmd in ("?", "help"):
                print(HELP, file=out)
            elif cmd in ("o", "open", "f", "flag", "c", "chord"):
                cell = _parse_cell(args, game)
                if cmd.startswith("o"):
                    n = game.open(cell)
                    print(f"opened {n} cell(s)" if game.status != "lost"
                          else f"BOOM: {cell} was a mine", file=out)
                elif cmd.startswith("f"):
                    print(("flagged " if game.flag(cell) else "unflagged ") + str(cell), file=out)
                else:
                    print(f"chord opened {game.chord(cell)} cell(s)" if game.status != "lost"
                          else "BOOM: a flag was wrong", file=out)
                _show(game, out, None if game.status in ("won", "lost") else cell[2])
                print(_status_line(game), file=out)
                if game.status in ("won", "lost"):
                    print("you win!" if game.status == "won" else "game over", file=out)
                    print(_rating_line(game), file=out)
                    break
            elif cmd == "rate":
                print(_rating_line(game), file=out)
            elif cmd in ("h", "hint"):
                helper = complete if "complete" in args else assistant
                a = helper.analyze(game.observe(), exact="exact" in args)
                print(f"assistant: {a.status}; {len(a.safe)} safe, {len(a.mines)} mine(s) proved,"
                      f" {len(a.moves)} playable now ({a.components} component(s), "
                      f"{a.skipped} over a cap, {a.elapsed_ms:.2f} ms)", file=out)
                for m in a.moves[:10]:
                    print(f"  {m.action} {m.cell[0]} {m.cell[1]} {m.cell[2]}", file=out)
                if a.probabilities is not None and a.status == "stuck":
                    p = np.where(np.isnan(a.probabilities), 2.0, a.probabilities)
                    sel = game.observe().selectable
                    p = np.where(sel & (game.observe().state == CLOSED), p, 2.0)
                    z, y, x = np.unravel_index(int(np.argmin(p)), p.shape)
                    if p[z, y, x] <= 1.0:
                        print(f"  safest guess {x} {y} {z}: mine probability {p[z, y, x]:.3f}",
                              file=out)
            elif cmd in ("s", "show"):
                z = int(args[0]) if args else None
                if z is not None and not 0 <= z < game.level.depth:
                    raise InvalidMoveError(f"no layer {z}")
                _show(game, out, z)
                print(_status_line(game), file=out)
            elif cmd == "code":
                print(game.share_code(), file=out)
            else:
                print(f"unknown command {cmd!r}; type 'help'", file=out)
        except (InvalidMoveError, ValueError) as exc:
            print(f"illegal: {exc}", file=out)
    return game.status


def _prompted():
    """Lines typed at a terminal, with a prompt."""
    while True:
        try:
            yield input("> ")
        except EOFError:
            return


def _cell_arg(text):
    try:
        cell = tuple(int(v) for v in text.split(","))
    except ValueError:
        raise ConfigError(f"--start must be x,y,z integers, got {text!r}") from None
    if len(cell) != 3:
        raise ConfigError(f"--start must be x,y,z, got {text!r}")
    return cell


def run_autoplay(level, games, seed, exact=False, start=None, assistant=None, show_progress=True,
                 no_guess=False, guess=None):
    """Autoplay ``games`` games (seeds ``item_seed(seed, i)``); returns a summary dict.

    The kernels the run needs are compiled (or loaded from Numba's cache) first, on a
    tiny board, under a :class:`~levelforge.warmup.CompileNotice`: a first run says so
    before the progress bar starts, and the figures leave the compile out.
    """
    assistant = assistant or Assistant()
    with CompileNotice(enabled=show_progress):
        autoplay(Game("5x5x1-3", 0, no_guess), assistant, exact=exact, guess=guess)
    counts = {"won": 0, "stuck": 0, "contradiction": 0, "lost": 0}
    moves = decisions = guesses = 0
    decision_ms = 0.0
    token = Cancel()  # Ctrl-C cancels a no-guess placement at once
    with progress(games, "autoplay", "game", show_progress) as bar:
        for i in range(games):
            game = Game(level, item_seed(seed, i), no_guess, cancel=token)
            try:
                r = call_interruptibly(lambda: autoplay(game, assistant, start=start,
                                                        exact=exact, guess=guess), token)
            except Cancelled:
                raise KeyboardInterrupt from None
            if token.cancelled:
                raise KeyboardInterrupt
            counts[r.status] += 1
            moves += r.opens + r.flags
            decisions += r.decisions
            guesses += r.guesses
            decision_ms += r.decision_ms
            bar.update(1)
    return {
        "level": Level.parse(level).name, "games": games, "seed": seed, "exact": exact,
        "no_guess": no_guess, "guess": guess, "assistant": assistant.to_dict(),
        **counts, "win_rate": counts["won"] / games, "stuck_rate": counts["stuck"] / games,
        "moves_per_game": moves / games, "decisions_per_game": decisions / games,
        "guesses_per_game": guesses / games, "ms_per_decision": decision_ms / max(decisions, 1),
    }


def main(argv=None, prog="levelforge mines"):
    """Entry point of ``levelforge mines``; returns the exit code.

    >>> main(["autoplay", "--level", "easy", "--games", "2", "--quiet"])  # doctest: +ELLIPSIS
    | level | games | win rate | stuck rate | moves/game | guesses/game | ms/decision |
    ...
    0
    """
    parser = ArgumentParser(prog=prog, description="3D minesweeper and its assistant.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    p = sub.add_parser("play", help="a text game in the terminal (commands on stdin)",
                       description="Play 3D minesweeper in the terminal: one command a line "
                                   "(open, flag, chord, hint, rate, show, code; 'help' lists "
                                   "them), from the keyboard or a script on stdin. Only "
                                   "surface cells can be chosen; the first open is a 0.")
    p.add_argument("--level", default="normal", help="easy, normal, hard or WxHxD-M")
    p.add_argument("--seed", type=int, default=0,
                   help="with the level and the first cell, fixes the mines")
    p.add_argument("--share", help="a share code (seed=..&level=..&start=x,y,z) to replay")
    p.add_argument("--no-guess", nargs="?", const="1", default="0", metavar="easy",
                   help="a board certain moves win from the first open (easy: single "
                        "numbers suffice)")
    a = sub.add_parser("autoplay", help="play certain moves only, over many games",
                       description="Let the assistant play many games (certain moves only, "
                                   "or with --guess best) and print the win and stuck rates, "
                                   "moves and guesses per game and milliseconds per "
                                   "decision.")
    a.add_argument("--level", default="normal", help="easy, normal, hard or WxHxD-M")
    a.add_argument("--games", type=positive_int, default=100,
                   help="number of games (default 100)")
    a.add_argument("--seed", type=int, default=0,
                   help="root seed; game i uses levelforge.seeding.item_seed(seed, i)")
    a.add_argument("--start", help="first cell x,y,z (default: middle of the top face)")
    a.add_argument("--exact", action="store_true", help="exact mode (global mine count)")
    a.add_argument("--complete", action="store_true",
                   help="no cell cap: prove every certain cell (state budget 1,000,000)")
    a.add_argument("--max-cells", type=int, default=None,
                   help="cells (exact mode: groups) per counted component (default 22)")
    a.add_argument("--max-nodes", type=int, default=None,
                   help="counting states per component (default 200,000)")
    a.add_argument("--no-guess", nargs="?", const="1", default="0", metavar="easy",
                   help="no-guess boards (easy: single numbers suffice)")
    a.add_argument("--guess", choices=["best", "safest", "lookahead", "endgame"],
                   help="when stuck, guess (for solver benchmarks): best (look-ahead and "
                        "an exact endgame), safest (lowest mine probability), or one idea")
    a.add_argument("--json", action="store_true", help="print the summary as JSON")
    a.add_argument("--quiet", action="store_true", help="no progress bar")
    ns = parser.parse_args(argv)
    no_guess = check_no_guess(ns.no_guess)
    if ns.command == "play":
        game = Game.from_share_code(ns.share) if ns.share is not None \
            else Game(ns.level, check_seed(ns.seed), no_guess)
        play(game, _prompted() if sys.stdin.isatty() else sys.stdin, sys.stdout)
        return 0
    start = _cell_arg(ns.start) if ns.start else None
    summary = run_autoplay(ns.level, ns.games, check_seed(ns.seed), ns.exact, start,
                           Assistant(ns.max_cells, ns.max_nodes, ns.complete), not ns.quiet,
                           no_guess, ns.guess)
    if ns.json:
        print(json.dumps(summary))
    else:
        print("| level | games | win rate | stuck rate | moves/game | guesses/game "
              "| ms/decision |")
        print("|---|---|---|---|---|---|---|")
        print(f"| {summary['level']} | {summary['games']} | {summary['win_rate']:.1%} | "
              f"{summary['stuck_rate']:.1%} | {summary['moves_per_game']:.1f} | "
              f"{summary['guesses_per_game']:.2f} | {summary['ms_per_decision']:.3f} |")
    return 0
