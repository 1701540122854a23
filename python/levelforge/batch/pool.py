"""Local worker processes for batch runs (``jobs=N``, the CLI's ``--jobs``).

What the parent and its workers promise each other:

- Workers die with their parent: on Linux the kernel kills them when the parent dies
  (``PR_SET_PDEATHSIG``), elsewhere a watchdog thread notices; a worker whose parent
  is gone also stops at its next read or write of the pipe.
- Workers stream finished items back as they go (at least every ``FLUSH_SECONDS`` of
  work, and at once after a slow item), so the file and the progress bar see the first
  record as soon as it is made, whatever the chunk size.
- Chunks follow the measured item time (:class:`~levelforge.batch.runner.ChunkPlanner`):
  one item first, then up to ``TARGET_CHUNK_SECONDS`` of work, so fast generators pay
  next to nothing for the messaging and slow ones never sit on finished work.
- The parent never runs a kernel, so it always answers signals at once. On Ctrl-C or
  SIGTERM it tells the workers to stop after their current item, keeps what they send
  within ``GRACE_SECONDS`` (or until a second signal), then kills the rest: a worker
  deep in a Numba kernel or in Z3 cannot see a signal, and nobody waits for it.
- Workers are forked after the parent compiled the kernels (where ``fork`` is safe:
  Linux), so they start with the compiled code; elsewhere they load Numba's cache.
"""
import multiprocessing
import os
import signal
import sys
from dataclasses import dataclass
from multiprocessing.connection import wait

from ..errors import BatchItemError, WorkerError
from ..processes import die_with_parent
from ..timing import now_ns
from .output import FORMATS
from .runner import ChunkPlanner, _item, _warm

FLUSH_SECONDS = 0.02
GRACE_SECONDS = 0.8
POLL_SECONDS = 0.05


class Interrupted(KeyboardInterrupt):
    """Ctrl-C (SIGINT) or SIGTERM stopped a batch; ``signum`` says which."""

    def __init__(self, signum=signal.SIGINT):
        super().__init__(signal.Signals(signum).name)
        self.signum = int(signum)


@dataclass(frozen=True)
class Chunk:
    """Items ``start..start+len(ms)-1`` as formatted records (the parent only writes),
    their milliseconds, the generator's figures for them (means over these items), and
    the error that ended the items early, if any."""

    start: int
    text: str
    ms: tuple
    figures: dict
    error: BaseException | None = None


def format_items(generator, fmt, config, timings, start, results):
    """The :class:`Chunk` of ``results``, items ``start..``: records and figures."""
    form = FORMATS[fmt]
    datas = [r.to_dict() for r in results]
    text = "".join(form.record(start + k, r, d, config, timings)
                   for k, (r, d) in enumerate(zip(results, datas)))
    summarize = getattr(generator, "summarize", None)
    figures = summarize(datas) if summarize is not None and datas else {}
    return Chunk(start, text, tuple(r.elapsed_ms for r in results), figures)


def _worker(conn, others, parent, generator, seed, fmt, config, timings):
    """A worker's life: take chunks ``(a, b)`` from ``conn``, send back ``("items",
    Chunk)`` as items finish, ``("error", BatchItemError)`` for a failing item,
    ``("crash", text)`` for anything else; stop at ``None``, end of pipe, or SIGINT
    (after the current item)."""
    for c in others:  # the parent's ends of other workers' pipes (inherited by fork)
        c.close()
    die_with_parent(parent)
    stop = []
    signal.signal(signal.SIGINT, lambda signum, frame: stop.append(signum))
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    flush_ns = FLUSH_SECONDS * 1e9
    try:
        _warm(generator)
        while not stop:
            task = conn.recv()
            if task is None:
                break
            a, b = task
            results, first, error = [], a, None
            sent_ns = now_ns()
            for index in range(a, b):
                try:
                    results.append(_item(generator, seed, index))
                except BatchItemError as exc:
                    error = exc
                if error is not None or stop or index == b - 1 \
                        or now_ns() - sent_ns >= flush_ns:
                    if results:
                        conn.send(("items", format_items(generator, fmt, config, timings,
                                                         first, results)))
                    first, results, sent_ns = index + 1, [], now_ns()
                if error is not None or stop:
                    break
            if error is not None:
                conn.send(("error", error))
    except (EOFError, BrokenPipeError, ConnectionResetError):
        pass  # the parent is gone
    except BaseException as exc:  # noqa: BLE001 - reported to the parent as one line
        try:
            conn.send(("crash", f"{type(exc).__name__}: {exc}"))
        except OSError:
            pass


def _context():
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("fork" if sys.platform.startswith("linux")
                                       and "fork" in methods else "spawn")


def _exit_text(code):
    if code is None:
        return "stopped answering"
    if code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = f"signal {-code}"
        return f"was killed by {name}" + (" (out of memory?)" if -code == signal.SIGKILL else "")
    return f"exited with code {code}"


