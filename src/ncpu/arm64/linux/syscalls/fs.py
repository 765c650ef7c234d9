"""File-system calls over the sandboxed tree (see ..fs for path resolution)."""

from __future__ import annotations

import errno
import os
import stat as stat_mod
import struct

from .. import abi, procfs
from ..errors import SyscallError
from ..files import DirFile, Device, FakeStat, HostFile, OpenFile, VirtualFile, open_host
from ..fs import Node
from ..terminal import open_terminal
from . import cstring, read as rd, sint, slong, syscall, write as wr


def _oserror(error: OSError) -> SyscallError:
    return SyscallError(error.errno or errno.EIO)


def base_dir(p, dirfd: int) -> str:
    """Guest directory that a relative path in an *at call starts from."""
    dirfd = sint(dirfd)
    if dirfd == abi.AT_FDCWD:
        return p.cwd
    file = p.fds.get(dirfd)
    if isinstance(file, DirFile):
        return file.guest_path
    if isinstance(file, HostFile) and stat_mod.S_ISDIR(file.stat().st_mode):
        return file.guest_path
    raise SyscallError(errno.ENOTDIR)


def lookup(k, p, dirfd: int, path: bytes, *, follow: bool = True) -> Node:
    base = p.cwd if path.startswith(b"/") else base_dir(p, dirfd)
    return k.fs.resolve(path, base, follow=follow, fd_links=p.fds.files)


def node_stat(k, p, node: Node, *, follow: bool = True):
    """os.stat_result-like for a node (virtual ones get a FakeStat)."""
    if node.kind == "host":
        if not node.exists:
            raise SyscallError(errno.ENOENT)
        try:
            return os.stat(node.host_path, follow_symlinks=False)
        except OSError as error:
            raise _oserror(error) from None
    if node.kind == "dev":
        return Device(node.name, 0, None).stat()
    if node.kind == "vdir":
        return FakeStat(abi.S_IFDIR | 0o555, nlink=2, ino=2)
    if node.kind == "vfile":
        return VirtualFile(b"", 0).stat()
    if node.kind == "exe" and follow:
        return os.stat(p.exe_host)
    if node.kind == "fdlink" and follow:
        return p.fds.get(node.fd).stat()
    return FakeStat(abi.S_IFLNK | 0o777, ino=3)


def touch(k, *host_paths: str) -> None:
    """Give files the guest just changed the virtual time, so runs stay deterministic."""
    if k.clock.host:
        return
    now = k.clock.realtime_ns()
    for path in host_paths:
        try:
            os.utime(path, ns=(now, now), follow_symlinks=False)
        except OSError:
            pass


def parent(host_path: str) -> str:
    return os.path.dirname(host_path.rstrip("/")) or "/"


def _host_open_flags(flags: int) -> int:
    out = {0: os.O_RDONLY, 1: os.O_WRONLY, 2: os.O_RDWR, 3: os.O_RDWR}[flags & abi.O_ACCMODE]
    for guest, host in ((abi.O_CREAT, os.O_CREAT), (abi.O_EXCL, os.O_EXCL), (abi.O_TRUNC, os.O_TRUNC),
                        (abi.O_APPEND, os.O_APPEND)):
        if flags & guest:
            out |= host
    return out | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NOCTTY


