"""Mines figures: the assistant against ms_toollib, complete logic, no-guess boards, guessing.

    python asv_bench/report_mines.py [--section all|analysis|complete|noguess|toollib|guess|compile]
                                     [--jobs 2] [--quick] [--json FILE] [--python PATH]

Sections (each prints markdown tables):

- ``analysis``: the assistant on the positions of real games (guessing games, every
  position before a decision), against ms_toollib 1.5 (``pip install -e '.[bench]'``)
  on the same 2-D positions in the same run: certain cells (``analyze`` with
  ``complete=True`` vs ``get_all_not_and_is_mine_on_board``) and exact probabilities
  (``analyze(exact=True)`` vs ``cal_probability_onboard``); the median over positions of
  the median of interleaved calls, and whether the answers agree. 3-D figures beside.
- ``complete``: autoplay win rates without guessing, design caps vs ``complete=True``,
  plain and exact, and a Z3 check (``tests/naive_mines.py``) of the positions where the
  complete exact assistant is stuck: perfect logic finds nothing more there.
- ``noguess``: no-guess generation time per strategy (rejection, perturbation, hybrid)
  beside ms_toollib's ``laymine_solvable`` (same start, same run); per-cell mine
  frequency against uniform placement; autoplay on no-guess boards; board ratings.
- ``toollib``: only the no-guess generation against ``laymine_solvable`` (part of
  ``noguess``); ``--json FILE`` writes every board's milliseconds, both generators, for
  the chart.
- ``guess``: win rates with 95% Wilson intervals (complete exact assistant), the old
  policy (``guess="safest"``) beside the new (``guess="best"``: look-ahead and exact
  endgame) on the same seeds, JSMinesweeper's published 30x16/99 figure for the same
  start rule beside; each idea alone (and ``dead``: best with dead cells skipped) on the
  first ``--ablation-games`` games; time per
  game and per guess decision (median, p99).
- ``compile``: cold compile time of the kernels (fresh ``NUMBA_CACHE_DIR``); ``--python
  PATH`` measures another interpreter, e.g. a virtualenv with an older commit installed.

Timings are wall-clock on a shared machine: expect noise; ratios come from interleaved
calls in one run.
"""
import argparse
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "tests"))

from benchmarks.bench_mines import LEVELS, first_click, game_positions  # noqa: E402
from benchmarks.common import SEED  # noqa: E402
import chartdata  # noqa: E402
from levelforge.engine import mines as K  # noqa: E402
from levelforge.mines import Assistant, Game, Level, autoplay, noguess  # noqa: E402
from levelforge.seeding import item_seed, kernel_seed  # noqa: E402

try:
    import ms_toollib as ms
except ImportError:          # the bench extra is optional
    ms = None

# JSMinesweeper's README (github.com/DavidNHill/JSMinesweeper): its Java solver wins 54.3%
# of 30x16/99 games with an open start at (3,3) and 41% with a safe start in a corner.
JSM_OPEN_33 = 0.543


def _pct(v, q):
    return float(np.percentile(v, q))


def _board(obs):
    """ms_toollib's game board of a 2-D observation: numbers, 10 closed, 11 flagged."""
    st, nu = obs.state[0], obs.numbers[0]
    return np.where(st == K.OPEN, nu, np.where(st == K.FLAGGED, 11, 10)).astype(int).tolist()


def _timed(fn, *args):
    t = time.perf_counter()
    out = fn(*args)
    return (time.perf_counter() - t) * 1e3, out


# ------------------------------------------------------------------ analysis

