"""The guest's file tree: a host directory seen as `/`, plus a few virtual nodes.

Why we resolve paths ourselves: the host kernel would follow `..` and
symlinks out of the root.  `FileSystem.resolve` walks a guest path one
component at a time, reading symlinks with os.readlink and restarting from
the guest root for absolute targets, so the host path it returns names a
file inside the root whose every directory component is a real directory
(not a link).  The last component is a link only when the caller asked not
to follow it (lstat, readlink, unlink, O_NOFOLLOW).

Virtual nodes: /dev/null, /dev/zero, /dev/random, /dev/urandom, /dev/tty,
/dev/std{in,out,err}, /proc/self/exe (a magic link to the running binary),
/proc/self/fd/N, and the generated files /proc/cpuinfo, /proc/meminfo,
/proc/self/status and /proc/self/maps, the latter two also as /proc/PID/...
(procfs.py).  They exist whether or not the root has /dev or /proc.
"""

from __future__ import annotations

import errno
import os
import stat as stat_mod
from collections.abc import Callable
from dataclasses import dataclass

from .errors import SyscallError
from .procfs import FILES as PROC_FILES, PER_PROCESS as PROC_PER_PROCESS

MAX_SYMLINKS = 40
PATH_MAX = 4096

# name -> (major, minor) for the character devices we emulate
DEVICES = {"null": (1, 3), "zero": (1, 5), "random": (1, 8), "urandom": (1, 9), "tty": (5, 0)}
STD_LINKS = {"stdin": 0, "stdout": 1, "stderr": 2}


FIRST_GUEST_INO = 2          # as a file system's root directory
FIRST_GUEST_DEV = 0x801      # 8:1, the first disk's first partition


class GuestStat:
    """A host stat result seen by the guest: its own st_dev, st_ino and (on virtual
    time) file times, the rest the host's."""

    def __init__(self, st: os.stat_result, dev: int, ino: int, times: tuple[int, int, int] | None = None):
        self._st, self.st_dev, self.st_ino = st, dev, ino
        if times is not None:
            self.st_atime_ns, self.st_mtime_ns, self.st_ctime_ns = times

    def __getattr__(self, name):
        return getattr(self._st, name)


@dataclass(frozen=True)
class Node:
    """Where a guest path leads.

    kind: "host" (host_path exists, or not when `exists` is False and the
    parent does), "dev" (a virtual character device, `name`), "vfile" (a
    generated /proc file, `name` as in procfs.FILES), "vdir" (a
    virtual directory), "exe" (the running binary), "fdlink" (/proc/self/fd/N,
    `fd`), "vlink" (a virtual symlink not followed, target in `name`).
    """

    kind: str
    guest: str
    host_path: str = ""
    exists: bool = True
    name: str = ""
    fd: int = -1


def _join(parts: list[str]) -> str:
    return "/" + "/".join(parts)


