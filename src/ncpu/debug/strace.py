"""System call tracing in strace's format: `ncpu debug strace -- BINARY ARGS`.

`attach(kernel, on_call)` wraps the kernel's system call entry (the one the
scheduler calls, for first tries and for retries of blocked calls alike) and
reports each finished call as a `Call`.  A call that blocks is reported once,
when it finally completes.  `format_call` writes the line strace would:
`openat(AT_FDCWD, "/etc/passwd", O_RDONLY) = -1 ENOENT (No such file or directory)`.
Arguments are decoded for the common calls (SIGNATURES), structures too
(stat, timespec, utsname, wait status, pipe2's descriptors, iovec arrays;
sigaction, signal sets and rlimits in strace_signals.py); others show their
first three arguments in hex.
"""

from __future__ import annotations

import errno
import os
from dataclasses import dataclass, field

from ncpu.arm64.linux import abi
from ncpu.arm64.linux.syscalls import TABLE

from . import strace_signals as sig

STRING_LIMIT = 32          # strace's default -s 32

# argument kinds: d int, u unsigned, x hex, o octal, p pointer, s path string,
# bi buffer written by the guest (length in the next argument), bo buffer filled by the call,
# structures: st struct stat (filled), ts / tso struct timespec (read / filled), uts struct utsname
# (filled), ws wait status (filled), fd2 the two descriptors of pipe2 (filled), iov / iovo iovec
# arrays (count in the next argument; read / filled),
# av argv (an array of strings), ev envp (shown as its count of variables),
# sa / sao struct sigaction, ss / sso sigset_t, rl / rlo struct rlimit of prlimit64, rlg / rlgo of
# getrlimit and setrlimit (read / filled), H sigprocmask's how, R an rlimit resource,
# D dirfd, O open flags (F: without the access mode), P mmap prot, M mmap flags, S signal number
SIGNATURES = {
    "read": "d bo u", "write": "d bi u", "pread64": "d bo u d", "pwrite64": "d bi u d",
    "openat": "D s O o", "close": "d", "lseek": "d d d", "dup": "d", "dup3": "d d F",
    "fstat": "d st", "newfstatat": "D s st x", "statx": "D s x x p", "faccessat": "D s o",
    "readlinkat": "D s p u", "getcwd": "p u", "chdir": "s", "mkdirat": "D s o", "unlinkat": "D s x",
    "renameat": "D s D s", "ioctl": "d x p", "fcntl": "d d x", "getdents64": "d p u",
    "brk": "p", "mmap": "p u P M d x", "munmap": "p u", "mprotect": "p u P", "madvise": "p u d",
    "exit": "d", "exit_group": "d", "execve": "s av ev", "wait4": "d ws x p", "kill": "d S",
    "tgkill": "d d S", "clone": "x p p p p", "set_tid_address": "p", "set_robust_list": "p u",
    "rt_sigaction": "S sa sao u", "rt_sigprocmask": "H ss sso u", "getrandom": "p u x",
    "clock_gettime": "d tso", "nanosleep": "ts p", "clock_nanosleep": "d d ts p", "uname": "uts",
    "prlimit64": "d R rl rlo", "getrlimit": "R rlgo", "setrlimit": "R rlg", "futex": "p d d p p d", "pipe2": "fd2 F", "writev": "d iov d", "readv": "d iovo d",
    "getpid": "", "gettid": "", "getppid": "", "getuid": "", "geteuid": "", "getgid": "", "getegid": "",
    "sched_yield": "", "rseq": "p u d x", "sigaltstack": "p p", "ppoll": "p u p p u",
}

FILLED = {"bo", "st", "tso", "uts", "ws", "fd2", "iovo", "sao", "sso", "rlo", "rlgo"}     # decoded after the call, from what it wrote

