"""What the CLI commands run their work on, and how they read ``--config``.

:func:`open_executor` gives a Dask cluster's executor (``--scheduler``), or a local
process pool (``--jobs`` above 1) whose workers die with the parent and, when the
command is interrupted, are killed rather than awaited: a worker deep in a Numba kernel
cannot see a signal, and Ctrl-C must not wait for its task to end.
"""
from __future__ import annotations

import json
import os
from collections.abc import Iterator
from concurrent.futures import Executor, ProcessPoolExecutor
from contextlib import contextmanager

from ..errors import ConfigError
from ..processes import die_with_parent
from ..textfile import read_text

SCHEDULER_TIMEOUT = 5
"""Seconds to reach a Dask scheduler before giving up."""


def parse_config(text: str | None) -> dict:
    """Generator arguments from ``--config``: a JSON object, or ``@FILE`` holding one.

    >>> parse_config('{"width": 9}')
    {'width': 9}
    >>> parse_config('[9]')
    Traceback (most recent call last):
    ...
    levelforge.errors.ConfigError: --config must be a JSON object of generator arguments
    """
    if text is None:
        return {}
    if text.startswith("@"):
        text = read_text(text[1:], "--config file ", ConfigError)
    try:
        value = json.loads(text)
    except ValueError as exc:
        raise ConfigError(f"--config is not JSON (or @FILE of JSON): {exc}") from None
    if not isinstance(value, dict):
        raise ConfigError("--config must be a JSON object of generator arguments")
    return value


def local_pool(jobs: int) -> ProcessPoolExecutor:
    """A process pool of ``jobs`` workers that die with this process (even on SIGKILL)."""
    return ProcessPoolExecutor(jobs, initializer=die_with_parent, initargs=(os.getpid(),))


def kill_pool(pool: ProcessPoolExecutor) -> None:
    """Cancel what ``pool`` has not started and kill its workers now, without waiting for
    their running tasks."""
    terminate = getattr(pool, "terminate_workers", None)  # Python 3.14+
    if terminate is not None:
        terminate()
        return
    processes = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for p in processes:
        p.kill()
    for p in processes:
        p.join(1)


def dask_executor(address: str) -> tuple[Executor, object]:
    """``(executor, client)`` for the Dask scheduler at ``address``; a one-line
    :class:`~levelforge.errors.ConfigError` if Dask is missing or the scheduler cannot be
    reached within :data:`SCHEDULER_TIMEOUT` seconds."""
    try:
        from dask.distributed import Client
    except ImportError:
        raise ConfigError("--scheduler needs Dask: pip install 'levelforge[dask]'") from None
    try:
        client = Client(address, timeout=f"{SCHEDULER_TIMEOUT}s")
    except (OSError, ValueError, TypeError) as exc:
        raise ConfigError(f"--scheduler {address}: cannot reach a Dask scheduler there "
                          f"within {SCHEDULER_TIMEOUT} s ({exc})") from None
    return client.get_executor(), client


@contextmanager
def open_executor(jobs: int = 1, scheduler: str | None = None) -> Iterator[Executor | None]:
    """The executor of a command: Dask's for ``scheduler``, a :func:`local_pool` for
    ``jobs`` above 1, else None (work in this process). On leaving, the pool is shut
    down; on an exception (Ctrl-C included) its workers are killed at once."""
    if scheduler:
        executor, client = dask_executor(scheduler)
        try:
            yield executor
        finally:
            client.close()
        return
    if jobs <= 1:
        yield None
        return
    pool = local_pool(jobs)
    try:
        yield pool
    except BaseException:
        kill_pool(pool)
        raise
    pool.shutdown()
