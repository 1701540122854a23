"""Draw the figures pages' charts from the report scripts' ``--json`` output.

    pip install -e '.[docs]'                 # vl-convert-python renders Vega-Lite offline
    python docs/figures/charts.py            # every _charts/*.json that has a chart

Each chart is a Vega-Lite spec filled with the data of one JSON file in
``docs/figures/_charts/`` and rendered to an SVG beside it; both are committed. To
measure again, run the command recorded in the JSON file (``"command"``), then this.
"""
import json
import os
import statistics
import sys

import vl_convert as vlc

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_charts")
WIDTH = 520
FONT = "sans-serif"


def _base(title, subtitle):
    return {"$schema": "https://vega.github.io/schema/vega-lite/v5.json",
            "title": {"text": title, "subtitle": subtitle, "anchor": "start"},
            "width": WIDTH, "height": 300,
            "config": {"font": FONT, "view": {"stroke": None}}}


def _subtitle(record):
    load = ", ".join(f"{x:g}" for x in record["load_average"])
    return [record["command"], f"{record['date']}, load average {load}"]


def campaign_pushes(record):
    """Box plots of the longest push-optimal length 60 pulls reach, per campaign stage,
    over each stage's target range."""
    rows, targets = [], []
    for s in record["data"]["campaign"]:
        label = f"{s['stage']}: {s['size']}, {s['boxes']} box{'es' if s['boxes'] > 1 else ''}" \
                f", {s['inner_walls']} walls"
        rows += [{"stage": label, "pushes": v} for v in s["lengths"]]
        targets.append({"stage": label, "lo": s["target"][0], "hi": s["target"][1]})
    spec = _base("The campaign: push-optimal lengths each stage reaches, its target shaded",
                 _subtitle(record))
    order = [t["stage"] for t in targets]
    x = {"field": "stage", "type": "nominal", "sort": order, "title": None,
         "axis": {"labelAngle": -30}}
    spec["layer"] = [
        {"data": {"values": targets}, "mark": {"type": "bar", "opacity": 0.25,
                                               "color": "#2a9d8f", "width": {"band": 0.8}},
         "encoding": {"x": x, "y": {"field": "lo", "type": "quantitative"},
                      "y2": {"field": "hi"}}},
        {"data": {"values": rows}, "mark": {"type": "boxplot", "extent": "min-max",
                                            "color": "#3a5a8c", "size": 22},
         "encoding": {"x": x, "y": {"field": "pushes", "type": "quantitative",
                                    "title": "longest optimum in 60 pulls (pushes)"}}},
    ]
    return spec


def solve_time(record):
    """Levels solved against the time limit: a level solved in t seconds counts for every
    limit from t on (one step line per level set and solver mode)."""
    points = []
    for run in record["data"]["runs"]:
        name = f"{run['set']}, {run['mode']}"
        times = sorted(ms / 1000 for ms, st in zip(run["elapsed_ms"], run["status"])
                       if st == "solved")
        points.append({"run": name, "limit": 1e-4, "solved": 0})
        points += [{"run": name, "limit": max(t, 1e-4), "solved": i}
                   for i, t in enumerate(times, 1)]
        points.append({"run": name, "limit": run["limit_s"], "solved": len(times)})
        total = len(run["status"])
    spec = _base(f"Levels solved within a time limit (of {total})", _subtitle(record))
    spec["data"] = {"values": points}
    spec["mark"] = {"type": "line", "interpolate": "step-after", "point": False}
    spec["encoding"] = {
        "x": {"field": "limit", "type": "quantitative", "scale": {"type": "log"},
              "title": "time limit per level (s, log scale)"},
        "y": {"field": "solved", "type": "quantitative", "title": "levels solved"},
        "color": {"field": "run", "type": "nominal", "title": None,
                  "legend": {"orient": "bottom-right"}}}
    return spec


def _spread(values):
    q = statistics.quantiles(values, n=10)
    return {"median": statistics.median(values), "p10": q[0], "p90": q[-1]}


def generation_by_size(record):
    """Symmetry puzzle generation: median and p10-p90 ms per puzzle against board size."""
    rows = []
    for g in record["data"]["generation"]:
        for what, key in (("wall-clock", "ms"), ("CPU", "cpu_ms")):
            rows.append({"size": g["size"], "clock": what, "puzzles": len(g[key]),
                         **_spread(g[key])})
    spec = _base("Symmetry puzzle generation time against board size", _subtitle(record))
    spec["data"] = {"values": rows}
    x = {"field": "size", "type": "ordinal", "title": "board size N (N x N)",
         "axis": {"labelAngle": 0}}
    y_scale = {"type": "log"}
    spec["layer"] = [
        {"mark": {"type": "rule", "strokeWidth": 3},
         "encoding": {"x": x, "y": {"field": "p10", "type": "quantitative", "scale": y_scale,
                                    "title": "ms per puzzle (median, p10-p90; log scale)"},
                      "y2": {"field": "p90"}, "color": {"field": "clock", "title": None},
                      "xOffset": {"field": "clock"}}},
        {"mark": {"type": "point", "filled": True, "size": 60},
         "encoding": {"x": x, "y": {"field": "median", "type": "quantitative",
                                    "scale": y_scale},
                      "color": {"field": "clock", "title": None},
                      "xOffset": {"field": "clock"}}},
    ]
    return spec


def noguess_vs_toollib(record):
    """No-guess board generation, levelforge against ms_toollib: median and p10-p90."""
    rows = []
    for g in record["data"]["noguess_vs_ms_toollib"]:
        for who, key in (("levelforge (perturbation)", "levelforge_ms"),
                         ("ms_toollib laymine_solvable", "ms_toollib_ms")):
            rows.append({"board": g["level"], "generator": who, "boards": len(g[key]),
                         **_spread(g[key])})
    spec = _base("No-guess board generation: levelforge against ms_toollib",
                 _subtitle(record))
    spec["data"] = {"values": rows}
    x = {"field": "board", "type": "nominal", "title": "board (width x height x 1 - mines)",
         "sort": None, "axis": {"labelAngle": 0}}
    y_scale = {"type": "log"}
    spec["layer"] = [
        {"mark": {"type": "rule", "strokeWidth": 3},
         "encoding": {"x": x, "y": {"field": "p10", "type": "quantitative", "scale": y_scale,
                                    "title": "ms per board (median, p10-p90; log scale)"},
                      "y2": {"field": "p90"}, "color": {"field": "generator", "title": None},
                      "xOffset": {"field": "generator"}}},
        {"mark": {"type": "point", "filled": True, "size": 60},
         "encoding": {"x": x, "y": {"field": "median", "type": "quantitative",
                                    "scale": y_scale},
                      "color": {"field": "generator", "title": None},
                      "xOffset": {"field": "generator"}}},
    ]
    return spec


CHARTS = {"campaign": campaign_pushes, "runs": solve_time, "generation": generation_by_size,
          "noguess_vs_ms_toollib": noguess_vs_toollib}
"""Which chart a JSON file gets, by the key of its ``data``."""


def main(argv=None):
    names = argv if argv else sorted(f for f in os.listdir(HERE) if f.endswith(".json"))
    for name in names:
        path = os.path.join(HERE, os.path.basename(name))
        with open(path, encoding="utf-8") as fh:
            record = json.load(fh)
        (key,) = [k for k in record["data"] if k in CHARTS]
        svg = vlc.vegalite_to_svg(CHARTS[key](record))
        target = path[:-len(".json")] + ".svg"
        with open(target, "w", encoding="utf-8") as fh:
            fh.write(svg)
        print(f"{os.path.relpath(target)}: {len(svg) // 1024} kB")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