def open_node(k, p, node: Node, flags: int, mode: int) -> OpenFile:
    """Open what a resolved path names (the heart of openat)."""
    status = flags & ~(abi.O_CLOEXEC | abi.O_CREAT | abi.O_EXCL | abi.O_NOCTTY | abi.O_TRUNC)
    if node.kind == "dev":
        if node.name == "tty":                  # the host's terminal, when the machine runs in one
            return open_terminal(k, flags)
        if flags & abi.O_DIRECTORY:
            raise SyscallError(errno.ENOTDIR)
        return Device(node.name, status, k.clock.random_bytes)
    if node.kind == "vfile":
        if flags & abi.O_ACCMODE:
            raise SyscallError(errno.EACCES)
        if flags & abi.O_DIRECTORY:
            raise SyscallError(errno.ENOTDIR)
        return VirtualFile(procfs.render(node.name, k, p), status)
    if node.kind == "vdir":
        if flags & abi.O_ACCMODE:
            raise SyscallError(errno.EISDIR)
        extra = k.fs.list_virtual(node.guest, sorted(p.fds.files))
        return DirFile(node.host_path, node.guest, status, extra, fs=k.fs)
    if node.kind == "exe":
        if flags & abi.O_ACCMODE:
            raise SyscallError(errno.EACCES)
        fd = open_host(p.exe_host, os.O_RDONLY | os.O_CLOEXEC)
        return HostFile(fd, status, p.exe_guest)
    if node.kind == "fdlink":
        return p.fds.get(node.fd)
    if node.kind == "vlink":
        raise SyscallError(errno.ELOOP)
    if not node.exists:
        if not flags & abi.O_CREAT:
            raise SyscallError(errno.ENOENT)
        try:
            fd = open_host(node.host_path, _host_open_flags(flags) | os.O_EXCL, 0o600)
            os.fchmod(fd, mode & ~p.umask & 0o7777)
        except OSError as error:
            raise _oserror(error) from None
        touch(k, node.host_path, parent(node.host_path))
        return HostFile(fd, status, node.guest)
    if flags & abi.O_CREAT and flags & abi.O_EXCL:
        raise SyscallError(errno.EEXIST)
    st = os.lstat(node.host_path)
    if stat_mod.S_ISLNK(st.st_mode):
        if flags & abi.O_PATH:
            return HostFile(os.open(node.host_path, os.O_PATH | os.O_NOFOLLOW | os.O_CLOEXEC), status, node.guest)
        raise SyscallError(errno.ELOOP)
    if stat_mod.S_ISDIR(st.st_mode):
        if flags & abi.O_ACCMODE or flags & abi.O_CREAT:
            raise SyscallError(errno.EISDIR)
        extra = k.fs.list_virtual(node.guest, sorted(p.fds.files)) if node.guest in ("/dev", "/proc") else ()
        return DirFile(node.host_path, node.guest, status, extra, fs=k.fs)
    if flags & abi.O_DIRECTORY:
        raise SyscallError(errno.ENOTDIR)
    if flags & abi.O_PATH:
        return HostFile(os.open(node.host_path, os.O_PATH | os.O_CLOEXEC), status, node.guest)
    if not stat_mod.S_ISREG(st.st_mode):
        raise SyscallError(errno.EACCES)     # host devices, fifos, sockets stay out of reach
    try:
        fd = open_host(node.host_path, _host_open_flags(flags))
    except OSError as error:
        raise _oserror(error) from None
    if flags & abi.O_TRUNC and flags & abi.O_ACCMODE:
        touch(k, node.host_path)
    return HostFile(fd, status, node.guest)


@syscall(56)
def sys_openat(k, p, dirfd, path, flags, mode, *_):
    name = cstring(p, path)
    flags = sint(flags)
    follow = not flags & abi.O_NOFOLLOW and not (flags & abi.O_CREAT and flags & abi.O_EXCL)
    node = lookup(k, p, dirfd, name, follow=follow)
    file = open_node(k, p, node, flags, mode)
    if isinstance(file, HostFile) and file.writable and not k.clock.host:
        file.stamp = k.stamp_fd
    try:
        return p.fds.install(file, cloexec=bool(flags & abi.O_CLOEXEC))
    except SyscallError:
        if file.refs == 0:
            file.release()
        raise


def _stat_of(k, p, dirfd, path, flags) -> tuple[object, int]:
    name = cstring(p, path) if path else b""
    if name == b"" and flags & abi.AT_EMPTY_PATH:
        if sint(dirfd) == abi.AT_FDCWD:
            node = k.fs.resolve(".", p.cwd)
            return node_stat(k, p, node), 0
        file = p.fds.get(sint(dirfd))
        return file.stat(), file.rdev()
    follow = not flags & abi.AT_SYMLINK_NOFOLLOW
    node = lookup(k, p, dirfd, name, follow=follow)
    st = node_stat(k, p, node, follow=follow)
    return st, 0


@syscall(79, "newfstatat")
def sys_newfstatat(k, p, dirfd, path, buf, flags, *_):
    st, rdev = _stat_of(k, p, dirfd, path, flags)
    wr(p, buf, abi.pack_stat(k.fs.renumber(st), rdev=rdev))
    return 0


