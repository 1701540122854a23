"""A long solve under a memory ceiling: does it stop with ``limit``, or is it killed?
And how much memory does a long solve take at its peak?

    python asv_bench/report_memory.py [--ceiling 2G] [--ways cgroup,rlimit,none]
                                      [--rows 64x64/128 | --xsb FILE --levels 64,79]
                                      [--mode optimal|any]
                                      [--time-limit 300] [--max-nodes 67108864]
                                      [--python PATH]

Each row runs one solve of a big room (``tests/rooms.py``, seed 1: far more search than
the memory holds) in a child process with the largest ``--max-nodes`` the solver takes,
so that only the memory can stop it before ``--time-limit``, under a ceiling set one of
two ways:

- ``cgroup``: a memory cgroup of ``--ceiling`` bytes made for the child under the
  report's own (Linux, root, a writable cgroup file system: v1 ``memory`` or v2): what a
  container's limit does. Past it the kernel kills the process (the OOM killer).
- ``rlimit``: an address-space limit (``ulimit -v``, ``RLIMIT_AS``), set by the child
  once its kernels are loaded, of its address space then plus ``--ceiling``: past it
  an allocation fails (``MemoryError``). Unprivileged.
- ``none``: no ceiling: the peak RSS the solve takes. With ``--time-limit 0`` (no clock)
  and a ``--max-nodes`` the search reaches, the solve is the same state for state on
  any machine, so its peak RSS compares code versions (``--python``).

``--xsb`` and ``--levels`` (1-based) solve levels of a collection instead of rooms.

The table gives how the child ended (``exit 0``, ``killed (signal 9)``, or the exception
it died of), the solve's status and ``limit_by``, its stored states and seconds, and the
child's peak RSS (``wait4``). ``--python`` runs the child with another interpreter (an
older checkout's environment, to compare).
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

CHILD = """
import json, sys, resource
sys.path.insert(0, {tests!r})
from rooms import room
from levelforge.sokoban import Solver, load_xsb
w, h, n = {row}
solver = Solver(max_nodes={nodes})
solver.solve(room(10, 10, 3), max_nodes=1000, optimal={optimal})  # kernels loaded
if {rlimit}:
    with open("/proc/self/status") as f:
        vm = next(int(l.split()[1]) * 1024 for l in f if l.startswith("VmSize:"))
    resource.setrlimit(resource.RLIMIT_AS, (vm + {rlimit}, vm + {rlimit}))
level = room(w, h, n) if {xsb!r} is None else load_xsb({xsb!r})[n - 1]
r = solver.solve(level, time_limit={limit}, optimal={optimal})
print(json.dumps({{"status": r.status, "limit_by": r.limit_by, "nodes": r.nodes,
                  "seconds": r.elapsed_ms / 1000}}), flush=True)
"""


def size(text):
    """Bytes of ``2G``, ``512M`` or a plain number."""
    units = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
    text = text.strip().upper()
    return int(float(text[:-1]) * units[text[-1]]) if text[-1] in units else int(text)


def own_cgroup():
    """``(version, directory)`` of this process's memory cgroup, or None."""
    with open("/proc/self/cgroup") as f:
        for line in f.read().splitlines():
            _, controllers, path = line.split(":", 2)
            if controllers == "" and os.path.exists("/sys/fs/cgroup/cgroup.controllers"):
                return 2, "/sys/fs/cgroup" + path
            if "memory" in controllers.split(","):
                return 1, "/sys/fs/cgroup/memory" + path
    return None


