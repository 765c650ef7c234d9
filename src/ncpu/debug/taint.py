"""`ncpu debug taint`: forward data flow from chosen input bytes to branches, addresses and system calls.

Sources: bytes of stdin as a system call reading descriptor 0 (read,
readv, pread64...) puts them in memory (optionally only the offsets in
`stdin_range`), and argv strings.  Each
location (register, memory byte) carries the set of input offsets its
value was computed from (labels: "stdin:3", "argv1:0").  Per instruction of
the trace (dataflow.effects): the registers it writes get the union of the
labels of the registers it reads; a load gives its registers the labels of
the bytes read, a store gives the bytes the labels of the stored registers
(addresses do not pass their labels to values: that is reported instead).
A location written from untainted sources is cleaned.

Reported (each once per pc, with the labels and how many times):
* branch: a conditional branch deciding on a tainted flag or register;
* address: a load or store whose address registers are tainted;
* syscall: a system call with a tainted argument register, or one that
  reads tainted bytes from guest memory (write(2) of them, a path...).
System calls are followed through the kernel's watcher (Kernel.watcher):
each copy from guest memory into the kernel is checked for labels, each
copy into guest memory labels its bytes (stdin offsets) or cleans them.
Data is not followed through the kernel (a pipe, a file written then read).
Only the first thread is followed.
"""

from __future__ import annotations

from collections import Counter

import numpy as np

from ncpu.arm64.linux.syscalls import TABLE

from .dataflow import effects
from .symbols import Program
from .tracing import COL_PC, COL_WORD, access, run_traced

COL_COUNT = 2
EMPTY = frozenset()


class Taint:
    def __init__(self, program: Program, stdin_range: tuple[int, int] | None = None):
        self.program = program
        self.stdin_range = stdin_range
        self.regs: dict[str, frozenset] = {}
        self.mem: dict[int, frozenset] = {}
        self.stdin_pos = 0
        self.sinks: dict[tuple, dict] = {}
        self.first_tid = None
        self.last_row = None

    def taint_memory(self, addr: int, labels: list[str]) -> None:
        for k, label in enumerate(labels):
            if label is not None:
                self.mem[addr + k] = frozenset((label,))

    def _mem_labels(self, addr: int, size: int) -> frozenset:
        out = EMPTY
        for a in range(addr, addr + size):
            got = self.mem.get(a)
            if got:
                out = out | got
        return out

    def _sink(self, kind: str, row, labels: frozenset, detail: str = "") -> None:
        pc = int(row[COL_PC])
        key = (kind, pc)
        s = self.sinks.get(key)
        if s is None:
            s = self.sinks[key] = {"kind": kind, "pc": pc, "where": self.program.where(pc),
                                   "line": _line(self.program, pc), "first": int(row[COL_COUNT]),
                                   "times": 0, "labels": set(), "detail": detail}
        s["times"] += 1
        s["labels"] |= labels

    def add(self, tid: int, rows: np.ndarray) -> None:
        if self.first_tid is None:
            self.first_tid = tid
        if tid != self.first_tid or len(rows) == 0:
            return
        self.last_row = rows[-1].copy()
        if not self.regs and not self.mem:
            return
        regs = self.regs
        for row in rows:
            eff = effects(int(row[COL_PC]), int(row[COL_WORD]) & 0xFFFFFFFF)
            if eff.branch_on:
                labels = _union(regs.get(r) for r in eff.branch_on)
                if labels:
                    self._sink("branch", row, labels)
            if eff.address:
                addr_labels = _union(regs.get(r) for r in eff.address)
                if addr_labels:
                    self._sink("address", row, addr_labels)
            if eff.mem_read or eff.mem_write:
                mem = access(row)
                if mem is None:
                    continue
                addr, size, load, store = mem
                if store:
                    data = [r for r in eff.uses if r not in eff.address]
                    value = _union(regs.get(r) for r in data)
                    for a in range(addr, addr + size):
                        if value:
                            self.mem[a] = value
                        else:
                            self.mem.pop(a, None)
                if load:
                    value = self._mem_labels(addr, size)
                    for r in eff.defs:
                        if r in eff.address:          # write-back of the base: keeps the base's labels
                            continue
                        if value:
                            regs[r] = value
                        else:
                            regs.pop(r, None)
                continue
            value = _union(regs.get(r) for r in eff.uses)
            for r in eff.defs:
                if value:
                    regs[r] = value
                else:
                    regs.pop(r, None)

    def on_call(self, call) -> None:
        if call.pid != self.first_tid and self.first_tid is not None:
            return
        args = call.raw
        row = self.last_row
        arg_labels = _union(self.regs.get(f"x{k}") for k in range(len(args)))
        if call.name not in READS and arg_labels and row is not None:
            self._sink("syscall", row, arg_labels, call.name)
        if call.result is not None:
            self.regs.pop("x0", None)


