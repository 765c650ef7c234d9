"""System call table: `@syscall(nr)` registers a handler `f(kernel, proc, *args)`.

A handler returns the value for x0 (a negative errno is fine), raises
SyscallError(errno), raises WouldBlock to be retried later, or returns
NO_RESULT when it set the registers itself (execve, rt_sigreturn, exit).
Arguments arrive as unsigned 64-bit Python ints.
"""

from __future__ import annotations

import errno

from ..errors import GuestMemoryError, SyscallError

NO_RESULT = object()
TABLE: dict[int, tuple[str, object]] = {}


def syscall(nr: int, name: str | None = None):
    def register(func):
        TABLE[nr] = (name or func.__name__.removeprefix("sys_"), func)
        return func
    return register


# --- guest memory access for handlers (a bad pointer is EFAULT, not a crash) ----
def read(proc, addr: int, n: int) -> bytes:
    if n == 0:
        return b""
    try:
        return proc.mem.read(addr, n)
    except Exception:
        raise SyscallError(errno.EFAULT) from None


def write(proc, addr: int, data: bytes) -> None:
    if not data:
        return
    try:
        proc.mem.write(addr, data)
    except Exception:
        raise SyscallError(errno.EFAULT) from None


def cstring(proc, addr: int, limit: int = 4096) -> bytes:
    if addr == 0:
        raise SyscallError(errno.EFAULT)
    try:
        s = proc.mem.read_cstring(addr, limit + 1)
    except Exception:
        raise SyscallError(errno.EFAULT) from None
    if len(s) > limit:
        raise SyscallError(errno.ENAMETOOLONG)
    return s


def u64(proc, addr: int) -> int:
    return int.from_bytes(read(proc, addr, 8), "little")


def string_array(proc, addr: int, limit: int = 65536) -> list[bytes]:
    """A NULL-terminated array of C strings (argv, envp)."""
    out = []
    while addr:
        ptr = u64(proc, addr + 8 * len(out))
        if ptr == 0:
            break
        out.append(cstring(proc, ptr, 131072))
        if len(out) > limit:
            raise SyscallError(errno.E2BIG)
    return out


def sint(value: int) -> int:
    """An int argument (32-bit signed, as C's int)."""
    value &= 0xFFFFFFFF
    return value - (1 << 32) if value >> 31 else value


def slong(value: int) -> int:
    value &= (1 << 64) - 1
    return value - (1 << 64) if value >> 63 else value


from . import fs, futex, io, mem, proc, signal, time  # noqa: E402,F401  (register handlers)

__all__ = ["TABLE", "NO_RESULT", "syscall", "GuestMemoryError"]