def analysis_tables(games_2d, games_3d, repeats):
    complete = Assistant(complete=True)
    capped = Assistant()
    complete.warm_up()
    capped.warm_up()
    lines = ["| level | positions | certain cells: levelforge (p90) | ms_toollib (p90) | ratio "
             "| probabilities: levelforge (p90) | ms_toollib (p90) | ratio | agreement |",
             "|---|---|---|---|---|---|---|---|---|"]
    for level in ("16x16x1-40", "30x16x1-99"):
        positions = game_positions(level, games_2d)
        mines = float(Level.parse(level).mines)
        t = {k: [] for k in ("ours", "ms", "ours_p", "ms_p")}
        missing = extra = 0
        worst = 0.0
        for obs in positions:
            board = _board(obs)
            runs = {k: [] for k in t}
            for _ in range(repeats):
                dt, a = _timed(complete.analyze, obs)
                runs["ours"].append(dt)
                if ms is not None:
                    dt, b = _timed(ms.get_all_not_and_is_mine_on_board, board)
                    runs["ms"].append(dt)
                dt, p = _timed(complete.analyze, obs, True)
                runs["ours_p"].append(dt)
                if ms is not None:
                    dt, q = _timed(ms.cal_probability_onboard, board, mines)
                    runs["ms_p"].append(dt)
            for k in t:
                if runs[k]:
                    t[k].append(statistics.median(runs[k]))
            if ms is not None:
                marked = np.array(b[0])          # the board with 11 (mine) / 12 (safe) marks
                ys, xs = np.nonzero((marked >= 11) & (np.array(board) == 10))
                theirs = set(zip(xs.tolist(), ys.tolist(), [0] * len(xs)))
                ours = set(a.safe) | set(a.mines)
                missing += bool(theirs - ours)
                extra += bool(ours - theirs)
                pq = np.array(q[0])
                closed = obs.state[0] == K.CLOSED
                worst = max(worst, float(np.abs(p.probabilities[0][closed] - pq[closed]).max()))
        if ms is None:
            lines.append(f"| {level} | {len(positions)} | {statistics.median(t['ours']):.3f} "
                         f"({_pct(t['ours'], 90):.3f}) | - | - | "
                         f"{statistics.median(t['ours_p']):.3f} ({_pct(t['ours_p'], 90):.3f}) "
                         "| - | - | ms_toollib not installed |")
            continue
        lines.append(
            f"| {level} | {len(positions)} | {statistics.median(t['ours']):.3f} "
            f"({_pct(t['ours'], 90):.3f}) | {statistics.median(t['ms']):.3f} "
            f"({_pct(t['ms'], 90):.3f}) | "
            f"{statistics.median(t['ms']) / statistics.median(t['ours']):.1f}x faster | "
            f"{statistics.median(t['ours_p']):.3f} ({_pct(t['ours_p'], 90):.3f}) | "
            f"{statistics.median(t['ms_p']):.3f} ({_pct(t['ms_p'], 90):.3f}) | "
            f"{statistics.median(t['ms_p']) / statistics.median(t['ours_p']):.1f}x faster | "
            f"cells ms_toollib proves that levelforge misses: {missing} positions; levelforge "
            f"proves more: {extra}; largest probability difference {worst:.1e} |")
    lines += ["", "3-D, the same kind of positions (levelforge only; ms per call, median (p90)):",
              "", "| level | positions | certain, design caps | certain, complete "
              "| exact, design caps | exact, complete | over a cap (caps / complete) |",
              "|---|---|---|---|---|---|---|"]
    for level in ("easy", "normal", "hard"):
        positions = game_positions(level, games_3d)
        cols = []
        skipped = [0, 0]
        for exact in (False, True):
            for j, assistant in enumerate((capped, complete)):
                med = []
                for obs in positions:
                    runs = []
                    for _ in range(repeats):
                        dt, a = _timed(assistant.analyze, obs, exact)
                        runs.append(dt)
                    med.append(statistics.median(runs))
                    skipped[j] += a.skipped > 0
                cols.append(f"{statistics.median(med):.3f} ({_pct(med, 90):.3f})")
        lines.append(f"| {level} | {len(positions)} | {cols[0]} | {cols[1]} | {cols[2]} | "
                     f"{cols[3]} | {skipped[0]} / {skipped[1]} |")
    return "\n".join(lines)


# ------------------------------------------------------------------ win rates

def _play_chunk(task):
    """Autoplay games ``lo..hi`` of a level; returns the count of each status (worker)."""
    level, lo, hi, start, kind, exact, guess, no_guess = task
    assistant = Assistant(complete=kind == "complete")
    counts = {"won": 0, "lost": 0, "stuck": 0, "contradiction": 0}
    for i in range(lo, hi):
        game = Game(level, item_seed(SEED, i), no_guess)
        r = autoplay(game, assistant, start=start, exact=exact, guess=guess)
        counts[r.status] += 1
    return counts


