"""Open file descriptions and per-process descriptor tables.

An OpenFile is shared by every descriptor that dup/fork made from it (as in
Linux), so offsets and status flags are shared; `refs` counts descriptors and
`release` runs when the last one closes.  Pipes live here in Python, not on
the host, so that blocking is a scheduler decision and runs stay
deterministic.
"""

from __future__ import annotations

import errno
import os
import stat as stat_mod

from . import abi
from .errors import SyscallError, WouldBlock

PIPE_CAPACITY = 65536



def open_host(path: str, flags: int, mode: int = 0o777) -> int:
    """os.open that leaves the file's access time alone where the host allows it
    (O_NOATIME: for the file's owner, or root).  Otherwise the guest's reads would
    write the host's clock into the file, and the next run would see it (what this
    cannot prevent, fs.FileSystem shows as the guest's time)."""
    try:
        return os.open(path, flags | os.O_NOATIME, mode)
    except PermissionError:
        return os.open(path, flags, mode)


def read_host(path: str, limit: int) -> bytes:
    """Up to `limit` bytes of a host file, read as open_host opens it."""
    with os.fdopen(open_host(path, os.O_RDONLY | os.O_CLOEXEC), "rb") as f:
        return f.read(limit)

class OpenFile:
    """Base open file description. Subclasses override what they support."""

    readable = True
    writable = True
    guest_path = ""

    def __init__(self, flags: int = 0):
        self.flags = flags          # guest O_* status flags (O_APPEND, O_NONBLOCK, access mode)
        self.refs = 0

    # --- data ---------------------------------------------------------------
    def read(self, n: int) -> bytes:
        raise SyscallError(errno.EINVAL)

    def write(self, data: bytes) -> int:
        raise SyscallError(errno.EINVAL)

    def pread(self, n: int, offset: int) -> bytes:
        raise SyscallError(errno.ESPIPE)

    def pwrite(self, data: bytes, offset: int) -> int:
        raise SyscallError(errno.ESPIPE)

    def lseek(self, offset: int, whence: int) -> int:
        raise SyscallError(errno.ESPIPE)

    def stat(self):
        """A host os.stat_result-like object (see FakeStat)."""
        raise SyscallError(errno.EBADF)

    def rdev(self) -> int:
        return 0

    def truncate(self, length: int) -> None:
        raise SyscallError(errno.EINVAL)

    def isatty(self) -> bool:
        return False

    def host_fd(self) -> int | None:
        return None

    def release(self) -> None:
        pass

    def acquire(self) -> "OpenFile":
        self.refs += 1
        return self

    def drop(self) -> None:
        self.refs -= 1
        if self.refs == 0:
            self.release()


class FakeStat:
    """Enough of os.stat_result for abi.pack_stat, for virtual files."""

    def __init__(self, mode: int, *, size: int = 0, ino: int = 1, dev: int = 5, rdev: int = 0,
                 uid: int = 0, gid: int = 0, nlink: int = 1):
        self.st_mode, self.st_size, self.st_ino, self.st_dev = mode, size, ino, dev
        self.st_rdev, self.st_uid, self.st_gid, self.st_nlink = rdev, uid, gid, nlink
        self.st_blksize, self.st_blocks = 4096, 0
        self.st_atime_ns = self.st_mtime_ns = self.st_ctime_ns = 0


