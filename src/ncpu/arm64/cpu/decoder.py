"""Decoder built from the table: word -> (op id, pre-computed immediate).

`decode(word)` matches the table's (mask, value) pairs, most specific first
(more fixed bits wins, so aliases and carve-outs beat their general form);
a row whose reserved combinations (decode_table option x=) hold for the word
does not match, and the search goes on (an overlap group).
`valid(op, word)` applies the constraints the older rows still write as code
(integer immediates, loads and stores, system, scalar FP; no SIMD row),
`fld(op, word, T.FLD_X)` reads a field of a row by name (executors use it
instead of bit positions), and
`imm_of(op, word)` pre-computes the expensive immediate once (bitmask
immediates, sign-extended offsets, SIMD immediates) for the decode cache.
Decoding happens once per word thanks to that cache, so clarity wins here.
"""
from __future__ import annotations

import numpy as np

from . import decode_table as T
from .int_ops import sextn
from .jit import njit
from .state import DISCARD, ZR
from .sysregs import SUPPORTED_READ, SUPPORTED_WRITE

_order = sorted(range(T.NOPS), key=lambda i: -bin(T.TABLE[i].mask).count("1"))
MASKS = np.array([T.TABLE[i].mask for i in _order], np.int64)
VALUES = np.array([T.TABLE[i].value for i in _order], np.int64)
OPS = np.array(_order, np.int64)
SYS_READ = np.array(sorted(SUPPORTED_READ), np.int64)
SYS_WRITE = np.array(sorted(SUPPORTED_WRITE), np.int64)

UNDEF = -2          # decode cache value for "no valid instruction here"


@njit(cache=True)
def bits(w, lsb, n):
    return (w >> lsb) & ((1 << n) - 1)


@njit(cache=True)
def ones(n):
    return np.int64(-1) if n >= 64 else (np.int64(1) << n) - 1


@njit(cache=True)
def ror(x, r, esize):
    """Rotate the low esize bits of x right by r."""
    if r == 0:
        return x
    m = ones(esize)
    x &= m
    lo = (x >> r) & ones(esize - r)
    return (lo | (x << (esize - r))) & m


@njit(cache=True)
def decode_bitmask(n, imms, immr, datasize):
    """DecodeBitMasks (immediate=True): the logical immediate, or 0 if reserved
    (0 is never a valid logical immediate, so it can double as the error)."""
    combined = (n << 6) | (~imms & 63)
    if combined == 0:
        return np.int64(0)
    length = 6
    while not (combined >> length) & 1:
        length -= 1
    if length < 1:
        return np.int64(0)
    levels = (1 << length) - 1
    s = imms & levels
    r = immr & levels
    if s == levels:
        return np.int64(0)
    esize = 1 << length
    elem = ror(ones(s + 1), r, esize)
    out = np.int64(0)
    for i in range(0, datasize, esize):
        out |= elem << i
    return out


@njit(cache=True)
def vfp_expand_imm(imm8, is_double):
    """VFPExpandImm: the 8-bit FMOV immediate as S or D bit pattern."""
    sign = (imm8 >> 7) & 1
    b6 = (imm8 >> 6) & 1
    frac = imm8 & 15
    e = (imm8 >> 4) & 3
    if is_double:
        exp = ((1 - b6) << 10) | ((0xFF if b6 else 0) << 2) | e
        return (np.int64(sign) << 63) | (np.int64(exp) << 52) | (np.int64(frac) << 48)
    exp = ((1 - b6) << 7) | ((0x1F if b6 else 0) << 2) | e
    return (np.int64(sign) << 31) | (np.int64(exp) << 23) | (np.int64(frac) << 19)


@njit(cache=True)
def simd_expand_imm(op, cmode, imm8):
    """AdvSIMDExpandImm: the 64-bit pattern of MOVI/MVNI/ORR/BIC (vector)."""
    c = cmode >> 1
    imm = np.int64(imm8)
    if c <= 3:                         # 32-bit shifted
        e = imm << (8 * c)
        return e | (e << 32)
    if c <= 5:                         # 16-bit shifted
        e = imm << (8 * (c & 1))
        return e | (e << 16) | (e << 32) | (e << 48)
    if c == 6:                         # 32-bit shifting ones
        e = (imm << 8) | 0xFF if (cmode & 1) == 0 else (imm << 16) | 0xFFFF
        return e | (e << 32)
    if (cmode & 1) == 0 and op == 0:   # bytes
        e = imm
        for _ in range(3):
            e |= e << (8 * (1 << _))
        return e
    if (cmode & 1) == 0 and op == 1:   # each bit -> a byte of ones
        e = np.int64(0)
        for i in range(8):
            if (imm8 >> i) & 1:
                e |= np.int64(0xFF) << (8 * i)
        return e
    if op == 0:                        # FMOV (vector, single)
        e = vfp_expand_imm(imm8, False)
        return e | (e << 32)
    return vfp_expand_imm(imm8, True)  # FMOV (vector, double)


RES_START, RES_MASK, RES_VALUE = T.RES_START, T.RES_MASK, T.RES_VALUE
FIELD_LSB, FIELD_WIDTH = T.FIELD_LSB, T.FIELD_WIDTH