def win_rate(pool, level, games, start=None, kind="complete", exact=True, guess=None,
             no_guess=False, chunk=50):
    tasks = [(level, lo, min(lo + chunk, games), start, kind, exact, guess, no_guess)
             for lo in range(0, games, chunk)]
    total = {"won": 0, "lost": 0, "stuck": 0, "contradiction": 0}
    for counts in pool.map(_play_chunk, tasks):
        for k, v in counts.items():
            total[k] += v
    return total["won"] / games, total


def _stuck_positions(level, games, limit):
    """Positions where the complete exact assistant is stuck at the end of a game."""
    assistant = Assistant(complete=True)
    out = []
    for i in range(games):
        game = Game(level, item_seed(SEED, i))
        r = autoplay(game, assistant, exact=True)
        if r.status == "stuck":
            out.append(game.observe())
            if len(out) == limit:
                break
    return out


def complete_table(pool, games, oracle_positions):
    import naive_mines
    lines = ["| level | games | plain, design caps | plain, complete | exact, design caps "
             "| exact, complete | stuck positions checked by Z3 | cells Z3 proves beyond |",
             "|---|---|---|---|---|---|---|---|"]
    for level in ("30x16x1-99", "16x16x1-40", "9x9x1-10", "easy", "normal", "hard"):
        rates = []
        for exact in (False, True):
            for kind in ("capped", "complete"):
                rates.append(win_rate(pool, level, games, kind=kind, exact=exact)[0])
        missed = 0
        stuck = _stuck_positions(level, games, oracle_positions)
        complete = Assistant(complete=True)
        for obs in stuck:
            ref = naive_mines.certain_cells_sat(obs.state.reshape(-1).tolist(),
                                                obs.numbers.reshape(-1).tolist(),
                                                obs.remaining_mines, obs.width, obs.height,
                                                obs.depth, use_count=True)
            got = complete.analyze(obs, exact=True)
            found = {obs.cell_index(c) for c in got.safe + got.mines}
            missed += len((ref[0] | ref[1]) - found)
        lines.append(f"| {level} | {games} | " + " | ".join(f"{r:.1%}" for r in rates)
                     + f" | {len(stuck)} | {missed} |")
    return "\n".join(lines)


GUESS_LEVELS = [("30x16x1-99", (3, 3, 0)), ("16x16x1-40", None), ("9x9x1-10", None),
                ("easy", None), ("normal", None), ("hard", None)]


def wilson(won, n, z=1.96):
    """The 95% Wilson score interval of a win rate ``won / n``."""
    p = won / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def _guess_chunk(task):
    """Games ``lo..hi`` of a level with one guess rule: per game (won, ms, guess ms)."""
    level, lo, hi, start, rule = task
    assistant = Assistant(complete=True)
    assistant.warm_up()              # compiled or loaded before any game is timed
    out = []
    for i in range(lo, hi):
        r = autoplay(Game(level, item_seed(SEED, i)), assistant, start=start, exact=True,
                     guess=rule)
        out.append((r.status == "won", r.elapsed_ms, r.guess_ms))
    return out


def guess_games(pool, level, start, rule, games, chunk=25):
    """Every game's (won, ms, guess ms) of one rule, seeds ``item_seed(SEED, i)``."""
    tasks = [(level, lo, min(lo + chunk, games), start, rule) for lo in range(0, games, chunk)]
    return [g for part in pool.map(_guess_chunk, tasks) for g in part]


def _rate(games):
    won = sum(g[0] for g in games)
    lo, hi = wilson(won, len(games))
    return f"{won / len(games):.1%} [{lo:.1%}, {hi:.1%}]"


