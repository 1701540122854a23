"""Sokoban in the browser: the level sources and the moves, as JSON endpoints.

The server is stateless: a level comes from its source (generator settings and seed,
campaign index, Microban number, the opened file, pasted XSB), the browser keeps the
level's XSB and the LURD string played so far, and every action is replayed here by
:func:`levelforge.sokoban.replay`. The rules (what walks, what pushes, what is blocked) are
the API's; the browser only draws the position it gets back.

>>> from levelforge.sokoban import Level
>>> xsb = Level.from_xsb('######\\n#@$ .#\\n######').to_xsb()
>>> state = move_state(xsb, "", "r")
>>> state["moves"], state["pushes"], state["solved"]
('R', 1, False)
>>> move_state(xsb, "R", "r")["solved"], move_state(xsb, "RR", "undo")["moves"]
(True, 'R')
"""
from functools import lru_cache

from ..cancel import CANCELLED, LIMIT
from ..errors import ConfigError, InvalidMoveError
from ..sokoban import campaign, collections, generate, read_xsb, replay, solve
from ..sokoban.level import _is_board_line
from .query import REQUIRED, Query, parse_body, parse_int

OPTIMAL_TIME_LIMIT = 10.0
"""Seconds the solver gets to find the optimum of a level solved by the player."""
SOLVE_MAX_NODES = 8_000_000
"""Most states a solve of these pages may store, so that on most levels the time limit
stops it first (a worker then peaks at 326 MB solving Microban 153 and 1.5 GB on a
64x64 board with 128 boxes: docs/guide/play-server.md);
above ``solver.RESTART_AT``, so a long solve finds a solution to beat and keeps it when
it stops (``SolveResult``). The solver's default cap (1M states) stopped a 30 s solve
of Microban 144 after 4 s, before the backward search in push-optimal solves proved it
in about 2 s (2026-12-07)."""
MAX_TIME_LIMIT = 60.0
"""Largest time limit the Solve button may ask for, in seconds."""
MAX_MOVES = 100_000
STOPPED = "the server stopped the solver at its deadline"
"""Why a solve answers ``limit`` when the server's deadline came before its own limit."""
_STEPS = {"u": (0, -1), "l": (-1, 0), "r": (1, 0), "d": (0, 1)}
_GENERATE = ("seed", "width", "height", "boxes", "inner_walls", "pushes")


def _level_from_xsb(text, where, number=1):
    """Level ``number`` (1-based) of XSB text: only that level is parsed (a pasted
    collection may hold thousands), with the line numbers of the whole text in errors."""
    if not isinstance(text, str) or not text.strip():
        raise ConfigError(f"{where}: no XSB text given")
    lines = text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n").split("\n")
    found, notes, i = 0, 0, 0  # levels seen, first line after the previous board
    while i < len(lines):
        if not _is_board_line(lines[i]):
            i += 1
            continue
        while i < len(lines) and _is_board_line(lines[i]):
            i += 1
        found += 1
        if found == number:
            return read_xsb("\n" * notes + "\n".join(lines[notes:i]))[0]
        notes = i
    if not found:
        read_xsb(text)  # the parser's own message for text without a level
    raise ConfigError(f"{where}: the text holds {found} level(s); there is no level {number}")


def _state(level, moves):
    """The JSON state after ``moves``: counters, solved flag and the drawn position."""
    position = replay(level, moves)
    return {"moves": moves, "steps": len(moves), "pushes": sum(c.isupper() for c in moves),
            "solved": position.is_solved, "svg": position.to_svg(cell=48)}


def _describe(level, source, title, proof=None, seed=None, config=None, elapsed_ms=None):
    return {"source": source, "title": title, "xsb": level.to_xsb(), "width": level.width,
            "height": level.height, "boxes": len(level.boxes),
            "optimal": None if proof is None else proof[0],
            "solution": None if proof is None else proof[1], "seed": seed, "config": config,
            "elapsed_ms": elapsed_ms, "state": _state(level, "")}


