"""A worker process of the play server (``python -m levelforge.play.worker FD PARENT
[FILE]``): it runs engine calls one at a time and answers with JSON bytes.

The server starts it with one end of a socket pair (``FD``) and its own process id; the
worker dies with the server (:func:`levelforge.batch.pool.die_with_parent`), ignores
Ctrl-C (the server decides when it stops: a Numba kernel cannot see a signal, so it is
killed) and leaves when its pipe closes. Messages, all pickled tuples:

- server to worker: ``("warm", system)`` compiles or loads a system's kernels (one call
  of each of its pages' endpoints, :data:`WARM`); ``("call", path, call, body, carried,
  time_limit, cancel)`` runs the handler of endpoint ``path`` with the kept game
  ``carried`` (``(kind, id, game)`` or None), the seconds it has (``state.time_limit``:
  the handlers pass it to the library's generators and solves) and the request's
  :class:`~levelforge.Cancel` token or None (``state.cancel``, set when the client hangs
  up); ``None`` ends the worker.
- worker to server: ``("ready",)`` once imported; ``("compile", active, count)`` when
  Numba starts or ends compiling (``count`` kernels so far: the server pauses the
  request's deadline meanwhile and shows the progress); ``("warmed", system)``;
  ``("answer", status, body, back)`` with the games to keep (``(kind, id, game)``).
"""
import json
import secrets
import signal
import sys
from multiprocessing.connection import Connection
from types import SimpleNamespace

from ..errors import ConfigError, LevelforgeError
from ..processes import die_with_parent
from . import defense, mines, sokoban, sokoban_edit, symmetry
from .api import endpoints
from .files import open_file
from .query import Query
from .sessions import MISSING


class Carried:
    """The kept games of one call: the one it names (if the server has it) and those
    the handler adds; what :class:`~levelforge.play.sessions.Sessions` offers a handler."""

    def __init__(self, key=None, game=None):
        self.key, self.game = key, game
        self.added = {}

    def add(self, game):
        key = secrets.token_urlsafe(12)
        self.added[key] = game
        return key

    def get(self, key):
        if key in self.added:
            return self.added[key]
        if self.game is None or key != self.key:
            raise ConfigError(MISSING)
        return self.game


def _warm_sokoban():
    sokoban.level_generated(Query({"seed": "0"}, ("seed",), "warm-up"))
    sokoban.move_state("#####\n#@$.#\n#####", "", "r")  # a win: the optimal solve
    sokoban_edit.check_level(b'{"xsb": "#####\\n#@$.#\\n#####"}')  # the editor's solver


def _warm_mines():
    for no_guess in ("0", "1"):  # the assistant, the complete one and no-guess boards
        games = Carried()
        game = mines.new_game(games, Query(
            {"level": "easy", "seed": "0", "start": "2,2,0", "no_guess": no_guess},
            ("level", "seed", "start", "no_guess"), "warm-up"))["game"]
        for exact in ("0", "1"):
            mines.hint(games, Query({"game": game, "exact": exact}, ("game", "exact"),
                                    "warm-up"))


def _warm_defense():
    games = Carried()
    game = defense.new_game(games, None, Query({"seed": "0"}, ("seed",), "warm-up"))
    defense.fight(games, json.dumps({"game": game["game"], "step": 50, "frames": 100}))


def _warm_symmetry():
    puzzle = symmetry.puzzle_generated(Query(
        {"size": "5", "seed": "0", "solution": "1"}, ("size", "seed", "solution"), "warm-up"))
    symmetry.check(json.dumps({"size": 5, "board_a": puzzle["board_a"],
                               "board_b": puzzle["board_b"], "path": puzzle["solution"]}))


WARM = {"sokoban": _warm_sokoban, "mines": _warm_mines, "defense": _warm_defense,
        "symmetry": _warm_symmetry}
"""What preparing a system runs: a call of each of its pages' engine endpoints, so that
the kernels they use are compiled (a machine's first run) or loaded from the cache. The
editors' endpoints run the games' kernels (the symmetry editor's count and finishing
step are the generator's, the mines editor's check is the no-guess rating, the
lighthouse editor's layout and balance are the fights'); only the Sokoban editor's check
keeps a solver of its own (sized for the largest board), warmed here too."""


def encode(status, data):
    """``(status, JSON bytes)``; ASCII only, so that text the user sent (a lone
    surrogate in a title, say) always encodes."""
    return status, json.dumps(data, ensure_ascii=True, allow_nan=False,
                              separators=(",", ":")).encode()


def answer(endpoint, call, body, state):
    """Run ``endpoint``'s handler: ``(status, JSON bytes)``. Bad input and failed work
    (any :class:`~levelforge.LevelforgeError`) answer 400 with the API's message; only a
    bug in levelforge answers 500, naming the failing request and not Python internals."""
    try:
        return encode(200, endpoint.handler(call, body, state))
    except LevelforgeError as exc:
        return encode(400, {"error": str(exc)})
    except RecursionError:
        return encode(400, {"error": f"{call.path}: the input is nested too deeply"})
    except Exception as exc:  # noqa: BLE001 - a bug, answered as one line
        return encode(500, {"error": f"{call.path}: levelforge failed on this request "
                                     f"({type(exc).__name__}); please report it"})


class _Compiles:
    """Numba compile events as messages to the server: when compiling starts and ends,
    and how many kernels were compiled so far."""

    def __init__(self, conn):
        from numba.core import event

        self.conn, self.depth, self.count = conn, 0, 0
        outer = self

        class Listener(event.Listener):
            def on_start(self, ev):
                outer.depth += 1
                outer.count += 1
                outer.conn.send(("compile", True, outer.count))

            def on_end(self, ev):
                outer.depth -= 1
                if outer.depth == 0:
                    outer.conn.send(("compile", False, outer.count))

        event.register("numba:compile", Listener())


def serve(conn, file=None):
    """The worker's loop over messages from ``conn`` (see the module docstring)."""
    routes = {e.path: e for e in endpoints()}
    opened = None if file is None else open_file(file)
    _Compiles(conn)
    conn.send(("ready",))
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):
            return
        if message is None:
            return
        if message[0] == "warm":
            try:
                WARM[message[1]]()
            except Exception as exc:  # noqa: BLE001 - the calls that need it say it again
                print(f"levelforge play: preparing {message[1]} failed: {exc}",
                      file=sys.stderr, flush=True)
            conn.send(("warmed", message[1]))
            continue
        _, path, call, body, carried, time_limit, cancel = message
        kind, key, game = carried if carried is not None else (None, None, None)
        games = {name: Carried(key, game) if name == kind else Carried()
                 for name in ("mines", "defense")}
        state = SimpleNamespace(opened=opened, time_limit=time_limit, cancel=cancel, **games)
        status, data = answer(routes[path], call, body, state)
        back = []
        if status == 200:
            back = [(name, k, g) for name, held in games.items() for k, g in held.added.items()]
            if kind is not None and game is not None:
                back.append((kind, key, game))
        conn.send(("answer", status, data, back))


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    die_with_parent(int(argv[1]))
    conn = Connection(int(argv[0]))
    try:
        serve(conn, argv[2] if len(argv) > 2 else None)
    except (BrokenPipeError, ConnectionResetError):
        pass  # the server is gone


if __name__ == "__main__":
    main()
