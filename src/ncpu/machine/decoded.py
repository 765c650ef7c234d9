"""A program decoded once into flat integer arrays, shared by the fast engines.

The compiled (`compute`) and tensor (`fast`) engines never look at a word
again after this: instruction i is `op[i], rd[i], rs1[i], rs2[i], imm[i]`.
`op` holds the opcode byte from the opcode table, so engines name opcodes
through `CODE["ADD"]`, never by a number typed twice.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ncpu.isa.encoding import decode
from ncpu.isa.opcodes import BY_MNEMONIC

# Opcode byte of every mnemonic, straight from the table.
CODE: dict[str, int] = {name: op.code for name, op in BY_MNEMONIC.items()}


@dataclass(frozen=True)
class DecodedProgram:
    """Column arrays (int64[n]) of a decoded program; unused fields are 0.

    `imm` holds whichever immediate the format has (imm15, imm21, imm16 or a
    jump address), already sign-extended where the field is signed.
    """

    op: np.ndarray
    rd: np.ndarray
    rs1: np.ndarray
    rs2: np.ndarray
    imm: np.ndarray

    def __len__(self) -> int:
        return int(self.op.shape[0])

    def mnemonic(self, index: int) -> str:
        return _BY_CODE_NAME[int(self.op[index])]


_BY_CODE_NAME = {code: name for name, code in CODE.items()}


def decode_words(words: list[int] | np.ndarray) -> DecodedProgram:
    """Decode every word; raises `ncpu.isa.encoding.DecodeError` on a bad one,
    exactly as the reference engine would."""
    instructions = [decode(int(word)) for word in words]
    columns = np.zeros((5, len(instructions)), np.int64)
    for i, ins in enumerate(instructions):
        columns[:, i] = (ins.op.code, ins.rd, ins.rs1, ins.rs2, ins.imm)
    return DecodedProgram(*columns.copy())