@syscall(80)
def sys_fstat(k, p, fd, buf, *_):
    file = p.fds.get(sint(fd))
    wr(p, buf, abi.pack_stat(k.fs.renumber(file.stat()), rdev=file.rdev()))
    return 0


@syscall(291)
def sys_statx(k, p, dirfd, path, flags, mask, buf, *_):
    st, rdev = _stat_of(k, p, dirfd, path, flags)
    wr(p, buf, abi.pack_statx(k.fs.renumber(st), rdev=rdev))
    return 0


@syscall(61)
def sys_getdents64(k, p, fd, buf, count, *_):
    file = p.fds.get(sint(fd))
    if not isinstance(file, DirFile):
        raise SyscallError(errno.ENOTDIR)
    data = file.getdents(count)
    wr(p, buf, data)
    return len(data)


@syscall(78)
def sys_readlinkat(k, p, dirfd, path, buf, size, *_):
    if slong(size) <= 0:
        raise SyscallError(errno.EINVAL)
    node = lookup(k, p, dirfd, cstring(p, path), follow=False)
    if node.kind == "exe":
        target = p.exe_guest.encode()
    elif node.kind == "fdlink":
        file = p.fds.get(node.fd)
        target = (file.guest_path or f"pipe:[{getattr(file, 'ino', 0)}]").encode()
    elif node.kind == "vlink":
        target = node.name.encode()
    elif node.kind == "host" and node.exists and os.path.islink(node.host_path):
        target = os.fsencode(os.readlink(node.host_path))
    elif node.kind == "host" and not node.exists:
        raise SyscallError(errno.ENOENT)
    else:
        raise SyscallError(errno.EINVAL)
    target = target[:size]
    wr(p, buf, target)
    return len(target)


def _access(k, p, dirfd, path, mode, flags):
    node = lookup(k, p, dirfd, cstring(p, path), follow=not flags & abi.AT_SYMLINK_NOFOLLOW)
    if node.kind == "host":
        if not node.exists:
            raise SyscallError(errno.ENOENT)
        if mode and not os.access(node.host_path, mode & 7):
            raise SyscallError(errno.EACCES)
        return 0
    if node.kind == "exe" and mode & 2:
        raise SyscallError(errno.EACCES)
    return 0


@syscall(48)
def sys_faccessat(k, p, dirfd, path, mode, *_):
    return _access(k, p, dirfd, path, mode, 0)


@syscall(439)
def sys_faccessat2(k, p, dirfd, path, mode, flags, *_):
    return _access(k, p, dirfd, path, mode, flags)


def _host_target(node: Node, *, must_exist: bool = True) -> str:
    """The host path of a node the guest wants to change (virtual nodes are read-only)."""
    if node.kind != "host":
        raise SyscallError(errno.EPERM)
    if must_exist and not node.exists:
        raise SyscallError(errno.ENOENT)
    return node.host_path


@syscall(34)
def sys_mkdirat(k, p, dirfd, path, mode, *_):
    node = lookup(k, p, dirfd, cstring(p, path), follow=False)
    if node.kind != "host" or node.exists:
        raise SyscallError(errno.EEXIST)
    try:
        os.mkdir(node.host_path, 0o700)
        os.chmod(node.host_path, mode & ~p.umask & 0o7777)
    except OSError as error:
        raise _oserror(error) from None
    touch(k, node.host_path, parent(node.host_path))
    return 0


@syscall(33)
def sys_mknodat(k, p, dirfd, path, mode, dev, *_):
    if mode & abi.S_IFMT not in (0, abi.S_IFREG):
        raise SyscallError(errno.EPERM)
    fd = sys_openat(k, p, dirfd, path, abi.O_CREAT | abi.O_EXCL | abi.O_WRONLY, mode & 0o7777)
    p.fds.close(fd)
    return 0


@syscall(35)
def sys_unlinkat(k, p, dirfd, path, flags, *_):
    node = lookup(k, p, dirfd, cstring(p, path), follow=False)
    host = _host_target(node)
    if host == k.fs.root:
        raise SyscallError(errno.EBUSY)
    try:
        if flags & abi.AT_REMOVEDIR:
            os.rmdir(host)
        else:
            if stat_mod.S_ISDIR(os.lstat(host).st_mode):
                raise SyscallError(errno.EISDIR)
            os.unlink(host)
    except OSError as error:
        raise _oserror(error) from None
    touch(k, parent(host))
    return 0


