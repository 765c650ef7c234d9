"""`njit` for the CPU's numba code: a helper is compiled once, not once per constant argument.

numba types a call of a jitted function from jitted code with the arguments' literal
types: `bits(w, 21, 5)` and `bits(w, 10, 12)` become two compiles of `bits`, each
specialised to its constants.  The loop calls its helpers with constant field
positions, sizes and operation codes, so `decoder.bits` was compiled 37 times,
`decoder.fld` 13, `int_ops.lsr` 10, and the cold compile of the loop (numba's cache
empty) spent about a quarter of its time on such copies
(benchmarks/arm64_compile_profile.py).  The copies buy nothing: LLVM inlines the
small helpers at the call site and folds the constants there anyway.

So the dispatchers made here type a call by the arguments' types only (`unliteral`):
one compile per signature of types.  Otherwise they are numba's CPU dispatchers, used
exactly as `numba.njit` (options, `cache=True`, `pipeline_class`).
"""
from __future__ import annotations

from numba.core import types
from numba.core.registry import CPUDispatcher


class TypedByType(CPUDispatcher):
    """A CPU dispatcher whose calls from jitted code are typed without literal values."""

    def get_call_template(self, args, kws):
        args = tuple(types.unliteral(a) for a in args)
        kws = {k: types.unliteral(v) for k, v in kws.items()}
        return super().get_call_template(args, kws)


def njit(fn=None, *, cache: bool = False, pipeline_class=None, locals=None, **options):
    """numba.njit's decorator (nopython; `cache`, `pipeline_class`, `locals` and target options
    as there), making a TypedByType dispatcher."""
    options = {"nopython": True, "boundscheck": None, **options}

    def wrap(py_func):
        extra = {"pipeline_class": pipeline_class} if pipeline_class is not None else {}
        dispatcher = TypedByType(py_func=py_func, locals=dict(locals or {}), targetoptions=options, **extra)
        if cache:
            dispatcher.enable_caching()
        return dispatcher

    return wrap(fn) if fn is not None else wrap
