"""A guest run under a debugger: stepping, breakpoints, watchpoints, and time travel.

Read this file first.  The ARM64 machine is deterministic, so a point in a
run is named by one number, the count of guest instructions retired so far
(`Target.now`, all threads and processes together).  Everything here rests
on two facts:

* `Scheduler.advance(n)` runs at most n instructions and the interleaving
  does not depend on how the run is chunked, so single-stepping with
  advance(1) visits exactly the states a full-speed run passes through;
* a snapshot (a deep copy of the scheduler and kernel, with each address
  space copied by Memory.fork) plus re-execution reaches any earlier count
  exactly.  Reverse execution is "restore the nearest earlier snapshot and
  run forward to the count wanted".

How stops are found, with the CPU's public API only:

* breakpoints: the debugged thread's Cpu gets them as hooks (cpu/hooks.py)
  while it runs, so the compiled loop stops before a breakpoint's
  instruction; pages without one run at full speed, pages with one pay a
  check per instruction (benchmarks/debug_speed.py, debug_hooks.py);
* watchpoints: the pages holding watched bytes are "armed" (read and/or
  write permission taken away) around each advance, so the CPU stops with a
  fault before the accessing instruction retires; a fault inside a watched
  range is a hit (reported with pc at that instruction, which is what gdb
  expects on AArch64), one elsewhere on the page is stepped over with the
  page disarmed.  The CPU reports a fault's address but not its size: the
  size is read from the instruction's disassembly (64 bytes assumed for
  vector structure loads and DC ZVA);
* accesses the kernel makes for the guest (read(2) into a watched buffer,
  write(2) from it, a path or a timespec it reads): the kernel's watcher
  (`KernelWatch`, Kernel.watcher) sees every copy between guest memory and
  the kernel; watched pages are disarmed while a system call runs.  A copy
  touching a watched range pauses the scheduler right after the call, and
  the stop is reported there, as a watchpoint hit of the `svc`: gdb, which
  on AArch64 single-steps past the instruction of a hit before it compares
  values, then gets that step answered at once (the `svc` has retired), so
  it prints the old and new values with pc after the `svc`, as gdb does on
  Linux with a software watchpoint.
"""

from __future__ import annotations

import contextlib
import copy
import os
import time
from dataclasses import dataclass

from ncpu.arm64.cpu import disassemble
from ncpu.arm64.cpu.hooks import CTL_SKIP, Hooks
from ncpu.arm64.linux import abi
from ncpu.arm64.linux.scheduler import QUANTUM, Scheduler

PAGE = 4096
ACCESS_SPAN = 64                   # bytes assumed for an access whose size the disassembly does not tell
REGISTER_BYTES = {"x": 8, "w": 4, "q": 16, "d": 8, "s": 4, "h": 2, "b": 1}
SNAPSHOT_EVERY = 1_000_000         # instructions between snapshots, at least
SNAPSHOT_COST = 0.1                # ... and at most this share of the time goes to taking them
MAX_SNAPSHOTS = 48                 # older snapshots are thinned to stay under this
RECENT_SNAPSHOTS = 8               # the newest ones are never thinned
CHUNK = 20_000                     # instructions per advance when nothing is set (for interrupts)

WRITE, READ, ACCESS = 2, 3, 4      # gdb's Z types for watchpoints


@dataclass
class Event:
    """Why the machine stopped."""
    kind: str                      # step, breakpoint, watch, signal, exited, interrupt, history-begin, history-end
    tid: int = 0
    signo: int = abi.SIGTRAP
    address: int = 0               # watch: the watched address hit
    watch: int = 0                 # watch: WRITE, READ or ACCESS
    status: int = 0                # exited: wait status
    syscall: bool = False          # watch: a system call made the access (it has completed)