def _rename(k, p, olddirfd, old, newdirfd, new, flags):
    src = _host_target(lookup(k, p, olddirfd, cstring(p, old), follow=False))
    dst_node = lookup(k, p, newdirfd, cstring(p, new), follow=False)
    dst = _host_target(dst_node, must_exist=False)
    if src == k.fs.root or dst == k.fs.root:
        raise SyscallError(errno.EBUSY)
    if flags & abi.RENAME_NOREPLACE and dst_node.exists:
        raise SyscallError(errno.EEXIST)
    if flags & ~abi.RENAME_NOREPLACE:
        raise SyscallError(errno.EINVAL)
    if (dst + "/").startswith(src + "/") and dst != src:
        raise SyscallError(errno.EINVAL)
    try:
        os.rename(src, dst)
    except OSError as error:
        raise _oserror(error) from None
    touch(k, parent(src), parent(dst))
    return 0


@syscall(38)
def sys_renameat(k, p, olddirfd, old, newdirfd, new, *_):
    return _rename(k, p, olddirfd, old, newdirfd, new, 0)


@syscall(276)
def sys_renameat2(k, p, olddirfd, old, newdirfd, new, flags, *_):
    return _rename(k, p, olddirfd, old, newdirfd, new, flags)


@syscall(36)
def sys_symlinkat(k, p, target, newdirfd, linkpath, *_):
    text = cstring(p, target)
    node = lookup(k, p, newdirfd, cstring(p, linkpath), follow=False)
    if node.kind != "host" or node.exists:
        raise SyscallError(errno.EEXIST)
    try:
        # stored verbatim: we never let the host follow it (see ..fs)
        os.symlink(os.fsdecode(text), node.host_path)
    except OSError as error:
        raise _oserror(error) from None
    touch(k, node.host_path, parent(node.host_path))
    return 0


@syscall(37)
def sys_linkat(k, p, olddirfd, old, newdirfd, new, flags, *_):
    src = _host_target(lookup(k, p, olddirfd, cstring(p, old), follow=bool(flags & abi.AT_SYMLINK_FOLLOW)))
    node = lookup(k, p, newdirfd, cstring(p, new), follow=False)
    if node.kind != "host" or node.exists:
        raise SyscallError(errno.EEXIST)
    try:
        os.link(src, node.host_path, follow_symlinks=False)
    except OSError as error:
        raise _oserror(error) from None
    touch(k, parent(node.host_path))
    return 0


@syscall(53)
def sys_fchmodat(k, p, dirfd, path, mode, *_):
    node = lookup(k, p, dirfd, cstring(p, path))
    if node.kind == "fdlink":
        # glibc's fchmodat(AT_SYMLINK_NOFOLLOW) opens the file O_PATH and chmods /proc/self/fd/N:
        # the host's own magic link to the same file does it (EOPNOTSUPP for a link, as Linux)
        hfd, host = _fd_host_path(p.fds.get(node.fd))
        host = host or f"/proc/self/fd/{hfd}"
    else:
        host = _host_target(node)
    try:
        os.chmod(host, mode & 0o7777)
    except OSError as error:
        raise _oserror(error) from None
    return 0


def _fd_host_path(file) -> tuple[int | None, str | None]:
    if isinstance(file, DirFile):
        return None, file.host_path
    if isinstance(file, HostFile):
        return file.fd, None
    raise SyscallError(errno.EPERM)


@syscall(52)
def sys_fchmod(k, p, fd, mode, *_):
    hfd, path = _fd_host_path(p.fds.get(sint(fd)))
    try:
        os.fchmod(hfd, mode & 0o7777) if hfd is not None else os.chmod(path, mode & 0o7777)
    except OSError as error:
        raise _oserror(error) from None
    return 0


def _uid(value: int) -> int:
    return -1 if value & 0xFFFFFFFF == 0xFFFFFFFF else value & 0xFFFFFFFF