class HostFile(OpenFile):
    """A host file descriptor: a regular file, a directory opened O_PATH, or stdio."""

    def __init__(self, fd: int, flags: int, guest_path: str, *, owned: bool = True):
        super().__init__(flags)
        self.fd = fd
        self.owned = owned
        self.guest_path = guest_path
        acc = flags & abi.O_ACCMODE
        self.readable = acc in (0, 2) and not flags & abi.O_PATH
        self.writable = acc in (1, 2) and not flags & abi.O_PATH
        # called with the host fd after the guest changed the file: gives it
        # the virtual modification time (None for stdio and host-time runs)
        self.stamp = None

    def _modified(self) -> None:
        if self.stamp is not None:
            self.stamp(self.fd)

    def _os(self, call, *args):
        try:
            return call(*args)
        except OSError as error:
            raise SyscallError(error.errno or errno.EIO) from None

    def read(self, n: int) -> bytes:
        if not self.readable:
            raise SyscallError(errno.EBADF)
        return self._os(os.read, self.fd, n)

    def write(self, data: bytes) -> int:
        if not self.writable:
            raise SyscallError(errno.EBADF)
        n = self._os(os.write, self.fd, data)
        self._modified()
        return n

    def pread(self, n: int, offset: int) -> bytes:
        if not self.readable:
            raise SyscallError(errno.EBADF)
        return self._os(os.pread, self.fd, n, offset)

    def pwrite(self, data: bytes, offset: int) -> int:
        if not self.writable:
            raise SyscallError(errno.EBADF)
        n = self._os(os.pwrite, self.fd, data, offset)
        self._modified()
        return n

    def lseek(self, offset: int, whence: int) -> int:
        if whence not in (0, 1, 2, 3, 4):    # SEEK_SET, SEEK_CUR, SEEK_END, SEEK_DATA, SEEK_HOLE
            raise SyscallError(errno.EINVAL)
        return self._os(os.lseek, self.fd, offset, whence)

    def stat(self):
        return self._os(os.fstat, self.fd)

    def truncate(self, length: int) -> None:
        if not self.writable:
            raise SyscallError(errno.EINVAL)
        self._os(os.ftruncate, self.fd, length)
        self._modified()

    def isatty(self) -> bool:
        return os.isatty(self.fd)

    def host_fd(self) -> int | None:
        return self.fd

    def release(self) -> None:
        if self.owned:
            try:
                os.close(self.fd)
            except OSError:
                pass


