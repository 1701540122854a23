"""Workers die with their parent; Ctrl-C and SIGTERM are prompt and keep finished work
(issue 9, part 3).

Each test starts its own batch in a child process (``jobs=2`` worker processes, toy items
that sleep through signals the way a Numba kernel or Z3 does) and signals only that child
or its own process group. The wall-clock bounds are the behaviour promised to users
(exit within 2 s of Ctrl-C, orphans gone within 5 s), not performance targets: the pool
stops workers after a 0.8 s grace period, so the bounds leave more than a second of
margin for a loaded machine.
"""
import json
import os
import signal
import subprocess
import sys
import time

import pytest

from levelforge import BatchItemError, WorkerError, batch
from levelforge.seeding import item_seed

from batch_toys import Toy

HERE = os.path.dirname(__file__)
linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                reason="reads /proc to find the worker processes")

SCRIPT = """
import sys
sys.path.insert(0, {here!r})
from levelforge import batch
from batch_toys import Toy
s = batch.run(Toy(sleep_ms={sleep}, log={log!r}), {count}, seed=4, path={path!r},
              timings=False, show_progress=False, jobs={jobs})
sys.exit(s.report())
"""


def _start(tmp_path, sleep, count=40, jobs=2):
    path, log = tmp_path / "out.jsonl", tmp_path / "log.txt"
    code = SCRIPT.format(here=HERE, sleep=sleep, log=str(log), count=count, path=str(path),
                         jobs=jobs)
    proc = subprocess.Popen([sys.executable, "-c", code], stderr=subprocess.PIPE, text=True,
                            start_new_session=True)  # its own process group, like a shell job
    return proc, path, log


def _lines(path):
    return path.read_bytes().count(b"\n") if path.exists() else 0


