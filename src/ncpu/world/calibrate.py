"""A calibrated anomaly score: how often the model is wrong *here*, measured.

The probe's surprise at an observed bit is a poor fault score on its own: the
model is confidently wrong on some clean steps (a MUL result, the flags after
a CMP of large values), and those steps score as high as a flipped bit in a
register the instruction never touches. What separates them is the context:
the model is almost never wrong about a register the instruction does not
write, and often wrong about the low bits of a product.

So each predicted bit gets a *context*: the opcode, the role of its word for
this instruction, the bit's position in the word, how confident the probe is
(|logit|, binned), and whether the prediction changes the bit from the
state before the step. The last separates bits the model copies (nearly
always right) from bits it computes (a result, a new pc): on the previous
shipped model it lifted the held-out AUROC of skipped instructions from
0.860 to 0.879, of ALU results from 0.906 to 0.914 and of wrong branches
from 0.918 to 0.925 (also binning the confidence of the bit's whole word
added nothing: 0.915, 0.877). On clean runs of validation programs (never
trained on, never evaluated on) we count, per context, how often the
decoded prediction disagrees with the exact machine. The calibrated surprise
of an observed bit is then -log P(observed | context) with that measured
error rate; a fault shows as a disagreement in a context where the model is
(measurably) almost always right.

Word roles, from the instruction's decoded fields (the same fields the model
reads): the register it writes, the other registers, the memory-window word
the bus writes, the other window words, pc, sp and the flags word.

The error rates are m-estimates shrunk toward coarser contexts (role and
confidence over all opcodes and bits; then confidence alone), so a context
seldom seen in calibration falls back to what its role says.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

from ncpu.isa.opcodes import OPCODES
from ncpu.world.features import BUS_WRITE, WINDOW, WORDS, WRITES_REGISTER

ROLES = ("written_register", "other_register", "written_memory", "other_memory", "pc", "sp", "flags")
CONFIDENCE_EDGES = np.array([1.0, 2.0, 4.0, 6.0, 8.0, 11.0, 15.0, 20.0])  # |logit| bins
# The last context axis: the bit's confidence and whether the prediction changes it.
_BINS = (len(CONFIDENCE_EDGES) + 1) * 2
_OPS = len(OPCODES)
_OP_INDEX = np.full(256, 0, np.int64)
_OP_INDEX[[op.code for op in OPCODES]] = np.arange(_OPS)
_SMOOTHING = 20.0  # m of the m-estimates: pseudo-observations from the coarser context


def word_roles(actions: np.ndarray) -> np.ndarray:
    """Raw actions int64[N, 8] -> the role (index into ROLES) of each of the 19 state words, int64[N, 19]."""
    n = len(actions)
    roles = np.empty((n, WORDS), np.int64)
    registers = np.arange(8)
    writes = WRITES_REGISTER[actions[:, 0]]
    roles[:, :8] = np.where(writes[:, None] & (registers == actions[:, 1:2]), 0, 1)
    window = np.arange(WINDOW)
    stored = (actions[:, 5] == BUS_WRITE)[:, None] & (window == actions[:, 6:7])
    roles[:, 8:8 + WINDOW] = np.where(stored, 2, 3)
    roles[:, 16], roles[:, 17], roles[:, 18] = 4, 5, 6
    return roles


@dataclass(frozen=True)
class Contexts:
    """How a target machine names the context of each predicted bit: its
    instruction kind (`kinds` of them) and every state word's role (`roles`
    of them) from the action alone, and the words' width."""

    kinds: int
    roles: int
    word_bits: int
    of: Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]]  # actions -> (kind [N], roles [N, words])

    @property
    def shape(self) -> tuple[int, int, int, int]:
        return self.kinds, self.roles, self.word_bits, _BINS

    def index(self, actions: np.ndarray, logits: np.ndarray, before: np.ndarray | None) -> np.ndarray:
        """Context index of every predicted bit: int64[N, words * word_bits]. `before`
        holds the bits of the state before the step (None: every bit counts as unchanged)."""
        kind, roles = self.of(actions)
        n, words = roles.shape
        bit = np.arange(self.word_bits)[None, None, :]
        confidence = np.digitize(np.abs(logits), CONFIDENCE_EDGES).reshape(n, words, self.word_bits)
        changes = (np.zeros_like(confidence) if before is None
                   else ((logits > 0) != (before > 0.5)).reshape(n, words, self.word_bits))
        state = confidence * 2 + changes
        return ((((kind[:, None, None] * self.roles + roles[:, :, None]) * self.word_bits + bit) * _BINS
                 + state).reshape(n, -1))


