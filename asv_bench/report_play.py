"""Play-server figures: how fast the gallery opens a big batch file, how long a move, a
check, a Minesweeper click, a hint or a second of a defense wave takes over HTTP, and
(with a Chromium) how long the gallery page takes to show.

    python asv_bench/report_play.py [--items 10000] [--repeats 15] [--no-browser]

Each figure is the median of ``--repeats`` runs on a local server (uvicorn in a thread,
requests over real HTTP with httpx). Prints a markdown table.
"""
import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
import time

import httpx

from levelforge import batch, play, sokoban, symmetry
from levelforge.play.files import open_file


def _median_ms(fn, repeats):
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t) * 1e3)
    return statistics.median(times)


def _browser_ms(url, repeats):
    """Median ms from navigation to the first page of thumbnails and every histogram."""
    from playwright.sync_api import sync_playwright
    path = shutil.which("chromium") or shutil.which("chromium-browser")
    if path is None:
        return None
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=path, args=["--no-sandbox",
                                                                "--disable-gpu"])
        page = browser.new_page(viewport={"width": 1280, "height": 860})
        times = {"home": [], "thumbs": [], "charts": []}
        for _ in range(repeats):
            t = time.perf_counter()
            page.goto(url)
            page.wait_for_selector("#gallery-text b", timeout=120_000)
            times["home"].append((time.perf_counter() - t) * 1e3)
            t = time.perf_counter()
            page.goto(url + "gallery")
            page.wait_for_selector('body[data-state="ready"]', timeout=120_000)
            times["thumbs"].append((time.perf_counter() - t) * 1e3)
            page.wait_for_function("document.querySelectorAll('.chart svg').length === "
                                   "document.querySelectorAll('.chart').length",
                                   timeout=120_000)
            times["charts"].append((time.perf_counter() - t) * 1e3)
        browser.close()
    return {k: statistics.median(v) for k, v in times.items()}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--items", type=int, default=10_000)
    ap.add_argument("--repeats", type=int, default=15)
    ap.add_argument("--no-browser", action="store_true")
    args = ap.parse_args(argv)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "levels.jsonl")
        batch.run(sokoban.Generator(width=7, height=7, boxes=2, pushes=(4, 8)), args.items,
                  seed=1, path=path, show_progress=False)
        size_mb = os.path.getsize(path) / 1e6
        opened = open_file(path)
        rows.append((f"read a {args.items:,}-level batch file ({size_mb:.1f} MB JSONL)",
                     _median_ms(lambda: open_file(path), max(3, args.repeats // 3))))
        records = [json.loads(line) for line in open(path)]
        proof = records[0]
        sokoban.solve(sokoban.read_xsb(proof["level"])[0])  # kernels loaded before timing
        puzzle = symmetry.generate(7, 3)
        with play.running(path) as url, httpx.Client(base_url=url, timeout=120) as client:
            summary = client.get("/api/gallery")
            rows.append((f"`GET /api/gallery`: every figure of {opened.count:,} levels "
                         f"({len(summary.content) / 1e3:.0f} kB)",
                         _median_ms(lambda: client.get("/api/gallery"), args.repeats)))
            rows.append(("`GET /api/gallery/items`: one page, 48 thumbnails", _median_ms(
                lambda: client.get("/api/gallery/items?page=3"), args.repeats)))
            rows.append(("the same page, filtered by pushes and ms", _median_ms(
                lambda: client.get("/api/gallery/items?pushes=6-7&elapsed_ms=-1&page=3"),
                args.repeats)))
            xsb = sokoban.read_xsb(proof["level"])[0].to_xsb()
            moves = proof["solution"][:-1]

            def move():
                client.post("/api/sokoban/move", json={"xsb": xsb, "moves": moves,
                                                       "action": proof["solution"][-1]})
            move()
            rows.append((f"`POST /api/sokoban/move` ({len(moves)} moves replayed, the last "
                         "push solves: the optimum comes from the cache)",
                         _median_ms(move, args.repeats)))
            body = {"size": 7, "board_a": puzzle.board_a.to_dict(),
                    "board_b": puzzle.board_b.to_dict(),
                    "path": [list(p) for p in puzzle.solution]}
            rows.append(("`POST /api/symmetry/check` (7x7, the 49-point answer)", _median_ms(
                lambda: client.post("/api/symmetry/check", json=body), args.repeats)))
            game = client.get("/api/mines/new?level=hard&seed=3&start=5,5,0").json()
            closed = [i for i, st in enumerate(game["state"]) if st == 0 and game["selectable"][i]]
            cells = [[i % 10, i // 10 % 10, i // 100] for i in closed]

            def flag():
                client.post("/api/mines/act", json={"game": game["game"], "action": "flag",
                                                    "cell": cells[0]})
            rows.append(("`POST /api/mines/act` on `hard` (10x10x10: the public observation "
                         "back, 1,000 cells)", _median_ms(flag, args.repeats)))
            for exact in (0, 1):
                rows.append((f"`GET /api/mines/hint` on `hard` after the first click"
                             f"{', exact probabilities' if exact else ''}", _median_ms(
                                 lambda: client.get(f"/api/mines/hint?game={game['game']}"
                                                    f"&exact={exact}"), args.repeats)))
            rows.append(("`GET /api/defense/new`: a game's state with check_placement for "
                         "every cell and both buildings", _median_ms(
                             lambda: client.get("/api/defense/new?seed=1"), args.repeats)))

            def second_of_wave():
                gid = client.get("/api/defense/new?seed=1").json()["game"]
                t = time.perf_counter()
                client.post("/api/defense/fight", json={"game": gid, "step": 1, "frames": 60})
                return (time.perf_counter() - t) * 1e3
            rows.append(("`POST /api/defense/fight`: one second of a wave at 1x (60 frames)",
                         statistics.median(second_of_wave() for _ in range(args.repeats))))
            if not args.no_browser:
                shown = _browser_ms(url, max(3, args.repeats // 3))
                if shown is None:
                    print("no Chromium found: browser rows skipped", file=sys.stderr)
                else:
                    rows.append(("Chromium: the start page, for comparison (loaded, and its "
                                 "one request answered)", shown["home"]))
                    rows.append(("Chromium: gallery page to its first 48 thumbnails",
                                 shown["thumbs"]))
                    rows.append(("Chromium: gallery page to every histogram drawn",
                                 shown["charts"]))
    print(f"| figure ({args.items:,} Sokoban levels, median of {args.repeats}) | ms |")
    print("|---|---:|")
    for name, ms in rows:
        print(f"| {name} | {ms:.1f} |")


if __name__ == "__main__":
    main()
