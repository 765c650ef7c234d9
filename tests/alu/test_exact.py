"""`ExactALU` (the torch restatement of the semantics) against the one
definition, `ncpu.isa.semantics`: every op on every pair of edge values and
on random pairs, at 32 bits."""

from __future__ import annotations

import random

import pytest
import torch

from ncpu.alu.exact import ExactALU
from ncpu.alu.verify import reference_op
from ncpu.isa import semantics as sem

_rng = random.Random(9)
VALUES = list(sem.EDGE_VALUES) + [sem.wrap(_rng.getrandbits(32)) for _ in range(40)] + [_rng.randint(-40, 40) for _ in range(10)]
A = [a for a in VALUES for _ in VALUES]
B = [b for _ in VALUES for b in VALUES]


@pytest.mark.parametrize("op", sem.OPS)
def test_every_op_matches_the_definition(op):
    got = ExactALU(32).compute(op, torch.tensor(A), torch.tensor(B)).tolist()
    if op in sem.UNARY:
        assert got == [sem.UNARY[op](a) for a in A]
    else:
        assert got == [sem.BINARY[op](a, b) for a, b in zip(A, B)]


def test_flags_match_the_definition():
    got = reference_op("CMP", torch.tensor(A), torch.tensor(B), 32).tolist()
    assert [tuple(f) for f in got] == [sem.compare_flags(a, b) for a, b in zip(A, B)]
    z, n = ExactALU(32).zero_negative(torch.tensor(VALUES))
    assert z.tolist() == [v == 0 for v in VALUES] and n.tolist() == [v < 0 for v in VALUES]


def test_narrow_word_wraps_at_its_width():
    eight = ExactALU(8)
    a, b = torch.tensor([127, -128, 100, -1]), torch.tensor([1, -1, 3, 9])
    assert eight.compute("ADD", a, b).tolist() == [-128, 127, 103, 8]
    assert eight.compute("SHL", a, b).tolist() == [-2, 0, 32, 0]
    assert eight.compute("DIV", a, b).tolist() == [127, -128, 33, 0]