def guess_tables(pool, games, ablation_games):
    """Old (safest) beside new (best) on the same seeds, the ablation, and the times."""
    lines = ["| level | start | games | safest (old) [95% CI] | best (new) [95% CI] "
             "| published anchor |", "|---|---|---|---|---|---|"]
    ablation = ["| level | games | safest | + look-ahead | + endgame | both (best) "
                "| best + dead cells |", "|---|---|---|---|---|---|---|"]
    times = ["| level | rule | ms per game, median (p99) | ms per guess decision, median "
             "(p99) | guesses per game |", "|---|---|---|---|---|"]
    for level, start in GUESS_LEVELS:
        runs = {rule: guess_games(pool, level, start, rule, games)
                for rule in ("safest", "best")}
        k = min(ablation_games, games)
        for rule in ("lookahead", "endgame", "dead"):
            runs[rule] = guess_games(pool, level, start, rule, k)
        where = "(3,3) open" if start else "middle, open"
        anchor = (f"JSMinesweeper (Java solver, README): {JSM_OPEN_33:.1%}"
                  if start else "")
        lines.append(f"| {level} | {where} | {games} | {_rate(runs['safest'])} | "
                     f"{_rate(runs['best'])} | {anchor} |")
        ablation.append(f"| {level} | {k} | " + " | ".join(
            _rate(runs[r][:k]) for r in ("safest", "lookahead", "endgame", "best", "dead")) + " |")
        for rule in ("safest", "best"):
            ms = [g[1] for g in runs[rule]]
            gms = [t for g in runs[rule] for t in g[2]] or [0.0]
            times.append(f"| {level} | {rule} | {statistics.median(ms):.1f} "
                         f"({_pct(ms, 99):.1f}) | {statistics.median(gms):.2f} "
                         f"({_pct(gms, 99):.1f}) | {len(gms) / len(ms):.2f} |")
    return "\n".join(lines + ["", "Each idea on its own (the first games of the same seeds):",
                              ""] + ablation + ["", "Time (complete exact assistant, one "
                                                "process each, wall-clock):", ""] + times)


# ------------------------------------------------------------------ no-guess boards

def _start_index(level):
    x, y, z = first_click(level)
    lv = Level.parse(level)
    return (z * lv.height + y) * lv.width + x


def generation_table(boards, ms_boards, chart=None):
    lines = ["| level | no_guess | strategy | median ms | p90 | max | placements (mean) "
             "| perturbations (mean) |", "|---|---|---|---|---|---|---|---|"]
    for level in LEVELS:
        lv = Level.parse(level)
        start = _start_index(level)
        for logic in (True, "easy"):
            for strategy in noguess.STRATEGIES:
                if logic == "easy" and strategy == "reject" and lv.cells >= 256:
                    continue        # rejection rarely meets single-number boards this big
                noguess.generate(lv, start, np.array([kernel_seed(SEED)], np.uint64), logic,
                                 strategy)
                ts, att, per = [], [], []
                for i in range(boards):
                    rng = np.array([kernel_seed(item_seed(SEED, i))], np.uint64)
                    dt, (_, _, info, _) = _timed(noguess.generate, lv, start, rng, logic,
                                                 strategy)
                    ts.append(dt)
                    att.append(info.attempts)
                    per.append(info.perturbations)
                tag = " (default)" if strategy == noguess.DEFAULT_STRATEGY else ""
                lines.append(f"| {level} | {logic} | {strategy}{tag} | "
                             f"{statistics.median(ts):.2f} | {_pct(ts, 90):.2f} | "
                             f"{max(ts):.2f} | {np.mean(att):.1f} | {np.mean(per):.1f} |")
    return "\n".join(lines) + "\n\n" + toollib_table(ms_boards, chart)


def toollib_table(ms_boards, chart=None):
    """levelforge's default no-guess generator against ms_toollib's; each board's times
    go into ``chart`` (a list)."""
    if ms is None:
        return "ms_toollib not installed: no laymine_solvable column."
    lines = ["Against ms_toollib's `laymine_solvable` (rejection with its own solver, no "
             "mine count), same start, calls interleaved:", "",
             "| level | levelforge default, median ms (p90, max) | ms_toollib median ms "
             "(p90, max) | ratio of medians |", "|---|---|---|---|"]
    for level in ("9x9x1-10", "16x16x1-40", "30x16x1-99"):
        lv = Level.parse(level)
        start = _start_index(level)
        x, y, _ = first_click(level)
        noguess.generate(lv, start, np.array([kernel_seed(SEED)], np.uint64))  # warm-up
        ours, theirs = [], []
        for i in range(ms_boards):
            rng = np.array([kernel_seed(item_seed(SEED + 1, i))], np.uint64)
            ours.append(_timed(noguess.generate, lv, start, rng)[0])
            dt, (board, ok) = _timed(ms.laymine_solvable, lv.height, lv.width, lv.mines, y, x)
            theirs.append(dt)
        if chart is not None:
            chart.append({"level": level, "levelforge_ms": [round(v, 4) for v in ours],
                          "ms_toollib_ms": [round(v, 4) for v in theirs]})
        lines.append(f"| {level} | {statistics.median(ours):.2f} ({_pct(ours, 90):.2f}, "
                     f"{max(ours):.2f}) | {statistics.median(theirs):.2f} "
                     f"({_pct(theirs, 90):.2f}, {max(theirs):.2f}) | "
                     f"{statistics.median(theirs) / statistics.median(ours):.1f}x faster |")
    return "\n".join(lines)


