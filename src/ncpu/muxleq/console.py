"""Running a MUXLEQ machine against live byte streams (a terminal, a pipe).

`run_streams` alternates engine runs with I/O: output is handed to `write`
after every run (so it appears while a long computation goes on, and
always before the machine blocks on input); when the machine waits for a
byte, `read()` supplies whatever bytes are available (b"" = end of input,
after which reads give 0xFFFF). The final state equals one uninterrupted
run over the concatenated input (the engines resume exactly).
"""

from __future__ import annotations

from types import ModuleType
from typing import Callable

from ncpu.muxleq.state import MuxleqState

# Steps per engine call, by engine: about a second or less of work each.
CHUNK = {"compute": 50_000_000, "fast": 2_000, "neural": 500, "reference": 100_000}


def run_streams(engine: ModuleType, state: MuxleqState, max_steps: int, read: Callable[[], bytes],
                write: Callable[[bytes], object], chunk: int = 100_000) -> MuxleqState:
    """Run until halt or `max_steps` more steps; returns the final state (its
    `output` already written, so empty)."""
    end = state.steps + max_steps
    while not state.halted and state.steps < end:
        state = engine.run(state, min(chunk, end - state.steps))
        if state.output:
            write(state.output)
            state.output = b""
        if state.waiting_for_input:
            data = read()
            state.input += data
            state.end_of_input = not data
    return state
