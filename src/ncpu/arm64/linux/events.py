"""Readiness of descriptors, timed waits, and the two event files (eventfd, epoll).

Every open file answers `poll_events()` with the poll(2) bits that hold now
(POLLIN, POLLOUT, POLLHUP, POLLERR...).  poll, select and epoll are written
once over that method, so they work over every kind of descriptor.

A wait with a timeout registers a deadline with the futex table (which the
scheduler already consults when every thread is blocked: virtual time jumps
to the earliest deadline), and each retry of the call compares the clock
with it.  So a timed-out poll costs no guest instructions and gives the same
answer on every run.
"""

from __future__ import annotations

import errno

from .errors import SyscallError, WouldBlock
from .files import FakeStat, OpenFile
from .futex import Waiter
from . import abi

POLLIN, POLLPRI, POLLOUT, POLLERR, POLLHUP, POLLNVAL = 0x1, 0x2, 0x4, 0x8, 0x10, 0x20
POLLRDNORM, POLLWRNORM, POLLRDHUP = 0x40, 0x100, 0x2000
EPOLLEXCLUSIVE, EPOLLWAKEUP, EPOLLONESHOT, EPOLLET = 1 << 28, 1 << 29, 1 << 30, 1 << 31
ALWAYS = POLLERR | POLLHUP      # reported whether asked for or not


class _Timer:
    """The `mem` of a futex Waiter that is a timeout, not a futex: no wake-up matches it."""


TIMER = _Timer()


def readiness(file: OpenFile | None) -> int:
    if file is None:
        return POLLNVAL
    events = getattr(file, "poll_events", None)
    return events() if events is not None else POLLIN | POLLOUT


def wait(k, p, timeout_ns: int | None) -> None:
    """Nothing is ready: block until retried (None: no timeout), or return once `timeout_ns` passed.

    On the first call a deadline is registered; on each retry (the same call,
    p.blocked_call set) the clock decides.  The handler cancels the deadline
    with `done` when it returns for another reason."""
    if timeout_ns is not None and timeout_ns <= 0:
        return
    if timeout_ns is None:
        raise WouldBlock()
    waiter = p.futex_waiter
    if p.blocked_call is None or waiter is None or waiter.mem is not TIMER:
        done(k, p)
        waiter = Waiter(p, TIMER, 0, deadline=k.clock.monotonic_ns() + timeout_ns)
        k.futex.waiters.append(waiter)
        p.futex_waiter = waiter
        raise WouldBlock()
    if k.clock.monotonic_ns() >= waiter.deadline:
        done(k, p)
        return
    raise WouldBlock()


def done(k, p) -> None:
    """Forget a timeout this thread registered (the call returns)."""
    if p.futex_waiter is not None and p.futex_waiter.mem is TIMER:
        k.futex.cancel(p)


def timespec_ns(raw: bytes) -> int:
    sec, nsec = abi.TIMESPEC.unpack(raw)
    if sec < 0 or not 0 <= nsec < 10**9:
        raise SyscallError(errno.EINVAL)
    return sec * 10**9 + nsec


class EventFd(OpenFile):
    """eventfd2: a 64-bit counter; read takes it (or 1 with EFD_SEMAPHORE), write adds."""

    MAX = (1 << 64) - 2
    guest_path = "anon_inode:[eventfd]"

    def __init__(self, value: int, flags: int, semaphore: bool):
        super().__init__(flags | 2)
        self.value = value
        self.semaphore = semaphore

    def read(self, n: int) -> bytes:
        if n < 8:
            raise SyscallError(errno.EINVAL)
        if self.value == 0:
            if self.flags & abi.O_NONBLOCK:
                raise SyscallError(errno.EAGAIN)
            raise WouldBlock()
        take = 1 if self.semaphore else self.value
        self.value -= take
        return take.to_bytes(8, "little")

    def write(self, data: bytes) -> int:
        if len(data) < 8:
            raise SyscallError(errno.EINVAL)
        add = int.from_bytes(data[:8], "little")
        if add == (1 << 64) - 1:
            raise SyscallError(errno.EINVAL)
        if self.value + add > self.MAX:
            if self.flags & abi.O_NONBLOCK:
                raise SyscallError(errno.EAGAIN)
            raise WouldBlock()
        self.value += add
        return 8

    def poll_events(self) -> int:
        return (POLLIN if self.value else 0) | (POLLOUT if self.value < self.MAX else 0)

    def stat(self):
        return FakeStat(0o600, ino=11)


