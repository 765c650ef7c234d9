"""A guest process: address space, registers, descriptors, signal state."""

from __future__ import annotations

from dataclasses import dataclass, field

from .files import FdTable


@dataclass
class SigAction:
    handler: int = 0      # SIG_DFL
    flags: int = 0
    restorer: int = 0
    mask: int = 0


@dataclass
class Process:
    pid: int
    ppid: int
    mem: object                       # ncpu.arm64.cpu.Memory
    state: object                     # ncpu.arm64.cpu.CpuState
    cpu: object                       # ncpu.arm64.cpu.Cpu over (mem, state)
    fds: FdTable
    exe_host: str                     # host path of the running binary (/proc/self/exe)
    exe_guest: str                    # what readlink("/proc/self/exe") says
    cwd: str = "/"
    pgid: int = 0
    sid: int = 0
    umask: int = 0o022
    brk_start: int = 0
    brk: int = 0
    mmap_hint: int = 0                # next mmap goes below this (top-down, like Linux)
    actions: dict[int, SigAction] = field(default_factory=dict)
    sigmask: int = 0
    pending: list[tuple[int, dict]] = field(default_factory=list)   # (signo, siginfo fields)
    altstack: tuple[int, int, int] = (0, 2, 0)                     # sp, flags (SS_DISABLE), size
    suspend_mask: int | None = None    # mask to restore after rt_sigsuspend
    blocked_call: tuple | None = None  # (nr, args) of a system call waiting to be retried
    instructions: int = 0              # guest instructions this process ran
    children_instructions: int = 0     # of reaped children (times(), RUSAGE_CHILDREN)
    exit_status: int | None = None     # wait status once a zombie (Linux encoding)
    tid_address: int = 0
    rusage_reported: bool = False

    @property
    def alive(self) -> bool:
        return self.exit_status is None

    def action(self, signo: int) -> SigAction:
        return self.actions.setdefault(signo, SigAction())
