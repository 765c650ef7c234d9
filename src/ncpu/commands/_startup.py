"""Start-up without the garbage collector's rework: for commands that import numba and friends.

Importing numpy, numba and a compiled package allocates about a million
long-lived objects (modules, classes, numba types and templates).  While they
are allocated, Python's cyclic collector runs full collections again and again
over a heap that only grows; at exit it walks all of it once more.  Together
that was about a third of `ncpu arm64`'s CPU time on a hello world.

`heavy_imports()` holds the collector off while the block imports, then moves
every object alive at its end into the permanent generation (`gc.freeze`), which
no collection (the final one included) walks again.  Garbage made afterwards,
by the run itself, is collected as usual.
"""

from __future__ import annotations

import contextlib
import gc


@contextlib.contextmanager
def heavy_imports():
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        if was_enabled:
            gc.enable()
