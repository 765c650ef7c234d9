"""Time calls, answered from the machine's (virtual) clock."""

from __future__ import annotations

import errno

from .. import abi
from ..errors import SyscallError
from . import read as rd, sint, syscall, write as wr


def _timespec(ns: int) -> bytes:
    return abi.TIMESPEC.pack(ns // 10**9, ns % 10**9)


def clock_ns(k, p, clock: int) -> int:
    if clock in (abi.CLOCK_REALTIME, abi.CLOCK_REALTIME_COARSE):
        return k.clock.realtime_ns()
    if clock in (abi.CLOCK_MONOTONIC, abi.CLOCK_MONOTONIC_RAW, abi.CLOCK_MONOTONIC_COARSE, abi.CLOCK_BOOTTIME):
        return k.clock.monotonic_ns()
    if clock in (abi.CLOCK_PROCESS_CPUTIME_ID, abi.CLOCK_THREAD_CPUTIME_ID):
        return k.clock.cpu_ns(p.instructions)
    if clock < 0 and clock & 3 != 3:
        # a CPU clock of a process or thread (clock_getcpuclockid): pid in the high bits, 0 = self
        target = k.tasks.get(~clock >> 3) if ~clock >> 3 else p
        if target is not None:
            return k.clock.cpu_ns(target.instructions)
    raise SyscallError(errno.EINVAL)


@syscall(113)
def sys_clock_gettime(k, p, clock, tp, *_):
    wr(p, tp, _timespec(clock_ns(k, p, sint(clock))))
    return 0


@syscall(114)
def sys_clock_getres(k, p, clock, tp, *_):
    clock_ns(k, p, sint(clock))
    if tp:
        wr(p, tp, _timespec(1))
    return 0


@syscall(169)
def sys_gettimeofday(k, p, tv, tz, *_):
    ns = k.clock.realtime_ns()
    if tv:
        wr(p, tv, abi.TIMESPEC.pack(ns // 10**9, (ns % 10**9) // 1000))
    if tz:
        wr(p, tz, bytes(8))
    return 0


def _sleep(k, p, req: int, rem: int, absolute_clock: int | None = None) -> int:
    sec, nsec = abi.TIMESPEC.unpack(rd(p, req, 16))
    if sec < 0 or not 0 <= nsec < 10**9:
        raise SyscallError(errno.EINVAL)
    ns = sec * 10**9 + nsec
    if absolute_clock is not None:
        ns -= clock_ns(k, p, absolute_clock)
    k.clock.sleep(ns)
    k.yield_now(p)
    if rem:
        wr(p, rem, bytes(16))
    return 0


@syscall(101)
def sys_nanosleep(k, p, req, rem, *_):
    return _sleep(k, p, req, rem)


@syscall(115)
def sys_clock_nanosleep(k, p, clock, flags, req, rem, *_):
    clock = sint(clock)
    clock_ns(k, p, clock)
    return _sleep(k, p, req, 0 if flags & abi.TIMER_ABSTIME else rem,
                  clock if flags & abi.TIMER_ABSTIME else None)


@syscall(153)
def sys_times(k, p, buf, *_):
    ticks = k.clock.cpu_ns(p.instructions) // 10**7              # 100 Hz clock ticks
    child = k.clock.cpu_ns(p.children_instructions) // 10**7
    if buf:
        wr(p, buf, abi.TMS.pack(ticks, 0, child, 0))
    return k.clock.monotonic_ns() // 10**7


@syscall(102)
def sys_getitimer(k, p, which, value, *_):
    wr(p, value, bytes(32))
    return 0


@syscall(103)
def sys_setitimer(k, p, which, new, old, *_):
    if old:
        wr(p, old, bytes(32))
    return 0
