"""THE instruction table: every A64 encoding we implement, one line each.

Each line is (NAME, pattern, class[, options]).  A pattern lists the 32 bits
from bit 31 down: runs of literal `0`/`1` bits and `field:width` tokens (in the
style of QEMU's a64.decode).  From this table we build the decoder (mask/value
match, most specific pattern first), the register operands the decoder
resolves once per word (below), the disassembler (fields by name) and the
random instruction generator of the tests.  Constraints a pattern cannot say
(e.g. "size 11 is unallocated") live in `decoder.valid`.

Register operands.  The register fields `rd`/`rt`, `rn`, `rm`/`rs` and
`ra`/`rt2` are resolved at decode time into register-file slots a, b, c, d
(state.py), so executors index the register file without testing for
register 31: a source 31 becomes the always-zero slot ZR, a destination 31
(`rd` only) the write-only slot DISCARD, and a field named in the row's
`sp=` option keeps 31, the stack pointer.

The op id of an entry is its index; module attributes `NAME = id` are created
below so compiled code can say `T.ADD_I` and get a compile-time constant.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

_RAW = [
    # ---- integer data processing (class int) ------------------------------
    ("ADR",     "0 immlo:2 10000 immhi:19 rd:5", "int"),
    ("ADRP",    "1 immlo:2 10000 immhi:19 rd:5", "int"),
    ("ADD_I",   "sf:1 0 0 100010 sh:1 imm12:12 rn:5 rd:5", "int", "sp=rd,rn"),
    ("ADDS_I",  "sf:1 0 1 100010 sh:1 imm12:12 rn:5 rd:5", "int", "sp=rn"),
    ("SUB_I",   "sf:1 1 0 100010 sh:1 imm12:12 rn:5 rd:5", "int", "sp=rd,rn"),
    ("SUBS_I",  "sf:1 1 1 100010 sh:1 imm12:12 rn:5 rd:5", "int", "sp=rn"),
    ("AND_I",   "sf:1 00 100100 n:1 immr:6 imms:6 rn:5 rd:5", "int", "sp=rd"),
    ("ORR_I",   "sf:1 01 100100 n:1 immr:6 imms:6 rn:5 rd:5", "int", "sp=rd"),
    ("EOR_I",   "sf:1 10 100100 n:1 immr:6 imms:6 rn:5 rd:5", "int", "sp=rd"),
    ("ANDS_I",  "sf:1 11 100100 n:1 immr:6 imms:6 rn:5 rd:5", "int"),
    ("MOVN",    "sf:1 00 100101 hw:2 imm16:16 rd:5", "int"),
    ("MOVZ",    "sf:1 10 100101 hw:2 imm16:16 rd:5", "int"),
    ("MOVK",    "sf:1 11 100101 hw:2 imm16:16 rd:5", "int"),
    ("SBFM",    "sf:1 00 100110 n:1 immr:6 imms:6 rn:5 rd:5", "int"),
    ("BFM",     "sf:1 01 100110 n:1 immr:6 imms:6 rn:5 rd:5", "int"),
    ("UBFM",    "sf:1 10 100110 n:1 immr:6 imms:6 rn:5 rd:5", "int"),
    ("EXTR",    "sf:1 00 100111 n:1 0 rm:5 imms:6 rn:5 rd:5", "int"),
    ("AND_R",   "sf:1 00 01010 shift:2 0 rm:5 imm6:6 rn:5 rd:5", "int"),
    ("BIC_R",   "sf:1 00 01010 shift:2 1 rm:5 imm6:6 rn:5 rd:5", "int"),
    ("ORR_R",   "sf:1 01 01010 shift:2 0 rm:5 imm6:6 rn:5 rd:5", "int"),
    ("ORN_R",   "sf:1 01 01010 shift:2 1 rm:5 imm6:6 rn:5 rd:5", "int"),
    ("EOR_R",   "sf:1 10 01010 shift:2 0 rm:5 imm6:6 rn:5 rd:5", "int"),
    ("EON_R",   "sf:1 10 01010 shift:2 1 rm:5 imm6:6 rn:5 rd:5", "int"),
    ("ANDS_R",  "sf:1 11 01010 shift:2 0 rm:5 imm6:6 rn:5 rd:5", "int"),
    ("BICS_R",  "sf:1 11 01010 shift:2 1 rm:5 imm6:6 rn:5 rd:5", "int"),
    ("ADD_R",   "sf:1 0 0 01011 shift:2 0 rm:5 imm6:6 rn:5 rd:5", "int"),
    ("ADDS_R",  "sf:1 0 1 01011 shift:2 0 rm:5 imm6:6 rn:5 rd:5", "int"),
    ("SUB_R",   "sf:1 1 0 01011 shift:2 0 rm:5 imm6:6 rn:5 rd:5", "int"),
    ("SUBS_R",  "sf:1 1 1 01011 shift:2 0 rm:5 imm6:6 rn:5 rd:5", "int"),
    ("ADD_X",   "sf:1 0 0 01011 00 1 rm:5 option:3 imm3:3 rn:5 rd:5", "int", "sp=rd,rn"),
    ("ADDS_X",  "sf:1 0 1 01011 00 1 rm:5 option:3 imm3:3 rn:5 rd:5", "int", "sp=rn"),
    ("SUB_X",   "sf:1 1 0 01011 00 1 rm:5 option:3 imm3:3 rn:5 rd:5", "int", "sp=rd,rn"),
    ("SUBS_X",  "sf:1 1 1 01011 00 1 rm:5 option:3 imm3:3 rn:5 rd:5", "int", "sp=rn"),
    ("ADC",     "sf:1 0 0 11010000 rm:5 000000 rn:5 rd:5", "int"),
    ("ADCS",    "sf:1 0 1 11010000 rm:5 000000 rn:5 rd:5", "int"),
    ("SBC",     "sf:1 1 0 11010000 rm:5 000000 rn:5 rd:5", "int"),
    ("SBCS",    "sf:1 1 1 11010000 rm:5 000000 rn:5 rd:5", "int"),
    ("CCMN_R",  "sf:1 0 1 11010010 rm:5 cond:4 0 0 rn:5 0 nzcv:4", "int"),
    ("CCMP_R",  "sf:1 1 1 11010010 rm:5 cond:4 0 0 rn:5 0 nzcv:4", "int"),
    ("CCMN_I",  "sf:1 0 1 11010010 imm5:5 cond:4 1 0 rn:5 0 nzcv:4", "int"),
    ("CCMP_I",  "sf:1 1 1 11010010 imm5:5 cond:4 1 0 rn:5 0 nzcv:4", "int"),
    ("CSEL",    "sf:1 0 0 11010100 rm:5 cond:4 00 rn:5 rd:5", "int"),
    ("CSINC",   "sf:1 0 0 11010100 rm:5 cond:4 01 rn:5 rd:5", "int"),
    ("CSINV",   "sf:1 1 0 11010100 rm:5 cond:4 00 rn:5 rd:5", "int"),
    ("CSNEG",   "sf:1 1 0 11010100 rm:5 cond:4 01 rn:5 rd:5", "int"),
    ("RBIT",    "sf:1 1 0 11010110 00000 000000 rn:5 rd:5", "int"),
    ("REV16",   "sf:1 1 0 11010110 00000 000001 rn:5 rd:5", "int"),
    ("REV_W",   "0 1 0 11010110 00000 000010 rn:5 rd:5", "int"),
    ("REV32",   "1 1 0 11010110 00000 000010 rn:5 rd:5", "int"),
    ("REV_X",   "1 1 0 11010110 00000 000011 rn:5 rd:5", "int"),
    ("CLZ",     "sf:1 1 0 11010110 00000 000100 rn:5 rd:5", "int"),
    ("CLS",     "sf:1 1 0 11010110 00000 000101 rn:5 rd:5", "int"),
    ("UDIV",    "sf:1 0 0 11010110 rm:5 000010 rn:5 rd:5", "int"),
    ("SDIV",    "sf:1 0 0 11010110 rm:5 000011 rn:5 rd:5", "int"),
    ("LSLV",    "sf:1 0 0 11010110 rm:5 001000 rn:5 rd:5", "int"),
    ("LSRV",    "sf:1 0 0 11010110 rm:5 001001 rn:5 rd:5", "int"),
    ("ASRV",    "sf:1 0 0 11010110 rm:5 001010 rn:5 rd:5", "int"),
    ("RORV",    "sf:1 0 0 11010110 rm:5 001011 rn:5 rd:5", "int"),
    ("CRC32",   "sf:1 0 0 11010110 rm:5 010 c:1 sz:2 rn:5 rd:5", "int"),
    ("MADD",    "sf:1 00 11011 000 rm:5 0 ra:5 rn:5 rd:5", "int"),
    ("MSUB",    "sf:1 00 11011 000 rm:5 1 ra:5 rn:5 rd:5", "int"),
    ("SMADDL",  "1 00 11011 001 rm:5 0 ra:5 rn:5 rd:5", "int"),
    ("SMSUBL",  "1 00 11011 001 rm:5 1 ra:5 rn:5 rd:5", "int"),
    ("SMULH",   "1 00 11011 010 rm:5 0 ra:5 rn:5 rd:5", "int"),      # Ra: should be 11111, ignored as qemu does
    ("UMADDL",  "1 00 11011 101 rm:5 0 ra:5 rn:5 rd:5", "int"),
    ("UMSUBL",  "1 00 11011 101 rm:5 1 ra:5 rn:5 rd:5", "int"),
    ("UMULH",   "1 00 11011 110 rm:5 0 ra:5 rn:5 rd:5", "int"),
    # ---- branches (class branch) -------------------------------------------
    ("B",       "000101 imm26:26", "branch"),
    ("BL",      "100101 imm26:26", "branch"),
    ("B_COND",  "01010100 imm19:19 0 cond:4", "branch"),
    ("CBZ",     "sf:1 011010 0 imm19:19 rt:5", "branch"),
    ("CBNZ",    "sf:1 011010 1 imm19:19 rt:5", "branch"),
    ("TBZ",     "b5:1 011011 0 b40:5 imm14:14 rt:5", "branch"),
    ("TBNZ",    "b5:1 011011 1 b40:5 imm14:14 rt:5", "branch"),
    ("BR",      "1101011 0000 11111 000000 rn:5 00000", "branch"),
    ("BLR",     "1101011 0001 11111 000000 rn:5 00000", "branch"),
    ("RET",     "1101011 0010 11111 000000 rn:5 00000", "branch"),
    # ---- system (class sys) --------------------------------------------------
    ("SVC",     "11010100 000 imm16:16 000 01", "sys"),
    ("BRK",     "11010100 001 imm16:16 000 00", "sys"),
    ("HINT",    "1101010100 0 00 011 0010 crm:4 op2:3 11111", "sys"),
    ("CLREX",   "1101010100 0 00 011 0011 crm:4 010 11111", "sys"),
    ("BARRIER", "1101010100 0 00 011 0011 crm:4 op2:3 11111", "sys"),
    ("MRS",     "1101010100 1 1 sysreg:15 rt:5", "sys"),
    ("MSR_R",   "1101010100 0 1 sysreg:15 rt:5", "sys"),
    ("SYS",     "1101010100 0 01 op1:3 crn:4 crm:4 op2:3 rt:5", "sys"),
    # ---- loads and stores (class mem) ----------------------------------------
    ("LDST_UI",   "size:2 111 v:1 01 opc:2 imm12:12 rn:5 rt:5", "mem"),
    ("LDST_UNSC", "size:2 111 v:1 00 opc:2 0 imm9:9 00 rn:5 rt:5", "mem"),
    ("LDST_POST", "size:2 111 v:1 00 opc:2 0 imm9:9 01 rn:5 rt:5", "mem"),
    ("LDST_PRE",  "size:2 111 v:1 00 opc:2 0 imm9:9 11 rn:5 rt:5", "mem"),
    ("LDST_REG",  "size:2 111 v:1 00 opc:2 1 rm:5 option:3 s:1 10 rn:5 rt:5", "mem"),
    ("LDR_LIT",   "opc:2 011 v:1 00 imm19:19 rt:5", "mem"),
    ("LDSTNP",    "opc:2 101 v:1 000 l:1 imm7:7 rt2:5 rn:5 rt:5", "mem"),
    ("LDSTP_POST", "opc:2 101 v:1 001 l:1 imm7:7 rt2:5 rn:5 rt:5", "mem"),
    ("LDSTP_OFF", "opc:2 101 v:1 010 l:1 imm7:7 rt2:5 rn:5 rt:5", "mem"),
    ("LDSTP_PRE", "opc:2 101 v:1 011 l:1 imm7:7 rt2:5 rn:5 rt:5", "mem"),
    ("LDST_EX",   "size:2 001000 o2:1 l:1 o1:1 rs:5 o0:1 rt2:5 rn:5 rt:5", "mem"),
    ("CAS",       "size:2 0010001 l:1 1 rs:5 o0:1 11111 rn:5 rt:5", "mem"),
    ("CASP",      "0 sz:1 0010000 l:1 1 rs:5 o0:1 11111 rn:5 rt:5", "mem"),    # Rs, Rt even (decoder.valid)
    ("ATOMIC",    "size:2 111000 a:1 r:1 1 rs:5 o3:1 opc:3 00 rn:5 rt:5", "mem"),
    ("LDST_VMULT", "0 q:1 0011000 l:1 000000 opcode:4 size:2 rn:5 rt:5", "mem"),
    ("LDST_VMULT_POST", "0 q:1 0011001 l:1 0 rm:5 opcode:4 size:2 rn:5 rt:5", "mem"),
    ("LDST_VSINGLE", "0 q:1 0011010 l:1 0 00000 opcode:3 s:1 size:2 rn:5 rt:5", "mem"),
    ("LDST_VSINGLE_POST", "0 q:1 0011011 l:1 0 rm:5 opcode:3 s:1 size:2 rn:5 rt:5", "mem"),
    # ---- scalar floating point (class fp) --------------------------------------
    ("FMUL_S",  "00011110 ftype:2 1 rm:5 0000 10 rn:5 rd:5", "fp"),
    ("FDIV_S",  "00011110 ftype:2 1 rm:5 0001 10 rn:5 rd:5", "fp"),
    ("FADD_S",  "00011110 ftype:2 1 rm:5 0010 10 rn:5 rd:5", "fp"),
    ("FSUB_S",  "00011110 ftype:2 1 rm:5 0011 10 rn:5 rd:5", "fp"),
    ("FMAX_S",  "00011110 ftype:2 1 rm:5 0100 10 rn:5 rd:5", "fp"),
    ("FMIN_S",  "00011110 ftype:2 1 rm:5 0101 10 rn:5 rd:5", "fp"),
    ("FMAXNM_S", "00011110 ftype:2 1 rm:5 0110 10 rn:5 rd:5", "fp"),
    ("FMINNM_S", "00011110 ftype:2 1 rm:5 0111 10 rn:5 rd:5", "fp"),
    ("FNMUL_S", "00011110 ftype:2 1 rm:5 1000 10 rn:5 rd:5", "fp"),
    ("FMOV_R",  "00011110 ftype:2 1 0000 00 10000 rn:5 rd:5", "fp"),
    ("FABS",    "00011110 ftype:2 1 0000 01 10000 rn:5 rd:5", "fp"),
    ("FNEG",    "00011110 ftype:2 1 0000 10 10000 rn:5 rd:5", "fp"),
    ("FSQRT",   "00011110 ftype:2 1 0000 11 10000 rn:5 rd:5", "fp"),
    ("FCVT_SD", "00011110 ftype:2 1 0001 opc:2 10000 rn:5 rd:5", "fp"),
    ("FRINT",   "00011110 ftype:2 1 001 rmode:3 10000 rn:5 rd:5", "fp"),
    ("FMADD",   "00011111 ftype:2 0 rm:5 0 ra:5 rn:5 rd:5", "fp"),
    ("FMSUB",   "00011111 ftype:2 0 rm:5 1 ra:5 rn:5 rd:5", "fp"),
    ("FNMADD",  "00011111 ftype:2 1 rm:5 0 ra:5 rn:5 rd:5", "fp"),
    ("FNMSUB",  "00011111 ftype:2 1 rm:5 1 ra:5 rn:5 rd:5", "fp"),
    ("FCMP",    "00011110 ftype:2 1 rm:5 001000 rn:5 e:1 z:1 000", "fp"),
    ("FCCMP",   "00011110 ftype:2 1 rm:5 cond:4 01 rn:5 e:1 nzcv:4", "fp"),
    ("FCSEL",   "00011110 ftype:2 1 rm:5 cond:4 11 rn:5 rd:5", "fp"),
    ("FMOV_I",  "00011110 ftype:2 1 imm8:8 100 00000 rd:5", "fp"),
    ("XCVTF",   "sf:1 0011110 ftype:2 1 00 01 u:1 000000 rn:5 rd:5", "fp"),
    ("FCVT_TOINT", "sf:1 0011110 ftype:2 1 rmode:2 00 u:1 000000 rn:5 rd:5", "fp"),
    ("FCVTA_TOINT", "sf:1 0011110 ftype:2 1 00 10 u:1 000000 rn:5 rd:5", "fp"),
    ("FCVT_FIXED", "sf:1 0011110 ftype:2 0 rmode:2 opcode:3 scale:6 rn:5 rd:5", "fp"),
    ("FMOV_GEN", "sf:1 0011110 ftype:2 1 0 hi:1 11 tofp:1 000000 rn:5 rd:5", "fp"),
    # ---- Advanced SIMD (class simd) --------------------------------------------
    ("DUP_ELEM", "0 q:1 0 01110000 imm5:5 0 0000 1 rn:5 rd:5", "simd"),
    ("DUP_GEN",  "0 q:1 0 01110000 imm5:5 0 0001 1 rn:5 rd:5", "simd"),
    ("INS_GEN",  "0 1 0 01110000 imm5:5 0 0011 1 rn:5 rd:5", "simd"),
    ("SMOV",     "0 q:1 0 01110000 imm5:5 0 0101 1 rn:5 rd:5", "simd"),
    ("UMOV",     "0 q:1 0 01110000 imm5:5 0 0111 1 rn:5 rd:5", "simd"),
    ("INS_ELEM", "0 1 1 01110000 imm5:5 0 imm4:4 1 rn:5 rd:5", "simd"),
    ("VMOVI",    "0 q:1 op:1 0111100000 abc:3 cmode:4 0 1 defgh:5 rd:5", "simd"),
    ("V3SAME",   "0 q:1 u:1 01110 size:2 1 rm:5 opcode:5 1 rn:5 rd:5", "simd"),
    ("V2MISC",   "0 q:1 u:1 01110 size:2 10000 opcode:5 10 rn:5 rd:5", "simd"),
    ("VACROSS",  "0 q:1 u:1 01110 size:2 11000 opcode:5 10 rn:5 rd:5", "simd"),
    ("VSHIFT",   "0 q:1 u:1 011110 immh:4 immb:3 opcode:5 1 rn:5 rd:5", "simd"),
    ("V3DIFF",   "0 q:1 u:1 01110 size:2 1 rm:5 opcode:4 00 rn:5 rd:5", "simd"),
    ("EXT",      "0 q:1 101110 00 0 rm:5 0 imm4:4 0 rn:5 rd:5", "simd"),
    ("TBL",      "0 q:1 001110 000 rm:5 0 len:2 op:1 00 rn:5 rd:5", "simd"),
    ("VPERM",    "0 q:1 001110 size:2 0 rm:5 0 opcode:3 10 rn:5 rd:5", "simd"),
    ("ADDP_S",   "01 0 11110 size:2 11000 11011 10 rn:5 rd:5", "simd"),
    ("VELEM",    "0 q:1 u:1 01111 size:2 l:1 m:1 rm:4 opcode:4 h:1 0 rn:5 rd:5", "simd"),
    ("S3SAME",   "01 u:1 11110 size:2 1 rm:5 opcode:5 1 rn:5 rd:5", "simd"),
    ("S2MISC",   "01 u:1 11110 size:2 10000 opcode:5 10 rn:5 rd:5", "simd"),
    ("SPAIR",    "01 u:1 11110 size:2 11000 opcode:5 10 rn:5 rd:5", "simd"),
    ("SSHIFT",   "01 u:1 111110 immh:4 immb:3 opcode:5 1 rn:5 rd:5", "simd"),
    ("DUP_S",    "01 0 11110000 imm5:5 0 0000 1 rn:5 rd:5", "simd"),
    ("SELEM",    "01 u:1 11111 size:2 l:1 m:1 rm:4 opcode:4 h:1 0 rn:5 rd:5", "simd"),
    ("S3DIFF",   "01 u:1 11110 size:2 1 rm:5 opcode:4 00 rn:5 rd:5", "simd"),   # SQDMULL.. (exec_sat)
]


@dataclass(frozen=True)
class Entry:
    name: str
    pattern: str
    cls: str
    mask: int
    value: int
    fields: dict  # name -> (lsb, width)
    sp: tuple = ()  # register fields where 31 means SP

    def extract(self, word: int) -> dict:
        return {k: (word >> lsb) & ((1 << w) - 1) for k, (lsb, w) in self.fields.items()}

    def encode(self, **fields) -> int:
        word = self.value
        for k, v in fields.items():
            lsb, w = self.fields[k]
            word |= (v & ((1 << w) - 1)) << lsb
        return word


def _parse(name: str, pattern: str, cls: str, options: str = "") -> Entry:
    sp = tuple(options.removeprefix("sp=").split(",")) if options else ()
    pos, mask, value, fields = 32, 0, 0, {}
    for tok in pattern.split():
        if ":" in tok:
            fname, w = tok.split(":")
            pos -= int(w)
            fields[fname] = (pos, int(w))
        else:
            for ch in tok:
                pos -= 1
                mask |= 1 << pos
                value |= int(ch) << pos
    if pos != 0:
        raise ValueError(f"pattern of {name} has {32 - pos} bits, not 32")
    if not set(sp) <= set(fields):
        raise ValueError(f"{name}: sp= names a field the pattern lacks")
    return Entry(name, pattern, cls, mask, value, fields, sp)


TABLE: list[Entry] = [_parse(*row) for row in _RAW]
BY_NAME = {e.name: e for e in TABLE}
NOPS = len(TABLE)

# op ids as module constants: T.ADD_I == 2, ...
globals().update({e.name: i for i, e in enumerate(TABLE)})

# The classes are contiguous ranges of op ids; the run loop dispatches on them.
CLASSES = ("int", "branch", "sys", "mem", "fp", "simd")
_first = {c: min(i for i, e in enumerate(TABLE) if e.cls == c) for c in CLASSES}
FIRST_BRANCH, FIRST_SYS, FIRST_MEM, FIRST_FP, FIRST_SIMD = (
    _first["branch"], _first["sys"], _first["mem"], _first["fp"], _first["simd"])
assert all(TABLE[i].cls == c for c in CLASSES for i in range(_first[c], _first[c] + sum(e.cls == c for e in TABLE)))
BY_NAME_ID = {e.name: i for i, e in enumerate(TABLE)}

# ---- register operands (see the module docstring) --------------------------
REG_SLOTS = (("rd", "rt"), ("rn",), ("rm", "rs"), ("ra", "rt2"))   # -> a, b, c, d
K_SRC, K_DST, K_SP = 0, 1, 2      # 31 means: ZR (read) / DISCARD (write) / SP


def _reg_operands():
    lsb = np.full((NOPS, 4), -1, np.int64)
    kind = np.zeros((NOPS, 4), np.int64)
    for op, e in enumerate(TABLE):
        for slot, names in enumerate(REG_SLOTS):
            for fname in names:
                if fname in e.fields:
                    lsb[op, slot] = e.fields[fname][0]
                    kind[op, slot] = K_SP if fname in e.sp else K_DST if fname == "rd" else K_SRC
    return lsb, kind


REG_LSB, REG_KIND = _reg_operands()
