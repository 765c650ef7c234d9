"""One guest run with the loop's hooks on: the instruction trace every analysis reads.

`run_traced` boots a static AArch64 binary, gives every guest thread a
`Hooks` (arm64/cpu/hooks.py) and hands the rows of the trace ring to
`on_rows(tid, rows)` as they come: int64 rows of (pc, word, instruction
count, x0..x30, sp, nzcv), the registers as they are *before* the
instruction.  Analyses work on those rows with numpy; what an instruction
did is read off them:

* registers written: the row after it differs there (`written`);
* memory accessed: the address from the base register and offset in its
  disassembly, the size from the register it moves (`access`).

stdin is given as bytes (a temporary file the guest reads), the guest's
stdout and stderr are captured unless `stdout` says otherwise.

Which threads are traced: those of the first process (all of them), or with
`follow_children` every thread of every process, forked or exec'd (an
execve gets the new image's CPU hooked at once; `on_image(tid, path)` says
which executable a traced thread runs from then on).  Untraced processes run
at full speed, without hooks.
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from dataclasses import dataclass

import numpy as np

from ncpu.arm64.cpu import disassemble
from ncpu.arm64.cpu.hooks import COL_NZCV, COL_PC, COL_WORD, COL_X0, WIDTH, Hooks
from ncpu.arm64.cpu.state import NZCV
from ncpu.arm64.linux import Machine
from ncpu.arm64.linux.scheduler import QUANTUM, Scheduler

from .target import _access_size_of

__all__ = ["Traced", "run_traced", "Instruction", "instruction", "access", "written", "REG_NAMES",
           "COL_PC", "COL_WORD", "COL_X0", "COL_NZCV", "WIDTH"]

REG_NAMES = [f"x{i}" for i in range(31)] + ["sp", "nzcv"]     # columns COL_X0 ..


@dataclass
class Traced:
    status: int                  # what ncpu would exit with
    wait_status: int
    instructions: int
    reason: str                  # exit, signal, budget, deadlock
    stdout: bytes
    stderr: bytes
    fault_pc: int | None = None  # pc of the instruction a fatal signal stopped
    final: dict | None = None    # tid -> a row (only the register columns set) of its last registers


def run_traced(binary: str, argv: list[str], *, stdin: bytes = b"", on_rows=None, regs: bool = True,
               breakpoints=(), on_break=None, on_call=None, max_steps: int = 10**9, root: str | None = None,
               ring: int = 1 << 14, env: dict | None = None, setup=None, seed: int = 0,
               follow_children: bool = False, on_image=None) -> Traced:
    """Run binary to its end with hooks on every thread (see the module doc).

    on_break(cpu, pc, proc) is called at each breakpoint (return True to end
    the run there); on_call(strace.Call) after each system call; setup(kernel)
    before the first instruction (it may set kernel.watcher: the rows up to
    each system call reach on_rows before the watcher hears of the call).
    """
    tmp = tempfile.mkdtemp(prefix="ncpu-trace-")
    try:
        paths = [os.path.join(tmp, n) for n in ("stdin", "stdout", "stderr")]
        with open(paths[0], "wb") as f:
            f.write(stdin)
        fds = [os.open(paths[0], os.O_RDONLY), os.open(paths[1], os.O_WRONLY | os.O_CREAT),
               os.open(paths[2], os.O_WRONLY | os.O_CREAT)]
        try:
            guest_root = root if root is not None else os.path.join(tmp, "root")
            os.makedirs(guest_root, exist_ok=True)
            machine = Machine(root=guest_root, max_steps=max_steps, stdio=tuple(fds), seed=seed)
            kernel = machine.boot(guest_root, binary, argv, env if env is not None else {})
            hooked: dict[int, Hooks] = {}
            if on_call is not None:
                from . import strace

                def call(c):                      # the rows up to the svc reach on_rows first
                    for h in hooked.values():
                        h.flush()
                    on_call(c)
                strace.attach(kernel, call)
            if setup is not None:
                setup(kernel)
            if kernel.watcher is not None:              # it sees the rows up to the svc first
                kernel.watcher = _Flushed(kernel.watcher, hooked)
            result, fault_pc, final = _drive(kernel, max_steps, on_rows, regs, breakpoints, on_break, ring,
                                             hooked, follow_children, on_image)
        finally:
            for fd in fds:
                os.close(fd)
        with open(paths[1], "rb") as f:
            out = f.read()
        with open(paths[2], "rb") as f:
            err = f.read()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return Traced(result.status, result.wait_status, result.instructions, result.reason, out, err, fault_pc, final)


class _Flushed:
    """A Kernel.watcher that the trace rows reach before each system call's copies."""

    def __init__(self, inner, hooked: dict):
        self.inner, self.hooked = inner, hooked
        self.access, self.leave = inner.access, inner.leave

    def enter(self, proc, nr, args) -> None:
        for h in self.hooked.values():
            h.flush()
        self.inner.enter(proc, nr, args)


