"""A calibrated anomaly score: how often the model is wrong *here*, measured.

The probe's surprise at an observed bit is a poor fault score on its own: the
model is confidently wrong on some clean steps (a MUL result, the flags after
a CMP of large values), and those steps score as high as a flipped bit in a
register the instruction never touches. What separates them is the context:
the model is almost never wrong about a register the instruction does not
write, and often wrong about the low bits of a product.

So each predicted bit gets a *context*: the opcode, the role of its word for
this instruction, the bit's position in the word, and how confident the
probe is (|logit|, binned). On clean runs of validation programs (never
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

import numpy as np

from ncpu.isa.opcodes import BY_MNEMONIC, OPCODES
from ncpu.world.features import BUS_WRITE, WINDOW, WORDS

ROLES = ("written_register", "other_register", "written_memory", "other_memory", "pc", "sp", "flags")
CONFIDENCE_EDGES = np.array([1.0, 2.0, 4.0, 6.0, 8.0, 11.0, 15.0, 20.0])  # |logit| bins
_BINS = len(CONFIDENCE_EDGES) + 1
_OPS = len(OPCODES)
_OP_INDEX = np.full(256, 0, np.int64)
_OP_INDEX[[op.code for op in OPCODES]] = np.arange(_OPS)
_NO_RESULT = {BY_MNEMONIC[name].code for name in ("CMP", "CMPI")}
_WRITES_REGISTER = np.zeros(256, bool)
for _op in OPCODES:
    if _op.format in {"rrr", "rri", "rr", "r", "ri21", "ri16", "load"} and _op.code not in _NO_RESULT:
        _WRITES_REGISTER[_op.code] = True
_SMOOTHING = 20.0  # m of the m-estimates: pseudo-observations from the coarser context


def word_roles(actions: np.ndarray) -> np.ndarray:
    """Raw actions int64[N, 8] -> the role (index into ROLES) of each of the 19 state words, int64[N, 19]."""
    n = len(actions)
    roles = np.empty((n, WORDS), np.int64)
    registers = np.arange(8)
    writes = _WRITES_REGISTER[actions[:, 0]]
    roles[:, :8] = np.where(writes[:, None] & (registers == actions[:, 1:2]), 0, 1)
    window = np.arange(WINDOW)
    stored = (actions[:, 5] == BUS_WRITE)[:, None] & (window == actions[:, 6:7])
    roles[:, 8:8 + WINDOW] = np.where(stored, 2, 3)
    roles[:, 16], roles[:, 17], roles[:, 18] = 4, 5, 6
    return roles


def _contexts(actions: np.ndarray, logits: np.ndarray) -> np.ndarray:
    """Context index of every predicted bit: int64[N, 608] into (op, role, bit, confidence)."""
    op = _OP_INDEX[actions[:, 0]][:, None, None]
    role = word_roles(actions)[:, :, None]
    bit = np.arange(32)[None, None, :]
    confidence = np.digitize(np.abs(logits), CONFIDENCE_EDGES).reshape(len(actions), WORDS, 32)
    return (((op * len(ROLES) + role) * 32 + bit) * _BINS + confidence).reshape(len(actions), -1)


@dataclass
class ErrorRates:
    """Measured probability that the decoded prediction is wrong, per context."""

    table: np.ndarray  # float64[ops * roles * 32 * bins]

    @classmethod
    def fit(cls, actions: np.ndarray, logits: np.ndarray, observed: np.ndarray) -> ErrorRates:
        """From clean transitions: raw actions [N, 8], probe logits [N, 608], observed bits [N, 608]."""
        context = _contexts(actions, logits).ravel()
        wrong = ((logits > 0) != (observed > 0.5)).ravel()
        size = _OPS * len(ROLES) * 32 * _BINS
        seen = np.bincount(context, minlength=size).astype(np.float64)
        errors = np.bincount(context, weights=wrong, minlength=size)
        shape = (_OPS, len(ROLES), 32, _BINS)
        seen, errors = seen.reshape(shape), errors.reshape(shape)
        # Coarsest: confidence alone; then (role, confidence); then the full context.
        by_bin = (errors.sum((0, 1, 2)) + 1.0) / (seen.sum((0, 1, 2)) + 2.0)
        by_role = ((errors.sum((0, 2)) + _SMOOTHING * by_bin) / (seen.sum((0, 2)) + _SMOOTHING))  # (roles, bins)
        full = (errors + _SMOOTHING * by_role[None, :, None, :]) / (seen + _SMOOTHING)
        return cls(full.ravel())

    def surprise(self, actions: np.ndarray, logits: np.ndarray, observed: np.ndarray) -> np.ndarray:
        """-log P(observed bit | context), float64[N, 608]."""
        p_wrong = self.table[_contexts(actions, logits)]
        wrong = (logits > 0) != (observed > 0.5)
        return -np.log(np.where(wrong, p_wrong, 1.0 - p_wrong))
