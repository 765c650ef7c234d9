"""Round-robin scheduling of all guest threads on one deterministic machine.

Each turn runs one thread (of any process) for up to QUANTUM instructions,
stopping early at a system call that blocks (empty pipe, wait4 for a live
child, futex wait) or at exit.  A blocked thread keeps its call in
`blocked_call`; each time its turn comes the call is retried in Python (no
guest instruction runs), so the instruction count does not depend on how
often it was retried.  Order is by tid, so the same input always gives the
same interleaving.  When every thread is blocked and some futex wait has a
timeout, virtual time jumps to the earliest one; with none, it is a deadlock.
"""

from __future__ import annotations

from dataclasses import dataclass

from . import abi

QUANTUM = 200_000


@dataclass
class RunResult:
    status: int            # what `ncpu` exits with: exit code, or 128+signal
    wait_status: int       # Linux wait status of the first process
    instructions: int      # guest instructions, all processes
    reason: str            # "exit", "signal", "budget", "deadlock"


def run(kernel, max_steps: int) -> RunResult:
    clock = kernel.clock
    last_pid = 0
    while kernel.init.alive:
        proc = _pick(kernel, last_pid)
        if proc is None:
            deadline = kernel.futex.next_deadline()
            if deadline is not None:                 # sleep until a futex wait times out
                clock.sleep(max(deadline - clock.monotonic_ns(), 1))
                continue
            kernel.message(f"deadlock: every guest thread is waiting ({_blocked(kernel)})")
            return _finish(kernel, "deadlock", 128 + abi.SIGKILL)
        last_pid = proc.pid
        budget = max_steps - clock.instructions
        if budget <= 0:
            kernel.message(f"instruction budget of {max_steps} exhausted")
            return _finish(kernel, "budget", 124)
        _run_slice(kernel, proc, min(QUANTUM, budget))
        kernel.drop_orphans()
    return _finish(kernel, "exit" if kernel.init.exit_status & 0x7F == 0 else "signal", None)


def _finish(kernel, reason: str, status: int | None) -> RunResult:
    init = kernel.init
    wait = init.exit_status if init.exit_status is not None else 0
    if status is None:
        status = (wait >> 8) & 0xFF if wait & 0x7F == 0 else 128 + (wait & 0x7F)
    for proc in list(kernel.procs.values()):       # release descriptors of survivors
        if proc.alive:
            proc.fds.close_all()
    return RunResult(status=status, wait_status=wait, instructions=kernel.clock.instructions, reason=reason)


def _blocked(kernel) -> str:
    from .syscalls import TABLE
    calls = [f"{tid}:{TABLE[t.blocked_call[0]][0]}" for tid, t in sorted(kernel.tasks.items())
             if t.running and t.blocked_call is not None]
    return "blocked: " + ", ".join(calls) if calls else "nothing runnable"


def _pick(kernel, last_pid: int):
    """Next runnable thread after tid last_pid (wrapping), retrying blocked calls."""
    live = sorted(tid for tid, t in kernel.tasks.items() if t.running)
    order = [pid for pid in live if pid > last_pid] + [pid for pid in live if pid <= last_pid]
    for pid in order:
        proc = kernel.tasks.get(pid)
        if proc is None or not proc.running:
            continue
        if proc.pending:
            kernel.deliver(proc)
            if not proc.running:
                kernel.drop_orphans()
                continue
        if proc.blocked_call is not None:
            nr, args = proc.blocked_call
            kernel.current = proc
            if not kernel.syscall(proc, nr, args):
                continue
            if proc.running and proc.pending:
                kernel.deliver(proc)
            if not proc.running:
                kernel.drop_orphans()
                continue
        return proc
    # everyone is blocked: one more pass could only repeat the same answers
    return None


def _run_slice(kernel, proc, quantum: int) -> None:
    api = kernel.api
    reasons = api.StopReason
    kernel.current = proc
    kernel.yielded = False
    left = quantum
    while left > 0 and proc.running and proc.blocked_call is None and not kernel.yielded:
        cpu = proc.cpu
        stop = cpu.run(left)
        steps = int(stop.steps)
        left -= steps
        proc.instructions += steps
        kernel.clock.instructions += steps
        reason = stop.reason
        if reason == reasons.SVC:
            kernel.syscall(proc)
            if proc.running and proc.pending:
                kernel.deliver(proc)
        elif reason == reasons.BUDGET:
            break
        elif reason == reasons.FAULT:
            pc = proc.state.pc
            access = getattr(stop, "access", "")
            if access == "align":                  # misaligned exclusive/atomic, as qemu-user
                kernel.fault(proc, abi.SIGBUS, abi.BUS_ADRALN, stop.address,
                             f"guest fault: SIGBUS at pc={pc:#x} address={stop.address:#x} (unaligned atomic)")
            else:
                kernel.fault(proc, abi.SIGSEGV, abi.SEGV_MAPERR, stop.address,
                             f"guest fault: SIGSEGV at pc={pc:#x} address={stop.address:#x} ({access})")
        elif reason == reasons.UNDEFINED:
            pc = proc.state.pc
            kernel.fault(proc, abi.SIGILL, abi.ILL_ILLOPC, pc,
                         f"guest fault: SIGILL at pc={pc:#x} undefined instruction {int(stop.word):#010x}")
        elif reason == reasons.BRK:
            pc = proc.state.pc
            kernel.fault(proc, abi.SIGTRAP, abi.TRAP_BRKPT, pc, f"guest trap: SIGTRAP (brk) at pc={pc:#x}")
        else:
            kernel.fault(proc, abi.SIGSEGV, abi.SI_KERNEL, 0, f"guest stopped: {reason}")
