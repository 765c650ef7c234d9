"""The MUXLEQ machine, written to be read. Every other engine is tested against it.

Memory is 65,536 words of 16 bits. An instruction is three words a, b, c at
pc, pc+1, pc+2; it does exactly one of four things, chosen in this order:

    a == 0xFFFF                      INPUT   m[b] = next input byte (0xFFFF at end of input)
    b == 0xFFFF                      OUTPUT  write the low byte of m[a]
    c & 0x8000 and c != 0xFFFF       MUX     m[b] = (m[a] & ~m[c & 0x7FFF]) | (m[b] & m[c & 0x7FFF])
    otherwise                        SUBLEQ  m[b] = m[b] - m[a]; jump to c if the result,
                                             read as signed 16-bit, is zero or negative

then pc moves to pc + 3 (or to c after a taken SUBLEQ jump). The machine
halts when pc reaches 0x8000 or beyond (a jump to c = 0xFFFF is the usual
way out). Arithmetic wraps modulo 2^16. Every executed instruction is one
step; a halted machine executes nothing.

The two data operations are passed in as `ops` so that the neural engine
runs this very loop with its circuits in place of Python's `-` and `&|~`.
"""

from __future__ import annotations

from typing import Callable, NamedTuple

from ncpu.muxleq.state import HALT_PC, IO, MASK, MUX_BIT, MuxleqBatch, MuxleqState


class DataOps(NamedTuple):
    """subtract(x, y) -> (x - y mod 2^16, result is zero or negative);
    mux(a, b, select) -> bits of b where select is 1, bits of a elsewhere."""
    subtract: Callable[[int, int], tuple[int, bool]]
    mux: Callable[[int, int, int], int]


def exact_subtract(x: int, y: int) -> tuple[int, bool]:
    result = (x - y) & MASK
    return result, result == 0 or result & 0x8000 != 0


def exact_mux(a: int, b: int, select: int) -> int:
    return (a & ~select | b & select) & MASK


EXACT = DataOps(exact_subtract, exact_mux)


class Streams:
    """A machine's bytes in and out while it runs."""

    def __init__(self, state: MuxleqState):
        self.input, self.position, self.end = state.input, 0, state.end_of_input
        self.output = bytearray(state.output)

    def can_read(self) -> bool:
        return self.position < len(self.input) or self.end

    def read(self) -> int:
        if self.position == len(self.input):
            return IO  # end of input
        self.position += 1
        return self.input[self.position - 1]


def step(m: list[int], pc: int, streams: Streams, ops: DataOps = EXACT) -> int:
    """Execute the instruction at pc (pc < HALT_PC) on memory m in place; the next pc."""
    a, b, c = m[pc], m[pc + 1], m[pc + 2]
    if a == IO:
        m[b] = streams.read()
    elif b == IO:
        streams.output.append(m[a] & 0xFF)
    elif c & MUX_BIT and c != IO:
        m[b] = ops.mux(m[a], m[b], m[c & 0x7FFF])
    else:
        m[b], jump = ops.subtract(m[b], m[a])
        if jump:
            return c
    return pc + 3


def run(state: MuxleqState, max_steps: int, ops: DataOps = EXACT) -> MuxleqState:
    """Run until halt, `max_steps` more steps, or a read with no byte yet."""
    m = [int(x) for x in state.memory]
    streams = Streams(state)
    pc, steps, budget = state.pc, state.steps, state.steps + max(max_steps, 0)
    while pc < HALT_PC and steps < budget:
        if m[pc] == IO and not streams.can_read():
            break  # waiting for input
        pc = step(m, pc, streams, ops)
        steps += 1
    out = state.copy()
    out.memory[:] = m
    out.pc, out.steps, out.halted = pc, steps, pc >= HALT_PC
    out.input, out.output = state.input[streams.position:], bytes(streams.output)
    return out


def run_batch(batch: MuxleqBatch, max_steps: int) -> MuxleqBatch:
    return MuxleqBatch.stack([run(s, max_steps) for s in batch.unstack()])