def cgroup_child(ceiling):
    """A new memory cgroup of ``ceiling`` bytes: ``(directory, preexec function)``."""
    found = own_cgroup()
    if found is None:
        raise SystemExit("no memory cgroup found for this process")
    version, parent = found
    path = os.path.join(parent, f"levelforge-report-{os.getpid()}")
    os.mkdir(path)
    limit = "memory.max" if version == 2 else "memory.limit_in_bytes"
    with open(os.path.join(path, limit), "w") as f:
        f.write(str(ceiling))
    swap = "memory.swap.max" if version == 2 else "memory.memsw.limit_in_bytes"
    if os.path.exists(os.path.join(path, swap)):
        with open(os.path.join(path, swap), "w") as f:
            f.write(str(ceiling if version == 1 else 0))

    def enter():
        with open(os.path.join(path, "cgroup.procs"), "w") as f:
            f.write(str(os.getpid()))
    return path, enter


def run(way, ceiling, args, row):
    """One child's solve under the ceiling: ``(how it ended, its result as a dict, wall
    seconds, peak RSS in MB)``."""
    code = CHILD.format(tests=os.path.join(ROOT, "tests"), row=row, nodes=args.max_nodes,
                        optimal=args.mode == "optimal", limit=args.time_limit or None,
                        rlimit=ceiling if way == "rlimit" else 0, xsb=args.xsb)
    if way not in ("cgroup", "rlimit", "none"):
        raise SystemExit(f"unknown way {way!r}: cgroup, rlimit or none")
    path, enter = cgroup_child(ceiling) if way == "cgroup" else (None, None)
    t = time.perf_counter()
    with tempfile.TemporaryFile("w+") as err:
        child = subprocess.Popen([args.python, "-c", code], stdout=subprocess.PIPE,
                                 stderr=err, text=True, preexec_fn=enter)
        out = child.stdout.read()
        _, status, usage = os.wait4(child.pid, 0)
        child.returncode = rc = os.waitstatus_to_exitcode(status)
        err.seek(0)
        lines = err.read().strip().splitlines()
    wall = time.perf_counter() - t
    if path is not None:
        os.rmdir(path)
    if rc < 0:
        ended = f"killed (signal {-rc})"
    elif rc == 0:
        ended = "exit 0"
    else:
        ended = f"exit {rc}: {lines[-1][:60] if lines else ''}"
    got = json.loads(out.strip().splitlines()[-1]) if rc == 0 else {}
    return ended, got, wall, usage.ru_maxrss / 1024


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--ceiling", default="2G")
    ap.add_argument("--ways", default="cgroup,rlimit")
    ap.add_argument("--rows", default="64x64/128")
    ap.add_argument("--xsb", help="a collection whose --levels are solved instead of rooms")
    ap.add_argument("--levels", help="1-based level numbers of --xsb, e.g. 64,79")
    ap.add_argument("--mode", choices=("optimal", "any"), default="optimal")
    ap.add_argument("--time-limit", type=float, default=300.0, help="seconds; 0: none")
    ap.add_argument("--max-nodes", type=int, default=1 << 26)
    ap.add_argument("--python", default=sys.executable)
    args = ap.parse_args()
    if (args.xsb is None) != (args.levels is None):
        ap.error("--xsb and --levels go together")
    ceiling = size(args.ceiling)
    if args.xsb is not None:
        args.xsb = os.path.abspath(args.xsb)
        rows = [(k, (0, 0, int(k))) for k in args.levels.split(",")]
    else:
        rows = []
        for spec in args.rows.split(","):
            dims, nbox = spec.split("/")
            w, h = (int(x) for x in dims.split("x"))
            rows.append((spec, (w, h, int(nbox))))
    print(f"| way (ceiling {args.ceiling}) | board | mode | child | status | limit_by | "
          "stored states | s | peak RSS MB |")
    print("|---|---|---|---|---|---|---|---|---|")
    for way in args.ways.split(","):
        for spec, row in rows:
            ended, got, wall, rss = run(way, ceiling, args, row)
            print(f"| {way} | {spec} | {args.mode} | {ended} | {got.get('status', '-')} | "
                  f"{got.get('limit_by', '-')} | {got.get('nodes', '-')} | "
                  f"{got.get('seconds', wall):.1f} | {rss:,.0f} |", flush=True)


if __name__ == "__main__":
    main()
