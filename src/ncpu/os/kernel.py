"""The neurOS kernel: processes in time slices on an nCPU engine, system calls
through the SYS trap, virtual memory in page frames, pipes and files.

One tick is one time slice: the scheduler picks a ready process, the kernel
builds its flat memory from its frames, the engine runs it until it traps
on a SYS, halts, or spends the slice (the timer interrupt), and the kernel
writes its memory back. The events of a slice raise interrupt lines; the
interrupt controller (a policy) says which pending line to service next.
When the policies decide memory-hierarchy questions (the neural ones do),
or the statistics are asked for (`memory_stats`), each slice is also
replayed on the reference engine to record its data accesses, which go
through the simulated TLB, data cache and prefetcher (`ncpu.os.hierarchy`).
The replay costs several times the slice itself, so it is not done when
nothing reads it.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import numpy as np

from ncpu.isa import syscalls as sc
from ncpu.isa.semantics import wrap
from ncpu.machine.engines import get_engine
from ncpu.machine.reference import decode_program
from ncpu.machine.state import MachineState
from ncpu.machine.traps import complete, complete_exit, read_bytes, write_bytes
from ncpu.os.hierarchy import Hierarchy, HierarchyConfig
from ncpu.os.files import BLOCK, ConsoleIn, ConsoleOut, FileSystem, OpenFile, Pipe, PipeEnd
from ncpu.os.memory import PAGE_WORDS, UNMAPPED, AddressSpace, OutOfFrames, PhysicalMemory
from ncpu.os.policies import LINES, ClassicalPolicies
from ncpu.os.process import Process, Status
from ncpu.os.trace import run_traced

PAGE_FAULT, SYSCALL, TIMER, WAKEUP = (LINES.index(name) for name in LINES)
MAX_NAME = 64  # longest file name `open` reads


@dataclass
class Image:
    """A program as the kernel loads it: its words and its initial machine
    (registers and memory from the file's header), and its step budget."""

    name: str
    words: list[int]
    state: MachineState
    max_steps: int
    arrival: int = 0  # the tick its process starts (a workload's later arrivals)


class Kernel:
    def __init__(self, images: list[Image], policies=None, engine: str = "compute", slice_steps: int = 200,
                 frames: int = 1024, stdin: bytes = b"", max_ticks: int = 1_000_000,
                 hierarchy: HierarchyConfig = HierarchyConfig(), record: bool = False,
                 memory_stats: bool | None = None, **engine_options):
        if not images:
            raise ValueError("a workload needs at least one program")
        self.images = images
        self.policies = policies if policies is not None else ClassicalPolicies()
        self.engine = get_engine(engine)
        self.engine_options = engine_options
        self.slice_steps = slice_steps
        self.memory = PhysicalMemory(frames)
        self.fs = FileSystem()
        self.stdin = ConsoleIn(bytearray(stdin))
        self.console = bytearray()  # everything written to fds 1 and 2, in order
        self.max_ticks = max_ticks
        self.processes: dict[int, Process] = {}
        self.queue: list[int] = []  # ready processes in arrival order (round robin rotates it)
        self.tick = 0
        self.stats: Counter = Counter()
        self.peak_frames = 0
        self.hierarchy = Hierarchy(self.policies, hierarchy)
        # None: simulate the hierarchy only when the policies decide in it
        self.memory_stats = record or (self.policies.decides_memory if memory_stats is None else memory_stats)
        self.decoded: dict[int, list] = {}  # program index -> its decoded words, for the replay
        self.trace: list[tuple] = [] if record else None  # (pid, program, pc, address, kind, mem_size) if recording
        self.arrivals = sorted((image.arrival, index) for index, image in enumerate(images))
        getattr(self.policies, "attach", lambda kernel: None)(self)
        self._arrive()

    def _arrive(self) -> None:
        """Start the processes of images whose arrival tick has come."""
        while self.arrivals and self.arrivals[0][0] <= self.tick:
            self.spawn(self.arrivals.pop(0)[1], parent=0)

    # -- processes -------------------------------------------------------------

    def spawn(self, index: int, parent: int) -> Process:
        image = self.images[index]
        pid = len(self.processes) + 1
        state = image.state.copy()
        space = AddressSpace(len(state.memory))
        process = Process(pid, parent, index, image.words, state, space, {}, created_tick=self.tick)
        process.fds = {0: self.stdin, 1: ConsoleOut(process.stdout, self.console),
                       2: ConsoleOut(process.stderr, self.console)}
        self.processes[pid] = process
        self.policies.heap_alloc(pid, len(space.table) + 1)
        self._store(process, np.zeros(len(state.memory), np.int64), np.array(state.memory, np.int64))
        state.memory = []
        self.queue.append(pid)
        return process

    def _finish(self, p: Process, reason: str = "") -> None:
        for fd in list(p.fds):
            p.fds.pop(fd).closed()
        for frame in p.space.mapped():
            self.memory.free(int(p.space.table[frame]))
        p.space.table[:] = UNMAPPED
        self.policies.heap_free(p.pid)
        p.reason = reason or p.reason
        if p.pid in self.policies.flagged and p.reason not in ("step budget", "tick limit"):
            self.policies.overrides["watchdog"] += 1  # a false alarm: only the budget ends a process
        p.finished_tick = self.tick
        parent = self.processes.get(p.parent)
        p.status = Status.ZOMBIE if parent is not None and parent.status not in (Status.ZOMBIE, Status.DONE) \
            else Status.DONE
        for child in self.processes.values():  # orphans are reaped by the kernel
            if child.parent == p.pid and child.status == Status.ZOMBIE:
                child.status = Status.DONE
        if p.pid in self.queue:
            self.queue.remove(p.pid)

    # -- memory ----------------------------------------------------------------

    def _load(self, p: Process) -> np.ndarray:
        """The process's flat memory, every mapped page through the MMU policy."""
        size = p.space.mem_size
        flat = np.zeros(len(p.space.table) * PAGE_WORDS, np.int64)
        vpns = np.arange(len(p.space.table))
        frames = self.policies.translate(p.space.table, vpns)
        for vpn, frame in zip(vpns, frames):
            if frame != UNMAPPED:
                flat[vpn * PAGE_WORDS:(vpn + 1) * PAGE_WORDS] = self.memory.words[frame]
        return flat[:size]

    def _store(self, p: Process, before: np.ndarray, after: np.ndarray) -> None:
        """Write back the words that changed; a write to an unmapped page faults."""
        changed = np.nonzero(before != after)[0]
        if not len(changed):
            return
        for vpn in np.unique(changed // PAGE_WORDS):
            if p.space.table[vpn] == UNMAPPED:
                p.space.table[vpn] = self.policies.allocate(self.memory)
                self.memory.used[p.space.table[vpn]] = True
                p.page_faults += 1
                self.stats["page_faults"] += 1
        frames = p.space.table[changed // PAGE_WORDS]
        self.memory.words[frames, changed % PAGE_WORDS] = after[changed]
        self.peak_frames = max(self.peak_frames, self.memory.in_use)

    # -- the loop --------------------------------------------------------------

    def run(self) -> Kernel:
        last = None
        while self.tick < self.max_ticks:
            self._arrive()
            live = [p for p in self.processes.values() if p.status in (Status.READY, Status.BLOCKED)]
            if not live and not self.arrivals:
                break
            self.tick += 1
            self._retry_blocked()
            ready = [self.processes[pid] for pid in self.queue if self.processes[pid].status == Status.READY]
            if not ready:
                if not any(p.wake_tick for p in live if p.status == Status.BLOCKED):
                    for p in live:  # nothing can ever wake them
                        self._finish(p, "deadlock")
                self.stats["idle_ticks"] += 1
                continue
            p = ready[self.policies.pick(ready)]
            self.queue.remove(p.pid)
            self.queue.append(p.pid)
            if last is not None and last != p.pid:
                self.stats["context_switches"] += 1
            last = p.pid
            self._slice(p)
        for p in self.processes.values():
            if p.status in (Status.READY, Status.BLOCKED):
                self._finish(p, "tick limit")
        return self

    def _retry_blocked(self) -> None:
        for pid in list(self.queue):
            p = self.processes[pid]
            if p.status == Status.BLOCKED:
                if p.wake_tick and p.wake_tick <= self.tick:
                    self._interrupts(p, 1 << WAKEUP)
                else:
                    self._syscall(p)

    def _slice(self, p: Process) -> None:
        image = self.images[p.program]
        budget = min(self.slice_steps, image.max_steps - p.state.steps)
        if budget <= 0:
            self._finish(p, "step budget")
            return
        before = self._load(p)
        state = p.state
        state.memory = before.tolist()
        replay_from = state.copy() if self.memory_stats else None
        after = self.engine.run(p.words, state, budget, **self.engine_options)
        if self.memory_stats:
            self._memory_accesses(p, replay_from, budget, after)
        self.stats["slices"] += 1
        self.stats["instructions"] += after.steps - p.state.steps
        p.slices += 1
        p.state = after
        pending = 0
        pages_before = p.page_faults
        memory = np.array(after.memory, np.int64)
        try:
            self._store(p, before, memory)
        except OutOfFrames:
            after.memory = []
            self._finish(p, "out of memory")
            return
        if not after.halted:
            self.policies.watch(p, memory)  # reports only: the budget below still decides
        if p.page_faults > pages_before:
            pending |= 1 << PAGE_FAULT
        if after.trapped:
            pending |= 1 << SYSCALL
        elif not after.halted:
            pending |= 1 << TIMER
        after.memory = []
        self._interrupts(p, pending)
        if p.status in (Status.READY, Status.BLOCKED) and p.state.halted:
            self._finish(p, "halted")
        elif p.status == Status.READY and not p.state.trapped and p.state.steps >= image.max_steps:
            self._finish(p, "step budget")

    def _memory_accesses(self, p: Process, start: MachineState, budget: int, after: MachineState) -> None:
        """Replay the slice on the reference engine for its accesses; feed them to the hierarchy."""
        if p.program not in self.decoded:
            self.decoded[p.program] = decode_program(p.words)
        replayed, accesses = run_traced(p.words, start, budget, self.decoded[p.program])
        if (replayed.registers, replayed.pc, replayed.sp, replayed.steps, replayed.memory) != \
                (after.registers, after.pc, after.sp, after.steps, after.memory):
            raise RuntimeError(f"the reference replay of pid {p.pid}'s slice disagrees with the engine")
        if self.trace is not None:
            self.trace.extend((p.pid, p.program, pc, address, kind, p.space.mem_size) for pc, address, kind in accesses)
        self.hierarchy.slice(p.pid, p.program, p.space.mem_size, accesses)

    def _interrupts(self, p: Process, pending: int) -> None:
        """Service pending lines in the order the interrupt controller gives."""
        mask = 0
        while pending:
            line = self.policies.interrupt(pending, mask)
            if line < 0:
                break
            pending &= ~(1 << line)
            self.stats[f"irq_{LINES[line]}"] += 1
            if line == SYSCALL:
                self._syscall(p)
            elif line == WAKEUP:
                self._syscall(p)
            # PAGE_FAULT: the frames were allocated when the slice was written
            # back; TIMER: the slice is over, the scheduler picks next.

    # -- system calls ----------------------------------------------------------

    def _syscall(self, p: Process) -> None:
        """Service the call p is trapped on; it stays BLOCKED if it must wait."""
        before = self._load(p)
        state = p.state
        state.memory = before.tolist()
        call = sc.BY_NUMBER.get(state.registers[0])
        done = self._service(p, state)
        if done:
            p.syscalls += 1
            self.stats["syscalls"] += 1
            self.stats[f"sys_{call.name if call else 'unknown'}"] += 1
        p.status = p.status if p.status not in (Status.READY, Status.BLOCKED) else \
            (Status.READY if done else Status.BLOCKED)
        if p.status in (Status.ZOMBIE, Status.DONE):
            state.memory = []
            return
        try:
            self._store(p, before, np.array(state.memory, np.int64))
        except OutOfFrames:
            state.memory = []
            self._finish(p, "out of memory")
            return
        state.memory = []

    def _service(self, p: Process, state: MachineState) -> bool:
        number, a, b, c = state.registers[:4]
        if number == sc.EXIT:
            p.exit_status = a
            complete_exit(state)
            self._finish(p)
            return True
        if number in (sc.WRITE, sc.READ):
            target = p.fds.get(a)
            if target is None or c < 0:
                complete(state, -1)
                return True
            if number == sc.WRITE:
                complete(state, target.write(read_bytes(state, b, c)))
                return True
            data = target.read(c)
            if data is BLOCK:
                return False
            if isinstance(data, int):
                complete(state, data)
                return True
            write_bytes(state, b, data)
            complete(state, len(data))
            return True
        if number == sc.SLEEP:
            if not p.wake_tick:
                p.wake_tick = self.tick + max(a, 0)
            if p.wake_tick > self.tick:
                return False
            p.wake_tick = 0
            complete(state, 0)
            return True
        if number == sc.FORK:
            return self._fork(p, state)
        if number == sc.WAIT:
            return self._wait(p, state, a, b)
        if number == sc.GETPID:
            complete(state, p.pid)
            return True
        if number == sc.PIPE:
            pipe = Pipe()
            ends = (PipeEnd(pipe, False), PipeEnd(pipe, True))
            fds = [self._add_fd(p, end) for end in ends]
            size = len(state.memory)
            state.memory[a % size], state.memory[(a + 1) % size] = fds
            complete(state, 0)
            return True
        if number == sc.OPEN:
            complete(state, self._open(p, state, a, b))
            return True
        if number == sc.CLOSE:
            target = p.fds.pop(a, None)
            if target is not None:
                target.closed()
            complete(state, 0 if target is not None else -1)
            return True
        if number == sc.SPAWN:
            if not 0 <= a < len(self.images):
                complete(state, -1)
                return True
            complete(state, self.spawn(a, parent=p.pid).pid)
            return True
        complete(state, -1)
        return True

    def _add_fd(self, p: Process, target) -> int:
        fd = 3
        while fd in p.fds:
            fd += 1
        target.opened()
        p.fds[fd] = target
        return fd

    def _open(self, p: Process, state: MachineState, address: int, mode: int) -> int:
        raw = read_bytes(state, address, MAX_NAME)
        name = raw.split(b"\0", 1)[0].decode("latin-1")
        if mode not in (0, 1, 2) or not name:
            return -1
        if mode == 0 and name not in self.fs.files:
            return -1
        if mode == 1 or name not in self.fs.files:
            self.fs.files[name] = bytearray()
        return self._add_fd(p, OpenFile(self.fs, name, writing=mode != 0))

    def _fork(self, p: Process, state: MachineState) -> bool:
        child_pid = len(self.processes) + 1
        child_state = state.copy()
        child_state.memory = []
        complete(child_state, 0)
        child = Process(child_pid, p.pid, p.program, p.words, child_state, AddressSpace(p.space.mem_size), {},
                        created_tick=self.tick)
        for fd, target in p.fds.items():
            if isinstance(target, ConsoleOut):
                target = ConsoleOut(child.stdout if fd == 1 else child.stderr, self.console)
            target.opened()
            child.fds[fd] = target
        self.processes[child_pid] = child
        self.policies.heap_alloc(child_pid, len(child.space.table) + 1)
        flat = np.array(state.memory, np.int64)
        try:
            self._store(child, np.zeros(len(flat), np.int64), flat)
        except OutOfFrames:
            self._finish(child, "out of memory")
            complete(state, -1)
            return True
        self.queue.append(child_pid)
        complete(state, child_pid)
        return True

    def _wait(self, p: Process, state: MachineState, pid: int, address: int) -> bool:
        children = [c for c in self.processes.values() if c.parent == p.pid and c.status != Status.DONE
                    and (pid == -1 or c.pid == pid)]
        if not children:
            complete(state, -1)
            return True
        for child in children:
            if child.status == Status.ZOMBIE:
                child.status = Status.DONE
                if address != -1:
                    state.memory[address % len(state.memory)] = wrap(child.exit_status or 0)
                complete(state, child.pid)
                return True
        return False

    # -- the report ------------------------------------------------------------

    def report(self) -> dict:
        processes = []
        for p in self.processes.values():
            processes.append({
                "pid": p.pid, "parent": p.parent, "program": self.images[p.program].name,
                "exit_status": p.exit_status, "ended": p.reason or "exit", "steps": p.state.steps,
                "stdout": p.stdout.decode("latin-1"), "stderr": p.stderr.decode("latin-1"),
                "slices": p.slices, "syscalls": p.syscalls, "page_faults": p.page_faults,
                "turnaround_ticks": (p.finished_tick or self.tick) - p.created_tick,
                "flagged_at_steps": self.policies.flagged.get(p.pid),
            })
        files = {name: data.decode("latin-1") for name, data in sorted(self.fs.files.items())}
        return {
            "policy": self.policies.name,
            "processes": processes,
            "files": files,
            "stats": {"ticks": self.tick, "peak_frames": self.peak_frames, **dict(sorted(self.stats.items())),
                      **{f"heap_{k}": v for k, v in self.policies.heap.stats().items()}},
            "memory": self.memory_report(),
            "decisions": dict(sorted(self.policies.decisions.items())),
            "overrides": dict(sorted(self.policies.overrides.items())),
        }

    def memory_report(self) -> dict | None:
        """The simulated hierarchy's counts and rates (None when it was not simulated)."""
        if not self.memory_stats:
            return None
        s = self.hierarchy.stats
        rate = lambda a, b: round(a / b, 6) if b else 0.0  # noqa: E731
        return {
            "tlb_hits": s["tlb_hits"], "tlb_misses": s["tlb_misses"],
            "tlb_hit_rate": rate(s["tlb_hits"], s["tlb_hits"] + s["tlb_misses"]),
            "cache_hits": s["cache_hits"], "cache_misses": s["cache_misses"],
            "cache_hit_rate": rate(s["cache_hits"], s["cache_hits"] + s["cache_misses"]),
            "prefetch_issued": s["prefetch_issued"], "prefetch_useful": s["prefetch_useful"],
            "prefetch_accuracy": rate(s["prefetch_useful"], s["prefetch_issued"]),
            "prefetch_coverage": rate(s["prefetch_useful"], s["cache_misses"]),
        }