def level_generated(query, time_limit=None, cancel=None):
    """A generated level: ``seed`` and the generator's settings (``pushes`` as ``LO-HI``);
    ``time_limit`` and ``cancel`` stop the generator (see :func:`levelforge.sokoban.generate`)."""
    config = {"width": query.int("width", 7), "height": query.int("height", 7),
              "boxes": query.int("boxes", 2), "inner_walls": query.int("inner_walls", 0),
              "pushes": query.text("pushes", "4-8")}
    seed = query.int("seed")
    result = generate(seed, **config, time_limit=time_limit, cancel=cancel)
    c = result.config
    title = (f"{c['width']}x{c['height']}, {c['boxes']} box{'es' if c['boxes'] > 1 else ''}, "
             f"seed {seed}")
    return _describe(result.level, {"kind": "generate", **config, "seed": seed}, title,
                     (result.pushes, result.solution), seed, c, result.elapsed_ms)


def level_campaign(index, time_limit=None, cancel=None):
    """Campaign level ``index`` (0-based): :func:`levelforge.sokoban.campaign`'s
    configuration, generated with seed ``index`` (stopped by ``time_limit``, ``cancel``)."""
    index = parse_int(index, "campaign level")
    config = campaign(index)
    result = generate(index, **config, time_limit=time_limit, cancel=cancel)
    lo, hi = config["pushes"]
    title = (f"Campaign level {index}: {config['width']}x{config['height']}, "
             f"{config['boxes']} box{'es' if config['boxes'] > 1 else ''}, {lo}-{hi} pushes")
    return _describe(result.level, {"kind": "campaign", "index": index}, title,
                     (result.pushes, result.solution), index, result.config, result.elapsed_ms)


@lru_cache(maxsize=1)
def _microban():
    return collections.load("microban")


def level_microban(number):
    """Microban level ``number`` (1 to 155, its title in the collection)."""
    levels = _microban()
    number = parse_int(number, "Microban level")
    if not 1 <= number <= len(levels):
        raise ConfigError(f"Microban has levels 1 to {len(levels)}; there is no level {number}")
    return _describe(levels[number - 1], {"kind": "microban", "number": number},
                     f"Microban {number} (David W. Skinner)")


def level_from_file(opened, item):
    """Level ``item`` of the file the server was started with."""
    if opened is None:
        raise ConfigError("levelforge play was started without a level file")
    item = parse_int(item, f"{opened.name} item")
    level = opened.level(item)
    return _describe(level, {"kind": "file", "item": item},
                     f"{opened.name} {opened.titles[item]}", opened.proof(item))


def level_custom(query):
    """A pasted level: ``xsb`` text, and ``level`` (1-based) when it holds several."""
    level = _level_from_xsb(query.text("xsb"), "pasted XSB", query.int("level", 1))
    return _describe(level, {"kind": "custom"}, level.title or "pasted level")


def _body(body, where, extra):
    fields = {"xsb": (str, REQUIRED), "moves": (str, "")}
    fields.update(extra)
    data = parse_body(body, fields, where)
    if len(data["moves"]) > MAX_MOVES:
        raise ConfigError(f"{where}: more than {MAX_MOVES} moves")
    return data


def move_state(xsb, moves, action):
    """The state after ``action`` on the level ``xsb`` played with ``moves``.

    ``action`` is a direction (``u``, ``l``, ``r``, ``d``, either case: it pushes when a
    box is in the way), ``undo`` or ``restart``. A blocked move changes nothing: the
    state comes back with ``refused`` saying why.
    """
    level = _level_from_xsb(xsb, "move")
    position = replay(level, moves)  # also checks the moves played so far
    refused = None
    if action == "undo":
        moves = moves[:-1]
    elif action == "restart":
        moves = ""
    elif isinstance(action, str) and action.lower() in _STEPS:
        dx, dy = _STEPS[action.lower()]
        x, y = position.player
        push = (x + dx, y + dy) in position.boxes
        letter = action.upper() if push else action.lower()
        try:
            replay(position, letter)
            moves += letter
        except InvalidMoveError as exc:
            refused = str(exc).split(": ", 1)[-1]
    else:
        raise ConfigError(f"move: unknown action {action!r}; use u, l, r, d, undo or restart")
    state = _state(level, moves)
    state["refused"] = refused
    if state["solved"]:
        state["optimal"] = optimal(tuple(level.rows()))
    return state


