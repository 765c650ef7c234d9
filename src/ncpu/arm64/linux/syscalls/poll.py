"""Waiting on many descriptors: ppoll, pselect6, epoll_*, and eventfd2.

All of them ask each open file for its `poll_events()` (see events.py) and
block through `events.wait`, so they work over pipes, sockets, terminals,
eventfds and epoll instances alike, with timeouts in the machine's time.
The signal mask argument of ppoll/pselect6/epoll_pwait is not applied
(signals are delivered at the call's boundaries either way).
"""

from __future__ import annotations

import errno
import struct

from .. import abi
from ..errors import SyscallError
from ..events import (ALWAYS, POLLIN, POLLOUT, POLLPRI, Epoll, EventFd, done, readiness, timespec_ns,
                      wait)
from . import read as rd, sint, syscall, write as wr

EPOLL_EVENT = struct.Struct("<I4xQ")       # arm64's struct epoll_event is not packed: 16 bytes


def _deadline_left(k, p, timeout_ns):
    """Time left of a wait that started at this call's first attempt (for pselect6's write-back)."""
    waiter = p.futex_waiter
    if timeout_ns is None:
        return None
    if waiter is not None and getattr(waiter, "deadline", None) is not None:
        return max(0, waiter.deadline - k.clock.monotonic_ns())
    return timeout_ns


@syscall(73)
def sys_ppoll(k, p, fds_ptr, nfds, tmo, sigmask, *_):
    if nfds > p.fds.MAX_FDS:                  # Linux: past RLIMIT_NOFILE is EINVAL
        raise SyscallError(errno.EINVAL)
    timeout = timespec_ns(rd(p, tmo, 16)) if tmo else None
    raw = bytearray(rd(p, fds_ptr, 8 * nfds))
    count = 0
    for i in range(nfds):
        fd, events, _rev = struct.unpack_from("<ihH", raw, 8 * i)
        revents = readiness(p.fds.files.get(fd)) & (events | ALWAYS | 0x20) if fd >= 0 else 0
        struct.pack_into("<H", raw, 8 * i + 6, revents & 0xFFFF)
        count += bool(revents)
    if count == 0:
        wait(k, p, timeout)                   # returns only once the timeout has passed
    done(k, p)
    wr(p, fds_ptr, bytes(raw))
    return count


@syscall(72)
def sys_pselect6(k, p, nfds, rfds, wfds, efds, tmo, *_):
    nfds = sint(nfds)
    if nfds < 0:
        raise SyscallError(errno.EINVAL)
    nfds = min(nfds, p.fds.MAX_FDS)           # Linux clamps to the descriptor table's size
    nbytes = (nfds + 63) // 64 * 8
    timeout = timespec_ns(rd(p, tmo, 16)) if tmo else None
    sets = [bytearray(rd(p, a, nbytes)) if a else None for a in (rfds, wfds, efds)]
    out = [bytearray(nbytes) if s is not None else None for s in sets]
    wanted = (POLLIN | ALWAYS, POLLOUT | 0x8, POLLPRI)
    count = 0
    for fd in range(nfds):
        asked = [s is not None and s[fd // 8] >> (fd % 8) & 1 for s in sets]
        if not any(asked):
            continue
        file = p.fds.files.get(fd)
        if file is None:
            raise SyscallError(errno.EBADF)
        ready = readiness(file)
        for which in range(3):
            if asked[which] and ready & wanted[which]:
                out[which][fd // 8] |= 1 << (fd % 8)
                count += 1
    if count == 0:
        wait(k, p, timeout)
    left = _deadline_left(k, p, timeout) if count else 0
    done(k, p)
    for a, o in zip((rfds, wfds, efds), out):
        if a:
            wr(p, a, bytes(o))
    if tmo:
        wr(p, tmo, abi.TIMESPEC.pack(left // 10**9, left % 10**9) if left is not None else bytes(16))
    return count


@syscall(19)
def sys_eventfd2(k, p, initval, flags, *_):
    flags &= 0xFFFFFFFF
    if flags & ~(1 | abi.O_CLOEXEC | abi.O_NONBLOCK):
        raise SyscallError(errno.EINVAL)
    file = EventFd(initval & 0xFFFFFFFF, flags & abi.O_NONBLOCK, semaphore=bool(flags & 1))
    return p.fds.install(file, cloexec=bool(flags & abi.O_CLOEXEC))


@syscall(20)
def sys_epoll_create1(k, p, flags, *_):
    flags &= 0xFFFFFFFF
    if flags & ~abi.O_CLOEXEC:
        raise SyscallError(errno.EINVAL)
    return p.fds.install(Epoll(0), cloexec=bool(flags))


def _epoll(p, epfd) -> Epoll:
    file = p.fds.get(sint(epfd))
    if not isinstance(file, Epoll):
        raise SyscallError(errno.EINVAL)
    return file


@syscall(21)
def sys_epoll_ctl(k, p, epfd, op, fd, event, *_):
    op, fd = sint(op), sint(fd)
    ep = p.fds.get(sint(epfd))
    target = p.fds.get(fd)
    events, data = (0, 0)
    if op != 2:                                          # EPOLL_CTL_DEL ignores the event
        events, data = EPOLL_EVENT.unpack(rd(p, event, EPOLL_EVENT.size))
    if not isinstance(ep, Epoll) or sint(epfd) == fd:
        raise SyscallError(errno.EINVAL)
    ep.control(op, fd, target, events, data)
    return 0


def _epoll_wait(k, p, epfd, events_ptr, maxevents, timeout_ns):
    maxevents = sint(maxevents)
    if maxevents <= 0 or maxevents > (1 << 31) // EPOLL_EVENT.size:
        raise SyscallError(errno.EINVAL)
    from . import PROT_WRITE, check
    check(p, events_ptr, maxevents * EPOLL_EVENT.size, PROT_WRITE)
    ep = _epoll(p, epfd)
    ready = ep.collect(maxevents)
    if not ready:
        wait(k, p, timeout_ns)
    done(k, p)
    if ready:
        wr(p, events_ptr, b"".join(EPOLL_EVENT.pack(ev, data) for ev, data in ready))
    return len(ready)


@syscall(22)
def sys_epoll_pwait(k, p, epfd, events, maxevents, timeout, sigmask, *_):
    timeout = sint(timeout)
    return _epoll_wait(k, p, epfd, events, maxevents, None if timeout < 0 else timeout * 10**6)


@syscall(441)
def sys_epoll_pwait2(k, p, epfd, events, maxevents, tmo, sigmask, *_):
    timeout = timespec_ns(rd(p, tmo, 16)) if tmo else None
    return _epoll_wait(k, p, epfd, events, maxevents, timeout)
