"""Constraints of the SIMD rows that are still coarse (one row, many instructions).

The per-form rows of decode_table say their reserved values in the table
(option x=); the coarse rows (VSHIFT, SSHIFT) still cover
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
_SHIFT = (1 << 4) | (1 << 6) | (1 << 12) | (1 << 14) | (1 << 17) | (1 << 18) | (1 << 19)  # + 16, U = 1


@njit(cache=True)
def is_sat(op, w):
    """Does this module own the word (valid or not)?"""
    u = bits(w, 29, 1)
    if op == T.VSHIFT or op == T.SSHIFT:
        o = bits(w, 11, 5)
        return (_SHIFT >> o) & 1 == 1 or (o == 16 and u == 1)
    return False


@njit(cache=True)
def sat_ok(op, w):
    """Reserved-value checks for the words is_sat claims."""
    q = bits(w, 30, 1)
    u = bits(w, 29, 1)
    vec = op == T.VSHIFT
    if op == T.VSHIFT or op == T.SSHIFT:
        immh = bits(w, 19, 4)
        o = bits(w, 11, 5)
        if immh == 0:
            return False                             # modified immediate space
        if o >= 16:                                  # narrowing: source 16 to 64 bits
            return immh < 8 and (vec or not (o == 17 and u == 0))   # RSHRN: vector only
        if o == 12 and u == 0:
            return False
        if o == 4 or o == 6:                         # [SU]RSHR, [SU]RSRA: scalar is 64-bit only
            return not (immh >= 8 and q == 0) if vec else immh >= 8
        return not (vec and immh >= 8 and q == 0)
    return False


# ---- the scalar shifts (exec_vfp) -----------------------------------------------------
@njit(cache=True)
def sshift_ok(w):
    immh = bits(w, 19, 4)
    o = bits(w, 11, 5)
    u = bits(w, 29, 1)
    if immh == 0:
        return False
    if o == 28 or o == 31:
        return immh >= 4
    if immh < 8:
        return False
    return o == 0 or o == 2 or (o == 10 and u == 0) or (o == 10 and u == 1) or (o == 8 and u == 1)
