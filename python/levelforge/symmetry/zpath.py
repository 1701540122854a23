"""The answer path with Z3: the longest-path parity bound and two encodings.

The Boolean encoding (the one the generator uses) has one variable per (step, point),
created only where the point's colour matches the step's parity and both ends are within
Manhattan reach; "exactly one point per step" and "each point at most once" are pseudo-
Boolean cardinality constraints, adjacency is an implication per variable (to a neighbour
at the next step and from one at the previous step). The integer encoding (one ``Int``
per step, ``distinct``) is kept only to measure the difference.

Each solve uses a fresh ``z3.Context`` (so earlier solves in the process cannot change
the result), Z3's ``random_seed`` from the puzzle seed, and a deterministic resource
limit (``rlimit``) instead of a wall-clock timeout: the same seed gives the same path on
any machine with the same Z3 version.

>>> longest_path_points(4, (0, 0), (3, 3))
15
>>> r = solve_path(3, (0, 0), (2, 2), 9, seed=1)
>>> r.status, len(r.path)
('sat', 9)
"""
from __future__ import annotations

import re
from dataclasses import dataclass

import z3

from ..cancel import Limit
from ..errors import ConfigError
from ..timing import ms_since, now_ns
from .board import Point

SAT, UNSAT, LIMIT = "sat", "unsat", "limit"
_TRUE_VAR = re.compile(r"\(define-fun v(\d+)_(\d+) \(\) Bool\s+true\)")


def longest_path_points(size: int, start: Point, goal: Point) -> int:
    """The most points a self-avoiding path from ``start`` to ``goal`` can visit (colour bound).

    Colour point ``(x, y)`` by ``(x + y) % 2``. A path alternates colours, so for even N
    it visits all N^2 points only if the ends differ in colour (else N^2 - 1); for odd N
    (majority colour 0) N^2 if both ends are on the majority colour, N^2 - 1 if they
    differ, N^2 - 2 if both are on the minority colour. ``start == goal`` gives 1.

    >>> longest_path_points(5, (1, 0), (0, 1))
    23
    """
    if start == goal:
        return 1
    n2 = size * size
    cs, cg = (start[0] + start[1]) & 1, (goal[0] + goal[1]) & 1
    if size % 2 == 0:
        return n2 if cs != cg else n2 - 1
    if cs != cg:
        return n2 - 1
    return n2 if cs == 0 else n2 - 2


@dataclass(frozen=True)
class PathResult:
    """Outcome of one Z3 solve: ``status`` sat/unsat/limit, the ``path`` (points) if sat,
    ``length`` asked for, Z3 ``rlimit`` used, and milliseconds to build and to check."""

    status: str
    path: tuple
    length: int
    rlimit_used: int
    build_ms: float
    check_ms: float


def _neighbours(p, n):
    x, y = p % n, p // n
    out = []
    if y > 0:
        out.append(p - n)
    if x > 0:
        out.append(p - 1)
    if x < n - 1:
        out.append(p + 1)
    if y < n - 1:
        out.append(p + n)
    return out


def bool_encoding(size, start, goal, length, waypoints=()):
    """SMT-LIB text of the Boolean (step, point) encoding; start/goal/waypoints are flat."""
    n, cells = size, size * size
    sx, sy, gx, gy = start % n, start // n, goal % n, goal // n
    sc = (sx + sy) & 1
    var = {}
    for t in range(length):
        par = sc ^ (t & 1)
        for p in range(cells):
            x, y = p % n, p // n
            if (x + y) & 1 != par:
                continue
            if abs(x - sx) + abs(y - sy) > t or abs(x - gx) + abs(y - gy) > length - 1 - t:
                continue
            var[t, p] = f"v{t}_{p}"
    if (0, start) not in var or (length - 1, goal) not in var:
        return None
    out = [f"(declare-const {v} Bool)" for v in var.values()]
    full = length == cells
    for t in range(length):
        vs = [var[t, p] for p in range(cells) if (t, p) in var]
        if not vs:
            return None
        out.append(f"(assert ((_ pbeq 1 {' '.join('1' * len(vs))}) {' '.join(vs)}))")
    for p in range(cells):
        vs = [var[t, p] for t in range(length) if (t, p) in var]
        if full:
            out.append(f"(assert ((_ pbeq 1 {' '.join('1' * len(vs))}) {' '.join(vs)}))")
        elif len(vs) > 1:
            out.append(f"(assert ((_ at-most 1) {' '.join(vs)}))")
    out.append(f"(assert {var[0, start]})")
    out.append(f"(assert {var[length - 1, goal]})")
    for (t, p), v in var.items():
        if t + 1 < length:
            nx = " ".join(var[t + 1, q] for q in _neighbours(p, n) if (t + 1, q) in var)
            out.append(f"(assert (or (not {v}) {nx}))")
        if t > 0:
            pv = " ".join(var[t - 1, q] for q in _neighbours(p, n) if (t - 1, q) in var)
            out.append(f"(assert (or (not {v}) {pv}))")
    for w in waypoints:
        vs = [var[t, w] for t in range(length) if (t, w) in var]
        if not vs:
            return None
        out.append(f"(assert (or {' '.join(vs)} false))")
    return "\n".join(out)


