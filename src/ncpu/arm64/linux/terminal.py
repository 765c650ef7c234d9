"""The host's terminal, seen by the guest as its controlling terminal.

When the host's stdin (or stdout/stderr) is a tty, the guest's descriptor is
a TerminalFile: termios and window-size ioctls go to the host tty (so raw
and cbreak modes take effect there), and a read with no key typed yet waits
in the scheduler (other guest threads run on; when none can, `hostio` waits
on the tty) instead of stopping the whole machine in a host read.

`saved_modes` keeps the host tty's modes from before the run; `Machine.run`
puts them back on every way out (the guest's exit, a crash, an exhausted
budget, Ctrl-C, a host exception).
"""

from __future__ import annotations

import contextlib
import errno
import os
import select
import termios

from .errors import SyscallError, WouldBlock
from .events import POLLIN, POLLOUT
from .files import HostFile
from . import abi


def _key_waiting(fd: int) -> bool:
    try:
        return bool(select.select([fd], [], [], 0)[0])
    except (OSError, ValueError):
        return True


class TerminalFile(HostFile):
    def __init__(self, fd: int, flags: int, guest_path: str, host_io, *, owned: bool = False):
        super().__init__(fd, flags, guest_path, owned=owned)
        self.host_io = host_io

    def read(self, n: int) -> bytes:
        if not self.readable:
            raise SyscallError(errno.EBADF)
        if not _key_waiting(self.fd):
            if self.flags & abi.O_NONBLOCK:
                raise SyscallError(errno.EAGAIN)
            self.host_io.tty_wanted.add(self.fd)
            raise WouldBlock()
        return self._os(os.read, self.fd, n)

    def poll_events(self) -> int:
        events = POLLOUT if self.writable else 0
        if self.readable:
            if _key_waiting(self.fd):
                events |= POLLIN
            else:
                self.host_io.tty_wanted.add(self.fd)
        return events


@contextlib.contextmanager
def saved_modes(fd: int):
    """Restore the terminal's modes on the way out, however the block ends."""
    try:
        saved = termios.tcgetattr(fd) if os.isatty(fd) else None
    except termios.error:
        saved = None
    try:
        yield saved is not None
    finally:
        if saved is not None:
            with contextlib.suppress(termios.error, OSError):
                termios.tcsetattr(fd, termios.TCSADRAIN, saved)


def open_terminal(kernel, flags: int) -> TerminalFile:
    """open("/dev/tty"): the terminal the machine runs in (a new host descriptor of it),
    else ENXIO, as Linux answers a process without a controlling terminal."""
    host = kernel.host.terminal_fd
    if host is None:
        raise SyscallError(errno.ENXIO)
    try:
        fd = os.dup(host)
    except OSError as error:
        raise SyscallError(error.errno or errno.EIO) from None
    status = flags & (abi.O_ACCMODE | abi.O_NONBLOCK | abi.O_APPEND)
    return TerminalFile(fd, status, "/dev/tty", kernel.host, owned=True)
