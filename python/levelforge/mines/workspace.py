"""The work arrays of the analysis kernel, allocated once per board size and grown on demand.

The counting kernels append their states, edges and weights to pools; when a pool is too
small the kernel says which one (a ``NEED_*`` code) and the call is repeated with that
pool doubled. Pools keep their size from call to call, so a workspace settles after a
few positions and then allocates nothing.
"""
import numpy as np

from levelforge.engine import mines as K
from levelforge.engine import mines_count as C
from levelforge.engine import mines_enum as E

_BINOM = K.binomial_table()
_BINOM.setflags(write=False)


class Workspace:
    """Work arrays for boards of ``n`` cells (not thread-safe: one per user)."""

    def __init__(self, n):
        self.n = n
        i32, i64 = np.int32, np.int64
        shape_w, shape_r = E.int_work_shapes(n)
        self.iw = np.zeros(shape_w, i32)
        self.ir = np.zeros(shape_r, i32)
        self.u8 = np.zeros(E.byte_work_size(n), np.uint8)
        self.fw = np.zeros(E.float_work_size(n))
        self.params = np.zeros(E.N_PARAMS, i64)
        self.res = np.zeros(E.N_RES, i64)
        self.cells_out = np.zeros(n, i32)
        self.state = np.zeros(n, np.uint8)      # writable copies of the public arrays
        self.numbers = np.zeros(n, np.int8)
        self.known = np.zeros(n, np.int8)
        self.prob = np.zeros(n)
        self.st = np.zeros((1024, 6), i64)
        self.ed = np.zeros((2048, 2), i32)
        self.keys = np.zeros(16384, np.int8)
        self.ht = np.zeros((2048, 2), i64)
        self._weights(8192)
        self._global(4096)

    def _weights(self, size):
        self.fp = np.zeros(size)
        self.bq = np.zeros(size)
        self.bf = np.zeros(size, np.uint8)

    def _global(self, size):
        self.gw = np.zeros(size)
        self.gb = np.zeros(size, np.uint8)

    def grow(self, code):
        """Double the pool a kernel asked for with ``code``."""
        if code == C.NEED_STATES:
            self.st = np.zeros((2 * self.st.shape[0], 6), np.int64)
        elif code == C.NEED_EDGES:
            self.ed = np.zeros((2 * self.ed.shape[0], 2), np.int32)
        elif code == C.NEED_KEYS:
            self.keys = np.zeros(2 * self.keys.size, np.int8)
        elif code == C.NEED_HASH:
            self.ht = np.zeros((2 * self.ht.shape[0], 2), np.int64)
        elif code == C.NEED_WEIGHTS:
            self._weights(2 * self.fp.size)
        elif code == C.NEED_GLOBAL:
            self._global(2 * self.gw.size)
        else:
            raise AssertionError(f"unknown work code {code}")

    def analyze(self, state, numbers, nb26):
        """Run :func:`~levelforge.engine.mines_enum.analyze_position` until it fits, then
        :func:`~levelforge.engine.mines_enum.witness_components` where the parameters ask
        for it and a component was over its state budget.

        The arrays are copied first: the kernels are compiled for writable arrays only
        (one specialisation, not one per read-only variant).
        """
        np.copyto(self.state, state)
        np.copyto(self.numbers, numbers)
        while True:
            E.analyze_position(self.state, self.numbers, nb26, self.known, self.prob,
                               self.cells_out, self.params, self.res, self.iw, self.ir, self.u8,
                               self.fw, self.st, self.ed, self.keys, self.ht, self.fp, self.bq,
                               self.bf, self.gw, self.gb, _BINOM)
            code = int(self.res[E.R_CODE])
            if code >= 0:
                break
            self.grow(code)
        if code == E.A_OK and self.params[E.P_WITNESS] != 0 and self.res[E.R_SKIPPED] > 0:
            code = self.witness()
        return code

    def witness(self):
        """Run :func:`~levelforge.engine.mines_enum.witness_components` on the last
        analysis (a no-op when no component was over its budget); returns its code."""
        E.witness_components(self.state, self.known, self.cells_out, self.params, self.res,
                             self.iw, self.ir, self.u8)
        return int(self.res[E.R_CODE])