@lru_cache(maxsize=256)
def optimal(rows):
    """The solver's verdict on the level with these board rows (cached), as a dict
    (``lower_bound``: what a stopped search proved, see ``SolveResult``); ``limit``
    with a ``message`` for a level beyond the solver's size limits."""
    level = read_xsb("\n".join(rows))[0]
    try:
        result = solve(level, max_nodes=SOLVE_MAX_NODES, time_limit=OPTIMAL_TIME_LIMIT)
    except ConfigError as exc:
        return {"status": "limit", "pushes": None, "time_limit": OPTIMAL_TIME_LIMIT,
                "elapsed_ms": 0.0, "message": str(exc)}
    return {"status": result.status, "pushes": result.pushes,
            "time_limit": OPTIMAL_TIME_LIMIT, "elapsed_ms": result.elapsed_ms,
            "lower_bound": result.lower_bound, "limit_by": result.limit_by,
            "max_nodes": SOLVE_MAX_NODES}


def move(body):
    """``POST /api/sokoban/move``: ``{"xsb", "moves", "action"}`` to the new state."""
    data = _body(body, "move", {"action": (str, REQUIRED)})
    return move_state(data["xsb"], data["moves"], data["action"])


def solve_position(body, time_limit=None, cancel=None):
    """``POST /api/sokoban/solve``: solve the position after ``moves`` within
    ``time_limit`` seconds; the answer is the solver's, ``limit`` and ``cancelled``
    included (the server's ``time_limit``, when shorter, and ``cancel`` stop it too)."""
    data = _body(body, "solve", {"time_limit": ((int, float), 5)})
    limit = data["time_limit"]
    if not 0 < limit <= MAX_TIME_LIMIT:
        raise ConfigError(f"solve: time_limit must be in (0, {MAX_TIME_LIMIT:g}] seconds, "
                          f"got {limit!r}")
    position = replay(_level_from_xsb(data["xsb"], "solve"), data["moves"])
    server = time_limit is not None and time_limit < limit
    result = solve(position, max_nodes=SOLVE_MAX_NODES,
                   time_limit=time_limit if server else limit, cancel=cancel)
    answer = {**result.to_dict(), "time_limit": limit, "from_moves": data["moves"],
              "max_nodes": SOLVE_MAX_NODES}
    if result.status == CANCELLED:
        answer["stopped"] = "the client hung up, so the solve was cancelled"
    elif result.status == LIMIT and server:
        answer["stopped"] = STOPPED
    return answer


def _path_value(request, name):
    """A path parameter of a route that takes no query parameters."""
    Query(request.query_params, (), request.url.path)
    return request.path_params[name]


def routes():
    """``(method, path, handler(request, body, state))`` of the Sokoban API."""
    return [
        ("GET", "/api/sokoban/generate", lambda r, b, s: level_generated(
            Query(r.query_params, _GENERATE, r.url.path), s.time_limit, s.cancel)),
        ("GET", "/api/sokoban/campaign/{index}",
         lambda r, b, s: level_campaign(_path_value(r, "index"), s.time_limit, s.cancel)),
        ("GET", "/api/sokoban/microban/{number}",
         lambda r, b, s: level_microban(_path_value(r, "number"))),
        ("GET", "/api/sokoban/file/{item}",
         lambda r, b, s: level_from_file(s.opened, _path_value(r, "item"))),
        ("GET", "/api/sokoban/custom", lambda r, b, s: level_custom(
            Query(r.query_params, ("xsb", "level"), r.url.path))),
        ("POST", "/api/sokoban/move", lambda r, b, s: move(b)),
        ("POST", "/api/sokoban/solve",
         lambda r, b, s: solve_position(b, s.time_limit, s.cancel)),
    ]
