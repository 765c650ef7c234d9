"""Faults injected into one transition, for the anomaly benchmark and `watch`.

Each fault takes the raw state before a step, the raw action and the raw
state the exact machine reached, and returns the state a faulty machine
would have reached instead, or None where the fault cannot happen there.

What counts as a fault: an injection whose next state, as the model sees it
(registers, flags, pc, sp, the memory window), differs from the exact
machine's. A "wrong" value equal to the right one, a skipped instruction
that would have changed nothing but the pc, or a "wrong branch" whose two
directions lead to the same pc is no fault, and each kind is built so that
it never makes one (`inject` never returns a state equal to `after`):

  register  one bit flips in a register the step did not write
  alu       the result an ALU instruction writes has one bit flipped
  skip      the instruction is skipped (nothing changes but pc += 1), only
            where running it changes more than that
  memory    a word of the memory window is replaced by a different value
  branch    a conditional branch whose target is not the next instruction
            goes the other way
"""

from __future__ import annotations

import random

import numpy as np

from ncpu.isa.semantics import wrap
from ncpu.machine.state import MachineState
from ncpu.world.features import CONDITIONAL_CODES, WINDOW, WRITES_REGISTER, instruction_class

FAULTS = ("register", "alu", "skip", "memory", "branch")
_PC, _MEMORY = 12, 14  # raw-state columns


def _flip(value: int, bit: int) -> int:
    return wrap(value ^ (1 << bit))


def inject(kind: str, before: np.ndarray, action: np.ndarray, after: np.ndarray,
           rng: random.Random) -> np.ndarray | None:
    """The faulty next raw state (int64[22]), or None where `kind` does not apply."""
    faulty = after.copy()
    op = int(action[0])
    if kind == "register":
        written = int(action[1]) if WRITES_REGISTER[op] else -1
        register = rng.choice([r for r in range(8) if r != written])
        faulty[register] = _flip(int(after[register]), rng.randrange(32))
    elif kind == "alu":
        alu = instruction_class(np.array([op]))[0] == 0
        if not alu or not WRITES_REGISTER[op]:
            return None
        rd = int(action[1])
        faulty[rd] = _flip(int(after[rd]), rng.randrange(32))
    elif kind == "skip":
        faulty = before.copy()
        faulty[_PC] += 1
        if np.array_equal(faulty, after):
            return None
    elif kind == "memory":
        word = _MEMORY + rng.randrange(WINDOW)
        old = int(after[word])
        new = old
        while new == old:
            new = wrap(rng.getrandbits(32)) if rng.random() < 0.5 else rng.randint(-64, 64)
        faulty[word] = new
    elif kind == "branch":
        target, fall_through = int(action[4]), int(before[_PC]) + 1
        if op not in CONDITIONAL_CODES or target == fall_through:
            return None
        faulty[_PC] = fall_through if after[_PC] == target else target
    else:
        raise ValueError(f"unknown fault {kind!r}; choose one of {', '.join(FAULTS)}")
    assert not np.array_equal(faulty, after), kind  # each kind above is built to change the state
    return faulty


def write_raw(state: MachineState, raw: np.ndarray) -> None:
    """Put a raw state's registers, flags, pc, sp and window back into a machine."""
    values = [int(x) for x in raw]
    state.registers = values[:8]
    state.n, state.z, state.c, state.v = (bool(x) for x in values[8:12])
    state.pc, state.sp = values[12], values[13]
    for i in range(min(WINDOW, len(state.memory))):
        state.memory[i] = values[_MEMORY + i]