READS = {"read": False, "readv": False, "pread64": True, "preadv": True, "preadv2": True}   # name -> offset given


class KernelData:
    """Kernel.watcher for taint: what system calls read from and write into guest memory."""

    def __init__(self, taint: Taint):
        self.taint = taint
        self.name = ""
        self.stdin_at = None           # offset of the next stdin byte this call delivers, or None

    def enter(self, proc, nr, args) -> None:
        t = self.taint
        self.name = TABLE[nr][0] if nr in TABLE else str(nr)
        self.stdin_at = None
        if self.name in READS and args[0] & 0xFFFFFFFF == 0 and proc.pid == t.first_tid:
            self.stdin_at = args[3] if READS[self.name] else t.stdin_pos

    def access(self, proc, addr: int, data: bytes, write: bool) -> None:
        t = self.taint
        if proc.pid != t.first_tid:
            return
        if not write:
            labels = t._mem_labels(addr, len(data))
            if labels and t.last_row is not None:
                t._sink("syscall", t.last_row, labels, self.name)
            return
        for a in range(addr, addr + len(data)):
            t.mem.pop(a, None)
        if self.stdin_at is not None:
            lo, hi = t.stdin_range or (0, 1 << 62)
            at = self.stdin_at
            t.taint_memory(addr, [f"stdin:{at + k}" if lo <= at + k < hi else None for k in range(len(data))])
            self.stdin_at += len(data)

    def leave(self, proc, nr, args) -> None:
        if self.stdin_at is not None and not READS[self.name]:
            self.taint.stdin_pos = self.stdin_at


def _union(items) -> frozenset:
    out = EMPTY
    for x in items:
        if x:
            out = out | x
    return out


def _line(program: Program, pc: int):
    where = program.line_of(pc)
    return f"{where[0]}:{where[1]}" if where else None


def _setup(argv_indices: list[int], taint: Taint):
    def setup(kernel):
        proc = kernel.init
        taint.first_tid = proc.pid
        kernel.watcher = KernelData(taint)
        sp = int(proc.state.sp)
        argc = proc.mem.read_u64(sp)
        for k in argv_indices:
            if k >= argc:
                continue
            addr = proc.mem.read_u64(sp + 8 * (k + 1))
            text = proc.mem.read_cstring(addr)
            taint.taint_memory(addr, [f"argv{k}:{i}" for i in range(len(text))])
    return setup


def run(binary: str, argv: list[str], *, stdin: bytes = b"", stdin_range=None, argv_indices=(),
        max_steps: int = 10**9) -> dict:
    program = Program.load(binary)
    taint = Taint(program, stdin_range)
    result = run_traced(binary, argv, stdin=stdin, on_rows=taint.add, on_call=taint.on_call,
                        setup=_setup(list(argv_indices), taint),
                        max_steps=max_steps)
    sinks = sorted(taint.sinks.values(), key=lambda s: (s["first"], s["pc"]))
    for s in sinks:
        s["labels"] = sorted(s["labels"], key=_label_key)
    return {"status": result.status, "sinks": sinks,
            "summary": dict(Counter(s["kind"] for s in sinks))}


def _label_key(label: str):
    name, _, k = label.partition(":")
    return name, int(k)


def format_report(rep: dict) -> str:
    out = []
    for s in rep["sinks"]:
        line = f" ({s['line']})" if s["line"] else ""
        detail = f" {s['detail']}" if s["detail"] else ""
        labels = _ranges(s["labels"])
        out.append(f"{s['kind']}{detail} at {s['pc']:#x} {s['where']}{line}, {s['times']} times, from {labels}")
    if not out:
        out.append("no branch, address or system call depends on the chosen input")
    return "\n".join(out)


def _ranges(labels: list[str]) -> str:
    """stdin:0 stdin:1 stdin:2 -> stdin[0..2]"""
    groups: dict[str, list[int]] = {}
    for label in labels:
        name, _, k = label.partition(":")
        groups.setdefault(name, []).append(int(k))
    parts = []
    for name, ks in groups.items():
        ks.sort()
        start = prev = ks[0]
        for k in ks[1:] + [None]:
            if k is not None and k == prev + 1:
                prev = k
                continue
            parts.append(f"{name}[{start}]" if start == prev else f"{name}[{start}..{prev}]")
            if k is not None:
                start = prev = k
    return " ".join(parts)
