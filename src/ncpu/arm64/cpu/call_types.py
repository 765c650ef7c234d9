"""A call's type worked out once per compile, not once per call site.

numba types a call of a builtin or overloaded function (an operator on two
integers, `np.uint64(x)`, `min`) by trying that function's typing templates one
after the other, and does all of it again at every call site with the same
argument types: the loop's 15,000 such calls have under 900 distinct
(function, argument types), and working them out was most of the loop's type
inference (docs/arm64.md, "A call's type worked out once").  Inside
`memoised()`, numba's `BaseFunction.get_call_type` runs once per distinct
function, typing context and argument types, and later calls get its answer.

The answer is numba's own, and so is its one side effect: the implementation
key it records under the signature's argument types (read when the call is
lowered) is recorded again at each call, as numba would.  A failed resolution is
not remembered (it raises, as before).  Only compiles use it, under numba's
compiler lock, so no other thread types a call meanwhile.
"""
from __future__ import annotations

import contextlib

from numba.core.types.functions import BaseFunction

_numba_get_call_type = BaseFunction.get_call_type
_answers: dict | None = None          # (function, context, args, kws) -> (signature, impl key)


def _get_call_type(self, context, args, kws):
    key = (self, context, tuple(args), tuple(sorted(kws.items())))
    known = _answers.get(key)
    if known is None:
        sig = _numba_get_call_type(self, context, args, kws)      # raises if nothing matches
        known = _answers[key] = sig, self._impl_keys[sig.args]
    sig, impl_key = known
    self._impl_keys[sig.args] = impl_key
    return sig


@contextlib.contextmanager
def memoised():
    """Call types remembered until the outermost `memoised()` ends (a compile nested in
    another, numba compiling a callee while it types its caller, shares the outer one's)."""
    global _answers
    if _answers is not None:
        yield
        return
    _answers, numbas = {}, BaseFunction.get_call_type
    BaseFunction.get_call_type = _get_call_type
    try:
        yield
    finally:
        BaseFunction.get_call_type, _answers = numbas, None
