"""TensorALU against the semantics module, on edge values and random pairs."""

from __future__ import annotations

import random

import pytest
import torch

from ncpu.isa import semantics as sem
from ncpu.isa.semantics import EDGE_VALUES as SPECIAL_VALUES
from ncpu.machine.tensor_alu import OPS, TensorALU

_rng = random.Random(5)
VALUES = list(SPECIAL_VALUES) + [_rng.randint(-(1 << 31), (1 << 31) - 1) for _ in range(40)]
A = [a for a in VALUES for _ in VALUES]
B = [b for _ in VALUES for b in VALUES]
UNARY = {"NOT": lambda a: ~a, "NEG": lambda a: sem.wrap(-a)}


@pytest.mark.parametrize("op", OPS)
def test_compute_matches_semantics(op):
    alu = TensorALU()
    a, b = torch.tensor(A), torch.tensor(B)
    if op in UNARY:
        got = alu.compute(op, a, None).tolist()
        assert got == [UNARY[op](x) for x in A]
    else:
        got = alu.compute(op, a, b).tolist()
        assert got == [sem.BINARY[op](x, y) for x, y in zip(A, B)]


def test_compare_matches_semantics():
    n, z, c, v = TensorALU().compare(torch.tensor(A), torch.tensor(B))
    got = list(zip(n.tolist(), z.tolist(), c.tolist(), v.tolist()))
    assert got == [sem.compare_flags(x, y) for x, y in zip(A, B)]


def test_zero_negative():
    z, n = TensorALU().zero_negative(torch.tensor(VALUES))
    assert z.tolist() == [x == 0 for x in VALUES] and n.tolist() == [x < 0 for x in VALUES]


def test_unknown_op_is_a_clear_error():
    with pytest.raises(ValueError, match="unknown ALU op"):
        TensorALU().compute("ROTATE", torch.tensor([1]), torch.tensor([1]))


def test_engine_sends_all_arithmetic_through_the_alu():
    """A recording subclass sees every op the program runs (the hook the
    neural engine relies on)."""
    from ncpu.isa import assemble
    from ncpu.machine import fast, reference
    from ncpu.machine.state import MachineState

    class Recording(TensorALU):
        def __init__(self):
            self.seen = set()

        def compute(self, op, a, b):
            self.seen.add(op)
            return super().compute(op, a, b)

        def compare(self, a, b):
            self.seen.add("compare")
            return super().compare(a, b)

        def zero_negative(self, value):
            self.seen.add("zero_negative")
            return super().zero_negative(value)

    words = assemble("MOV R0, 5\nINC R0\nDEC R0\nMUL R1, R0, R0\nCMP R1, 3\nMOVT R2, 7\nNOT R3, R1\nHALT").words
    alu = Recording()
    assert fast.run(words, MachineState(), 100, alu=alu) == reference.run(words, MachineState(), 100)
    assert alu.seen == {"ADD", "SUB", "MUL", "compare", "SHL", "AND", "OR", "NOT", "zero_negative"}
