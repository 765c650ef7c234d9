"""A process: a machine state, its address space, its open files, its accounting."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from ncpu.machine.state import MachineState
from ncpu.os.memory import AddressSpace


class Status(Enum):
    READY = "ready"
    BLOCKED = "blocked"  # trapped on a call that must wait (read of an empty pipe, wait, sleep)
    ZOMBIE = "zombie"  # exited, not yet waited for
    DONE = "done"


@dataclass
class Process:
    pid: int
    parent: int
    program: int  # index into the workload's programs
    words: list[int]
    state: MachineState  # registers, flags, pc, sp, steps; memory lives in `space`
    space: AddressSpace
    fds: dict[int, object]
    status: Status = Status.READY
    exit_status: int | None = None
    stdout: bytearray = field(default_factory=bytearray)
    stderr: bytearray = field(default_factory=bytearray)
    wake_tick: int = 0
    created_tick: int = 0
    finished_tick: int | None = None
    slices: int = 0
    syscalls: int = 0
    page_faults: int = 0
    reason: str = ""  # how it ended, when it did not exit: "step budget", "out of memory", "deadlock"
