"""A CPU for the Linux machine that records what a timing or cache observer could see.

For every retired instruction: its address; for every load or store (the AArch64
loads-and-stores encoding group) also the values of the registers the address is
formed from (the base, and the index of a register-offset form). Two runs whose
records are equal made the same control flow and touched the same addresses.
It steps one instruction per call of the compiled loop: slow, for short programs.
"""

from __future__ import annotations

import types

from ncpu.arm64 import cpu as base
from ncpu.arm64.cpu.state import PC


def _is_load_store(word: int) -> bool:
    return (word & 0x0A000000) == 0x08000000


def _is_register_offset(word: int) -> bool:
    return (word & 0x3B200C00) == 0x38200800


def tracing_api(trace: list) -> types.SimpleNamespace:
    """A `cpu_api` for ncpu.arm64.linux.Machine that appends records to `trace`."""

    class TracingCpu(base.Cpu):
        def run(self, max_steps: int):
            steps = 0
            while True:
                regs = self.state.regs
                pc = int(regs[PC])
                word = int.from_bytes(self.mem.read(pc, 4), "little")
                if _is_load_store(word):
                    record = (pc, int(regs[(word >> 5) & 31]))
                    if _is_register_offset(word):
                        record += (int(regs[(word >> 16) & 31]),)
                else:
                    record = (pc,)
                trace.append(record)
                stop = super().run(1)
                steps += stop.steps
                if stop.reason is not base.StopReason.BUDGET or steps >= max_steps:
                    stop.steps = steps
                    return stop

    return types.SimpleNamespace(Memory=base.Memory, CpuState=base.CpuState, Cpu=TracingCpu,
                                 StopReason=base.StopReason)
