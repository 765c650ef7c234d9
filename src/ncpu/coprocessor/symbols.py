"""The written form of arithmetic that the coprocessor reads and writes.

A problem is written `A<op>B=` and answered in decimal, e.g. `12*34=408`
then a newline. Every token the read-out head sees falls into one of
`N_CLASSES` classes; every character the write-back can emit is one of
`ANSWER_SYMBOLS`. Decimal <-> integer conversion happens here, as an
interface around the ALU (like `NeuralALU.to_bits`), not as a learned part.
"""

from __future__ import annotations

import torch
from torch import Tensor

# Text symbol -> the operation the coprocessor runs for it. LT and GT answer
# 1 or 0 and are computed from the ALU's compare flags (N xor V of a - b).
OP_SYMBOLS = {"+": "ADD", "-": "SUB", "*": "MUL", "/": "DIV", "%": "MOD",
              "&": "AND", "|": "OR", "^": "XOR", "<": "LT", ">": "GT"}
OPS = tuple(OP_SYMBOLS.values())
SYMBOL_OF = {op: symbol for symbol, op in OP_SYMBOLS.items()}
EQUALS = "="
END = "\n"

# Read-out classes: 0-9 the digits, then one per op symbol, then '=', then anything else.
DIGIT_CLASSES = 10
OP_CLASS0 = DIGIT_CLASSES
EQUALS_CLASS = OP_CLASS0 + len(OPS)
OTHER_CLASS = EQUALS_CLASS + 1
N_CLASSES = OTHER_CLASS + 1

# What the write-back can emit: a digit, a minus sign, or the end of the answer.
ANSWER_SYMBOLS = tuple("0123456789") + ("-", END)
MINUS_CODE = 10
END_CODE = 11
ANSWER_LEN = 12  # '-', 10 digits of a 32-bit value, END


def char_class(char: str) -> int:
    """The read-out class of one character (the supervision target)."""
    if char.isdigit():
        return int(char)
    if char in OP_SYMBOLS:
        return OP_CLASS0 + OPS.index(OP_SYMBOLS[char])
    if char == EQUALS:
        return EQUALS_CLASS
    return OTHER_CLASS


def reference_result(op: str, a: int, b: int) -> int:
    """Python's reading of the op on non-negative operands (the oracle)."""
    if op == "ADD":
        return a + b
    if op == "SUB":
        return a - b
    if op == "MUL":
        return a * b
    if op == "DIV":
        return a // b
    if op == "MOD":
        return a % b
    if op == "AND":
        return a & b
    if op == "OR":
        return a | b
    if op == "XOR":
        return a ^ b
    if op == "LT":
        return int(a < b)
    if op == "GT":
        return int(a > b)
    raise ValueError(f"unknown op {op!r}; expected one of {', '.join(OPS)}")


def decimal_codes(values: Tensor) -> Tensor:
    """Signed int64 [...] -> answer codes [..., ANSWER_LEN]: optional '-',
    the decimal digits most significant first, then END to the end."""
    magnitude = values.abs()
    powers = 10 ** torch.arange(ANSWER_LEN - 3, -1, -1, device=values.device)  # (10,) 1e9 .. 1
    digits = (magnitude.unsqueeze(-1) // powers) % 10                          # (..., 10)
    n_digits = (magnitude.unsqueeze(-1) >= powers).sum(-1).clamp(min=1)        # (...)
    negative = (values < 0).long()
    length = n_digits + negative
    position = torch.arange(ANSWER_LEN, device=values.device)                  # (L,)
    # digit j of the answer (after the sign) is digits[..., 10 - n_digits + j]
    source = (position - negative.unsqueeze(-1) + (ANSWER_LEN - 2) - n_digits.unsqueeze(-1))
    gathered = digits.gather(-1, source.clamp(0, ANSWER_LEN - 3))
    codes = torch.where(position < length.unsqueeze(-1), gathered, torch.full_like(gathered, END_CODE))
    is_sign = (position == 0) & (negative.unsqueeze(-1) == 1)
    return torch.where(is_sign, torch.full_like(codes, MINUS_CODE), codes)
