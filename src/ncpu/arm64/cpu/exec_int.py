"""Executors for integer data processing, branches and system instructions.

Each executor gets (op, word, imm, pc, R, ...) and returns the next pc.
R is the int64 register file of state.py.  Integer and branch rows get their
register operands resolved by the decoder (slots a, b, c, d: no test for
register 31 here); the other executors still read register 31 through
`xr` (XZR) or R[31] (SP).  A stop (SVC, BRK, fault, undefined) is recorded in `st`.
"""
import numpy as np

from . import decode_table as T
from . import sysregs as S
from .jit import njit
from .int_ops import (M32, bswap64, clz64, extend_reg, lsr, ror32, ror64, rbit64, sdiv64, sextn, shift_reg,
                      smulh, udiv64, umulh)
from .nzcv import add_with_carry, cond_holds, logic_flags
from .decoder import bits, ones
from .rows import executes
from .guest_access import zero_block
from .stops import A_EXEC, R_BRK, R_SVC, R_UNDEF, ST_REASON, ST_WORD, fault
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


@njit(cache=True, inline="always")
def _result(v, sf):
    """A 32-bit result zero-extends into the X register."""
    return v if sf else v & M32


@njit(cache=True)
def _add_sub(x, y, subtract, set_flags, nzcv, sf):
    """ADD, SUB, ADDS or SUBS of operands already formed (immediate, shifted or extended):
    (result, NZCV after it).  Scalars only, so calling it costs little inside the loop."""
    if set_flags:
        return add_with_carry(x, ~y if subtract else y, 1 if subtract else 0, sf)
    return _result(x - y if subtract else x + y, sf), nzcv


# ---- executor families (rows.py): f(op, w, imm, pc, R, st, a, b, c, d) -> next pc.

@executes("ADR", "ADRP")
def pc_relative(op, w, imm, pc, R, st, a, b, c, d):
    R[a] = (pc & -4096) + imm if op == T.ADRP else pc + imm
    return pc + 4


@executes("ADD_I", "ADDS_I", "SUB_I", "SUBS_I")
def add_sub_imm(op, w, imm, pc, R, st, a, b, c, d):
    R[a], R[NZCV] = _add_sub(R[b], imm, op == T.SUB_I or op == T.SUBS_I, op == T.ADDS_I or op == T.SUBS_I,
                             R[NZCV], (w >> 31) & 1)
    return pc + 4


@executes("AND_I", "ORR_I", "EOR_I", "ANDS_I")
def logic_imm(op, w, imm, pc, R, st, a, b, c, d):
    """`imm` is the decoded bitmask."""
    sf = (w >> 31) & 1
    x = R[b]
    if op == T.AND_I:
        R[a] = _result(x & imm, sf)
    elif op == T.ORR_I:
        R[a] = _result(x | imm, sf)
    elif op == T.EOR_I:
        R[a] = _result(x ^ imm, sf)
    else:
        v = _result(x & imm, sf)
        R[NZCV] = logic_flags(v, sf)
        R[a] = v
    return pc + 4


@executes("MOVN", "MOVZ", "MOVK")
def move_wide(op, w, imm, pc, R, st, a, b, c, d):
    """`imm` is imm16 already shifted into place."""
    sf = (w >> 31) & 1
    if op == T.MOVZ:
        R[a] = imm
    elif op == T.MOVN:
        R[a] = _result(~imm, sf)
    else:
        sh = 16 * bits(w, 21, 2)
        R[a] = _result((R[a] & ~(np.int64(0xFFFF) << sh)) | imm, sf)
    return pc + 4


@executes("SBFM", "BFM", "UBFM")
def bitfield(op, w, imm, pc, R, st, a, b, c, d):
    """The ARM pseudocode's wmask/tmask."""
    sf = (w >> 31) & 1
    ds = 64 if sf else 32
    immr = bits(w, 16, 6)
    imms = bits(w, 10, 6)
    src = R[b]
    wmask = ror64(ones(imms + 1), immr) if sf else ror32(ones(imms + 1), immr)
    tmask = ones(((imms - immr) & (ds - 1)) + 1)
    rot = ror64(src, immr) if sf else ror32(src, immr)
    if op == T.BFM:
        dst = R[a]
        bot = (dst & ~wmask) | (rot & wmask)
        top = dst
    else:
        bot = rot & wmask
        if op == T.SBFM and (src >> imms) & 1:
            top = np.int64(-1)
        else:
            top = np.int64(0)
    R[a] = _result((top & ~tmask) | (bot & tmask), sf)
    return pc + 4


@executes("EXTR")
def extr(op, w, imm, pc, R, st, a, b, c, d):
    lsb = bits(w, 10, 6)
    hi = R[b]
    lo = R[c]
    if (w >> 31) & 1:
        R[a] = lo if lsb == 0 else lsr(lo, lsb) | (hi << (64 - lsb))
    else:
        R[a] = ((((hi & M32) << 32) | (lo & M32)) >> lsb) & M32
    return pc + 4


