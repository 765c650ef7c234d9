"""Descriptor I/O: read/write and friends, dup, fcntl, ioctl, pipes."""

from __future__ import annotations

import errno
import fcntl as host_fcntl
import os
import stat as stat_mod
import struct

from .. import abi
from ..errors import SyscallError
from ..files import DirFile, HostFile, Pipe, PipeEnd
from . import PROT_READ, PROT_WRITE, accessible, check, read as rd, write as wr, sint, slong, syscall

MAX_IO = 1 << 20      # one system call moves at most this much (Linux caps at ~2 GiB)
IOV_MAX = 1024        # Linux's UIO_MAXIOV


def _write_file(k, p, file, data: bytes) -> int:
    try:
        return file.write(data)
    except SyscallError as error:
        if error.errno == errno.EPIPE:
            k.send_signal(p, abi.SIGPIPE)
        raise


def _reader(p, fd: int):
    """The open file for a read: EBADF if not open or not open for reading
    (Linux checks the descriptor before the buffer)."""
    file = p.fds.get(sint(fd))
    if not file.readable and not isinstance(file, DirFile):
        raise SyscallError(errno.EBADF)
    return file


def _writer(p, fd: int):
    file = p.fds.get(sint(fd))
    if not file.writable and not isinstance(file, DirFile):
        raise SyscallError(errno.EBADF)
    return file


def _offset(offset: int) -> int:
    """pread/pwrite/preadv/pwritev offset: negative is EINVAL (checked first, as Linux does)."""
    offset = slong(offset)
    if offset < 0:
        raise SyscallError(errno.EINVAL)
    return offset


@syscall(63)
def sys_read(k, p, fd, buf, count, *_):
    file = _reader(p, fd)
    check(p, buf, count, PROT_WRITE)
    data = file.read(min(count, MAX_IO))
    wr(p, buf, data)
    return len(data)


@syscall(64)
def sys_write(k, p, fd, buf, count, *_):
    file = _writer(p, fd)
    check(p, buf, count, PROT_READ)
    return _write_file(k, p, file, rd(p, buf, min(count, MAX_IO)))


def _iovecs(p, iov, cnt, prot: int) -> list[tuple[int, int]]:
    """The (base, length) pairs of an iovec array, cut to MAX_IO bytes in all.

    As qemu-aarch64 (and, for the first buffer, Linux): a negative length is
    EINVAL, a bad first buffer is EFAULT, a bad later buffer ends the list
    there (the call moves what came before it: a short read or write). The
    cut bounds the host memory one call can make us use, however many
    iovecs point at the same large mapping."""
    if cnt > IOV_MAX:
        raise SyscallError(errno.EINVAL)
    raw = rd(p, iov, 16 * cnt)
    vecs = [abi.IOVEC.unpack_from(raw, 16 * i) for i in range(cnt)]
    if any(n >> 63 for _, n in vecs):
        raise SyscallError(errno.EINVAL)
    out, room = [], MAX_IO
    for i, (base, n) in enumerate(vecs):
        if n == 0:
            continue
        if not accessible(p, base, n, prot):
            if i == 0:
                raise SyscallError(errno.EFAULT)
            break
        out.append((base, min(n, room)))
        room -= out[-1][1]
        if room == 0:
            break
    return out


def _scatter(p, vecs, data: bytes) -> None:
    pos = 0
    for base, n in vecs:
        if pos >= len(data):
            break
        wr(p, base, data[pos:pos + n])
        pos += n


def _gather(p, vecs) -> bytes:
    return b"".join(rd(p, base, n) for base, n in vecs)


@syscall(65)
def sys_readv(k, p, fd, iov, cnt, *_):
    file = _reader(p, fd)
    vecs = _iovecs(p, iov, cnt, PROT_WRITE)
    total = sum(n for _, n in vecs)
    if total == 0:
        return 0
    data = file.read(total)
    _scatter(p, vecs, data)
    return len(data)


@syscall(66)
def sys_writev(k, p, fd, iov, cnt, *_):
    file = _writer(p, fd)
    data = _gather(p, _iovecs(p, iov, cnt, PROT_READ))
    if not data:
        return 0
    return _write_file(k, p, file, data)


