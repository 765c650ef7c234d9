"""MUXLEQ machine state, for one machine or a batch, and the `.dec` image format.

A machine is 65,536 words of 16 bits, a program counter, a step counter,
and its byte streams: `input` holds the bytes the program has not read
yet; once they run out, a read gives 0xFFFF if `end_of_input`, otherwise
the machine stops before the read and waits (`waiting_for_input`) until
the caller appends more bytes. `output` is every byte written so far.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np

WORDS = 1 << 16
MASK = 0xFFFF
IO = 0xFFFF          # a = IO: read a byte; b = IO: write a byte
HALT_PC = 0x8000     # the machine halts once pc >= HALT_PC
MUX_BIT = 0x8000     # c with this bit set (and c != 0xFFFF) selects MUX


class DecFormatError(ValueError):
    """A `.dec` image that cannot be loaded (names the cell)."""


def parse_dec(text: str) -> np.ndarray:
    """Whitespace-separated signed decimal cells -> uint16 [65536], cell i at address i."""
    cells = text.split()
    if len(cells) > WORDS:
        raise DecFormatError(f"image has {len(cells)} cells; memory holds {WORDS}")
    memory = np.zeros(WORDS, np.uint16)
    for index, cell in enumerate(cells):
        try:
            value = int(cell, 10)
        except ValueError:
            raise DecFormatError(f"cell {index}: {cell[:20]!r} is not a decimal integer") from None
        if not -(1 << 15) <= value < (1 << 16):
            raise DecFormatError(f"cell {index}: {value} does not fit 16 bits")
        memory[index] = value & MASK
    return memory


def format_dec(cells, per_line: int = 12) -> str:
    """Cells (any ints) -> `.dec` text, written as signed 16-bit values."""
    values = [((int(v) + 0x8000) & MASK) - 0x8000 for v in cells]
    lines = [" ".join(str(v) for v in values[i:i + per_line]) for i in range(0, len(values), per_line)]
    return "\n".join(lines) + "\n"


def memory_of(cells) -> np.ndarray:
    """A program's cells (a list, array or uint16 memory) -> uint16 [65536]."""
    memory = np.zeros(WORDS, np.uint16)
    values = np.asarray(cells, np.int64)
    if values.size > WORDS:
        raise ValueError(f"{values.size} cells do not fit {WORDS} words")
    memory[: values.size] = values & MASK
    return memory


@dataclass
class MuxleqState:
    memory: np.ndarray                     # uint16 [65536]
    pc: int = 0
    steps: int = 0
    halted: bool = False
    input: bytes = b""
    end_of_input: bool = True
    output: bytes = b""

    @classmethod
    def load(cls, cells, input: bytes = b"", end_of_input: bool = True) -> MuxleqState:
        return cls(memory_of(cells), input=bytes(input), end_of_input=end_of_input)

    @property
    def waiting_for_input(self) -> bool:
        """Stopped before a read that has no byte yet (more may come)."""
        return (not self.halted and self.pc < HALT_PC and int(self.memory[self.pc]) == IO
                and not self.input and not self.end_of_input)

    def copy(self) -> MuxleqState:
        return replace(self, memory=self.memory.copy())


@dataclass
class MuxleqBatch:
    """B machines as arrays: memory uint16 [B, 65536]; pc, steps int64 [B];
    halted, end_of_input bool [B]; inputs, outputs: B byte strings."""

    memory: np.ndarray
    pc: np.ndarray
    steps: np.ndarray
    halted: np.ndarray
    end_of_input: np.ndarray
    inputs: list[bytes] = field(default_factory=list)
    outputs: list[bytes] = field(default_factory=list)

    @property
    def batch_size(self) -> int:
        return self.memory.shape[0]

    @classmethod
    def stack(cls, states: list[MuxleqState]) -> MuxleqBatch:
        return cls(
            memory=np.stack([s.memory for s in states]).astype(np.uint16),
            pc=np.array([s.pc for s in states], np.int64),
            steps=np.array([s.steps for s in states], np.int64),
            halted=np.array([s.halted for s in states], np.bool_),
            end_of_input=np.array([s.end_of_input for s in states], np.bool_),
            inputs=[bytes(s.input) for s in states],
            outputs=[bytes(s.output) for s in states],
        )

    @classmethod
    def replicate(cls, state: MuxleqState, batch_size: int) -> MuxleqBatch:
        """`batch_size` copies of one machine (memory shared-free: one array)."""
        batch = cls.stack([state])
        batch.memory = np.repeat(batch.memory, batch_size, 0)
        for name in ("pc", "steps", "halted", "end_of_input"):
            setattr(batch, name, np.repeat(getattr(batch, name), batch_size))
        batch.inputs = batch.inputs * batch_size
        batch.outputs = batch.outputs * batch_size
        return batch

    def machine(self, i: int) -> MuxleqState:
        return MuxleqState(self.memory[i].copy(), int(self.pc[i]), int(self.steps[i]), bool(self.halted[i]),
                           self.inputs[i], bool(self.end_of_input[i]), self.outputs[i])

    def unstack(self) -> list[MuxleqState]:
        return [self.machine(i) for i in range(self.batch_size)]

    def copy(self) -> MuxleqBatch:
        return MuxleqBatch(self.memory.copy(), self.pc.copy(), self.steps.copy(), self.halted.copy(),
                           self.end_of_input.copy(), list(self.inputs), list(self.outputs))
