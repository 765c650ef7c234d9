"""Constraints of the SIMD rows that are still coarse (one row, many instructions).

The per-form rows of decode_table say their reserved values in the table
(option x=); the coarse rows (V2MISC, VELEM, S3SAME, ...) still cover
many instructions each, told apart by opcode, so which opcodes exist and
which sizes each allows is written here, as code, until they are split.
Below the decoder and every executor: the decoder asks `valid`-style
questions, the coarse executors ask `is_sat` which module runs a word.
"""
import numpy as np
from numba import njit

from . import decode_table as T


@njit(cache=True)
def bits(w, lsb, n):
    return (w >> lsb) & ((1 << n) - 1)


# ---- the saturating, rounding and halving forms (exec_sat) ----------------------------
# Opcodes of each group that belong here (bit n set: opcode n); see is_sat.
_THREE_SAME = (1 << 0) | (1 << 1) | (1 << 2) | (1 << 4) | (1 << 5) | (1 << 9) | (1 << 10) | (1 << 11) | (1 << 22)
_TWO_MISC = (1 << 3) | (1 << 7) | (1 << 20)                 # + 18 when U = 1 (SQXTUN; U = 0 is XTN)
_ELEM = (1 << 3) | (1 << 7) | (1 << 11) | (1 << 12) | (1 << 13)


@njit(cache=True)
def is_sat(op, w):
    """Does this module own the word (valid or not)?"""
    u = bits(w, 29, 1)
    if op == T.S3SAME:
        return (_THREE_SAME >> bits(w, 11, 5)) & 1 == 1
    if op == T.S2MISC:
        o = bits(w, 12, 5)
        return (_TWO_MISC >> o) & 1 == 1 or (o == 18 and u == 1)
    if op == T.VELEM or op == T.SELEM:
        return (_ELEM >> bits(w, 12, 4)) & 1 == 1
    return op == T.S3DIFF


@njit(cache=True)
def sat_ok(op, w):
    """Reserved-value checks for the words is_sat claims."""
    q = bits(w, 30, 1)
    u = bits(w, 29, 1)
    size = bits(w, 22, 2)
    vec = op == T.VELEM
    no_1d = not (vec and size == 3 and q == 0)       # a vector of one 64-bit lane is reserved
    if op == T.S3SAME:
        o = bits(w, 11, 5)
        if o == 0 or o == 2 or o == 4:               # halving: vector, 8 to 32 bits
            return vec and size != 3
        if o == 22:                                  # SQDMULH, SQRDMULH: 16 or 32 bits
            return size == 1 or size == 2
        if o == 10 and not vec:                      # SRSHL/URSHL scalar: 64 bits only
            return size == 3
        return no_1d
    if op == T.S2MISC:
        o = bits(w, 12, 5)
        if o == 18 or o == 20:                       # narrowing
            return size < 3
        return no_1d
    o = bits(w, 12, 4)
    if op == T.S3DIFF and not (o == 9 or o == 11 or o == 13):
        return False
    return u == 0 and (size == 1 or size == 2)       # the SQDM* family, SQ(R)DMULH by element


# ---- the FP forms and the scalar integer forms (exec_vfp) -----------------------------
@njit(cache=True)
def fp3_ok(u, a, o):
    """AdvSIMD three-same FP opcode (24..31) implemented?"""
    if o == 24 or o == 26 or o == 30:
        return True
    if o == 25:
        return u == 0
    if o == 27:
        return a == 0
    if o == 28:
        return not (u == 0 and a == 1)
    if o == 29:
        return u == 1
    if o == 31:
        return u == 1 and a == 0
    return False


@njit(cache=True)
def fp2_ok(u, a, o):
    """AdvSIMD two-reg-misc FP opcode implemented? (FCVTN/FCVTL checked by caller)"""
    if o == 12 or o == 13:
        return a == 1
    if o == 14:
        return a == 1 and u == 0
    if o == 15:
        return a == 1
    if o == 24:
        return not (u == 1 and a == 1)
    if o == 25 or o == 26 or o == 27:
        return True
    if o == 28:
        return a == 0
    if o == 29:
        return a == 0
    if o == 31:
        return u == 1 and a == 1
    return False


@njit(cache=True)
def elem_ok(w, scalar):
    u = bits(w, 29, 1)
    size = bits(w, 22, 2)
    o = bits(w, 12, 4)
    if o == 1 or o == 5 or o == 9:
        if size < 2:
            return False                               # half precision: not offered
        if size == 3 and (bits(w, 21, 1) == 1 or (not scalar and bits(w, 30, 1) == 0)):
            return False
        return u == 0 or o == 9
    if scalar:
        return False
    if size == 0 or size == 3:
        return False
    return (o == 8 and u == 0) or ((o == 0 or o == 4) and u == 1) or o == 10 or o == 2 or o == 6


@njit(cache=True)
def s3same_ok(w):
    u = bits(w, 29, 1)
    size = bits(w, 22, 2)
    o = bits(w, 11, 5)
    if o >= 24:
        a = size >> 1
        if o == 26:
            return u == 1 and a == 1                   # FABD
        if o == 27:
            return u == 0 and a == 0                   # FMULX
        if o == 28:
            return not (u == 0 and a == 1)
        if o == 29:
            return u == 1
        return False
    if o == 16 or o == 17 or o == 6 or o == 7 or o == 8:
        return size == 3
    return False


@njit(cache=True)
def s2misc_ok(w):
    u = bits(w, 29, 1)
    size = bits(w, 22, 2)
    o = bits(w, 12, 5)
    if o == 8 or o == 9:
        return size == 3
    if o == 10 or o == 11:
        return size == 3 and (o == 11 or u == 0)
    if o >= 12 and o <= 14:
        return size >= 2 and (o != 14 or u == 0)
    if o >= 26 and o <= 28:
        return o != 28 or size < 2
    if o == 29:
        return size < 2
    return False


@njit(cache=True)
def spair_ok(w):
    u = bits(w, 29, 1)
    o = bits(w, 12, 5)
    size = bits(w, 22, 2)
    if u == 0:
        return False                                   # ADDP (scalar) has its own entry
    if o == 13:
        return size < 2                                # FADDP
    return o == 12 or o == 15
