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