def sigint_default():
    """``preexec_fn`` of a child that a test stops with SIGINT: Python turns SIGINT into
    KeyboardInterrupt only when it is not ignored at startup, and a shell that runs the
    tests in the background (``nohup``, ``&``) ignores it for all its children."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _wait_for(condition, timeout=120.0):
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.01)


def _children(pid):
    kids = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as fh:
                    fields = fh.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                kids.append(int(entry))
    return kids


def _alive(pid):
    """Running (a zombie, killed but not yet reaped by init, counts as gone)."""
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def _finished(log):
    """Indices of the items that finished (from the toy's log), and the warm-up pids."""
    index = {item_seed(4, i): i for i in range(200)}
    done, warm = set(), []
    for line in log.read_text().splitlines():
        a, b = line.split()
        if a == "warm":
            warm.append(int(b))
        else:
            done.add(index[int(a)])
    return done, warm


def _prefix(done):
    n = 0
    while n in done:
        n += 1
    return n


def _reference(tmp_path, count=40):
    ref = tmp_path / "ref.jsonl"
    batch.run(Toy(), count, seed=4, path=str(ref), timings=False, show_progress=False)
    return ref.read_bytes()


@linux_only
@pytest.mark.parametrize("twice", [False, True])
def test_ctrl_c_exits_within_2_s_keeping_finished_items_then_resume_is_identical(tmp_path,
                                                                                 twice):
    proc, path, log = _start(tmp_path, sleep=1500)
    _wait_for(lambda: _lines(path) >= 2)
    start = time.monotonic()
    os.killpg(proc.pid, signal.SIGINT)  # what Ctrl-C in a terminal does
    if twice:  # a second Ctrl-C never hangs
        time.sleep(0.1)
        os.killpg(proc.pid, signal.SIGINT)
    err = proc.communicate(timeout=60)[1]
    took = time.monotonic() - start
    assert proc.returncode == 130 and took < 2.0, (took, err)
    assert "Traceback" not in err and "interrupted (Ctrl-C)" in err and "resume" in err
    done, _ = _finished(log)
    assert _lines(path) == _prefix(done) >= 2  # every item made before the first unfinished
    lines = path.read_text().splitlines()
    assert [json.loads(x)["index"] for x in lines] == list(range(len(lines)))
    s = batch.run(Toy(), 40, seed=4, path=str(path), timings=False, show_progress=False)
    assert s.resumed_from == len(lines) and path.read_bytes() == _reference(tmp_path)


@linux_only
def test_sigterm_is_handled_like_ctrl_c_with_exit_code_143(tmp_path):
    proc, path, log = _start(tmp_path, sleep=1500)
    _wait_for(lambda: _lines(path) >= 2)
    workers = _children(proc.pid)
    start = time.monotonic()
    proc.send_signal(signal.SIGTERM)  # the parent alone, as a service manager would
    err = proc.communicate(timeout=60)[1]
    assert proc.returncode == 143 and time.monotonic() - start < 2.0, err
    assert "interrupted (SIGTERM)" in err and "resume" in err and "Traceback" not in err
    assert not any(_alive(w) for w in workers)
    assert _lines(path) == _prefix(_finished(log)[0])
    batch.run(Toy(), 40, seed=4, path=str(path), timings=False, show_progress=False)
    assert path.read_bytes() == _reference(tmp_path)


@linux_only
def test_orphan_workers_are_gone_within_5_s_of_the_parents_sigkill(tmp_path):
    proc, path, log = _start(tmp_path, sleep=60_000)  # workers deep in a long item
    _wait_for(lambda: len(_children(proc.pid)) == 2)
    workers = _children(proc.pid)
    proc.kill()
    proc.communicate(timeout=60)
    start = time.monotonic()
    while any(_alive(w) for w in workers) and time.monotonic() - start < 5.0:
        time.sleep(0.02)
    assert not any(_alive(w) for w in workers)


@linux_only
def test_first_record_reaches_the_file_soon_after_the_first_finished_item(tmp_path):
    proc, path, log = _start(tmp_path, sleep=1000, count=100, jobs=1)
    _wait_for(lambda: _lines(path) >= 1)
    seen = time.time()
    proc.kill()
    proc.communicate(timeout=60)
    finished = min(float(x.split()[1]) for x in log.read_text().splitlines()
                   if not x.startswith("warm"))
    assert seen - finished < 1.0  # not after a whole chunk: items stream back one by one


def test_workers_stream_items_within_a_long_chunk(tmp_path):
    out = tmp_path / "out.jsonl"
    seen = []
    code = SCRIPT.replace("jobs={jobs})", "jobs={jobs}, chunk_size=50)")
    proc = subprocess.Popen([sys.executable, "-c", code.format(
        here=HERE, sleep=200, log="", count=50, path=str(out), jobs=1)],
        stderr=subprocess.DEVNULL)
    try:
        _wait_for(lambda: _lines(out) >= 1)
        seen.append(_lines(out))
    finally:
        proc.kill()
        proc.communicate(timeout=60)
    assert 1 <= seen[0] < 50  # records arrived before the 50-item chunk was done


@linux_only
def test_a_killed_worker_gives_one_line_with_the_items_kept_and_the_resume_command(tmp_path):
    out = tmp_path / "levels.jsonl"
    argv = ["batch", "sokoban", "--count", "1000000", "--seed", "3", "--jobs", "2",
            "--no-timings", "--no-progress", "-o", str(out)]
    proc = subprocess.Popen([sys.executable, "-m", "levelforge", *argv],
                            stderr=subprocess.PIPE, text=True)
    _wait_for(lambda: _lines(out) >= 50)
    victim = _children(proc.pid)[0]
    os.kill(victim, signal.SIGKILL)
    err = proc.communicate(timeout=120)[1]
    assert proc.returncode == 1 and "Traceback" not in err
    (line,) = [x for x in err.splitlines() if x.strip()]
    kept = _lines(out)
    assert f"worker process {victim} was killed by SIGKILL" in line
    assert f"{out} holds {kept} whole items" in line
    assert "resume with: levelforge batch sokoban --count 1000000" in line


def test_the_pool_gives_the_byte_identical_file(tmp_path):
    ref = _reference(tmp_path, 300)
    for jobs in (1, 2):
        p = tmp_path / f"jobs{jobs}.jsonl"
        s = batch.run(Toy(), 300, seed=4, path=str(p), timings=False, show_progress=False,
                      jobs=jobs)
        assert p.read_bytes() == ref and s.total == 300


def test_failing_item_in_the_pool_reports_its_seed_after_every_earlier_item(tmp_path):
    seeds = [item_seed(1, i) for i in range(200)]
    first_bad = next(i for i, s in enumerate(seeds) if s % 1000 < 100)
    p = tmp_path / "a.jsonl"
    with pytest.raises(BatchItemError) as info:
        batch.run(Toy(fail_below=100), 200, seed=1, path=str(p), timings=False,
                  show_progress=False, jobs=2)
    assert info.value.seed == seeds[first_bad] and info.value.kept == (str(p), first_bad)
    assert _lines(p) == first_bad


class _Crash(Toy):
    def generate(self, seed):
        os._exit(3)


def test_a_crashing_worker_raises_a_worker_error(tmp_path):
    with pytest.raises(WorkerError, match="exited with code 3"):
        batch.run(_Crash(), 10, seed=1, path=str(tmp_path / "a.jsonl"), show_progress=False,
                  jobs=2)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="workers are forked on Linux")
def test_kernels_are_warmed_once_in_the_parent_not_in_every_worker(tmp_path):
    log = tmp_path / "log.txt"
    batch.run(Toy(modulus=991, log=str(log)), 50, seed=4, path=str(tmp_path / "a.jsonl"),
              show_progress=False, jobs=2)  # a configuration this process has not warmed
    warm = [line for line in log.read_text().splitlines() if line.startswith("warm")]
    assert warm == [f"warm {os.getpid()}"]
