"""Executors for integer data processing, branches and system instructions.

Each executor gets (op, word, imm, pc, R, st, ...) and returns the next pc.
R is the int64 register file of state.py (R[31] is SP; reads of register 31
as an operand mean XZR unless the encoding says SP, see `xr`/`xs`).
A stop (SVC, BRK, fault, undefined) is recorded in `st`.
"""
import numpy as np
from numba import njit

from . import decode_table as T
from . import sysregs as S
from .alu import (M32, add_with_carry, bswap64, clz64, cond_holds, extend_reg, logic_flags, lsr,
                  ror32, ror64, rbit64, sdiv64, sext32, shift_reg, smulh, udiv64, umulh)
from .decoder import bits, ones
from .mmu import R_BRK, R_SVC, R_UNDEF, ST_REASON, ST_WORD, A_EXEC, fault, store, writable
from .state import EXCL_ADDR, FPCR, FPSR, ICOUNT, NZCV, TPIDR


@njit(cache=True)
def xr(R, r):
    """Register operand where 31 means XZR."""
    return np.int64(0) if r == 31 else R[r]


@njit(cache=True)
def wr(R, r, v, sf):
    """Write a result where 31 means XZR; 32-bit results zero-extend."""
    if r != 31:
        R[r] = v if sf else v & M32


@njit(cache=True)
def _bitfield(op, w, R, sf):
    """SBFM/BFM/UBFM via the ARM pseudocode's wmask/tmask."""
    ds = 64 if sf else 32
    immr = bits(w, 16, 6)
    imms = bits(w, 10, 6)
    src = xr(R, bits(w, 5, 5))
    rd = bits(w, 0, 5)
    wmask = ror64(ones(imms + 1), immr) if sf else ror32(ones(imms + 1), immr)
    tmask = ones(((imms - immr) & (ds - 1)) + 1)
    rot = ror64(src, immr) if sf else ror32(src, immr)
    if op == T.BFM:
        dst = xr(R, rd)
        bot = (dst & ~wmask) | (rot & wmask)
        top = dst
    else:
        bot = rot & wmask
        if op == T.SBFM and (src >> imms) & 1:
            top = np.int64(-1)
        else:
            top = np.int64(0)
    wr(R, rd, (top & ~tmask) | (bot & tmask), sf)