MAP_NAMES = [(abi.MAP_SHARED, "MAP_SHARED"), (abi.MAP_PRIVATE, "MAP_PRIVATE"), (abi.MAP_FIXED, "MAP_FIXED"),
             (abi.MAP_ANONYMOUS, "MAP_ANONYMOUS"), (0x4000, "MAP_NORESERVE"), (0x100000, "MAP_FIXED_NOREPLACE"),
             (0x100, "MAP_GROWSDOWN"), (0x8000, "MAP_POPULATE"), (0x20000, "MAP_STACK")]
OPEN_NAMES = [(abi.O_CREAT, "O_CREAT"), (abi.O_EXCL, "O_EXCL"), (abi.O_NOCTTY, "O_NOCTTY"),
              (abi.O_TRUNC, "O_TRUNC"), (abi.O_APPEND, "O_APPEND"), (0o4000, "O_NONBLOCK"),
              (0o40000, "O_DIRECTORY"), (0o100000, "O_NOFOLLOW"), (abi.O_CLOEXEC, "O_CLOEXEC"),
              (abi.O_PATH, "O_PATH"), (0o200000, "O_LARGEFILE")]


@dataclass
class Call:
    pid: int
    nr: int
    name: str
    args: list[str]                 # decoded, as strace prints them
    result: int | None              # None: the call did not return (exit, execve success...)
    raw: list[int] = field(default_factory=list)

    def as_dict(self) -> dict:
        return {"pid": self.pid, "nr": self.nr, "name": self.name, "args": self.args,
                "raw_args": self.raw, "result": self.result}


def attach(kernel, on_call) -> None:
    """Report every finished system call of every guest thread to on_call(Call)."""
    enter = kernel.syscall

    def traced(proc, nr=None, args=None):
        if nr is None:
            nr = int(proc.state.x[8])
            args = tuple(int(v) for v in proc.state.x[:6])
        name = TABLE[nr][0] if nr in TABLE else f"syscall_{nr:#x}"
        signature = SIGNATURES.get(name)
        kinds = signature.split() if signature is not None else ["x", "x", "x"]
        if name == "openat" and not args[2] & abi.O_CREAT:
            kinds = kinds[:3]                # strace shows the mode only when one is used
        before = [_decode(proc, k, args, i) if k not in FILLED else None for i, k in enumerate(kinds)]
        state = proc.state
        done = enter(proc, nr, args)
        if not done:
            return done                      # blocked: reported when a retry finishes it
        result = None
        if proc.running and proc.state is state and name not in ("exit", "exit_group", "rt_sigreturn"):
            result = abi.signed64(int(state.x[0]))
        elif name == "execve" and proc.running:
            result = 0
        shown = [b if b is not None else _decode(proc, k, args, i, result) for i, (k, b) in
                 enumerate(zip(kinds, before))]
        on_call(Call(proc.pid, nr, name, shown, result, list(args[:len(kinds)])))
        return done

    kernel.syscall = traced


def format_call(call: Call, *, with_pid: bool = False) -> str:
    head = f"[pid {call.pid}] " if with_pid else ""
    line = f"{head}{call.name}({', '.join(call.args)})"
    if call.result is None:
        return line + " = ?"
    if -4096 < call.result < 0:
        code = -call.result
        return f"{line} = -1 {errno.errorcode.get(code, str(code))} ({os.strerror(code)})"
    if call.name in ("mmap", "brk", "mremap"):
        return f"{line} = {call.result:#x}"
    return f"{line} = {call.result}"


