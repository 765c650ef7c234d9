"""The Cpu object: runs the compiled loop and turns its stop codes into `Stop`."""
from __future__ import annotations

import enum
from dataclasses import dataclass

import numpy as np
from numba.core.types import int64, none

from .entries import NATIVE, addresses, loop_types, numba_type, resolve
from .memory import Memory
from .native import Sampler, hot, may_translate, translate
from .stops import (R_BRK, R_BUDGET, R_FAULT, R_GROW, R_HOOK, R_HOT, R_RESOLVE, R_SVC, R_UNDEF, ST_ENTERED,
                    ST_NATIVE, ST_SIZE)
from .run import run_loop
from .state import ICOUNT, CpuState
from .vregs import vr_views


class StopReason(enum.Enum):
    SVC = "svc"
    BUDGET = "budget"
    FAULT = "fault"
    UNDEFINED = "undefined"
    BRK = "brk"
    HOOK = "hook"                # a breakpoint of cpu.hooks whose on_break asked to stop


_REASONS = {R_SVC: StopReason.SVC, R_BUDGET: StopReason.BUDGET, R_FAULT: StopReason.FAULT,
            R_UNDEF: StopReason.UNDEFINED, R_BRK: StopReason.BRK}
_ACCESS = ("read", "write", "exec", "align")


@dataclass
class Stop:
    reason: StopReason
    steps: int
    address: int | None = None   # FAULT: faulting address
    access: str | None = None    # FAULT: 'read' | 'write' | 'exec'
    word: int | None = None      # UNDEFINED / BRK: the instruction word
    pc: int | None = None        # pc at the stop (after the svc for SVC)
    native: int = 0              # of `steps`, those retired in native code (native.py)
    entered: int = 0             # times the loop entered native code


_loop_entries: dict[tuple, object] = {}


def _loop_entry(types: tuple, fp: np.ndarray):
    """run_loop compiled (or loaded from the cache) for a run without debug hooks on arguments
    of these `loop_types`: its entry point, which Cpu.run calls directly.  Through the
    dispatcher each call would have numba type its arguments again, the two tuples' 20 arrays
    in Python, and the first such typing imports numpy.ma (entries.numba_type)."""
    R, V, st, m = types
    sig = (R, V, m, st, int64, none, numba_type(fp))
    if sig not in _loop_entries:
        _loop_entries[sig] = run_loop.compile(sig)
    return _loop_entries[sig]


class Cpu:
    """One hardware thread executing guest code in `mem` with registers `state`."""

    def __init__(self, mem: Memory, state: CpuState | None = None):
        self.mem = mem
        self.state = state if state is not None else CpuState()
        self.instructions = 0
        self._st = np.zeros(ST_SIZE, np.int64)
        self.hooks = None        # hooks.Hooks: trace and breakpoints (an instrumented loop)
        self._sampler = None     # native.Sampler while a hot page's time is being sampled
        self._types = loop_types(self.state.regs, vr_views(self.state.v), self._st, mem.arrays())
        self._fp = addresses(self._types)   # run_loop's executors
        self._loop = None        # run_loop's entry point for these types (_loop_entry), at the first run

    def _find_loop(self):
        self._loop = _loop_entry(self._types, self._fp)
        return self._loop

    def resolve_all(self) -> None:
        """Compile (or load from the cache) now every executor the loop calls by address, which
        `run` otherwise resolves the first time a row needs it: for measuring the whole compile
        (benchmarks/arm64_recompile.py, arm64_compile_profile.py)."""
        for k in range(NATIVE):            # the addresses: the last entry is native.py's threshold
            resolve(self._fp, k, self._types)

    def run(self, max_steps: int) -> Stop:
        """Run until SVC, BRK, fault, undefined instruction or `max_steps` retired.

        A fault on a page whose mapping allows the access (not yet given a
        frame, or copy-on-write) is resolved here and the instruction runs
        again; it never reaches the caller.  OutOfMemory (memory.frames)
        propagates when such a fault needs a frame beyond the budget."""
        st = self._st
        total = native = entered = 0
        s = self.state
        while True:
            st[:] = 0
            s.regs[ICOUNT] = self.instructions
            hooks = self.hooks
            sampling = self._sampler is not None
            budget = max_steps - total if not sampling else min(max_steps - total, self._sampler.slice())
            if hooks is None:
                loop = self._loop or self._find_loop()
                steps = loop(s.regs, vr_views(s.v), self.mem.arrays(), st, budget, None, self._fp)
            else:                       # an instrumented loop (hooks.py), typed by the dispatcher
                steps = run_loop(s.regs, vr_views(s.v), self.mem.arrays(), st, budget, hooks.arrays, self._fp)
            total += steps
            self.instructions += steps
            native += int(st[ST_NATIVE])
            entered += int(st[ST_ENTERED])
            if st[0] == R_HOOK:
                if hooks.stopped(self):
                    return Stop(StopReason.HOOK, total, pc=s.pc)
                if total >= max_steps:
                    st[0] = R_BUDGET
                    break
                continue
            if st[0] == R_RESOLVE:      # an executor called by address is needed the first time
                resolve(self._fp, int(st[1]), self._types)
                if hooks is not None:
                    hooks.unretired(s.pc)
                continue
            if st[0] == R_HOT:          # a page is hot: sample where the time goes (native.py)
                hot(self.mem, int(st[1]))
                if self._sampler is None and may_translate():
                    self._sampler = Sampler()
                continue
            if st[0] == R_BUDGET and sampling and total < max_steps:
                if self._sampler.add(s.pc):
                    translate(self.mem, self._sampler.pcs, s.regs, vr_views(s.v), st)
                    self._sampler = None
                continue
            if st[0] == R_GROW:
                self.mem.grow_decode_cache()
            elif st[0] != R_FAULT or not self.mem.resolve(int(st[1]), _ACCESS[int(st[2])]):
                break           # a page fault the memory resolved (first touch, copy-on-write) runs again
            elif hooks is not None:
                hooks.unretired(s.pc)
        reason = _REASONS[int(st[0])]
        stop = Stop(reason, total, pc=s.pc, native=native, entered=entered)
        if reason is StopReason.FAULT:
            stop.address = int(st[1]) & (2**64 - 1)
            stop.access = _ACCESS[int(st[2])]
        elif reason in (StopReason.UNDEFINED, StopReason.BRK):
            stop.word = int(st[3]) & 0xFFFFFFFF
        return stop
