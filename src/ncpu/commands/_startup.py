"""Start-up without the garbage collector's rework: for commands that import numba and friends.

Importing numpy, numba and a compiled package allocates about a million
long-lived objects (modules, classes, numba types and templates).  While they
are allocated, Python's cyclic collector runs full collections again and again
over a heap that only grows; at exit it walks all of it once more.  Together
that was about a third of `ncpu arm64`'s CPU time on a hello world.

`heavy_imports()` holds the collector off while its block imports.  In a
process that runs one command and exits (`own_process()`, called by the
`ncpu` entry point), it then moves every object alive at the block's end into
the permanent generation (`gc.freeze`), which no collection, the final one
included, walks again; garbage made afterwards, by the run itself, is
collected as usual.  Called from a longer-lived program (tests, a notebook),
nothing is frozen: garbage that program had not collected yet would never be.

`one_blas_thread()` keeps numpy's BLAS from starting its thread pool, for
commands that never multiply matrices with numpy (`ncpu arm64`).
"""

from __future__ import annotations

import contextlib
import gc
import os
import sys

_freeze = False


def own_process() -> None:
    """This process runs one command and exits: heavy_imports may freeze what it imported."""
    global _freeze
    _freeze = True


@contextlib.contextmanager
def heavy_imports():
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if _freeze:
            gc.freeze()
        if was_enabled:
            gc.enable()


@contextlib.contextmanager
def one_blas_thread():
    """Import numpy (inside the block) with its OpenBLAS limited to one thread.

    OpenBLAS starts a thread per core when numpy loads it, and those threads spin
    waiting for work: on a 2-core host about 0.1 s of CPU per process (of a
    static hello world's 0.6 s under `ncpu arm64`), for a command whose numpy
    never calls BLAS.  The library reads OPENBLAS_NUM_THREADS once, when it
    loads, so the variable is set for the block only and then put back as it
    was: the guest's environment (a copy of ours) must not change, since the
    environment is part of a program's input.  No effect when numpy is
    already imported."""
    name = "OPENBLAS_NUM_THREADS"
    if "numpy" in sys.modules or name in os.environ:
        yield
        return
    os.environ[name] = "1"
    try:
        yield
    finally:
        del os.environ[name]