class Target:
    def __init__(self, kernel, max_steps: int, *, snapshot_every: int = SNAPSHOT_EVERY, shared=()):
        self.shared = list(shared)               # objects snapshots share instead of copying
        self.sched = Scheduler(kernel, max_steps)
        self.sched.fault_hook = self._on_fault
        self.breakpoints: set[int] = set()
        self.watchpoints: dict[tuple[int, int, int], None] = {}     # (kind, addr, len)
        self.snapshot_every = snapshot_every
        self.snapshots: list[tuple[int, Scheduler]] = []
        self.pass_signal: dict[int, int] = {}    # tid -> signo gdb let through (deliver on resume)
        self._fault = None                       # (tid, signo, address) the hook held back
        self._armed: dict[int, tuple] = {}       # page -> (original perm, armed perm, exec trapped)
        self._muted: list = []                   # (stdio file, its real fd) while re-executing
        self._replaying = False                  # goto re-executes the past: the watcher is quiet
        self._trap_exec = False                  # what _arm took, to arm again after a system call
        self._kernel_hit: Event | None = None    # a system call touched a watched range
        self._stepped: tuple[int, int] | None = None   # (tid, count) whose next single step is done already
        self.watch_kernel = KernelWatch(self)
        self.shared.append(self.watch_kernel)
        kernel.watcher = self.watch_kernel
        self._take_snapshot()

    # --- the state, as a debugger reads it --------------------------------------
    @property
    def kernel(self):
        return self.sched.kernel

    @property
    def now(self) -> int:
        return self.kernel.clock.instructions

    @property
    def finished(self):
        return self.sched.result

    def threads(self) -> list[int]:
        """Live guest threads of the debugged process, by tid."""
        init = self.kernel.init
        return sorted(t.pid for t in init.group.threads) if init.alive else []

    def thread(self, tid: int):
        return self.kernel.tasks.get(tid)

    def current_tid(self) -> int:
        proc = self.sched.current()
        if proc is not None and proc.group is self.kernel.init.group:
            return proc.pid
        live = self.threads()
        return live[0] if live else self.kernel.init.pid

    @property
    def mem(self):
        return self.kernel.init.mem

    # --- forward ---------------------------------------------------------------------
    def resume(self, step_tid: int | None = None, interrupted=None, stop_at: int | None = None) -> Event:
        """Run until a breakpoint, watchpoint, signal or exit; or, with step_tid,
        until that thread retired one instruction.  `interrupted()` is polled
        between chunks; `stop_at` bounds the run (history-end at that count)."""
        sched = self.sched
        stepped, self._stepped = self._stepped, None
        if step_tid is not None and stepped == (step_tid, self.now):
            return Event("step", step_tid)         # the svc of a kernel-side watch hit (see module doc)
        first = True
        polls = 0
        while True:
            proc = sched.current()
            if proc is None:
                return self._exit_event()
            if stop_at is not None and self.now >= stop_at:
                return Event("history-end", proc.pid)
            # a breakpoint stops the CPU's loop before its instruction (cpu/hooks.py); here it
            # is reported, or (first, resuming from it) stepped over
            at_bp = proc.state.pc in self.breakpoints and self._debugged(proc)
            if at_bp and not first:
                return Event("breakpoint", proc.pid)
            first = False
            polls += 1
            if interrupted is not None and (step_tid is None or polls % 256 == 0) and interrupted():
                return Event("interrupt", proc.pid, abi.SIGINT)
            limit = 1 if step_tid is not None else CHUNK
            if stop_at is not None:
                limit = min(limit, stop_at - self.now)
            ran, event = self._advance(proc, limit, skip=proc.state.pc if at_bp else None)
            if event is not None:
                return event
            self._maybe_snapshot()
            if step_tid is not None and proc.pid == step_tid and ran:
                return Event("step", proc.pid)

    def _debugged(self, proc) -> bool:
        return proc.group is self.kernel.init.group

    def _bp_pages(self) -> set[int]:
        return {a // PAGE for a in self.breakpoints}

    def _advance(self, proc, limit: int, trap_exec: bool = False, skip: int | None = None
                 ) -> tuple[int, Event | None]:
        """advance(limit) with watchpoints (and, with trap_exec, breakpoint pages) armed and
        the breakpoints in the CPU's hooks (the pc `skip` runs even if it is one);
        a held-back fault becomes an event."""
        self._fault = None
        if proc.pid in self.pass_signal and proc.state.pc == self.pass_signal[proc.pid]:
            self._fault = "pass"
        self._trap_exec = trap_exec
        self._arm(proc, trap_exec)
        cpu = proc.cpu if self.breakpoints and self._debugged(proc) else None
        if cpu is not None:                     # attached only while it runs: snapshots never copy it
            cpu.hooks = Hooks(breakpoints=self.breakpoints)
            cpu.hooks.ctl[CTL_SKIP] = -1 if skip is None else skip
        try:
            ran = self.sched.advance(limit)
        finally:
            if cpu is not None:
                cpu.hooks = None
            self._disarm(proc)
        fault, self._fault = self._fault, None
        self.pass_signal.pop(proc.pid, None)
        hit, self._kernel_hit = self._kernel_hit, None
        if hit is not None:
            self._stepped = (hit.tid, self.now)
            return ran, hit
        if fault is None or fault == "pass":
            return ran, None
        tid, signo, address = fault
        if signo == "exec-trap":                    # entering a breakpoint page: the caller single-steps
            return ran, None
        if signo == "trap":
            hit = self._watch_hit(address, _access_size(self.thread(tid)))
            if hit is not None:
                return ran, Event("watch", tid, abi.SIGTRAP, hit[1], hit[0])
            ran += self.sched.advance(1)            # another variable on the page: step over, disarmed
            return ran, None
        return ran, Event("signal", tid, signo)

    def _on_fault(self, proc, signo: int, address: int) -> bool:
        """Scheduler hook: hold back a fault the debugger should see first."""
        if self._fault == "pass":
            self._fault = None
            return False                              # gdb passed this one on: the kernel acts
        if not self._debugged(proc):
            return False
        page = address // PAGE
        armed = self._armed.get(page)
        if signo == abi.SIGSEGV and armed is not None and armed[2] and address == proc.state.pc:
            self._fault = (proc.pid, "exec-trap", address)
        elif signo == abi.SIGSEGV and armed is not None and armed[0] & 3 == 3 and armed[1] & 3 != 3:
            self._fault = (proc.pid, "trap", address)
        else:
            self._fault = (proc.pid, signo, address)
        return True

    def _watch_hit(self, address: int, size: int):
        for kind, addr, length in self.watchpoints:
            if address < addr + length and addr < address + size:
                return kind, addr
        return None

    def _arm(self, proc, trap_exec: bool) -> None:
        """Take permissions away from watched pages (and breakpoint pages' exec)."""
        if not (self.watchpoints or trap_exec and self.breakpoints) or not self._debugged(proc):
            return
        take: dict[int, int] = {}
        for kind, addr, length in self.watchpoints:
            bits = abi.PROT_WRITE if kind == WRITE else abi.PROT_READ | abi.PROT_WRITE
            for page in range(addr // PAGE, (addr + length - 1) // PAGE + 1):
                take[page] = take.get(page, 0) | bits
        if trap_exec:
            for page in self._bp_pages():
                take[page] = take.get(page, 0) | abi.PROT_EXEC
        mem = proc.mem
        for page, bits in take.items():
            if not mem.is_mapped(page * PAGE, PAGE):
                continue
            original = mem.prot_at(page * PAGE)      # the guest's protection, not copy-on-write's
            armed = original & ~bits
            mem.protect(page * PAGE, PAGE, armed)
            # (original, armed, exec trapped)
            self._armed[page] = (original, armed, bool(bits & abi.PROT_EXEC and original & abi.PROT_EXEC))

    def _disarm(self, proc) -> None:
        if not self._armed:
            return
        mem = proc.mem
        for page, (original, armed, _) in self._armed.items():
            # a page the guest mprotect-ed meanwhile keeps the guest's choice
            if mem is not None and mem.is_mapped(page * PAGE, PAGE) and mem.prot_at(page * PAGE) == armed:
                mem.protect(page * PAGE, PAGE, original)
        self._armed.clear()

    def rearm(self, proc) -> None:
        """Arm again after a system call (the mappings may have changed meanwhile)."""
        if proc.mem is not None and proc.alive:
            self._arm(proc, self._trap_exec)

    def _exit_event(self) -> Event:
        result = self.sched.result
        return Event("exited", self.kernel.init.pid, status=result.wait_status if result else 0)

    # --- snapshots and reverse -------------------------------------------------------
    def _maybe_snapshot(self) -> None:
        if (self.now >= self.snapshots[-1][0] + self.snapshot_every
                and time.perf_counter() - self._snapshot_at >= self._snapshot_seconds / SNAPSHOT_COST):
            self._take_snapshot()

    def _take_snapshot(self) -> None:
        muted = [(f, f.fd) for f, _ in self._muted]
        for f, fd in self._muted:                # a snapshot keeps the real descriptors
            f.fd = fd
        start = time.perf_counter()
        self.snapshots.append((self.now, _copy(self.sched, self.shared)))
        self._snapshot_at = time.perf_counter()
        self._snapshot_seconds = self._snapshot_at - start
        for f, fd in muted:
            f.fd = fd
        if len(self.snapshots) > MAX_SNAPSHOTS:
            # drop the older snapshot whose neighbours are closest: spacing grows with age
            snaps = self.snapshots
            candidates = range(1, len(snaps) - RECENT_SNAPSHOTS)
            i = min(candidates, key=lambda k: snaps[k + 1][0] - snaps[k - 1][0])
            del snaps[i]

    def goto(self, count: int) -> None:
        """Put the machine in the state it had after `count` instructions (count <= now)."""
        count = max(0, count)
        at, snap = max((s for s in self.snapshots if s[0] <= count), key=lambda s: s[0])
        self._restore(snap)
        self._stepped = self._kernel_hit = None
        self._replaying = True
        try:
            with self._quiet():
                while self.now < count:
                    if self.sched.advance(min(count - self.now, QUANTUM)) == 0 and self.sched.current() is None:
                        break
                    self._maybe_snapshot()
        finally:
            self._replaying = False

    @contextlib.contextmanager
    def _quiet(self):
        """Re-execution of the past writes nothing to the terminal: the guest's
        own stdio descriptors point at /dev/null meanwhile."""
        from ncpu.arm64.linux.files import HostFile
        stdio = {id(f): f for proc in self.kernel.procs.values() if proc.fds is not None
                 for f in proc.fds.files.values() if isinstance(f, HostFile) and not f.owned and f.writable}
        null = os.open(os.devnull, os.O_WRONLY)
        self._muted = [(f, f.fd) for f in stdio.values()]
        try:
            for f in stdio.values():
                f.fd = null
            yield
        finally:
            for f, fd in self._muted:
                f.fd = fd
            self._muted = []
            os.close(null)

    def rewrite_history(self) -> None:
        """The debugger changed registers or memory: later snapshots describe a
        future that will not happen any more; now becomes the newest point."""
        self.snapshots = [s for s in self.snapshots if s[0] < self.now]
        self._take_snapshot()

    def _restore(self, snap: Scheduler) -> None:
        self.sched = _copy(snap, self.shared)
        self.sched.fault_hook = self._on_fault
        self.kernel.watcher = self.watch_kernel

    def reverse(self, step_tid: int | None = None) -> Event:
        """Run backwards: to the previous instruction (step_tid given), or to the
        last breakpoint or watchpoint hit before now (history-begin at count 0)."""
        now = self.now
        if now == 0:
            return Event("history-begin", self.current_tid())
        if step_tid is not None:
            self.goto(now - 1)
            return Event("step", self.current_tid())
        end = now
        while end > 0:
            start = max(s[0] for s in self.snapshots if s[0] < end)
            hit = self._last_hit(start, end)
            if hit is not None:
                self.goto(hit[0])
                return hit[1]
            end = start
        self.goto(0)
        return Event("history-begin", self.current_tid())

    def _last_hit(self, start: int, end: int):
        """(count, event) of the last stop in [start, end) when running forward, or None."""
        self.goto(start)
        with self._quiet():
            return self._scan(end)

    def _scan(self, end: int):
        """Run forward to `end`, noting each point where a forward run would have
        stopped; chunked outside breakpoint pages, as in resume."""
        last = None
        while self.now < end:
            proc = self.sched.current()
            if proc is None:
                break
            at_bp = proc.state.pc in self.breakpoints and self._debugged(proc)
            if at_bp:
                last = (self.now, Event("breakpoint", proc.pid))
            limit = min(CHUNK, end - self.now)
            _, event = self._advance(proc, limit, skip=proc.state.pc if at_bp else None)
            if event is not None:
                last = (self.now, event)              # the instruction has not retired yet
                if event.kind == "watch" and event.syscall:
                    self._stepped = None              # (the call has completed)
                elif event.kind == "watch":
                    self.sched.advance(1)             # the access itself, disarmed
                else:                                 # a signal: the kernel takes it, as it did
                    self.pass_signal[proc.pid] = proc.state.pc
                    self._advance(proc, 1)
        return last


class KernelWatch:
    """Kernel.watcher of a debugged run: disarms watched pages while a system
    call runs, and turns the call's copies that touch a watched range into a hit."""

    def __init__(self, target: Target):
        self.target = target

    def enter(self, proc, nr, args) -> None:
        t = self.target
        if t._armed and t._debugged(proc):
            t._disarm(proc)
            self.rearm = proc
        else:
            self.rearm = None

    def leave(self, proc, nr, args) -> None:
        if self.rearm is not None:
            self.rearm, proc = None, self.rearm
            self.target.rearm(proc)

    def access(self, proc, addr: int, data: bytes, write: bool) -> None:
        t = self.target
        if t._replaying or t._kernel_hit is not None or not t.watchpoints or not t._debugged(proc):
            return
        for kind, start, length in t.watchpoints:
            if addr < start + length and start < addr + len(data) and (kind == ACCESS or (kind == WRITE) == write):
                t._kernel_hit = Event("watch", proc.pid, abi.SIGTRAP, start, kind, syscall=True)
                t.kernel.pause = True                # the scheduler returns right after this call
                return


def _access_size(proc) -> int:
    """Bytes the load/store at proc's pc accesses, read from its disassembly
    (the CPU reports a fault's address, not its size)."""
    try:
        pc = proc.state.pc
        text = disassemble(proc.mem.read(pc, 4), pc)[0][1]
    except Exception:
        return ACCESS_SPAN
    return _access_size_of(text)


def _access_size_of(text: str) -> int:
    """Bytes a load/store accesses, from its disassembly."""
    mnemonic, _, operands = text.partition(" ")
    registers = [r.strip() for r in operands.split("[")[0].split(",") if r.strip()]
    if mnemonic.startswith(("stx", "stlx")):
        registers = registers[1:]                  # the first register is the status result
    if not registers or registers[0][:1] not in REGISTER_BYTES or mnemonic.startswith(("ld1", "st1", "ld2",
                                                                                        "st2", "ld3", "st3",
                                                                                        "ld4", "st4", "dc")):
        return ACCESS_SPAN
    size = REGISTER_BYTES[registers[0][0]]
    if mnemonic.startswith(("ldp", "stp", "ldnp", "stnp", "ldxp", "ldaxp", "stxp", "stlxp", "casp")):
        size *= 2
    if mnemonic in ("ldrsw", "ldursw", "ldpsw"):
        size = 8 if mnemonic == "ldpsw" else 4
    elif mnemonic.endswith("b"):                      # ldrb, ldrsb, stlrb, ldaddb, swpb...
        size = 1
    elif mnemonic.endswith("h"):
        size = 2
    return size


def _copy(sched: Scheduler, shared=()) -> Scheduler:
    """A deep copy of the scheduler and kernel; address spaces copied by Memory.fork."""
    kernel = sched.kernel
    memo = {id(kernel.api): kernel.api, id(kernel.on_message): kernel.on_message,
            id(sched.fault_hook): None}
    memo.update((id(obj), obj) for obj in shared)
    for proc in list(kernel.procs.values()) + list(kernel.tasks.values()):
        mem = proc.group.mem
        if mem is not None and id(mem) not in memo:
            memo[id(mem)] = mem.fork()
    copied = copy.deepcopy(sched, memo)
    copied.fault_hook = None
    return copied
