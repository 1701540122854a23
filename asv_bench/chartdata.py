"""The ``--json FILE`` output of the report scripts: what a chart in docs/figures/ is
drawn from (``python docs/figures/charts.py``).

The file holds the measurements, the command that made them (so the figures page can
say it) and the machine's load average when the run ended (a loaded machine's timings
are noisy; counts are not).
"""
import json
import os
import platform
import shlex
import sys
import time


def save(path, data):
    """Write ``data`` (JSON-ready) to ``path`` with the command line and the machine."""
    if not path:
        return
    record = {"command": shlex.join(["python", *sys.argv]),
              "date": time.strftime("%Y-%m-%d", time.gmtime()),
              "python": platform.python_version(), "cpus": os.cpu_count(),
              "load_average": [round(x, 1) for x in os.getloadavg()], "data": data}
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(record, fh, indent=1)
        fh.write("\n")
    print(f"(chart data written to {path})", file=sys.stderr)
