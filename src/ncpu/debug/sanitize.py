"""`ncpu debug sanitize`: heap errors of static glibc programs, found from the trace.

malloc, calloc, realloc and free are interposed at their ELF symbols with
the loop's breakpoints: at entry the arguments are changed so that each
block gets RED_ZONE bytes on both sides (malloc(n) asks glibc for
n + 2 * RED_ZONE and hands out the middle), and a breakpoint on the return
address catches the result.  Shadow state, in Python: the live blocks (with
their allocation site and which bytes were written), and the freed ones
(with their free site, until glibc hands their memory out again).

Every load and store of the trace outside the allocator's own code is then
checked (address and size from tracing.access):

* heap-buffer-overflow: it touches a red zone (read or write);
* heap-use-after-free: it touches a freed block;
* uninitialised read: a load, from the program's own code (lines in its
  DWARF table), of heap bytes nothing wrote since malloc;
* double free / invalid free: free of a freed block / of a pointer that is
  no block's start (these end the run, as glibc would abort);
* leaks: blocks still live at exit that the program's own code allocated.

System calls are checked too, through the kernel's watcher (Kernel.watcher,
as AddressSanitizer's interceptors do): a call that reads or writes a red
zone or a freed block is reported at its `svc` with the call's name
(read(2) past a block's end is "heap-buffer-overflow write" by read), and
what a call writes into a block counts as initialised.

Rows reach the checker in order and before each breakpoint callback
(tracing.run_traced flushes them), so the shadow state a row is checked
against is the one at its instruction.  Known limits: memalign,
posix_memalign, aligned_alloc and malloc_usable_size are not interposed;
glibc's vector string functions read whole vectors from where a string
starts (strlen loads 16 bytes at its argument, aligned or not, when that
does not cross a page), so a load of 8 bytes or more that starts inside a
block, does not cross a page, from code without line information (the
library), is not an overflow; the price, without interceptors: a library
routine that overruns a block by less than one vector is not reported.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field

import numpy as np

from ncpu.arm64.linux.syscalls import TABLE

from .symbols import Program
from .tracing import COL_PC, COL_WORD, COL_X0, access, run_traced

RED_ZONE = 32
COL_COUNT = 2
ALLOCATORS = {"malloc": ("malloc", "__libc_malloc"), "free": ("free", "__libc_free", "cfree"),
              "calloc": ("calloc", "__libc_calloc"), "realloc": ("realloc", "__libc_realloc")}


@dataclass
class Block:
    addr: int
    size: int
    site: int                     # pc of the call that allocated it
    written: bytearray = field(default_factory=bytearray)   # 1 per byte written (or calloc'ed)
    free_site: int | None = None


@dataclass
class Report:
    kind: str
    pc: int
    addr: int = 0
    size: int = 0
    block: Block | None = None
    count: int = 0                # instruction count of the first occurrence
    times: int = 1
    syscall: str = ""             # the system call that made the access ("" for an instruction)
    caller: int | None = None     # for a system call: the call of its libc wrapper (x30 - 4)


class Sanitizer:
    def __init__(self, program: Program):
        self.program = program
        self.entries: dict[int, str] = {}
        for kind, names in ALLOCATORS.items():
            for name in names:
                if name in program.aliases:
                    self.entries[program.aliases[name]] = kind
        self.live: dict[int, Block] = {}
        self.freed: dict[int, Block] = {}
        self.starts: list[int] = []            # sorted starts of live and freed blocks (red zone included)
        self.pending: dict[int, tuple] = {}    # tid -> (kind, return address, sp, args) of the call in progress
        self.returns: dict[int, int] = {}      # return address -> how many calls wait there
        self.reports: dict[tuple, Report] = {}
        self.stopped = False
        self.lo, self.hi = 1 << 62, 0          # span of all blocks seen, for a quick filter
        self.kernel = None                     # set when the run starts (Kernel.watcher: this object)
        self.call, self.call_at = "", (0, 0, 0, 0)   # system call in progress: name, (tid, svc pc, count, x30)

    # --- the allocator calls (breakpoint callbacks) ------------------------------------
    def breakpoints(self) -> list[int]:
        return sorted(self.entries) + sorted(self.returns)

    def on_break(self, cpu, pc: int, proc) -> bool:
        x = cpu.state.x
        tid = proc.pid
        call = self.pending.get(tid)
        if call is not None and pc == call[1] and (int(cpu.state.sp) == call[2]):
            del self.pending[tid]
            self._unwait(cpu, call[1])
            return self._returned(cpu, call)
        if pc not in self.entries or call is not None:
            return False                           # a nested call inside the allocator, or another stop
        kind = self.entries[pc]
        ret = int(x[30])
        args = [int(v) for v in x[:2]]
        if kind == "free":
            if args[0] == 0:
                return False
            if self._free(cpu, args[0], ret):
                return True
        elif kind == "malloc":
            x[0] = args[0] + 2 * RED_ZONE
        elif kind == "calloc":
            total = args[0] * args[1]
            x[0], x[1] = 1, total + 2 * RED_ZONE
        elif kind == "realloc":
            if args[0] in self.live:
                x[0] = args[0] - RED_ZONE
            elif args[0] != 0:
                return self._error("invalid-free" if args[0] not in self.freed else "double-free", ret,
                                   args[0], stop=True)
            x[1] = args[1] + 2 * RED_ZONE
        self.pending[tid] = (kind, ret, int(cpu.state.sp), args)
        self.returns[ret] = self.returns.get(ret, 0) + 1
        cpu.hooks.set_breakpoints(self.breakpoints())
        return False

    def _unwait(self, cpu, ret: int) -> None:
        self.returns[ret] -= 1
        if not self.returns[ret]:
            del self.returns[ret]
        cpu.hooks.set_breakpoints(self.breakpoints())

    def _returned(self, cpu, call) -> bool:
        kind, site, _, args = call
        raw = int(cpu.state.x[0])
        if kind == "free":
            return False
        if raw == 0:
            return False
        p = raw + RED_ZONE
        cpu.state.x[0] = p
        size = args[0] if kind == "malloc" else args[1] if kind == "realloc" else args[0] * args[1]
        block = Block(p, size, site - 4, bytearray(size) if kind != "calloc" else bytearray(b"\1" * size))
        if kind == "realloc" and args[0] in self.live:
            old = self._drop(args[0], self.live)
            n = min(old.size, size)
            block.written[:n] = old.written[:n]
            old.free_site = site - 4
        for start in [s for s in self.freed if s - RED_ZONE < p + size + RED_ZONE and p - RED_ZONE < s +
                      self.freed[s].size + RED_ZONE]:
            self._drop(start, self.freed)            # glibc gave that memory out again
        self.live[p] = block
        bisect.insort(self.starts, p)
        self.lo, self.hi = min(self.lo, p - RED_ZONE), max(self.hi, p + size + RED_ZONE)
        return False

    def _free(self, cpu, p: int, ret: int) -> bool:
        """True (an error that ends the run) unless p is a live block."""
        if p in self.live:
            block = self._drop(p, self.live)
            block.free_site = ret - 4
            self.freed[p] = block
            bisect.insort(self.starts, p)
            cpu.state.x[0] = p - RED_ZONE
            return False
        return self._error("double-free" if p in self.freed else "invalid-free", ret - 4, p, stop=True)

    def _drop(self, p: int, table: dict) -> Block:
        block = table.pop(p)
        self.starts.remove(p)
        return block

    def _error(self, kind: str, pc: int, addr: int, size: int = 0, block=None, count: int = 0, stop=False,
               syscall: str = ""):
        key = (kind, pc)
        if key in self.reports:
            self.reports[key].times += 1
        else:
            if block is None:
                block = self.freed.get(addr) or self.live.get(addr)
            if block is not None:                      # as it is now (a later free must not show)
                block = Block(block.addr, block.size, block.site, bytearray(), block.free_site)
            self.reports[key] = Report(kind, pc, addr, size, block, count, syscall=syscall,
                                       caller=self.call_at[3] if syscall else None)
        if stop:
            self.stopped = True
        return stop

    # --- the loads and stores (trace rows) ---------------------------------------------
    def check(self, tid: int, rows: np.ndarray) -> None:
        if tid in self.pending or not self.starts:
            return                                     # inside malloc or free: its own bookkeeping
        words = rows[:, COL_WORD] & 0xFFFFFFFF
        memory = (words & 0x0A000000) == 0x08000000
        rn = (words >> 5) & 31
        base = rows[np.arange(len(rows)), COL_X0 + rn]
        near = memory & (base >= self.lo - 4096) & (base < self.hi + 4096) & (rn != 31)
        for k in np.nonzero(near)[0]:
            mem = access(rows[k])
            if mem is not None:
                self._access(rows[k], *mem)

    def _access(self, row, addr: int, size: int, load: bool, store: bool, syscall: str = "") -> None:
        i = bisect.bisect_right(self.starts, addr + size - 1 + RED_ZONE) - 1
        while i >= 0:
            start = self.starts[i]
            block = self.live.get(start) or self.freed.get(start)
            if start + block.size + RED_ZONE <= addr:
                if start + block.size + RED_ZONE + 4096 < addr:
                    return
                i -= 1
                continue
            if addr + size <= start - RED_ZONE:
                i -= 1
                continue
            pc, count = int(row[COL_PC]), int(row[COL_COUNT])
            if block.free_site is not None:
                self._error("heap-use-after-free " + ("write" if store else "read"), pc, addr, size, block, count,
                            syscall=syscall)
                return
            lo, hi = max(addr, start), min(addr + size, start + block.size)
            inside = lo < hi and lo == addr and hi == addr + size
            if not inside:
                if (load and not store and size >= 8 and start <= addr < start + block.size
                        and (addr & 4095) + size <= 4096 and self.program.line_of(pc) is None and not syscall):
                    return                             # libc's vector string code reads whole vectors past a string's end
                self._error("heap-buffer-overflow " + ("write" if store else "read"), pc, addr, size, block,
                            count, syscall=syscall)
                return
            if store:
                block.written[lo - start:hi - start] = b"\1" * (hi - lo)
            elif (not syscall and not all(block.written[lo - start:hi - start])
                  and self.program.line_of(pc) is not None):
                self._error("uninitialised read", pc, addr, size, block, count)
            return

    # --- what system calls read and write (Kernel.watcher) ---------------------------------
    def enter(self, proc, nr, args) -> None:
        self.call = TABLE[nr][0] if nr in TABLE else str(nr)
        self.call_at = (proc.pid, int(proc.state.pc) - 4, self.kernel.clock.instructions,
                        int(proc.state.x[30]) - 4)

    def access(self, proc, addr: int, data: bytes, write: bool) -> None:
        if not self.starts or addr + len(data) <= self.lo or addr >= self.hi or proc.pid in self.pending:
            return
        row = np.zeros(COL_X0, np.int64)
        row[COL_PC], row[COL_COUNT] = self.call_at[1], self.call_at[2]
        self._access(row, addr, len(data), not write, write, syscall=self.call)

    def leave(self, proc, nr, args) -> None:
        pass

    def leaks(self) -> list[Block]:
        return [b for b in self.live.values() if self.program.line_of(b.site) is not None]


def sanitize(binary: str, argv: list[str], *, stdin: bytes = b"", max_steps: int = 10**9) -> dict:
    program = Program.load(binary)
    san = Sanitizer(program)
    if not san.entries:
        raise ValueError(f"{binary}: no malloc/free symbols (a static glibc program is needed)")
    def setup(kernel):
        san.kernel = kernel
        kernel.watcher = san
    result = run_traced(binary, argv, stdin=stdin, on_rows=san.check, breakpoints=san.breakpoints(),
                        on_break=san.on_break, max_steps=max_steps, setup=setup)
    return report(san, program, result)


def _site(program: Program, pc: int | None) -> dict | None:
    if pc is None:
        return None
    line = program.line_of(pc)
    return {"pc": pc, "where": program.where(pc), "line": f"{line[0]}:{line[1]}" if line else None}


def report(san: Sanitizer, program: Program, result) -> dict:
    errors = []
    for r in sorted(san.reports.values(), key=lambda r: (r.count, r.pc)):
        e = {"kind": r.kind, "at": _site(program, r.pc), "address": r.addr, "size": r.size, "times": r.times,
             "syscall": r.syscall or None, "caller": _site(program, r.caller)}
        if r.block is not None:
            e["block"] = {"address": r.block.addr, "size": r.block.size, "offset": r.addr - r.block.addr,
                          "allocated": _site(program, r.block.site), "freed": _site(program, r.block.free_site)}
        errors.append(e)
    leaks = [{"address": b.addr, "size": b.size, "allocated": _site(program, b.site)}
             for b in san.leaks()] if not san.stopped else []
    return {"errors": errors, "leaks": leaks, "status": result.status, "stdout": result.stdout.decode(errors="replace")}


def format_report(rep: dict) -> str:
    def site(s):
        return f"{s['pc']:#x} {s['where']}" + (f" ({s['line']})" if s["line"] else "") if s else "?"
    out = []
    for e in rep["errors"]:
        by = f" by {e['syscall']}(2)" if e.get("syscall") else ""
        line = f"{e['kind']}{by}: {site(e['at'])}"
        if e["size"]:
            line += f", {e['size']} bytes at {e['address']:#x}"
        elif e["address"]:
            line += f", pointer {e['address']:#x}"
        if e.get("caller"):
            line += f" called from {site(e['caller'])}"
        if e["times"] > 1:
            line += f" ({e['times']} times)"
        out.append(line)
        b = e.get("block")
        if b:
            out.append(f"  block of {b['size']} bytes at {b['address']:#x} (offset {b['offset']}), "
                       f"allocated at {site(b['allocated'])}" + (f", freed at {site(b['freed'])}" if b["freed"]
                                                                  else ""))
    for leak in rep["leaks"]:
        out.append(f"leak: {leak['size']} bytes at {leak['address']:#x} allocated at {site(leak['allocated'])}")
    if not out:
        out.append("no heap errors found")
    return "\n".join(out)
