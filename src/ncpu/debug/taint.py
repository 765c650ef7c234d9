"""`ncpu debug taint`: forward data flow from chosen input bytes to branches, addresses and system calls.

Sources: bytes of stdin as read(2) from descriptor 0 puts them in memory
(optionally only the offsets in `stdin_range`), and argv strings.  Each
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
* syscall: a system call with a tainted argument register, or write(2)
  of tainted bytes.
Only the first thread is followed.
"""

from __future__ import annotations

from collections import Counter

import numpy as np

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
        if call.name != "read" and arg_labels and row is not None:
            self._sink("syscall", row, arg_labels, call.name)
        if call.name == "write" and row is not None and len(args) >= 3:
            labels = self._mem_labels(args[1], min(args[2], 1 << 16))
            if labels:
                self._sink("syscall", row, labels, "write")
        if call.name == "read" and args and args[0] == 0 and call.result and call.result > 0:
            labels = []
            for k in range(call.result):
                offset = self.stdin_pos + k
                lo, hi = self.stdin_range or (0, 1 << 62)
                labels.append(f"stdin:{offset}" if lo <= offset < hi else None)
            for a in range(args[1], args[1] + call.result):
                self.mem.pop(a, None)
            self.taint_memory(args[1], labels)
            self.stdin_pos += call.result
        if call.result is not None:
            self.regs.pop("x0", None)


def _union(items) -> frozenset:
    out = EMPTY
    for x in items:
        if x:
            out = out | x
    return out


def _line(program: Program, pc: int):
    where = program.line_of(pc)
    return f"{where[0]}:{where[1]}" if where else None


def _argv_setup(argv_indices: list[int], taint: Taint):
    def setup(kernel):
        proc = kernel.init
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
                        setup=_argv_setup(list(argv_indices), taint) if argv_indices else None,
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
