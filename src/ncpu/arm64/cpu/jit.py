"""`njit` for the CPU's numba code: a helper is compiled once, not once per constant argument,
and without the Python entry points that only a call from Python needs.

One compile per type signature.  numba types a call of a jitted function from jitted
code with the arguments' literal types: `bits(w, 21, 5)` and `bits(w, 10, 12)` become
two compiles of `bits`, each specialised to its constants.  The loop calls its helpers
with constant field positions, sizes and operation codes, so `decoder.bits` was compiled
37 times, `decoder.fld` 13, `int_ops.lsr` 10, and the cold compile of the loop (numba's
cache empty) spent about a quarter of its time on such copies
(benchmarks/arm64_compile_profile.py).  The copies buy nothing: LLVM inlines the small
helpers at the call site and folds the constants there anyway.  So the dispatchers made
here type a call by the arguments' types only (`unliteral`).

No wrappers for jitted callers.  numba gives every compiled function a CPython wrapper
(so Python can call it) and a C wrapper, each lowered, optimised and turned into machine
code with it; of the hundred functions the loop's cold compile makes, only the loop is
called from Python.  A compile for a jitted caller (`get_call_template`) or for its
address (`compile_native`) leaves both out, and is cached under its own index beside
numba's (`<name>-bare`): a Python call of such a signature finds nothing it can call and
compiles (or loads) the full version, which then serves jitted callers too.

A call's type (an operator's, a numpy function's) is worked out once per compile, not at every
call site (call_types.py), and the function is lowered with less LLVM IR for the same machine
code (lean_lowering.py; a `pipeline_class` given to `njit` replaces that).

Otherwise these are numba's CPU dispatchers, used exactly as `numba.njit` (options,
`cache=True`, `pipeline_class`), except that numba's cache object is made when the function is
first compiled rather than when it is decorated.
"""
from __future__ import annotations

from numba.core import sigutils, types
from numba.core.compiler_lock import global_compiler_lock
from numba.core.caching import FunctionCache, IndexDataCacheFile, NullCache
from numba.core.registry import CPUDispatcher

from . import call_types
from .lean_lowering import LeanCompiler

BARE = {"no_cpython_wrapper": True, "no_cfunc_wrapper": True}


class _BareCache(FunctionCache):
    """numba's cache of one function (same directory, same source stamp) under its own
    index, for the compiles without wrappers: numba's index does not tell them apart."""

    def __init__(self, py_func):
        super().__init__(py_func)
        self._cache_file = IndexDataCacheFile(cache_path=self._cache_path,
                                              filename_base=self._impl.filename_base + "-bare",
                                              source_stamp=self._impl.locator.get_source_stamp())


class TypedByType(CPUDispatcher):
    """A CPU dispatcher whose calls from jitted code are typed without literal values and
    compiled without Python entry points (module docstring)."""

    def __init__(self, *args, cache_on_compile: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        self._bare: set = set()             # signatures whose overload has no wrappers
        self._bare_cache = None             # their cache (_BareCache), made at the first of them
        self._jitted_caller = 0             # > 0 while a compile serves jitted code only
        self._cache_wanted = cache_on_compile   # cache=True: numba's cache, made at the first compile

    def get_call_template(self, args, kws):
        args = tuple(types.unliteral(a) for a in args)
        kws = {k: types.unliteral(v) for k, v in kws.items()}
        with global_compiler_lock:      # (held already: numba types calls while compiling)
            self._jitted_caller += 1
            try:
                return super().get_call_template(args, kws)
            finally:
                self._jitted_caller -= 1

    def compile_native(self, sig):
        """Compile (or load) `sig` for a caller that takes the function's address (numba's
        calling convention), not a Python call: without wrappers."""
        with global_compiler_lock:
            self._jitted_caller += 1
            try:
                self.compile(sig)
            finally:
                self._jitted_caller -= 1
            return self.overloads[sigutils.normalize_signature(sig)[0]]

    def compile(self, sig):
        # numba's lock first: `_jitted_caller` says what the thread that holds it compiles for
        with global_compiler_lock, call_types.memoised():
            if self._cache_wanted and isinstance(self._cache, NullCache):
                self.enable_caching()
            return self._compile(sig)

    def _compile(self, sig):
        args = tuple(sigutils.normalize_signature(sig)[0])
        if not self._jitted_caller:
            if args in self._bare:      # Python calls it: the full version replaces the bare one
                self._bare.discard(args)
                del self.overloads[args]
            return super().compile(sig)
        if args in self.overloads:
            return self.overloads[args].entry_point
        full = self._compiler.targetoptions, self._cache
        self._compiler.targetoptions = {**full[0], **BARE}
        if not isinstance(full[1], NullCache):
            self._bare_cache = self._bare_cache or _BareCache(self.py_func)
            self._cache = self._bare_cache
        self._bare.add(args)
        try:
            return super().compile(sig)
        except BaseException:
            self._bare.discard(args)
            raise
        finally:
            self._compiler.targetoptions, self._cache = full

    def add_overload(self, cres):
        """numba's, except that a bare overload is not offered to Python calls (its entry
        point is not callable): they come to `compile`, which makes the full one."""
        args = tuple(cres.signature.args)
        if self._jitted_caller and args in self._bare:
            self.overloads[args] = cres
            return
        super().add_overload(cres)


def njit(fn=None, *, cache: bool = False, pipeline_class=None, locals=None, **options):
    """numba.njit's decorator (nopython; `cache`, `pipeline_class`, `locals` and target options
    as there), making a TypedByType dispatcher; lowered by lean_lowering unless `pipeline_class`
    says otherwise."""
    options = {"nopython": True, "boundscheck": None, **options}

    def wrap(py_func):
        # The cache object is made at the first compile, not here: it locates the cache and
        # stamps the sources, about 0.2 s of start-up over the package's 300 functions, most of
        # which a run never compiles or loads (the loop links them in).
        return TypedByType(py_func=py_func, locals=dict(locals or {}), targetoptions=options,
                           cache_on_compile=cache, pipeline_class=pipeline_class or LeanCompiler)

    return wrap(fn) if fn is not None else wrap