@syscall(67)
def sys_pread64(k, p, fd, buf, count, offset, *_):
    offset = _offset(offset)
    file = _reader(p, fd)
    check(p, buf, count, PROT_WRITE)
    data = file.pread(min(count, MAX_IO), offset)
    wr(p, buf, data)
    return len(data)


@syscall(68)
def sys_pwrite64(k, p, fd, buf, count, offset, *_):
    offset = _offset(offset)
    file = _writer(p, fd)
    check(p, buf, count, PROT_READ)
    return file.pwrite(rd(p, buf, min(count, MAX_IO)), offset)


@syscall(69)
def sys_preadv(k, p, fd, iov, cnt, offset, *_):
    offset = _offset(offset)
    file = _reader(p, fd)
    vecs = _iovecs(p, iov, cnt, PROT_WRITE)
    total = sum(n for _, n in vecs)
    if total == 0:
        return 0
    data = file.pread(total, offset)
    _scatter(p, vecs, data)
    return len(data)


@syscall(70)
def sys_pwritev(k, p, fd, iov, cnt, offset, *_):
    offset = _offset(offset)
    file = _writer(p, fd)
    data = _gather(p, _iovecs(p, iov, cnt, PROT_READ))
    if not data:
        return 0
    return file.pwrite(data, offset)


@syscall(71)
def sys_sendfile(k, p, out_fd, in_fd, offset_ptr, count, *_):
    # Linux's order: *offset is read, the input checked, the output checked
    # (an O_APPEND output is EINVAL), then the data moves and *offset is written
    off = int.from_bytes(rd(p, offset_ptr, 8), "little") if offset_ptr else None
    src = _reader(p, in_fd)
    _check_span(_position(src) if off is None else off, count)
    dst = _writer(p, out_fd)
    _check_span(_position(dst), count)
    if dst.flags & abi.O_APPEND:
        raise SyscallError(errno.EINVAL)
    count = min(count, MAX_IO)
    if off is not None:
        data = src.pread(count, off)
        wr(p, offset_ptr, (off + len(data)).to_bytes(8, "little"))
    else:
        data = src.read(count)
    return _write_file(k, p, dst, data) if data else 0


@syscall(285)
def sys_copy_file_range(k, p, fd_in, off_in_ptr, fd_out, off_out_ptr, count, flags, *_):
    """Between two regular files (cp uses it first; Linux's EXDEV/EINVAL make it fall back)."""
    if flags:
        raise SyscallError(errno.EINVAL)
    src, dst = _reader(p, fd_in), _writer(p, fd_out)
    if not (isinstance(src, HostFile) and isinstance(dst, HostFile)) or dst.flags & abi.O_APPEND:
        raise SyscallError(errno.EINVAL if isinstance(dst, HostFile) else errno.EBADF)
    if not (stat_mod.S_ISREG(src.stat().st_mode) and stat_mod.S_ISREG(dst.stat().st_mode)):
        raise SyscallError(errno.EINVAL)
    off_in = int.from_bytes(rd(p, off_in_ptr, 8), "little") if off_in_ptr else None
    off_out = int.from_bytes(rd(p, off_out_ptr, 8), "little") if off_out_ptr else None
    count = min(count, MAX_IO)
    data = src.read(count) if off_in is None else src.pread(count, off_in)
    if not data:
        return 0
    if off_out is None:
        written = _write_file(k, p, dst, data)
    else:
        written = dst.pwrite(data, off_out)
        dst._modified()
        wr(p, off_out_ptr, (off_out + written).to_bytes(8, "little"))
    if off_in is not None:
        wr(p, off_in_ptr, (off_in + written).to_bytes(8, "little"))
    elif written < len(data):
        src.lseek(written - len(data), 1)
    return written


def _position(file) -> int:
    return file.lseek(0, 1) if isinstance(file, HostFile) else 0


def _check_span(pos: int, count: int) -> None:
    """Linux's rw_verify_area: a negative count or position, or one whose end overflows, is EINVAL."""
    if count >> 63 or pos >> 63 or (pos + count) >> 63:
        raise SyscallError(errno.EINVAL)