NCPU = Contexts(_OPS, len(ROLES), 32, lambda actions: (_OP_INDEX[actions[:, 0]], word_roles(actions)))
_CHUNK = 4096  # rows at a time: a wide state (ARM64: 2,176 bits) makes [N, bits] index arrays large


@dataclass
class ErrorRates:
    """Measured probability that the decoded prediction is wrong, per context."""

    table: np.ndarray  # float64[kinds * roles * word_bits * bins]
    contexts: Contexts = NCPU

    @classmethod
    def fit(cls, actions: np.ndarray, logits: np.ndarray, observed: np.ndarray,
            contexts: Contexts = NCPU, before: np.ndarray | None = None) -> ErrorRates:
        """From clean transitions: raw actions [N, ...], probe logits [N, bits], observed
        bits [N, bits], and the bits of the states before the steps [N, bits]."""
        shape = contexts.shape
        size = int(np.prod(shape))
        seen, errors = np.zeros(size), np.zeros(size)
        for i in range(0, len(actions), _CHUNK):
            part = slice(i, i + _CHUNK)
            context = contexts.index(actions[part], logits[part], None if before is None else before[part]).ravel()
            wrong = ((logits[part] > 0) != (observed[part] > 0.5)).ravel()
            seen += np.bincount(context, minlength=size)
            errors += np.bincount(context, weights=wrong, minlength=size)
        seen, errors = seen.reshape(shape), errors.reshape(shape)
        # Coarsest: confidence (and change) alone; then with the role; then the full context.
        by_bin = (errors.sum((0, 1, 2)) + 1.0) / (seen.sum((0, 1, 2)) + 2.0)
        by_role = ((errors.sum((0, 2)) + _SMOOTHING * by_bin) / (seen.sum((0, 2)) + _SMOOTHING))  # (roles, bins)
        full = (errors + _SMOOTHING * by_role[None, :, None, :]) / (seen + _SMOOTHING)
        # A context where the model is nearly always wrong would round to 1 in a
        # float32 checkpoint, and a right bit there would score infinite surprise.
        return cls(np.minimum(full, 1 - 1e-6).ravel(), contexts)

    def surprise(self, actions: np.ndarray, logits: np.ndarray, observed: np.ndarray,
                 before: np.ndarray | None = None) -> np.ndarray:
        """-log P(observed bit | context), float64[N, bits]."""
        p_wrong = self.table[self.contexts.index(actions, logits, before)]
        wrong = (logits > 0) != (observed > 0.5)
        return -np.log(np.where(wrong, p_wrong, 1.0 - p_wrong))

    def worst(self, actions: np.ndarray, logits: np.ndarray, observed: np.ndarray,
              before: np.ndarray | None = None) -> np.ndarray:
        """The largest surprise of each step, float64[N] (the calibrated score)."""
        return np.concatenate([self.surprise(actions[i:i + _CHUNK], logits[i:i + _CHUNK], observed[i:i + _CHUNK],
                                             None if before is None else before[i:i + _CHUNK]).max(-1)
                               for i in range(0, len(actions), _CHUNK)])

    def fits(self) -> bool:
        """Whether the table has this version's context shape (older checkpoints' do not)."""
        return self.table.size == int(np.prod(self.contexts.shape))
