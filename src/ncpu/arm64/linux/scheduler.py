"""Round-robin scheduling of all guest threads on one deterministic machine.

Each turn runs one thread (of any process) for up to QUANTUM instructions
(ALONE_QUANTA times as many for a thread alone on the machine), stopping early
at a system call that blocks (empty pipe, wait4 for a live child, futex wait)
or at exit.  A blocked thread keeps its call in
`blocked_call`; each time its turn comes the call is retried in Python (no
guest instruction runs), so the instruction count does not depend on how
often it was retried.  Order is by tid, so the same input always gives the
same interleaving.  When every thread is blocked and some futex wait has a
timeout, virtual time jumps to the earliest one; with none, it is a deadlock
-- unless the host can still bring something (a connection to a published
port, a key on the terminal: `hostio`), which is then waited for.
"""

from __future__ import annotations

from dataclasses import dataclass

from ncpu.arm64.cpu.frames import OutOfMemory

from . import abi

QUANTUM = 200_000
# A thread alone on the machine (no other guest thread, no host door open: _alone) runs up to
# this many quanta in one turn.  Nothing can happen at the end of its quanta: a signal comes
# from a system call (delivered right after it) or from the host, and no timer raises one; so
# the run is the same, with a hundredth of the turns.  Each turn costs Python and the native
# code's re-entry about 35 us: `benchmarks/arm64_turns.py --runs 8` (fresh `ncpu arm64`
# processes, alternated), median CPU s with 1 quantum a turn against 100: arm64_mem 2.16
# against 2.06, arm64_bench 3.77 against 3.32 (docs/arm64.md, "Less for a run to pay outside
# its guest code").  When the thread stops being
# alone (it started another, the host listens), the turn ends where a QUANTUM-long one would
# have: the interleaving is that of QUANTUM-long turns.
ALONE_QUANTA = 100
OOM_STATUS = 128 + abi.SIGKILL     # the machine ran out of memory (--memory): as Linux's OOM killer


@dataclass
class RunResult:
    status: int            # what `ncpu` exits with: exit code, or 128+signal
    wait_status: int       # Linux wait status of the first process
    instructions: int      # guest instructions, all processes
    reason: str            # "exit", "signal", "budget", "deadlock", "oom"
    native_instructions: int = 0   # of them, those retired in native code
    native_entries: int = 0        # times the loop entered native code


def run(kernel, max_steps: int) -> RunResult:
    sched = Scheduler(kernel, max_steps)
    while sched.result is None:
        sched.advance(QUANTUM * ALONE_QUANTA)
    return sched.result