@syscall(62)
def sys_lseek(k, p, fd, offset, whence, *_):
    return p.fds.get(sint(fd)).lseek(slong(offset), sint(whence))


@syscall(57)
def sys_close(k, p, fd, *_):
    p.fds.close(sint(fd))
    return 0


@syscall(23)
def sys_dup(k, p, fd, *_):
    return p.fds.install(p.fds.get(sint(fd)))


@syscall(24)
def sys_dup3(k, p, old, new, flags, *_):
    old, new, flags = sint(old), sint(new), flags & 0xFFFFFFFF
    # Linux's order: flags, old == new, new past the limit, then old not open
    if flags & ~abi.O_CLOEXEC or old == new:
        raise SyscallError(errno.EINVAL)
    if not 0 <= new < p.fds.MAX_FDS:
        raise SyscallError(errno.EBADF)
    file = p.fds.get(old)
    return p.fds.install(file, at=new, cloexec=bool(flags & abi.O_CLOEXEC))


@syscall(25)
def sys_fcntl(k, p, fd, cmd, arg, *_):
    fd, cmd = sint(fd), sint(cmd)
    file = p.fds.get(fd)
    if cmd in (abi.F_DUPFD, abi.F_DUPFD_CLOEXEC):
        start = arg & 0xFFFFFFFF              # Linux reads an int, compared unsigned with the limit
        if start >= p.fds.MAX_FDS:
            raise SyscallError(errno.EINVAL)
        return p.fds.install(file, start=start, cloexec=cmd == abi.F_DUPFD_CLOEXEC)
    if cmd == abi.F_GETFD:
        return abi.FD_CLOEXEC if fd in p.fds.cloexec else 0
    if cmd == abi.F_SETFD:
        (p.fds.cloexec.add if arg & abi.FD_CLOEXEC else p.fds.cloexec.discard)(fd)
        return 0
    if cmd == abi.F_GETFL:
        return file.flags & ~(abi.O_CLOEXEC | abi.O_CREAT | abi.O_EXCL | abi.O_TRUNC | abi.O_NOCTTY)
    if cmd == abi.F_SETFL:
        settable = abi.O_APPEND | abi.O_NONBLOCK
        file.flags = (file.flags & ~settable) | (arg & settable)
        host = file.host_fd()
        if host is not None and host > 2:
            flags = host_fcntl.fcntl(host, host_fcntl.F_GETFL) & ~os.O_APPEND
            host_fcntl.fcntl(host, host_fcntl.F_SETFL, flags | (os.O_APPEND if arg & abi.O_APPEND else 0))
        return 0
    if cmd in (abi.F_GETLK, abi.F_SETLK, abi.F_SETLKW, F_OFD_GETLK, F_OFD_SETLK, F_OFD_SETLKW):
        l_type, whence = struct.unpack("<hh", rd(p, arg, 32)[:4])
        if l_type not in (0, 1, 2) or whence not in (0, 1, 2):    # F_RDLCK, F_WRLCK, F_UNLCK
            raise SyscallError(errno.EINVAL)
        if cmd in (abi.F_GETLK, F_OFD_GETLK):   # nobody else holds locks: report F_UNLCK in l_type
            wr(p, arg, struct.pack("<h", 2))
        return 0
    if cmd == F_GETOWN or cmd == F_GETSIG:
        return 0
    if cmd == F_SETSIG:
        if arg > abi.NSIG:
            raise SyscallError(errno.EINVAL)
        return 0
    if cmd == F_SETOWN:
        _owner(k, sint(arg))
        return 0
    if cmd == F_GETOWN_EX:
        wr(p, arg, bytes(8))
        return 0
    if cmd == F_SETOWN_EX:
        kind, pid = struct.unpack("<ii", rd(p, arg, 8))
        if kind not in (0, 1, 2):
            raise SyscallError(errno.EINVAL)
        _owner(k, -pid if kind == 2 else pid)
        return 0
    raise SyscallError(errno.EINVAL)


