"""Descriptor calls glibc and its programs reach for: memfd_create, close_range, membarrier
(eventfd2 is in poll.py, beside the readiness it reports)."""

from __future__ import annotations

import errno
import os

from .. import abi
from ..errors import SyscallError
from ..files import HostFile
from . import cstring, sint, syscall

MFD_CLOEXEC, MFD_ALLOW_SEALING = 1, 2
CLOSE_RANGE_UNSHARE, CLOSE_RANGE_CLOEXEC = 2, 4
MEMBARRIER_CMD_QUERY = 0
# GLOBAL, GLOBAL_EXPEDITED, REGISTER_GLOBAL_EXPEDITED, PRIVATE_EXPEDITED, REGISTER_PRIVATE_EXPEDITED
MEMBARRIER_SUPPORTED = 1 | 2 | 4 | 8 | 16


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
