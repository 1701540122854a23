"""levelforge.engine: Numba kernels over flat integer arrays, and nothing else.

Kernels never import from the Python API, never raise for control flow and never
allocate inside hot loops: callers pass preallocated work arrays. Input is
validated by the API before it reaches a kernel.
"""
