"""Short random programs with every opcode equally likely, for training balance.

The project's random programs (`ncpu.machine.random_programs`) are built to
find engine bugs: counted loops dominate their steps (DEC and JNZ are 17% and 16% of
the held-out steps), and a rare condition such as JBE meets few states
where it goes both ways. A model trained on them alone is right about JNZ
and near chance (or worse) about JS, JLE, JBE. These programs draw every
instruction uniformly from the whole instruction set, with random fields,
branch targets anywhere in the program, and edge-biased random start
states (random flags), so each opcode and each condition is met with both
outcomes and with varied operands. They are split by content like every
other program.
"""

from __future__ import annotations

import random

from ncpu.isa.encoding import Instruction, encode
from ncpu.isa.opcodes import FORMATS, NUM_REGISTERS
from ncpu.machine.random_programs import random_state, random_value
from ncpu.world.features import OPCODES
from ncpu.world.traces import RANDOM_MEM_SIZES, Trace, record, split_of

LENGTHS = (6, 16)  # instructions per program, inclusive


def _instruction(rng: random.Random, length: int) -> Instruction:
    op = rng.choice(OPCODES)
    values = {"rd": 0, "rs1": 0, "rs2": 0, "imm": 0}
    for field in FORMATS[op.format].fields:
        if field in ("rd", "rs1", "rs2"):
            values[field] = rng.randrange(NUM_REGISTERS)
        elif field == "addr":
            values["imm"] = rng.randrange(length + 1)
        elif field == "imm16":
            values["imm"] = rng.randrange(1 << 16)
        elif field == "imm15":
            values["imm"] = rng.choice((rng.randint(0, 31), rng.randint(-64, 64), rng.randint(-16384, 16383)))
        else:  # imm21
            value = random_value(rng)
            values["imm"] = value if -(1 << 20) <= value < 1 << 20 else rng.randint(-(1 << 20), (1 << 20) - 1)
    return Instruction(op, **values)


def balanced_program(rng: random.Random) -> list[int]:
    length = rng.randint(*LENGTHS)
    return [encode(_instruction(rng, length)) for _ in range(length)]


def balanced_traces(split: str, seed: int, count: int, max_steps: int = 64) -> list[Trace]:
    """`count` non-empty traces of balanced programs in `split`, from seeds seed, seed+1, ..."""
    traces: list[Trace] = []
    current = seed
    while len(traces) < count:
        rng = random.Random(current)
        words = balanced_program(rng)
        if split_of(words) == split:
            state = random_state(rng, rng.choice(RANDOM_MEM_SIZES), len(words))
            state.halted, state.pc, state.steps = False, 0, 0
            trace = record(words, state, max_steps, f"balanced:{current}")
            if len(trace):
                traces.append(trace)
        current += 1
    return traces