class DirFile(OpenFile):
    """An open directory: entries are listed once, sorted, so runs are deterministic."""

    readable = False
    writable = False
    is_directory = True      # /proc/self/fd/N/name looks inside it

    def __init__(self, host_path: str, guest_path: str, flags: int, extra: list[tuple[str, int]] = (), fs=None):
        super().__init__(flags)
        self.fs = fs             # gives entries the guest's inode numbers (FileSystem.guest_ino)
        self.host_path = host_path
        self.guest_path = guest_path
        self.extra = list(extra)
        self.entries: list[tuple[str, int, int]] | None = None   # (name, ino, d_type)
        self.pos = 0

    def _load(self) -> list[tuple[str, int, int]]:
        if self.entries is None:
            found: dict[str, tuple[int, int]] = {}
            try:
                st = os.stat(self.host_path)
                me, dev = st.st_ino, st.st_dev
                fd = open_host(self.host_path, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
                try:
                    with os.scandir(fd) as it:
                        for entry in it:
                            found[entry.name] = (entry.inode(), _dtype(entry))
                finally:
                    os.close(fd)
            except OSError:
                me, dev = 1, None
            if self.fs is not None and dev is not None:
                # numbered in name order, so the same listing gives the same numbers every run
                me = self.fs.guest_ino(dev, me)
                found = {n: (self.fs.guest_ino(dev, found[n][0]), found[n][1]) for n in sorted(found)}
            for name, dtype in self.extra:
                found.setdefault(name, (1000 + len(found), dtype))
            self.entries = [(".", me, abi.DT_DIR), ("..", me, abi.DT_DIR)]
            self.entries += [(n, ino, t) for n, (ino, t) in sorted(found.items())]
        return self.entries

    def getdents(self, size: int) -> bytes:
        entries = self._load()
        out = bytearray()
        while self.pos < len(entries):
            name, ino, dtype = entries[self.pos]
            raw = os.fsencode(name) + b"\0"
            reclen = (abi.DIRENT64_HEAD.size + len(raw) + 7) & ~7
            if len(out) + reclen > size:
                if not out:
                    raise SyscallError(errno.EINVAL)
                break
            rec = abi.DIRENT64_HEAD.pack(ino & abi.MASK64, self.pos + 1, reclen, dtype) + raw
            out += rec + bytes(reclen - len(rec))
            self.pos += 1
        return bytes(out)

    def lseek(self, offset: int, whence: int) -> int:
        if whence != 0 or offset < 0:
            raise SyscallError(errno.EINVAL)
        self.pos = offset
        if offset == 0:
            self.entries = None     # rewinddir sees new entries
        return offset

    def read(self, n: int) -> bytes:
        raise SyscallError(errno.EISDIR)

    def write(self, data: bytes) -> int:
        raise SyscallError(errno.EBADF)

    def stat(self):
        try:
            return os.stat(self.host_path)
        except OSError:
            return FakeStat(abi.S_IFDIR | 0o555, nlink=2)


def _dtype(entry: os.DirEntry) -> int:
    try:
        mode = entry.stat(follow_symlinks=False).st_mode
    except OSError:
        return abi.DT_UNKNOWN
    for test, dtype in ((stat_mod.S_ISREG, abi.DT_REG), (stat_mod.S_ISDIR, abi.DT_DIR),
                        (stat_mod.S_ISLNK, abi.DT_LNK), (stat_mod.S_ISFIFO, abi.DT_FIFO),
                        (stat_mod.S_ISCHR, abi.DT_CHR), (stat_mod.S_ISBLK, abi.DT_BLK),
                        (stat_mod.S_ISSOCK, abi.DT_SOCK)):
        if test(mode):
            return dtype
    return abi.DT_UNKNOWN


class Device(OpenFile):
    """/dev/null, /dev/zero, /dev/(u)random (bytes from the machine's generator), /dev/tty."""

    def __init__(self, name: str, flags: int, random_bytes):
        super().__init__(flags)
        self.name = name
        self.guest_path = f"/dev/{name}"
        self.random_bytes = random_bytes

    def read(self, n: int) -> bytes:
        if self.name == "null":
            return b""
        if self.name == "zero":
            return bytes(n)
        return self.random_bytes(n)

    def write(self, data: bytes) -> int:
        return len(data)

    def lseek(self, offset: int, whence: int) -> int:
        return 0

    def pread(self, n: int, offset: int) -> bytes:
        return self.read(n)

    def pwrite(self, data: bytes, offset: int) -> int:
        return len(data)

    def stat(self):
        from .fs import DEVICES
        return FakeStat(abi.S_IFCHR | 0o666, rdev=abi.makedev(*DEVICES[self.name]), ino=100)

    def rdev(self) -> int:
        from .fs import DEVICES
        return abi.makedev(*DEVICES[self.name])


class VirtualFile(OpenFile):
    """A read-only regular file whose bytes were generated when it was opened (/proc/cpuinfo...)."""

    writable = False

    def __init__(self, data: bytes, flags: int):
        super().__init__(flags)
        self.data = data
        self.pos = 0
        self.readable = True

    def read(self, n: int) -> bytes:
        chunk = self.data[self.pos:self.pos + n]
        self.pos += len(chunk)
        return chunk

    def write(self, data: bytes) -> int:
        raise SyscallError(errno.EBADF)

    def pread(self, n: int, offset: int) -> bytes:
        return self.data[offset:offset + n]

    def lseek(self, offset: int, whence: int) -> int:
        base = {0: 0, 1: self.pos, 2: len(self.data)}.get(whence)
        if base is None or base + offset < 0:
            raise SyscallError(errno.EINVAL)
        self.pos = base + offset
        return self.pos

    def stat(self):
        return FakeStat(abi.S_IFREG | 0o444, size=0, ino=4, dev=0x16)


class Pipe:
    """A pipe's buffer and the count of open read and write ends."""

    def __init__(self):
        self.buffer = bytearray()
        self.readers = 0
        self.writers = 0


class PipeEnd(OpenFile):
    def __init__(self, pipe: Pipe, reading: bool, flags: int):
        super().__init__(flags)
        self.pipe = pipe
        self.reading = reading
        self.readable, self.writable = reading, not reading
        self.flags = flags | (0 if reading else 1)
        if reading:
            pipe.readers += 1
        else:
            pipe.writers += 1
        self.ino = id(pipe) & 0xFFFFFF

    def read(self, n: int) -> bytes:
        if not self.reading:
            raise SyscallError(errno.EBADF)
        if not self.pipe.buffer:
            if self.pipe.writers == 0:
                return b""
            if self.flags & abi.O_NONBLOCK:
                raise SyscallError(errno.EAGAIN)
            raise WouldBlock()
        data = bytes(self.pipe.buffer[:n])
        del self.pipe.buffer[:n]
        return data

    def write(self, data: bytes) -> int:
        """Writes what fits; raises BrokenPipe (EPIPE, SIGPIPE) without readers."""
        if self.reading:
            raise SyscallError(errno.EBADF)
        if self.pipe.readers == 0:
            raise SyscallError(errno.EPIPE)
        room = PIPE_CAPACITY - len(self.pipe.buffer)
        if room <= 0:
            if self.flags & abi.O_NONBLOCK:
                raise SyscallError(errno.EAGAIN)
            raise WouldBlock()
        self.pipe.buffer += data[:room]
        return min(room, len(data))

    def available(self) -> int:
        return len(self.pipe.buffer)

    def poll_events(self) -> int:
        """poll(2) bits: POLLIN/POLLHUP for the read end, POLLOUT/POLLERR for the write end."""
        if self.reading:
            return (0x1 if self.pipe.buffer else 0) | (0x10 if self.pipe.writers == 0 else 0)
        if self.pipe.readers == 0:
            return 0x8
        return 0x4 if len(self.pipe.buffer) < PIPE_CAPACITY else 0

    def stat(self):
        return FakeStat(abi.S_IFIFO | 0o600, ino=self.ino, dev=12, size=0)

    def release(self) -> None:
        if self.reading:
            self.pipe.readers -= 1
        else:
            self.pipe.writers -= 1


class FdTable:
    """guest fd -> (OpenFile, close-on-exec flag)."""

    MAX_FDS = 1024

    def __init__(self):
        self.files: dict[int, OpenFile] = {}
        self.cloexec: set[int] = set()

    def get(self, fd: int) -> OpenFile:
        try:
            return self.files[fd]
        except KeyError:
            raise SyscallError(errno.EBADF) from None

    def lowest_free(self, start: int = 0) -> int:
        if not 0 <= start < self.MAX_FDS:     # F_DUPFD's minimum past the limit (Linux: EINVAL)
            raise SyscallError(errno.EINVAL)
        fd = start
        while fd in self.files:
            fd += 1
        if fd >= self.MAX_FDS:
            raise SyscallError(errno.EMFILE)
        return fd

    def install(self, file: OpenFile, *, cloexec: bool = False, at: int | None = None, start: int = 0) -> int:
        fd = self.lowest_free(start) if at is None else at
        if not 0 <= fd < self.MAX_FDS:
            raise SyscallError(errno.EBADF)
        if at is not None and at in self.files:
            self.close(at)
        self.files[fd] = file.acquire()
        if cloexec:
            self.cloexec.add(fd)
        else:
            self.cloexec.discard(fd)
        return fd

    def close(self, fd: int) -> None:
        file = self.files.pop(fd, None)
        if file is None:
            raise SyscallError(errno.EBADF)
        self.cloexec.discard(fd)
        file.drop()

    def close_all(self) -> None:
        for fd in sorted(self.files):
            self.close(fd)

    def close_on_exec(self) -> None:
        for fd in sorted(self.cloexec):
            if fd in self.files:
                self.close(fd)

    def fork(self) -> "FdTable":
        child = FdTable()
        for fd, file in self.files.items():
            child.files[fd] = file.acquire()
        child.cloexec = set(self.cloexec)
        return child