@njit(cache=True)
def reserved(op, word):
    """Does the word hit one of the row's reserved combinations (option x=)?"""
    for k in range(RES_START[op], RES_START[op + 1]):
        if (word & RES_MASK[k]) == RES_VALUE[k]:
            return True
    return False


@njit(cache=True)
def decode(word):
    """Op id of the most specific matching table entry, or UNDEF."""
    for i in range(len(MASKS)):
        if (word & MASKS[i]) == VALUES[i]:
            op = OPS[i]
            if reserved(op, word):
                continue
            return op if valid(op, word) else UNDEF
    return UNDEF


@njit(cache=True)
def fld(op, w, k):
    """Field k (T.FLD_NAME) of row op in word w; gen_loop folds it to a shift and mask."""
    return (w >> np.int64(FIELD_LSB[op, k])) & ((np.int64(1) << np.int64(FIELD_WIDTH[op, k])) - 1)


REG_LSB = T.REG_LSB
REG_KIND = T.REG_KIND


@njit(cache=True)
def regs_of(op, w):
    """The row's register operands as register-file slots, packed a | b<<8 | c<<16 | d<<24
    (decode_table: register operands)."""
    packed = np.int64(0)
    for k in range(4):
        lsb = REG_LSB[op, k]
        if lsb >= 0:
            r = (w >> lsb) & 31
            if r == 31:
                kind = REG_KIND[op, k]
                r = 31 if kind == T.K_SP or kind == T.K_V else DISCARD if kind == T.K_DST else ZR
            packed |= np.int64(r) << (8 * k)
    return packed


@njit(cache=True)
def _in(x, arr):
    for a in arr:
        if a == x:
            return True
    return False


@njit(cache=True)
def _ldst_ok(size, v, opc, allow_prfm):
    if v == 1:
        return opc < 2 or size == 0
    if size == 3 and opc == 3:
        return False
    if size == 2 and opc == 3:
        return False
    if size == 3 and opc == 2:
        return allow_prfm
    return True


@njit(cache=True)
def valid(op, w):
    """Constraints that the bit patterns cannot express (reserved values)."""
    sf = bits(w, 31, 1)
    if op == T.AND_I or op == T.ORR_I or op == T.EOR_I or op == T.ANDS_I:
        n = bits(w, 22, 1)
        if sf == 0 and n == 1:
            return False
        return decode_bitmask(n, bits(w, 10, 6), bits(w, 16, 6), 64 if sf else 32) != 0
    if op == T.MOVN or op == T.MOVZ or op == T.MOVK:
        return sf == 1 or bits(w, 21, 2) < 2         # hw: no 32-bit shifts of 32, 48
    if op == T.SBFM or op == T.BFM or op == T.UBFM:
        if bits(w, 22, 1) != sf:
            return False
        return sf == 1 or (bits(w, 16, 6) < 32 and bits(w, 10, 6) < 32)
    if op == T.EXTR:
        return bits(w, 22, 1) == sf and (sf == 1 or bits(w, 10, 6) < 32)
    if T.AND_R <= op <= T.SUBS_R:
        if op >= T.ADD_R and bits(w, 22, 2) == 3:
            return False
        return sf == 1 or bits(w, 10, 6) < 32
    if T.ADD_X <= op <= T.SUBS_X:
        return bits(w, 10, 3) <= 4
    if op == T.CRC32:
        return (sf == 1) == (bits(w, 10, 2) == 3)
    if op == T.MRS:
        return _in(bits(w, 5, 15), SYS_READ)
    if op == T.MSR_R:
        return _in(bits(w, 5, 15), SYS_WRITE)
    if op == T.SYS:
        key = bits(w, 5, 14)      # op1:CRn:CRm:op2
        # DC ZVA, DC CVAC, DC CVAU, DC CIVAC, IC IVAU (op1=3, CRn=7)
        return key == 0x1BA1 or key == 0x1BD1 or key == 0x1BD9 or key == 0x1BF1 or key == 0x1BA9
    if op == T.BARRIER:
        op2 = bits(w, 5, 3)
        return op2 == 4 or op2 == 5 or op2 == 6 or (op2 == 7 and bits(w, 8, 4) == 0)
    if op == T.LDST_UI or op == T.LDST_REG:
        if op == T.LDST_REG and bits(w, 14, 1) == 0:
            return False          # option<1> must be 1 (UXTW, LSL/UXTX, SXTW, SXTX)
        return _ldst_ok(bits(w, 30, 2), bits(w, 26, 1), bits(w, 22, 2), True)
    if op == T.LDST_UNSC:
        return _ldst_ok(bits(w, 30, 2), bits(w, 26, 1), bits(w, 22, 2), True)
    if op == T.LDST_PRE or op == T.LDST_POST:
        return _ldst_ok(bits(w, 30, 2), bits(w, 26, 1), bits(w, 22, 2), False)
    if op == T.LDR_LIT:
        return not (bits(w, 26, 1) == 1 and bits(w, 30, 2) == 3)
    if T.LDSTNP <= op <= T.LDSTP_PRE:
        opc = bits(w, 30, 2)
        v = bits(w, 26, 1)
        l = bits(w, 22, 1)
        if opc == 3:
            return False
        if v == 0 and opc == 1:
            return l == 1 and op != T.LDSTNP       # LDPSW only
        return True
    if op == T.LDST_EX:
        o2 = bits(w, 23, 1)
        o1 = bits(w, 21, 1)
        if o1 == 1:                                # pair exclusives, 32/64-bit only
            return o2 == 0 and bits(w, 31, 1) == 1
        if o2 == 1 and bits(w, 15, 1) == 0:        # LDLAR/STLLR (LOR): not offered
            return False
        return True
    if op == T.CASP:
        return (bits(w, 16, 5) | bits(w, 0, 5)) & 1 == 0    # odd Rs or Rt: unallocated
    if op == T.ATOMIC:
        o3 = bits(w, 15, 1)
        opc = bits(w, 12, 3)
        if o3 == 0:
            return True
        if opc == 0:
            return True                            # SWP
        return opc == 4 and bits(w, 22, 2) == 2 and bits(w, 16, 5) == 31   # LDAPR
    if T.FIRST_FP <= op < T.FIRST_SIMD:
        ftype = bits(w, 22, 2)
        if op == T.FMOV_GEN:
            hi = bits(w, 19, 1)
            if hi == 1:
                return sf == 1 and ftype == 2
            return (sf == 0 and ftype == 0) or (sf == 1 and ftype == 1)
        if ftype > 1:
            return False
        if op == T.FCVT_SD:
            opc = bits(w, 15, 2)
            return opc < 2 and opc != ftype
        if op == T.FRINT:
            return bits(w, 15, 3) != 5
        if op == T.FCVT_FIXED:
            key = bits(w, 16, 5)                   # rmode:opcode
            return (key == 2 or key == 3 or key == 24 or key == 25) and (sf == 1 or bits(w, 15, 1) == 1)
        return True
    return True


