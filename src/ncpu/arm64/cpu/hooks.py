"""Instrumentation points of the hot loop: a trace ring buffer and a breakpoint set.

The loop (run.py) takes one more argument, `hk`: None, or the tuple of arrays
built here.  Its only uses are `if hk is not None:` blocks: on entering a
page, `hooked = hook_page(hk, page)`; before each instruction,
`if hooked: if hook_stop(...): break`; numba removes a branch on
`x is not None` when the argument x is typed None.  So the loop is compiled twice: with
`hk=None` exactly today's loop (no cost when nothing is enabled; the second
variant is compiled, and cached, only the first time hooks are used), and an
instrumented variant that calls `hook_stop` before every instruction.

hook_stop, before an instruction runs (nothing of it has happened yet):

* breakpoints (F_BREAK): only on pages holding one (hook_page); a 64 Ki-entry filter indexed by pc bits, then an
  exact search of the sorted address array; a hit stops the loop;
* trace (F_TRACE): appends (pc, word, instruction count) to `ring`, and with
  F_REGS the registers x0..x30, sp and nzcv as they are before the
  instruction (the analyses get registers written by comparing consecutive
  rows, and load/store addresses from base registers); a full ring stops
  the loop, the owner drains it and the run continues.

A stop is R_HOOK in the stop array; `Cpu.run` hands it to `Hooks.stopped`.
The pc of a stop is skipped once by the breakpoint check (CTL_SKIP), so
resuming runs the instruction.
"""
from __future__ import annotations

import numpy as np

from .jit import njit
from .stops import R_HOOK, ST_REASON
from .state import ICOUNT, NZCV

CTL_FLAGS, CTL_N, CTL_SKIP, CTL_HIT = 0, 1, 2, 3
F_TRACE, F_REGS, F_BREAK = 1, 2, 4
HIT_FULL, HIT_BREAK = 1, 2

COL_PC, COL_WORD, COL_COUNT, COL_X0, COL_NZCV = 0, 1, 2, 3, 35    # x0..x30 then sp at COL_X0 + 31
WIDTH = 36
FILTER_BITS = 16


@njit(cache=True)
def hook_page(hk, page):
    """Does the loop call hook_stop on this page?  (Tracing, or a breakpoint on it.)"""
    ctl, ring, bfilter, baddrs = hk
    flags = ctl[CTL_FLAGS]
    if flags & F_TRACE:
        return True
    if flags & F_BREAK:
        k = np.searchsorted(baddrs, page << 12)
        return k < baddrs.shape[0] and baddrs[k] < (page + 1) << 12
    return False


@njit(cache=True, inline="always")
def hook_stop(hk, pc, w, R, steps, st):
    """Before the instruction at pc: True (and st[ST_REASON] = R_HOOK) to stop the loop."""
    ctl, ring, bfilter, baddrs = hk
    flags = ctl[CTL_FLAGS]
    skip = ctl[CTL_SKIP]
    if skip != -1:
        ctl[CTL_SKIP] = -1
    if flags & F_BREAK and bfilter[(pc >> 2) & ((1 << FILTER_BITS) - 1)] and pc != skip:
        k = np.searchsorted(baddrs, pc)
        if k < baddrs.shape[0] and baddrs[k] == pc:
            ctl[CTL_HIT] = HIT_BREAK
            ctl[CTL_SKIP] = pc
            st[ST_REASON] = R_HOOK
            return True
    if flags & F_TRACE:
        n = ctl[CTL_N]
        if n >= ring.shape[0]:
            ctl[CTL_HIT] = HIT_FULL
            ctl[CTL_SKIP] = pc
            st[ST_REASON] = R_HOOK
            return True
        ring[n, COL_PC] = pc
        ring[n, COL_WORD] = w
        ring[n, COL_COUNT] = R[ICOUNT] + steps
        if flags & F_REGS:
            for j in range(32):
                ring[n, COL_X0 + j] = R[j]
            ring[n, COL_NZCV] = R[NZCV]
        ctl[CTL_N] = n + 1
    return False


class Hooks:
    """What one Cpu reports while `cpu.hooks` is set (see the module doc).

    on_trace(rows)      called with each full ring and at `flush()`: int64 (n, WIDTH)
                        rows (the array is reused: copy what you keep)
    on_break(cpu, pc)   called at a breakpoint, before the instruction runs;
                        return True to stop the Cpu (StopReason.HOOK), False to go on
    """

    def __init__(self, *, trace: bool = False, regs: bool = False, breakpoints=(), ring: int = 1 << 14,
                 on_trace=None, on_break=None):
        self.ctl = np.zeros(8, np.int64)
        self.ctl[CTL_SKIP] = -1
        self.ring = np.zeros((ring if trace else 1, WIDTH), np.int64)
        self.filter = np.zeros(1 << FILTER_BITS, np.uint8)
        self.addrs = np.zeros(0, np.int64)
        self.on_trace = on_trace
        self.on_break = on_break
        self.ctl[CTL_FLAGS] = (F_TRACE if trace else 0) | (F_REGS if trace and regs else 0)
        self.set_breakpoints(breakpoints)

    @property
    def arrays(self):
        return self.ctl, self.ring, self.filter, self.addrs

    def set_breakpoints(self, addresses) -> None:
        self.addrs = np.array(sorted({int(a) for a in addresses}), np.int64)
        self.filter[:] = 0
        self.filter[(self.addrs >> 2) & ((1 << FILTER_BITS) - 1)] = 1
        if len(self.addrs):
            self.ctl[CTL_FLAGS] |= F_BREAK
        else:
            self.ctl[CTL_FLAGS] &= ~F_BREAK

    def unretired(self, pc: int) -> None:
        """The instruction at pc faulted and will run again (Cpu.run resolved the
        fault: a page's first touch, copy-on-write): forget the trace row it
        left, and do not break at it a second time."""
        n = self.ctl[CTL_N]
        if n > 0 and self.ring[n - 1, COL_PC] == pc:
            self.ctl[CTL_N] = n - 1
        self.ctl[CTL_SKIP] = pc

    def flush(self) -> None:
        """Hand the rows recorded so far to on_trace."""
        n = int(self.ctl[CTL_N])
        if n and self.on_trace is not None:
            self.on_trace(self.ring[:n])
        self.ctl[CTL_N] = 0

    def stopped(self, cpu) -> bool:
        """The loop stopped with R_HOOK: True if the Cpu should return (StopReason.HOOK)."""
        hit = int(self.ctl[CTL_HIT])
        self.ctl[CTL_HIT] = 0
        if hit == HIT_FULL:
            self.flush()
            return False
        return bool(self.on_break(cpu, cpu.state.pc)) if self.on_break is not None else True