@syscall(54)
def sys_fchownat(k, p, dirfd, path, uid, gid, flags, *_):
    name = cstring(p, path)
    if name == b"" and flags & abi.AT_EMPTY_PATH:
        return sys_fchown(k, p, dirfd, uid, gid)
    host = _host_target(lookup(k, p, dirfd, name, follow=not flags & abi.AT_SYMLINK_NOFOLLOW))
    try:
        os.chown(host, _uid(uid), _uid(gid), follow_symlinks=False)
    except OSError as error:
        raise _oserror(error) from None
    return 0


@syscall(55)
def sys_fchown(k, p, fd, uid, gid, *_):
    hfd, path = _fd_host_path(p.fds.get(sint(fd)))
    try:
        os.fchown(hfd, _uid(uid), _uid(gid)) if hfd is not None else os.chown(path, _uid(uid), _uid(gid))
    except OSError as error:
        raise _oserror(error) from None
    return 0


@syscall(88)
def sys_utimensat(k, p, dirfd, path, times, flags, *_):
    if path:
        node = lookup(k, p, dirfd, cstring(p, path), follow=not flags & abi.AT_SYMLINK_NOFOLLOW)
        target, follow = _host_target(node), not flags & abi.AT_SYMLINK_NOFOLLOW
        st = os.stat(target, follow_symlinks=False)
    else:
        hfd, target = _fd_host_path(p.fds.get(sint(dirfd)))
        target = hfd if hfd is not None else target
        follow = True
        st = os.stat(target)
    now = k.clock.realtime_ns()
    new = [now, now]
    if times:
        raw = rd(p, times, 32)
        old = (st.st_atime_ns, st.st_mtime_ns)
        for i in range(2):
            sec, nsec = abi.TIMESPEC.unpack_from(raw, 16 * i)
            if nsec == abi.UTIME_OMIT:
                new[i] = old[i]
            elif nsec != abi.UTIME_NOW:
                if not 0 <= nsec < 10**9:
                    raise SyscallError(errno.EINVAL)
                new[i] = sec * 10**9 + nsec
    try:
        if isinstance(target, int):
            os.utime(target, ns=tuple(new))
        else:
            os.utime(target, ns=tuple(new), follow_symlinks=follow)
    except OSError as error:
        raise _oserror(error) from None
    return 0


@syscall(49)
def sys_chdir(k, p, path, *_):
    node = lookup(k, p, abi.AT_FDCWD, cstring(p, path))
    st = node_stat(k, p, node)
    if not stat_mod.S_ISDIR(st.st_mode):
        raise SyscallError(errno.ENOTDIR)
    p.cwd = node.guest
    return 0


@syscall(50)
def sys_fchdir(k, p, fd, *_):
    p.cwd = base_dir(p, fd)
    return 0


@syscall(17)
def sys_getcwd(k, p, buf, size, *_):
    data = p.cwd.encode() + b"\0"
    if size < len(data):
        raise SyscallError(errno.ERANGE)
    wr(p, buf, data)
    return len(data)


@syscall(46)
def sys_ftruncate(k, p, fd, length, *_):
    if slong(length) < 0:
        raise SyscallError(errno.EINVAL)
    p.fds.get(sint(fd)).truncate(length)
    return 0


@syscall(45)
def sys_truncate(k, p, path, length, *_):
    host = _host_target(lookup(k, p, abi.AT_FDCWD, cstring(p, path)))
    try:
        os.truncate(host, slong(length))
    except OSError as error:
        raise _oserror(error) from None
    return 0


@syscall(166)
def sys_umask(k, p, mask, *_):
    old, p.umask = p.umask, mask & 0o777
    return old


# struct statfs: type, bsize, blocks, bfree, bavail, files, ffree, fsid[2], namelen, frsize, flags, spare[4]
STATFS = struct.Struct("<qqQQQQQiiqqq32x")


def _statfs() -> bytes:
    # fixed figures: the guest must not learn (or depend on) the host's disk
    return STATFS.pack(0xEF53, 4096, 1 << 20, 1 << 19, 1 << 19, 1 << 16, 1 << 15, 0, 0, 255, 4096, 0)


@syscall(43)
def sys_statfs(k, p, path, buf, *_):
    lookup(k, p, abi.AT_FDCWD, cstring(p, path))
    wr(p, buf, _statfs())
    return 0


@syscall(44)
def sys_fstatfs(k, p, fd, buf, *_):
    p.fds.get(sint(fd))
    wr(p, buf, _statfs())
    return 0
