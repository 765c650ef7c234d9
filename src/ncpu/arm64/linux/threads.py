"""Threads: clone(CLONE_THREAD), the end of one thread, and exec in a threaded process.

A new thread joins its creator's ThreadGroup (same memory, descriptors and
signal handlers) with a copy of the creator's registers, the stack and TLS
pointer the caller gave, and a fresh tid.  glibc's pthread_create passes
CLONE_VM|CLONE_FS|CLONE_FILES|CLONE_SIGHAND|CLONE_THREAD|CLONE_SYSVSEM|
CLONE_SETTLS|CLONE_PARENT_SETTID|CLONE_CHILD_CLEARTID; the glibc of the
cross toolchain calls clone directly (never clone3).
"""

from __future__ import annotations

import errno
import struct

from ncpu.arm64.cpu import GuestFault

from . import abi
from .errors import SyscallError
from .process import Process


def create(kernel, parent: Process, flags: int, stack: int, ptid: int, tls: int, ctid: int) -> Process:
    # Linux's rule: a thread shares handlers, and shared handlers need shared memory
    if not flags & abi.CLONE_SIGHAND or not flags & abi.CLONE_VM:
        raise SyscallError(errno.EINVAL)
    state = parent.state.copy()
    state.x[0] = 0                          # clone returns 0 in the new thread
    if stack:
        state.sp = stack
    if flags & abi.CLONE_SETTLS:
        state.tpidr_el0 = tls
    task = Process(pid=kernel.new_pid(), group=parent.group, state=state,
                   cpu=kernel.api.Cpu(parent.mem, state), sigmask=parent.sigmask)
    parent.group.threads.append(task)
    kernel.tasks[task.pid] = task
    tid = struct.pack("<i", task.pid)
    if flags & abi.CLONE_PARENT_SETTID and ptid:
        _store(task, ptid, tid)
    if flags & abi.CLONE_CHILD_SETTID and ctid:
        _store(task, ctid, tid)
    if flags & abi.CLONE_CHILD_CLEARTID:
        task.tid_address = ctid
    return task


def exit_thread(kernel, task: Process, wait_status: int) -> None:
    """exit(2): this thread ends; the last thread to end ends the process."""
    if not task.running:
        return
    if len(task.group.threads) <= 1:
        kernel.exit(task, wait_status)
        return
    # CLONE_CHILD_CLEARTID: how pthread_join learns that the thread is gone
    if task.tid_address:
        _store(task, task.tid_address, bytes(4))
        kernel.futex.wake(task.mem, task.tid_address, 1)
    leftover = retire(kernel, task)
    for signo, info in leftover:             # signals it never took go to a sibling
        kernel.send_signal(task.group.threads[0], signo, info)


def retire(kernel, task: Process) -> list:
    """Take one thread off the machine; returns the signals still pending on it."""
    task.exited = True
    task.blocked_call = None
    kernel.futex.cancel(task)
    leftover, task.pending = task.pending, []
    if task in task.group.threads:
        task.group.threads.remove(task)
    kernel.tasks.pop(task.pid, None)
    task.cpu = None
    return leftover


def after_exec(kernel, task: Process) -> None:
    """execve succeeded in `task`: the other threads are gone and it takes the process id."""
    group = task.group
    for other in list(group.threads):
        if other is not task:
            retire(kernel, other)
    if task.pid == group.tgid:
        return
    leader = kernel.procs[group.tgid]
    leader.state, leader.cpu, leader.sigmask = task.state, task.cpu, task.sigmask
    leader.exited, leader.blocked_call, leader.pending = False, None, []
    leader.altstack, leader.tid_address = task.altstack, 0
    retire(kernel, task)
    group.threads.append(leader)
    kernel.tasks[leader.pid] = leader


def _store(task: Process, addr: int, data: bytes) -> None:
    try:
        task.mem.write(addr, data)
    except GuestFault:
        pass                                 # Linux ignores a bad tid pointer here too
