"""Memory a growing search may still take, so that a long search stops with a limit
instead of being killed when the machine (or its container) runs out of memory.

The Sokoban searches keep their states in arrays that grow while a search needs them
(``max_nodes`` caps each search; four searches take turns in the any-solution mode). A
growth asks :func:`hold` first: it is refused when the arrays every live search of the
process would then hold, with the rest of the process, would not fit in what the process
may use, which is what it holds now (its resident set) plus what the system still has
available (``MemAvailable``, or what the process's cgroup has left below its limit when
that is less), less :data:`RESERVE`. Arrays are counted whole, as if every page of them
were written, although a fresh array costs nothing until it is: so a growth is refused
while there is still room for the search to fill the arrays it has, not once the pages
are gone. Where none of these figures can be read (not Linux), every growth is allowed;
an allocation that fails all the same (``MemoryError``, as under an address-space limit)
is a refusal too (:func:`give_back`).
"""
from __future__ import annotations

import os
import threading
import weakref

RESERVE = 128 << 20
"""Bytes kept free for everything else (the kernels' work arrays, the pair database of
up to 48 MB, what the interpreter allocates after a growth)."""

_held: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # owner -> bytes held
_local = threading.local()  # this thread's refusals (a solve runs in one thread)
_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


def _read_int(path: str) -> int | None:
    try:
        with open(path) as f:
            text = f.read().split()
    except OSError:
        return None
    return int(text[0]) if text and text[0].isdigit() else None


def _meminfo_available() -> int | None:
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        return None
    return None


def _stat(path: str, key: str) -> int:
    """A field of a cgroup's ``memory.stat`` (0 when missing)."""
    try:
        with open(path) as f:
            for line in f:
                name, _, value = line.partition(" ")
                if name == key:
                    return int(value)
    except (OSError, ValueError):
        pass
    return 0


def _cgroup_left(proc: str = "/proc/self/cgroup", root: str = "/sys/fs/cgroup") -> int | None:
    """Bytes the process's memory cgroup has left below its limit (v2 ``memory.max``
    less ``memory.current``, or v1 ``memory.limit_in_bytes`` less
    ``memory.usage_in_bytes``; the usage without its inactive file pages, which the
    kernel reclaims before it kills), None when it has no limit or none can be read.
    ``proc`` and ``root``: where the process's cgroup list and the cgroup file system
    are read (another tree in tests)."""
    try:
        with open(proc) as f:
            lines = f.read().splitlines()
    except OSError:
        return None
    for line in lines:
        _, controllers, path = line.split(":", 2)
        if controllers == "":  # v2
            base = root + path
            limit, usage = _read_int(base + "/memory.max"), _read_int(base + "/memory.current")
            cache = "inactive_file"
        elif "memory" in controllers.split(","):  # v1
            base = root + "/memory" + path
            limit = _read_int(base + "/memory.limit_in_bytes")
            usage = _read_int(base + "/memory.usage_in_bytes")
            cache = "total_inactive_file"
        else:
            continue
        if limit is not None and usage is not None and limit < 1 << 60:
            return max(limit - usage + _stat(base + "/memory.stat", cache), 0)
    return None


def available() -> int | None:
    """Bytes the system (or the process's cgroup, when it has less) still has
    available; None when neither can be read."""
    figures = [x for x in (_meminfo_available(), _cgroup_left()) if x is not None]
    return min(figures) if figures else None


def resident() -> int:
    """Bytes this process holds in memory now (its resident set; 0 when unknown)."""
    pages = None
    try:
        with open("/proc/self/statm") as f:
            pages = int(f.read().split()[1])
    except (OSError, ValueError, IndexError):
        pass
    return 0 if pages is None else pages * _PAGE


def hold(owner: object, nbytes: int, force: bool = False) -> bool:
    """Whether ``owner`` (a search's workspace) may hold ``nbytes`` of growable arrays
    in place of what it holds now; True records it. Shrinking is always allowed, and
    ``force`` records it whatever the room (a workspace's small first arrays). Every
    live owner's bytes count, so two searches in turn cannot both take the same room.
    A refusal is counted for this thread (:func:`refusals`)."""
    current = _held.get(owner, 0)
    if nbytes > current and not force:
        free = available()
        if free is not None:
            held = sum(_held.values())
            after = held - current + nbytes
            rss = resident()
            if after + max(0, rss - held) > free + rss - RESERVE:
                _local.refused = refusals() + 1
                return False
    _held[owner] = nbytes
    return True


def held_by(owner: object) -> int:
    """Bytes ``owner`` holds as :func:`hold` recorded them."""
    return _held.get(owner, 0)


def give_back(owner: object, nbytes: int, refused: bool = False) -> None:
    """A growth :func:`hold` allowed did not happen: ``owner`` holds ``nbytes`` again.
    ``refused``: its allocation failed (``MemoryError``: an address-space limit, a
    system that does not overcommit), counted as a refusal as :func:`hold` counts one;
    otherwise it was stopped (a time limit or a cancel)."""
    _held[owner] = nbytes
    if refused:
        _local.refused = refusals() + 1


def refusals() -> int:
    """Growths :func:`hold` has refused in this thread so far (a solve compares the
    count before and after to say that memory stopped it)."""
    return getattr(_local, "refused", 0)
