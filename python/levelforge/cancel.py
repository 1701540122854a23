"""Time limits and cancellation of long calls.

:class:`Cancel` is a token another thread or process sets to stop a call that was given it
(``solve(..., cancel=token)``, the generators' ``cancel=``). Its flag lives in shared
memory: a token passed to a worker process (pickled, or inherited by ``fork``) is the
same token there.

Inside the library, a :class:`Limit` holds one call's stop conditions (a deadline and a
token). Numba kernels cannot look at a clock or at a Python object, so while a kernel
runs (without the GIL) a watchdog thread watches the limit and sets a flag slot of one
of the kernel's work arrays, which the kernel looks at between small steps of work.

>>> import threading
>>> from levelforge import Cancel
>>> token = Cancel()
>>> token.cancelled
False
>>> threading.Timer(0.01, token.cancel).start()
>>> import time; time.sleep(0.1)
>>> token.cancelled
True
"""
from __future__ import annotations

import functools
import mmap
import os
import tempfile
import threading
import weakref
from contextlib import contextmanager
from typing import Callable, Iterator, TypeVar

from .errors import Cancelled, ConfigError, GenerationError
from .timing import now_ns

LIMIT = "limit"
CANCELLED = "cancelled"
_POLL_S = 0.005  # how often the watchdog reads tokens another process may set
T = TypeVar("T")
_SHM_DIR = "/dev/shm" if os.path.isdir("/dev/shm") else tempfile.gettempdir()


def _remove(path: str, owner: int) -> None:
    if os.getpid() == owner:  # never from a forked child
        try:
            os.unlink(path)
        except OSError:
            pass


class Cancel:
    """A cancel token: :meth:`cancel` (from any thread or process) stops every call that
    was given it at its next look (within milliseconds); once cancelled it stays so.

    The flag is one byte of a shared-memory file, so the token works across processes:
    pass it to a worker process as an argument (it pickles by its file) or create it
    before a ``fork``. The file is removed when the token that created it is collected.

    A cancelled :func:`~levelforge.sokoban.solve` returns status ``"cancelled"``; a
    cancelled generator raises :class:`~levelforge.Cancelled`.

    >>> from levelforge.sokoban import Level, solve
    >>> token = Cancel()
    >>> token.cancel()
    >>> solve(Level.from_xsb('#####\\n#@$.#\\n#####'), cancel=token).status
    'cancelled'
    """

    def __init__(self) -> None:
        fd, path = tempfile.mkstemp(prefix="levelforge-cancel-", dir=_SHM_DIR)
        try:
            os.write(fd, b"\0")
            self._map = mmap.mmap(fd, 1)
        finally:
            os.close(fd)
        self._path = path
        weakref.finalize(self, _remove, path, os.getpid())

    @classmethod
    def _attach(cls, path: str) -> Cancel:
        token = cls.__new__(cls)
        fd = os.open(path, os.O_RDWR)
        try:
            token._map = mmap.mmap(fd, 1)
        finally:
            os.close(fd)
        token._path = path
        return token

    def __reduce__(self):
        return (Cancel._attach, (self._path,))

    def cancel(self) -> None:
        """Set the token: calls given it stop at their next look."""
        self._map[0] = 1
        _WATCHDOG.poke()

    @property
    def cancelled(self) -> bool:
        """True once :meth:`cancel` was called (in any process)."""
        return self._map[0] != 0

    def __repr__(self) -> str:
        return f"Cancel(cancelled={self.cancelled})"


def check_time_limit(time_limit: object) -> float | None:
    """``time_limit`` as seconds (a positive number; infinity, or anything past 10**9 s,
    means none) or None; ConfigError otherwise."""
    if time_limit is None:
        return None
    if isinstance(time_limit, bool) or not isinstance(time_limit, (int, float)) \
            or not time_limit > 0:  # NaN too
        raise ConfigError(f"time_limit must be a positive number of seconds or None, "
                          f"got {time_limit!r}")
    return None if time_limit > 1e9 else float(time_limit)


