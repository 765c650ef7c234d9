"""Signal calls: sigaction, sigprocmask, sigaltstack, kill, sigreturn, sigsuspend."""

from __future__ import annotations

import errno
import struct

from .. import abi, signals
from ..errors import SyscallError, WouldBlock
from ..process import SigAction
from . import NO_RESULT, GuestFault, read as rd, sint, syscall, write as wr


@syscall(134)
def sys_rt_sigaction(k, p, signo, act, oldact, sigsetsize, *_):
    # Linux's order: the set size, reading act, the signal number, then writing oldact
    signo = sint(signo)
    if sigsetsize != 8:
        raise SyscallError(errno.EINVAL)
    new = abi.SIGACTION.unpack(rd(p, act, 32)) if act else None
    if not 1 <= signo <= abi.NSIG or (new and signo in (abi.SIGKILL, abi.SIGSTOP)):
        raise SyscallError(errno.EINVAL)
    current = p.action(signo)
    if new:
        handler, flags, restorer, mask = new
        p.actions[signo] = SigAction(handler, flags, restorer, mask & ~signals.UNBLOCKABLE)
        if handler == abi.SIG_IGN:     # ignoring drops what is pending
            p.pending = [(s, i) for s, i in p.pending if s != signo]
    if oldact:
        wr(p, oldact, abi.SIGACTION.pack(current.handler, current.flags, current.restorer, current.mask))
    return 0


@syscall(135)
def sys_rt_sigprocmask(k, p, how, set_ptr, old_ptr, sigsetsize, *_):
    if sigsetsize != 8:
        raise SyscallError(errno.EINVAL)
    old = p.sigmask
    if set_ptr:
        (mask,) = struct.unpack("<Q", rd(p, set_ptr, 8))
        how = sint(how)
        if how == abi.SIG_BLOCK:
            p.sigmask |= mask
        elif how == abi.SIG_UNBLOCK:
            p.sigmask &= ~mask
        elif how == abi.SIG_SETMASK:
            p.sigmask = mask
        else:
            raise SyscallError(errno.EINVAL)
        p.sigmask &= ~signals.UNBLOCKABLE
    if old_ptr:
        wr(p, old_ptr, struct.pack("<Q", old))
    return 0


@syscall(136)
def sys_rt_sigpending(k, p, set_ptr, size, *_):
    if size > 8:
        raise SyscallError(errno.EINVAL)
    mask = 0
    for signo, _info in p.pending:
        mask |= signals.bit(signo)
    wr(p, set_ptr, struct.pack("<Q", mask & p.sigmask)[:size])
    return 0


@syscall(133)
def sys_rt_sigsuspend(k, p, mask_ptr, size, *_):
    (mask,) = struct.unpack("<Q", rd(p, mask_ptr, 8))
    if p.suspend_mask is None:
        p.suspend_mask = p.sigmask
        p.sigmask = mask & ~signals.UNBLOCKABLE
    # returns -EINTR once a signal is delivered (the scheduler handles that)
    raise WouldBlock()


MINSIGSTKSZ = 5120      # arm64's
SS_AUTODISARM = 1 << 31


@syscall(132)
def sys_sigaltstack(k, p, new, old, *_):
    # Linux's order: read the new stack, check it, install it, then write the old one
    base, flags, size = p.altstack
    if not flags & abi.SS_DISABLE and signals.on_altstack(p, p.state.sp):
        flags |= abi.SS_ONSTACK
    previous = abi.STACK_T.pack(base, flags, 0, size)
    if new:
        base, flags, _pad, size = abi.STACK_T.unpack(rd(p, new, 24))
        if signals.on_altstack(p, p.state.sp):
            raise SyscallError(errno.EPERM)
        mode = flags & 0xFFFFFFFF & ~SS_AUTODISARM
        if mode not in (0, abi.SS_ONSTACK, abi.SS_DISABLE):
            raise SyscallError(errno.EINVAL)
        if mode == abi.SS_DISABLE:
            p.altstack = (0, abi.SS_DISABLE, 0)
        else:
            if size < MINSIGSTKSZ:
                raise SyscallError(errno.ENOMEM)
            p.altstack = (base, 0, size)
    if old:
        wr(p, old, previous)
    return 0


@syscall(139)
def sys_rt_sigreturn(k, p, *_):
    try:
        signals.sigreturn(p)
    except GuestFault:
        k.kill_by_signal(p, abi.SIGSEGV, f"bad signal frame at sp={p.state.sp:#x}")
    return NO_RESULT


def _targets(k, p, pid: int):
    if pid > 0:
        target = k.procs.get(pid)
        return [target] if target and target.alive else []
    if pid == 0:
        return [q for q in k.procs.values() if q.alive and q.pgid == p.pgid]
    if pid == -1:
        return [q for q in k.procs.values() if q.alive and q.pid != 1]
    return [q for q in k.procs.values() if q.alive and q.pgid == -pid]


@syscall(129)
def sys_kill(k, p, pid, signo, *_):
    pid, signo = sint(pid), sint(signo)
    if not 0 <= signo <= abi.NSIG:
        raise SyscallError(errno.EINVAL)
    targets = _targets(k, p, pid)
    if not targets:
        raise SyscallError(errno.ESRCH)
    for target in sorted(targets, key=lambda q: q.pid):
        if signo:
            k.send_signal(target, signo, signals.siginfo(signo, abi.SI_USER, pid=p.tgid, uid=k.uid))
    return 0


@syscall(130)
def sys_tkill(k, p, tid, signo, *_):
    if sint(tid) <= 0:
        raise SyscallError(errno.EINVAL)
    return _tkill(k, p, 0, sint(tid), sint(signo))


@syscall(131)
def sys_tgkill(k, p, tgid, tid, signo, *_):
    """Signal one thread (raise, abort, pthread_kill)."""
    if sint(tid) <= 0 or sint(tgid) <= 0:         # only single tasks (Linux checks this first)
        raise SyscallError(errno.EINVAL)
    return _tkill(k, p, sint(tgid), sint(tid), sint(signo))


def _tkill(k, p, tgid: int, tid: int, signo: int):
    """tgid 0: any thread group (tkill)."""
    target = k.tasks.get(tid)
    if target is None or not target.running or (tgid and target.tgid != tgid):
        raise SyscallError(errno.ESRCH)
    if not 0 <= signo <= abi.NSIG:
        raise SyscallError(errno.EINVAL)
    if signo:
        k.send_signal(target, signo, signals.siginfo(signo, abi.SI_TKILL, pid=p.tgid, uid=k.uid),
                      thread=True)
    return 0
