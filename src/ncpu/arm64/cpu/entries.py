"""The executors the hot loop calls by address (calls.py), and their addresses.

run.py reads `addresses(...)[k]`: cold_rows.group(k), one function per cold family
(run.COLD_GROUP gives each row's k), then one per family of the loop's with a rare case
(rows.rare), each resolved the first time one of its rows (or rare cases) runs, so a program
compiles only the families it uses.  run.py does not import
them, so an edit of a cold family does not recompile the loop (ncpu.jitcache stamps
each function with the sources its module imports).
"""
import numpy as np
from numba import typeof
from numba.core.types import Array, BaseTuple, CPointer, int64
from numba.np.numpy_support import from_dtype, map_layout

from .calls import signature
from .cold_rows import GROUP_HOMES, group
from .native import threshold
from .run import NATIVE

# the array `addresses` returns: the address of group(k) at k, then (at NATIVE, = len(GROUP_HOMES))
# native.py's threshold
assert NATIVE == len(GROUP_HOMES), "run python -m ncpu.arm64.cpu.gen_loop"
_SCALAR = int64
_resolved: dict[tuple, np.ndarray] = {}


def _address(dispatcher, sig) -> int:
    """The address of `dispatcher` compiled (or loaded from the cache) for `sig`, numba's convention
    (no Python wrappers: the loop calls it, Python does not)."""
    compiled = dispatcher.compile_native(sig)
    return compiled.library.get_pointer_to_function(compiled.fndesc.llvm_func_name)


def numba_type(value):
    """numba's typeof for the machine's arrays and tuples of them, without its check that an
    array is not numpy's masked array: that check imports numpy.ma, 14 ms of `ncpu arm64`'s
    start-up, for a type the machine never makes.  Other values go to typeof."""
    if type(value) is np.ndarray:                   # numba's _typeof_ndarray, past that check
        return Array(from_dtype(value.dtype), value.ndim, map_layout(value), readonly=not value.flags.writeable)
    if isinstance(value, tuple):                    # numba's _typeof_tuple (a namedtuple keeps its class)
        return BaseTuple.from_types([numba_type(v) for v in value], type(value))
    return typeof(value)


def loop_types(R, V, st, m) -> tuple:
    """numba's types of a loop run's registers R, vector views V (vregs.VR), stop array st and
    memory arrays m (memory.MemArrays): what `addresses` and `resolve` are keyed by.  A Cpu
    works them out once (typeof of the two tuples' 20 arrays, each time, was about a
    millisecond per resolve)."""
    return numba_type(R), numba_type(V), numba_type(st), numba_type(m)


def addresses(types: tuple) -> np.ndarray:
    """The executors' address array for a loop run on arguments of these `loop_types`, one per
    process and types, all 0 until `resolve` fills them in.  The last entry is not an
    address: native.py's threshold (instructions interpreted on a page before it is
    translated; 0: never)."""
    if types not in _resolved:
        _resolved[types] = np.array([0] * NATIVE + [threshold()], np.int64)
    return _resolved[types]


def resolve(fp: np.ndarray, k: int, types: tuple) -> None:
    """Fill in fp[k] (the loop stopped with calls.R_RESOLVE): compile or load that executor for the
    signature calls.call_at derives from the loop's argument types (`loop_types`).  The compiled
    code lives as long as its dispatcher (a module global).  The memory arrays are passed by
    address (calls.pointer_to)."""
    assert 0 <= k < NATIVE, k
    fp[k] = _address(group(k), group_signature(types))


def group_signature(types: tuple):
    """The signature the loop calls cold_rows' functions with (calls.call_at), from the types of
    the loop's registers, vector views, stop array and memory arrays (`loop_types`)."""
    R, V, st, m = types
    return signature((_SCALAR,) * 4 + (R, V, st, _SCALAR, CPointer(m), _SCALAR))