def uniformity_table(boards):
    lines = ["| level | placement | boards | largest deviation of a cell's mine frequency "
             "| mean deviation | chi2 / cells |", "|---|---|---|---|---|---|"]
    for level in ("9x9x1-10", "30x16x1-99", "hard"):
        lv = Level.parse(level)
        start = _start_index(level)
        nb26 = K.board_tables(lv.width, lv.height, lv.depth)[0]
        allowed = np.ones(lv.cells, bool)
        allowed[start] = False
        allowed[nb26[start][nb26[start] >= 0]] = False
        p = lv.mines / allowed.sum()
        rows = [("uniform (ordinary game)", None)] + [(s, s) for s in noguess.STRATEGIES]
        for name, strategy in rows:
            freq = np.zeros(lv.cells)
            for i in range(boards):
                rng = np.array([kernel_seed(item_seed(SEED + 2, i))], np.uint64)
                if strategy is None:
                    mine = np.zeros(lv.cells, np.uint8)
                    K.place_mines(nb26, start, lv.mines, rng, mine,
                                  np.zeros(lv.cells, np.int32))
                else:
                    mine = noguess.generate(lv, start, rng, True, strategy)[0]
                freq += mine
            f = freq[allowed] / boards
            chi2 = ((freq[allowed] - boards * p) ** 2 / (boards * p * (1 - p))).mean()
            lines.append(f"| {level} | {name} | {boards} | {np.abs(f - p).max() / p:.1%} | "
                         f"{np.abs(f - p).mean() / p:.1%} | {chi2:.2f} |")
    return "\n".join(lines)


def noguess_play_table(pool, boards):
    lines = ["| level | no_guess | boards | won, complete assistant | won, design caps "
             "| 3BV | openings | subset steps | counting steps | ordinary boards: 3BV "
             "| solved without guessing |", "|---|---|---|---|---|---|---|---|---|---|---|"]
    for level in LEVELS:
        plain = [Game(level, item_seed(SEED, i)) for i in range(boards)]
        for g in plain:
            g.open(first_click(level))
        base = [g.rating() for g in plain]
        for logic in (True, "easy"):
            full, _ = win_rate(pool, level, boards, kind="complete", exact=False,
                               no_guess=logic)
            capped, _ = win_rate(pool, level, boards, kind="capped", exact=False,
                                 no_guess=logic)
            rated = []
            for i in range(boards):
                g = Game(level, item_seed(SEED, i), logic)
                g.open(first_click(level))
                rated.append(g.rating())
            lines.append(
                f"| {level} | {logic} | {boards} | {full:.1%} | {capped:.1%} | "
                f"{np.mean([r.bbbv for r in rated]):.1f} | "
                f"{np.mean([r.openings for r in rated]):.1f} | "
                f"{np.mean([r.subset_steps for r in rated]):.2f} | "
                f"{np.mean([r.enumeration_steps for r in rated]):.2f} | "
                f"{np.mean([r.bbbv for r in base]):.1f} | "
                f"{np.mean([r.solved for r in base]):.1%} |")
    return "\n".join(lines)


# ------------------------------------------------------------------ compile time

COMPILE_CODE = r"""
import json, time
def clock():
    return time.perf_counter(), time.process_time()
out = {}
t = clock()
from levelforge.mines import Assistant, Game
g = Game("hard", 1); g.open((5, 5, 0)); g.flag((0, 0, 0))
for name, step in (("game", None),
                   ("assistant", lambda: Assistant().warm_up()),
                   ("complete assistant", lambda: Assistant(complete=True).warm_up()),
                   ("no-guess", lambda: Game("9x9x1-10", 1, no_guess=True).open((4, 4, 0)))):
    if step is not None:
        step()
    now = clock()
    out[name] = [now[0] - t[0], now[1] - t[1]]
    t = now
print(json.dumps(out))
"""


