"""arm64/cpu/jit.py: a helper called with different constants is compiled once, by type."""
import numpy as np
from numba import njit as numba_njit
from numba.core import types

from ncpu.arm64.cpu import decoder
from ncpu.arm64.cpu.jit import TypedByType, njit


def _field(w, lsb, n):
    return (w >> lsb) & ((1 << n) - 1)


def _caller_of(helper):
    def caller(w):
        return helper(w, 21, 5) + helper(w, 10, 12) * 100 + helper(w, 0, 3)
    return caller


def test_one_compile_for_every_constant_argument():
    helper = njit(_field)
    caller = njit(_caller_of(helper))
    w = 0x1234_5678_9ABC
    assert caller(w) == _caller_of(_field)(w)
    assert list(helper.overloads) == [(types.int64, types.int64, types.int64)]


def test_numbas_own_dispatcher_compiles_one_per_constant():
    """What the module works around: if numba stops specialising on literals, this says so
    (and jit.py can go)."""
    helper = numba_njit(_field)
    caller = numba_njit(_caller_of(helper))
    assert caller(np.int64(7)) == _caller_of(_field)(7)
    assert len(helper.overloads) == 3
    assert all(any(isinstance(a, types.Literal) for a in sig) for sig in helper.overloads)


def test_options_and_locals_pass_through():
    @njit(fastmath=False, locals={"y": types.float64})
    def half(x):
        y = x
        return y / 2

    assert isinstance(half, TypedByType)
    assert half(21) == 10.5
    assert half.targetoptions["nopython"] is True and half.targetoptions["fastmath"] is False
    assert half.locals == {"y": types.float64}


def test_the_cpus_helpers_use_it():
    assert isinstance(decoder.bits, TypedByType)


def _wrapped(dispatcher, sig) -> bool:
    """True when the compiled overload has numba's CPython wrapper (a Python call can use it)."""
    cres = dispatcher.overloads[sig]
    return cres.library.get_pointer_to_function(cres.fndesc.llvm_cpython_wrapper_name) != 0


def test_a_helper_only_jitted_code_calls_gets_no_wrappers_until_python_calls_it():
    helper = njit(_field)
    caller = njit(_caller_of(helper))
    sig = (types.int64, types.int64, types.int64)
    w = 0xFEDC_BA98_7654
    assert caller(w) == _caller_of(_field)(w)
    assert not _wrapped(helper, sig)
    assert _wrapped(caller, (types.int64,))
    assert helper(w, 21, 5) == _field(w, 21, 5)           # a Python call compiles the full version
    assert _wrapped(helper, sig)
    again = njit(_caller_of(helper))                      # which jitted callers then use
    assert again(w) == caller(w)
    assert _wrapped(helper, sig)


def test_compile_native_gives_the_function_without_wrappers():
    helper = njit(_field)
    cres = helper.compile_native("int64(int64, int64, int64)")
    assert cres.library.get_pointer_to_function(cres.fndesc.llvm_func_name) != 0
    assert not _wrapped(helper, (types.int64,) * 3)
    assert helper(7, 1, 2) == 3


_CACHED = '''
import sys
from ncpu.arm64.cpu.jit import njit

@njit(cache=True)
def helper(w, lsb, n):
    return (w >> lsb) & ((1 << n) - 1)

@njit(cache=True)
def caller(w):
    return helper(w, 4, 8) + 1000 * helper(w, 0, 4)

order = sys.argv[1]
if order == "caller":
    print(caller(0x1234), helper(0x1234, 4, 8))
else:
    print(helper(0x1234, 4, 8), caller(0x1234))
'''


def test_bare_and_full_compiles_are_cached_apart(tmp_path):
    """numba's cache index does not tell a compile without wrappers from a full one: they
    are kept apart, so a later process that calls the function from Python never loads
    the bare one (its entry point would crash the process)."""
    import os
    import subprocess
    import sys
    (tmp_path / "cached_mod.py").write_text(_CACHED)
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache"), "PYTHONPATH":
           os.pathsep.join([str(tmp_path), *sys.path])}
    want = {"caller": "35 4035", "helper": "35 4035"}
    for order in ("caller", "helper", "caller", "helper"):
        out = subprocess.run([sys.executable, "cached_mod.py", order], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
        assert out.returncode == 0, out.stderr
        first, second = out.stdout.split()
        assert sorted([first, second]) == sorted(want[order].split()), out.stdout
    indexes = sorted(p.name for p in (tmp_path / "cache").rglob("*.nbi"))
    assert any("-bare" in n for n in indexes) and any("-bare" not in n for n in indexes), indexes


def test_the_cache_is_made_at_the_first_compile():
    """cache=True makes numba's cache object when the function is first compiled (start-up
    does not pay for the many functions a run never compiles or loads), and it is ours."""
    from numba.core.caching import FunctionCache, NullCache

    from ncpu import jitcache

    fresh = njit(cache=True)(decoder.bits.py_func)
    assert isinstance(fresh._cache, NullCache)
    assert fresh(0b1011_0000, 4, 4) == 0b1011
    assert isinstance(fresh._cache, FunctionCache)
    assert isinstance(fresh._cache._impl.locator, jitcache.install())
