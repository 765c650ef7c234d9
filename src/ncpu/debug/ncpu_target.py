"""The debugger over the nCPU machine: step, breakpoints by label, watchpoints on memory words,
reverse execution and a trace with disassembly (`ncpu debug asm FILE -ex CMD ...`).

The same idea as target.py for ARM64, on the reference engine (the
readable semantics, machine/reference.py): a point in a run is its step
count; snapshots (state copies) every SNAPSHOT_EVERY steps plus
deterministic re-execution reach any earlier count.  A breakpoint stops
before its instruction; a watchpoint on a memory word stops after an
instruction that wrote it (STORE, PUSH, CALL), with the old and new value,
as gdb reports a write watchpoint.
"""

from __future__ import annotations

from dataclasses import dataclass

from ncpu.isa.assembler import Program
from ncpu.isa.disassembler import format_instruction
from ncpu.machine import reference
from ncpu.machine.state import MachineState

SNAPSHOT_EVERY = 1000


@dataclass
class Stop:
    kind: str                      # step, breakpoint, watch, halted, budget, history-begin
    steps: int
    pc: int
    address: int | None = None     # watch: the word written
    old: int | None = None
    new: int | None = None


class NcpuTarget:
    def __init__(self, program: Program, state: MachineState, max_steps: int):
        self.program = program
        self.decoded = reference.decode_program(program.words)
        self.by_address = {pc: name for name, pc in program.labels.items()}
        self.state = state.copy()
        self.max_steps = max_steps
        self.breakpoints: set[int] = set()
        self.watchpoints: set[int] = set()
        self.snapshots = [self.state.copy()]           # snapshots[k] is the state at step k * SNAPSHOT_EVERY

    # --- names -----------------------------------------------------------------------
    def address_of(self, text: str) -> int:
        """A label (case-insensitive) or a number: the pc it names; ValueError if neither."""
        labels = {k.upper(): v for k, v in self.program.labels.items()}
        if text.upper() in labels:
            return labels[text.upper()]
        return int(text, 0)

    def where(self, pc: int) -> str:
        best = max((a for a in self.by_address if a <= pc), default=None)
        if best is None:
            return str(pc)
        off = pc - best
        return self.by_address[best] + (f"+{off}" if off else "")

    def text(self, pc: int) -> str:
        if not 0 <= pc < len(self.decoded):
            return "(outside the program)"
        return format_instruction(self.decoded[pc], {v: k for k, v in self.program.labels.items()})

    # --- forward -----------------------------------------------------------------------
    def _written(self) -> int | None:
        """The memory word the next instruction writes, if it writes one."""
        s = self.state
        if not 0 <= s.pc < len(self.decoded):
            return None
        ins = self.decoded[s.pc]
        size = len(s.memory)
        name = ins.op.mnemonic
        if name == "STORE":
            return (s.registers[ins.rs1] + ins.imm) % size
        if name in ("PUSH", "CALL"):
            return (s.sp - 1) % size
        return None

    def _step(self) -> Stop | None:
        """One instruction; a Stop for a watchpoint hit, halt or budget."""
        s = self.state
        if s.halted:
            return Stop("halted", s.steps, s.pc)
        if s.steps >= self.max_steps:
            return Stop("budget", s.steps, s.pc)
        addr = self._written()
        old = s.memory[addr] if addr is not None else None
        reference.step(self.decoded, s)
        if s.steps % SNAPSHOT_EVERY == 0 and s.steps // SNAPSHOT_EVERY == len(self.snapshots):
            self.snapshots.append(s.copy())
        if addr is not None and addr in self.watchpoints:
            return Stop("watch", s.steps, s.pc, addr, old, s.memory[addr])
        if s.halted:
            return Stop("halted", s.steps, s.pc)
        return None

    def step(self, n: int = 1) -> Stop:
        for _ in range(n):
            stop = self._step()
            if stop is not None:
                return stop
        return Stop("step", self.state.steps, self.state.pc)

    def resume(self) -> Stop:
        first = True
        while True:
            s = self.state
            if not first and s.pc in self.breakpoints and not s.halted:
                return Stop("breakpoint", s.steps, s.pc)
            first = False
            stop = self._step()
            if stop is not None:
                return stop

    # --- backward ----------------------------------------------------------------------
    def goto(self, count: int) -> None:
        count = max(0, count)
        k = min(count // SNAPSHOT_EVERY, len(self.snapshots) - 1)
        self.state = self.snapshots[k].copy()
        while self.state.steps < count and not self.state.halted:
            reference.step(self.decoded, self.state)

    def reverse_step(self, n: int = 1) -> Stop:
        now = self.state.steps
        if now == 0:
            return Stop("history-begin", 0, self.state.pc)
        self.goto(now - n)
        return Stop("step", self.state.steps, self.state.pc)

    def reverse_continue(self) -> Stop:
        """Back to the last breakpoint or watchpoint hit before now (history-begin if none)."""
        end = self.state.steps
        self.goto(0)
        last = None
        while self.state.steps < end:
            s = self.state
            if s.pc in self.breakpoints and s.steps < end and s.steps != end:
                last = Stop("breakpoint", s.steps, s.pc)
            stop = self._step()
            if stop is not None and stop.kind == "watch" and self.state.steps < end:
                last = stop
            elif stop is not None and stop.kind == "watch" and self.state.steps == end:
                pass                                  # the hit we are standing at
            elif stop is not None:
                break
        if last is None:
            self.goto(0)
            return Stop("history-begin", 0, self.state.pc)
        self.goto(last.steps)
        return last

    # --- trace ----------------------------------------------------------------------------
    def trace(self, n: int, emit) -> Stop:
        """Run n instructions (stopping as step does), each reported to emit(line dict)."""
        for _ in range(n):
            before = self.state.copy()
            stop = self._step()
            if self.state.steps == before.steps:
                return stop
            after = self.state
            changed = {f"R{k}": v for k, (u, v) in enumerate(zip(before.registers, after.registers)) if u != v}
            if after.sp != before.sp:
                changed["sp"] = after.sp
            mem = {a: after.memory[a] for a in range(len(after.memory)) if after.memory[a] != before.memory[a]} \
                if self.decoded[before.pc].op.mnemonic in ("STORE", "PUSH", "CALL") else {}
            emit({"steps": after.steps, "pc": before.pc, "where": self.where(before.pc),
                  "text": self.text(before.pc), "regs": changed, "mem": mem,
                  "flags": "".join(f for f, on in after.flags.items() if on)})
            if stop is not None:
                return stop
        return Stop("step", self.state.steps, self.state.pc)


def format_trace(rec: dict) -> str:
    regs = " ".join(f"{k}={v}" for k, v in rec["regs"].items())
    mem = " ".join(f"[{a}]={v}" for a, v in rec["mem"].items())
    return f"{rec['steps']:>8} {rec['pc']:>5} {rec['where']:<14} {rec['text']:<22} {regs} {mem}".rstrip()
