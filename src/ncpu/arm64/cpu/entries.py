"""The executors the hot loop calls by address (calls.py), and their addresses.

run.py reads `addresses(...)[COLD]`, and cold_rows.exec_cold reads its
families' addresses after it (cold_families.py, in order). Neither module
imports what it calls that way, so an edit of a cold family recompiles that
family alone, not the loop (ncpu.jitcache stamps each function with the
sources its module imports).
"""
import numpy as np
from numba import typeof, types

from .calls import signature
from .cold_families import FAMILIES
from .cold_rows import FIRST_FAMILY, exec_cold

COLD = 0                        # exec_cold's index in the array `addresses` returns
_SCALAR = types.int64
_VALUES = ("R", "V", "st", "fp")     # exec_cold's locals that are not integers
_resolved: dict[tuple, np.ndarray] = {}


def _address(dispatcher, sig) -> int:
    """The address of `dispatcher` compiled (or loaded from the cache) for `sig`, numba's convention."""
    dispatcher.compile(sig)
    compiled = dispatcher.overloads[sig.args]
    return compiled.library.get_pointer_to_function(compiled.fndesc.llvm_func_name)


def _types(R, V, st, fp) -> dict:
    return dict(zip(_VALUES, (typeof(R), typeof(V), typeof(st), typeof(fp))))


def addresses(R, V, st) -> np.ndarray:
    """The executors' address array for a loop run on registers R, vector views V (vregs.VR) and
    stop array st, one per process and argument types, all 0 until `resolve` fills them in."""
    key = (typeof(R), typeof(V), typeof(st))
    if key not in _resolved:
        _resolved[key] = np.zeros(FIRST_FAMILY + len(FAMILIES), np.int64)
    return _resolved[key]


def resolve(fp: np.ndarray, k: int, R, V, st) -> None:
    """Fill in fp[k] (the loop stopped with calls.R_RESOLVE): compile or load that executor for the
    signature calls.call_at derives from these values' types in the loop.  The compiled code lives as
    long as its dispatcher (a module global)."""
    typed = _types(R, V, st, fp)
    r, v, s, f = (typed[n] for n in _VALUES)
    if k == COLD:
        fp[k] = _address(exec_cold, signature((_SCALAR,) * 4 + (r, v, s, _SCALAR, f)))
    else:
        family, names = FAMILIES[k - FIRST_FAMILY]
        fp[k] = _address(family, signature([typed.get(n, _SCALAR) for n in names]))