class Scheduler:
    """The round-robin loop, resumable after any number of instructions.

    `advance(n)` runs at most n instructions of the current slice and
    returns; slices keep the length they would have had in one go, so the
    interleaving (and so the whole run) does not depend on how a caller
    chunks it: a debugger may single-step with advance(1).  `fault_hook`,
    if set, is called as hook(proc, signo, address) before a synchronous
    fault (SIGSEGV, SIGBUS, SIGILL, SIGTRAP) is acted on; when it returns
    True the fault is left undelivered (pc at the faulting instruction)
    and advance returns at once.
    """

    def __init__(self, kernel, max_steps: int):
        self.kernel = kernel
        self.max_steps = max_steps
        self.last_pid = 0
        self.proc = None          # thread of the slice in progress
        self.left = 0             # instructions left in that slice
        self.length = 0           # the slice's length when it started
        self.alone = False        # whether it started alone (ALONE_QUANTA quanta long)
        self.result: RunResult | None = None
        self.fault_hook = None

    def current(self):
        """The thread whose instruction runs next (starting a slice if needed); None once finished."""
        kernel = self.kernel
        while self.proc is None and self.result is None:
            if kernel.oom is not None:
                self.result = _finish(kernel, "oom", OOM_STATUS)
                break
            if not kernel.init.alive:
                self.result = _finish(kernel, "exit" if kernel.init.exit_status & 0x7F == 0 else "signal", None)
                break
            clock = kernel.clock
            host = kernel.host
            if host.active:                              # published ports, the terminal (hostio)
                host.pump(0)
            try:
                proc = _pick(kernel, self.last_pid)
            except OutOfMemory as error:        # a signal frame needed a page
                kernel.out_of_memory(error)
                continue
            if proc is None:
                if not kernel.init.alive:                # a signal delivered by _pick ended it
                    continue
                deadline = kernel.futex.next_deadline()
                # the host may still bring something (hostio): wait for it, and while a guest
                # timeout is pending wait as long as it has left (interactive programs keep
                # their pace); without host doors virtual time just jumps to the deadline
                wait_s = None if deadline is None else max(deadline - clock.monotonic_ns(), 0) / 1e9
                if host.can_wait() and host.pump(wait_s):
                    continue                             # the host brought something: retry
                if deadline is not None:                 # sleep until a futex wait times out
                    clock.sleep(max(deadline - clock.monotonic_ns(), 1))
                    continue
                kernel.message(f"deadlock: every guest thread is waiting ({_blocked(kernel)})")
                self.result = _finish(kernel, "deadlock", 128 + abi.SIGKILL)
                break
            self.last_pid = proc.pid
            budget = self.max_steps - clock.instructions
            if budget <= 0:
                kernel.message(f"instruction budget of {self.max_steps} exhausted")
                self.result = _finish(kernel, "budget", 124)
                break
            self.alone = _alone(kernel)
            self.length = min(QUANTUM * ALONE_QUANTA if self.alone else QUANTUM, budget)
            self.proc, self.left = proc, self.length
            kernel.yielded = False
        return self.proc

    def advance(self, limit: int) -> int:
        """Run at most `limit` instructions of the current slice; returns how many ran."""
        proc = self.current()
        if proc is None:
            return 0
        kernel = self.kernel
        ran = _run_slice(kernel, proc, min(self.left, limit), self.fault_hook, self.alone)
        kernel.pause = False                     # (set by a debugger's watcher: advance returns early)
        self.left -= ran
        if self.alone and not _alone(kernel):    # no longer alone: end where a quantum would
            self.alone = False
            ran = self.length - self.left
            end = max(1, -(-ran // QUANTUM)) * QUANTUM      # of the quantum it is in (the first if none ran)
            self.left = min(self.left, end - ran)
        if self.left <= 0 or not proc.running or proc.blocked_call is not None or kernel.yielded \
                or kernel.oom is not None:
            self.proc = None
            kernel.drop_orphans()
        return ran


def _finish(kernel, reason: str, status: int | None) -> RunResult:
    init = kernel.init
    wait = init.exit_status if init.exit_status is not None else 0
    if status is None:
        status = (wait >> 8) & 0xFF if wait & 0x7F == 0 else 128 + (wait & 0x7F)
    for proc in list(kernel.procs.values()):       # release descriptors of survivors
        if proc.alive:
            proc.fds.close_all()
    return RunResult(status=status, wait_status=wait, instructions=kernel.clock.instructions, reason=reason,
                     native_instructions=kernel.native_instructions, native_entries=kernel.native_entries)


def _blocked(kernel) -> str:
    from .syscalls import TABLE
    calls = [f"{tid}:{TABLE[t.blocked_call[0]][0]}" for tid, t in sorted(kernel.tasks.items())
             if t.running and t.blocked_call is not None]
    return "blocked: " + ", ".join(calls) if calls else "nothing runnable"


def _pick(kernel, last_pid: int):
    """Next runnable thread after tid last_pid (wrapping), retrying blocked calls."""
    live = sorted(tid for tid, t in kernel.tasks.items() if t.running)
    order = [pid for pid in live if pid > last_pid] + [pid for pid in live if pid <= last_pid]
    died = False
    for pid in order:
        proc = kernel.tasks.get(pid)
        if proc is None or not proc.running:
            continue
        if proc.pending:
            kernel.deliver(proc)
            if not proc.running:
                kernel.drop_orphans()
                died = True
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
    if died:
        # a signal ended a thread during this pass: a call retried before it (wait4 for
        # that child, a read of its pipe) may have another answer now
        return _pick(kernel, last_pid)
    # everyone is blocked: one more pass could only repeat the same answers
    return None


def _alone(kernel) -> bool:
    """Whether one guest thread is all the machine runs and no host door is open (ALONE_QUANTA)."""
    if kernel.host.active:
        return False
    running = 0
    for task in kernel.tasks.values():
        running += task.running
        if running > 1:
            return False
    return running == 1


def _run_slice(kernel, proc, quantum: int, fault_hook=None, alone: bool = False) -> int:
    """Run proc for up to `quantum` instructions; returns how many it retired (`alone`: the
    slice is ALONE_QUANTA long, and ends after a system call that ends that)."""
    api = kernel.api
    reasons = api.StopReason
    kernel.current = proc
    left = quantum
    while left > 0 and proc.running and proc.blocked_call is None and not kernel.yielded and not kernel.pause:
        cpu = proc.cpu
        try:
            stop = cpu.run(left)                # page faults a mapping allows are resolved inside
        except OutOfMemory as error:
            kernel.out_of_memory(error)
            break
        steps = int(stop.steps)
        left -= steps
        proc.instructions += steps
        kernel.clock.instructions += steps
        kernel.native_instructions += stop.native
        kernel.native_entries += stop.entered
        reason = stop.reason
        if reason == reasons.SVC:
            kernel.syscall(proc)
            if proc.running and proc.pending and kernel.oom is None:
                try:
                    kernel.deliver(proc)
                except OutOfMemory as error:
                    kernel.out_of_memory(error)
            if kernel.oom is not None or (alone and not _alone(kernel)):
                break
        elif reason == reasons.BUDGET or reason == reasons.HOOK:    # HOOK: a debugger's breakpoint
            break
        else:
            fault = _fault_of(proc, stop, reasons)
            if fault_hook is not None and fault_hook(proc, fault[0], fault[2]):
                break
            kernel.fault(proc, *fault)
    return quantum - left


def _fault_of(proc, stop, reasons) -> tuple:
    """(signo, si_code, address, message) of a CPU stop that is a synchronous fault."""
    pc = proc.state.pc
    reason = stop.reason
    if reason == reasons.FAULT:
        access = getattr(stop, "access", "")
        if access == "align":                      # misaligned exclusive/atomic, as qemu-user
            return (abi.SIGBUS, abi.BUS_ADRALN, stop.address,
                    f"guest fault: SIGBUS at pc={pc:#x} address={stop.address:#x} (unaligned atomic)")
        mapped = proc.mem is not None and proc.mem.vma_at(stop.address) is not None
        return (abi.SIGSEGV, abi.SEGV_ACCERR if mapped else abi.SEGV_MAPERR, stop.address,
                f"guest fault: SIGSEGV at pc={pc:#x} address={stop.address:#x} ({access})")
    if reason == reasons.UNDEFINED:
        return (abi.SIGILL, abi.ILL_ILLOPC, pc,
                f"guest fault: SIGILL at pc={pc:#x} undefined instruction {int(stop.word):#010x}")
    if reason == reasons.BRK:
        return abi.SIGTRAP, abi.TRAP_BRKPT, pc, f"guest trap: SIGTRAP (brk) at pc={pc:#x}"
    return abi.SIGSEGV, abi.SI_KERNEL, 0, f"guest stopped: {reason}"
