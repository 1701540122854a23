"""Say "compiling kernels, first run only" the moment Numba starts compiling.

:class:`CompileNotice` sits below everything that runs kernels on a user's behalf (the
command line, :func:`levelforge.batch.run`, ``levelforge warm-up``), so that a first run
on a machine, which compiles the Numba kernels into the cache, never looks hung.
"""
import sys

from .timing import ms_since, now_ns

_ACTIVE = []  # the notices open now, outermost first: only one of them prints


class CompileNotice:
    """A context manager that prints ``message`` once, when Numba starts compiling a
    kernel inside it (a cache miss), and records whether anything was compiled. Inside
    another enabled notice (e.g. the CLI's around a batch run's) only the outer one prints.

    >>> import io
    >>> out = io.StringIO()
    >>> with CompileNotice(stream=out) as notice:
    ...     pass
    >>> notice.compiled, out.getvalue()
    (False, '')
    """

    def __init__(self, message="compiling kernels, first run only (they are cached for "
                               "later runs) ...", stream=None, enabled=True):
        self.message = message
        self.stream = stream
        self.enabled = enabled
        self.compiled = False
        self.seconds = 0.0
        self._start = None
        self._listener = None

    def __enter__(self):
        from numba.core import event

        notice = self

        class _Listener(event.Listener):
            def on_start(self, ev):
                if not notice.compiled:
                    notice.compiled = True
                    speaker = next((n for n in _ACTIVE if n.enabled), None)
                    if speaker is notice:
                        print(notice.message, file=notice.stream or sys.stderr, flush=True)

            def on_end(self, ev):
                pass

        self._listener = _Listener()
        event.register("numba:compile", self._listener)
        _ACTIVE.append(self)
        self._start = now_ns()
        return self

    def __exit__(self, *exc):
        from numba.core import event

        event.unregister("numba:compile", self._listener)
        _ACTIVE.remove(self)
        self.seconds = ms_since(self._start) / 1e3
