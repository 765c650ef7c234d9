"""The sketch family's numba kernel restates each operation and each exit
test (`loops._apply`, `loops._exits`, and `loops._taken` in numpy): all of
them against `ncpu.isa.semantics` on every pair of edge values and random
pairs."""

from __future__ import annotations

import random

import numpy as np

from ncpu.isa import semantics as sem
from ncpu.synth.loops import _JUMP, CONDITIONS, OPS, _apply, _exits, _taken

_rng = random.Random(17)
VALUES = list(sem.EDGE_VALUES) + [sem.wrap(_rng.getrandbits(32)) for _ in range(20)] + [_rng.randint(-40, 40) for _ in range(6)]
PAIRS = [(a, b) for a in VALUES for b in VALUES]


def test_kernel_operations_match_the_definition():
    for code, name in enumerate(OPS):
        for a, b in PAIRS:
            if name == "COPY":
                want = a
            elif name in sem.UNARY:
                want = sem.UNARY[name](a)
            else:
                want = sem.BINARY[name](a, b)
            assert _apply(code, a, b) == want, (name, a, b)


def test_exit_tests_match_the_definition():
    p = np.array([a for a, _ in PAIRS], np.int64)
    q = np.array([b for _, b in PAIRS], np.int64)
    for cond, name in enumerate(CONDITIONS):
        want = [sem.CONDITIONS[_JUMP[name]](*sem.compare_flags(a, b)) for a, b in PAIRS]
        assert [bool(_exits(cond, a, b)) for a, b in PAIRS] == want, name
        assert np.asarray(_taken(cond, p, q)).tolist() == want, name