def _decode(proc, kind: str, args, i: int, result: int | None = None) -> str:
    value = args[i]
    if kind == "d":
        return str(abi.signed64(value) if value >> 63 else value if value < 1 << 31 else abi.signed32(value))
    if kind == "u":
        return str(value)
    if kind == "x":
        return hex(value)
    if kind == "o":
        return "0" + format(value, "o") if value else "0"
    if kind == "p":
        return "NULL" if value == 0 else hex(value)
    if kind == "D":
        return "AT_FDCWD" if abi.signed32(value & 0xFFFFFFFF) == abi.AT_FDCWD else str(abi.signed32(value & 0xFFFFFFFF))
    if kind == "s":
        return _string(proc, value, None, cstring=True)
    if kind == "bi":
        return _string(proc, value, args[i + 1])
    if kind == "bo":
        if result is None or result < 0:
            return hex(value)
        return _string(proc, value, result)
    if kind in STRUCTS:
        if value == 0:
            return "NULL"
        if kind in FILLED and (result is None or result < 0):
            return hex(value)
        try:
            return STRUCTS[kind](proc, value, args, i, result)
        except Exception:                  # unreadable guest memory: the pointer, as strace does
            return hex(value)
    if kind == "O":
        return _flags(value, OPEN_NAMES, base={0: "O_RDONLY", 1: "O_WRONLY", 2: "O_RDWR"}[value & 3]
                      if value & 3 != 3 else "0x3")
    if kind == "F":
        return _flags(value, OPEN_NAMES)
    if kind == "P":
        names = [n for bit, n in ((1, "PROT_READ"), (2, "PROT_WRITE"), (4, "PROT_EXEC")) if value & bit]
        return "|".join(names) or "PROT_NONE"
    if kind == "M":
        return _flags(value, MAP_NAMES)
    if kind == "S":
        return "SIG" + sig.signal_short(value) if 0 < value <= 64 else str(abi.signed32(value))
    if kind == "H":
        return sig.HOW.get(value & 0xFFFFFFFF, str(abi.signed32(value)))
    if kind == "R":
        return sig.resource(value & 0xFFFFFFFF)
    return hex(value)


def _flags(value: int, names, base: str | None = None) -> str:
    parts = [base] if base else []
    rest = value & ~3 if base else value
    for bit, name in names:
        if rest & bit:
            parts.append(name)
            rest &= ~bit
    if rest:
        parts.append(hex(rest))
    return "|".join(parts) or "0"


def _string(proc, addr: int, length: int | None, cstring: bool = False) -> str:
    """A guest string as strace quotes it: escapes, at most STRING_LIMIT bytes then '...'."""
    if addr == 0:
        return "NULL"
    try:
        if cstring:
            data = proc.mem.read_cstring(addr, 4096)
            more = False
        else:
            data = proc.mem.read(addr, min(length, STRING_LIMIT))
            more = length > STRING_LIMIT
    except Exception:
        return hex(addr)
    if cstring and len(data) > STRING_LIMIT:
        data, more = data[:STRING_LIMIT], True
    text = '"' + "".join(_char(b) for b in data) + '"'
    return text + "..." if more else text


_ESCAPES = {ord("\n"): "\\n", ord("\t"): "\\t", ord("\r"): "\\r", ord('"'): '\\"', ord("\\"): "\\\\",
            0x0B: "\\v", 0x0C: "\\f"}


def _char(b: int) -> str:
    if b in _ESCAPES:
        return _ESCAPES[b]
    if 32 <= b < 127:
        return chr(b)
    return f"\\{b:o}"


# --- structures, as strace prints them (abbreviated the way its default output is) ------------------

S_IFMT = {0o140000: "S_IFSOCK", 0o120000: "S_IFLNK", 0o100000: "S_IFREG", 0o60000: "S_IFBLK",
          0o40000: "S_IFDIR", 0o20000: "S_IFCHR", 0o10000: "S_IFIFO"}


def _u(proc, addr: int, size: int) -> int:
    return int.from_bytes(proc.mem.read(addr, size), "little")


