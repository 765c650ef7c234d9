"""A guest process and its threads.

Linux keeps some state per thread (registers, signal mask, pending
thread-directed signals, tid) and the rest per process (address space,
descriptors, signal handlers, cwd, brk...).  We do the same: `ThreadGroup`
holds what a process's threads share and `Process` is one thread (a task).
A single-threaded process is a group with one task whose tid is the pid.

Every `ThreadGroup` field is also readable and writable as an attribute of
each of its tasks (`p.mem`, `p.fds`, `p.cwd`...), so system calls written
before threads existed keep working on whichever thread made the call.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields

from .files import FdTable


@dataclass
class SigAction:
    handler: int = 0      # SIG_DFL
    flags: int = 0
    restorer: int = 0
    mask: int = 0


@dataclass
class ThreadGroup:
    tgid: int                         # the process id: the tid of its first thread
    ppid: int
    mem: object                       # ncpu.arm64.cpu.Memory, shared by all threads
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
    instructions: int = 0             # guest instructions all its threads ran
    children_instructions: int = 0    # of reaped children (times(), RUSAGE_CHILDREN)
    exit_status: int | None = None    # wait status once a zombie (Linux encoding)
    rusage_reported: bool = False
    threads: list = field(default_factory=list)   # live tasks, oldest first


@dataclass
class Process:
    """One thread; `pid` is its tid (equal to `tgid` for the first thread)."""
    pid: int
    group: ThreadGroup
    state: object                     # ncpu.arm64.cpu.CpuState
    cpu: object                       # ncpu.arm64.cpu.Cpu over (mem, state)
    sigmask: int = 0
    pending: list[tuple[int, dict]] = field(default_factory=list)   # (signo, siginfo fields)
    altstack: tuple[int, int, int] = (0, 2, 0)                     # sp, flags (SS_DISABLE), size
    suspend_mask: int | None = None    # mask to restore after rt_sigsuspend
    blocked_call: tuple | None = None  # (nr, args) of a system call waiting to be retried
    tid_address: int = 0               # CLONE_CHILD_CLEARTID / set_tid_address
    exited: bool = False               # this thread has ended (the process may live on)
    futex_waiter: object = None        # futex.Waiter while blocked in FUTEX_WAIT

    @property
    def alive(self) -> bool:
        """The process (not this thread) has not ended."""
        return self.group.exit_status is None

    @property
    def running(self) -> bool:
        """This thread may run: neither it nor its process has ended."""
        return not self.exited and self.group.exit_status is None

    def action(self, signo: int) -> SigAction:
        return self.actions.setdefault(signo, SigAction())


def _shared(name: str) -> property:
    return property(lambda self: getattr(self.group, name),
                    lambda self, value: setattr(self.group, name, value),
                    doc=f"ThreadGroup.{name}, shared by the process's threads")


# added after @dataclass so they are not constructor fields of Process
for _field in fields(ThreadGroup):
    if _field.name != "threads":
        setattr(Process, _field.name, _shared(_field.name))
del _field


def new_process(pid: int, ppid: int, *, mem, state, cpu, fds: FdTable, exe_host: str, exe_guest: str,
                **shared) -> Process:
    """A process with one thread whose tid is `pid`."""
    group = ThreadGroup(tgid=pid, ppid=ppid, mem=mem, fds=fds, exe_host=exe_host, exe_guest=exe_guest,
                        **shared)
    proc = Process(pid=pid, group=group, state=state, cpu=cpu)
    group.threads.append(proc)
    return proc
