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


def _answer(errno_or_zero: int) -> int:
    if errno_or_zero:
        raise SyscallError(errno_or_zero)
    return 0


def _register(nr: int, name: str, target: str, result: int) -> None:
    """One xattr call: check that its target exists (ENOENT/EBADF as Linux), then answer."""
    if target == "fd":
        def handler(k, p, fd, *_):
            _fd_exists(p, fd)
            return _answer(result)
    else:
        follow = target == "path"               # "lpath": the link itself
        def handler(k, p, path, *_):
            _path_exists(k, p, path, follow)
            return _answer(result)
    syscall(nr, name)(handler)


# Every family comes in three: by path, by path without following a last link, by descriptor.
# set: not supported; get and remove: no such attribute; list: an empty list.
for first, verb, result in ((5, "set", errno.EOPNOTSUPP), (8, "get", errno.ENODATA),
                            (11, "list", 0), (14, "remove", errno.ENODATA)):
    for offset, (prefix, target) in enumerate((("", "path"), ("l", "lpath"), ("f", "fd"))):
        _register(first + offset, f"{prefix}{verb}xattr", target, result)