@executes("AND_R", "BIC_R", "ORR_R", "ORN_R", "EOR_R", "EON_R", "ANDS_R", "BICS_R")
def logic_reg(op, w, imm, pc, R, st, a, b, c, d):
    sf = (w >> 31) & 1
    y = shift_reg(R[c], bits(w, 22, 2), bits(w, 10, 6), sf)
    if bits(w, 21, 1):
        y = ~y
    x = R[b]
    k = op - T.AND_R
    if k < 2:
        v = x & y
    elif k < 4:
        v = x | y
    elif k < 6:
        v = x ^ y
    else:
        v = x & y
        R[NZCV] = logic_flags(v, sf)
    R[a] = _result(v, sf)
    return pc + 4


@executes("ADD_R", "ADDS_R", "SUB_R", "SUBS_R")
def add_sub_reg(op, w, imm, pc, R, st, a, b, c, d):
    sf = (w >> 31) & 1
    y = shift_reg(R[c], bits(w, 22, 2), bits(w, 10, 6), sf)
    R[a], R[NZCV] = _add_sub(R[b], y, op == T.SUB_R or op == T.SUBS_R, op == T.ADDS_R or op == T.SUBS_R,
                             R[NZCV], sf)
    return pc + 4


@executes("ADD_X", "ADDS_X", "SUB_X", "SUBS_X")
def add_sub_ext(op, w, imm, pc, R, st, a, b, c, d):
    """Rn (and Rd of ADD/SUB) may be SP."""
    y = extend_reg(R[c], bits(w, 13, 3), bits(w, 10, 3))
    R[a], R[NZCV] = _add_sub(R[b], y, op == T.SUB_X or op == T.SUBS_X, op == T.ADDS_X or op == T.SUBS_X,
                             R[NZCV], (w >> 31) & 1)
    return pc + 4


@executes("ADC", "ADCS", "SBC", "SBCS")
def add_sub_carry(op, w, imm, pc, R, st, a, b, c, d):
    y = R[c]
    if op == T.SBC or op == T.SBCS:
        y = ~y
    res, flags = add_with_carry(R[b], y, (R[NZCV] >> 1) & 1, (w >> 31) & 1)
    if op == T.ADCS or op == T.SBCS:
        R[NZCV] = flags
    R[a] = res
    return pc + 4


@executes("CCMN_R", "CCMP_R", "CCMN_I", "CCMP_I")
def cond_compare(op, w, imm, pc, R, st, a, b, c, d):
    """The immediate forms' imm5 sits where Rm would."""
    if cond_holds(R[NZCV], bits(w, 12, 4)):
        sf = (w >> 31) & 1
        y = np.int64(bits(w, 16, 5)) if op == T.CCMN_I or op == T.CCMP_I else R[c]
        if op == T.CCMP_R or op == T.CCMP_I:
            _, R[NZCV] = add_with_carry(R[b], ~y, 1, sf)
        else:
            _, R[NZCV] = add_with_carry(R[b], y, 0, sf)
    else:
        R[NZCV] = w & 15
    return pc + 4


@executes("CSEL", "CSINC", "CSINV", "CSNEG")
def cond_select(op, w, imm, pc, R, st, a, b, c, d):
    if cond_holds(R[NZCV], bits(w, 12, 4)):
        v = R[b]
    else:
        v = R[c]
        if op == T.CSINC:
            v += 1
        elif op == T.CSINV:
            v = ~v
        elif op == T.CSNEG:
            v = -v
    R[a] = _result(v, (w >> 31) & 1)
    return pc + 4


@executes("RBIT", "REV16", "REV_W", "REV32", "REV_X", "CLZ", "CLS")
def one_source(op, w, imm, pc, R, st, a, b, c, d):
    sf = (w >> 31) & 1
    x = R[b]
    if op == T.RBIT:
        v = rbit64(x)
        if not sf:
            v = lsr(v, 32)
    elif op == T.REV16:
        v = ((x >> 8) & 0x00FF00FF00FF00FF) | ((x & 0x00FF00FF00FF00FF) << 8)
    elif op == T.REV_W:
        v = lsr(bswap64(x), 32)
    elif op == T.REV32:
        v = bswap64(x)
        v = lsr(v, 32) | (v << 32)
    elif op == T.REV_X:
        v = bswap64(x)
    elif op == T.CLZ:
        v = clz64(x) if sf else clz64(x << 32) if (x & M32) else np.int64(32)
    else:  # CLS
        s = x if sf else sextn(x, 32)
        v = clz64(s ^ (s >> 1)) - 1
        if not sf:
            v -= 32
    R[a] = _result(v, sf)
    return pc + 4


@executes("UDIV", "SDIV", "LSLV", "LSRV", "ASRV", "RORV")
def two_source(op, w, imm, pc, R, st, a, b, c, d):
    sf = (w >> 31) & 1
    x = R[b]
    y = R[c]
    if op == T.UDIV:
        v = udiv64(x, y) if sf else (x & M32) // (y & M32) if (y & M32) else np.int64(0)
    elif op == T.SDIV:
        v = sdiv64(x, y) if sf else sdiv64(sextn(x, 32), sextn(y, 32))
    else:
        v = shift_reg(x, op - T.LSLV, y & (63 if sf else 31), sf)
    R[a] = _result(v, sf)
    return pc + 4


