"""Helpers for the worker processes levelforge starts (batch runs, executors, the play
server's engine workers). A worker calls, first thing::

    die_with_parent(parent_pid)   # exit when the process that started it does
"""
import ctypes
import os
import signal
import sys
import threading


def die_with_parent(parent: int) -> None:
    """Make this process exit when ``parent`` does (Linux: the kernel's parent-death
    signal, which works even while a kernel holds the GIL; elsewhere: a watchdog)."""
    armed = False
    if sys.platform.startswith("linux"):
        try:
            armed = ctypes.CDLL(None).prctl(1, signal.SIGKILL, 0, 0, 0) == 0  # PDEATHSIG
        except (OSError, AttributeError):
            pass
    if os.getppid() != parent:  # the parent died before the line above ran
        os._exit(1)
    if armed:
        return

    def watch():
        while os.getppid() == parent:
            threading.Event().wait(0.5)
        os._exit(1)

    threading.Thread(target=watch, daemon=True).start()
