"""The commands' executors: a local pool is killed, not awaited, when the command is
interrupted, so Ctrl-C is prompt even while a worker runs a long task (issue 9, part 3),
and ``--config`` is read one way by every command.

The bounds are the behaviour promised to users (a prompt exit instead of waiting for a
task of a minute), with wide margins for a loaded machine, not performance targets.
"""
import os
import signal
import subprocess
import sys
import time

import pytest

from levelforge.batch.executors import open_executor, parse_config
from levelforge.errors import ConfigError

from test_batch_signals import _alive, _children, _wait_for, linux_only, sigint_default


@linux_only
def test_an_interrupted_local_pool_kills_its_busy_workers_at_once():
    before = set(_children(os.getpid()))   # other tests' helpers (a browser driver, ...)
    with pytest.raises(KeyboardInterrupt):
        with open_executor(jobs=2) as pool:
            task = pool.submit(time.sleep, 60)
            _wait_for(lambda: task.running()
                      and len(set(_children(os.getpid())) - before) >= 2, 60)
            workers = set(_children(os.getpid())) - before
            t0 = time.monotonic()
            raise KeyboardInterrupt
    assert time.monotonic() - t0 < 10      # the 60 s task was not awaited
    assert not any(_alive(pid) for pid in workers)


def test_a_pool_left_normally_finishes_its_tasks():
    with open_executor(jobs=2) as pool:
        futures = [pool.submit(pow, 3, k) for k in range(5)]
    assert [f.result() for f in futures] == [1, 3, 9, 27, 81]


def test_one_job_and_no_scheduler_runs_in_this_process():
    with open_executor(jobs=1) as executor:
        assert executor is None


@linux_only
def test_ctrl_c_on_a_defense_probe_exits_at_once_and_leaves_no_worker(tmp_path):
    out = tmp_path / "campaign.json"
    proc = subprocess.Popen([sys.executable, "-m", "levelforge", "defense", "probe",
                             "campaign", "--workers", "2", "--no-progress", "-o", str(out)],
                            stderr=subprocess.PIPE, text=True, start_new_session=True,
                            preexec_fn=sigint_default)
    try:
        _wait_for(lambda: len(_children(proc.pid)) >= 2 or proc.poll() is not None, 120)
        workers = _children(proc.pid)
        time.sleep(0.5)
        t0 = time.monotonic()
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == 130, err
    assert time.monotonic() - t0 < 5
    assert "Traceback" not in err and not out.exists()
    _wait_for(lambda: not any(_alive(pid) for pid in workers), 5)


def test_config_is_a_json_object_or_a_file_of_one(tmp_path):
    f = tmp_path / "c.json"
    f.write_text('{"boxes": 3}', encoding="utf-8")
    assert parse_config(f"@{f}") == {"boxes": 3}
    assert parse_config(None) == {}
    with pytest.raises(ConfigError, match="not JSON"):
        parse_config("{width: 9}")
    with pytest.raises(ConfigError, match="--config file"):
        parse_config(f"@{tmp_path / 'missing.json'}")
