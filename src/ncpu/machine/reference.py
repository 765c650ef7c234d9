"""The reference engine: the nCPU semantics, written to be read.

One instruction per `step`, plain Python integers. Every faster engine must
produce exactly the state this one produces.
"""

from __future__ import annotations

from ncpu.isa.encoding import Instruction, decode
from ncpu.isa import semantics as sem
from ncpu.machine.state import BatchState, MachineState


def decode_program(words: list[int]) -> list[Instruction]:
    return [decode(word) for word in words]


def _write(state: MachineState, register: int, value: int) -> None:
    """Every register write sets Z and N from the value written."""
    state.registers[register] = value
    state.z = value == 0
    state.n = value < 0


def step(program: list[Instruction], state: MachineState) -> None:
    """Execute the instruction at pc. A pc outside the program halts the
    machine without counting a step; a SYS traps (`state.trapped`) without
    executing, for the caller to service (`ncpu.machine.traps`)."""
    if not 0 <= state.pc < len(program):
        state.halted = True
        return
    ins = program[state.pc]
    name = ins.op.mnemonic
    if name == "SYS":
        state.trapped = True
        return
    regs = state.registers
    size = len(state.memory)
    next_pc = state.pc + 1
    state.steps += 1

    if name == "HALT":
        state.halted = True
        return
    if name == "NOP":
        pass
    elif name == "MOV":
        _write(state, ins.rd, regs[ins.rs1])
    elif name == "MOVI":
        _write(state, ins.rd, ins.imm)
    elif name == "MOVT":
        _write(state, ins.rd, sem.wrap((ins.imm << 16) | (regs[ins.rd] & 0xFFFF)))
    elif name in sem.BINARY:
        _write(state, ins.rd, sem.BINARY[name](regs[ins.rs1], regs[ins.rs2]))
    elif name in sem.IMMEDIATE_TO_BINARY:
        _write(state, ins.rd, sem.BINARY[sem.IMMEDIATE_TO_BINARY[name]](regs[ins.rs1], ins.imm))
    elif name == "NOT":
        _write(state, ins.rd, ~regs[ins.rs1])
    elif name == "NEG":
        _write(state, ins.rd, sem.wrap(-regs[ins.rs1]))
    elif name == "INC":
        _write(state, ins.rd, sem.wrap(regs[ins.rd] + 1))
    elif name == "DEC":
        _write(state, ins.rd, sem.wrap(regs[ins.rd] - 1))
    elif name == "CMP":
        state.n, state.z, state.c, state.v = sem.compare_flags(regs[ins.rs1], regs[ins.rs2])
    elif name == "CMPI":
        state.n, state.z, state.c, state.v = sem.compare_flags(regs[ins.rs1], ins.imm)
    elif name == "LOAD":
        _write(state, ins.rd, state.memory[(regs[ins.rs1] + ins.imm) % size])
    elif name == "STORE":
        state.memory[(regs[ins.rs1] + ins.imm) % size] = regs[ins.rs2]
    elif name == "PUSH":
        state.sp = (state.sp - 1) % size
        state.memory[state.sp] = regs[ins.rs1]
    elif name == "POP":
        _write(state, ins.rd, state.memory[state.sp % size])
        state.sp = (state.sp + 1) % size
    elif name == "CALL":
        state.sp = (state.sp - 1) % size
        state.memory[state.sp] = next_pc
        next_pc = ins.imm
    elif name == "RET":
        next_pc = state.memory[state.sp % size]
        state.sp = (state.sp + 1) % size
    elif name in sem.CONDITIONS:
        if sem.CONDITIONS[name](state.n, state.z, state.c, state.v):
            next_pc = ins.imm
    else:  # pragma: no cover - the opcode table and this function must agree
        raise NotImplementedError(name)
    state.pc = next_pc


def run(words: list[int], state: MachineState, max_steps: int) -> MachineState:
    """Run until halted, trapped on a SYS, or until `max_steps` more
    instructions have executed. Returns a new state; `halted` is False when
    the budget ran out or the machine trapped."""
    program = decode_program(words)
    state = state.copy()
    budget = state.steps + max_steps
    while not state.halted and not state.trapped:
        if not 0 <= state.pc < len(program):
            state.halted = True
            break
        if state.steps >= budget:
            break
        step(program, state)
    return state


def run_batch(words: list[int], batch: BatchState, max_steps: int) -> BatchState:
    return BatchState.stack([run(words, state, max_steps) for state in batch.unstack()])
