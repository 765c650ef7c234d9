"""The nCPU ALU on numpy arrays, for search inner loops.

Values are signed 32-bit words held in int64 arrays (so products of two
words still fit before wrapping). A restatement of `ncpu.isa.semantics` for
speed (a search evaluates millions of candidates an array pass at a time);
tests/synth/test_vecops.py checks every op against it on every pair of its
edge values and on random pairs.
"""

from __future__ import annotations

import numpy as np

MASK32 = 0xFFFFFFFF


def wrap(x: np.ndarray) -> np.ndarray:
    # Through int32 and back: the cast keeps the low 32 bits (two's
    # complement), one pass faster than add-mask-subtract.
    return np.asarray(x).astype(np.int32).astype(np.int64)


def unsigned(x: np.ndarray) -> np.ndarray:
    return x & MASK32


def _quotient(a: np.ndarray, safe: np.ndarray) -> np.ndarray:
    """a / safe truncated toward zero, unwrapped (safe has no zeros). In
    float64: for |a| < 2^53 the rounded quotient never crosses an integer
    (a non-integer a/b is at least 1/|b| from one, the rounding error at
    most |a/b| * 2^-53 < 1/|b|), so truncating it is exact; about 4x faster
    than numpy's int64 floor division with the sign fix-ups."""
    return (a / safe).astype(np.int64)


def divide(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    zero = b == 0
    return np.where(zero, 0, wrap(_quotient(a, np.where(zero, 1, b))))


def modulo(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    zero = b == 0
    safe = np.where(zero, 1, b)
    return np.where(zero, a, wrap(a - _quotient(a, safe) * safe))


def shl(a, b):
    amount = unsigned(b)
    return np.where(amount >= 32, 0, wrap(a << np.minimum(amount, 31)))


def shr(a, b):
    amount = unsigned(b)
    return np.where(amount >= 32, 0, wrap(unsigned(a) >> np.minimum(amount, 31)))


def sar(a, b):
    return a >> np.minimum(unsigned(b), 63)


BINARY = {
    "ADD": lambda a, b: wrap(a + b),
    "SUB": lambda a, b: wrap(a - b),
    "MUL": lambda a, b: wrap(a * b),
    "DIV": divide,
    "MOD": modulo,
    "AND": lambda a, b: a & b,
    "OR": lambda a, b: a | b,
    "XOR": lambda a, b: a ^ b,
    "SHL": shl,
    "SHR": shr,
    "SAR": sar,
}
UNARY = {
    "NOT": lambda a: ~a,
    "NEG": lambda a: wrap(-a),
}
# Commutative operations: the enumerator only builds one operand order.
COMMUTATIVE = {"ADD", "MUL", "AND", "OR", "XOR"}