def check_cancel(cancel: object) -> Cancel | None:
    """``cancel`` if it is a :class:`Cancel` or None; ConfigError otherwise."""
    if cancel is not None and not isinstance(cancel, Cancel):
        raise ConfigError(f"cancel must be a levelforge.Cancel token or None, "
                          f"got {type(cancel).__name__}")
    return cancel


class Limit:
    """The stop conditions of one call: a deadline (``now_ns()`` units, or None) and a
    token (or None). :meth:`reason` says whether and why to stop; :meth:`watch` has the
    watchdog set ``flags[slot]`` (an int64 work array of a kernel) when it is time."""

    __slots__ = ("deadline", "cancel", "time_limit")

    def __init__(self, time_limit: float | None = None, cancel: Cancel | None = None,
                 start: int | None = None) -> None:
        self.time_limit = check_time_limit(time_limit)
        self.cancel = check_cancel(cancel)
        if self.time_limit is None:
            self.deadline = None
        else:
            self.deadline = (now_ns() if start is None else start) \
                + int(self.time_limit * 1e9)

    @property
    def active(self) -> bool:
        """Whether there is anything to watch."""
        return self.deadline is not None or self.cancel is not None

    def reason(self) -> str | None:
        """``"cancelled"`` (the token is set), ``"limit"`` (the deadline passed) or None."""
        if self.cancel is not None and self.cancel.cancelled:
            return CANCELLED
        if self.deadline is not None and now_ns() >= self.deadline:
            return LIMIT
        return None

    def until(self, deadline: int | None) -> Limit:
        """The same token with the earlier of the two deadlines."""
        sub = Limit(None, self.cancel)
        ends = [d for d in (self.deadline, deadline) if d is not None]
        sub.deadline = min(ends) if ends else None
        sub.time_limit = self.time_limit
        return sub

    def shift(self, ns: int) -> None:
        """Move the deadline ``ns`` later (time spent compiling is not the call's)."""
        if self.deadline is not None:
            self.deadline += ns

    @contextmanager
    def watch(self, flags, slot: int) -> Iterator[None]:
        """While inside, the watchdog sets ``flags[slot] = 1`` once :meth:`reason` is not
        None; on exit the slot is 0 again. Nothing is started when there is nothing to
        watch."""
        flags[slot] = 0
        try:
            with self.calling(functools.partial(flags.__setitem__, slot, 1)):
                yield
        finally:
            flags[slot] = 0

    @contextmanager
    def calling(self, fire: Callable[[], object]) -> Iterator[None]:
        """While inside, the watchdog calls ``fire()`` (once, from its thread) when
        :meth:`reason` is not None: e.g. a Z3 context's ``interrupt``."""
        if not self.active:
            yield
            return
        key = _WATCHDOG.add(self, fire)
        try:
            yield
        finally:
            _WATCHDOG.remove(key)


def _due(limit, now):
    """When (ns) the watchdog must next look at ``limit``: its deadline, or sooner the
    next poll of its token (set maybe by another process); None for never."""
    due = limit.deadline
    if limit.cancel is not None:
        poll = now + int(_POLL_S * 1e9)
        due = poll if due is None else min(due, poll)
    return due


class _Watchdog:
    """One daemon thread per process that sets the flags of the limits it watches."""

    def __init__(self):
        self._reset()
        os.register_at_fork(after_in_child=self._reset)

    def _reset(self):
        self._cond = threading.Condition()
        self._entries = {}
        self._next = 0
        self._thread = None
        self._until = None  # when the thread's current wait ends (ns; None: no end)

    def add(self, limit, fire):
        with self._cond:
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="levelforge-watchdog",
                                                daemon=True)
                self._thread.start()
            self._next += 1
            self._entries[self._next] = (limit, fire)
            # wake the thread only when it would sleep past what the new entry needs:
            # a solve adds a few entries, and each needless wake costs a thread switch
            need = _due(limit, now_ns())
            if need is not None and (self._until is None or need < self._until):
                self._cond.notify()
            return self._next

    def remove(self, key):
        with self._cond:
            self._entries.pop(key, None)

    def poke(self):
        with self._cond:
            self._cond.notify()

    def _run(self):
        cond = self._cond
        with cond:
            while True:
                wait = None
                now = now_ns()
                for key, (limit, fire) in list(self._entries.items()):
                    if limit.reason() is not None:
                        del self._entries[key]
                        fire()
                        continue
                    due = _due(limit, now)
                    if due is not None:
                        left = min(max(0.0, (due - now) / 1e9), 60.0)
                        wait = left if wait is None else min(wait, left)
                self._until = None if wait is None else now + int(wait * 1e9)
                cond.wait(wait)


