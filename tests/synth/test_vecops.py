"""The numpy ALU used by the searches agrees with the reference semantics."""

import random

import numpy as np

from ncpu.machine import semantics as sem
from ncpu.synth import vecops

EDGES = [0, 1, -1, 2, 31, 32, 33, -32, sem.INT_MIN, sem.INT_MIN + 1, (1 << 31) - 1, 0x12345678]


def test_binary_and_unary_match_semantics():
    rng = random.Random(5)
    values = EDGES + [sem.wrap(rng.getrandbits(32)) for _ in range(40)] + [rng.randint(-40, 40) for _ in range(20)]
    a = np.array([x for x in values for _ in values], np.int64)
    b = np.array([y for _ in values for y in values], np.int64)
    for name, fn in vecops.BINARY.items():
        got = fn(a, b)
        want = [sem.BINARY[name](int(x), int(y)) for x, y in zip(a, b)]
        assert got.tolist() == want, name
    assert vecops.UNARY["NOT"](a).tolist() == [~int(x) for x in a]
    assert vecops.UNARY["NEG"](a).tolist() == [sem.wrap(-int(x)) for x in a]
