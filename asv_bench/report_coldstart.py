"""Cold and warm start: how long a fresh process takes before it can work, per system and
for the README's main command, and which kernels dominate the compile.

Cold: a fresh process with an empty ``NUMBA_CACHE_DIR`` (a new temporary folder), so every
kernel it needs is compiled. Warm: a fresh process on the cache the cold run left, so every
kernel is loaded. Times are seconds of the whole process (interpreter start, imports,
compile or load, the work), each the median of ``--repeats`` runs: wall-clock, and CPU
(user + system, the process and its workers), which a busy machine inflates far less.

    python asv_bench/report_coldstart.py [--repeats 1] [--systems sokoban ...] [--top 12]

Prints markdown tables: per system (``levelforge.warmup.warm_up``, what
``levelforge warm-up SYSTEM`` runs), per command, and the kernels with the most compile
time in a cold run of each system (self time: the kernel's own compile, its callees' taken
out; n: how many type specialisations were compiled).
"""
import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

COMMANDS = [
    ["sokoban", "generate", "--count", "100", "--seed", "1", "-o", "levels.xsb"],
    ["batch", "sokoban", "--count", "2000", "--seed", "1", "--jobs", "2", "-o", "levels.jsonl"],
]

CHILD = r"""
import json, sys, time
start = time.perf_counter()
from collections import defaultdict
from numba.core import event

stack, own, total, count = [], defaultdict(float), defaultdict(float), defaultdict(int)


class Recorder(event.Listener):
    def on_start(self, ev):
        stack.append([ev.data["dispatcher"].py_func, time.perf_counter(), 0.0])

    def on_end(self, ev):
        fn, t, inner = stack.pop()
        dt = time.perf_counter() - t
        name = fn.__module__.rsplit(".", 1)[-1] + "." + fn.__name__
        own[name] += dt - inner
        total[name] += dt
        count[name] += 1
        if stack:
            stack[-1][2] += dt


event.register("numba:compile", Recorder())
from levelforge.warmup import warm_up

(result,) = warm_up([sys.argv[1]])
print(json.dumps({"warm_up": result.seconds, "compiled": result.compiled,
                  "kernels": {k: [own[k], total[k], count[k]] for k in own}}))
"""


def _env(cache):
    env = dict(os.environ, NUMBA_CACHE_DIR=cache)
    env.pop("NUMBA_DISABLE_JIT", None)
    return env


def _cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def _timed(argv, cache, cwd):
    """``(wall s, cpu s, stdout)`` of running ``argv`` to its end."""
    t, c = time.perf_counter(), _cpu()
    out = subprocess.run(argv, env=_env(cache), cwd=cwd, capture_output=True, text=True)
    took = (time.perf_counter() - t, _cpu() - c)
    if out.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed:\n{out.stderr}")
    return took, out.stdout


def _median(pairs):
    return tuple(statistics.median(p[k] for p in pairs) for k in (0, 1))


def _s(pair):
    return f"{pair[0]:.1f} s / {pair[1]:.1f} s"


def _system(name, repeats):
    cold, warm, inner, kernels = [], [], [], {}
    for _ in range(repeats):
        with tempfile.TemporaryDirectory() as cache, tempfile.TemporaryDirectory() as cwd:
            took, out = _timed([sys.executable, "-c", CHILD, name], cache, cwd)
            data = json.loads(out.splitlines()[-1])
            assert data["compiled"], f"{name}: nothing was compiled with an empty cache"
            cold.append(took)
            inner.append(data["warm_up"])
            kernels = data["kernels"]
            took, out = _timed([sys.executable, "-c", CHILD, name], cache, cwd)
            assert not json.loads(out.splitlines()[-1])["kernels"], f"{name}: recompiled"
            warm.append(took)
    return _median(cold), statistics.median(inner), _median(warm), kernels


def _command(argv, repeats):
    exe = [sys.executable, "-m", "levelforge", *argv]
    cold, warm = [], []
    for _ in range(repeats):
        with tempfile.TemporaryDirectory() as cache, tempfile.TemporaryDirectory() as cwd:
            cold.append(_timed(exe + ["--no-progress"], cache, cwd)[0])
            os.remove(os.path.join(cwd, argv[-1]))  # a new file, not "already complete"
            warm.append(_timed(exe + ["--no-progress"], cache, cwd)[0])
    return _median(cold), _median(warm)


def main(argv=None):
    from levelforge.warmup import SYSTEMS
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=1)
    ap.add_argument("--systems", nargs="*", default=list(SYSTEMS), choices=list(SYSTEMS))
    ap.add_argument("--top", type=int, default=12, help="kernels listed per system")
    ap.add_argument("--no-commands", action="store_true", help="skip the command rows")
    args = ap.parse_args(argv)
    print(f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} at the start; "
          f"median of {args.repeats} run(s); fresh processes; wall-clock / CPU seconds\n")
    print("| system (`levelforge warm-up SYSTEM`) | cold start | of which compiling (wall) | "
          "warm start |")
    print("|---|---:|---:|---:|")
    profiles = {}
    for name in args.systems:
        cold, inner, warm, profiles[name] = _system(name, args.repeats)
        print(f"| {name} | {_s(cold)} | {inner:.1f} s | {_s(warm)} |", flush=True)
    if not args.no_commands:
        print("\n| command | cold start | warm start |")
        print("|---|---:|---:|")
        for cmd in COMMANDS:
            cold, warm = _command(cmd, args.repeats)
            print(f"| `levelforge {' '.join(cmd)}` | {_s(cold)} | {_s(warm)} |", flush=True)
    for name, kernels in profiles.items():
        whole = sum(v[0] for v in kernels.values())
        print(f"\n{name}: {len(kernels)} kernels compiled, {whole:.1f} s in all; the top "
              f"{min(args.top, len(kernels))} by own compile time\n")
        print("| kernel | own s | with callees s | n |")
        print("|---|---:|---:|---:|")
        for k, (own, total, n) in sorted(kernels.items(), key=lambda kv: -kv[1][0])[:args.top]:
            print(f"| `{k}` | {own:.2f} | {total:.2f} | {n} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
