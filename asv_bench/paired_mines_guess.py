"""Paired comparison of two mines guess policies on the same minefields (screening runs).

    python asv_bench/paired_mines_guess.py --games 3000 --base best --variant best+fifty \\
        [--level 30x16x1-99] [--start 3,3,0] [--seed 20261202] [--jobs 2] [--cache DIR]

Both policies play game ``i`` on ``item_seed(SEED, i)`` from the same start with the
complete exact assistant (``autoplay(exact=True)``). A policy is a guess rule of
``autoplay`` with ``+switch`` for each extra :class:`~levelforge.mines.GuessPolicy`
switch (``best+fifty``) and ``@NAME=VALUE`` for a constant of the guess module
(``best+deep@DEEP_CELLS=480``; the endgame's caps live in
:mod:`levelforge.mines.endgame`). Printed: wins of each, the games whose result differs (won by
the variant only / by the base only) and the exact two-sided sign (McNemar) test on
those, then the milliseconds per guess decision, median and p99 (wall-clock: loaded
machines inflate them; the win counts do not depend on the load).
"""
import argparse
import json
import math
import os
import statistics
import sys
from concurrent.futures import ProcessPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from levelforge.mines import Assistant, Game, GuessPolicy, autoplay, guess_policy  # noqa: E402
from levelforge.mines import endgame as EG  # noqa: E402
from levelforge.mines import guess as G  # noqa: E402

MODULES = (G, EG)  # where a constant may live (the endgame's caps are in endgame.py)
DEFAULTS = [{k: v for k, v in vars(m).items() if k.isupper()} for m in MODULES]
from levelforge.seeding import item_seed  # noqa: E402


def policy(spec):
    """A GuessPolicy from ``rule[+switch...][@NAME=VALUE...]``; each ``@NAME=VALUE`` sets
    a constant of :mod:`levelforge.mines.guess` or :mod:`levelforge.mines.endgame`
    (``best+deep@DEEP_CELLS=480``), in every module that has it."""
    spec, *consts = spec.split("@")
    for m, defaults in zip(MODULES, DEFAULTS):
        vars(m).update(defaults)
    for item in consts:
        name, _, value = item.partition("=")
        owners = [m for m in MODULES if name.isupper() and hasattr(m, name)]
        if not owners:
            raise SystemExit(f"unknown constant {name!r} of the guess or endgame module")
        for m in owners:
            setattr(m, name, type(getattr(m, name))(value))
    rule, *extra = spec.split("+")
    config = guess_policy(rule).to_dict()
    for name in extra:
        if name not in config:
            raise SystemExit(f"unknown switch {name!r}; switches: {sorted(config)}")
        config[name] = True
    return GuessPolicy(**config)


def _chunk(task):
    level, start, seed, lo, hi, spec = task
    assistant = Assistant(complete=True)
    assistant.warm_up()
    rule = policy(spec)
    out = []
    for i in range(lo, hi):
        r = autoplay(Game(level, item_seed(seed, i)), assistant, start=start, exact=True,
                     guess=rule)
        out.append((r.status == "won", r.guess_ms))
    return out


def sign_test(b, c):
    """Exact two-sided binomial p-value of ``b`` against ``c`` discordant games."""
    n = b + c
    if n == 0:
        return 1.0
    k = min(b, c)
    tail = sum(math.comb(n, i) for i in range(k + 1)) / 2 ** n
    return min(1.0, 2 * tail)


def pct(values, q):
    s = sorted(values)
    return s[min(len(s) - 1, int(q / 100 * len(s)))] if s else float("nan")


def run(pool, level, start, seed, games, spec, cache=None, chunk=50):
    """Every game's (won, guess ms) of one policy; with ``cache`` (a directory) a run
    already saved there is read back instead of played."""
    path = None
    if cache:
        name = f"{level}_{'-'.join(map(str, start))}_{seed}_{games}_{spec}.json"
        path = os.path.join(cache, name)
        if os.path.exists(path):
            with open(path) as f:
                return json.load(f)
    tasks = [(level, start, seed, lo, min(lo + chunk, games), spec)
             for lo in range(0, games, chunk)]
    out = [g for part in pool.map(_chunk, tasks) for g in part]
    if path:
        os.makedirs(cache, exist_ok=True)
        with open(path, "w") as f:
            json.dump(out, f)
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=3000)
    ap.add_argument("--base", default="best")
    ap.add_argument("--variant", action="append", required=True,
                    help="a policy to compare with the base (repeatable)")
    ap.add_argument("--level", default="30x16x1-99")
    ap.add_argument("--start", default="3,3,0", help="x,y,z of the first open")
    ap.add_argument("--seed", type=int, default=20261202)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--cache", metavar="DIR",
                    help="save each policy's games here and reuse them in later runs")
    args = ap.parse_args(argv)
    start = tuple(int(v) for v in args.start.split(","))
    for spec in [args.base] + args.variant:
        policy(spec)                          # bad specs fail before any game
    print(f"{args.level}, start {start}, {args.games} games, seeds item_seed({args.seed}, i)\n")
    print("| policy | wins | differ | variant only | base only | sign test p "
          "| ms per guess, median (p99) |")
    print("|---|---|---|---|---|---|---|")
    with ProcessPoolExecutor(args.jobs) as pool:
        base = run(pool, args.level, start, args.seed, args.games, args.base, args.cache)
        rows = [(args.base, base)] + [
            (v, run(pool, args.level, start, args.seed, args.games, v, args.cache))
            for v in args.variant]
    for spec, games in rows:
        won = sum(g[0] for g in games)
        only_v = sum(g[0] and not b[0] for g, b in zip(games, base))
        only_b = sum(b[0] and not g[0] for g, b in zip(games, base))
        ms = [t for g in games for t in g[1]] or [0.0]
        same = spec == args.base
        print(f"| {spec} | {won} ({won / len(games):.1%}) | {'' if same else only_v + only_b} "
              f"| {'' if same else only_v} | {'' if same else only_b} "
              f"| {'' if same else f'{sign_test(only_v, only_b):.3f}'} "
              f"| {statistics.median(ms):.2f} ({pct(ms, 99):.1f}) |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