@njit(cache=True)
def exec_int(op, w, imm, pc, R, st):
    sf = bits(w, 31, 1)
    rd = w & 31
    rn = (w >> 5) & 31
    rm = (w >> 16) & 31
    if op <= T.SUBS_I:
        if op == T.ADD_I:
            v = R[rn] + imm                        # Rn and Rd may be SP
            R[rd] = v if sf else v & M32
        elif op == T.SUBS_I:
            res, R[NZCV] = add_with_carry(R[rn], ~imm, 1, sf)
            wr(R, rd, res, sf)
        elif op == T.SUB_I:
            v = R[rn] - imm
            R[rd] = v if sf else v & M32
        elif op == T.ADDS_I:
            res, R[NZCV] = add_with_carry(R[rn], imm, 0, sf)
            wr(R, rd, res, sf)
        elif op == T.ADRP:
            wr(R, rd, (pc & -4096) + imm, 1)
        else:  # ADR
            wr(R, rd, pc + imm, 1)
    elif op <= T.ANDS_I:
        a = xr(R, rn)
        if op == T.AND_I:
            v = a & imm
        elif op == T.ORR_I:
            v = a | imm
        elif op == T.EOR_I:
            v = a ^ imm
        else:
            v = a & imm
            R[NZCV] = logic_flags(v, sf)
            wr(R, rd, v, sf)
            return pc + 4
        R[rd] = v if sf else v & M32               # Rd may be SP
    elif op <= T.MOVK:
        if op == T.MOVZ:
            wr(R, rd, imm, sf)
        elif op == T.MOVN:
            wr(R, rd, ~imm, sf)
        else:
            sh = 16 * bits(w, 21, 2)
            wr(R, rd, (xr(R, rd) & ~(np.int64(0xFFFF) << sh)) | imm, sf)
    elif op <= T.UBFM:
        _bitfield(op, w, R, sf)
    elif op == T.EXTR:
        lsb = bits(w, 10, 6)
        hi = xr(R, rn)
        lo = xr(R, rm)
        if sf:
            v = lo if lsb == 0 else lsr(lo, lsb) | (hi << (64 - lsb))
        else:
            v = ((((hi & M32) << 32) | (lo & M32)) >> lsb) & M32
        wr(R, rd, v, sf)
    elif op <= T.BICS_R:
        b = shift_reg(xr(R, rm), bits(w, 22, 2), bits(w, 10, 6), sf)
        if bits(w, 21, 1):
            b = ~b
        a = xr(R, rn)
        k = op - T.AND_R
        if k < 2:
            v = a & b
        elif k < 4:
            v = a | b
        elif k < 6:
            v = a ^ b
        else:
            v = a & b
            R[NZCV] = logic_flags(v, sf)
        wr(R, rd, v, sf)
    elif op <= T.SUBS_R:
        b = shift_reg(xr(R, rm), bits(w, 22, 2), bits(w, 10, 6), sf)
        a = xr(R, rn)
        if op == T.ADD_R:
            wr(R, rd, a + b, sf)
        elif op == T.SUB_R:
            wr(R, rd, a - b, sf)
        else:
            if op == T.ADDS_R:
                res, R[NZCV] = add_with_carry(a, b, 0, sf)
            else:
                res, R[NZCV] = add_with_carry(a, ~b, 1, sf)
            wr(R, rd, res, sf)
    elif op <= T.SUBS_X:
        b = extend_reg(xr(R, rm), bits(w, 13, 3), bits(w, 10, 3))
        a = R[rn]                                  # SP allowed
        if op == T.ADD_X or op == T.SUB_X:
            v = a + b if op == T.ADD_X else a - b
            R[rd] = v if sf else v & M32           # Rd may be SP
        else:
            if op == T.ADDS_X:
                res, R[NZCV] = add_with_carry(a, b, 0, sf)
            else:
                res, R[NZCV] = add_with_carry(a, ~b, 1, sf)
            wr(R, rd, res, sf)
    elif op <= T.SBCS:
        a = xr(R, rn)
        b = xr(R, rm)
        if op >= T.SBC:
            b = ~b
        res, flags = add_with_carry(a, b, (R[NZCV] >> 1) & 1, sf)
        if op == T.ADCS or op == T.SBCS:
            R[NZCV] = flags
        wr(R, rd, res, sf)
    elif op <= T.CCMP_I:
        if cond_holds(R[NZCV], bits(w, 12, 4)):
            a = xr(R, rn)
            b = rm if op >= T.CCMN_I else xr(R, rm)
            if op == T.CCMP_R or op == T.CCMP_I:
                _, R[NZCV] = add_with_carry(a, ~b, 1, sf)
            else:
                _, R[NZCV] = add_with_carry(a, b, 0, sf)
        else:
            R[NZCV] = w & 15
    elif op <= T.CSNEG:
        if cond_holds(R[NZCV], bits(w, 12, 4)):
            v = xr(R, rn)
        else:
            v = xr(R, rm)
            if op == T.CSINC:
                v += 1
            elif op == T.CSINV:
                v = ~v
            elif op == T.CSNEG:
                v = -v
        wr(R, rd, v, sf)
    elif op <= T.CLS:
        a = xr(R, rn)
        if op == T.RBIT:
            v = rbit64(a)
            if not sf:
                v = lsr(v, 32)
        elif op == T.REV16:
            v = ((a >> 8) & 0x00FF00FF00FF00FF) | ((a & 0x00FF00FF00FF00FF) << 8)
        elif op == T.REV_W:
            v = lsr(bswap64(a), 32)
        elif op == T.REV32:
            v = bswap64(a)
            v = lsr(v, 32) | (v << 32)
        elif op == T.REV_X:
            v = bswap64(a)
        elif op == T.CLZ:
            v = clz64(a) if sf else clz64(a << 32) if (a & M32) else np.int64(32)
        else:  # CLS
            s = a if sf else sext32(a)
            v = clz64(s ^ (s >> 1)) - 1
            if not sf:
                v -= 32
        wr(R, rd, v, sf)
    elif op <= T.RORV:
        a = xr(R, rn)
        b = xr(R, rm)
        if op == T.UDIV:
            v = udiv64(a, b) if sf else (a & M32) // (b & M32) if (b & M32) else np.int64(0)
        elif op == T.SDIV:
            v = sdiv64(a, b) if sf else sdiv64(sext32(a), sext32(b))
        else:
            amt = b & (63 if sf else 31)
            v = shift_reg(a, op - T.LSLV, amt, sf)
        wr(R, rd, v, sf)
    elif op == T.CRC32:                            # CRC32[BHWX] / CRC32C[BHWX], reflected, no inversion
        poly = np.int64(0x82F63B78) if bits(w, 12, 1) else np.int64(0xEDB88320)
        crc = xr(R, rn) & M32
        data = xr(R, rm)
        for k in range(1 << bits(w, 10, 2)):
            crc ^= (data >> (8 * k)) & 0xFF
            for _ in range(8):
                crc = (crc >> 1) ^ (poly if crc & 1 else 0)
        wr(R, rd, crc, 0)
    else:  # multiply family
        a = xr(R, rn)
        b = xr(R, rm)
        acc = xr(R, bits(w, 10, 5))
        if op == T.MADD:
            v = acc + a * b
        elif op == T.MSUB:
            v = acc - a * b
        elif op == T.SMADDL:
            v = acc + sext32(a) * sext32(b)
        elif op == T.SMSUBL:
            v = acc - sext32(a) * sext32(b)
        elif op == T.UMADDL:
            v = acc + (a & M32) * (b & M32)
        elif op == T.UMSUBL:
            v = acc - (a & M32) * (b & M32)
        elif op == T.SMULH:
            v = smulh(a, b)
        else:
            v = umulh(a, b)
        wr(R, rd, v, sf)
    return pc + 4