@executes("CRC32")
def crc32(op, w, imm, pc, R, st, a, b, c, d):
    """CRC32[BHWX] / CRC32C[BHWX]: reflected, no inversion."""
    poly = np.int64(0x82F63B78) if bits(w, 12, 1) else np.int64(0xEDB88320)
    crc = R[b] & M32
    data = R[c]
    for k in range(1 << bits(w, 10, 2)):
        crc ^= (data >> (8 * k)) & 0xFF
        for _ in range(8):
            crc = (crc >> 1) ^ (poly if crc & 1 else 0)
    R[a] = crc
    return pc + 4


@executes("MADD", "MSUB", "SMADDL", "SMSUBL", "UMADDL", "UMSUBL", "SMULH", "UMULH")
def multiply(op, w, imm, pc, R, st, a, b, c, d):
    x = R[b]
    y = R[c]
    acc = R[d]
    if op == T.MADD:
        v = acc + x * y
    elif op == T.MSUB:
        v = acc - x * y
    elif op == T.SMADDL:
        v = acc + sextn(x, 32) * sextn(y, 32)
    elif op == T.SMSUBL:
        v = acc - sextn(x, 32) * sextn(y, 32)
    elif op == T.UMADDL:
        v = acc + (x & M32) * (y & M32)
    elif op == T.UMSUBL:
        v = acc - (x & M32) * (y & M32)
    elif op == T.SMULH:
        v = smulh(x, y)
    else:
        v = umulh(x, y)
    R[a] = _result(v, (w >> 31) & 1)
    return pc + 4


@executes("B_COND")
def branch_cond(op, w, imm, pc, R, st, a, b, c, d):
    return pc + imm if cond_holds(R[NZCV], w & 15) else pc + 4


@executes("B", "BL")
def branch_imm(op, w, imm, pc, R, st, a, b, c, d):
    if op == T.BL:
        R[30] = pc + 4
    return pc + imm


@executes("CBZ", "CBNZ")
def compare_branch(op, w, imm, pc, R, st, a, b, c, d):
    """Tests `rt` (slot a)."""
    v = R[a]
    if not (w >> 31) & 1:
        v &= M32
    return pc + imm if (v == 0) == (op == T.CBZ) else pc + 4


@executes("TBZ", "TBNZ")
def test_branch(op, w, imm, pc, R, st, a, b, c, d):
    bit = (((w >> 31) & 1) << 5) | bits(w, 19, 5)
    clear = (R[a] >> bit) & 1 == 0
    return pc + imm if clear == (op == T.TBZ) else pc + 4


@executes("BR", "BLR", "RET")
def branch_reg(op, w, imm, pc, R, st, a, b, c, d):
    """Jumps to `rn` (slot b); a misaligned target faults at the branch."""
    target = R[b]
    if target & 3:
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


# ---- system rows: families like the others.  HINT, BARRIER and CLREX are carried inline
# (a line each); the rest run out of line (cold_rows): carried inline they made the loop's
# code bigger for rows a benchmark runs rarely, and the tight loop measured slower.  SVC and
# BRK stop the loop through `st` (SVC retires, pc past it; BRK does not).

@executes("SVC", cold=True)
def supervisor_call(op, pc, st):
    st[ST_REASON] = R_SVC
    return pc + 4


@executes("BRK", cold=True)
def software_breakpoint(op, w, pc, st):
    st[ST_REASON] = R_BRK
    st[ST_WORD] = w
    return pc


@executes("HINT", "BARRIER")
def no_effect(op, pc):
    """NOP, YIELD, WFE, ... and DMB/DSB/ISB: one thread runs at a time, in program order."""
    return pc + 4


@executes("CLREX")
def clear_exclusive(op, pc, R):
    R[EXCL_ADDR] = -1
    return pc + 4


@executes("MRS", cold=True)
def read_system_register(op, w, pc, R, steps):
    """CNTVCT_EL0 counts retired instructions: those before this run plus `steps`."""
    wr(R, w & 31, _sysreg_read(bits(w, 5, 15), R, R[ICOUNT] + steps), 1)
    return pc + 4


@executes("MSR_R", cold=True)
def write_system_register(op, w, pc, R):
    key = bits(w, 5, 15)
    v = xr(R, w & 31)
    if key == S.NZCV:
        R[NZCV] = (v >> 28) & 15
    elif key == S.FPCR:
        R[FPCR] = v & 0x07FF0000
    elif key == S.FPSR:
        R[FPSR] = v & 0xF800009F
    else:
        R[TPIDR] = v
    return pc + 4


@executes("SYS", cold=True)
def system_instruction(op, w, pc, R, m, st):
    """DC ZVA zeroes one DCZID-sized block (a fault leaves pc at it); the other cache
    maintenance operations have nothing to do."""
    if bits(w, 5, 14) == 0x1BA1 and not zero_block(m, st, xr(R, w & 31) & -S.ZVA_BYTES, S.ZVA_BYTES):
        return pc
    return pc + 4