def compile_table(repeats, python=None):
    """Cold compile, each step after the previous one, in a fresh process of ``python``
    (default: this interpreter; another virtualenv measures another commit) with a fresh
    ``NUMBA_CACHE_DIR``: wall-clock and CPU seconds (CPU time is the steadier figure on a
    shared machine)."""
    runs = []
    for _ in range(repeats):
        with tempfile.TemporaryDirectory() as d:
            env = dict(os.environ, NUMBA_CACHE_DIR=d)
            out = subprocess.run([python or sys.executable, "-c", COMPILE_CODE], env=env, check=True,
                                 capture_output=True, text=True).stdout
            runs.append(json.loads(out))
    keys = list(runs[0])
    wall = {k: statistics.median(r[k][0] for r in runs) for k in keys}
    cpu = {k: statistics.median(r[k][1] for r in runs) for k in keys}
    return ("| first use, fresh cache (median of " + f"{repeats}) | " + " | ".join(keys)
            + " | total |\n|---|" + "---|" * (len(keys) + 1) + "\n| wall-clock s | "
            + " | ".join(f"{wall[k]:.1f}" for k in keys) + f" | {sum(wall.values()):.1f} |\n"
            + "| CPU s | " + " | ".join(f"{cpu[k]:.1f}" for k in keys)
            + f" | {sum(cpu.values()):.1f} |")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--section", default="all",
                    choices=["all", "analysis", "complete", "noguess", "toollib", "guess",
                             "compile"])
    ap.add_argument("--jobs", type=int, default=2, help="processes for the win rates")
    ap.add_argument("--quick", action="store_true", help="small counts, for a smoke run")
    ap.add_argument("--games", type=int, default=10_000, help="guess: games per row")
    ap.add_argument("--ablation-games", type=int, default=2000,
                    help="guess: games per rule of the ablation table")
    ap.add_argument("--json", metavar="FILE",
                    help="write the no-guess generation times against ms_toollib as JSON")
    ap.add_argument("--python", metavar="PATH",
                    help="compile: the interpreter to measure (a virtualenv of another commit)")
    args = ap.parse_args(argv)
    chart = []
    q = args.quick
    sections = ["analysis", "complete", "noguess", "guess", "compile"] \
        if args.section == "all" else [args.section]
    with ProcessPoolExecutor(args.jobs) as pool:
        for section in sections:
            t0 = time.perf_counter()
            if section == "analysis":
                print("## The assistant on the positions of real games (ms per call)\n")
                print(analysis_tables(3 if q else 30, 2 if q else 10, 3 if q else 7))
            elif section == "complete":
                print("## Win rates without guessing: design caps vs complete\n")
                print(complete_table(pool, 100 if q else 2000, 5 if q else 100))
            elif section == "noguess":
                print("## No-guess generation, first open in the middle of the top face\n")
                print(generation_table(20 if q else 300, 20 if q else 200, chart))
                print("\nMine placement against uniform (first open in the middle):\n")
                print(uniformity_table(100 if q else 2000))
                print("\nPlaying and rating no-guess boards:\n")
                print(noguess_play_table(pool, 20 if q else 1000))
            elif section == "toollib":
                print("## No-guess generation against ms_toollib\n")
                print(toollib_table(20 if q else 200, chart))
            elif section == "guess":
                print("## Guessing: win rates, old policy beside new (complete exact "
                      "assistant)\n")
                print(guess_tables(pool, 100 if q else args.games,
                                   50 if q else args.ablation_games))
            else:
                print("## Cold compile time of the mines kernels (seconds)\n")
                print(compile_table(1 if q else 3, args.python))
            print(f"\n({section}: {time.perf_counter() - t0:.0f} s)\n", flush=True)
    if chart:
        chartdata.save(args.json, {"noguess_vs_ms_toollib": chart})
    return 0


if __name__ == "__main__":
    sys.exit(main())
