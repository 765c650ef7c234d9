"""Typed exceptions of the Linux user-mode layer."""

from __future__ import annotations


class LinuxError(Exception):
    """Base class of every error this package raises on purpose."""


class ElfError(LinuxError):
    """The file cannot be loaded as an AArch64 executable (execve gives the guest `errno`)."""

    errno = 8      # ENOEXEC


class InterpreterMissing(ElfError):
    """A dynamic program's interpreter is not in the root (execve: ENOENT, as Linux)."""

    errno = 2      # ENOENT


class ExecError(LinuxError):
    """execve of a guest path failed; `errno` is what the guest sees."""

    def __init__(self, errno: int, message: str = ""):
        super().__init__(message or f"errno {errno}")
        self.errno = errno


class SyscallError(LinuxError):
    """A system call fails with -errno (raised inside handlers, never escapes)."""

    def __init__(self, errno: int):
        super().__init__(errno)
        self.errno = errno


class WouldBlock(LinuxError):
    """The system call cannot finish now (empty pipe, live children); retry later."""


class GuestMemoryError(LinuxError):
    """A system call touched guest memory that is not mapped (becomes -EFAULT)."""
