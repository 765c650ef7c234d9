"""futex(2): the operations glibc's mutexes, condition variables, semaphores and pthread_join use.

WAIT/WAIT_BITSET block the calling thread (see ..futex for the queues);
a blocked call is retried by the scheduler, and the retry only checks
whether it was woken or its deadline passed.  Timeouts run on the virtual
clock: when every thread is blocked the scheduler advances the clock to the
earliest deadline.
"""

from __future__ import annotations

import errno
import struct

from ..errors import SyscallError, WouldBlock
from ..futex import MATCH_ANY
from . import read as rd, syscall

FUTEX_WAIT, FUTEX_WAKE, FUTEX_REQUEUE, FUTEX_CMP_REQUEUE = 0, 1, 3, 4
FUTEX_WAIT_BITSET, FUTEX_WAKE_BITSET = 9, 10
FUTEX_PRIVATE_FLAG, FUTEX_CLOCK_REALTIME = 128, 256
INT_MAX = 0x7FFFFFFF


@syscall(98)
def sys_futex(k, p, addr, op, val, timeout, addr2, val3):
    cmd = op & ~(FUTEX_PRIVATE_FLAG | FUTEX_CLOCK_REALTIME)
    if addr & 3:
        raise SyscallError(errno.EINVAL)
    table = k.futex
    if cmd in (FUTEX_WAIT, FUTEX_WAIT_BITSET):
        if p.futex_waiter is not None:              # a retry: no guest memory is read again
            return _still_waiting(k, p)
        bitset = MATCH_ANY if cmd == FUTEX_WAIT else val3 & 0xFFFFFFFF
        if bitset == 0:
            raise SyscallError(errno.EINVAL)
        if _word(p, addr) != val & 0xFFFFFFFF:
            raise SyscallError(errno.EAGAIN)
        deadline = _deadline(k, p, timeout, absolute=cmd == FUTEX_WAIT_BITSET,
                             realtime=bool(op & FUTEX_CLOCK_REALTIME))
        if deadline is not None and k.clock.monotonic_ns() >= deadline:
            raise SyscallError(errno.ETIMEDOUT)
        table.wait(p, addr, bitset, deadline)
        raise WouldBlock()
    if cmd in (FUTEX_WAKE, FUTEX_WAKE_BITSET):
        bitset = MATCH_ANY if cmd == FUTEX_WAKE else val3 & 0xFFFFFFFF
        if bitset == 0:
            raise SyscallError(errno.EINVAL)
        return table.wake(p.mem, addr, _count(val), bitset)
    if cmd in (FUTEX_REQUEUE, FUTEX_CMP_REQUEUE):
        if cmd == FUTEX_CMP_REQUEUE and _word(p, addr) != val3 & 0xFFFFFFFF:
            raise SyscallError(errno.EAGAIN)
        return table.requeue(p.mem, addr, _count(val), addr2, _count(timeout))   # timeout slot = val2
    raise SyscallError(errno.ENOSYS)


def _still_waiting(k, p):
    waiter = p.futex_waiter
    if waiter.woken:
        p.futex_waiter = None
        return 0
    if waiter.deadline is not None and k.clock.monotonic_ns() >= waiter.deadline:
        k.futex.cancel(p)
        raise SyscallError(errno.ETIMEDOUT)
    raise WouldBlock()


def _word(p, addr: int) -> int:
    return struct.unpack("<I", rd(p, addr, 4))[0]


def _count(value: int) -> int:
    value &= 0xFFFFFFFF
    return INT_MAX if value > INT_MAX else value


def _deadline(k, p, timeout: int, *, absolute: bool, realtime: bool) -> int | None:
    """The wait's end on the monotonic clock, or None without a timeout."""
    if not timeout:
        return None
    sec, nsec = struct.unpack("<qq", rd(p, timeout, 16))
    if sec < 0 or not 0 <= nsec < 10**9:
        raise SyscallError(errno.EINVAL)
    ns = sec * 10**9 + nsec
    clock = k.clock
    if not absolute:
        return clock.monotonic_ns() + ns
    if realtime:
        return ns - clock.realtime_ns() + clock.monotonic_ns()
    return ns
