"""`ncpu debug trace`: the instruction trace as lines (or JSON records), with filters.

Each instruction: its number in the run, pc, symbol+offset, word,
disassembly, the registers it wrote (new values) and the memory it
accessed.  A row's effects are known once the next row of the same thread
arrives (registers are recorded before each instruction), so rows are
printed one behind; the last one takes the final registers of its thread.
Following children (`ncpu debug trace -f`), each record names its thread
(`[pid N]` in text, as strace -f writes), and symbols come from the image
that thread runs (`image`, told by tracing.run_traced's on_image).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .symbols import Program
from .tracing import COL_PC, COL_WORD, access, instruction, written

COL_COUNT = 2


@dataclass
class Filter:
    start: int | None = None        # pc range [start, end)
    end: int | None = None
    first: int = 0                  # instruction-count window [first, last)
    last: int | None = None

    def mask(self, rows: np.ndarray) -> np.ndarray:
        pcs, counts = rows[:, COL_PC], rows[:, COL_COUNT]
        keep = counts >= self.first
        if self.last is not None:
            keep &= counts < self.last
        if self.start is not None:
            keep &= pcs >= self.start
        if self.end is not None:
            keep &= pcs < self.end
        return keep


class TraceLog:
    """Feed rows per thread with add(); each printable record goes to emit(dict)."""

    def __init__(self, program: Program, flt: Filter, emit, limit: int | None = None):
        self.program, self.filter, self.emit, self.limit = program, flt, emit, limit
        self.pending: dict[int, np.ndarray] = {}     # tid -> last row, its effects not known yet
        self.emitted = 0
        self.programs: dict[int, Program] = {}      # tid -> the image it runs, once told (image)
        self._loaded: dict[str, Program] = {}

    def image(self, tid: int, path: str) -> None:
        """Thread tid runs `path` from now on (started, or exec'd it)."""
        row = self.pending.pop(tid, None)
        if row is not None and not self.full and self.filter.mask(row[None, :])[0]:
            self._record(tid, row, row)                # the execve: its effects are the new image
        if path not in self._loaded:
            try:
                self._loaded[path] = Program.load(path)
            except Exception:                          # not an ELF we can read: bare addresses
                self._loaded[path] = None
        program = self._loaded[path]
        self.programs[tid] = program if program is not None else self.program

    @property
    def full(self) -> bool:
        return self.limit is not None and self.emitted >= self.limit

    def add(self, tid: int, rows: np.ndarray) -> None:
        if self.full or len(rows) == 0:
            return
        prev = self.pending.get(tid)
        allrows = rows if prev is None else np.vstack([prev[None, :], rows])
        keep = self.filter.mask(allrows[:-1])
        for k in np.nonzero(keep)[0]:
            self._record(tid, allrows[k], allrows[k + 1])
            if self.full:
                break
        self.pending[tid] = allrows[-1].copy()

    def finish(self, final_regs: dict[int, np.ndarray]) -> None:
        """final_regs: tid -> a row-shaped array of the registers after the last instruction."""
        for tid, row in self.pending.items():
            if not self.full and self.filter.mask(row[None, :])[0] and tid in final_regs:
                self._record(tid, row, final_regs[tid])
        self.pending.clear()

    def _record(self, tid: int, row: np.ndarray, after: np.ndarray) -> None:
        pc, word = int(row[COL_PC]), int(row[COL_WORD]) & 0xFFFFFFFF
        ins = instruction(pc, word)
        mem = access(row)
        program = self.programs.get(tid, self.program)
        rec = {"n": int(row[COL_COUNT]), "tid": tid, "pc": pc, "where": program.where(pc),
               "word": word, "text": ins.text,
               "regs": {name: value for name, value in written(row, after)}}
        if mem is not None:
            addr, size, load, store = mem
            rec["mem"] = {"addr": addr, "size": size, "access": "rw" if load and store else "w" if store else "r"}
        self.emitted += 1
        self.emit(rec)


def format_record(rec: dict, with_pid: bool = False) -> str:
    regs = " ".join(f"{name}={value:#x}" for name, value in rec["regs"].items())
    mem = ""
    if "mem" in rec:
        m = rec["mem"]
        mem = f" [{m['access']} {m['addr']:#x}:{m['size']}]"
    head = f"{rec['n']:>10} {rec['pc']:#010x} {rec['where']:<24} {rec['word']:08x}  {rec['text']:<32}"
    if with_pid:
        head = f"[pid {rec['tid']}] " + head
    return (head + (" " + regs if regs else "") + mem).rstrip()
