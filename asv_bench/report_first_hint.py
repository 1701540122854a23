"""How long a new user of ``levelforge play`` waits for the Minesweeper assistant.

    python asv_bench/report_first_hint.py [--repeats 3]

Each run starts ``levelforge play --no-browser`` in a fresh process with a fresh, empty
``NUMBA_CACHE_DIR`` (a first run on a new machine) and polls ``GET /api/status`` every
0.1 s. It records when the server first answers, when the mines kernels are ready (the
first hint answers at once from then on), and when every system is ready; then it asks
``/api/mines/hint`` once and times that answer. A second table does the same with the
cache the first run filled (every later start). Prints markdown tables of medians.
"""
import argparse
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time

import httpx


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _client(port):
    base = f"http://127.0.0.1:{port}"
    return httpx.Client(base_url=base, timeout=120,
                        headers={"Origin": base, "Content-Type": "application/json"})


def _poll(client, t0, marks, timeout):
    """Poll /api/status until every system is ready; fill ``marks`` with elapsed times."""
    while time.perf_counter() - t0 < timeout:
        try:
            status = client.get("/api/status").json()
        except httpx.TransportError:
            time.sleep(0.1)
            continue
        now = time.perf_counter() - t0
        marks.setdefault("server answers", now)
        if status["systems"]["mines"]["state"] == "ready":
            marks.setdefault("mines assistant ready", now)
        if status["ready"]:
            marks["every system ready"] = now
            return
        time.sleep(0.1)
    raise RuntimeError(f"the server was not ready within {timeout} s: {marks}")


def one_start(cache_dir, timeout=600.0):
    """Seconds from ``levelforge play`` start to each mark, and the first hint's time."""
    port = _free_port()
    env = dict(os.environ, NUMBA_CACHE_DIR=cache_dir)
    t0 = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "levelforge", "play", "--no-browser",
                             "--port", str(port)], env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    marks = {}
    try:
        with _client(port) as client:
            _poll(client, t0, marks, timeout)
            game = client.get("/api/mines/new", params={"level": "30x16x1-99", "seed": 1,
                                                          "start": "3,3,0"})
            game.raise_for_status()
            t = time.perf_counter()
            client.get("/api/mines/hint", params={"game": game.json()["game"], "exact": 1}
                       ).raise_for_status()
            marks["then a hint answers"] = time.perf_counter() - t
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    return marks


def table(title, runs):
    keys = list(runs[0])
    head = f"| {title} (median of {len(runs)}) | " + " | ".join(keys) + " |"
    return "\n".join([head, "|---|" + "---|" * len(keys),
                      "| seconds | " + " | ".join(
                          f"{statistics.median(r[k] for r in runs):.2f}" for k in keys)
                      + " |",
                      "| each run | " + " | ".join(
                          ", ".join(f"{r[k]:.2f}" for r in runs) for k in keys) + " |"])


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args(argv)
    cold, warm = [], []
    for _ in range(args.repeats):
        with tempfile.TemporaryDirectory() as d:
            cold.append(one_start(d))
            warm.append(one_start(d))
    print(table("`levelforge play`, fresh cache", cold))
    print()
    print(table("`levelforge play`, cache filled", warm))


if __name__ == "__main__":
    sys.exit(main())
