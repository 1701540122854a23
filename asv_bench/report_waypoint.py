"""The any mode's waypoint search alone (no other search in turn), and its choice of
waypoints on large rooms, with and without a time limit.

    python asv_bench/report_waypoint.py --xsb XSokoban_90.xsb --levels 16,74,31 [--limit 120]
    python asv_bench/report_waypoint.py --rooms 48x48/60,64x64/128 [--choice-limit 0.5]
    python asv_bench/report_waypoint.py --xsb XSokoban_90.xsb --levels 23,28 --set NODES=60000

``--xsb``: one line per level (status, stored states, waypoints searched towards,
seconds); every solution is replayed. ``--rooms``: the tests' walled rooms (width x
height / boxes): the stored states of the backward part (``waypoint.PULLS``, or fewer
where ``--pulls`` says so: on the largest rooms a state costs far more), then the
choice's seconds without a limit and under ``--choice-limit``. XSokoban is not bundled:
pass any 90-level "XSokoban" / "Original" XSB file. ``--set NAME=VALUE`` (repeatable)
runs the search with one of its constants changed (``PULLS``, ``MOST_AREAS``,
``CANDIDATES``, ``TRIES``, ``DIFFER``, ``NODES`` of :mod:`levelforge.sokoban.waypoint`),
as its figures' trials were run.
"""
import argparse
import os
import sys
import time

import numpy as np

from levelforge.cancel import Limit
from levelforge.engine import sokoban_state as _s
from levelforge.sokoban import Solver, load_xsb, replay
from levelforge.sokoban import waypoint
from levelforge.sokoban.backward import WEIGHT, _pull_search
from levelforge.sokoban.backward import warm_up as warm_up_backward
from levelforge.sokoban.turns import drain
from report_sokoban_solve import _numbers

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests"))
from rooms import room  # noqa: E402 (the tests' big rooms)

CAP = 50_000_000


def alone(level, limit):
    """The waypoint search alone on ``level``: ``(status, solution, stored states,
    waypoints searched towards, seconds)``."""
    solver, child = Solver(CAP), Solver(CAP)
    tried = []
    real = child._any_steps

    def counted(*args):
        tried.append(1)
        return (yield from real(*args))
    child._any_steps = counted
    t = time.perf_counter()
    lim = Limit(limit)
    board, boxes, player, _ = solver._prepare(level, CAP, lim, False)
    status, solution, nodes, _ = drain(waypoint.waypoint_steps(child, level, board, boxes,
                                                               player, CAP, lim))
    return status, solution, nodes, len(tried), time.perf_counter() - t


def choice(width, height, nbox, pulls, limit):
    """The backward part's stored states on a room, and the choice's seconds among them
    without a limit and under ``limit``."""
    level = room(width, height, nbox)
    board, boxes, player, _ = Solver(CAP)._prepare(level, CAP, Limit(None), False)
    walls, goals, w = board[0], board[1], board[5]
    _, a, ctr = drain(_pull_search(walls, np.flatnonzero(goals).astype(np.int32), boxes,
                                   player, w, pulls, Limit(None), WEIGHT, None, None, False,
                                   None))
    nodes = int(ctr[_s.C_NODES])
    out = [nodes]
    for lim in (None, limit):
        t = time.perf_counter()
        got = waypoint.waypoints(a.pool, nodes, boxes.shape[0], walls, w, boxes, Limit(lim))
        out += [len(got), time.perf_counter() - t]
    return out


SETTABLE = ("PULLS", "MOST_AREAS", "CANDIDATES", "TRIES", "DIFFER", "NODES")


def _setting(text):
    name, _, value = text.partition("=")
    if name not in SETTABLE or not value.isdigit():
        raise argparse.ArgumentTypeError(
            f"{text!r}: NAME=VALUE with NAME one of {', '.join(SETTABLE)} and VALUE a count")
    return name, int(value)


def _room(text):
    try:
        size, nbox = text.split("/")
        width, height = (int(x) for x in size.split("x"))
        return width, height, int(nbox)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: WIDTHxHEIGHT/BOXES, e.g. 64x64/128")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--xsb", help="an XSB file (XSokoban is not bundled)")
    ap.add_argument("--levels", type=_numbers, default=None, help="e.g. 16,74,31")
    ap.add_argument("--limit", type=float, default=None, help="seconds a level (default: none)")
    ap.add_argument("--rooms", type=lambda t: [_room(x) for x in t.split(",")], default=None,
                    help="walled rooms WxH/BOXES, comma-separated")
    ap.add_argument("--pulls", type=int, default=waypoint.PULLS,
                    help="the backward part's states on the rooms")
    ap.add_argument("--choice-limit", type=float, default=0.5)
    ap.add_argument("--set", type=_setting, action="append", default=[], metavar="NAME=VALUE",
                    help="a constant of the waypoint search changed for this run")
    args = ap.parse_args(argv)
    if not args.xsb and not args.rooms:
        ap.error("pass --xsb FILE or --rooms")
    for name, value in args.set:
        setattr(waypoint, name, value)
    if args.set:
        print("with " + ", ".join(f"waypoint.{k} = {getattr(waypoint, k):,}" for k in SETTABLE))
    warm_up_backward()
    waypoint.warm_up()
    if args.xsb:
        levels = load_xsb(args.xsb)
        numbers = args.levels or list(range(1, len(levels) + 1))
        print("| level | status | stored states | waypoints | s |")
        print("|---|---|---|---|---|")
        for k in numbers:
            status, solution, nodes, tried, secs = alone(levels[k - 1], args.limit)
            if solution is not None:
                assert replay(levels[k - 1], solution).is_solved, f"level {k}: no replay"
            print(f"| {k} | {status} | {nodes:,} | {tried} | {secs:.2f} |", flush=True)
    if args.rooms:
        print(f"| room | boxes | backward states | choice (no limit) | "
              f"choice ({args.choice_limit:g} s limit) |")
        print("|---|---|---|---|---|")
        for width, height, nbox in args.rooms:
            nodes, n1, t1, n2, t2 = choice(width, height, nbox, args.pulls, args.choice_limit)
            print(f"| {width}x{height} | {nbox} | {nodes:,} | {t1:.2f} s, {n1} waypoints "
                  f"| {t2:.2f} s, {n2} waypoints |", flush=True)


if __name__ == "__main__":
    main()