_WATCHDOG = _Watchdog()


def copy_unless_halted(dst, src, n: int, flags, slot: int) -> bool:
    """``dst[:n] = src[:n]`` in pieces of 4M elements; False, the copy unfinished, as soon
    as ``flags[slot]`` is set (the halt slot a :meth:`Limit.watch` watchdog sets): growing
    a big search's arrays copies gigabytes, and a limit must be able to stop it.

    >>> import numpy as np
    >>> dst, flags = np.zeros(3, int), np.zeros(1, int)
    >>> copy_unless_halted(dst, np.arange(3), 2, flags, 0), dst.tolist()
    (True, [0, 1, 0])
    """
    piece = 1 << 22
    for i in range(0, n, piece):
        if flags[slot] != 0:
            return False
        j = min(n, i + piece)
        dst[i:j] = src[i:j]
    return True


def replace_unless_halted(owner, new: dict, counts: dict, flags, slot: int) -> bool:
    """Grow ``owner``'s arrays one at a time: for each ``name, array`` of ``new``, in
    order, copy the first ``counts[name]`` entries of ``owner.<name>`` into ``array``
    (:func:`copy_unless_halted`) and put it in the old one's place at once, which frees
    the old one before the next copy is made. Returns False as soon as ``flags[slot]``
    is set: the arrays replaced so far stay (the same first entries, larger), the rest
    are as they were. So a growth holds, at its peak, its arrays plus one copy.

    >>> import numpy as np
    >>> class Owner: pass
    >>> o, flags = Owner(), np.zeros(1, int)
    >>> o.a = np.arange(3)
    >>> replace_unless_halted(o, {"a": np.zeros(5, int)}, {"a": 3}, flags, 0), o.a.tolist()
    (True, [0, 1, 2, 0, 0])
    """
    for name, array in new.items():
        if not copy_unless_halted(array, getattr(owner, name), counts[name], flags, slot):
            return False
        setattr(owner, name, array)
    return True


def raise_stopped(limit: Limit, what: str) -> None:
    """Raise what a generator stopped by ``limit`` raises: :class:`~levelforge.Cancelled`
    when its token was set, else :class:`~levelforge.GenerationError` naming the limit."""
    if limit.reason() == CANCELLED:
        raise Cancelled(f"{what}: cancelled")
    raise GenerationError(f"{what}: stopped at the time limit of {limit.time_limit:g} s")


def call_interruptibly(fn: Callable[[], T], cancel: Cancel) -> T:
    """``fn()`` (which was given ``cancel``) in a worker thread, the main thread waiting:
    Ctrl-C (KeyboardInterrupt) there sets ``cancel`` and waits for ``fn`` to return,
    which it does within milliseconds since it looks at the token. Returns what ``fn``
    returns or raises what it raises; the caller asks ``cancel.cancelled`` whether it
    was interrupted. How the command line stops work it runs in its own process (a
    Numba kernel or a Z3 call never sees a signal; the main thread does).

    >>> token = Cancel()
    >>> call_interruptibly(lambda: 6 * 7, token), token.cancelled
    (42, False)
    """
    box: dict[str, object] = {}
    done = threading.Event()  # not Thread.join: an interrupted join can return early

    def target():
        try:
            box["value"] = fn()
        except BaseException as exc:  # handed to the caller
            box["error"] = exc
        finally:
            done.set()

    threading.Thread(target=target, name="levelforge-work", daemon=True).start()
    try:
        while not done.wait(0.1):  # a timed wait lets the signal in
            pass
    except KeyboardInterrupt:
        cancel.cancel()
        done.wait()
    if "error" in box:
        raise box["error"]
    return box["value"]
