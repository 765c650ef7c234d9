"""Descriptor calls glibc and its programs reach for: eventfd2, memfd_create, close_range, membarrier."""

from __future__ import annotations

import errno
import os
import struct

from .. import abi
from ..errors import SyscallError, WouldBlock
from ..files import FakeStat, HostFile, OpenFile
from . import cstring, sint, syscall

EFD_SEMAPHORE = 1
EFD_MAX = (1 << 64) - 2
MFD_CLOEXEC, MFD_ALLOW_SEALING = 1, 2
CLOSE_RANGE_UNSHARE, CLOSE_RANGE_CLOEXEC = 2, 4
MEMBARRIER_CMD_QUERY = 0
# GLOBAL, GLOBAL_EXPEDITED, REGISTER_GLOBAL_EXPEDITED, PRIVATE_EXPEDITED, REGISTER_PRIVATE_EXPEDITED
MEMBARRIER_SUPPORTED = 1 | 2 | 4 | 8 | 16


class EventFd(OpenFile):
    """A 64-bit counter: a write adds, a read takes it all (or 1, EFD_SEMAPHORE) or waits for one."""

    def __init__(self, value: int, flags: int, semaphore: bool):
        super().__init__(flags | abi.O_RDWR)
        self.value, self.semaphore = value, semaphore

    def read(self, n: int) -> bytes:
        if n < 8:
            raise SyscallError(errno.EINVAL)
        if self.value == 0:
            if self.flags & abi.O_NONBLOCK:
                raise SyscallError(errno.EAGAIN)
            raise WouldBlock()
        taken = 1 if self.semaphore else self.value
        self.value -= taken
        return struct.pack("<Q", taken)

    def write(self, data: bytes) -> int:
        if len(data) < 8:
            raise SyscallError(errno.EINVAL)
        add = struct.unpack_from("<Q", data)[0]
        if add == (1 << 64) - 1:
            raise SyscallError(errno.EINVAL)
        if self.value + add > EFD_MAX:
            if self.flags & abi.O_NONBLOCK:
                raise SyscallError(errno.EAGAIN)
            raise WouldBlock()
        self.value += add
        return 8

    def available(self) -> int:
        return 8 if self.value else 0

    def stat(self):
        return FakeStat(0o600, ino=7, dev=0x0E)     # an anonymous inode: no file type bits


@syscall(19)
def sys_eventfd2(k, p, initval, flags, *_):
    flags = sint(flags)
    if flags & ~(abi.O_CLOEXEC | abi.O_NONBLOCK | EFD_SEMAPHORE):
        raise SyscallError(errno.EINVAL)
    file = EventFd(initval & 0xFFFFFFFF, flags & abi.O_NONBLOCK, bool(flags & EFD_SEMAPHORE))
    return p.fds.install(file, cloexec=bool(flags & abi.O_CLOEXEC))


@syscall(279)
def sys_memfd_create(k, p, name, flags, *_):
    """An anonymous file: a host memfd, so read, write, ftruncate, fstat and mmap work as on files."""
    flags = sint(flags)
    text = cstring(p, name, 249)
    if flags & ~(MFD_CLOEXEC | MFD_ALLOW_SEALING):
        raise SyscallError(errno.EINVAL)
    fd = os.memfd_create(os.fsdecode(text) or "memfd", os.MFD_CLOEXEC)
    file = HostFile(fd, abi.O_RDWR, f"/memfd:{os.fsdecode(text)} (deleted)")
    return p.fds.install(file, cloexec=bool(flags & MFD_CLOEXEC))


@syscall(436)
def sys_close_range(k, p, first, last, flags, *_):
    first, last, flags = first & 0xFFFFFFFF, last & 0xFFFFFFFF, sint(flags)
    if flags & ~(CLOSE_RANGE_UNSHARE | CLOSE_RANGE_CLOEXEC) or first > last:
        raise SyscallError(errno.EINVAL)
    for fd in sorted(p.fds.files):
        if first <= fd <= last:
            if flags & CLOSE_RANGE_CLOEXEC:
                p.fds.cloexec.add(fd)
            else:
                p.fds.close(fd)
    return 0


@syscall(283)
def sys_membarrier(k, p, cmd, flags, *_):
    """One CPU runs the guest's threads one after another: every barrier already holds."""
    cmd = sint(cmd)
    if cmd == MEMBARRIER_CMD_QUERY:
        return MEMBARRIER_SUPPORTED
    if flags or cmd < 0 or cmd & (cmd - 1) or not cmd & MEMBARRIER_SUPPORTED:
        raise SyscallError(errno.EINVAL)
    return 0
