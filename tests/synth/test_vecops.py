"""The numpy ALU used by the searches agrees with the reference semantics."""

import random

import numpy as np

from ncpu.isa import semantics as sem
from ncpu.synth import vecops

EDGES = [*sem.EDGE_VALUES, 0x12345678]


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


def test_gradient_exact_ops_and_circuits_match_vecops():
    """The differentiable executor's int64 torch semantics equal vecops, and
    its soft circuits are exact on hard bits."""
    import torch

    from ncpu.synth.gradient import EXACT, _soft_add, _soft_shift, to_bits

    rng = np.random.default_rng(0)
    edge = np.array(sem.EDGE_VALUES, np.int64)
    a = np.concatenate([rng.integers(-2**31, 2**31, 500), np.repeat(edge, len(edge)), rng.integers(-40, 40, 200)])
    b = np.concatenate([rng.integers(-2**31, 2**31, 500), np.tile(edge, len(edge)), rng.integers(-40, 40, 200)])
    A, B = torch.tensor(a), torch.tensor(b)
    for op, f in EXACT.items():
        want = vecops.UNARY[op](a) if op in vecops.UNARY else vecops.BINARY[op](a, b)
        assert (f(A, B).numpy() == want).all(), op
    assert torch.equal(_soft_add(to_bits(A), to_bits(B), torch.zeros(len(a))), to_bits(EXACT["ADD"](A, B)))
    assert torch.equal(_soft_add(to_bits(A), 1 - to_bits(B), torch.ones(len(a))), to_bits(EXACT["SUB"](A, B)))
    for op in ("SHL", "SHR", "SAR"):
        assert torch.equal(_soft_shift(to_bits(A), B, op), to_bits(EXACT[op](A, B))), op
