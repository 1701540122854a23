"""``levelforge defense``: show the forecast, map, distance field and routes; run probes.

    levelforge defense show [--scenario FILE] [--seed S]
    levelforge defense probe pairs|campaign|rescues|strategies|barrier-timing|wave-order
                             [--seed S] [-o FILE.json] [--scenario FILE] [--workers N]
                             [--no-progress] [--top N] [--opening "c1,0 c2,1 w3,1"]
                             [--versus FILE|aab]
"""
import json
import os
import sys

from ..batch.executors import open_executor
from ..cli import ArgumentParser
from ..errors import ConfigError
from .game import Defense
from .probes import probe_campaign, probe_pairs, probe_rescues
from .scenario import VARIANTS, Scenario
from .strategies import probe_strategies
from .studies import probe_barrier_timing, probe_wave_order

PROBES = ("pairs", "campaign", "rescues", "strategies", "barrier-timing", "wave-order")


def _scenario(path):
    if path is None:
        return Scenario.lighthouse()
    if path in VARIANTS:
        return Scenario.lighthouse(path)
    return Scenario.load(path)


def parse_opening(text) -> tuple:
    """``"c1,0 c2,1 w3,1"`` -> ``((1, 0, "cannon"), (2, 1, "cannon"), (3, 1, "wall"))``.

    >>> parse_opening("c1,0 w3,1")
    ((1, 0, 'cannon'), (3, 1, 'wall'))
    """
    out = []
    for i, tok in enumerate(text.split()):
        kind = {"c": "cannon", "w": "wall"}.get(tok[:1].lower())
        try:
            x, y = (int(v) for v in tok[1:].split(","))
        except ValueError:
            kind = None
        if kind is None:
            raise ConfigError(f"--opening item {i + 1} {tok!r}: expected c<x>,<y> (cannon) "
                              "or w<x>,<y> (wall)")
        out.append((x, y, kind))
    if not out:
        raise ConfigError("--opening is empty")
    return tuple(out)


LEGEND = ("A B entrances, * beacon, # reef, . open water, a b route from A / B, "
          "+ both routes, C cannon, W wall")


def render(d: Defense) -> str:
    """The state line, the forecast banner of the next wave (and of the later ones), the
    map with both routes, the distance field and the routes as text.

    >>> for line in render(Defense(seed=19)).splitlines()[1:4]:
    ...     print(line)  # doctest: +NORMALIZE_WHITESPACE
    next: wave 1 of 3: 10 ships, 8 skiffs + 2 armoured (ships 7, 10); all from A, B waits
    then: wave 2 of 3: 10 ships, 8 skiffs + 2 armoured (ships 3, 7); all from B, A waits
    then: wave 3 of 3: 12 ships, 8 skiffs + 4 armoured (ships 3, 6, 9, 12); 6 from A, 6 from B,
          alternating, B first
    """
    s = d.scenario
    on = {}
    for e in ("A", "B"):
        for cell in d.route(e)[1:-1]:
            on[cell] = "+" if cell in on and on[cell] != e.lower() else e.lower()
    names = {"cannon": "C", "wall": "W"}
    built = {(x, y): names[kd] for x, y, kd in d.buildings}
    lines = [f"{s.name}: {s.width}x{s.height}, seed {d.seed}, wave {d.wave}, "
             f"material {d.material}, health {d.health}",
             f"next: {d.forecast().banner()}"]
    lines += [f"then: {d.forecast(w).banner()}" for w in range(d.wave + 1, len(s.waves) + 1)]
    lines.append("map:")
    for y, row in enumerate(s.map):
        lines.append("  " + " ".join(built.get((x, y)) or (on.get((x, y), ch) if ch == "."
                                                            else ch)
                                     for x, ch in enumerate(row)))
    lines.append("  " + LEGEND)
    lines.append("distance to the beacon (-- blocked or unreachable):")
    for row in d.distance_map():
        lines.append("  " + " ".join(f"{v:2d}" if v >= 0 else "--" for v in row))
    lines.append("routes:")
    for e in ("A", "B"):
        r = d.route(e)
        lines.append(f"  {e} ({len(r) - 1} steps): " + " ".join(f"({x},{y})" for x, y in r))
    return "\n".join(lines)


