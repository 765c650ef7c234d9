"""The meaning of every nCPU operation, on Python integers: the one definition.

Registers hold signed 32-bit values. Arithmetic wraps modulo 2**32. The
reference engine runs these functions and the emitted Python copies their
source (`ncpu.synth.pyemit`). Engines that must restate an operation for
speed (`ncpu.alu.exact` on torch tensors, `ncpu.synth.vecops` on numpy
arrays, the numba kernels of `ncpu.machine.compute` and `ncpu.synth.loops`)
are each checked against these functions on every pair of `EDGE_VALUES` and
on random operands.
"""

from __future__ import annotations

INT_MIN = -(1 << 31)
INT_MAX = (1 << 31) - 1
MASK32 = 0xFFFFFFFF

# Where implementations part ways: zero and its neighbours, the extremes and
# theirs (INT_MIN / -1, INT_MIN % -1), shift amounts around 32 and 64 and
# negative ones, the 16-bit boundaries MOVT works at, a power of two.
EDGE_VALUES = (0, 1, -1, 2, INT_MIN, INT_MAX, INT_MIN + 1, 31, 32, 33, 63, 64, -31, -32, -33,
               0xFFFF, 0x10000, 0x7FFF, -0x8000, 1 << 30, -2, INT_MAX - 1)


def wrap(value: int) -> int:
    """Reduce any integer to the signed 32-bit value with the same low bits."""
    value &= MASK32
    return value - (1 << 32) if value >> 31 else value


def unsigned(value: int) -> int:
    return value & MASK32


def divide(a: int, b: int) -> int:
    """Signed division truncating toward zero; x/0 = 0, INT_MIN/-1 = INT_MIN."""
    if b == 0:
        return 0
    quotient = abs(a) // abs(b)
    return wrap(quotient if (a < 0) == (b < 0) else -quotient)


def modulo(a: int, b: int) -> int:
    """Remainder with the sign of the dividend; x%0 = x, INT_MIN%-1 = 0."""
    if b == 0:
        return a
    return wrap(a - divide(a, b) * b)


def shift_left(a: int, amount: int) -> int:
    amount = unsigned(amount)
    return 0 if amount >= 32 else wrap(a << amount)


def shift_right_logical(a: int, amount: int) -> int:
    amount = unsigned(amount)
    return 0 if amount >= 32 else wrap(unsigned(a) >> amount)


def shift_right_arithmetic(a: int, amount: int) -> int:
    amount = unsigned(amount)
    return (-1 if a < 0 else 0) if amount >= 32 else a >> amount


# Two-operand ALU operations by mnemonic (register and immediate forms share them).
BINARY = {
    "ADD": lambda a, b: wrap(a + b),
    "SUB": lambda a, b: wrap(a - b),
    "MUL": lambda a, b: wrap(a * b),
    "DIV": divide,
    "MOD": modulo,
    "AND": lambda a, b: a & b,
    "OR": lambda a, b: a | b,
    "XOR": lambda a, b: a ^ b,
    "SHL": shift_left,
    "SHR": shift_right_logical,
    "SAR": shift_right_arithmetic,
}
UNARY = {
    "NOT": lambda a: ~a,
    "NEG": lambda a: wrap(-a),
}
BINARY_OPS = tuple(BINARY)
UNARY_OPS = tuple(UNARY)
OPS = BINARY_OPS + UNARY_OPS
IMMEDIATE_TO_BINARY = {
    "ADDI": "ADD", "ANDI": "AND", "ORI": "OR", "XORI": "XOR",
    "SHLI": "SHL", "SHRI": "SHR", "SARI": "SAR",
}


def compare_flags(a: int, b: int) -> tuple[bool, bool, bool, bool]:
    """N, Z, C, V of a - b, as ARM's SUBS sets them (C means no borrow)."""
    result = wrap(a - b)
    carry = unsigned(a) >= unsigned(b)
    overflow = (a < 0) != (b < 0) and (result < 0) != (a < 0)
    return result < 0, result == 0, carry, overflow


# Branch conditions over the flags (n, z, c, v).
CONDITIONS = {
    "JMP": lambda n, z, c, v: True,
    "JZ": lambda n, z, c, v: z,
    "JNZ": lambda n, z, c, v: not z,
    "JS": lambda n, z, c, v: n,
    "JNS": lambda n, z, c, v: not n,
    "JL": lambda n, z, c, v: n != v,
    "JGE": lambda n, z, c, v: n == v,
    "JG": lambda n, z, c, v: not z and n == v,
    "JLE": lambda n, z, c, v: z or n != v,
    "JB": lambda n, z, c, v: not c,
    "JAE": lambda n, z, c, v: c,
    "JA": lambda n, z, c, v: c and not z,
    "JBE": lambda n, z, c, v: not c or z,
}


__all__ = ["BINARY", "BINARY_OPS", "CONDITIONS", "EDGE_VALUES", "IMMEDIATE_TO_BINARY", "INT_MAX", "INT_MIN", "MASK32",
           "OPS", "UNARY", "UNARY_OPS", "compare_flags", "divide", "modulo", "shift_left", "shift_right_arithmetic",
           "shift_right_logical", "unsigned", "wrap"]
