"""The compiled engine's kernel restates each operation in numba: every op,
run as one instruction over every pair of edge values and random pairs,
against `ncpu.isa.semantics`."""

from __future__ import annotations

import random

import numpy as np
import pytest

from ncpu.isa import assemble
from ncpu.isa import semantics as sem
from ncpu.machine import compute
from ncpu.machine.state import BatchState

_rng = random.Random(11)
VALUES = list(sem.EDGE_VALUES) + [sem.wrap(_rng.getrandbits(32)) for _ in range(30)] + [_rng.randint(-40, 40) for _ in range(8)]
A = [a for a in VALUES for _ in VALUES]
B = [b for _ in VALUES for b in VALUES]


def run_pairs(source: str) -> BatchState:
    batch = BatchState.zeros(len(A), 4)
    batch.registers[:, 0] = A
    batch.registers[:, 1] = B
    return compute.run_batch(assemble(source).words, batch, 10)


@pytest.mark.parametrize("op", sem.OPS)
def test_every_op_matches_the_definition(op):
    source = f"{op} R2, R0\nHALT" if op in sem.UNARY else f"{op} R2, R0, R1\nHALT"
    got = run_pairs(source).registers[:, 2].tolist()
    if op in sem.UNARY:
        assert got == [sem.UNARY[op](a) for a in A]
    else:
        assert got == [sem.BINARY[op](a, b) for a, b in zip(A, B)]


def test_compare_flags_match_the_definition():
    flags = run_pairs("CMP R0, R1\nHALT").flags
    assert [tuple(map(bool, f)) for f in np.asarray(flags)] == [sem.compare_flags(a, b) for a, b in zip(A, B)]
