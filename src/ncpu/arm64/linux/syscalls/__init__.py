"""System call table: `@syscall(nr)` registers a handler `f(kernel, proc, *args)`.

A handler returns the value for x0 (a negative errno is fine), raises
SyscallError(errno), raises WouldBlock to be retried later, or returns
NO_RESULT when it set the registers itself (execve, rt_sigreturn, exit).
Arguments arrive as unsigned 64-bit Python ints.
"""

from __future__ import annotations

import errno

from ncpu.arm64.cpu import GuestFault
from ncpu.arm64.cpu.memory import ADDR_BITS, PROT_READ, PROT_WRITE

from ..abi import signed32 as sint, signed64 as slong  # noqa: F401  (an int / a long argument, as C reads it)
from ..errors import GuestMemoryError, SyscallError

NO_RESULT = object()
TABLE: dict[int, tuple[str, object]] = {}


def syscall(nr: int, name: str | None = None):
    def register(func):
        if nr in TABLE:
            raise ValueError(f"system call {nr} has two handlers: {TABLE[nr][1].__name__} and {func.__name__}")
        TABLE[nr] = (name or func.__name__.removeprefix("sys_"), func)
        return func
    return register


TASK_SIZE = 1 << 48     # arm64 Linux's user address limit (48-bit VA)


# --- kernel-side accesses to guest memory, for debuggers ----------------------------
# None while nothing watches (the normal case: one global test per copy).  While a
# kernel with a `watcher` runs a handler (Kernel.syscall), `observe(proc, addr, data,
# write)` is told of each copy between the guest and the kernel below: the bytes read
# from the guest (write=False), or written into it (write=True, after the write).
observe = None


# --- guest memory access for handlers (a bad pointer is EFAULT, not a crash) ----
# Only GuestFault (the memory's own "not mapped" signal) becomes EFAULT: any
# other exception is a host bug and must surface, not be hidden from the guest.
def accessible(proc, addr: int, n: int, prot: int = PROT_READ) -> bool:
    """Is every byte of [addr, addr+n) mapped with `prot`? The guest space is
    4 GiB, so a range past it (a huge length) is not, whatever the mapping."""
    if n <= 0:
        return addr <= TASK_SIZE          # Linux's access_ok checks the address even for 0 bytes
    if addr + n > 1 << ADDR_BITS:
        return False
    return proc.mem.accessible(addr, n, prot)     # by the mappings: pages get frames on first touch


def check(proc, addr: int, n: int, prot: int = PROT_READ) -> None:
    """EFAULT unless the whole buffer is accessible (checked before any side
    effect, as qemu-aarch64 does: a read into a read-only buffer consumes nothing)."""
    if not accessible(proc, addr, n, prot):
        raise SyscallError(errno.EFAULT)


def read(proc, addr: int, n: int) -> bytes:
    if n == 0:
        return b""
    check(proc, addr, n, PROT_READ)
    try:
        data = proc.mem.read(addr, n)
    except GuestFault:
        raise SyscallError(errno.EFAULT) from None
    if observe is not None:
        observe(proc, addr, data, False)
    return data


def write(proc, addr: int, data: bytes) -> None:
    if not data:
        return
    check(proc, addr, len(data), PROT_WRITE)
    try:
        proc.mem.write(addr, data)
    except GuestFault:
        raise SyscallError(errno.EFAULT) from None
    if observe is not None:
        observe(proc, addr, bytes(data), True)


def cstring(proc, addr: int, limit: int = 4096) -> bytes:
    if addr == 0:
        raise SyscallError(errno.EFAULT)
    try:
        s = proc.mem.read_cstring(addr, limit + 1)
    except GuestFault:
        raise SyscallError(errno.EFAULT) from None
    if observe is not None:
        observe(proc, addr, s[:limit + 1] + b"\0"[:limit + 1 - len(s)], False)   # the NUL was read too
    if len(s) > limit:
        raise SyscallError(errno.ENAMETOOLONG)
    return s


def u64(proc, addr: int) -> int:
    return int.from_bytes(read(proc, addr, 8), "little")


MAX_ARG_STRLEN = 32 * 4096     # Linux: one argument or environment string, NUL included
MAX_ARG_BYTES = 2 << 20        # Linux: a quarter of the default 8 MiB stack limit, for argv + envp


def string_array(proc, addr: int, budget: list[int] | None = None) -> list[bytes]:
    """A NULL-terminated array of C strings (argv, envp). `budget` is the
    bytes left (shared by argv and envp, as Linux counts them): E2BIG past it."""
    budget = budget if budget is not None else [MAX_ARG_BYTES]
    out = []
    while addr:
        ptr = u64(proc, addr + 8 * len(out))
        if ptr == 0:
            break
        try:
            text = cstring(proc, ptr, MAX_ARG_STRLEN - 1)
        except SyscallError as error:
            raise SyscallError(errno.E2BIG if error.errno == errno.ENAMETOOLONG else error.errno) from None
        budget[0] -= len(text) + 1 + 8
        if budget[0] < 0:
            raise SyscallError(errno.E2BIG)
        out.append(text)
    return out


from . import fdmisc, fs, futex, io, mem, net, poll, proc, signal, time, xattr  # noqa: E402,F401  (register handlers)

__all__ = ["TABLE", "NO_RESULT", "syscall", "GuestMemoryError"]