def main(argv=None, prog="levelforge defense"):
    """Run the defense command line; returns the exit code."""
    p = ArgumentParser(prog=prog, description="Tower-defense core: show, probe.")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")
    show = sub.add_parser("show", help="print the next wave's forecast, the map, the "
                                       "distance field and the routes",
                          description="Print the next wave's forecast (and the later "
                                      "waves'), a scenario's map with both routes to the "
                                      "beacon (and a legend), the distance field and the "
                                      "routes as cell lists.")
    show.add_argument("--scenario", help="a scenario .toml/.json (default: lighthouse)")
    show.add_argument("--seed", type=int, default=0,
                      help="game seed (0); its parity orders the final wave's entrances")
    probe = sub.add_parser("probe", help="run a placement probe or study, write JSON",
                           description="The design's probes: 'pairs' simulates wave 1 for "
                                       "every legal pair of cannons, 'campaign' every "
                                       "surviving opening through the whole game, 'rescues' "
                                       "one wall added to the best losing pairs, "
                                       "'strategies' the four naive policies, "
                                       "'barrier-timing' one wall before each wave on the "
                                       "region representatives' plans, 'wave-order' one "
                                       "opening on two scenarios; the result is JSON.")
    probe.add_argument("kind", choices=PROBES)
    probe.add_argument("--seed", type=int, default=0,
                       help="seed (campaign, strategies and barrier-timing also use seed+1: "
                            "both parities)")
    probe.add_argument("--top", type=int, default=90,
                       help="rescues: the losing openings with the most kills to examine")
    probe.add_argument("--opening", help="wave-order: cannons and walls before wave 1, e.g. "
                                         "'c1,0 c2,1 w3,1' (default: the reference plan's)")
    probe.add_argument("--versus", default="aab",
                       help="wave-order: the scenario compared with --scenario, a file or a "
                            f"shipped variant ({', '.join(VARIANTS)}; default aab)")
    probe.add_argument("-o", "--output", help="write the JSON result here (default: stdout)")
    probe.add_argument("--scenario", help="a scenario .toml/.json (default: lighthouse)")
    probe.add_argument("--workers", type=int, default=os.cpu_count() or 1,
                       help="worker processes (1 = in this process; default: every core)")
    probe.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    ns = p.parse_args(argv)
    scenario = _scenario(ns.scenario)
    if ns.command == "show":
        print(render(Defense(scenario, ns.seed)))
        return 0
    if ns.workers < 1:
        raise ConfigError(f"--workers must be >= 1, got {ns.workers}")
    seeds = (ns.seed, ns.seed + 1)
    show_progress = not ns.no_progress
    with open_executor(ns.workers) as executor:
        if ns.kind == "pairs":
            r = probe_pairs(scenario, ns.seed, executor, show_progress)
            summary = f"pairs: {r.surviving} of {r.legal_pairs} legal openings survive wave 1"
        elif ns.kind == "campaign":
            r = probe_campaign(scenario, seeds, executor, show_progress=show_progress)
            summary = "\n".join(r.lines())
        elif ns.kind == "rescues":
            r = probe_rescues(scenario, ns.seed, ns.top, executor,
                              show_progress=show_progress)
            summary = r.line()
        elif ns.kind == "strategies":
            r = probe_strategies(scenario, seeds, executor, show_progress)
            wins = sum(g["outcome"] == "victory" for g in r.games)
            summary = f"{r.table()}\nstrategies: {wins} of {len(r.games)} games won"
        elif ns.kind == "barrier-timing":
            r = probe_barrier_timing(scenario, seeds, executor, show_progress=show_progress)
            summary = (f"{r.table()}\n\n{r.example()}\n\nbarrier timing: {r.played} cases "
                       f"played over {len(r.plans)} plans")
        else:
            opening = parse_opening(ns.opening) if ns.opening else None
            r = probe_wave_order(opening, (_scenario(ns.versus), scenario), ns.seed)
            summary = r.table()
    text = json.dumps(r.to_dict(), indent=1)
    if ns.output:
        try:
            with open(ns.output, "w", encoding="utf-8") as f:
                f.write(text + "\n")
        except OSError as exc:
            raise ConfigError(f"cannot write {ns.output!r}: {exc.strerror}") from None
        print(f"{summary} ({r.elapsed_ms:.0f} ms); wrote {ns.output}")
    else:
        print(text)
        print(summary, file=sys.stderr)
    return 0