def _stat(proc, addr, args, i, result) -> str:
    """struct stat of asm-generic (aarch64): st_mode at 16, st_rdev at 32, st_size at 48."""
    mode = _u(proc, addr + 16, 4)
    kind = S_IFMT.get(mode & 0o170000, oct(mode & 0o170000))
    text = f"{{st_mode={kind}|{mode & 0o7777:04o}, "
    if mode & 0o170000 in (0o20000, 0o60000):
        rdev = _u(proc, addr + 32, 8)
        major, minor = (rdev >> 8) & 0xFFF, (rdev & 0xFF) | ((rdev >> 12) & 0xFFF00)
        return text + f"st_rdev=makedev({major:#x}, {minor:#x}), ...}}"
    return text + f"st_size={_u(proc, addr + 48, 8)}, ...}}"


def _timespec(proc, addr, args, i, result) -> str:
    return f"{{tv_sec={abi.signed64(_u(proc, addr, 8))}, tv_nsec={abi.signed64(_u(proc, addr + 8, 8))}}}"


def _utsname(proc, addr, args, i, result) -> str:
    fields = [proc.mem.read_cstring(addr + 65 * k, 65).decode(errors="replace") for k in range(2)]
    return f'{{sysname="{fields[0]}", nodename="{fields[1]}", ...}}'


def _wait_status(proc, addr, args, i, result) -> str:
    status = _u(proc, addr, 4)
    if status & 0x7F == 0:
        return f"[{{WIFEXITED(s) && WEXITSTATUS(s) == {(status >> 8) & 0xFF}}}]"
    if status & 0xFF == 0x7F:
        return f"[{{WIFSTOPPED(s) && WSTOPSIG(s) == {abi.SIGNAL_NAMES.get((status >> 8) & 0xFF, '?')}}}]"
    core = " && WCOREDUMP(s)" if status & 0x80 else ""
    return f"[{{WIFSIGNALED(s) && WTERMSIG(s) == {abi.SIGNAL_NAMES.get(status & 0x7F, status & 0x7F)}{core}}}]"


def _fds(proc, addr, args, i, result) -> str:
    return f"[{abi.signed32(_u(proc, addr, 4))}, {abi.signed32(_u(proc, addr + 4, 4))}]"


def _iovec(proc, addr, args, i, result, filled: bool = False) -> str:
    count = min(args[i + 1], 8)
    left = result if filled else None
    parts = []
    for k in range(count):
        base, length = _u(proc, addr + 16 * k, 8), _u(proc, addr + 16 * k + 8, 8)
        shown = length if left is None else max(0, min(length, left))
        if left is not None:
            left -= shown
        parts.append(f"{{iov_base={_string(proc, base, shown)}, iov_len={length}}}")
    more = ", ..." if args[i + 1] > count else ""
    return "[" + ", ".join(parts) + more + "]"


def _string_array(proc, addr) -> list[int]:
    """The pointers of a NULL-terminated array of strings (at most 4096 of them)."""
    out = []
    while len(out) < 4096:
        ptr = _u(proc, addr + 8 * len(out), 8)
        if ptr == 0:
            return out
        out.append(ptr)
    return out


def _argv(proc, addr, args, i, result) -> str:
    return "[" + ", ".join(_string(proc, p, None, cstring=True) for p in _string_array(proc, addr)) + "]"


def _envp(proc, addr, args, i, result) -> str:
    return f"{addr:#x} /* {len(_string_array(proc, addr))} vars */"


def _rlimit_old(proc, addr, args, i, result) -> str:
    return sig.read_rlimit(proc, addr, args, i, result, infinity="RLIM_INFINITY")


STRUCTS = {"sa": sig.read_sigaction, "sao": sig.read_sigaction, "ss": sig.read_sigset, "sso": sig.read_sigset,
           "rl": sig.read_rlimit, "rlo": sig.read_rlimit, "rlg": _rlimit_old, "rlgo": _rlimit_old,
           "av": _argv, "ev": _envp, "st": _stat, "ts": _timespec, "tso": _timespec, "uts": _utsname, "ws": _wait_status, "fd2": _fds,
           "iov": _iovec, "iovo": lambda proc, addr, args, i, result: _iovec(proc, addr, args, i, result, True)}
