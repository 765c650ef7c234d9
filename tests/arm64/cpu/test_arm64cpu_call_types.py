"""arm64/cpu/call_types.py: a call's type is numba's answer, worked out once per compile."""
import operator
import re

import numpy as np
import pytest
from numba import njit as numba_njit
from numba.core import types
from numba.core.types.functions import BaseFunction

from ncpu.arm64.cpu import call_types
from ncpu.arm64.cpu.exec_int import add_sub_imm


def _mixed(a, b, x, u):
    """Calls of many kinds, most repeated with the same argument types."""
    s = 0
    for k in range(3):
        s += (a + b) * (a - b) + (a + 1) * (b + 2) - min(a, b) + max(a, 3)
        s ^= (a << 3) | (b >> 2) | (a & 7)
    f = x * 2.5 + np.sqrt(abs(x)) - float(a) / (b | 1)
    w = np.uint64(u) + np.uint64(1)
    w = (w << np.uint64(3)) ^ (w >> np.uint64(60))
    t = (a, x, w)
    return s, f, w, t[0] + t[1]


_SIG = (types.int64, types.int64, types.float64, types.uint64)
_ROW_ARRAY = types.Array(types.int64, 1, "C")
# an executor family of the CPU as the loop calls it: (op, w, imm, pc, R, st, a, b, c, d)
_FAMILY_SIG = (types.int64,) * 4 + (_ROW_ARRAY, _ROW_ARRAY) + (types.int64,) * 4


def _types_of(py_func, sig):
    """typemap and call types of a fresh compile (no cache), addresses left out."""
    disp = numba_njit(py_func)
    disp.compile(sig)
    ov = disp.overloads[tuple(sig)]
    clean = lambda t: re.sub(r"0x[0-9a-f]+", "0x", str(t))  # noqa: E731
    typemap = sorted((k, clean(v)) for k, v in ov.type_annotation.typemap.items())
    calls = sorted(clean(v) for v in ov.type_annotation.calltypes.values())
    return typemap, calls


@pytest.mark.parametrize("py_func, sig", [
    (_mixed, _SIG),
    (add_sub_imm.py_func, _FAMILY_SIG),
])
def test_memoised_types_are_numbas(py_func, sig):
    plain = _types_of(py_func, sig)
    with call_types.memoised():
        remembered = _types_of(py_func, sig)
    assert remembered == plain


def test_each_distinct_call_resolved_once(monkeypatch):
    asked = []

    def counting(self, context, args, kws):
        asked.append((self, tuple(args)))
        return numba_get(self, context, args, kws)

    numba_get = call_types._numba_get_call_type
    monkeypatch.setattr(call_types, "_numba_get_call_type", counting)
    with call_types.memoised():
        _types_of(_mixed, _SIG)
    assert asked, "numba's resolver was not reached"
    assert len(asked) == len(set(asked))
    add = [fn for fn, args in asked if fn.typing_key is operator.add and args == (types.int64, types.int64)]
    assert len(add) == 1        # `_mixed` adds two int64 several times


def test_numbas_resolver_is_back_after_the_outermost():
    numba_get = BaseFunction.get_call_type
    with call_types.memoised():
        outer = call_types._answers
        with call_types.memoised():
            assert call_types._answers is outer          # a nested compile shares it
        assert BaseFunction.get_call_type is not numba_get
    assert BaseFunction.get_call_type is numba_get and call_types._answers is None
    with pytest.raises(RuntimeError):
        with call_types.memoised():
            raise RuntimeError("a failed compile")
    assert BaseFunction.get_call_type is numba_get and call_types._answers is None
