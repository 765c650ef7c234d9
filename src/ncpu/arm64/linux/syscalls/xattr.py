"""Extended attributes: the guest's files have none, and cannot be given any.

ls, cp -a and tar ask for them (security.selinux, system.posix_acl_access);
what they need is the answer "no such attribute" for an existing file.  Host
attributes are not passed through: they are the host's business, and would
make the same tree look different on different hosts.
"""

from __future__ import annotations

import errno

from ..errors import SyscallError
from . import cstring, sint, syscall
from .fs import lookup, node_stat


def _path_exists(k, p, path: int, follow: bool) -> None:
    node_stat(k, p, lookup(k, p, -100, cstring(p, path), follow=follow), follow=follow)


def _fd_exists(p, fd: int) -> None:
    p.fds.get(sint(fd))          # EBADF when not open


@syscall(5)
def sys_setxattr(k, p, path, *_):
    _path_exists(k, p, path, True)
    raise SyscallError(errno.EOPNOTSUPP)


@syscall(6)
def sys_lsetxattr(k, p, path, *_):
    _path_exists(k, p, path, False)
    raise SyscallError(errno.EOPNOTSUPP)


@syscall(7)
def sys_fsetxattr(k, p, fd, *_):
    _fd_exists(p, fd)
    raise SyscallError(errno.EOPNOTSUPP)


@syscall(8)
def sys_getxattr(k, p, path, *_):
    _path_exists(k, p, path, True)
    raise SyscallError(errno.ENODATA)


@syscall(9)
def sys_lgetxattr(k, p, path, *_):
    _path_exists(k, p, path, False)
    raise SyscallError(errno.ENODATA)


@syscall(10)
def sys_fgetxattr(k, p, fd, *_):
    _fd_exists(p, fd)
    raise SyscallError(errno.ENODATA)


@syscall(11)
def sys_listxattr(k, p, path, *_):
    _path_exists(k, p, path, True)
    return 0


@syscall(12)
def sys_llistxattr(k, p, path, *_):
    _path_exists(k, p, path, False)
    return 0


@syscall(13)
def sys_flistxattr(k, p, fd, *_):
    _fd_exists(p, fd)
    return 0


@syscall(14)
def sys_removexattr(k, p, path, *_):
    _path_exists(k, p, path, True)
    raise SyscallError(errno.ENODATA)


@syscall(15)
def sys_lremovexattr(k, p, path, *_):
    _path_exists(k, p, path, False)
    raise SyscallError(errno.ENODATA)


@syscall(16)
def sys_fremovexattr(k, p, fd, *_):
    _fd_exists(p, fd)
    raise SyscallError(errno.ENODATA)