def _drive(kernel, max_steps, on_rows, regs, breakpoints, on_break, ring, hooked, follow_children=False,
           on_image=None):
    sched = Scheduler(kernel, max_steps)
    stop = [False]
    fault_pc = [None]
    final: dict[int, np.ndarray] = {}
    fault = kernel.fault

    def on_fault(proc, *args, **kwargs):         # note where a guest fault happened
        if proc is kernel.init or proc.group is kernel.init.group:
            fault_pc[0] = proc.state.pc
        return fault(proc, *args, **kwargs)
    kernel.fault = on_fault

    def hooks_for(proc) -> Hooks:
        tid = proc.pid

        def rows(r):
            if on_rows is not None:
                on_rows(tid, r)

        def hit(cpu, pc):
            for h in hooked.values():             # rows before the breakpoint reach on_rows first
                h.flush()
            if on_break(cpu, pc, proc):
                stop[0] = True
                return True
            return False
        return Hooks(trace=on_rows is not None, regs=regs, breakpoints=breakpoints, ring=ring,
                     on_trace=rows, on_break=hit if on_break is not None else (lambda cpu, pc: False))

    def traced(proc) -> bool:
        return follow_children or proc.group is kernel.init.group

    def attach(proc) -> None:
        proc.cpu.hooks = hooked[proc.pid] = hooks_for(proc)
        if on_image is not None:
            on_image(proc.pid, proc.exe_host)

    execve = kernel.execve

    def traced_execve(proc, *args, **kwargs):      # the new image's CPU is hooked before it runs
        execve(proc, *args, **kwargs)
        old = hooked.get(proc.pid)
        if old is not None:
            old.flush()
        if traced(proc) and proc.cpu is not None and proc.cpu.hooks is None:
            attach(proc)
    kernel.execve = traced_execve

    while sched.result is None and not stop[0]:
        proc = sched.current()
        if proc is None:
            break
        if proc.cpu is not None and proc.cpu.hooks is None and traced(proc):
            attach(proc)
        sched.advance(QUANTUM)
        hooks = hooked.get(proc.pid)
        if hooks is not None:
            hooks.flush()
        if proc.cpu is not None and proc.pid in hooked:
            row = np.zeros(WIDTH, np.int64)
            row[COL_X0:COL_X0 + 32] = proc.cpu.state.regs[:32]
            row[COL_NZCV] = proc.cpu.state.regs[NZCV]
            final[proc.pid] = row
    if sched.result is None:                      # ended by a breakpoint callback
        from ncpu.arm64.linux.scheduler import _finish
        sched.result = _finish(kernel, "breakpoint", None)
    return sched.result, fault_pc[0], final


# --- what one instruction does, from its word and the registers before it ---------------------

@dataclass
class Instruction:
    text: str
    mnemonic: str
    mem: tuple | None            # (base register, offset, index register, extend, shift, post) or None
    size: int                    # bytes accessed (0 if not a load/store)
    store: bool
    load: bool


_MEM = re.compile(r"\[(?P<base>x\d+|sp)(?:, (?:#(?P<imm>-?0x[0-9a-f]+|-?\d+)|(?P<index>[xw]\d+|xzr|wzr)"
                  r"(?:, (?P<ext>lsl|uxtw|sxtw|sxtx|uxtx)(?: #(?P<shift>\d+))?)?))?\](?P<wb>!)?"
                  r"(?:, #(?P<post>-?0x[0-9a-f]+|-?\d+))?")
_CACHE: dict[tuple[int, int], Instruction] = {}
_STORES = ("st", "cas", "swp", "ldadd", "ldclr", "ldeor", "ldset", "ldsmax", "ldsmin", "ldumax", "ldumin")


def instruction(pc: int, word: int) -> Instruction:
    key = (pc, word)
    ins = _CACHE.get(key)
    if ins is None:
        text = disassemble(int(word & 0xFFFFFFFF).to_bytes(4, "little"), pc)[0][1]
        mnemonic = text.split(" ", 1)[0]
        m = _MEM.search(text) if "[" in text and not mnemonic.startswith(("prfm", "prfum")) else None
        mem = None
        if m is not None:
            offset = int(m["imm"], 0) if m["imm"] else 0
            post = m["post"] is not None
            mem = (31 if m["base"] == "sp" else int(m["base"][1:]), offset, m["index"], m["ext"],
                   int(m["shift"] or 0), post)
        store = mem is not None and mnemonic.startswith(_STORES)
        load = mem is not None and (not mnemonic.startswith("st") or mnemonic.startswith(_STORES[1:]))
        size = _access_size_of(text) if mem is not None else 0
        if mem is not None and "{" in text:           # ld1-4/st1-4: registers x lane bytes
            lanes = re.findall(r"v\d+\.(\d+)([bhsd])", text.split("}")[0])
            if lanes:
                size = sum(int(n) * {"b": 1, "h": 2, "s": 4, "d": 8}[t] for n, t in lanes)
        ins = Instruction(text, mnemonic, mem, size, store, load)
        _CACHE[key] = ins
    return ins


def access(row: np.ndarray) -> tuple[int, int, bool, bool] | None:
    """(address, size, load, store) of the memory the instruction of `row` accesses, or None."""
    ins = instruction(int(row[COL_PC]), int(row[COL_WORD]))
    if ins.mem is None:
        return None
    base, offset, index, ext, shift, post = ins.mem
    addr = int(row[COL_X0 + base])
    if index is not None:
        value = 0 if index[1:] == "zr" else int(row[COL_X0 + int(index[1:])])
        if index[0] == "w" or ext in ("uxtw", "sxtw"):
            value &= 0xFFFFFFFF
            if ext == "sxtw" and value >> 31:
                value -= 1 << 32
        addr += value << shift
    elif not post:
        addr += offset
    return addr & (2**64 - 1), ins.size, ins.load, ins.store


def written(before: np.ndarray, after: np.ndarray) -> list[tuple[str, int]]:
    """Registers (name, new value) that differ between two rows."""
    cols = np.nonzero(before[COL_X0:COL_NZCV + 1] != after[COL_X0:COL_NZCV + 1])[0]
    return [(REG_NAMES[c], int(after[COL_X0 + c]) & (2**64 - 1)) for c in cols]
