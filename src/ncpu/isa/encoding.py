"""Pack and unpack 32-bit nCPU instruction words, driven by the opcode table."""

from __future__ import annotations

from dataclasses import dataclass

from ncpu.isa.opcodes import BY_CODE, FIELD_BITS, FORMATS, WORD_MASK, Op


class DecodeError(ValueError):
    """A word that is not a valid nCPU instruction."""


@dataclass(frozen=True)
class Instruction:
    """A decoded instruction. Unused fields are 0; `imm` holds whichever
    immediate field the format has (imm15, imm21, imm16 or addr)."""

    op: Op
    rd: int = 0
    rs1: int = 0
    rs2: int = 0
    imm: int = 0

    def field(self, name: str) -> int:
        return self.imm if name.startswith("imm") or name == "addr" else getattr(self, name)


def field_range(name: str) -> tuple[int, int]:
    """Smallest and largest value a field can hold."""
    _, width, signed = FIELD_BITS[name]
    if signed:
        return -(1 << (width - 1)), (1 << (width - 1)) - 1
    return 0, (1 << width) - 1


def encode(instruction: Instruction) -> int:
    word = instruction.op.code << 24
    for name in FORMATS[instruction.op.format].fields:
        low, width, _ = FIELD_BITS[name]
        value = instruction.field(name)
        lo, hi = field_range(name)
        if not lo <= value <= hi:
            raise ValueError(f"{name} value {value} outside {lo}..{hi}")
        word |= (value & ((1 << width) - 1)) << low
    return word


def decode(word: int) -> Instruction:
    if not 0 <= word <= WORD_MASK:
        raise DecodeError(f"0x{word:x} is not a 32-bit word")
    op = BY_CODE.get(word >> 24)
    if op is None:
        raise DecodeError(f"word 0x{word:08x}: unknown opcode 0x{word >> 24:02x}")
    values = {"rd": 0, "rs1": 0, "rs2": 0, "imm": 0}
    used = 0xFF << 24
    for name in FORMATS[op.format].fields:
        low, width, signed = FIELD_BITS[name]
        mask = (1 << width) - 1
        raw = (word >> low) & mask
        used |= mask << low
        if signed and raw >> (width - 1):
            raw -= 1 << width
        values["imm" if name.startswith("imm") or name == "addr" else name] = raw
    if word & ~used & WORD_MASK:
        raise DecodeError(f"word 0x{word:08x}: reserved bits set for {op.mnemonic}")
    return Instruction(op, **values)
