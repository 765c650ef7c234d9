"""A frozen exact ALU inside the predictor: the `exact_alu` variant of the world model.

The purely learned predictor must learn 32-bit arithmetic from examples,
and it does not: on held-out programs its whole-register prediction is
right for 3% of SUB and XOR steps, 30% of MUL, 17% of ADD. A world model of
a computer may instead hold the computer's arithmetic as a module, as a
model of a physical system may hold a physics engine. This one holds the
project's neural ALU (`ncpu.machine.neural`: the dense circuits, exact, proven
by enumeration) frozen, and feeds it from the latent state:

    operands   the probe reads the latent state back into words (the
               registers and the flags); the instruction's decoded fields
               (the action) say which registers and immediate are the
               operands, as the fast engine's instruction table says them
    ALU        the neural circuits compute the result word and the flags
               (N Z from the result; N Z C V for a compare)
    candidates the result and the flags words, encoded by the context
               encoder into slot latents

The predictor gets the two candidates as the values of two more write
heads; *where* they write and *whether* (their attention over the slots
and their gates) is learned like every other head. Nothing here is
trained, and nothing here is differentiated (the probe's decoding is a
hard threshold).

Which operation and which operands an opcode means comes from
`ncpu.machine.fast`'s instruction table, built here for one instruction of
each opcode with distinct fields, so the meaning is written once.
"""

from __future__ import annotations

import numpy as np
import torch
from torch import Tensor

from ncpu.isa.encoding import Instruction, encode
from ncpu.machine import fast
from ncpu.machine.decoded import decode_words
from ncpu.machine.tensor_alu import OPS, UNARY_OPS
from ncpu.world.features import IMM_BITS, OPCODES

# Distinct field values, so the table row says which field each operand comes from.
_RD, _RS1, _RS2, _IMM = 1, 2, 3, 5
FROM_RS1, FROM_RD, FROM_RS2 = 0, 1, 2
_MOV, _MOVT, _CMP = fast.KINDS.index("MOV"), fast.KINDS.index("MOVT"), fast.KINDS.index("CMP")


def _source(register: int) -> int:
    return {_RS1: FROM_RS1, _RD: FROM_RD, _RS2: FROM_RS2}.get(register, FROM_RS1)


def _opcode_table() -> np.ndarray:
    """Per opcode (features.OPCODES order): kind, a's source, b is a register,
    b's source, b is the constant 1 (INC/DEC) rather than the immediate."""
    table = np.zeros((len(OPCODES), 5), np.int64)
    for i, op in enumerate(OPCODES):
        word = encode(Instruction(op, rd=_RD, rs1=_RS1, rs2=_RS2, imm=_IMM))
        row = fast.TensorProgram.from_decoded(decode_words([word])).table[0].numpy()
        table[i] = [row[fast.KIND], _source(int(row[fast.A_REG])), row[fast.B_IS_REG],
                    _source(int(row[fast.B_REG])), row[fast.B_CONST] == 1]
    return table


class ExactALUModule:
    """Decoded registers and flags + action bits -> (result word, flags word) per step."""

    def __init__(self):
        from ncpu.machine.neural import NeuralTensorALU  # the frozen exact circuits
        self.alu = NeuralTensorALU()
        self.table = torch.from_numpy(_opcode_table())
        self.imm_weights = torch.tensor([1 << i for i in range(IMM_BITS - 1)] + [-(1 << (IMM_BITS - 1))])

    def fields(self, action_bits: Tensor) -> tuple[Tensor, Tensor, Tensor, Tensor, Tensor]:
        """op index, rd, rs1, rs2, imm (int64 [B]) from action bits (`features.action_bits`)."""
        ops, a = len(OPCODES), action_bits > 0.5
        op = a[:, :ops].float().argmax(1)
        rd, rs1, rs2 = (a[:, ops + 8 * i:ops + 8 * (i + 1)].float().argmax(1) for i in range(3))
        imm = (a[:, ops + 24:ops + 24 + IMM_BITS].long() * self.imm_weights).sum(1)
        return op, rd, rs1, rs2, imm

    @torch.no_grad()
    def candidates(self, bits: Tensor, action_bits: Tensor) -> Tensor:
        """Decoded state bits bool [B, 19, 32] and action bits -> the result and flags
        words' bits, float [B, 2, 32]."""
        bits = bits.long()
        words = (bits << torch.arange(32, device=bits.device)).sum(-1)  # unsigned
        words = torch.where(words >= 1 << 31, words - (1 << 32), words)
        result, flags = self(words[:, :8], bits[:, -1, :4] > 0, action_bits)
        return ((torch.stack([result, flags], 1)[..., None] >> torch.arange(32)) & 1).float()

    @torch.no_grad()
    def __call__(self, registers: Tensor, flags: Tensor, action_bits: Tensor) -> tuple[Tensor, Tensor]:
        """registers int64 [B, 8] and flags bool [B, 4] (N Z C V) of the state
        before the step, as the probe reads them -> the ALU's result word and the
        flags word after the step, int64 [B] each (flags: N Z C V in bits 0..3)."""
        op, rd, rs1, rs2, imm = self.fields(action_bits.cpu())
        registers, flags = registers.cpu(), flags.cpu()
        row = self.table[op]
        kind = row[:, 0]
        source = torch.stack([rs1, rd, rs2], 1)
        a = registers.gather(1, source.gather(1, row[:, 1:2])).squeeze(1)
        b_reg = registers.gather(1, source.gather(1, row[:, 3:4])).squeeze(1)
        b = torch.where(row[:, 2] != 0, b_reg, torch.where(row[:, 4] != 0, torch.ones_like(imm), imm))
        result = torch.zeros_like(a)
        for k in kind.unique().tolist():
            m = kind == k
            if k < len(OPS):
                name = OPS[k]
                result[m] = self.alu.compute(name, a[m], None if name in UNARY_OPS else b[m])
            elif k == _MOV:
                result[m] = b[m]
            elif k == _MOVT:
                high = self.alu.compute("SHL", imm[m], torch.full_like(imm[m], 16))
                low = self.alu.compute("AND", a[m], torch.full_like(a[m], 0xFFFF))
                result[m] = self.alu.compute("OR", high, low)
        z, n = self.alu.zero_negative(result)
        after = torch.stack([n, z, flags[:, 2], flags[:, 3]], 1)
        compare = kind == _CMP
        if compare.any():
            after[compare] = torch.stack(self.alu.compare(a[compare], b[compare]), 1)
        flag_word = (after.long() << torch.arange(4)).sum(1)
        return result, flag_word
