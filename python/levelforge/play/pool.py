"""The play server's worker processes, seen from its event loop.

The server never runs a kernel: every engine call goes to a worker process
(:mod:`levelforge.play.worker`) and the event loop only waits for the answer, so pages,
static files and other games keep answering while a solve runs, and Ctrl-C is seen at once.

- Each call has a deadline (seconds of engine time: from when a worker takes it, time
  spent compiling kernels on a first run aside). The worker hands the handler the time
  left (the deadline less :func:`budget`'s margin) and a :class:`~levelforge.Cancel`
  token, so that generators and solves stop by themselves, with the library's own
  answer (a ``limit`` status, a :class:`~levelforge.GenerationError` naming the limit).
  When the deadline passes all the same, or the client hangs up, the pool sets the
  token and gives the call :data:`GRACE` seconds to end; then it kills the worker (a
  Numba kernel step cannot be interrupted otherwise) and a fresh worker takes its
  place. A worker that dies otherwise is replaced as well: the call it was running
  answers 503, and no call is handed to a worker whose process has already ended.
- Long calls (solves, generators, hints) never take the last free worker: it stays for
  the quick ones (moves), so a game stays playable while another page solves.
- At start-up the workers prepare every system's kernels in the background, the mines
  assistant's first (compiled on a machine's first run, loaded from Numba's cache
  later); :meth:`Pool.status` tells the pages how far they are. A call for a system
  that one worker is still compiling waits for it rather than compiling it twice.
- Workers are separate interpreters (``python -m levelforge.play.worker``), which die
  with the server.
"""
import asyncio
import os
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from multiprocessing.connection import Connection

from ..cancel import Cancel

ORDER = ("mines", "sokoban", "defense", "symmetry")
"""The order in which systems are prepared at start-up (the assistant's is the longest)."""
WORKERS = 2
"""Worker processes by default."""
GRACE = 0.5
"""Seconds a stopped call (its token set) has to end before its worker is killed."""


def budget(seconds: float) -> float:
    """The time limit a call with a deadline of ``seconds`` hands the library: a tenth
    less (at most a second), so that the library's own limit comes first.

    >>> budget(60.0), budget(2.0)
    (59.0, 1.8)
    """
    return seconds - min(1.0, seconds / 10)


class Stopped(Exception):
    """A call that did not end with an answer: ``reason`` is ``"deadline"``, ``"gone"``
    (the client hung up), ``"stopping"`` (the server is) or ``"failed"`` (no worker)."""

    def __init__(self, reason, message=""):
        super().__init__(message or reason)
        self.reason = reason


@dataclass(eq=False)
class Job:
    path: str
    message: tuple
    system: str | None
    long: bool
    seconds: float
    future: asyncio.Future
    token: Cancel | None = None  # long calls only: set to stop them
    worker: "Worker | None" = None
    deadline: float | None = None  # set when a worker takes it


@dataclass
class System:
    """How far one system's kernels are: ``waiting``, ``preparing`` (by a worker) or
    ``ready``; ``kernels`` compiled so far (0 when they came from the cache)."""

    state: str = "waiting"
    kernels: int = 0
    started: float = 0.0
    seconds: float = 0.0
    by: "Worker | None" = field(default=None, repr=False)

    def to_dict(self, now):
        seconds = now - self.started if self.state == "preparing" else self.seconds
        return {"state": self.state, "kernels": self.kernels, "seconds": round(seconds, 1)}


class Worker:
    """One worker process and what the pool knows of it."""

    def __init__(self, pool):
        ours, theirs = socket.socketpair()
        fd = theirs.detach()
        args = [sys.executable, "-m", "levelforge.play.worker", str(fd), str(os.getpid())]
        try:
            self.proc = subprocess.Popen(args + ([pool.file] if pool.file else []),
                                         pass_fds=(fd,), stdin=subprocess.DEVNULL)
        finally:
            os.close(fd)
        self.conn = Connection(ours.detach())
        self.pool = pool
        self.ready = False
        self.job = None
        self.warming = None
        self.warm = set()
        self.compile_since = None
        self.count = 0
        self.base = 0
        pool.loop.add_reader(self.conn.fileno(), self._readable)

    @property
    def idle(self):
        return self.ready and self.job is None and self.warming is None

    def _readable(self):
        try:
            while self.conn.poll():
                self.pool._message(self, self.conn.recv())
        except (EOFError, OSError):
            self.pool._died(self)

    def send(self, message):
        try:
            self.conn.send(message)
        except OSError:
            self.kill()

    def kill(self):
        if self.proc.poll() is None:
            self.proc.kill()

    def close(self):
        """Forget this worker: stop reading it, kill and reap it."""
        try:
            self.pool.loop.remove_reader(self.conn.fileno())
        except (OSError, ValueError):
            pass
        self.kill()
        self.conn.close()
        try:
            self.proc.wait(2)
        except subprocess.TimeoutExpired:
            pass