class Interest:
    __slots__ = ("fd", "file", "events", "data", "seen")

    def __init__(self, fd: int, file: OpenFile, events: int, data: int):
        self.fd, self.file, self.events, self.data = fd, file, events, data
        self.seen = None        # EPOLLET: the file's change count when last reported


class Epoll(OpenFile):
    """An epoll instance: interests in the order they were added (so reports are deterministic).

    As in Linux an interest belongs to (descriptor, open file) and lasts until
    the open file is released (its last descriptor closed), even if the
    descriptor it was added with was closed first; the interest holds no
    reference, so closing a socket still ends its connection.
    Edge-triggered interests report again only after the file changed
    (its `changes` counter; files without one behave level-triggered)."""

    readable = writable = False
    guest_path = "anon_inode:[eventpoll]"

    def __init__(self, flags: int):
        super().__init__(flags | 2)
        self.interests: dict[tuple[int, int], Interest] = {}

    def control(self, op: int, fd: int, file: OpenFile, events: int, data: int) -> None:
        self._prune()
        key = (fd, id(file))
        if file is self or isinstance(file, Epoll) and file.watches(self):
            raise SyscallError(errno.ELOOP if file is not self else errno.EINVAL)
        if getattr(file, "regular", False):
            raise SyscallError(errno.EPERM)
        if op == 1:                                        # EPOLL_CTL_ADD
            if key in self.interests:
                raise SyscallError(errno.EEXIST)
            self.interests[key] = Interest(fd, file, events, data)
        elif op == 2:                                      # EPOLL_CTL_DEL
            if self.interests.pop(key, None) is None:
                raise SyscallError(errno.ENOENT)
        elif op == 3:                                      # EPOLL_CTL_MOD
            interest = self.interests.get(key)
            if interest is None:
                raise SyscallError(errno.ENOENT)
            interest.events, interest.data, interest.seen = events, data, None
        else:
            raise SyscallError(errno.EINVAL)

    def watches(self, other: "Epoll") -> bool:
        return any(i.file is other or isinstance(i.file, Epoll) and i.file.watches(other)
                   for i in self.interests.values())

    def _prune(self) -> None:
        """Interests whose open file was released are gone."""
        for key, interest in list(self.interests.items()):
            if interest.file.refs <= 0:
                del self.interests[key]

    def collect(self, limit: int) -> list[tuple[int, int]]:
        """(events, data) of up to `limit` ready interests, consuming ONESHOT and ET reports."""
        self._prune()
        out = []
        for interest in self.interests.values():
            if len(out) >= limit:
                break
            wanted = interest.events & ~(EPOLLET | EPOLLONESHOT | EPOLLEXCLUSIVE | EPOLLWAKEUP)
            if wanted == 0 and interest.events & EPOLLONESHOT:
                continue                                     # disarmed until EPOLL_CTL_MOD
            ready = readiness(interest.file) & (wanted | ALWAYS)
            if not ready:
                continue
            if interest.events & EPOLLET:
                changes = getattr(interest.file, "changes", None)
                if changes is not None and interest.seen == changes:
                    continue
                interest.seen = changes
            if interest.events & EPOLLONESHOT:
                interest.events &= EPOLLET | EPOLLONESHOT   # disarm
            out.append((ready, interest.data))
        return out

    def poll_events(self) -> int:
        self._prune()
        for interest in self.interests.values():
            wanted = interest.events & 0xFFFF
            if readiness(interest.file) & (wanted | ALWAYS):
                return POLLIN
        return 0

    def read(self, n: int) -> bytes:
        raise SyscallError(errno.EINVAL)

    def stat(self):
        return FakeStat(0o600, ino=12)

    def release(self) -> None:
        self.interests.clear()