class Pool:
    """``jobs`` worker processes making items of one batch (see the module docstring).

    Use as a context manager: leaving it kills whatever worker is still alive.
    """

    def __init__(self, jobs, generator, seed, fmt, config, timings):
        for stream in (sys.stdout, sys.stderr):  # a forked child must not flush them again
            stream.flush()
        ctx = _context()
        self.workers = []
        parents = []
        try:
            for _ in range(jobs):
                mine, theirs = ctx.Pipe()
                proc = ctx.Process(target=_worker, daemon=True, args=(
                    theirs, parents + [mine], os.getpid(), generator, seed, fmt, config,
                    timings))
                proc.start()
                theirs.close()
                parents.append(mine)
                self.workers.append(_Worker(proc, mine))
        except BaseException:
            self.close()
            raise

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self, grace=1.0):
        """Stop the workers: ask idle ones to leave, kill the others after ``grace``."""
        for w in self.workers:
            if w.proc.is_alive() and w.task is None and not w.gone:
                try:
                    w.conn.send(None)
                except OSError:
                    pass
        deadline = now_ns() + grace * 1e9
        for w in self.workers:
            if w.task is None:
                w.proc.join(max(0.0, (deadline - now_ns()) / 1e9))
            if w.proc.is_alive():
                w.proc.kill()
                w.proc.join(1.0)
            w.conn.close()

    def chunks(self, start, count, planner, signals):
        """Yield the :class:`Chunk` s of items ``start..count-1`` in item order.

        ``signals()`` returns the signals received so far: after the first, workers stop
        and what they finished is still yielded; then :class:`Interrupted` is raised.
        A failing item raises its BatchItemError, a dead worker WorkerError, each after
        every item before it was yielded.
        """
        state = _State(start, count, planner)
        while True:
            got = signals()
            if got and state.deadline is None:
                state.deadline = now_ns() + GRACE_SECONDS * 1e9
                self._stop_all()
            if state.deadline is None and state.failure is None:
                self._dispatch(state)
            busy = [w for w in self.workers if w.task is not None and not w.gone]
            if state.deadline is not None and (len(got) > 1 or now_ns() > state.deadline):
                for w in busy:  # keep what is already in the pipes, wait for nothing more
                    if w.conn.poll():
                        self._receive(w, state)
                busy = []
            if state.failure is not None:  # only earlier items can still arrive
                busy = [w for w in busy if w.task[0] < state.failure[0]]
            if busy:
                ready = wait([w.conn for w in busy] + [w.proc.sentinel for w in busy],
                             POLL_SECONDS)
                for w in busy:
                    if w.conn in ready or w.proc.sentinel in ready:
                        self._receive(w, state)
            yield from state.ready()
            if not busy:
                if state.next_write >= count:
                    return
                if got:
                    raise Interrupted(got[0])
                if state.failure is not None:
                    raise state.failure[1]
                if state.deadline is None and self._idle():
                    continue
                raise WorkerError("every worker stopped before the batch was complete")

    def _idle(self):
        return [w for w in self.workers if w.task is None and not w.gone]

    def _dispatch(self, state):
        for w in self._idle():
            a = state.next_send
            if a >= state.count or a - state.next_write >= state.lookahead():
                return
            b = min(state.count, a + state.planner.next())
            try:
                w.conn.send((a, b))
            except OSError:
                w.gone = True
                continue
            w.task, w.cursor = (a, b), a
            state.next_send = b

    def _receive(self, w, state):
        """Read what worker ``w`` sent (or learn that it died)."""
        dead = False
        try:
            while w.conn.poll():
                kind, value = w.conn.recv()
                if kind == "items":
                    state.got[value.start] = value
                    state.planner.observe(value.ms)
                    w.cursor = value.start + len(value.ms)
                    if w.cursor >= w.task[1]:
                        w.task = None
                        return
                elif kind == "error":
                    state.fail(value.index, value)
                    w.task = None
                    return
                else:
                    state.fail(w.cursor, WorkerError(f"worker process {w.proc.pid} failed "
                                                     f"at item {w.cursor}: {value}"))
                    w.task, w.gone = None, True
                    return
        except Exception:  # end of pipe, or a message cut short by the worker's death
            dead = True
        if dead or not w.proc.is_alive():
            w.proc.join(1.0)
            a, b = w.task if w.task else (w.cursor, w.cursor)
            state.fail(w.cursor, WorkerError(
                f"worker process {w.proc.pid} {_exit_text(w.proc.exitcode)} while making "
                f"items {w.cursor}-{b - 1}"))
            w.task, w.gone = None, True

    def _stop_all(self):
        for w in self.workers:
            if w.proc.is_alive():
                try:
                    os.kill(w.proc.pid, signal.SIGINT)
                except OSError:
                    pass


@dataclass
class _Worker:
    proc: object
    conn: object
    task: tuple | None = None  # (a, b) being made
    cursor: int = 0            # the next item it will send
    gone: bool = False


class _State:
    """The parent's bookkeeping: what was sent, what came back, what failed."""

    def __init__(self, start, count, planner):
        self.count = count
        self.planner = planner if planner is not None else ChunkPlanner()
        self.next_send = start
        self.next_write = start
        self.got = {}  # start index -> Chunk, waiting for the items before it
        self.failure = None  # (index, exception), the earliest
        self.deadline = None

    def lookahead(self):
        return 8 * max(1, self.planner.last) + 8

    def fail(self, index, exc):
        if self.failure is None or index < self.failure[0]:
            self.failure = (index, exc)

    def ready(self):
        """The received chunks that continue the written prefix, in order."""
        while self.next_write in self.got:
            chunk = self.got.pop(self.next_write)
            self.next_write += len(chunk.ms)
            yield chunk