class Pool:
    """``size`` worker processes serving one play server (see the module docstring);
    ``file`` is the file the server was opened with (workers open it too); ``log``
    takes one line for the server's log. With ``size`` 0 (a server that only shows
    pages, such as :class:`~levelforge.play.watch.Viewer`'s) engine calls are refused."""

    def __init__(self, size=WORKERS, file=None, log=None):
        self.size = max(0, int(size))
        self.file = None if file is None else os.path.abspath(os.fspath(file))
        self.log = log or (lambda line: None)
        self.loop = None
        self.workers = []
        self.queue = []
        self.systems = {name: System() for name in ORDER}
        self.closing = False
        self.failures = 0

    def start(self):
        """Start the workers (from the running event loop); they prepare the kernels."""
        if self.loop is not None or not self.size:
            return
        self.loop = asyncio.get_running_loop()
        self.workers = [Worker(self) for _ in range(self.size)]
        self.log(f"levelforge play: {self.size} worker processes are preparing the kernels "
                 "in the background (the first run on a machine compiles them: about a "
                 "minute; pages answer meanwhile)")

    def close(self):
        """Kill every worker and stop every call waiting for one (at once)."""
        self.closing = True
        jobs = self.queue + [w.job for w in self.workers if w.job is not None]
        for w in self.workers:
            w.close()
        self.workers, self.queue = [], []
        for job in jobs:
            if not job.future.done():
                job.future.set_exception(Stopped("stopping"))

    async def run(self, path, message, system, long, seconds, gone):
        """Run ``message`` (``("call", ...)``, see :mod:`levelforge.play.worker`) on a
        worker within ``seconds`` of engine time (counted from when a worker takes it,
        compiling aside); returns ``(status, body, back)``.
        Raises :class:`Stopped` when the deadline passes, when the task ``gone`` ends
        (the client hung up), or when the server stops; the call's work is then killed."""
        if self.closing:
            raise Stopped("stopping")
        if not self.size:
            raise Stopped("failed", "this server runs no engine work (it only shows pages)")
        if self.failures >= 3:
            raise Stopped("failed", "the server's worker processes cannot start")
        self.start()
        job = Job(path, message, system, long, seconds, self.loop.create_future(),
                  Cancel() if long else None)
        self.queue.append(job)
        self._dispatch()
        try:
            while True:
                w = job.worker
                left = 0.25 if w is None else job.deadline - self.loop.time()
                if left <= 0 and w.compile_since is None:
                    raise Stopped("deadline")
                await asyncio.wait([job.future, gone], timeout=max(left, 0.25),
                                   return_when=asyncio.FIRST_COMPLETED)
                if job.future.done():
                    return job.future.result()
                if gone.done():
                    raise Stopped("gone")
        finally:
            if not job.future.done():
                self._cancel(job)

    def status(self):
        """What the pages show: each system's kernels, the workers busy and the queue."""
        now = time.monotonic()
        return {"workers": self.size, "busy": sum(not w.idle for w in self.workers),
                "queued": len(self.queue),
                "ready": all(s.state == "ready" for s in self.systems.values()),
                "systems": {name: s.to_dict(now) for name, s in self.systems.items()}}

    # ----------------------------------------------------------------- scheduling
    def _cancel(self, job):
        job.future.cancel()
        if job in self.queue:
            self.queue.remove(job)
        elif job.worker is not None and job.worker.job is job:
            if job.token is None:
                job.worker.kill()  # its end of pipe comes next: _died replaces it
            else:  # the call stops by itself, else it is killed after the grace
                job.token.cancel()
                self.loop.call_later(GRACE, self._kill_if, job.worker, job)

    @staticmethod
    def _kill_if(w, job):
        if w.job is job:
            w.kill()

    def _dispatch(self):
        # a worker whose process has ended but whose end of pipe the loop has not read
        # yet (killed by the kernel's OOM killer, say) must not be handed a call: it
        # would answer 503 though a fresh worker could run it
        dead = next((w for w in self.workers if w.proc.poll() is not None), None)
        if dead is not None:
            self._died(dead)  # replaces it and dispatches again
            return
        for job in list(self.queue):
            w = self._worker_for(job)
            if w is not None:
                self.queue.remove(job)
                job.worker, w.job = w, job
                job.deadline = self.loop.time() + job.seconds
                self._preparing(w, job.system)
                w.send(job.message + (budget(job.seconds), job.token))
        for w in self.workers:
            if w.idle and not self.queue:
                self._warm(w)

    def _worker_for(self, job):
        idle = [w for w in self.workers if w.idle]
        if not idle:
            return None
        if job.long and sum(w.job is not None and w.job.long for w in self.workers) \
                >= max(1, self.size - 1):
            return None
        if job.system is None:
            return idle[0]
        warm = [w for w in idle if job.system in w.warm]
        if warm:
            return warm[0]
        s = self.systems[job.system]
        return None if s.state == "preparing" and s.by in self.workers else idle[0]

    def _warm(self, w):
        """Give idle worker ``w`` the next system to prepare: one nobody has started,
        else one that is ready (on disk) but not yet loaded in ``w``."""
        for name in ORDER:
            s = self.systems[name]
            if name not in w.warm and (s.state == "waiting" or s.state == "ready"):
                self._preparing(w, name)
                w.warming = name
                w.send(("warm", name))
                return

    def _preparing(self, w, name):
        s = self.systems.get(name)
        if s is not None and s.state == "waiting" and name not in w.warm:
            s.state, s.by, s.started, s.kernels = "preparing", w, time.monotonic(), 0
            w.base = w.count

    def _prepared(self, w, name):
        w.warm.add(name)
        s = self.systems.get(name)
        if s is not None and s.state == "preparing" and s.by is w:
            s.state, s.by, s.seconds = "ready", None, time.monotonic() - s.started
            verb = f"compiled {s.kernels} kernels" if s.kernels else "loaded from the cache"
            self.log(f"levelforge play: {name} ready ({verb} in {s.seconds:.1f} s)")

    def _message(self, w, message):
        kind = message[0]
        if kind == "ready":
            w.ready = True
            self.failures = 0
        elif kind == "compile":
            _, active, w.count = message
            now = self.loop.time()
            if active and w.compile_since is None:
                w.compile_since = now
            elif not active and w.compile_since is not None:
                if w.job is not None:  # compiling is not the call's engine time
                    w.job.deadline += now - w.compile_since
                w.compile_since = None
            for s in self.systems.values():
                if s.by is w:
                    s.kernels = w.count - w.base
        elif kind == "warmed":
            w.warming = None
            self._prepared(w, message[1])
        elif kind == "answer":
            job, w.job = w.job, None
            if job is not None:
                if job.system is not None:
                    self._prepared(w, job.system)
                if not job.future.done():
                    job.future.set_result(message[1:])
        self._dispatch()

    def _died(self, w):
        if w not in self.workers:
            return
        self.workers.remove(w)
        w.close()
        for s in self.systems.values():
            if s.by is w:
                s.state, s.by = "waiting", None
        if w.job is not None and not w.job.future.done():
            w.job.future.set_exception(Stopped("failed", "a worker process stopped "
                                                         "during this request"))
        if self.closing:
            return
        self.failures += 0 if w.ready else 1
        if self.failures >= 3:
            self.log("levelforge play: worker processes fail to start; engine calls are "
                     "refused")
            for job in self.queue:
                job.future.set_exception(Stopped("failed", "the server's worker processes "
                                                           "cannot start"))
            self.queue = []
            return
        self.workers.append(Worker(self))
        self._dispatch()
