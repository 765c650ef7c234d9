"""THE instruction table: every A64 encoding we implement, one line each.

Each line is (NAME, pattern, class[, options]).  A pattern lists the 32 bits
from bit 31 down: runs of literal `0`/`1` bits and `field:width` tokens (in the
style of QEMU's a64.decode).  From this table we build the decoder (mask/value
match, most specific pattern first), the register operands the decoder
resolves once per word (below), the disassembler (fields by name) and the
random instruction generator of the tests.  Constraints a pattern cannot say
(e.g. "size 11 is unallocated") are option x= (reserved combinations); the
older scalar rows still write theirs as code, in `decoder.valid`.

Register operands.  The register fields `rd`/`rt`, `rn`, `rm`/`rs` and
`ra`/`rt2` are resolved at decode time into register-file slots a, b, c, d
(state.py), so executors index the register file without testing for
register 31: a source 31 becomes the always-zero slot ZR, a destination 31
(`rd` only) the write-only slot DISCARD, and a field named in the row's
`sp=` option keeps 31, the stack pointer.  The SIMD&FP register fields
`vd`, `vn`, `vm`, `va` take the same slots with no special case (v31 is a
register like the others).

The op id of an entry is its index; module attributes `NAME = id` are created
below so compiled code can say `T.ADD_I` and get a compile-time constant.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

_V3 = "0 q:1 {u} 01110 size:2 1 vm:5 {o} 1 vn:5 vd:5"      # SIMD three same
_V3B = "0 q:1 {u} 01110 {size} 1 vm:5 00011 1 vn:5 vd:5"    # its bitwise forms: size is the op
_V3D = "0 q:1 {u} 01110 size:2 1 vm:5 {o} 00 vn:5 vd:5"      # SIMD three different
_S3D = "01 {u} 11110 size:2 1 vm:5 {o} 00 vn:5 vd:5"         # ... scalar (the SQDM* forms)
_S3 = "01 {u} 11110 {size} 1 vm:5 {o} 1 vn:5 vd:5"           # SIMD scalar three same (size 11: the 64-bit-only forms)
_S2 = "01 {u} 11110 {size} 10000 {o} 10 vn:5 vd:5"           # SIMD scalar two-register miscellaneous
_V2 = "0 q:1 {u} 01110 size:2 10000 {o} 10 vn:5 vd:5"        # SIMD two-register miscellaneous
_V2B = "0 q:1 {u} 01110 {size} 10000 {o} 10 vn:5 vd:5"       # the same with size part of the op
_V3F = "0 q:1 {u} 01110 {a} sz:1 1 vm:5 {o} 1 vn:5 vd:5"      # SIMD three same, FP (a: bit 23, part of the op)
_S3F = "01 {u} 11110 {a} sz:1 1 vm:5 {o} 1 vn:5 vd:5"         # ... scalar
_V2F = "0 q:1 {u} 01110 {a} sz:1 10000 {o} 10 vn:5 vd:5"      # SIMD two-register miscellaneous, FP
_S2F = "01 {u} 11110 {a} sz:1 10000 {o} 10 vn:5 vd:5"         # ... scalar
_VAC = "0 q:1 {u} 01110 size:2 11000 {o} 10 vn:5 vd:5"        # SIMD across lanes, integer
_VE = "0 q:1 {u} 01111 size:2 l:1 vm:5 {o} h:1 0 vn:5 vd:5"   # SIMD by element (vm: M:Rm, see exec_velem)
_SE = "01 {u} 11111 size:2 l:1 vm:5 {o} h:1 0 vn:5 vd:5"      # ... scalar
_VEF = "0 q:1 {u} 01111 1 sz:1 l:1 vm:5 {o} h:1 0 vn:5 vd:5"  # ... FP (single or double)
_SEF = "01 {u} 11111 1 sz:1 l:1 vm:5 {o} h:1 0 vn:5 vd:5"     # ... FP scalar
_V3H = "0 q:1 {u} 01110 {s} 0 1 vm:5 {o} 1 vn:5 vd:5"          # FEAT_FHM three same (FMLAL: s subtracts)
_VEH = "0 q:1 {u} 01111 10 l:1 vm:5 {o} h:1 0 vn:5 vd:5"       # ... by element (vm: M:Rm, as 16-bit lanes)
_VSH = "0 q:1 {u} 011110 immh:4 immb:3 {o} 1 vn:5 vd:5"     # SIMD shift by immediate (immh: lane size)
_SSH = "01 {u} 111110 immh:4 immb:3 {o} 1 vn:5 vd:5"        # its scalar twin
_VPERM = "0 q:1 001110 size:2 0 vm:5 0 {o} 10 vn:5 vd:5"     # SIMD permute
_VTBL = "0 q:1 001110 000 vm:5 0 {len} {x} 00 vn:5 vd:5"     # SIMD table lookup (len: registers - 1)
_VMI = "0 q:1 {op} 0111100000 abc:3 {cmode} 0 1 defgh:5 vd:5"  # SIMD modified immediate (cmode: its bits)
_V3X = "0 q:1 1 01110 size:2 0 vm:5 1 {o} 1 vn:5 vd:5"        # SIMD three same extra (ARMv8.1 RDM)
_S3X = "01 1 11110 size:2 0 vm:5 1 {o} 1 vn:5 vd:5"           # ... scalar



def _vstruct_rows():
    """The vector structure loads and stores, one row per form (`LD1_m2`: LD1 of two
    registers; `LD3_e`: LD3 of one lane; `LD2R`; `_POST`: post-indexed, by #size or by
    Xm), generated because the forms differ only in a few fixed bits:
    multiple structures  0 q 0011 00 P L 0 (rm|00000) opcode size rn vt
    one lane, replicate  0 q 0011 01 P L R (rm|00000) opcode:3 s size rn vt,
    with n = opcode<0>:R + 1 for the lane and replicate forms (opcode<2:1> = 11:
    replicate; else the lane size: 00 byte, 01 half (size<0> = 0), 10 word
    (size = 00) or doubleword (size = 01, S = 0)).  Reserved: .1d of the
    interleaved forms (LD2-LD4 multiple), the other lane sizes, and replicate
    with S = 1 (each an x= option; the replicate rows are more specific, so the
    lane rows reserve opcode<2:1> = 11 too).  asm: vt.Mn / vt.En / vt.Rn the
    register list, rm.PMn / rm.PEn / rm.PRn the post-index."""
    rows = []
    multiple = {"1_m1": "0111", "1_m2": "1010", "1_m3": "0110", "1_m4": "0010", "2_m": "1000",
                "3_m": "0100", "4_m": "0000"}
    for post in (0, 1):
        mid = "rm:5" if post else "00000"
        sfx = "_POST" if post else ""
        for ld in (0, 1):
            for form, opc in multiple.items():
                n = form[-1] if form[-1].isdigit() else form[0]
                x = "" if form.startswith("1") else "x=size:3,q:0 "
                rows.append((f"{'LD' if ld else 'ST'}{form}{sfx}",
                             f"0 q:1 0011 00 {post} {ld} 0 {mid} {opc} size:2 rn:5 vt:5", "mem",
                             f"{x}sp=rn mn={'ld' if ld else 'st'}{form[0]} asm=vt.M{n},[rn]"
                             + (f",rm.PM{n}" if post else "")))
            for n in (1, 2, 3, 4):
                o0, r = (n - 1) >> 1, (n - 1) & 1
                rows.append((f"{'LD' if ld else 'ST'}{n}_e{sfx}",
                             f"0 q:1 0011 01 {post} {ld} {r} {mid} sc:2 {o0} s:1 size:2 rn:5 vt:5", "mem",
                             "x=sc:3 x=sc:1,size:bx1 x=sc:2,size:b1x x=sc:2,size:1,s:1 "
                             f"sp=rn mn={'ld' if ld else 'st'}{n} asm=vt.E{n},[rn]" + (f",rm.PE{n}" if post else "")))
                if ld:
                    rows.append((f"LD{n}R{sfx}",
                                 f"0 q:1 0011 01 {post} 1 {r} {mid} 11 {o0} 0 size:2 rn:5 vt:5", "mem",
                                 f"sp=rn asm=vt.R{n},[rn]" + (f",rm.PR{n}" if post else "")))
    return rows


_VSTRUCT_ROWS = _vstruct_rows()

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
    *_VSTRUCT_ROWS,
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
    # ---- Advanced SIMD copy: DUP, INS, SMOV, UMOV (one row per form) --------------
    # imm5's lowest set bit is the lane size (xxxx1 bytes .. x1000 doublewords), the bits
    # above it the index; imm5 = x0000 is reserved, and so is every size the form does
    # not have: .1d (x1000 with Q = 0), SMOV's doubleword (and word, into W), UMOV into W
    # of a doubleword, into X of anything but a doubleword.  asm: vd.IT is the arrangement
    # of imm5's size and Q, vn.JX the element, rn.IR W or X by the lane size.
    ("DUP_ve",   "0 q:1 0 01110000 imm5:5 0 0000 1 vn:5 vd:5", "simd", "x=imm5:bx0000 x=imm5:bx1000,q:0 asm=vd.IT,vn.JX"),
    ("DUP_vg",   "0 q:1 0 01110000 imm5:5 0 0001 1 rn:5 vd:5", "simd", "x=imm5:bx0000 x=imm5:bx1000,q:0 asm=vd.IT,rn.IR"),
    ("INS_vg",   "0 1 0 01110000 imm5:5 0 0011 1 rn:5 vd:5", "simd", "x=imm5:bx0000 mn=mov asm=vd.JX,rn.IR"),
    ("SMOV_w",   "0 0 0 01110000 imm5:5 0 0101 1 vn:5 rd:5", "simd", "x=imm5:bxxx00 asm=rd.w,vn.JX"),
    ("SMOV_x",   "0 1 0 01110000 imm5:5 0 0101 1 vn:5 rd:5", "simd", "x=imm5:bxx000 asm=rd.x,vn.JX"),
    ("UMOV_w",   "0 0 0 01110000 imm5:5 0 0111 1 vn:5 rd:5", "simd", "x=imm5:bxx000 asm=rd.w,vn.JX"),
    ("UMOV_x",   "0 1 0 01110000 imm5:5 0 0111 1 vn:5 rd:5", "simd",
     "x=imm5:bxxxx1 x=imm5:bxxx10 x=imm5:bxx100 x=imm5:bx0000 mn=mov asm=rd.x,vn.JX"),
    ("INS_ve",   "0 1 1 01110000 imm5:5 0 imm4:4 1 vn:5 vd:5", "simd", "x=imm5:bx0000 mn=mov asm=vd.JX,vn.I4"),
    # ---- Advanced SIMD modified immediate (one row per form) -------------------------
    # abc:defgh is the 8-bit immediate; cmode's free bits say its shift; option imm=simd:
    # the decoder expands it once to the 64-bit pattern (decoder.simd_expand_imm), so the
    # families only copy, invert, OR or AND-NOT it.  FMOV .2d needs Q = 1.
    ("MOVI_v32", _VMI.format(op=0, cmode="0 cm:2 0"), "simd", "imm=simd asm=vd.S32,#i8,LSL"),
    ("ORR_vi32", _VMI.format(op=0, cmode="0 cm:2 1"), "simd", "imm=simd mn=orr asm=vd.S32,#i8,LSL"),
    ("MVNI_v32", _VMI.format(op=1, cmode="0 cm:2 0"), "simd", "imm=simd asm=vd.S32,#i8,LSL"),
    ("BIC_vi32", _VMI.format(op=1, cmode="0 cm:2 1"), "simd", "imm=simd mn=bic asm=vd.S32,#i8,LSL"),
    ("MOVI_v16", _VMI.format(op=0, cmode="10 cm:1 0"), "simd", "imm=simd asm=vd.S16,#i8,LSL"),
    ("ORR_vi16", _VMI.format(op=0, cmode="10 cm:1 1"), "simd", "imm=simd mn=orr asm=vd.S16,#i8,LSL"),
    ("MVNI_v16", _VMI.format(op=1, cmode="10 cm:1 0"), "simd", "imm=simd asm=vd.S16,#i8,LSL"),
    ("BIC_vi16", _VMI.format(op=1, cmode="10 cm:1 1"), "simd", "imm=simd mn=bic asm=vd.S16,#i8,LSL"),
    ("MOVI_msl", _VMI.format(op=0, cmode="110 cm:1"), "simd", "imm=simd asm=vd.S32,#i8,MSL"),
    ("MVNI_msl", _VMI.format(op=1, cmode="110 cm:1"), "simd", "imm=simd asm=vd.S32,#i8,MSL"),
    ("MOVI_v8",  _VMI.format(op=0, cmode="1110"), "simd", "imm=simd asm=vd.B,#i8"),
    ("MOVI_v64", _VMI.format(op=1, cmode="1110"), "simd", "imm=simd asm=vd.D64,#i64"),
    ("FMOV_vs",  _VMI.format(op=0, cmode="1111"), "simd", "imm=simd asm=vd.S32,#f32"),
    ("FMOV_vd",  _VMI.format(op=1, cmode="1111"), "simd", "imm=simd x=q:0 asm=vd.2d,#f64"),
    # ---- Advanced SIMD three same, integer (one row per form) ------------------
    # _V3 is the group's pattern; U and opcode are each row's fixed bits.  Constraints:
    # x=FIELD:VALUE,... marks a reserved combination (no .1d vector: x=size:3,q:0).
    # asm= spells the operands (disasm.py, "operand templates").
    ("SHADD_v",   _V3.format(u=0, o="00000"), "simd", "x=size:3 asm=vd.T,vn.T,vm.T"),
    ("UHADD_v",   _V3.format(u=1, o="00000"), "simd", "x=size:3 asm=vd.T,vn.T,vm.T"),
    ("SQADD_v",   _V3.format(u=0, o="00001"), "simd", "x=size:3,q:0 asm=vd.T,vn.T,vm.T"),
    ("UQADD_v",   _V3.format(u=1, o="00001"), "simd", "x=size:3,q:0 asm=vd.T,vn.T,vm.T"),
    ("SRHADD_v",  _V3.format(u=0, o="00010"), "simd", "x=size:3 asm=vd.T,vn.T,vm.T"),
    ("URHADD_v",  _V3.format(u=1, o="00010"), "simd", "x=size:3 asm=vd.T,vn.T,vm.T"),
    ("SHSUB_v",   _V3.format(u=0, o="00100"), "simd", "x=size:3 asm=vd.T,vn.T,vm.T"),
    ("UHSUB_v",   _V3.format(u=1, o="00100"), "simd", "x=size:3 asm=vd.T,vn.T,vm.T"),
    ("SQSUB_v",   _V3.format(u=0, o="00101"), "simd", "x=size:3,q:0 asm=vd.T,vn.T,vm.T"),
    ("UQSUB_v",   _V3.format(u=1, o="00101"), "simd", "x=size:3,q:0 asm=vd.T,vn.T,vm.T"),
    ("CMGT_v",    _V3.format(u=0, o="00110"), "simd", "x=size:3,q:0 asm=vd.T,vn.T,vm.T"),
    ("CMHI_v",    _V3.format(u=1, o="00110"), "simd", "x=size:3,q:0 asm=vd.T,vn.T,vm.T"),
    ("CMGE_v",    _V3.format(u=0, o="00111"), "simd", "x=size:3,q:0 asm=vd.T,vn.T,vm.T"),
    ("CMHS_v",    _V3.format(u=1, o="00111"), "simd", "x=size:3,q:0 asm=vd.T,vn.T,vm.T"),
    ("SSHL_v",    _V3.format(u=0, o="01000"), "simd", "x=size:3,q:0 asm=vd.T,vn.T,vm.T"),
    ("USHL_v",    _V3.format(u=1, o="01000"), "simd", "x=size:3,q:0 asm=vd.T,vn.T,vm.T"),
    ("SQSHL_v",   _V3.format(u=0, o="01001"), "simd", "x=size:3,q:0 asm=vd.T,vn.T,vm.T"),
    ("UQSHL_v",   _V3.format(u=1, o="01001"), "simd", "x=size:3,q:0 asm=vd.T,vn.T,vm.T"),
    ("SRSHL_v",   _V3.format(u=0, o="01010"), "simd", "x=size:3,q:0 asm=vd.T,vn.T,vm.T"),
    ("URSHL_v",   _V3.format(u=1, o="01010"), "simd", "x=size:3,q:0 asm=vd.T,vn.T,vm.T"),
    ("SQRSHL_v",  _V3.format(u=0, o="01011"), "simd", "x=size:3,q:0 asm=vd.T,vn.T,vm.T"),
    ("UQRSHL_v",  _V3.format(u=1, o="01011"), "simd", "x=size:3,q:0 asm=vd.T,vn.T,vm.T"),
    ("SMAX_v",    _V3.format(u=0, o="01100"), "simd", "x=size:3 asm=vd.T,vn.T,vm.T"),
    ("UMAX_v",    _V3.format(u=1, o="01100"), "simd", "x=size:3 asm=vd.T,vn.T,vm.T"),
    ("SMIN_v",    _V3.format(u=0, o="01101"), "simd", "x=size:3 asm=vd.T,vn.T,vm.T"),
    ("UMIN_v",    _V3.format(u=1, o="01101"), "simd", "x=size:3 asm=vd.T,vn.T,vm.T"),
    ("SABD_v",    _V3.format(u=0, o="01110"), "simd", "x=size:3 asm=vd.T,vn.T,vm.T"),
    ("UABD_v",    _V3.format(u=1, o="01110"), "simd", "x=size:3 asm=vd.T,vn.T,vm.T"),
    ("SABA_v",    _V3.format(u=0, o="01111"), "simd", "x=size:3 asm=vd.T,vn.T,vm.T"),
    ("UABA_v",    _V3.format(u=1, o="01111"), "simd", "x=size:3 asm=vd.T,vn.T,vm.T"),
    ("ADD_v",     _V3.format(u=0, o="10000"), "simd", "x=size:3,q:0 asm=vd.T,vn.T,vm.T"),
    ("SUB_v",     _V3.format(u=1, o="10000"), "simd", "x=size:3,q:0 asm=vd.T,vn.T,vm.T"),
    ("CMTST_v",   _V3.format(u=0, o="10001"), "simd", "x=size:3,q:0 asm=vd.T,vn.T,vm.T"),
    ("CMEQ_v",    _V3.format(u=1, o="10001"), "simd", "x=size:3,q:0 asm=vd.T,vn.T,vm.T"),
    ("MLA_v",     _V3.format(u=0, o="10010"), "simd", "x=size:3 asm=vd.T,vn.T,vm.T"),
    ("MLS_v",     _V3.format(u=1, o="10010"), "simd", "x=size:3 asm=vd.T,vn.T,vm.T"),
    ("MUL_v",     _V3.format(u=0, o="10011"), "simd", "x=size:3 asm=vd.T,vn.T,vm.T"),
    ("PMUL_v",    _V3.format(u=1, o="10011"), "simd", "x=size:1 x=size:2 x=size:3 asm=vd.T,vn.T,vm.T"),
    ("SMAXP_v",   _V3.format(u=0, o="10100"), "simd", "x=size:3 asm=vd.T,vn.T,vm.T"),
    ("UMAXP_v",   _V3.format(u=1, o="10100"), "simd", "x=size:3 asm=vd.T,vn.T,vm.T"),
    ("SMINP_v",   _V3.format(u=0, o="10101"), "simd", "x=size:3 asm=vd.T,vn.T,vm.T"),
    ("UMINP_v",   _V3.format(u=1, o="10101"), "simd", "x=size:3 asm=vd.T,vn.T,vm.T"),
    ("SQDMULH_v", _V3.format(u=0, o="10110"), "simd", "x=size:0 x=size:3 asm=vd.T,vn.T,vm.T"),
    ("SQRDMULH_v",_V3.format(u=1, o="10110"), "simd", "x=size:0 x=size:3 asm=vd.T,vn.T,vm.T"),
    ("ADDP_v",    _V3.format(u=0, o="10111"), "simd", "x=size:3,q:0 asm=vd.T,vn.T,vm.T"),
    # ARMv8.1 RDM (three same extra): SQRDMULH's result accumulated into (subtracted from) Vd
    ("SQRDMLAH_v", _V3X.format(o="0000"), "simd", "x=size:0 x=size:3 asm=vd.T,vn.T,vm.T"),
    ("SQRDMLSH_v", _V3X.format(o="0001"), "simd", "x=size:0 x=size:3 asm=vd.T,vn.T,vm.T"),
    ("SQRDMLAH_s", _S3X.format(o="0000"), "simd", "x=size:0 x=size:3 asm=vd.E,vn.E,vm.E"),
    ("SQRDMLSH_s", _S3X.format(o="0001"), "simd", "x=size:0 x=size:3 asm=vd.E,vn.E,vm.E"),
    ("AND_v",     _V3B.format(u=0, size="00"), "simd", "asm=vd.B,vn.B,vm.B"),
    ("BIC_v",     _V3B.format(u=0, size="01"), "simd", "asm=vd.B,vn.B,vm.B"),
    ("ORR_v",     _V3B.format(u=0, size="10"), "simd", "asm=vd.B,vn.B,vm.B"),
    ("ORN_v",     _V3B.format(u=0, size="11"), "simd", "asm=vd.B,vn.B,vm.B"),
    ("EOR_v",     _V3B.format(u=1, size="00"), "simd", "asm=vd.B,vn.B,vm.B"),
    ("BSL_v",     _V3B.format(u=1, size="01"), "simd", "asm=vd.B,vn.B,vm.B"),
    ("BIT_v",     _V3B.format(u=1, size="10"), "simd", "asm=vd.B,vn.B,vm.B"),
    ("BIF_v",     _V3B.format(u=1, size="11"), "simd", "asm=vd.B,vn.B,vm.B"),
    # ---- Advanced SIMD three different (one row per form) --------------------------
    # Long (wide result), wide (wide first source) and narrow-high forms; the
    # mnemonic takes a 2 when Q = 1 (option q2: the upper halves are read or written).
    ("SADDL_v",   _V3D.format(u=0, o="0000"), "simd", "x=size:3 q2 asm=vd.W,vn.T,vm.T"),
    ("UADDL_v",   _V3D.format(u=1, o="0000"), "simd", "x=size:3 q2 asm=vd.W,vn.T,vm.T"),
    ("SADDW_v",   _V3D.format(u=0, o="0001"), "simd", "x=size:3 q2 asm=vd.W,vn.W,vm.T"),
    ("UADDW_v",   _V3D.format(u=1, o="0001"), "simd", "x=size:3 q2 asm=vd.W,vn.W,vm.T"),
    ("SSUBL_v",   _V3D.format(u=0, o="0010"), "simd", "x=size:3 q2 asm=vd.W,vn.T,vm.T"),
    ("USUBL_v",   _V3D.format(u=1, o="0010"), "simd", "x=size:3 q2 asm=vd.W,vn.T,vm.T"),
    ("SSUBW_v",   _V3D.format(u=0, o="0011"), "simd", "x=size:3 q2 asm=vd.W,vn.W,vm.T"),
    ("USUBW_v",   _V3D.format(u=1, o="0011"), "simd", "x=size:3 q2 asm=vd.W,vn.W,vm.T"),
    ("ADDHN_v",   _V3D.format(u=0, o="0100"), "simd", "x=size:3 q2 asm=vd.T,vn.W,vm.W"),
    ("RADDHN_v",  _V3D.format(u=1, o="0100"), "simd", "x=size:3 q2 asm=vd.T,vn.W,vm.W"),
    ("SABAL_v",   _V3D.format(u=0, o="0101"), "simd", "x=size:3 q2 asm=vd.W,vn.T,vm.T"),
    ("UABAL_v",   _V3D.format(u=1, o="0101"), "simd", "x=size:3 q2 asm=vd.W,vn.T,vm.T"),
    ("SUBHN_v",   _V3D.format(u=0, o="0110"), "simd", "x=size:3 q2 asm=vd.T,vn.W,vm.W"),
    ("RSUBHN_v",  _V3D.format(u=1, o="0110"), "simd", "x=size:3 q2 asm=vd.T,vn.W,vm.W"),
    ("SABDL_v",   _V3D.format(u=0, o="0111"), "simd", "x=size:3 q2 asm=vd.W,vn.T,vm.T"),
    ("UABDL_v",   _V3D.format(u=1, o="0111"), "simd", "x=size:3 q2 asm=vd.W,vn.T,vm.T"),
    ("SMLAL_v",   _V3D.format(u=0, o="1000"), "simd", "x=size:3 q2 asm=vd.W,vn.T,vm.T"),
    ("UMLAL_v",   _V3D.format(u=1, o="1000"), "simd", "x=size:3 q2 asm=vd.W,vn.T,vm.T"),
    ("SQDMLAL_v", _V3D.format(u=0, o="1001"), "simd", "x=size:0 x=size:3 q2 asm=vd.W,vn.T,vm.T"),
    ("SMLSL_v",   _V3D.format(u=0, o="1010"), "simd", "x=size:3 q2 asm=vd.W,vn.T,vm.T"),
    ("UMLSL_v",   _V3D.format(u=1, o="1010"), "simd", "x=size:3 q2 asm=vd.W,vn.T,vm.T"),
    ("SQDMLSL_v", _V3D.format(u=0, o="1011"), "simd", "x=size:0 x=size:3 q2 asm=vd.W,vn.T,vm.T"),
    ("SMULL_v",   _V3D.format(u=0, o="1100"), "simd", "x=size:3 q2 asm=vd.W,vn.T,vm.T"),
    ("UMULL_v",   _V3D.format(u=1, o="1100"), "simd", "x=size:3 q2 asm=vd.W,vn.T,vm.T"),
    ("SQDMULL_v", _V3D.format(u=0, o="1101"), "simd", "x=size:0 x=size:3 q2 asm=vd.W,vn.T,vm.T"),
    ("PMULL_v",   _V3D.format(u=0, o="1110"), "simd", "x=size:1 x=size:2 q2 asm=vd.W,vn.T,vm.T"),
    ("SQDMLAL_s", _S3D.format(u=0, o="1001"), "simd", "x=size:0 x=size:3 asm=vd.EW,vn.E,vm.E"),
    ("SQDMLSL_s", _S3D.format(u=0, o="1011"), "simd", "x=size:0 x=size:3 asm=vd.EW,vn.E,vm.E"),
    ("SQDMULL_s", _S3D.format(u=0, o="1101"), "simd", "x=size:0 x=size:3 asm=vd.EW,vn.E,vm.E"),
    # ---- Advanced SIMD two-register miscellaneous, integer (one row per form) ------
    ("REV64_v",   _V2.format(u=0, o="00000"), "simd", "x=size:3 asm=vd.T,vn.T"),
    ("REV32_v",   _V2.format(u=1, o="00000"), "simd", "x=size:2 x=size:3 asm=vd.T,vn.T"),
    ("REV16_v",   _V2B.format(u=0, size="00", o="00001"), "simd", "asm=vd.B,vn.B"),
    ("SADDLP_v",  _V2.format(u=0, o="00010"), "simd", "x=size:3 asm=vd.P,vn.T"),
    ("UADDLP_v",  _V2.format(u=1, o="00010"), "simd", "x=size:3 asm=vd.P,vn.T"),
    ("SUQADD_v",  _V2.format(u=0, o="00011"), "simd", "x=size:3,q:0 asm=vd.T,vn.T"),
    ("USQADD_v",  _V2.format(u=1, o="00011"), "simd", "x=size:3,q:0 asm=vd.T,vn.T"),
    ("CLS_v",     _V2.format(u=0, o="00100"), "simd", "x=size:3 asm=vd.T,vn.T"),
    ("CLZ_v",     _V2.format(u=1, o="00100"), "simd", "x=size:3 asm=vd.T,vn.T"),
    ("CNT_v",     _V2B.format(u=0, size="00", o="00101"), "simd", "asm=vd.B,vn.B"),
    ("NOT_v",     _V2B.format(u=1, size="00", o="00101"), "simd", "mn=mvn asm=vd.B,vn.B"),
    ("RBIT_v",    _V2B.format(u=1, size="01", o="00101"), "simd", "asm=vd.B,vn.B"),
    ("SADALP_v",  _V2.format(u=0, o="00110"), "simd", "x=size:3 asm=vd.P,vn.T"),
    ("UADALP_v",  _V2.format(u=1, o="00110"), "simd", "x=size:3 asm=vd.P,vn.T"),
    ("SQABS_v",   _V2.format(u=0, o="00111"), "simd", "x=size:3,q:0 asm=vd.T,vn.T"),
    ("SQNEG_v",   _V2.format(u=1, o="00111"), "simd", "x=size:3,q:0 asm=vd.T,vn.T"),
    ("CMGT0_v",   _V2.format(u=0, o="01000"), "simd", "x=size:3,q:0 mn=cmgt asm=vd.T,vn.T,#0"),
    ("CMGE0_v",   _V2.format(u=1, o="01000"), "simd", "x=size:3,q:0 mn=cmge asm=vd.T,vn.T,#0"),
    ("CMEQ0_v",   _V2.format(u=0, o="01001"), "simd", "x=size:3,q:0 mn=cmeq asm=vd.T,vn.T,#0"),
    ("CMLE0_v",   _V2.format(u=1, o="01001"), "simd", "x=size:3,q:0 mn=cmle asm=vd.T,vn.T,#0"),
    ("CMLT0_v",   _V2.format(u=0, o="01010"), "simd", "x=size:3,q:0 mn=cmlt asm=vd.T,vn.T,#0"),
    ("ABS_v",     _V2.format(u=0, o="01011"), "simd", "x=size:3,q:0 asm=vd.T,vn.T"),
    ("NEG_v",     _V2.format(u=1, o="01011"), "simd", "x=size:3,q:0 asm=vd.T,vn.T"),
    ("XTN_v",     _V2.format(u=0, o="10010"), "simd", "x=size:3 q2 asm=vd.T,vn.W"),
    ("SQXTUN_v",  _V2.format(u=1, o="10010"), "simd", "x=size:3 q2 asm=vd.T,vn.W"),
    ("SHLL_v",    _V2.format(u=1, o="10011"), "simd", "x=size:3 q2 asm=vd.W,vn.T,#E"),
    ("SQXTN_v",   _V2.format(u=0, o="10100"), "simd", "x=size:3 q2 asm=vd.T,vn.W"),
    ("UQXTN_v",   _V2.format(u=1, o="10100"), "simd", "x=size:3 q2 asm=vd.T,vn.W"),
    # ---- Advanced SIMD three same, floating point (one row per form) -------------
    # sz picks single (0) or double (1) lanes; .1d is reserved (x=sz:1,q:0).
    ("FMAXNM_v", _V3F.format(u=0, a=0, o="11000"), "simd", "x=sz:1,q:0 asm=vd.F,vn.F,vm.F"),
    ("FMLA_v",   _V3F.format(u=0, a=0, o="11001"), "simd", "x=sz:1,q:0 asm=vd.F,vn.F,vm.F"),
    ("FADD_v",   _V3F.format(u=0, a=0, o="11010"), "simd", "x=sz:1,q:0 asm=vd.F,vn.F,vm.F"),
    ("FMULX_v",  _V3F.format(u=0, a=0, o="11011"), "simd", "x=sz:1,q:0 asm=vd.F,vn.F,vm.F"),
    ("FCMEQ_v",  _V3F.format(u=0, a=0, o="11100"), "simd", "x=sz:1,q:0 asm=vd.F,vn.F,vm.F"),
    ("FMAX_v",   _V3F.format(u=0, a=0, o="11110"), "simd", "x=sz:1,q:0 asm=vd.F,vn.F,vm.F"),
    ("FMINNM_v", _V3F.format(u=0, a=1, o="11000"), "simd", "x=sz:1,q:0 asm=vd.F,vn.F,vm.F"),
    ("FMLS_v",   _V3F.format(u=0, a=1, o="11001"), "simd", "x=sz:1,q:0 asm=vd.F,vn.F,vm.F"),
    ("FSUB_v",   _V3F.format(u=0, a=1, o="11010"), "simd", "x=sz:1,q:0 asm=vd.F,vn.F,vm.F"),
    ("FMIN_v",   _V3F.format(u=0, a=1, o="11110"), "simd", "x=sz:1,q:0 asm=vd.F,vn.F,vm.F"),
    ("FMAXNMP_v", _V3F.format(u=1, a=0, o="11000"), "simd", "x=sz:1,q:0 asm=vd.F,vn.F,vm.F"),
    ("FADDP_v",  _V3F.format(u=1, a=0, o="11010"), "simd", "x=sz:1,q:0 asm=vd.F,vn.F,vm.F"),
    ("FMUL_v",   _V3F.format(u=1, a=0, o="11011"), "simd", "x=sz:1,q:0 asm=vd.F,vn.F,vm.F"),
    ("FCMGE_v",  _V3F.format(u=1, a=0, o="11100"), "simd", "x=sz:1,q:0 asm=vd.F,vn.F,vm.F"),
    ("FACGE_v",  _V3F.format(u=1, a=0, o="11101"), "simd", "x=sz:1,q:0 asm=vd.F,vn.F,vm.F"),
    ("FMAXP_v",  _V3F.format(u=1, a=0, o="11110"), "simd", "x=sz:1,q:0 asm=vd.F,vn.F,vm.F"),
    ("FDIV_v",   _V3F.format(u=1, a=0, o="11111"), "simd", "x=sz:1,q:0 asm=vd.F,vn.F,vm.F"),
    ("FMINNMP_v", _V3F.format(u=1, a=1, o="11000"), "simd", "x=sz:1,q:0 asm=vd.F,vn.F,vm.F"),
    ("FABD_v",   _V3F.format(u=1, a=1, o="11010"), "simd", "x=sz:1,q:0 asm=vd.F,vn.F,vm.F"),
    ("FCMGT_v",  _V3F.format(u=1, a=1, o="11100"), "simd", "x=sz:1,q:0 asm=vd.F,vn.F,vm.F"),
    ("FACGT_v",  _V3F.format(u=1, a=1, o="11101"), "simd", "x=sz:1,q:0 asm=vd.F,vn.F,vm.F"),
    ("FMINP_v",  _V3F.format(u=1, a=1, o="11110"), "simd", "x=sz:1,q:0 asm=vd.F,vn.F,vm.F"),
    ("FRECPS_v", _V3F.format(u=0, a=0, o="11111"), "simd", "x=sz:1,q:0 asm=vd.F,vn.F,vm.F"),
    ("FRSQRTS_v", _V3F.format(u=0, a=1, o="11111"), "simd", "x=sz:1,q:0 asm=vd.F,vn.F,vm.F"),
    # FEAT_FHM: half-precision products into single lanes; "2": the upper half of the sources
    ("FMLAL_v",  _V3H.format(u=0, s=0, o="11101"), "simd", "asm=vd.S32,vn.HQ,vm.HQ"),
    ("FMLSL_v",  _V3H.format(u=0, s=1, o="11101"), "simd", "asm=vd.S32,vn.HQ,vm.HQ"),
    ("FMLAL2_v", _V3H.format(u=1, s=0, o="11001"), "simd", "asm=vd.S32,vn.HQ,vm.HQ"),
    ("FMLSL2_v", _V3H.format(u=1, s=1, o="11001"), "simd", "asm=vd.S32,vn.HQ,vm.HQ"),
    # ... scalar (s or d registers)
    ("FMULX_s",  _S3F.format(u=0, a=0, o="11011"), "simd", "asm=vd.S,vn.S,vm.S"),
    ("FCMEQ_s",  _S3F.format(u=0, a=0, o="11100"), "simd", "asm=vd.S,vn.S,vm.S"),
    ("FCMGE_s",  _S3F.format(u=1, a=0, o="11100"), "simd", "asm=vd.S,vn.S,vm.S"),
    ("FACGE_s",  _S3F.format(u=1, a=0, o="11101"), "simd", "asm=vd.S,vn.S,vm.S"),
    ("FABD_s",   _S3F.format(u=1, a=1, o="11010"), "simd", "asm=vd.S,vn.S,vm.S"),
    ("FCMGT_s",  _S3F.format(u=1, a=1, o="11100"), "simd", "asm=vd.S,vn.S,vm.S"),
    ("FACGT_s",  _S3F.format(u=1, a=1, o="11101"), "simd", "asm=vd.S,vn.S,vm.S"),
    ("FRECPS_s", _S3F.format(u=0, a=0, o="11111"), "simd", "asm=vd.S,vn.S,vm.S"),
    ("FRSQRTS_s", _S3F.format(u=0, a=1, o="11111"), "simd", "asm=vd.S,vn.S,vm.S"),
    # ---- Advanced SIMD two-register miscellaneous, floating point (one row per form) ----
    ("FCMGT0_v", _V2F.format(u=0, a=1, o="01100"), "simd", "x=sz:1,q:0 mn=fcmgt asm=vd.F,vn.F,#0.0"),
    ("FCMGE0_v", _V2F.format(u=1, a=1, o="01100"), "simd", "x=sz:1,q:0 mn=fcmge asm=vd.F,vn.F,#0.0"),
    ("FCMEQ0_v", _V2F.format(u=0, a=1, o="01101"), "simd", "x=sz:1,q:0 mn=fcmeq asm=vd.F,vn.F,#0.0"),
    ("FCMLE0_v", _V2F.format(u=1, a=1, o="01101"), "simd", "x=sz:1,q:0 mn=fcmle asm=vd.F,vn.F,#0.0"),
    ("FCMLT0_v", _V2F.format(u=0, a=1, o="01110"), "simd", "x=sz:1,q:0 mn=fcmlt asm=vd.F,vn.F,#0.0"),
    ("FABS_v",   _V2F.format(u=0, a=1, o="01111"), "simd", "x=sz:1,q:0 asm=vd.F,vn.F"),
    ("FNEG_v",   _V2F.format(u=1, a=1, o="01111"), "simd", "x=sz:1,q:0 asm=vd.F,vn.F"),
    ("FRINTN_v", _V2F.format(u=0, a=0, o="11000"), "simd", "x=sz:1,q:0 asm=vd.F,vn.F"),
    ("FRINTP_v", _V2F.format(u=0, a=1, o="11000"), "simd", "x=sz:1,q:0 asm=vd.F,vn.F"),
    ("FRINTA_v", _V2F.format(u=1, a=0, o="11000"), "simd", "x=sz:1,q:0 asm=vd.F,vn.F"),
    ("FRINTM_v", _V2F.format(u=0, a=0, o="11001"), "simd", "x=sz:1,q:0 asm=vd.F,vn.F"),
    ("FRINTZ_v", _V2F.format(u=0, a=1, o="11001"), "simd", "x=sz:1,q:0 asm=vd.F,vn.F"),
    ("FRINTX_v", _V2F.format(u=1, a=0, o="11001"), "simd", "x=sz:1,q:0 asm=vd.F,vn.F"),
    ("FRINTI_v", _V2F.format(u=1, a=1, o="11001"), "simd", "x=sz:1,q:0 asm=vd.F,vn.F"),
    ("FCVTNS_v", _V2F.format(u=0, a=0, o="11010"), "simd", "x=sz:1,q:0 asm=vd.F,vn.F"),
    ("FCVTPS_v", _V2F.format(u=0, a=1, o="11010"), "simd", "x=sz:1,q:0 asm=vd.F,vn.F"),
    ("FCVTNU_v", _V2F.format(u=1, a=0, o="11010"), "simd", "x=sz:1,q:0 asm=vd.F,vn.F"),
    ("FCVTPU_v", _V2F.format(u=1, a=1, o="11010"), "simd", "x=sz:1,q:0 asm=vd.F,vn.F"),
    ("FCVTMS_v", _V2F.format(u=0, a=0, o="11011"), "simd", "x=sz:1,q:0 asm=vd.F,vn.F"),
    ("FCVTZS_v", _V2F.format(u=0, a=1, o="11011"), "simd", "x=sz:1,q:0 asm=vd.F,vn.F"),
    ("FCVTMU_v", _V2F.format(u=1, a=0, o="11011"), "simd", "x=sz:1,q:0 asm=vd.F,vn.F"),
    ("FCVTZU_v", _V2F.format(u=1, a=1, o="11011"), "simd", "x=sz:1,q:0 asm=vd.F,vn.F"),
    ("FCVTAS_v", _V2F.format(u=0, a=0, o="11100"), "simd", "x=sz:1,q:0 asm=vd.F,vn.F"),
    ("FCVTAU_v", _V2F.format(u=1, a=0, o="11100"), "simd", "x=sz:1,q:0 asm=vd.F,vn.F"),
    ("SCVTF_v",  _V2F.format(u=0, a=0, o="11101"), "simd", "x=sz:1,q:0 asm=vd.F,vn.F"),
    ("UCVTF_v",  _V2F.format(u=1, a=0, o="11101"), "simd", "x=sz:1,q:0 asm=vd.F,vn.F"),
    ("FSQRT_v",  _V2F.format(u=1, a=1, o="11111"), "simd", "x=sz:1,q:0 asm=vd.F,vn.F"),
    # FCVTN/FCVTL: double <-> single (sz = 0 would be half precision, not offered: x=sz:0)
    ("FCVTN_v",  _V2F.format(u=0, a=0, o="10110"), "simd", "x=sz:0 q2 asm=vd.N,vn.L"),
    ("FCVTL_v",  _V2F.format(u=0, a=0, o="10111"), "simd", "x=sz:0 q2 asm=vd.L,vn.N"),
    # Reciprocal (square root) estimates, FP (fpu_estimate.py) and unsigned 32-bit fixed point
    ("FRECPE_v", _V2F.format(u=0, a=1, o="11101"), "simd", "x=sz:1,q:0 asm=vd.F,vn.F"),
    ("FRSQRTE_v", _V2F.format(u=1, a=1, o="11101"), "simd", "x=sz:1,q:0 asm=vd.F,vn.F"),
    ("URECPE_v", _V2F.format(u=0, a=1, o="11100"), "simd", "x=sz:1 asm=vd.F,vn.F"),
    ("URSQRTE_v", _V2F.format(u=1, a=1, o="11100"), "simd", "x=sz:1 asm=vd.F,vn.F"),
    # FCVTXN: double -> single rounding to odd (sz = 0 is reserved)
    ("FCVTXN_v", _V2F.format(u=1, a=0, o="10110"), "simd", "x=sz:0 q2 asm=vd.N,vn.L"),
    # ... scalar
    ("FRECPE_s", _S2F.format(u=0, a=1, o="11101"), "simd", "asm=vd.S,vn.S"),
    ("FRSQRTE_s", _S2F.format(u=1, a=1, o="11101"), "simd", "asm=vd.S,vn.S"),
    ("FRECPX_s", _S2F.format(u=0, a=1, o="11111"), "simd", "asm=vd.S,vn.S"),
    ("FCVTXN_s", _S2F.format(u=1, a=0, o="10110"), "simd", "x=sz:0 asm=vd.s,vn.d"),
    ("FCMGT0_s", _S2F.format(u=0, a=1, o="01100"), "simd", "mn=fcmgt asm=vd.S,vn.S,#0.0"),
    ("FCMGE0_s", _S2F.format(u=1, a=1, o="01100"), "simd", "mn=fcmge asm=vd.S,vn.S,#0.0"),
    ("FCMEQ0_s", _S2F.format(u=0, a=1, o="01101"), "simd", "mn=fcmeq asm=vd.S,vn.S,#0.0"),
    ("FCMLE0_s", _S2F.format(u=1, a=1, o="01101"), "simd", "mn=fcmle asm=vd.S,vn.S,#0.0"),
    ("FCMLT0_s", _S2F.format(u=0, a=1, o="01110"), "simd", "mn=fcmlt asm=vd.S,vn.S,#0.0"),
    ("FCVTNS_s", _S2F.format(u=0, a=0, o="11010"), "simd", "asm=vd.S,vn.S"),
    ("FCVTPS_s", _S2F.format(u=0, a=1, o="11010"), "simd", "asm=vd.S,vn.S"),
    ("FCVTNU_s", _S2F.format(u=1, a=0, o="11010"), "simd", "asm=vd.S,vn.S"),
    ("FCVTPU_s", _S2F.format(u=1, a=1, o="11010"), "simd", "asm=vd.S,vn.S"),
    ("FCVTMS_s", _S2F.format(u=0, a=0, o="11011"), "simd", "asm=vd.S,vn.S"),
    ("FCVTZS_s", _S2F.format(u=0, a=1, o="11011"), "simd", "asm=vd.S,vn.S"),
    ("FCVTMU_s", _S2F.format(u=1, a=0, o="11011"), "simd", "asm=vd.S,vn.S"),
    ("FCVTZU_s", _S2F.format(u=1, a=1, o="11011"), "simd", "asm=vd.S,vn.S"),
    ("FCVTAS_s", _S2F.format(u=0, a=0, o="11100"), "simd", "asm=vd.S,vn.S"),
    ("FCVTAU_s", _S2F.format(u=1, a=0, o="11100"), "simd", "asm=vd.S,vn.S"),
    ("SCVTF_s",  _S2F.format(u=0, a=0, o="11101"), "simd", "asm=vd.S,vn.S"),
    ("UCVTF_s",  _S2F.format(u=1, a=0, o="11101"), "simd", "asm=vd.S,vn.S"),
    # ---- Advanced SIMD pairwise, scalar: ADDP (64-bit lanes only) and the FP forms ----
    ("ADDP_s",   "01 0 11110 11 11000 11011 10 vn:5 vd:5", "simd", "asm=vd.d,vn.2d"),
    ("FMAXNMP_s", "01 1 11110 0 sz:1 11000 01100 10 vn:5 vd:5", "simd", "asm=vd.S,vn.F2"),
    ("FMINNMP_s", "01 1 11110 1 sz:1 11000 01100 10 vn:5 vd:5", "simd", "asm=vd.S,vn.F2"),
    ("FADDP_s",  "01 1 11110 0 sz:1 11000 01101 10 vn:5 vd:5", "simd", "asm=vd.S,vn.F2"),
    ("FMAXP_s",  "01 1 11110 0 sz:1 11000 01111 10 vn:5 vd:5", "simd", "asm=vd.S,vn.F2"),
    ("FMINP_s",  "01 1 11110 1 sz:1 11000 01111 10 vn:5 vd:5", "simd", "asm=vd.S,vn.F2"),
    # ---- Advanced SIMD across lanes (one row per form) ---------------------------------
    # Integer: no .2s or .1d source (x=size:2,q:0 and x=size:3); FP: single .4s only (the
    # half-precision forms have U = 0, not offered).
    ("SADDLV_v", _VAC.format(u=0, o="00011"), "simd", "x=size:2,q:0 x=size:3 asm=vd.EW,vn.T"),
    ("UADDLV_v", _VAC.format(u=1, o="00011"), "simd", "x=size:2,q:0 x=size:3 asm=vd.EW,vn.T"),
    ("SMAXV_v",  _VAC.format(u=0, o="01010"), "simd", "x=size:2,q:0 x=size:3 asm=vd.E,vn.T"),
    ("UMAXV_v",  _VAC.format(u=1, o="01010"), "simd", "x=size:2,q:0 x=size:3 asm=vd.E,vn.T"),
    ("SMINV_v",  _VAC.format(u=0, o="11010"), "simd", "x=size:2,q:0 x=size:3 asm=vd.E,vn.T"),
    ("UMINV_v",  _VAC.format(u=1, o="11010"), "simd", "x=size:2,q:0 x=size:3 asm=vd.E,vn.T"),
    ("ADDV_v",   _VAC.format(u=0, o="11011"), "simd", "x=size:2,q:0 x=size:3 asm=vd.E,vn.T"),
    ("FMAXNMV_v", "0 1 1 01110 0 0 11000 01100 10 vn:5 vd:5", "simd", "asm=vd.s,vn.4s"),
    ("FMINNMV_v", "0 1 1 01110 1 0 11000 01100 10 vn:5 vd:5", "simd", "asm=vd.s,vn.4s"),
    ("FMAXV_v",  "0 1 1 01110 0 0 11000 01111 10 vn:5 vd:5", "simd", "asm=vd.s,vn.4s"),
    ("FMINV_v",  "0 1 1 01110 1 0 11000 01111 10 vn:5 vd:5", "simd", "asm=vd.s,vn.4s"),
    # ---- Advanced SIMD by element (one row per form) ------------------------------------
    # Integer lanes of 16 or 32 bits (x=size:0 x=size:3); FP single or double, a double
    # index is H alone (x=sz:1,l:1) and .1d is reserved.  vm.X spells the element operand.
    ("MLA_vi",     _VE.format(u=1, o="0000"), "simd", "x=size:0 x=size:3 asm=vd.T,vn.T,vm.X"),
    ("MLS_vi",     _VE.format(u=1, o="0100"), "simd", "x=size:0 x=size:3 asm=vd.T,vn.T,vm.X"),
    ("MUL_vi",     _VE.format(u=0, o="1000"), "simd", "x=size:0 x=size:3 asm=vd.T,vn.T,vm.X"),
    ("SMLAL_vi",   _VE.format(u=0, o="0010"), "simd", "x=size:0 x=size:3 q2 asm=vd.W,vn.T,vm.X"),
    ("UMLAL_vi",   _VE.format(u=1, o="0010"), "simd", "x=size:0 x=size:3 q2 asm=vd.W,vn.T,vm.X"),
    ("SMLSL_vi",   _VE.format(u=0, o="0110"), "simd", "x=size:0 x=size:3 q2 asm=vd.W,vn.T,vm.X"),
    ("UMLSL_vi",   _VE.format(u=1, o="0110"), "simd", "x=size:0 x=size:3 q2 asm=vd.W,vn.T,vm.X"),
    ("SMULL_vi",   _VE.format(u=0, o="1010"), "simd", "x=size:0 x=size:3 q2 asm=vd.W,vn.T,vm.X"),
    ("UMULL_vi",   _VE.format(u=1, o="1010"), "simd", "x=size:0 x=size:3 q2 asm=vd.W,vn.T,vm.X"),
    ("SQDMLAL_vi", _VE.format(u=0, o="0011"), "simd", "x=size:0 x=size:3 q2 asm=vd.W,vn.T,vm.X"),
    ("SQDMLSL_vi", _VE.format(u=0, o="0111"), "simd", "x=size:0 x=size:3 q2 asm=vd.W,vn.T,vm.X"),
    ("SQDMULL_vi", _VE.format(u=0, o="1011"), "simd", "x=size:0 x=size:3 q2 asm=vd.W,vn.T,vm.X"),
    ("SQDMULH_vi", _VE.format(u=0, o="1100"), "simd", "x=size:0 x=size:3 asm=vd.T,vn.T,vm.X"),
    ("SQRDMULH_vi", _VE.format(u=0, o="1101"), "simd", "x=size:0 x=size:3 asm=vd.T,vn.T,vm.X"),
    # ARMv8.1 RDM: rounding doubling multiply, high half, accumulated into (subtracted from) Vd
    ("SQRDMLAH_vi", _VE.format(u=1, o="1101"), "simd", "x=size:0 x=size:3 asm=vd.T,vn.T,vm.X"),
    ("SQRDMLSH_vi", _VE.format(u=1, o="1111"), "simd", "x=size:0 x=size:3 asm=vd.T,vn.T,vm.X"),
    ("FMLA_vi",    _VEF.format(u=0, o="0001"), "simd", "x=sz:1,l:1 x=sz:1,q:0 asm=vd.F,vn.F,vm.X"),
    ("FMLS_vi",    _VEF.format(u=0, o="0101"), "simd", "x=sz:1,l:1 x=sz:1,q:0 asm=vd.F,vn.F,vm.X"),
    ("FMUL_vi",    _VEF.format(u=0, o="1001"), "simd", "x=sz:1,l:1 x=sz:1,q:0 asm=vd.F,vn.F,vm.X"),
    ("FMULX_vi",   _VEF.format(u=1, o="1001"), "simd", "x=sz:1,l:1 x=sz:1,q:0 asm=vd.F,vn.F,vm.X"),
    ("FMLAL_vi",   _VEH.format(u=0, o="0000"), "simd", "asm=vd.S32,vn.HQ,vm.X"),
    ("FMLSL_vi",   _VEH.format(u=0, o="0100"), "simd", "asm=vd.S32,vn.HQ,vm.X"),
    ("FMLAL2_vi",  _VEH.format(u=1, o="1000"), "simd", "asm=vd.S32,vn.HQ,vm.X"),
    ("FMLSL2_vi",  _VEH.format(u=1, o="1100"), "simd", "asm=vd.S32,vn.HQ,vm.X"),
    ("SQDMLAL_si", _SE.format(u=0, o="0011"), "simd", "x=size:0 x=size:3 asm=vd.EW,vn.E,vm.X"),
    ("SQDMLSL_si", _SE.format(u=0, o="0111"), "simd", "x=size:0 x=size:3 asm=vd.EW,vn.E,vm.X"),
    ("SQDMULL_si", _SE.format(u=0, o="1011"), "simd", "x=size:0 x=size:3 asm=vd.EW,vn.E,vm.X"),
    ("SQDMULH_si", _SE.format(u=0, o="1100"), "simd", "x=size:0 x=size:3 asm=vd.E,vn.E,vm.X"),
    ("SQRDMULH_si", _SE.format(u=0, o="1101"), "simd", "x=size:0 x=size:3 asm=vd.E,vn.E,vm.X"),
    ("SQRDMLAH_si", _SE.format(u=1, o="1101"), "simd", "x=size:0 x=size:3 asm=vd.E,vn.E,vm.X"),
    ("SQRDMLSH_si", _SE.format(u=1, o="1111"), "simd", "x=size:0 x=size:3 asm=vd.E,vn.E,vm.X"),
    ("FMLA_si",    _SEF.format(u=0, o="0001"), "simd", "x=sz:1,l:1 asm=vd.S,vn.S,vm.X"),
    ("FMLS_si",    _SEF.format(u=0, o="0101"), "simd", "x=sz:1,l:1 asm=vd.S,vn.S,vm.X"),
    ("FMUL_si",    _SEF.format(u=0, o="1001"), "simd", "x=sz:1,l:1 asm=vd.S,vn.S,vm.X"),
    ("FMULX_si",   _SEF.format(u=1, o="1001"), "simd", "x=sz:1,l:1 asm=vd.S,vn.S,vm.X"),
    # ---- Advanced SIMD scalar three same and two-register, integer (one row per form) ----
    # The plain forms exist for 64-bit lanes only (size 11 in the pattern); the saturating
    # ones for every size, SRSHL/URSHL for 64 bits, SQ(R)DMULH for 16 and 32.
    ("ADD_s",    _S3.format(u=0, size="11", o="10000"), "simd", "asm=vd.d,vn.d,vm.d"),
    ("SUB_s",    _S3.format(u=1, size="11", o="10000"), "simd", "asm=vd.d,vn.d,vm.d"),
    ("CMTST_s",  _S3.format(u=0, size="11", o="10001"), "simd", "asm=vd.d,vn.d,vm.d"),
    ("CMEQ_s",   _S3.format(u=1, size="11", o="10001"), "simd", "asm=vd.d,vn.d,vm.d"),
    ("CMGT_s",   _S3.format(u=0, size="11", o="00110"), "simd", "asm=vd.d,vn.d,vm.d"),
    ("CMHI_s",   _S3.format(u=1, size="11", o="00110"), "simd", "asm=vd.d,vn.d,vm.d"),
    ("CMGE_s",   _S3.format(u=0, size="11", o="00111"), "simd", "asm=vd.d,vn.d,vm.d"),
    ("CMHS_s",   _S3.format(u=1, size="11", o="00111"), "simd", "asm=vd.d,vn.d,vm.d"),
    ("SSHL_s",   _S3.format(u=0, size="11", o="01000"), "simd", "asm=vd.d,vn.d,vm.d"),
    ("USHL_s",   _S3.format(u=1, size="11", o="01000"), "simd", "asm=vd.d,vn.d,vm.d"),
    ("SRSHL_s",  _S3.format(u=0, size="11", o="01010"), "simd", "asm=vd.d,vn.d,vm.d"),
    ("URSHL_s",  _S3.format(u=1, size="11", o="01010"), "simd", "asm=vd.d,vn.d,vm.d"),
    ("SQADD_s",  _S3.format(u=0, size="size:2", o="00001"), "simd", "asm=vd.E,vn.E,vm.E"),
    ("UQADD_s",  _S3.format(u=1, size="size:2", o="00001"), "simd", "asm=vd.E,vn.E,vm.E"),
    ("SQSUB_s",  _S3.format(u=0, size="size:2", o="00101"), "simd", "asm=vd.E,vn.E,vm.E"),
    ("UQSUB_s",  _S3.format(u=1, size="size:2", o="00101"), "simd", "asm=vd.E,vn.E,vm.E"),
    ("SQSHL_s",  _S3.format(u=0, size="size:2", o="01001"), "simd", "asm=vd.E,vn.E,vm.E"),
    ("UQSHL_s",  _S3.format(u=1, size="size:2", o="01001"), "simd", "asm=vd.E,vn.E,vm.E"),
    ("SQRSHL_s", _S3.format(u=0, size="size:2", o="01011"), "simd", "asm=vd.E,vn.E,vm.E"),
    ("UQRSHL_s", _S3.format(u=1, size="size:2", o="01011"), "simd", "asm=vd.E,vn.E,vm.E"),
    ("SQDMULH_s", _S3.format(u=0, size="size:2", o="10110"), "simd", "x=size:0 x=size:3 asm=vd.E,vn.E,vm.E"),
    ("SQRDMULH_s", _S3.format(u=1, size="size:2", o="10110"), "simd", "x=size:0 x=size:3 asm=vd.E,vn.E,vm.E"),
    ("CMGT0_s",  _S2.format(u=0, size="11", o="01000"), "simd", "mn=cmgt asm=vd.d,vn.d,#0"),
    ("CMGE0_s",  _S2.format(u=1, size="11", o="01000"), "simd", "mn=cmge asm=vd.d,vn.d,#0"),
    ("CMEQ0_s",  _S2.format(u=0, size="11", o="01001"), "simd", "mn=cmeq asm=vd.d,vn.d,#0"),
    ("CMLE0_s",  _S2.format(u=1, size="11", o="01001"), "simd", "mn=cmle asm=vd.d,vn.d,#0"),
    ("CMLT0_s",  _S2.format(u=0, size="11", o="01010"), "simd", "mn=cmlt asm=vd.d,vn.d,#0"),
    ("ABS_s",    _S2.format(u=0, size="11", o="01011"), "simd", "asm=vd.d,vn.d"),
    ("NEG_s",    _S2.format(u=1, size="11", o="01011"), "simd", "asm=vd.d,vn.d"),
    ("SUQADD_s", _S2.format(u=0, size="size:2", o="00011"), "simd", "asm=vd.E,vn.E"),
    ("USQADD_s", _S2.format(u=1, size="size:2", o="00011"), "simd", "asm=vd.E,vn.E"),
    ("SQABS_s",  _S2.format(u=0, size="size:2", o="00111"), "simd", "asm=vd.E,vn.E"),
    ("SQNEG_s",  _S2.format(u=1, size="size:2", o="00111"), "simd", "asm=vd.E,vn.E"),
    ("SQXTN_s",  _S2.format(u=0, size="size:2", o="10100"), "simd", "x=size:3 asm=vd.E,vn.EW"),
    ("UQXTN_s",  _S2.format(u=1, size="size:2", o="10100"), "simd", "x=size:3 asm=vd.E,vn.EW"),
    ("SQXTUN_s", _S2.format(u=1, size="size:2", o="10010"), "simd", "x=size:3 asm=vd.E,vn.EW"),
    # DUP (element, scalar), spelled MOV: imm5 = x0000 is reserved
    ("DUP_s",    "01 0 11110000 imm5:5 0 0000 1 vn:5 vd:5", "simd", "x=imm5:bx0000 mn=mov asm=vd.J,vn.JX"),
    # ---- Advanced SIMD shift by immediate, vector and scalar (one row per form) ------
    # immh:immb holds the lane size (immh's top set bit: 0001 bytes .. 1xxx doublewords)
    # and the shift; option imm= declares which shift the decoder pre-computes
    # (decoder.imm_of: the amount | lane size log2 << 8): shr = 2 * esize - immh:immb,
    # shl = immh:immb - esize.  immh = 0000 is the modified-immediate space (VMOVI);
    # 64-bit lanes need Q = 1; a narrowing or long form's source (or result) lanes are
    # twice as wide, so its immh = 1xxx is reserved; the scalar forms that are
    # doubleword-only reserve immh = 0xxx.
    ("SSHR_v",    _VSH.format(u=0, o="00000"), "simd", "imm=shr x=immh:0 x=immh:b1xxx,q:0 asm=vd.T,vn.T,#sh"),
    ("USHR_v",    _VSH.format(u=1, o="00000"), "simd", "imm=shr x=immh:0 x=immh:b1xxx,q:0 asm=vd.T,vn.T,#sh"),
    ("SSRA_v",    _VSH.format(u=0, o="00010"), "simd", "imm=shr x=immh:0 x=immh:b1xxx,q:0 asm=vd.T,vn.T,#sh"),
    ("USRA_v",    _VSH.format(u=1, o="00010"), "simd", "imm=shr x=immh:0 x=immh:b1xxx,q:0 asm=vd.T,vn.T,#sh"),
    ("SRSHR_v",   _VSH.format(u=0, o="00100"), "simd", "imm=shr x=immh:0 x=immh:b1xxx,q:0 asm=vd.T,vn.T,#sh"),
    ("URSHR_v",   _VSH.format(u=1, o="00100"), "simd", "imm=shr x=immh:0 x=immh:b1xxx,q:0 asm=vd.T,vn.T,#sh"),
    ("SRSRA_v",   _VSH.format(u=0, o="00110"), "simd", "imm=shr x=immh:0 x=immh:b1xxx,q:0 asm=vd.T,vn.T,#sh"),
    ("URSRA_v",   _VSH.format(u=1, o="00110"), "simd", "imm=shr x=immh:0 x=immh:b1xxx,q:0 asm=vd.T,vn.T,#sh"),
    ("SRI_v",     _VSH.format(u=1, o="01000"), "simd", "imm=shr x=immh:0 x=immh:b1xxx,q:0 asm=vd.T,vn.T,#sh"),
    ("SHL_v",     _VSH.format(u=0, o="01010"), "simd", "imm=shl x=immh:0 x=immh:b1xxx,q:0 asm=vd.T,vn.T,#sh"),
    ("SLI_v",     _VSH.format(u=1, o="01010"), "simd", "imm=shl x=immh:0 x=immh:b1xxx,q:0 asm=vd.T,vn.T,#sh"),
    ("SQSHLU_v",  _VSH.format(u=1, o="01100"), "simd", "imm=shl x=immh:0 x=immh:b1xxx,q:0 asm=vd.T,vn.T,#sh"),
    ("SQSHL_vi",  _VSH.format(u=0, o="01110"), "simd", "imm=shl x=immh:0 x=immh:b1xxx,q:0 asm=vd.T,vn.T,#sh"),
    ("UQSHL_vi",  _VSH.format(u=1, o="01110"), "simd", "imm=shl x=immh:0 x=immh:b1xxx,q:0 asm=vd.T,vn.T,#sh"),
    ("SHRN_v",    _VSH.format(u=0, o="10000"), "simd", "imm=shr x=immh:0 x=immh:b1xxx q2 asm=vd.T,vn.W,#sh"),
    ("SQSHRUN_v", _VSH.format(u=1, o="10000"), "simd", "imm=shr x=immh:0 x=immh:b1xxx q2 asm=vd.T,vn.W,#sh"),
    ("RSHRN_v",   _VSH.format(u=0, o="10001"), "simd", "imm=shr x=immh:0 x=immh:b1xxx q2 asm=vd.T,vn.W,#sh"),
    ("SQRSHRUN_v", _VSH.format(u=1, o="10001"), "simd", "imm=shr x=immh:0 x=immh:b1xxx q2 asm=vd.T,vn.W,#sh"),
    ("SQSHRN_v",  _VSH.format(u=0, o="10010"), "simd", "imm=shr x=immh:0 x=immh:b1xxx q2 asm=vd.T,vn.W,#sh"),
    ("UQSHRN_v",  _VSH.format(u=1, o="10010"), "simd", "imm=shr x=immh:0 x=immh:b1xxx q2 asm=vd.T,vn.W,#sh"),
    ("SQRSHRN_v", _VSH.format(u=0, o="10011"), "simd", "imm=shr x=immh:0 x=immh:b1xxx q2 asm=vd.T,vn.W,#sh"),
    ("UQRSHRN_v", _VSH.format(u=1, o="10011"), "simd", "imm=shr x=immh:0 x=immh:b1xxx q2 asm=vd.T,vn.W,#sh"),
    ("SSHLL_v",   _VSH.format(u=0, o="10100"), "simd", "imm=shl x=immh:0 x=immh:b1xxx q2 asm=vd.W,vn.T,#sh"),
    ("USHLL_v",   _VSH.format(u=1, o="10100"), "simd", "imm=shl x=immh:0 x=immh:b1xxx q2 asm=vd.W,vn.T,#sh"),
    # fixed point <-> FP: 32- or 64-bit lanes (immh = 001x would be half precision: not offered)
    ("SCVTF_vfix", _VSH.format(u=0, o="11100"), "simd", "imm=shr x=immh:b00xx x=immh:b1xxx,q:0 asm=vd.T,vn.T,#sh"),
    ("UCVTF_vfix", _VSH.format(u=1, o="11100"), "simd", "imm=shr x=immh:b00xx x=immh:b1xxx,q:0 asm=vd.T,vn.T,#sh"),
    ("FCVTZS_vfix", _VSH.format(u=0, o="11111"), "simd", "imm=shr x=immh:b00xx x=immh:b1xxx,q:0 asm=vd.T,vn.T,#sh"),
    ("FCVTZU_vfix", _VSH.format(u=1, o="11111"), "simd", "imm=shr x=immh:b00xx x=immh:b1xxx,q:0 asm=vd.T,vn.T,#sh"),
    ("SSHR_s",    _SSH.format(u=0, o="00000"), "simd", "imm=shr x=immh:b0xxx asm=vd.E,vn.E,#sh"),
    ("USHR_s",    _SSH.format(u=1, o="00000"), "simd", "imm=shr x=immh:b0xxx asm=vd.E,vn.E,#sh"),
    ("SSRA_s",    _SSH.format(u=0, o="00010"), "simd", "imm=shr x=immh:b0xxx asm=vd.E,vn.E,#sh"),
    ("USRA_s",    _SSH.format(u=1, o="00010"), "simd", "imm=shr x=immh:b0xxx asm=vd.E,vn.E,#sh"),
    ("SRSHR_s",   _SSH.format(u=0, o="00100"), "simd", "imm=shr x=immh:b0xxx asm=vd.E,vn.E,#sh"),
    ("URSHR_s",   _SSH.format(u=1, o="00100"), "simd", "imm=shr x=immh:b0xxx asm=vd.E,vn.E,#sh"),
    ("SRSRA_s",   _SSH.format(u=0, o="00110"), "simd", "imm=shr x=immh:b0xxx asm=vd.E,vn.E,#sh"),
    ("URSRA_s",   _SSH.format(u=1, o="00110"), "simd", "imm=shr x=immh:b0xxx asm=vd.E,vn.E,#sh"),
    ("SRI_s",     _SSH.format(u=1, o="01000"), "simd", "imm=shr x=immh:b0xxx asm=vd.E,vn.E,#sh"),
    ("SHL_s",     _SSH.format(u=0, o="01010"), "simd", "imm=shl x=immh:b0xxx asm=vd.E,vn.E,#sh"),
    ("SLI_s",     _SSH.format(u=1, o="01010"), "simd", "imm=shl x=immh:b0xxx asm=vd.E,vn.E,#sh"),
    ("SQSHLU_s",  _SSH.format(u=1, o="01100"), "simd", "imm=shl x=immh:0 asm=vd.E,vn.E,#sh"),
    ("SQSHL_si",  _SSH.format(u=0, o="01110"), "simd", "imm=shl x=immh:0 asm=vd.E,vn.E,#sh"),
    ("UQSHL_si",  _SSH.format(u=1, o="01110"), "simd", "imm=shl x=immh:0 asm=vd.E,vn.E,#sh"),
    ("SQSHRUN_s", _SSH.format(u=1, o="10000"), "simd", "imm=shr x=immh:0 x=immh:b1xxx asm=vd.E,vn.EW,#sh"),
    ("SQRSHRUN_s", _SSH.format(u=1, o="10001"), "simd", "imm=shr x=immh:0 x=immh:b1xxx asm=vd.E,vn.EW,#sh"),
    ("SQSHRN_s",  _SSH.format(u=0, o="10010"), "simd", "imm=shr x=immh:0 x=immh:b1xxx asm=vd.E,vn.EW,#sh"),
    ("UQSHRN_s",  _SSH.format(u=1, o="10010"), "simd", "imm=shr x=immh:0 x=immh:b1xxx asm=vd.E,vn.EW,#sh"),
    ("SQRSHRN_s", _SSH.format(u=0, o="10011"), "simd", "imm=shr x=immh:0 x=immh:b1xxx asm=vd.E,vn.EW,#sh"),
    ("UQRSHRN_s", _SSH.format(u=1, o="10011"), "simd", "imm=shr x=immh:0 x=immh:b1xxx asm=vd.E,vn.EW,#sh"),
    ("SCVTF_sfix", _SSH.format(u=0, o="11100"), "simd", "imm=shr x=immh:b00xx asm=vd.E,vn.E,#sh"),
    ("UCVTF_sfix", _SSH.format(u=1, o="11100"), "simd", "imm=shr x=immh:b00xx asm=vd.E,vn.E,#sh"),
    ("FCVTZS_sfix", _SSH.format(u=0, o="11111"), "simd", "imm=shr x=immh:b00xx asm=vd.E,vn.E,#sh"),
    ("FCVTZU_sfix", _SSH.format(u=1, o="11111"), "simd", "imm=shr x=immh:b00xx asm=vd.E,vn.E,#sh"),
    # ---- Advanced SIMD permutes, EXT and table lookups (one row per form) ---------------
    ("UZP1_v",    _VPERM.format(o="001"), "simd", "x=size:3,q:0 asm=vd.T,vn.T,vm.T"),
    ("TRN1_v",    _VPERM.format(o="010"), "simd", "x=size:3,q:0 asm=vd.T,vn.T,vm.T"),
    ("ZIP1_v",    _VPERM.format(o="011"), "simd", "x=size:3,q:0 asm=vd.T,vn.T,vm.T"),
    ("UZP2_v",    _VPERM.format(o="101"), "simd", "x=size:3,q:0 asm=vd.T,vn.T,vm.T"),
    ("TRN2_v",    _VPERM.format(o="110"), "simd", "x=size:3,q:0 asm=vd.T,vn.T,vm.T"),
    ("ZIP2_v",    _VPERM.format(o="111"), "simd", "x=size:3,q:0 asm=vd.T,vn.T,vm.T"),
    ("EXT_v",     "0 q:1 101110 00 0 vm:5 0 imm4:4 0 vn:5 vd:5", "simd", "x=q:0,imm4:b1xxx asm=vd.B,vn.B,vm.B,#imm4"),
    ("TBL1_v",    _VTBL.format(len="00", x=0), "simd", "mn=tbl asm=vd.B,vn.L1,vm.B"),
    ("TBL2_v",    _VTBL.format(len="01", x=0), "simd", "mn=tbl asm=vd.B,vn.L2,vm.B"),
    ("TBL3_v",    _VTBL.format(len="10", x=0), "simd", "mn=tbl asm=vd.B,vn.L3,vm.B"),
    ("TBL4_v",    _VTBL.format(len="11", x=0), "simd", "mn=tbl asm=vd.B,vn.L4,vm.B"),
    ("TBX1_v",    _VTBL.format(len="00", x=1), "simd", "mn=tbx asm=vd.B,vn.L1,vm.B"),
    ("TBX2_v",    _VTBL.format(len="01", x=1), "simd", "mn=tbx asm=vd.B,vn.L2,vm.B"),
    ("TBX3_v",    _VTBL.format(len="10", x=1), "simd", "mn=tbx asm=vd.B,vn.L3,vm.B"),
    ("TBX4_v",    _VTBL.format(len="11", x=1), "simd", "mn=tbx asm=vd.B,vn.L4,vm.B"),
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
    reserved: tuple = ()  # (mask, value) word patterns that are unallocated (option x=)
    asm: tuple = ()  # operand templates for the disassembler (option asm=)
    q2: bool = False  # mnemonic + "2" when Q = 1 (option q2)
    mn: str = ""      # mnemonic (option mn=; default: the name before its last "_", lower case)
    imm: str = ""     # the immediate the decoder pre-computes (option imm=: shr, shl, simd; see IMM_KINDS)

    def extract(self, word: int) -> dict:
        return {k: (word >> lsb) & ((1 << w) - 1) for k, (lsb, w) in self.fields.items()}

    def encode(self, **fields) -> int:
        word = self.value
        for k, v in fields.items():
            lsb, w = self.fields[k]
            word |= (v & ((1 << w) - 1)) << lsb
        return word

    def is_reserved(self, word: int) -> bool:
        return any(word & m == v for m, v in self.reserved)


# Declared immediates (option imm=): the shift of a shift-by-immediate row, right
# (2 * esize - immh:immb) or left (immh:immb - esize), lanes of esize = 8 << sz bits
# with sz the top set bit of immh; pre-computed as shift | sz << 8 (decoder.imm_of).
# simd: the modified immediate abc:defgh expanded by op and cmode (AdvSIMDExpandImm) to
# the 64-bit pattern of MOVI/MVNI/ORR/BIC/FMOV (vector).
IMM_KINDS = ("", "shr", "shl", "simd")


def _field_pattern(name: str, fields: dict, fname: str, text: str) -> tuple[int, int]:
    """(mask, value) of `fname == text` in a word: text is a number, or bits
    like b1xx (x: any) as wide as the field."""
    if fname not in fields:
        raise ValueError(f"{name}: x= names a field the pattern lacks: {fname}")
    lsb, width = fields[fname]
    if not text.startswith("b"):
        return ((1 << width) - 1) << lsb, int(text) << lsb
    if len(text) - 1 != width:
        raise ValueError(f"{name}: {fname}:{text} is not {width} bits")
    mask = value = 0
    for k, ch in enumerate(reversed(text[1:])):
        if ch != "x":
            mask |= 1 << (lsb + k)
            value |= int(ch) << (lsb + k)
    return mask, value


def _parse(name: str, pattern: str, cls: str, options: str = "") -> Entry:
    pos, mask, value, fields = 32, 0, 0, {}
    for tok in pattern.split():
        if ":" in tok:
            fname, w = tok.split(":")
            pos -= int(w)
            fields[fname] = (pos, int(w))
        else:                                   # fixed bits
            pos -= len(tok)
            mask |= ((1 << len(tok)) - 1) << pos
            value |= int(tok, 2) << pos
    if pos != 0:
        raise ValueError(f"pattern of {name} has {32 - pos} bits, not 32")
    sp, reserved, asm, q2, mn, imm = (), [], (), False, name.rsplit("_", 1)[0].lower(), ""
    for opt in options.split():
        key, _, arg = opt.partition("=")
        if key == "sp":
            sp = tuple(arg.split(","))
        elif key == "x":                  # one reserved combination: FIELD:VALUE[,FIELD:VALUE...]
            m = v = 0
            for cond in arg.split(","):
                fm, fv = _field_pattern(name, fields, *cond.split(":"))
                m, v = m | fm, v | fv
            reserved.append((m, v))
        elif key == "asm":
            asm = tuple(arg.split(","))
        elif opt == "q2":
            q2 = True
        elif key == "mn":
            mn = arg
        elif key == "imm":
            if arg not in IMM_KINDS:
                raise ValueError(f"{name}: imm={arg} is none of {IMM_KINDS}")
            imm = arg
        else:
            raise ValueError(f"{name}: unknown option {opt}")
    if not set(sp) <= set(fields):
        raise ValueError(f"{name}: sp= names a field the pattern lacks")
    return Entry(name, pattern, cls, mask, value, fields, sp, tuple(reserved), asm, q2, mn, imm)


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
REG_SLOTS = (("rd", "rt", "vd"), ("rn", "vn"), ("rm", "rs", "vm"), ("ra", "rt2", "va"))   # -> a, b, c, d
K_SRC, K_DST, K_SP, K_V = 0, 1, 2, 3   # 31 means: ZR (read) / DISCARD (write) / SP / v31


def _reg_operands():
    lsb = np.full((NOPS, 4), -1, np.int64)
    kind = np.zeros((NOPS, 4), np.int64)
    for op, e in enumerate(TABLE):
        for slot, names in enumerate(REG_SLOTS):
            for fname in names:
                if fname in e.fields:
                    lsb[op, slot] = e.fields[fname][0]
                    kind[op, slot] = (K_V if fname[0] == "v" else K_SP if fname in e.sp
                                      else K_DST if fname == "rd" else K_SRC)
    return lsb, kind


REG_LSB, REG_KIND = _reg_operands()

# ---- reserved combinations (option x=), flattened for the compiled decoder -----
# Rows of op id k are RES_MASK/RES_VALUE[RES_START[k]:RES_START[k + 1]].
RES_START = np.cumsum([0] + [len(e.reserved) for e in TABLE]).astype(np.int64)
RES_MASK = np.array([m for e in TABLE for m, _ in e.reserved] or [0], np.int64)
RES_VALUE = np.array([v for e in TABLE for _, v in e.reserved] or [0], np.int64)

# ---- declared immediates (option imm=), by op id: an index into IMM_KINDS -------
IMM_KIND = np.array([IMM_KINDS.index(e.imm) for e in TABLE], np.int64)
IMM_SHR, IMM_SHL, IMM_SIMD = IMM_KINDS.index("shr"), IMM_KINDS.index("shl"), IMM_KINDS.index("simd")

# ---- fields by name, for executors: fld(op, w, T.FLD_SIZE) (decoder.fld) ----------
FIELD_NAMES = sorted({f for e in TABLE for f in e.fields})
globals().update({f"FLD_{f.upper()}": k for k, f in enumerate(FIELD_NAMES)})
_FIELD_COLUMN = {f: k for k, f in enumerate(FIELD_NAMES)}
FIELD_LSB = np.zeros((NOPS, len(FIELD_NAMES)), np.int8)      # int8: numba embeds these in the code
FIELD_WIDTH = np.zeros((NOPS, len(FIELD_NAMES)), np.int8)    # 0: the row has no such field
for _op, _e in enumerate(TABLE):
    for _f, (_lsb, _w) in _e.fields.items():
        FIELD_LSB[_op, _FIELD_COLUMN[_f]] = _lsb
        FIELD_WIDTH[_op, _FIELD_COLUMN[_f]] = _w
