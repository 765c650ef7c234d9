"""The data-memory accesses of a time slice, recorded on the reference engine.

The memory hierarchy neurOS simulates for its statistics (TLB, data cache,
prefetcher: `ncpu.os.hierarchy`) needs every address a slice touches. The
fast engines do not report them, so the kernel replays each slice on the
reference engine's `step` (the readable semantics), noting before each
instruction the word it will read or write, and checks that the replay ends
where the engine did. Addresses are virtual word addresses of the process.
"""

from __future__ import annotations

from ncpu.machine.reference import decode_program, step
from ncpu.machine.state import MachineState

# Access kinds: which instruction touched memory (a feature of the learned policies).
KINDS = ("LOAD", "STORE", "PUSH", "POP", "CALL", "RET")
KIND = {name: index for index, name in enumerate(KINDS)}


def address_of(ins, state: MachineState, size: int) -> int:
    """The data word instruction `ins` touches in `state`, or -1 if none."""
    name = ins.op.mnemonic
    if name in ("LOAD", "STORE"):
        return (state.registers[ins.rs1] + ins.imm) % size
    if name in ("PUSH", "CALL"):
        return (state.sp - 1) % size
    if name in ("POP", "RET"):
        return state.sp % size
    return -1


def run_traced(words: list[int], state: MachineState, max_steps: int,
               program=None) -> tuple[MachineState, list[tuple[int, int, int]]]:
    """As `reference.run`, and the slice's accesses as (pc, address, kind)."""
    program = program if program is not None else decode_program(words)
    state = state.copy()
    size = len(state.memory)
    budget = state.steps + max_steps
    accesses = []
    while not state.halted and not state.trapped:
        if not 0 <= state.pc < len(program):
            state.halted = True
            break
        if state.steps >= budget:
            break
        ins = program[state.pc]
        kind = KIND.get(ins.op.mnemonic)
        if kind is not None:
            accesses.append((state.pc, address_of(ins, state, size), kind))
        step(program, state)
    return state, accesses
