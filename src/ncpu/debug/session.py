"""One guest run driven by gdb: what `ncpu arm64 -g PORT BINARY` does."""

from __future__ import annotations

import contextlib
import shutil
import tempfile

from ncpu.arm64.linux import abi, scheduler
from ncpu.arm64.linux.scheduler import QUANTUM

from . import record
from .gdbstub import Stub, serve
from .target import Target


@contextlib.contextmanager
def _root(machine):
    """The machine's root, or a fresh empty one removed afterwards."""
    if machine.root is not None:
        yield machine.root
        return
    temp = tempfile.mkdtemp(prefix="ncpu-root-")
    try:
        yield temp
    finally:
        shutil.rmtree(temp, ignore_errors=True)


def _boot(machine, root: str, binary: str, argv: list[str], on_message, log, replay: bool, clock=None):
    if log is None:
        return machine.boot(root, binary, argv, None, on_message, clock=clock)
    clock = record.clock_for(log, seed=machine.seed, host=machine.host_time, replay=replay)
    kernel = machine.boot(root, binary, argv, None, on_message, clock=clock)
    record.prepare(kernel, log, replay)
    return kernel


def recorded_run(machine, binary: str, argv: list[str], log: "record.Log", *, replay: bool,
                 on_message=None) -> scheduler.RunResult:
    """Run to the end, logging the inputs the guest consumes (or taking them from `log`)."""
    with _root(machine) as root:
        kernel = _boot(machine, root, binary, argv, on_message, log, replay)
        return scheduler.run(kernel, machine.max_steps)


def traced_run(machine, binary: str, argv: list[str], on_call, *, on_message=None) -> scheduler.RunResult:
    """Run to the end, reporting each finished system call to on_call(strace.Call)."""
    from . import strace
    with _root(machine) as root:
        kernel = machine.boot(root, binary, argv, None, on_message)
        strace.attach(kernel, on_call)
        return scheduler.run(kernel, machine.max_steps)


def gdb_run(machine, binary: str, argv: list[str], server, *, on_message=None,
            run_on_drop: bool = False, replay_log=None) -> tuple[int, str]:
    """Load `binary`, serve gdb on the listening socket `server`, return (exit status, how gdb left).

    How gdb left: "detached" (the guest runs on to its end), "killed",
    "dropped" (the connection went away: the guest is ended, or runs on
    with run_on_drop).  With `replay_log` the guest's inputs come from a recording.
    """
    with _root(machine) as root:
        shared = []
        clock = None
        if replay_log is None and machine.host_time:   # host readings taken once, kept for going back
            shared.append(record.Tape())
            clock = record.TapeClock(shared[-1], seed=machine.seed, host=True)
        kernel = _boot(machine, root, binary, argv, on_message, replay_log, True, clock)
        if replay_log is None:                   # stdin read once, re-read from the tape when going back
            shared.append(record.Tape())
            record.prepare_tape(kernel, shared[-1])
        target = Target(kernel, machine.max_steps, shared=shared)
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
