"""Where a Sokoban solve spends its time, kernel by kernel: a sampling profile with Linux
``perf``, the compiled Numba functions named.

    python asv_bench/report_profile.py --xsb XSokoban_90.xsb --levels 40 --nodes 1000000
    python asv_bench/report_profile.py --xsb XSokoban_90.xsb --levels 40 --mode any --limit 60

``perf`` cannot name machine code that Numba made at run time, so the solving process
writes ``/tmp/perf-<pid>.map`` (the address and size of each compiled function, the
format perf reads for code made at run time) once its kernels are loaded, and this
script runs it under ``perf record`` and prints a table: the share of the samples in
each function (its own time, callees not included; a small function that LLVM inlined
counts in its caller), named ``module.function``. ``--mode fess`` (the default) runs the
feature-space search alone under a node cap, as ``report_fess.py --forward-only`` does,
so the profile does not depend on the machine's speed; ``--mode any`` the whole
any-solution solve under ``--limit`` seconds, ``--mode optimal`` the push-optimal one.
A function's size is the distance to the next compiled function (Numba keeps no sizes
for code loaded from its cache), so the last function of each block of code may collect
a few stray samples. Run a solve once before (or `levelforge warm-up`): kernels compiled
during the profile put the compiler's time among the samples.
"""
import argparse
import gc
import os
import re
import shutil
import subprocess
import sys
import tempfile

from report_sokoban_solve import _numbers

TOP = 20


def demangle(name):
    """``module.function`` of a Numba symbol (``_ZN10levelforge6engine13sokoban_match8_add_rowB3v59...``
    gives ``levelforge.engine.sokoban_match._add_row``); other names unchanged."""
    if not name.startswith("_ZN"):
        return name
    parts, i = [], 3
    while i < len(name) and name[i].isdigit():
        m = re.match(r"\d+", name[i:])
        k = int(m.group())
        i += len(m.group())
        parts.append(name[i:i + k])
        i += k
    return ".".join(parts) if parts else name


def compiled_functions():
    """``{address: symbol}`` of every function Numba has compiled or loaded in this
    process (each dispatcher's libraries, looked up in its execution engine)."""
    from numba.core.registry import CPUDispatcher

    out = {}
    for obj in gc.get_objects():
        if type(obj) is not CPUDispatcher:  # (not isinstance: a dead weak proxy raises)
            continue
        for cres in obj.overloads.values():
            lib = cres.library
            engine = lib._codegen._engine._ee
            names = set()
            for module in (lib._final_module, getattr(lib, "_shared_module", None)):
                if module is not None:
                    names |= {f.name for f in module.functions}
            for name in names:
                address = engine.get_function_address(name)
                if address:
                    out[address] = name
    return out


def write_perf_map(path=None):
    """Write the perf map of :func:`compiled_functions` (``/tmp/perf-<pid>.map`` by
    default); returns how many functions it names."""
    items = sorted(compiled_functions().items())
    path = path or f"/tmp/perf-{os.getpid()}.map"
    with open(path, "w") as fh:
        for i, (address, name) in enumerate(items):
            size = items[i + 1][0] - address if i + 1 < len(items) else 1 << 16
            fh.write(f"{address:x} {min(size, 1 << 20):x} {name}\n")
    return len(items)


def shares(report_text):
    """``[(percent, name)]`` from ``perf report --stdio --no-children --sort sym``'s
    lines, the names demangled and the shares of one name added up, largest first."""
    total = {}
    for line in report_text.splitlines():
        m = re.match(r"\s*([\d.]+)%\s+\[[.k]\]\s+(\S+)", line)
        if m:
            name = demangle(m.group(2))
            total[name] = total.get(name, 0.0) + float(m.group(1))
    return sorted(((p, n) for n, p in total.items()), reverse=True)


def _child(args):
    """The profiled process: load the kernels, write the perf map, solve."""
    from levelforge.sokoban import Solver, load_xsb
    from report_fess import fess_only

    levels = load_xsb(args.xsb)
    if args.mode == "fess":
        solver = fess_only(args.nodes, backward=False)
        solve = lambda level: solver.solve(level, optimal=False)  # noqa: E731
    else:
        solver = Solver(max_nodes=50_000_000).warm_up()
        optimal = args.mode == "optimal"
        solve = lambda level: solver.solve(level, optimal=optimal,  # noqa: E731
                                           time_limit=args.limit)
    solve(levels[0])  # every kernel the solves below call is loaded now
    print(f"perf map: {write_perf_map()} compiled functions", file=sys.stderr, flush=True)
    with open(os.environ.get("REPORT_PROFILE_PID", os.devnull), "w") as fh:
        fh.write(str(os.getpid()))
    for k in args.levels:
        r = solve(levels[k - 1])
        print(f"level {k}: {r.status}, {r.nodes:,} stored states, {r.expanded:,} expanded",
              file=sys.stderr, flush=True)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--xsb", required=True, help="an XSB file (XSokoban is not bundled)")
    ap.add_argument("--levels", type=_numbers, required=True, help="e.g. 40 or 29,40")
    ap.add_argument("--mode", choices=("fess", "any", "optimal"), default="fess")
    ap.add_argument("--nodes", type=int, default=1_000_000,
                    help="--mode fess: stored states per level")
    ap.add_argument("--limit", type=float, default=60.0,
                    help="--mode any or optimal: seconds a level")
    ap.add_argument("--top", type=int, default=TOP, help="rows of the table")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        return _child(args)
    perf = shutil.which("perf")
    if perf is None:
        sys.exit("report_profile.py needs Linux perf on the PATH (e.g. apt-get install "
                 "linux-perf)")
    with tempfile.TemporaryDirectory() as tmp:
        data = os.path.join(tmp, "perf.data")
        cmd = [perf, "record", "-q", "-F", "999", "-o", data, "--", sys.executable,
               os.path.abspath(__file__), "--child", "--xsb", args.xsb, "--levels",
               ",".join(map(str, args.levels)), "--mode", args.mode, "--nodes",
               str(args.nodes), "--limit", str(args.limit)]
        pid_file = os.path.join(tmp, "pid")
        try:
            if subprocess.run(cmd, env={**os.environ, "REPORT_PROFILE_PID": pid_file}).returncode:
                sys.exit("the profiled run failed (its error is above; if perf may not "
                         "sample here: sysctl kernel.perf_event_paranoid=1, or run as root)")
            text = subprocess.run([perf, "report", "-i", data, "--stdio", "--no-children",
                                   "--sort", "sym"], check=True, capture_output=True,
                                  text=True).stdout
        finally:  # perf report reads the map: removed after it
            if os.path.exists(pid_file):
                with open(pid_file) as fh:
                    map_file = f"/tmp/perf-{fh.read().strip()}.map"
                if os.path.exists(map_file):
                    os.remove(map_file)
    rows = shares(text)
    print("\n| function | share of the samples |\n|---|---|")
    for p, name in rows[:args.top]:
        print(f"| `{name}` | {p:.1f}% |")
    rest = sum(p for p, _ in rows[args.top:])
    print(f"| (the other {max(len(rows) - args.top, 0)}) | {rest:.1f}% |")


if __name__ == "__main__":
    sys.exit(main())