IMM_KIND = T.IMM_KIND


@njit(cache=True)
def shift_imm(kind, immh, immb):
    """The declared immediate of a shift-by-immediate row (decode_table option imm=):
    the shift amount | lane size log2 << 8, the lane size being immh's top set bit."""
    sz = 3 if immh & 8 else 2 if immh & 4 else 1 if immh & 2 else 0
    esize = 8 << sz
    immhb = (immh << 3) | immb
    sh = 2 * esize - immhb if kind == T.IMM_SHR else immhb - esize
    return np.int64(sh | (sz << 8))


@njit(cache=True)
def imm_of(op, w):
    """The pre-computed immediate stored beside the op id in the decode cache."""
    if IMM_KIND[op] == T.IMM_SIMD:          # op (bit 29) and cmode (bits 15:12) are partly each row's fixed bits
        return simd_expand_imm(bits(w, 29, 1), bits(w, 12, 4), (fld(op, w, T.FLD_ABC) << 5) | fld(op, w, T.FLD_DEFGH))
    if IMM_KIND[op] != 0:
        return shift_imm(IMM_KIND[op], fld(op, w, T.FLD_IMMH), fld(op, w, T.FLD_IMMB))
    sf = bits(w, 31, 1)
    if op == T.ADR:
        return sextn((bits(w, 5, 19) << 2) | bits(w, 29, 2), 21)
    if op == T.ADRP:
        return sextn((bits(w, 5, 19) << 2) | bits(w, 29, 2), 21) << 12
    if T.ADD_I <= op <= T.SUBS_I:
        return bits(w, 10, 12) << (12 * bits(w, 22, 1))
    if T.AND_I <= op <= T.ANDS_I:
        return decode_bitmask(bits(w, 22, 1), bits(w, 10, 6), bits(w, 16, 6), 64 if sf else 32)
    if T.MOVN <= op <= T.MOVK:
        return bits(w, 5, 16) << (16 * bits(w, 21, 2))
    if op == T.B or op == T.BL:
        return sextn(bits(w, 0, 26), 26) << 2
    if op == T.B_COND or op == T.CBZ or op == T.CBNZ or op == T.LDR_LIT:
        return sextn(bits(w, 5, 19), 19) << 2
    if op == T.TBZ or op == T.TBNZ:
        return sextn(bits(w, 5, 14), 14) << 2
    if op == T.LDST_UI:
        scale = bits(w, 30, 2)
        if bits(w, 26, 1) == 1 and bits(w, 23, 1) == 1:
            scale = 4
        return bits(w, 10, 12) << scale
    if op == T.LDST_UNSC or op == T.LDST_PRE or op == T.LDST_POST:
        return sextn(bits(w, 12, 9), 9)
    if T.LDSTNP <= op <= T.LDSTP_PRE:
        opc = bits(w, 30, 2)
        scale = 2 + opc if bits(w, 26, 1) == 1 else 2 + (opc >> 1)
        return sextn(bits(w, 15, 7), 7) << scale
    if op == T.FMOV_I:
        return vfp_expand_imm(bits(w, 13, 8), bits(w, 22, 2) == 1)
    return np.int64(0)
