"""numba's runtime library (NRT) from the cache, not compiled again by every process.

numba compiles the runtime's few LLVM functions (atomic reference counts,
`nrt_unresolved_abort`) in every process, the first time a function is
compiled or loaded from the cache: about 25 ms of CPU, 5% of `ncpu arm64`'s
start-up, for the same machine code each time.  `install()` makes that
compile keep its object code in nCPU's cache directory (ncpu.jitcache's),
and later processes load it the way numba loads a cached function.

The file is named by what decides the code: numba's and llvmlite's versions
and the host's target (numba's codegen magic tuple: triple, CPU, features).
A file that cannot be read or loaded is compiled again and rewritten; one
that cannot be written leaves numba's compile as it was.
"""

from __future__ import annotations

import functools
import hashlib
import pickle
from pathlib import Path

from ncpu.cachedir import write_whole


def _cache_file(codegen) -> Path:
    import llvmlite
    import numba

    from ncpu.jitcache import cache_root

    key = repr((numba.__version__, llvmlite.__version__, codegen.magic_tuple())).encode()
    return cache_root() / "runtime" / f"nrt-{hashlib.sha256(key).hexdigest()[:24]}.pickle"


def _load(ctx, path: Path):
    try:
        state = pickle.loads(path.read_bytes())
        return ctx.codegen().unserialize_library(state)
    # missing, truncated, or not a library this numba can load (llvmlite raises RuntimeError on
    # bad bitcode): compile instead
    except (OSError, EOFError, pickle.UnpicklingError, ValueError, TypeError, RuntimeError):
        return None


def _compile_runtime(ctx):
    """numba's nrtdynmod.compile_nrt_functions, with its object code kept."""
    from numba.core.runtime import nrtdynmod

    path = _cache_file(ctx.codegen())
    library = _load(ctx, path)
    if library is None:
        ir_module, library = nrtdynmod.create_nrt_module(ctx)
        library.enable_object_caching()
        library.add_ir_module(ir_module)
        library.finalize()
        write_whole(path, pickle.dumps(library.serialize_using_object_code()))
    return library


@functools.cache
def install() -> None:
    """Route numba's runtime compile through the cache (idempotent).  Where a numba release
    lacks the helpers this leans on, numba's own compile stays."""
    from numba.core.runtime import nrtdynmod

    if hasattr(nrtdynmod, "create_nrt_module") and hasattr(nrtdynmod, "compile_nrt_functions"):
        nrtdynmod.compile_nrt_functions = _compile_runtime
