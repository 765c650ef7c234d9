"""Machine state: one machine (`MachineState`) or a batch (`BatchState`)."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ncpu.isa.opcodes import NUM_REGISTERS

DEFAULT_MEM_SIZE = 1024
# Limits on what a program file or the command line may ask for. Memory: 4 Mi
# words (16 MiB as int32; a batch multiplies it), far past what imm15 offsets
# and programs here use. pc: a jump target is 21 bits, so any pc beyond
# that halts at once; the bound keeps it inside every engine's int64/int32.
# Steps: an int64 counter in the compiled engines, with room to count past.
MAX_MEM_SIZE = 1 << 22
MAX_PC = (1 << 31) - 1
MAX_STEPS = 1 << 62
FLAG_NAMES = ("N", "Z", "C", "V")


@dataclass
class MachineState:
    """Everything a program can observe, plus the step counter.

    registers: R0..R7 as signed 32-bit ints. memory: `mem_size` signed words.
    sp: the stack pointer (an index into memory, 0 at reset so that the first
    PUSH lands at the top of memory). halted: True once the machine executed
    HALT or its pc left the program. trapped: True while the machine waits on
    a system call: it reached a SYS, which has not executed (pc on the SYS, no
    step counted); engines do not run a trapped machine, and whoever services
    the call completes it (`ncpu.machine.traps`).
    """

    registers: list[int] = field(default_factory=lambda: [0] * NUM_REGISTERS)
    memory: list[int] = field(default_factory=lambda: [0] * DEFAULT_MEM_SIZE)
    n: bool = False
    z: bool = False
    c: bool = False
    v: bool = False
    pc: int = 0
    sp: int = 0
    steps: int = 0
    halted: bool = False
    trapped: bool = False

    @property
    def flags(self) -> dict[str, bool]:
        return {"N": self.n, "Z": self.z, "C": self.c, "V": self.v}

    def copy(self) -> MachineState:
        return MachineState(list(self.registers), list(self.memory), self.n, self.z, self.c,
                            self.v, self.pc, self.sp, self.steps, self.halted, self.trapped)


@dataclass
class BatchState:
    """B machines as numpy arrays: the exchange format between engines.

    registers int32[B, 8], memory int32[B, M], flags bool[B, 4] (N Z C V),
    pc/sp/steps int64[B], halted bool[B], trapped bool[B] (all False when
    not given: see `MachineState.trapped`).
    """

    registers: np.ndarray
    memory: np.ndarray
    flags: np.ndarray
    pc: np.ndarray
    sp: np.ndarray
    steps: np.ndarray
    halted: np.ndarray
    trapped: np.ndarray | None = None

    def __post_init__(self) -> None:
        if self.trapped is None:
            self.trapped = np.zeros(self.halted.shape, np.bool_)

    @property
    def batch_size(self) -> int:
        return self.registers.shape[0]

    @classmethod
    def zeros(cls, batch_size: int, mem_size: int = DEFAULT_MEM_SIZE) -> BatchState:
        if batch_size < 1 or mem_size < 1:
            raise ValueError("batch size and memory size must be at least 1")
        return cls(
            registers=np.zeros((batch_size, NUM_REGISTERS), np.int32),
            memory=np.zeros((batch_size, mem_size), np.int32),
            flags=np.zeros((batch_size, 4), np.bool_),
            pc=np.zeros(batch_size, np.int64),
            sp=np.zeros(batch_size, np.int64),
            steps=np.zeros(batch_size, np.int64),
            halted=np.zeros(batch_size, np.bool_),
        )

    @classmethod
    def stack(cls, states: list[MachineState]) -> BatchState:
        sizes = {len(s.memory) for s in states}
        if len(sizes) != 1:
            raise ValueError("all machines in a batch need the same memory size")
        return cls(
            registers=np.array([s.registers for s in states], np.int64).astype(np.int32),
            memory=np.array([s.memory for s in states], np.int64).astype(np.int32),
            flags=np.array([[s.n, s.z, s.c, s.v] for s in states], np.bool_),
            pc=np.array([s.pc for s in states], np.int64),
            sp=np.array([s.sp for s in states], np.int64),
            steps=np.array([s.steps for s in states], np.int64),
            halted=np.array([s.halted for s in states], np.bool_),
            trapped=np.array([s.trapped for s in states], np.bool_),
        )

    def machine(self, index: int) -> MachineState:
        n, z, c, v = (bool(x) for x in self.flags[index])
        return MachineState(
            registers=[int(x) for x in self.registers[index]],
            memory=[int(x) for x in self.memory[index]],
            n=n, z=z, c=c, v=v,
            pc=int(self.pc[index]), sp=int(self.sp[index]),
            steps=int(self.steps[index]), halted=bool(self.halted[index]),
            trapped=bool(self.trapped[index]),
        )

    def unstack(self) -> list[MachineState]:
        return [self.machine(i) for i in range(self.batch_size)]

    def copy(self) -> BatchState:
        return BatchState(*(getattr(self, f).copy() for f in
                            ("registers", "memory", "flags", "pc", "sp", "steps", "halted", "trapped")))
