"""Transitions recorded from the exact machine, and the split by program.

A `Trace` is one run: raw states s_0..s_T (int64[T+1, 22]) and the raw
actions a_0..a_{T-1} (int64[T, 8]) between them, from the reference engine
stepped one instruction at a time (its `step` is the definition every engine
is tested against). The memory-bus columns of an action are observed here,
before the step, from the instruction and the state it runs in.

Programs are split by *content*: a hash of the program's words puts it in
`train`, `valid` (threshold calibration) or `eval`, so a program — random or
from the corpus — can never be trained on and evaluated on, whatever seed or
file name it came from.
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import numpy as np

from ncpu.machine import reference
from ncpu.machine.program_file import load_program_file, program_paths
from ncpu.machine.random_programs import random_program, random_state
from ncpu.machine.state import MachineState
from ncpu.world.features import BUS_NONE, BUS_READ, BUS_WRITE, WINDOW

CORPUS = Path(__file__).resolve().parents[3] / "programs"
SPLITS = ("train", "valid", "eval")
RANDOM_MEM_SIZES = (16, 64, 256, 1024)  # at least WINDOW words, so the window is real memory


@dataclass
class Trace:
    name: str
    words: list[int]
    states: np.ndarray  # int64[T+1, 22]
    actions: np.ndarray  # int64[T, 8]

    def __len__(self) -> int:
        return len(self.actions)


def split_of(words: list[int]) -> str:
    """'train' (80%), 'valid' (10%) or 'eval' (10%), from the program's content."""
    digest = hashlib.sha256(np.asarray(words, np.uint32).tobytes()).digest()
    bucket = digest[0] % 10
    return "eval" if bucket == 0 else "valid" if bucket == 1 else "train"


def raw_state(state: MachineState) -> list[int]:
    window = (state.memory[:WINDOW] + [0] * WINDOW)[:WINDOW]
    return [*state.registers, state.n, state.z, state.c, state.v, state.pc, state.sp, *window]


def bus_of(ins, state: MachineState) -> tuple[int, int, int]:
    """(kind, address, word read) the step will put on the memory bus."""
    size, name, regs = len(state.memory), ins.op.mnemonic, state.registers
    if name == "LOAD":
        address = (regs[ins.rs1] + ins.imm) % size
        return BUS_READ, address, state.memory[address]
    if name in ("POP", "RET"):
        return BUS_READ, state.sp % size, state.memory[state.sp % size]
    if name == "STORE":
        return BUS_WRITE, (regs[ins.rs1] + ins.imm) % size, 0
    if name in ("PUSH", "CALL"):
        return BUS_WRITE, (state.sp - 1) % size, 0
    return BUS_NONE, 0, 0


def record(words: list[int], state: MachineState, max_steps: int, name: str = "",
           after_step: Callable[[int, list[int], list[int], MachineState], None] | None = None) -> Trace:
    """Step the reference engine from `state` (not modified) for up to
    `max_steps` instructions, recording every transition.

    `after_step(t, raw s_t, raw a_t, state)` may change the machine after step
    t (fault injection); the run goes on from the changed state."""
    program = reference.decode_program(words)
    state = state.copy()
    states, actions = [raw_state(state)], []
    while not state.halted and len(actions) < max_steps and 0 <= state.pc < len(program):
        ins = program[state.pc]
        kind, address, value = bus_of(ins, state)
        action = [ins.op.code, ins.rd, ins.rs1, ins.rs2, ins.imm, kind, address, value]
        actions.append(action)
        reference.step(program, state)
        if after_step is not None:
            after_step(len(actions) - 1, states[-1], action, state)
        states.append(raw_state(state))
    return Trace(name, list(words), np.array(states, np.int64).reshape(-1, len(states[0])),
                 np.array(actions, np.int64).reshape(-1, 8))


def random_traces(split: str, seed: int, count: int, max_steps: int = 256) -> list[Trace]:
    """`count` non-empty traces of random programs that fall in `split`,
    drawn from seeds seed, seed+1, ... (deterministic)."""
    traces: list[Trace] = []
    current = seed
    while len(traces) < count:
        rng = random.Random(current)
        words = random_program(rng)
        if words and split_of(words) == split:
            state = random_state(rng, rng.choice(RANDOM_MEM_SIZES), len(words))
            state.halted, state.pc, state.steps = False, 0, 0
            trace = record(words, state, max_steps, f"random:{current}")
            if len(trace):
                traces.append(trace)
        current += 1
    return traces


def corpus_traces(split: str, max_steps: int = 1024, directory: Path = CORPUS) -> list[Trace]:
    """The programs/ corpus files in `split`, each from its declared start state."""
    traces = []
    for path in program_paths(directory):
        loaded = load_program_file(path)
        if split_of(loaded.program.words) == split:
            traces.append(record(loaded.program.words, loaded.fresh_state(), max_steps, path.stem))
    return traces
