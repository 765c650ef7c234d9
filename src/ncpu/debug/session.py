"""One guest run driven by gdb: what `ncpu arm64 -g PORT BINARY` does."""

from __future__ import annotations

import shutil
import tempfile

from ncpu.arm64.linux import abi
from ncpu.arm64.linux.scheduler import QUANTUM

from .gdbstub import Stub, serve
from .target import Target


def gdb_run(machine, binary: str, argv: list[str], server, *, on_message=None,
            run_on_drop: bool = False) -> tuple[int, str]:
    """Load `binary`, serve gdb on the listening socket `server`, return (exit status, how gdb left).

    How gdb left: "detached" (the guest runs on to its end), "killed",
    "dropped" (the connection went away: the guest is ended, or runs on
    with run_on_drop).
    """
    temp = None
    root = machine.root
    if root is None:
        temp = root = tempfile.mkdtemp(prefix="ncpu-root-")
    try:
        kernel = machine.boot(root, binary, argv, None, on_message)
        target = Target(kernel, machine.max_steps)
        how = serve(Stub(target, binary), server)
        sched = target.sched
        if how == "killed" or (how == "dropped" and not run_on_drop):
            if sched.result is not None:
                return sched.result.status, how
            for proc in list(kernel.procs.values()):
                if proc.alive:
                    kernel.exit(proc, abi.SIGKILL)
                    proc.fds.close_all() if proc.fds else None
            return 128 + abi.SIGKILL, how
        sched.fault_hook = None                    # no debugger any more: faults go to the guest
        target.breakpoints.clear()
        target.watchpoints.clear()
        while sched.result is None:
            sched.advance(QUANTUM)
        return sched.result.status, how
    finally:
        if temp is not None:
            shutil.rmtree(temp, ignore_errors=True)
