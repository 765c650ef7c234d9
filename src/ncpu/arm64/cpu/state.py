"""Architectural register state, kept in two numpy arrays the compiled loop mutates in place.

`regs` (int64[48]) holds the integer side; the named properties below are
views or accessors into it, so `state.x[3] = 5` writes straight into it.
`v` (uint64[32, 2]) holds the 32 SIMD&FP registers, low half first.
"""
from __future__ import annotations

import numpy as np

from .int_ops import sextn

# Slots of CpuState.regs (the compiled code uses the same numbers).
SP = 31            # X31 in a base-register position means SP
PC = 32
NZCV = 33          # 4 bits: N=8 Z=4 C=2 V=1
FPCR = 34
FPSR = 35
TPIDR = 36
EXCL_ADDR = 37     # exclusive monitor: address of the last LDXR/LDAXR, -1 = open
EXCL_SIZE = 38     # bytes covered by the monitor
ICOUNT = 39        # instructions retired before the current run (for CNTVCT_EL0)
EXCL_VAL = 40      # values the last load-exclusive read (2 slots, for pairs)
ZR = 46            # always 0: a source register 31 that means XZR (decode_table: register operands)
DISCARD = 47       # write-only: a destination register 31 that means XZR
NREGS = 48

U64 = (1 << 64) - 1


class CpuState:
    """X0..X30, SP, PC, NZCV, V0..V31, FPCR, FPSR, TPIDR_EL0."""

    def __init__(self):
        self.regs = np.zeros(NREGS, np.int64)
        self.regs[EXCL_ADDR] = -1
        self.v = np.zeros((32, 2), np.uint64)

    @property
    def x(self) -> np.ndarray:
        """np.uint64[31] view of X0..X30 (writes go to the state)."""
        return self.regs[:31].view(np.uint64)

    def _get(self, i: int) -> int:
        return int(self.regs[i]) & U64

    def _set(self, i: int, value: int) -> None:
        self.regs[i] = sextn.py_func(int(value), 64)

    sp = property(lambda s: s._get(SP), lambda s, v: s._set(SP, v))
    pc = property(lambda s: s._get(PC), lambda s, v: s._set(PC, v))
    nzcv = property(lambda s: s._get(NZCV), lambda s, v: s._set(NZCV, int(v) & 15))
    fpcr = property(lambda s: s._get(FPCR), lambda s, v: s._set(FPCR, v))
    fpsr = property(lambda s: s._get(FPSR), lambda s, v: s._set(FPSR, v))
    tpidr_el0 = property(lambda s: s._get(TPIDR), lambda s, v: s._set(TPIDR, v))

    def copy(self) -> "CpuState":
        c = CpuState.__new__(CpuState)
        c.regs = self.regs.copy()
        c.v = self.v.copy()
        return c

    def __repr__(self) -> str:
        xs = " ".join(f"x{i}={int(v):#x}" for i, v in enumerate(self.x) if v)
        return f"CpuState(pc={self.pc:#x} sp={self.sp:#x} nzcv={self.nzcv:04b} {xs})"
