"""Seeded random nCPU programs and machine states, for differential tests.

Programs are built from segments that exercise what engines get wrong:
counted loops (backward branches that end), forward branches over code,
wild jumps (some outside the program, so the machine halts there), calls to
subroutines placed after the final HALT, stray RETs, PUSH/POP, LOAD/STORE
with wrapping addresses, every ALU op (DIV/MOD by zero, INT_MIN cases,
shifts by register amounts that are >= 32 or negative). Most programs halt;
the rest are bounded by the caller's step budget.

Everything takes a `random.Random` (or a seed), so a failing case is
reproduced from its seed alone.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ncpu.isa.encoding import Instruction, encode
from ncpu.isa.opcodes import BY_MNEMONIC, FORMATS, NUM_REGISTERS
from ncpu.machine.state import BatchState, MachineState

from ncpu.isa.semantics import EDGE_VALUES as SPECIAL_VALUES, INT_MAX, INT_MIN  # noqa: F401
MEM_SIZES = (1, 2, 3, 8, 16, 61, 64, 256, 1024)

_STRAIGHT = ("ADD", "SUB", "MUL", "DIV", "MOD", "AND", "OR", "XOR", "SHL", "SHR", "SAR",
             "ADDI", "ANDI", "ORI", "XORI", "SHLI", "SHRI", "SARI", "MOV", "MOVI", "MOVT",
             "NOT", "NEG", "INC", "DEC", "CMP", "CMPI", "LOAD", "STORE", "PUSH", "POP", "NOP")
_CONDITIONAL = ("JZ", "JNZ", "JS", "JNS", "JL", "JGE", "JG", "JLE", "JB", "JAE", "JA", "JBE")
_SEGMENTS = ("straight", "edge", "loop", "forward", "wild", "call", "halt", "ret")
_SEGMENT_WEIGHTS = (10, 2, 4, 5, 1, 2, 1, 0.5)
_EDGE_OPS = ("DIV", "MOD", "MUL", "ADD", "SUB", "SHL", "SHR", "SAR", "CMP")


def _rng(seed: int | random.Random) -> random.Random:
    return seed if isinstance(seed, random.Random) else random.Random(seed)


def random_value(rng: random.Random) -> int:
    """A signed 32-bit value, biased toward edge cases and small numbers."""
    kind = rng.random()
    if kind < 0.35:
        return rng.choice(SPECIAL_VALUES)
    if kind < 0.7:
        return rng.randint(-40, 40)
    return rng.randint(INT_MIN, INT_MAX)


def _immediate(rng: random.Random, field: str) -> int:
    if field == "imm15":
        return rng.choice((0, 1, -1, 2, 31, 32, -16384, 16383, rng.randint(-50, 50), rng.randint(-16384, 16383)))
    if field == "imm21":
        return rng.choice((0, 1, -1, 31, 32, 33, -32, 64, -(1 << 20), (1 << 20) - 1, rng.randint(-100, 100),
                           rng.randint(-(1 << 20), (1 << 20) - 1)))
    return rng.choice((0, 0x8000, 0xFFFF, 0x7FFF, rng.randint(0, 0xFFFF)))  # imm16


def _straight(rng: random.Random, avoid: int | None = None) -> Instruction:
    """One non-control instruction; `avoid` is a register it must not write."""
    name = rng.choice(_STRAIGHT)
    op = BY_MNEMONIC[name]
    writable = [r for r in range(NUM_REGISTERS) if r != avoid]
    values = {"rd": 0, "rs1": 0, "rs2": 0, "imm": 0}
    for field in FORMATS[op.format].fields:
        if field == "rd":
            values["rd"] = rng.choice(writable)
        elif field in ("rs1", "rs2"):
            values[field] = rng.randrange(NUM_REGISTERS)
        else:
            values["imm"] = _immediate(rng, field)
    if name in ("SHLI", "SHRI", "SARI"):
        values["imm"] = rng.randint(0, 31)
    return Instruction(op, **values)


def _load_constant(register: int, value: int) -> list[Instruction]:
    """MOVI, plus MOVT when the value does not fit 21 signed bits."""
    if -(1 << 20) <= value < (1 << 20):
        return [Instruction(BY_MNEMONIC["MOVI"], rd=register, imm=value)]
    value &= 0xFFFFFFFF
    return [Instruction(BY_MNEMONIC["MOVI"], rd=register, imm=value & 0xFFFF),
            Instruction(BY_MNEMONIC["MOVT"], rd=register, imm=value >> 16)]


@dataclass
class _Builder:
    """Instructions with jump targets that may still be symbolic."""

    rng: random.Random
    # [Instruction, None] or [jump mnemonic, target (address or label name)]
    code: list[list]
    labels: dict[str, int]
    subroutines: list[str]

    def emit(self, ins: Instruction) -> None:
        self.code.append([ins, None])

    def jump(self, name: str, target) -> None:
        self.code.append([name, target])

    def label(self, name: str) -> None:
        self.labels[name] = len(self.code)

    def fresh(self, stem: str) -> str:
        return f"{stem}{len(self.labels) + len(self.subroutines)}_{len(self.code)}"


def _segment(b: _Builder, kind: str, budget_length: int) -> None:
    rng = b.rng
    if kind == "straight":
        for _ in range(rng.randint(1, 4)):
            b.emit(_straight(rng))
    elif kind == "edge":
        # Load two edge values (INT_MIN, -1, 32, ...) and combine them, since
        # random registers rarely meet exactly INT_MIN / -1.
        first, second = rng.sample(range(NUM_REGISTERS), 2)
        values = (INT_MIN, -1) if rng.random() < 0.25 else (rng.choice(SPECIAL_VALUES), rng.choice(SPECIAL_VALUES))
        for register, value in zip((first, second), values):
            for ins in _load_constant(register, value):
                b.emit(ins)
        name = rng.choice(_EDGE_OPS)
        if name == "CMP":
            b.emit(Instruction(BY_MNEMONIC["CMP"], rs1=first, rs2=second))
        else:
            b.emit(Instruction(BY_MNEMONIC[name], rd=rng.randrange(NUM_REGISTERS), rs1=first, rs2=second))
    elif kind == "loop":
        counter = rng.randrange(NUM_REGISTERS)
        b.emit(Instruction(BY_MNEMONIC["MOVI"], rd=counter, imm=rng.choice((0, 1, 2, 3, 5, 8))))
        start = len(b.code)
        for _ in range(rng.randint(1, 4)):
            b.emit(_straight(rng, avoid=counter))
        b.emit(Instruction(BY_MNEMONIC["DEC"], rd=counter))
        b.jump("JNZ", start)
    elif kind == "forward":
        if rng.random() < 0.5:
            b.emit(Instruction(BY_MNEMONIC["CMP"], rs1=rng.randrange(8), rs2=rng.randrange(8)))
        else:
            b.emit(Instruction(BY_MNEMONIC["CMPI"], rs1=rng.randrange(8), imm=_immediate(rng, "imm15")))
        skip = b.fresh("skip")
        b.jump(rng.choice(_CONDITIONAL + ("JMP",)), skip)
        for _ in range(rng.randint(1, 3)):
            b.emit(_straight(rng))
        b.label(skip)
    elif kind == "wild":
        b.jump(rng.choice(_CONDITIONAL + ("JMP",)), rng.randint(0, budget_length + 3))
    elif kind == "call":
        name = b.fresh("sub")
        b.subroutines.append(name)
        b.jump("CALL", name)
    elif kind == "halt":
        b.emit(Instruction(BY_MNEMONIC["HALT"]))
    elif kind == "ret":
        b.emit(Instruction(BY_MNEMONIC["RET"]))
    elif kind == "sys":
        b.emit(Instruction(BY_MNEMONIC["SYS"]))


def random_program(seed: int | random.Random, segments: int | None = None, syscalls: bool = False) -> list[int]:
    """A random valid program (list of words); same seed, same program.
    `syscalls` adds SYS instructions (off by default, so the programs of a
    seed stay what they were before SYS existed)."""
    rng = _rng(seed)
    b = _Builder(rng, [], {}, [])
    count = segments if segments is not None else rng.randint(0, 12)
    kinds, weights = (_SEGMENTS + ("sys",), _SEGMENT_WEIGHTS + (2,)) if syscalls else (_SEGMENTS, _SEGMENT_WEIGHTS)
    for _ in range(count):
        _segment(b, rng.choices(kinds, weights)[0], 4 * count)
    if count and rng.random() < 0.85:
        b.emit(Instruction(BY_MNEMONIC["HALT"]))
    for name in b.subroutines:  # bodies after the HALT, each ending in RET
        b.label(name)
        for _ in range(rng.randint(0, 3)):
            b.emit(_straight(rng))
        b.emit(Instruction(BY_MNEMONIC["RET"]))
    words = []
    for ins, target in b.code:
        if target is not None:
            address = b.labels[target] if isinstance(target, str) else target
            ins = Instruction(BY_MNEMONIC[ins], imm=address)
        words.append(encode(ins))
    return words


def random_state(seed: int | random.Random, mem_size: int | None = None,
                 program_length: int = 0) -> MachineState:
    """A random starting state: edge-case registers and memory, random flags,
    sp anywhere in memory, usually pc 0, sometimes a pc inside, outside or
    already halted, sometimes a nonzero step counter."""
    rng = _rng(seed)
    size = mem_size if mem_size is not None else rng.choice(MEM_SIZES)
    memory = [random_value(rng) if rng.random() < 0.7 else rng.randint(0, program_length + 2)
              for _ in range(size)]
    pc = 0
    roll = rng.random()
    if roll < 0.1:
        pc = rng.randint(0, max(program_length - 1, 0))
    elif roll < 0.13:
        pc = rng.choice((-1, program_length, program_length + 7))
    return MachineState(
        registers=[random_value(rng) for _ in range(NUM_REGISTERS)],
        memory=memory,
        n=rng.random() < 0.5, z=rng.random() < 0.5, c=rng.random() < 0.5, v=rng.random() < 0.5,
        pc=pc,
        sp=rng.randrange(size),
        steps=rng.choice((0, 0, 0, 5, 1000)),
        halted=rng.random() < 0.03,
    )


def random_batch(seed: int | random.Random, batch_size: int, mem_size: int | None = None,
                 program_length: int = 0) -> BatchState:
    """`batch_size` independent random states sharing one memory size."""
    rng = _rng(seed)
    size = mem_size if mem_size is not None else rng.choice(MEM_SIZES)
    return BatchState.stack([random_state(rng, size, program_length) for _ in range(batch_size)])


def random_case(seed: int | random.Random, syscalls: bool = False) -> tuple[list[int], MachineState]:
    """A program and a starting state for it, both from one seed."""
    rng = _rng(seed)
    words = random_program(rng, syscalls=syscalls)
    return words, random_state(rng, program_length=len(words))
