"""Servicing `SYS` traps: the one mechanism the bare-machine runner and neurOS share.

An engine that reaches a `SYS` stops before executing it (`trapped`, pc on
the SYS, no step counted). Whoever runs the machine services the call and
then completes the instruction with `complete` (result in R0, Z and N set
from it, pc + 1, one step) or `complete_exit` (halts, pc stays on the SYS,
one step), and runs on. A step budget counts the SYS as one instruction,
so a serviced run takes the same number of steps on every engine.

`Console` is the bare machine's servicer (`ncpu run`): exit, write to
stdout/stderr, read from stdin; every other call returns -1.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from types import ModuleType
from typing import BinaryIO

from ncpu.isa import syscalls as sc
from ncpu.isa.semantics import wrap
from ncpu.machine.state import BatchState, MachineState


def complete(state: MachineState, result: int) -> None:
    """Finish the SYS the machine trapped on, returning `result` in R0."""
    value = wrap(result)
    state.registers[0] = value
    state.z, state.n = value == 0, value < 0
    state.pc += 1
    state.steps += 1
    state.trapped = False


def complete_exit(state: MachineState) -> None:
    """Finish an exit: the machine halts on the SYS (as on a HALT)."""
    state.steps += 1
    state.trapped = False
    state.halted = True


def read_bytes(state: MachineState, address: int, count: int) -> bytes:
    """`count` words from `address` (wrapping as LOAD does), low 8 bits each."""
    size = len(state.memory)
    return bytes(state.memory[(address + i) % size] & 0xFF for i in range(count))


def write_bytes(state: MachineState, address: int, data: bytes) -> None:
    size = len(state.memory)
    for i, byte in enumerate(data):
        state.memory[(address + i) % size] = byte


@dataclass
class Console:
    """The bare machine's system calls: exit, write (fd 1 and 2), read (fd 0).

    Output is collected in `stdout`/`stderr` (and passed to `echo` as it is
    written, when given); `stdin` is consumed by reads: bytes, or a binary
    stream read as the program asks (a read returns what is available, at
    least one byte until the end of input).
    """

    stdin: bytes | BinaryIO = b""
    stdout: bytearray = field(default_factory=bytearray)
    stderr: bytearray = field(default_factory=bytearray)
    exit_status: int | None = None
    echo: Callable[[int, bytes], None] | None = None
    calls: int = 0

    def __call__(self, state: MachineState) -> None:
        self.calls += 1
        number, a, b, count = state.registers[:4]
        if number == sc.EXIT:
            self.exit_status = a
            complete_exit(state)
            return
        if number == sc.WRITE and a in (sc.STDOUT, sc.STDERR) and count >= 0:
            data = read_bytes(state, b, count)
            (self.stdout if a == sc.STDOUT else self.stderr).extend(data)
            if self.echo is not None:
                self.echo(a, data)
            complete(state, count)
            return
        if number == sc.READ and a == sc.STDIN and count >= 0:
            data = self._input(count)
            write_bytes(state, b, data)
            complete(state, len(data))
            return
        complete(state, -1)

    def _input(self, count: int) -> bytes:
        if isinstance(self.stdin, (bytes, bytearray)):
            data, self.stdin = bytes(self.stdin[:count]), self.stdin[count:]
            return data
        if count == 0:
            return b""
        read = getattr(self.stdin, "read1", None) or self.stdin.read
        return read(count)


Servicer = Callable[[MachineState], None]


def run_serviced(engine: ModuleType, words, state: MachineState, max_steps: int, servicer: Servicer,
                 **engine_options) -> MachineState:
    """`engine.run` with every trap serviced, until the machine halts or
    `max_steps` instructions (SYS included) have run; a new state."""
    budget = state.steps + max(max_steps, 0)
    current = state.copy()
    while not current.halted:
        if current.trapped:
            if current.steps >= budget:
                break
            servicer(current)
            continue
        current = engine.run(words, current, budget - current.steps, **engine_options)
        if not current.trapped:
            break
    return current


def run_batch_serviced(engine: ModuleType, words, batch: BatchState, max_steps: int,
                       servicers: list[Servicer], **engine_options) -> BatchState:
    """`engine.run_batch` with machine i's traps serviced by `servicers[i]`:
    a trapped machine stops while the others run on; serviced machines run
    again together with those that have the same budget left."""
    budgets = batch.steps + max(max_steps, 0)
    current = engine.run_batch(words, batch, max_steps, **engine_options)
    while True:
        machines = current.unstack()
        waiting = [i for i, m in enumerate(machines) if m.trapped and not m.halted and m.steps < budgets[i]]
        if not waiting:
            return current
        for i in waiting:
            servicers[i](machines[i])
        groups: dict[int, list[int]] = {}
        for i in waiting:
            if not machines[i].halted:
                groups.setdefault(int(budgets[i] - machines[i].steps), []).append(i)
        for left, members in groups.items():
            ran = engine.run_batch(words, BatchState.stack([machines[i] for i in members]), left, **engine_options)
            for j, i in enumerate(members):
                machines[i] = ran.machine(j)
        current = BatchState.stack(machines)
