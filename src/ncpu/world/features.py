"""Machine states and actions as the numbers the world model reads.

A *raw state* is a row of 22 integers (`STATE_COLUMNS`): R0..R7, N Z C V,
pc, sp, and a window of memory (words 0..7, where the corpus keeps its
data). Encoded, it is 19 words of 32 bits (`WORD_ORDER`), one per latent slot. A *raw action* is 8 integers (`ACTION_COLUMNS`): the instruction's
decoded fields plus what the memory bus carried during the step. The
world model treats memory outside the window as the environment: a read
(LOAD, POP, RET) arrives as the word on the bus, which no state in the
window could predict; an address written is given too (STORE, PUSH, CALL)
so that writes into the window can be placed.

Both become bit vectors (`state_bits`, `action_bits`): the encoders see
every bit of every word, and the probes are judged bit by bit.
"""

from __future__ import annotations

import numpy as np

from ncpu.isa.opcodes import NUM_REGISTERS, OPCODES as _ALL_OPCODES

# The world model learns the machine without system calls (a SYS hands the
# machine to its runner), so its one-hot op has no slot for SYS: the shipped
# weights keep their input width.
OPCODES = tuple(op for op in _ALL_OPCODES if op.mnemonic != "SYS")

WINDOW = 8  # memory words 0..WINDOW-1 are part of the state
STATE_COLUMNS = ([f"R{i}" for i in range(NUM_REGISTERS)] + ["N", "Z", "C", "V", "pc", "sp"]
                 + [f"M{i}" for i in range(WINDOW)])
ACTION_COLUMNS = ["op", "rd", "rs1", "rs2", "imm", "bus", "addr", "value"]
BUS_NONE, BUS_READ, BUS_WRITE = 0, 1, 2

# An encoded state is WORDS words of 32 bits: R0..R7, M0..M7, pc, sp, and the
# flags (N Z C V in bits 0..3 of the last word). One word = one latent slot.
WORD_ORDER = ([f"R{i}" for i in range(NUM_REGISTERS)] + [f"M{i}" for i in range(WINDOW)]
              + ["pc", "sp", "flags"])
WORDS = len(WORD_ORDER)  # 19
STATE_BITS = 32 * WORDS  # 608
# Named bit ranges of the encoded state, for per-part accuracy.
STATE_FIELDS = {"registers": slice(0, 256), "memory": slice(256, 512), "pc": slice(512, 544),
                "sp": slice(544, 576), "flags": slice(576, 580)}

_OP_INDEX = np.full(256, -1, np.int64)
_OP_INDEX[[op.code for op in OPCODES]] = np.arange(len(OPCODES))
IMM_BITS = 21
ADDR_BITS = 16
ACTION_BITS = len(OPCODES) + 3 * NUM_REGISTERS + IMM_BITS + 3 + ADDR_BITS + 32  # 144

# Instruction classes for per-class figures, by mnemonic.
CLASSES = ("alu", "memory", "branch", "other")
_MEMORY = {"LOAD", "STORE", "PUSH", "POP"}
_BRANCH = {"JMP", "JZ", "JNZ", "JS", "JNS", "JL", "JGE", "JG", "JLE", "JB", "JAE", "JA", "JBE", "CALL", "RET"}
_OTHER = {"NOP", "HALT"}
CONDITIONAL = _BRANCH - {"JMP", "CALL", "RET"}
_CLASS_OF_CODE = np.zeros(256, np.int64)
for _op in OPCODES:
    _CLASS_OF_CODE[_op.code] = (1 if _op.mnemonic in _MEMORY else 2 if _op.mnemonic in _BRANCH
                                else 3 if _op.mnemonic in _OTHER else 0)
# Opcodes whose instruction writes its rd (CMP/CMPI only set flags; STORE and PUSH write memory).
WRITES_REGISTER = np.zeros(256, bool)
WRITES_REGISTER[[op.code for op in OPCODES if op.format in {"rrr", "rri", "rr", "r", "ri21", "ri16", "load"}]] = True
CONDITIONAL_CODES = np.array(sorted(op.code for op in OPCODES if op.mnemonic in CONDITIONAL))


def instruction_class(op_codes: np.ndarray) -> np.ndarray:
    """Index into CLASSES of each opcode byte: int64[N]."""
    return _CLASS_OF_CODE[op_codes]


def to_bits(values: np.ndarray, width: int) -> np.ndarray:
    """Two's-complement low `width` bits, least significant first: [..., width] of 0/1."""
    unsigned = values.astype(np.int64) & ((1 << width) - 1)
    return ((unsigned[..., None] >> np.arange(width)) & 1).astype(np.float32)


def from_bits(bits: np.ndarray) -> np.ndarray:
    """Inverse of to_bits for 32-bit fields, as signed values: [..., 32] -> [...]."""
    unsigned = (bits.astype(np.int64) << np.arange(bits.shape[-1])).sum(-1)
    return np.where(unsigned >= 1 << 31, unsigned - (1 << 32), unsigned)


def state_words(raw: np.ndarray) -> np.ndarray:
    """Raw states int64[N, 22] -> the WORDS words of an encoded state, int64[N, 19]."""
    flags = (raw[:, 8:12].astype(np.int64) << np.arange(4)).sum(1)
    return np.concatenate([raw[:, 0:8], raw[:, 14:22], raw[:, 12:14], flags[:, None]], axis=1)


def state_bits(raw: np.ndarray) -> np.ndarray:
    """Raw states int64[N, 22] -> float32[N, 608] of 0/1, word after word."""
    return to_bits(state_words(raw), 32).reshape(len(raw), STATE_BITS)


def action_bits(raw: np.ndarray) -> np.ndarray:
    """Raw actions int64[N, 8] -> float32[N, 144] of 0/1 (one-hot op, registers, bus kind)."""
    n = len(raw)
    eye_op = np.eye(len(OPCODES), dtype=np.float32)
    eye_reg = np.eye(NUM_REGISTERS, dtype=np.float32)
    return np.concatenate([
        eye_op[_OP_INDEX[raw[:, 0]]],
        eye_reg[raw[:, 1]], eye_reg[raw[:, 2]], eye_reg[raw[:, 3]],
        to_bits(raw[:, 4], IMM_BITS),
        np.eye(3, dtype=np.float32)[raw[:, 5]],
        to_bits(raw[:, 6], ADDR_BITS),
        to_bits(raw[:, 7], 32),
    ], axis=1).reshape(n, ACTION_BITS)
