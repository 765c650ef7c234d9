"""Random MUXLEQ machines for differential tests and benchmarks.

Programs are dense in the interesting cases: operands point into a small
window (so instructions read and overwrite each other's cells, including
code), about a fifth of instructions are MUX, some read or write bytes,
some jump out (halt); data cells after the code take any 16-bit value.
Inputs are random bytes, some machines see end of input, others wait.
"""

from __future__ import annotations

import numpy as np

from ncpu.muxleq.state import IO, MuxleqState, WORDS


def random_state(rng: np.random.Generator, instructions: int = 40, data: int = 40) -> MuxleqState:
    window = 3 * instructions + data
    cells = rng.integers(0, window, 3 * instructions)
    kind = rng.random(instructions)
    for k in range(instructions):
        if kind[k] < 0.2:
            cells[3 * k + 2] = 0x8000 | int(rng.integers(0, window))  # MUX
        elif kind[k] < 0.25:
            cells[3 * k] = IO                                        # read
        elif kind[k] < 0.3:
            cells[3 * k + 1] = IO                                    # write
        elif kind[k] < 0.33:
            cells[3 * k + 2] = int(rng.choice([IO, 0x8000 + 3 * int(rng.integers(0, 100))]))
        elif kind[k] < 0.5:
            cells[3 * k + 2] = 3 * int(rng.integers(0, instructions))  # a jump to an instruction
    memory = np.zeros(WORDS, np.uint16)
    memory[: 3 * instructions] = cells
    memory[3 * instructions: window] = rng.integers(0, 1 << 16, data)
    input_bytes = bytes(rng.integers(0, 256, int(rng.integers(0, 8))).tolist())
    return MuxleqState(memory, input=input_bytes, end_of_input=bool(rng.random() < 0.7))


def random_states(seed: int, count: int, **sizes) -> list[MuxleqState]:
    rng = np.random.default_rng(seed)
    return [random_state(rng, **sizes) for _ in range(count)]
