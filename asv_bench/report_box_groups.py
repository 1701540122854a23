"""Fewest pushes for a group of a level's boxes alone: the group's boxes onto any goals,
the level's other boxes deleted, found by plain-Python breadth-first search over pushes
(player regions merged, boxes on goal-less corners pruned). No solution of the level
pushes the group's boxes fewer times, so the sum over disjoint groups is an admissible
bound: this report shows how far such a bound would lift a push-optimal search's
start bound (the matching) on a given level.

    python asv_bench/report_box_groups.py --microban 144 --parked \\
        --group "3,2 4,2 3,3" --group "3,2 4,2 3,3 8,3 9,3 9,4"

Cells are ``x,y`` (column, row of the level's XSB text, from 0). ``--parked`` adds the
boxes that start on goals to every group. Prints one line per group: its boxes, the
fewest pushes (``cap`` when ``--cap`` states did not settle it, ``none`` when the
group cannot be put away) and the states searched.
"""
import argparse
import sys

from levelforge.sokoban import collections, load_xsb

STEPS = ((0, -1), (-1, 0), (1, 0), (0, 1))


def _add(c, d, k=1):
    return c[0] + k * d[0], c[1] + k * d[1]


def _region(floor, boxes, player):
    """The player's region among ``boxes``, and its smallest cell (the state's key)."""
    seen, todo = {player}, [player]
    for c in todo:
        for d in STEPS:
            n = _add(c, d)
            if n in floor and n not in boxes and n not in seen:
                seen.add(n)
                todo.append(n)
    return seen, min(seen)


def group_pushes(level, group, cap):
    """``(pushes, states)``: the fewest pushes taking the boxes ``group`` onto goals (any
    of the level's) with the other boxes deleted; pushes is ``"cap"`` when ``cap``
    states did not settle it, ``"none"`` when no push sequence does."""
    floor, todo = set(), [level.player]
    while todo:  # the floor the player reaches, boxes ignored
        c = todo.pop()
        if c in floor or c in level.walls:
            continue
        floor.add(c)
        todo.extend(_add(c, d) for d in STEPS)
    goals = level.goals

    def corner(c):
        return c not in goals and any(
            _add(c, a) not in floor and _add(c, b) not in floor
            for a, b in ((STEPS[0], STEPS[1]), (STEPS[0], STEPS[2]),
                         (STEPS[3], STEPS[1]), (STEPS[3], STEPS[2])))
    dead = {c for c in floor if corner(c)}
    start = frozenset(group)
    frontier = [(start, level.player)]
    seen = {(start, _region(floor, start, level.player)[1])}
    depth = 0
    while frontier and len(seen) <= cap:
        if any(all(b in goals for b in boxes) for boxes, _ in frontier):
            return depth, len(seen)
        nxt = []
        for boxes, player in frontier:
            reach, _ = _region(floor, boxes, player)
            for b in boxes:
                for d in STEPS:
                    t = _add(b, d)
                    if _add(b, d, -1) in reach and t in floor and t not in boxes \
                            and t not in dead:
                        child = (boxes - {b}) | {t}
                        key = (child, _region(floor, child, b)[1])
                        if key not in seen:
                            seen.add(key)
                            nxt.append((child, b))
        frontier = nxt
        depth += 1
    return ("none" if not frontier else "cap"), len(seen)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--xsb", help="an XSB file (default: the bundled Microban)")
    ap.add_argument("--microban", type=int, required=True,
                    help="the level's number (from 1) in the bundled Microban, or in "
                         "--xsb's file")
    ap.add_argument("--group", action="append", required=True,
                    help='box cells "x,y x,y ..." (repeat for more groups)')
    ap.add_argument("--parked", action="store_true",
                    help="add the boxes that start on goals to every group")
    ap.add_argument("--cap", type=int, default=3_000_000, help="states per group")
    args = ap.parse_args(argv)
    levels = load_xsb(args.xsb) if args.xsb else collections.load("microban")
    if not 1 <= args.microban <= len(levels):
        ap.error(f"--microban {args.microban}: the file has levels 1 to {len(levels)}")
    level = levels[args.microban - 1]
    parked = level.boxes & level.goals if args.parked else frozenset()
    for text in args.group:
        group = {tuple(int(v) for v in cell.split(",")) for cell in text.split()}
        missing = group - level.boxes
        if missing:
            ap.error(f"no box on {sorted(missing)}")
        pushes, states = group_pushes(level, group | parked, args.cap)
        print(f"{len(group)} boxes{' + parked' if parked else ''}: {pushes} pushes, "
              f"{states:,} states ({text})", flush=True)


if __name__ == "__main__":
    sys.exit(main())