def int_encoding(size, start, goal, length, waypoints=()):
    """SMT-LIB text of the integer encoding: ``x_t, y_t`` per step, ``distinct`` positions."""
    n = size
    out = []
    for t in range(length):
        out.append(f"(declare-const x{t} Int)\n(declare-const y{t} Int)")
        out.append(f"(assert (and (<= 0 x{t}) (< x{t} {n}) (<= 0 y{t}) (< y{t} {n})))")
    out.append(f"(assert (and (= x0 {start % n}) (= y0 {start // n})))")
    out.append(f"(assert (and (= x{length - 1} {goal % n}) (= y{length - 1} {goal // n})))")
    for t in range(length - 1):
        out.append(f"(assert (= (+ (abs (- x{t + 1} x{t})) (abs (- y{t + 1} y{t}))) 1))")
    if length > 1:
        pos = " ".join(f"(+ (* {n} y{t}) x{t})" for t in range(length))
        out.append(f"(assert (distinct {pos}))")
    for w in waypoints:
        alts = " ".join(f"(and (= x{t} {w % n}) (= y{t} {w // n}))" for t in range(length))
        out.append(f"(assert (or {alts} false))")
    return "\n".join(out)


def solve_path(size, start, goal, length, waypoints=(), seed=0, rlimit=0, encoding="bool",
               limit: Limit | None = None):
    """Find a self-avoiding path of exactly ``length`` points from ``start`` to ``goal``.

    ``start``/``goal``/``waypoints`` are ``(x, y)`` points; the path must pass every
    waypoint. ``rlimit`` is Z3's deterministic resource limit (0 = none); reaching it
    gives status ``limit``. ``encoding`` is ``"bool"`` or ``"int"``. ``limit`` (a
    :class:`levelforge.cancel.Limit`) also stops Z3 (its ``timeout`` for the time
    left, its context interrupted on a cancel) with status ``limit``: the caller asks
    ``limit.reason()`` which of the two limits it was.
    """
    if encoding not in ("bool", "int"):
        raise ConfigError(f"encoding must be 'bool' or 'int', got {encoding!r}")
    ix = lambda p: p[1] * size + p[0]  # noqa: E731
    s, g, wps = ix(start), ix(goal), [ix(w) for w in waypoints]
    t0 = now_ns()
    if length < 1 or length > size * size:
        text = None
    elif encoding == "bool":
        text = bool_encoding(size, s, g, length, wps)
    else:
        text = int_encoding(size, s, g, length, wps)
    build_ms = ms_since(t0)
    if text is None:  # parity or distance rules the length out before Z3 is asked
        return PathResult(UNSAT, (), length, 0, build_ms, 0.0)
    t1 = now_ns()
    ctx = z3.Context()
    solver = z3.Solver(ctx=ctx)
    solver.set("random_seed", int(seed) & 0x7FFFFFFF)
    if rlimit:
        solver.set("rlimit", int(rlimit))
    solver.from_string(text)
    if limit is None:
        res = solver.check()
    elif limit.reason() is not None:  # Z3 forgets an interrupt made before its check
        res = z3.unknown
    else:
        if limit.deadline is not None:
            left_ms = (limit.deadline - now_ns()) // 1_000_000
            solver.set("timeout", min(max(1, left_ms), 2**31 - 1))  # Z3 takes 32 bits
        with limit.calling(ctx.interrupt):
            res = solver.check()
    stats = solver.statistics()
    used = int(stats.get_key_value("rlimit count")) if "rlimit count" in stats.keys() else 0
    path = ()
    if res == z3.sat:
        model = solver.model()
        if encoding == "bool":
            steps = {int(t): int(p) for t, p in _TRUE_VAR.findall(model.sexpr())}
            flat = [steps[t] for t in range(length)]
        else:
            xs = [model.eval(z3.Int(f"x{t}", ctx)).as_long() for t in range(length)]
            ys = [model.eval(z3.Int(f"y{t}", ctx)).as_long() for t in range(length)]
            flat = [y * size + x for x, y in zip(xs, ys)]
        path = tuple((p % size, p // size) for p in flat)
        status = SAT
    elif res == z3.unsat:
        status = UNSAT
    else:
        status = LIMIT
    return PathResult(status, path, length, used, build_ms, ms_since(t1))