@njit(cache=True)
def exec_branch(op, w, imm, pc, R, st):
    if op == T.B_COND:
        return pc + imm if cond_holds(R[NZCV], w & 15) else pc + 4
    if op == T.B:
        return pc + imm
    if op == T.BL:
        R[30] = pc + 4
        return pc + imm
    rt = w & 31
    if op == T.CBZ or op == T.CBNZ:
        v = xr(R, rt)
        if not bits(w, 31, 1):
            v &= M32
        return pc + imm if (v == 0) == (op == T.CBZ) else pc + 4
    if op == T.TBZ or op == T.TBNZ:
        b = (bits(w, 31, 1) << 5) | bits(w, 19, 5)
        set_ = (xr(R, rt) >> b) & 1
        return pc + imm if (set_ == 0) == (op == T.TBZ) else pc + 4
    target = xr(R, bits(w, 5, 5))
    if target & 3:                                 # PC alignment fault
        fault(st, target, A_EXEC)
        return pc
    if op == T.BLR:
        R[30] = pc + 4
    return target


@njit(cache=True)
def _sysreg_read(key, R, icount):
    if key == S.NZCV:
        return R[NZCV] << 28
    if key == S.FPCR:
        return R[FPCR]
    if key == S.FPSR:
        return R[FPSR]
    if key == S.TPIDR_EL0:
        return R[TPIDR]
    if key == S.CNTVCT_EL0:
        return icount
    if key == S.CNTFRQ_EL0:
        return np.int64(S.CNTFRQ_VALUE)
    if key == S.DCZID_EL0:
        return np.int64(S.DCZID_VALUE)
    if key == S.CTR_EL0:
        return np.int64(S.CTR_VALUE)
    return np.int64(S.MIDR_VALUE)


@njit(cache=True)
def exec_sys(op, w, imm, pc, R, st, m, steps):
    rt = w & 31
    if op == T.SVC:
        st[ST_REASON] = R_SVC
        return pc + 4
    if op == T.BRK:
        st[ST_REASON] = R_BRK
        st[ST_WORD] = w
        return pc
    if op == T.MRS:
        wr(R, rt, _sysreg_read(bits(w, 5, 15), R, R[ICOUNT] + steps), 1)
    elif op == T.MSR_R:
        key = bits(w, 5, 15)
        v = xr(R, rt)
        if key == S.NZCV:
            R[NZCV] = (v >> 28) & 15
        elif key == S.FPCR:
            R[FPCR] = v & 0x07FF0000
        elif key == S.FPSR:
            R[FPSR] = v & 0xF800009F
        else:
            R[TPIDR] = v
    elif op == T.CLREX:
        R[EXCL_ADDR] = -1
    elif op == T.SYS:
        if bits(w, 5, 14) == 0x1BA1:          # DC ZVA: zero one DCZID-sized block
            a = xr(R, rt) & -S.ZVA_BYTES
            if writable(m, st, a, S.ZVA_BYTES):
                for i in range(0, S.ZVA_BYTES, 8):
                    store(m, st, a + i, 8, 0)
            else:
                return pc
    # HINT, BARRIER and cache maintenance other than DC ZVA: nothing to do
    return pc + 4