# fcntl commands beyond abi's: owners (SIGIO is never sent) and open-file-description locks
F_SETOWN, F_GETOWN, F_SETSIG, F_GETSIG, F_SETOWN_EX, F_GETOWN_EX = 8, 9, 10, 11, 15, 16
F_OFD_GETLK, F_OFD_SETLK, F_OFD_SETLKW = 36, 37, 38


def _owner(k, pid: int) -> None:
    """F_SETOWN's target must exist: a process (pid > 0) or a process group (pid < 0)."""
    if pid == -(1 << 31):
        raise SyscallError(errno.EINVAL)
    if pid > 0 and pid not in k.procs:
        raise SyscallError(errno.ESRCH)
    if pid < 0 and not any(q.pgid == -pid for q in k.procs.values()):
        raise SyscallError(errno.ESRCH)


@syscall(29)
def sys_ioctl(k, p, fd, req, arg, *_):
    file = p.fds.get(sint(fd))
    req &= 0xFFFFFFFF
    host = file.host_fd()
    tty = host is not None and file.isatty()
    if req == abi.FIONREAD and hasattr(file, "available"):      # pipes and sockets
        wr(p, arg, struct.pack("<i", file.available()))
        return 0
    if req == abi.FIONBIO:
        on = int.from_bytes(rd(p, arg, 4), "little")
        file.flags = (file.flags | abi.O_NONBLOCK) if on else (file.flags & ~abi.O_NONBLOCK)
        return 0
    if not tty:
        raise SyscallError(errno.ENOTTY)
    # a host terminal: the termios and winsize layouts match, so pass through
    sizes = {abi.TCGETS: 36, abi.TCSETS: 36, abi.TCSETSW: 36, abi.TCSETSF: 36,
             abi.TIOCGWINSZ: 8, abi.TIOCSWINSZ: 8, abi.TIOCGPGRP: 4, abi.TIOCSPGRP: 4}
    if req == abi.TIOCGPGRP:                  # the foreground process group (kept by hostio)
        wr(p, arg, struct.pack("<i", k.host.foreground()))
        return 0
    if req == abi.TIOCSPGRP:
        pgrp = struct.unpack("<i", rd(p, arg, 4))[0]
        if pgrp < 0:
            raise SyscallError(errno.EINVAL)
        if not any(q.alive and q.pgid == pgrp for q in k.procs.values()):
            raise SyscallError(errno.ESRCH)
        k.host.tty_pgrp = pgrp
        return 0
    if req == abi.TIOCSCTTY:
        return 0
    if req not in sizes:
        raise SyscallError(errno.ENOTTY)
    buf = bytearray(rd(p, arg, sizes[req]))
    try:
        host_fcntl.ioctl(host, req, buf, True)
    except OSError as error:
        raise SyscallError(error.errno or errno.ENOTTY) from None
    if req in (abi.TCGETS, abi.TIOCGWINSZ):
        wr(p, arg, bytes(buf))
    return 0


@syscall(59)
def sys_pipe2(k, p, fds_ptr, flags, *_):
    if flags & ~(abi.O_CLOEXEC | abi.O_NONBLOCK | abi.O_DIRECT):
        raise SyscallError(errno.EINVAL)
    pipe = Pipe()
    status = flags & abi.O_NONBLOCK
    r, w = PipeEnd(pipe, True, status), PipeEnd(pipe, False, status)
    cloexec = bool(flags & abi.O_CLOEXEC)
    rfd = p.fds.install(r, cloexec=cloexec)
    wfd = p.fds.install(w, cloexec=cloexec)
    try:
        wr(p, fds_ptr, struct.pack("<ii", rfd, wfd))
    except SyscallError:
        p.fds.close(rfd)
        p.fds.close(wfd)
        raise
    return 0


# poll, ppoll, pselect6 and epoll are in syscalls/poll.py (over every kind of descriptor)


@syscall(82)
def sys_fsync(k, p, fd, *_):
    p.fds.get(sint(fd))
    return 0


@syscall(83)
def sys_fdatasync(k, p, fd, *_):
    p.fds.get(sint(fd))
    return 0


@syscall(81)
def sys_sync(k, p, *_):
    return 0


@syscall(223)
def sys_fadvise64(k, p, fd, *_):
    p.fds.get(sint(fd))
    return 0
