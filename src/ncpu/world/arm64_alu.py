"""The `exact_alu` variant for the ARM64 target: the ARM64 CPU's own executor, frozen, inside the predictor.

As `alu_module.py` does for the nCPU machine, with the ARM64 machine's exact
arithmetic in place of the neural ALU. The learned predictor does not do
64-bit arithmetic exactly (its whole-state accuracy on data-processing
steps stays near the "no change" baseline); this module does, from the
latent state:

    operands   the probe reads the latent state back into the 34 words
               (X0..X30, SP, PC, NZCV); nothing else is read
    executor   our ARM64 CPU (`ncpu.arm64.cpu`, tested against unicorn and
               qemu) runs the step's instruction word once from that decoded
               state (`arm64.Stepper.execute`): the one place that says what
               each data-processing form (64- and 32-bit add/sub with and
               without flags, shifted registers, logic, moves, multiply,
               divide, variable shifts, conditional selects) computes
    candidates the word the instruction writes (its destination register
               after the step; 0 where it writes none, e.g. CMP) and NZCV
               after the step; and the two addresses the step may go to
               next: the fall-through pc+4 and, for a branch, its target
               (pc plus the instruction's offset; pc+4 for other steps)

Only data-processing steps are executed (the forms of `arm64.instruction_class`
"alu"); for a branch the result is 0 and NZCV is as before the step. Whether
a branch is taken is never computed here: the two addresses are offered,
and which one the pc becomes is the predictor's learned choice. The predictor
gets the four candidates as the values of four more write heads; where they
write and whether (attention over the slots, gates) is learned like every
other head. Nothing here is trained or differentiated.
"""

from __future__ import annotations

import numpy as np
import torch
from torch import Tensor

from ncpu.world import arm64

_SHIFTS = np.arange(arm64.WORD_BITS, dtype=np.uint64)


class Arm64ExactALU:
    """Decoded state bits + instruction words -> candidate result, NZCV and next-pc words, as bits."""

    def __init__(self):
        self.stepper = arm64.Stepper()

    def __call__(self, states: np.ndarray, words: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Raw states uint64[B, 34] before the step and instruction words [B] -> the result
        word and the NZCV word after the step, uint64[B] each."""
        result = np.zeros(len(words), np.uint64)
        nzcv = states[:, arm64.NZCV_COL].astype(np.uint64)
        alu = np.flatnonzero(arm64.instruction_class(words) == 0)
        for i in alu:
            word = int(words[i])
            after = self.stepper.execute(states[i], word)
            if after is None:  # a word the CPU does not run: no candidate
                continue
            rd = arm64.destination(word)
            result[i] = after[rd] if rd is not None else 0
            nzcv[i] = after[arm64.NZCV_COL]
        return result, nzcv

    @torch.no_grad()
    def candidates(self, bits: Tensor, action_bits: Tensor) -> Tensor:
        """Decoded state bits bool [B, 34, 64] and action bits [B, 32] -> the four candidate
        words' bits (result, NZCV, pc+4, branch target), float [B, 4, 64]."""
        as_bits = bits.cpu().numpy().astype(np.uint64)
        states = (as_bits << _SHIFTS).sum(-1, dtype=np.uint64)
        words = ((action_bits.cpu().numpy() > 0.5).astype(np.uint64) << _SHIFTS[:arm64.ACTION_BITS]).sum(
            -1, dtype=np.uint64)
        result, nzcv = self(states, words)
        words_out = np.stack([result, nzcv, *next_pcs(states[:, arm64.PC_COL], words)], 1)
        return torch.from_numpy(((words_out[..., None] >> _SHIFTS) & np.uint64(1)).astype(np.float32))


def next_pcs(pcs: np.ndarray, words: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The two addresses each step may go to next: pc+4, and the branch target of a
    B.cond/CBZ/CBNZ or B (pc+4 for any other instruction), uint64[B] each."""
    fall_through = (pcs.astype(np.uint64) + np.uint64(4))
    target = fall_through.copy()
    conditional = arm64.is_conditional(words)
    for i, (pc, word) in enumerate(zip(pcs, words)):
        word, pc = int(word), int(pc)
        if conditional[i]:
            target[i] = arm64.branch_target(word, pc)
        elif arm64.is_jump(word):
            target[i] = arm64.jump_target(word, pc)
    return fall_through, target