class FileSystem:
    """Resolves guest paths to host paths inside `root` (see module docstring)."""

    def __init__(self, root: str):
        self.root = os.path.realpath(root)
        if not os.path.isdir(self.root):
            raise FileNotFoundError(f"root directory {root!r} does not exist")
        self._inodes: dict[tuple[int, int], int] = {}     # (host dev, host ino) -> guest ino
        self._devices: dict[int, int] = {}                # host dev -> guest dev
        # whether a pid names a live task, for /proc/PID (the kernel sets it; none without one)
        self.is_live_pid: Callable[[int], bool] = lambda pid: False
        # On virtual time (the kernel sets both): the host's clock when the run began, and the
        # guest's clock.  None: the guest sees the host's file times as they are.
        self.run_began_ns: int | None = None
        self.guest_now_ns: Callable[[], int] = lambda: 0

    # --- inode and device numbers --------------------------------------------------
    # The host's numbers change whenever a file is made again (and from host to
    # host); programs hash them (find's cycle check, tar's hard-link table,
    # cp), so passing them through would make the instruction count vary from
    # run to run.  The guest sees numbers given in the order it first meets
    # each file, which is the same on every run of the same program.
    def guest_ino(self, host_dev: int, host_ino: int) -> int:
        return self._inodes.setdefault((host_dev, host_ino), FIRST_GUEST_INO + len(self._inodes))

    def guest_dev(self, host_dev: int) -> int:
        return self._devices.setdefault(host_dev, FIRST_GUEST_DEV + len(self._devices))

    def renumber(self, st):
        """A host os.stat_result with the guest's device and inode numbers (virtual stats pass)."""
        if not isinstance(st, os.stat_result):
            return st
        return GuestStat(st, self.guest_dev(st.st_dev), self.guest_ino(st.st_dev, st.st_ino), self._times(st))

    # --- file times -------------------------------------------------------------
    # On virtual time the guest's changes give files the guest's clock (syscalls.fs.touch
    # sets the modification and access times).  What the host's kernel stamps by itself
    # during the run cannot be set from user space: the change time of every file the
    # guest touched, and the access time of what it read.  Passed through, they would
    # be the host's clock of the moment, and the output of `stat` would differ from run
    # to run.  So a time the host wrote after the run began is shown as the file's
    # modification time (what Linux shows as the change time right after a write, and as
    # the access time on a noatime mount), or as the guest's present if that is new too.
    def _times(self, st: os.stat_result) -> tuple[int, int, int] | None:
        began = self.run_began_ns
        if began is None:
            return None
        mtime = st.st_mtime_ns if st.st_mtime_ns < began else self.guest_now_ns()
        return tuple(t if t < began else mtime for t in (st.st_atime_ns, mtime, st.st_ctime_ns))

    def host(self, parts: list[str]) -> str:
        return os.path.join(self.root, *parts) if parts else self.root

    def guest_of_host(self, host_path: str) -> str | None:
        """Guest path of a host path inside the root, else None."""
        real = os.path.realpath(host_path)
        if real == self.root:
            return "/"
        if real.startswith(self.root + os.sep):
            return "/" + os.path.relpath(real, self.root)
        return None

    def resolve(self, path: bytes | str, cwd: str, *, follow: bool = True,
                fd_links: dict | None = None) -> Node:
        """Resolve `path` (relative to guest directory `cwd`).

        Raises SyscallError(ENOENT/ENOTDIR/ELOOP/ENAMETOOLONG) like the kernel.
        A missing last component gives Node(kind="host", exists=False) so that
        creation (O_CREAT, mkdir, symlink...) can use its host path.
        `fd_links` is the set of open guest fds (for /proc/self/fd/N).
        """
        if isinstance(path, bytes):
            path = os.fsdecode(path)
        if path == "":
            raise SyscallError(errno.ENOENT)
        if len(path) >= PATH_MAX:
            raise SyscallError(errno.ENAMETOOLONG)
        todo = path.split("/")
        stack: list[str] = [] if path.startswith("/") else [p for p in cwd.split("/") if p]
        todo.reverse()
        links = 0
        trailing_slash = path.endswith("/")
        while todo:
            comp = todo.pop()
            if comp in ("", "."):
                continue
            if comp == "..":
                if stack:
                    stack.pop()
                continue
            if len(comp) > 255:
                raise SyscallError(errno.ENAMETOOLONG)
            last = all(c in ("", ".") for c in todo)
            parts = stack + [comp]
            virtual = self._virtual(parts, fd_links)
            if virtual is not None:
                kind, target = virtual
                if kind == "link":
                    if last and not follow and not trailing_slash:
                        return Node("vlink", _join(parts), name=target)
                    links += 1
                    if links > MAX_SYMLINKS:
                        raise SyscallError(errno.ELOOP)
                    if target.startswith("/"):
                        stack = []
                    todo.extend(reversed(target.split("/")))
                    continue
                if kind == "exe":
                    if todo and any(c not in ("", ".") for c in todo):
                        raise SyscallError(errno.ENOTDIR)
                    return Node("exe", _join(parts))
                if kind == "fd":
                    if last:
                        return Node("fdlink", _join(parts), fd=int(target))
                    # more components follow: the magic link leads to the open file,
                    # which must be a directory to look inside (else ENOTDIR, as Linux)
                    file = fd_links[int(target)]
                    if not getattr(file, "is_directory", False) or not file.guest_path.startswith("/"):
                        raise SyscallError(errno.ENOTDIR)
                    stack = [c for c in file.guest_path.split("/") if c]
                    continue
                if kind == "dev":
                    if not last:
                        raise SyscallError(errno.ENOTDIR)
                    return Node("dev", _join(parts), name=comp)
                if kind == "vfile":
                    if not last:
                        raise SyscallError(errno.ENOTDIR)
                    return Node("vfile", _join(parts), name=target)
                if kind == "vdir":
                    if last:
                        return Node("vdir", _join(parts), host_path=self.host(parts))
                    stack = parts
                    continue
            host = self.host(parts)
            try:
                st = os.lstat(host)
            except FileNotFoundError:
                if last:
                    return Node("host", _join(parts), host_path=host, exists=False)
                raise SyscallError(errno.ENOENT) from None
            except NotADirectoryError:
                raise SyscallError(errno.ENOTDIR) from None
            except OSError as error:
                raise SyscallError(error.errno or errno.EIO) from None
            if stat_mod.S_ISLNK(st.st_mode) and (follow or not last or trailing_slash):
                links += 1
                if links > MAX_SYMLINKS:
                    raise SyscallError(errno.ELOOP)
                target = os.readlink(host)
                if target.startswith("/"):
                    stack = []
                todo.extend(reversed(target.split("/")))
                continue
            if not last and not stat_mod.S_ISDIR(st.st_mode):
                raise SyscallError(errno.ENOTDIR)
            if last:
                if trailing_slash and not stat_mod.S_ISDIR(st.st_mode) and not stat_mod.S_ISLNK(st.st_mode):
                    raise SyscallError(errno.ENOTDIR)
                return Node("host", _join(parts), host_path=host)
            stack = parts
        # the path named a directory already on the stack (e.g. "/", ".", "a/..")
        return self._dir_node(stack)

    def _dir_node(self, stack: list[str]) -> Node:
        if stack in (["dev"], ["proc"], ["proc", "self"], ["proc", "self", "fd"]) and not os.path.isdir(self.host(stack)):
            return Node("vdir", _join(stack), host_path=self.host(stack))
        return Node("host", _join(stack), host_path=self.host(stack))

    def _virtual(self, parts: list[str], fd_links):
        """(kind, payload) for a virtual node at `parts`, else None."""
        n = len(parts)
        if n == 1 and parts[0] in ("dev", "proc"):
            return None if os.path.isdir(self.host(parts)) else ("vdir", "")
        if parts[0] == "dev" and n == 2:
            if parts[1] in DEVICES:
                return ("dev", parts[1])
            if parts[1] in STD_LINKS:
                return ("link", f"/proc/self/fd/{STD_LINKS[parts[1]]}")
            if parts[1] == "fd":
                return ("link", "/proc/self/fd")
        if parts[0] == "proc" and "/".join(parts[1:]) in PROC_FILES:
            return ("vfile", "/".join(parts[1:]))
        if parts[0] == "proc" and n >= 2 and parts[1].isdigit() and parts[1][0] != "0" \
                and self.is_live_pid(int(parts[1])):
            # /proc/PID: only its generated files
            if n == 2:
                return ("vdir", "")
            if n == 3 and parts[2] in PROC_PER_PROCESS:
                return ("vfile", f"{parts[1]}/{parts[2]}")
        if parts[0] == "proc" and n >= 2 and parts[1] == "self":
            if n == 2:
                return ("vdir", "")
            if n == 3 and parts[2] == "exe":
                return ("exe", "")
            if n == 3 and parts[2] == "fd":
                return ("vdir", "")
            if n == 4 and parts[2] == "fd":
                if fd_links is not None and parts[3].isdigit() and int(parts[3]) in fd_links:
                    return ("fd", parts[3])
                return None
        return None

    def list_virtual(self, guest_dir: str, fd_numbers: list[int]) -> list[tuple[str, int]]:
        """Entries (name, DT_*) a virtual directory lists."""
        if guest_dir == "/dev":
            return [(n, 2) for n in sorted(DEVICES)] + [(n, 10) for n in sorted(STD_LINKS)]
        if guest_dir == "/proc":
            return [(n, 8) for n in PROC_FILES if "/" not in n] + [("self", 4)]
        if guest_dir == "/proc/self":
            return [("exe", 10), ("fd", 4)] + [(n[5:], 8) for n in PROC_FILES if n.startswith("self/")]
        if guest_dir.startswith("/proc/") and guest_dir[6:].isdigit():
            return [(name, 8) for name in PROC_PER_PROCESS]
        if guest_dir == "/proc/self/fd":
            return [(str(fd), 10) for fd in fd_numbers]
        return []
