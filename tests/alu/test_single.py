"""The one-row numpy circuits (`BitCircuits`) against the semantics and against
`DenseALU`, whose matrices they evaluate: every op on every pair of edge values
and on random pairs, and the 8-bit instance over every pair (slow)."""

from __future__ import annotations

import random

import pytest
import torch

from ncpu.alu.dense import DenseALU
from ncpu.alu.single import BitCircuits
from ncpu.alu.weights import build_alu
from ncpu.isa import semantics as sem
from ncpu.machine.neural import bit_circuits
from ncpu.isa.semantics import EDGE_VALUES as SPECIAL_VALUES

_rng = random.Random(19)
VALUES = list(SPECIAL_VALUES) + [_rng.randint(-(1 << 31), (1 << 31) - 1) for _ in range(25)]
PAIRS = [(a, b) for a in VALUES for b in VALUES]
BIT_OPS = ("ADD", "SUB", "AND", "OR", "XOR", "SHL", "SHR", "SAR")


@pytest.fixture(scope="module")
def circuits() -> BitCircuits:
    return bit_circuits("trained")


@pytest.mark.parametrize("op", BIT_OPS)
def test_binary_circuits_match_semantics_and_dense(circuits, op):
    got = [circuits.decode(circuits.binary(op, circuits.encode(a), circuits.encode(b))) for a, b in PAIRS]
    assert got == [sem.BINARY[op](a, b) for a, b in PAIRS]
    dense = circuits.dense.compute(op, torch.tensor([a for a, _ in PAIRS]), torch.tensor([b for _, b in PAIRS]))
    assert got == dense.tolist()


@pytest.mark.parametrize("op", ["MUL", "DIV", "MOD"])
def test_value_circuits_match_semantics(circuits, op):
    for a, b in PAIRS[::7]:
        want = sem.BINARY[op](a, b)
        assert circuits.value_zn(op, a, b) == (want, want == 0, want < 0), (op, a, b)


def test_unary_circuits_and_flags(circuits):
    for a in VALUES:
        bits = circuits.encode(a)
        assert circuits.decode(circuits.unary("NOT", bits)) == ~a
        assert circuits.decode(circuits.unary("NEG", bits)) == sem.wrap(-a)
        assert circuits.zero_negative(bits) == (a == 0, a < 0)


def test_compare_flags_match_semantics(circuits):
    got = [circuits.compare(circuits.encode(a), circuits.encode(b)) for a, b in PAIRS]
    assert got == [sem.compare_flags(a, b) for a, b in PAIRS]


def test_unknown_ops_are_clear_errors(circuits):
    bits = circuits.encode(1)
    with pytest.raises(ValueError, match="not a bit-level"):
        circuits.binary("MUL", bits, bits)
    with pytest.raises(ValueError, match="no value read-out"):
        circuits.value_zn("ADD", 1, 1)


@pytest.mark.slow
def test_8bit_instance_exhaustive():
    """Every pair of 8-bit operands through the one-row circuits of the 8-bit ALU."""
    c = BitCircuits(DenseALU(build_alu(8, "trained")))
    wrap8 = lambda x: ((x + 128) & 0xFF) - 128  # noqa: E731
    shift = {"SHL": lambda a, s: 0 if s >= 8 else wrap8(a << s), "SHR": lambda a, s: 0 if s >= 8 else wrap8((a & 0xFF) >> s),
             "SAR": lambda a, s: a >> min(s, 7)}
    for a in range(-128, 128):
        for b in range(-128, 128):
            x, y = c.encode(a), c.encode(b)
            want = {"ADD": wrap8(a + b), "SUB": wrap8(a - b), "AND": a & b, "OR": a | b, "XOR": a ^ b,
                    **{k: f(a, b & 0xFF) for k, f in shift.items()}}
            for op in BIT_OPS:
                assert c.decode(c.binary(op, x, y)) == want[op], (op, a, b)
            n, z = wrap8(a - b) < 0, a == b
            v = ((a < 0) != (b < 0)) and ((wrap8(a - b) < 0) != (a < 0))
            assert c.compare(x, y) == (n, z, (a & 0xFF) >= (b & 0xFF), v), (a, b)
