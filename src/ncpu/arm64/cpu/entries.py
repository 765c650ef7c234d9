"""The executors the hot loop calls by address (calls.py), and their addresses.

run.py reads `addresses(...)[k]`: cold_rows.group(k), one function per cold family
(run.COLD_GROUP gives each row's k), then one per family of the loop's with a rare case
(rows.rare), each resolved the first time one of its rows (or rare cases) runs, so a program
compiles only the families it uses.  run.py does not import
them, so an edit of a cold family does not recompile the loop (ncpu.jitcache stamps
each function with the sources its module imports).
"""
import numpy as np
from numba import typeof, types

from .calls import signature
from .cold_rows import GROUP_HOMES, group
from .native import threshold
from .run import NATIVE

# the array `addresses` returns: the address of group(k) at k, then (at NATIVE, = len(GROUP_HOMES))
# native.py's threshold
assert NATIVE == len(GROUP_HOMES), "run python -m ncpu.arm64.cpu.gen_loop"
_SCALAR = types.int64
_resolved: dict[tuple, np.ndarray] = {}


def _address(dispatcher, sig) -> int:
    """The address of `dispatcher` compiled (or loaded from the cache) for `sig`, numba's convention
    (no Python wrappers: the loop calls it, Python does not)."""
    compiled = dispatcher.compile_native(sig)
    return compiled.library.get_pointer_to_function(compiled.fndesc.llvm_func_name)


def addresses(R, V, st, m) -> np.ndarray:
    """The executors' address array for a loop run on registers R, vector views V (vregs.VR),
    stop array st and memory arrays m (memory.MemArrays), one per process and argument types,
    all 0 until `resolve` fills them in.  The last entry is not an address: native.py's
    threshold (instructions interpreted on a page before it is translated; 0: never)."""
    key = (typeof(R), typeof(V), typeof(st), typeof(m))
    if key not in _resolved:
        _resolved[key] = np.array([0] * NATIVE + [threshold()], np.int64)
    return _resolved[key]


def resolve(fp: np.ndarray, k: int, R, V, st, m) -> None:
    """Fill in fp[k] (the loop stopped with calls.R_RESOLVE): compile or load that executor for the
    signature calls.call_at derives from these values' types in the loop.  The compiled code lives as
    long as its dispatcher (a module global).  The memory arrays are passed by address
    (calls.pointer_to)."""
    assert 0 <= k < NATIVE, k
    fp[k] = _address(group(k), group_signature(R, V, st, m))


def group_signature(R, V, st, m):
    """The signature the loop calls cold_rows' functions with (calls.call_at), from the types
    of the loop's registers, vector views, stop array and memory arrays."""
    return signature((_SCALAR,) * 4 + (typeof(R), typeof(V), typeof(st), _SCALAR, types.CPointer(typeof(m)), _SCALAR))
