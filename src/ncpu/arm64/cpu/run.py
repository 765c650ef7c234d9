"""The compiled hot loop: fetch through the decode cache, dispatch by op id.

Per instruction: page of pc -> decode-cache row (looked up only when pc
leaves the current page), then op id / word / immediate from that row; a
never-seen word is decoded once and stored.  Dispatch is by op-id range
(class) and then by op id inside each executor.  Everything lives in numpy
arrays, so nothing leaves compiled code until a stop.
"""
import numpy as np
from numba import njit

from . import decode_table as T
from .decoder import UNDEF, decode, imm_of
from .exec_fp import exec_fp
from .exec_int import _bitfield, exec_branch, exec_int, exec_sys
from .exec_mem import exec_mem
from .exec_simd import exec_simd
from .memory import NPAGES
from .mmu import (A_EXEC, R_BUDGET, R_GROW, R_SVC, R_UNDEF, ST_ADDR, ST_REASON, ST_WORD, borrowed,
                  borrowed_mem, fault)
from .alu import M32, add_with_carry, cond_holds, extend_reg, logic_flags, shift_reg, ult
from .fpu import K_ADD, K_DIV, K_MUL, K_SUB, arith_flags, cvtf_flags, fma64, fma_flags, to_int, to_int_flags
from .state import FPSR, NZCV, PC
from .vregs import borrowed_v


@njit(cache=True)
def run_loop(R, V, m, st, max_steps):
    """Execute up to max_steps instructions; returns instructions retired."""
    return _run(borrowed(R), borrowed_v(V), borrowed_mem(m), borrowed(st), max_steps)


@njit(cache=True)
def _run(R, V, m, st, max_steps):
    steps = 0
    pt = m.pt
    perm = m.perm
    d8 = m.data
    d16 = m.d16
    d32 = m.d32
    d64 = m.d64
    dc_rows = m.dc_row
    pc = R[PC]
    cur_page = np.int64(-1)
    row = np.int64(0)
    dc_op = m.dc_op
    dc_word = m.dc_word
    dc_imm = m.dc_imm
    while True:
        if steps >= max_steps:
            st[ST_REASON] = R_BUDGET
            break
        page = pc >> 12
        if page != cur_page:
            if page < 0 or page >= NPAGES or m.pt[page] < 0 or (m.perm[page] & 4) == 0 or (pc & 3):
                fault(st, pc, A_EXEC)
                break
            row = np.int64(m.dc_row[page])
            if row < 0:
                row = m.dc_meta[0]
                if row >= dc_op.shape[0]:
                    st[ST_REASON] = R_GROW
                    break
                m.dc_meta[0] = row + 1
                m.dc_row[page] = row
                dc_op[row, :] = -1
            cur_page = page
        i = (pc & 4095) >> 2
        op = np.int64(dc_op[row, i])
        if op < 0:
            if op == -1:                               # not decoded yet
                w = np.int64(m.d32[(np.int64(m.pt[page]) << 10) + i])
                op = decode(w)
                dc_op[row, i] = op
                dc_word[row, i] = w
                dc_imm[row, i] = imm_of(op, w) if op >= 0 else 0
            if op == UNDEF:
                st[ST_REASON] = R_UNDEF
                st[ST_WORD] = dc_word[row, i]
                st[ST_ADDR] = pc
                break
        w = dc_word[row, i]
        imm = dc_imm[row, i]
        # Fast paths, most frequent first (op ids counted on benchmarks/arm64_bench.c: B.cond, SUBS,
        # ALU register ops and loads/stores are ~70% of what it executes): no call, no stop check.
        if op == T.B_COND:
            pc += imm if cond_holds(R[NZCV], w & 15) else 4
            steps += 1
            continue
        if (op == T.SUBS_I or op == T.SUBS_R) and (w >> 31) & 1:
            rn = (w >> 5) & 31
            if op == T.SUBS_I:
                a = R[rn]                                   # rn 31 is SP here
                b = imm
            else:
                a = R[rn] if rn != 31 else 0
                rm = (w >> 16) & 31
                b = shift_reg(R[rm] if rm != 31 else 0, (w >> 22) & 3, (w >> 10) & 63, 1)
            res = a - b
            n = np.int64(res < 0)
            z = np.int64(res == 0)
            c = np.int64(not ult(a, b))
            v = np.int64(((a ^ b) & (a ^ res)) < 0)
            R[NZCV] = (n << 3) | (z << 2) | (c << 1) | v
            if w & 31 != 31:
                R[w & 31] = res
            pc += 4
            steps += 1
            continue
        if op == T.SUBS_R or op == T.ADDS_R or op == T.SUBS_I or op == T.ADDS_I or op == T.ANDS_R:
            sf = (w >> 31) & 1
            rn = (w >> 5) & 31
            if op == T.SUBS_I or op == T.ADDS_I:
                a = R[rn]                                   # rn 31 is SP here
                b = imm
            else:
                a = R[rn] if rn != 31 else 0
                rm = (w >> 16) & 31
                b = shift_reg(R[rm] if rm != 31 else 0, (w >> 22) & 3, (w >> 10) & 63, sf)
            if op == T.ANDS_R:
                res = a & b
                if not sf:
                    res &= 0xFFFFFFFF
                R[NZCV] = logic_flags(res, sf)
            elif op == T.SUBS_R or op == T.SUBS_I:
                res, f = add_with_carry(a, ~b, 1, sf)
                R[NZCV] = f
            else:
                res, f = add_with_carry(a, b, 0, sf)
                R[NZCV] = f
            if w & 31 != 31:
                R[w & 31] = res if sf else res & 0xFFFFFFFF
            pc += 4
            steps += 1
            continue
        if op == T.ADD_R or op == T.SUB_R or op == T.AND_R or op == T.ORR_R or op == T.EOR_R:
            sf = (w >> 31) & 1
            rn = (w >> 5) & 31
            rm = (w >> 16) & 31
            b = shift_reg(R[rm] if rm != 31 else 0, (w >> 22) & 3, (w >> 10) & 63, sf)
            a = R[rn] if rn != 31 else 0
            if op == T.ADD_R:
                v = a + b
            elif op == T.SUB_R:
                v = a - b
            elif op == T.AND_R:
                v = a & b
            elif op == T.ORR_R:
                v = a | b
            else:
                v = a ^ b
            if w & 31 != 31:
                R[w & 31] = v if sf else v & 0xFFFFFFFF
            pc += 4
            steps += 1
            continue
        # ---- loads and stores of X/W registers: aligned, inside one mapped page.
        # Anything else (faults, unaligned, FP registers) goes to exec_mem.
        if op >= T.LDST_UI and op <= T.LDST_REG and not (w >> 26) & 1:
            sz = (w >> 30) & 3
            opc = (w >> 22) & 3
            rn = (w >> 5) & 31
            base = R[rn]
            if op == T.LDST_REG:
                rm = (w >> 16) & 31
                addr = base + extend_reg(R[rm] if rm != 31 else 0, (w >> 13) & 7, sz if (w >> 12) & 1 else 0)
            elif op == T.LDST_POST:
                addr = base
            else:
                addr = base + imm
            page = addr >> 12
            if page >= 0 and page < NPAGES and (addr & ((1 << sz) - 1)) == 0 and not (sz == 3 and opc == 2):
                prow = np.int64(pt[page])
                if prow >= 0 and (perm[page] & (2 if opc == 0 else 1)) != 0:
                    idx = (prow << 12) + (addr & 4095)
                    rt = w & 31
                    if opc == 0:
                        x = R[rt] if rt != 31 else 0
                        if sz == 3:
                            d64[idx >> 3] = x
                        elif sz == 2:
                            d32[idx >> 2] = x & 0xFFFFFFFF
                        elif sz == 1:
                            d16[idx >> 1] = x & 0xFFFF
                        else:
                            d8[idx] = x & 0xFF
                        crow = dc_rows[page]
                        if crow >= 0:                  # store into decoded code
                            dc_op[crow, :] = -1
                    else:
                        if sz == 3:
                            x = d64[idx >> 3]
                        elif sz == 2:
                            x = np.int64(d32[idx >> 2])
                            if opc >= 2:
                                x = (x ^ 0x80000000) - 0x80000000
                        elif sz == 1:
                            x = np.int64(d16[idx >> 1])
                            if opc >= 2:
                                x = (x ^ 0x8000) - 0x8000
                        else:
                            x = np.int64(d8[idx])
                            if opc >= 2:
                                x = (x ^ 0x80) - 0x80
                        if opc == 3:
                            x &= 0xFFFFFFFF
                        if rt != 31:
                            R[rt] = x
                    if op == T.LDST_PRE:
                        R[rn] = addr
                    elif op == T.LDST_POST:
                        R[rn] = base + imm
                    pc += 4
                    steps += 1
                    continue
        if op == T.ADD_I or op == T.SUB_I:
            v = R[(w >> 5) & 31] + (imm if op == T.ADD_I else -imm)
            R[w & 31] = v if (w >> 31) & 1 else v & 0xFFFFFFFF
            pc += 4
            steps += 1
            continue
        if op == T.MADD or op == T.MSUB:
            rd = w & 31
            if rd != 31:
                rn = (w >> 5) & 31
                rm = (w >> 16) & 31
                ra = (w >> 10) & 31
                p = (R[rn] if rn != 31 else 0) * (R[rm] if rm != 31 else 0)
                acc = R[ra] if ra != 31 else 0
                x = acc + p if op == T.MADD else acc - p
                R[rd] = x if (w >> 31) & 1 else x & 0xFFFFFFFF
            pc += 4
            steps += 1
            continue
        if op >= T.LDSTNP and op <= T.LDSTP_PRE and (w >> 30) & 1 == 0 and not (w >> 26) & 1:
            sz = 2 + ((w >> 31) & 1)
            n = np.int64(1) << sz
            rn = (w >> 5) & 31
            base = R[rn]
            addr = base if op == T.LDSTP_POST else base + imm
            page = addr >> 12
            if page >= 0 and page < NPAGES and (addr & (n - 1)) == 0 and (addr & 4095) + 2 * n <= 4096:
                prow = np.int64(pt[page])
                ld = (w >> 22) & 1
                if prow >= 0 and (perm[page] & (1 if ld else 2)) != 0:
                    idx = (prow << 12) + (addr & 4095)
                    rt = w & 31
                    rt2 = (w >> 10) & 31
                    if ld:
                        if sz == 3:
                            a = d64[idx >> 3]
                            b = d64[(idx >> 3) + 1]
                        else:
                            a = np.int64(d32[idx >> 2])
                            b = np.int64(d32[(idx >> 2) + 1])
                        if rt != 31:
                            R[rt] = a
                        if rt2 != 31:
                            R[rt2] = b
                    else:
                        a = R[rt] if rt != 31 else 0
                        b = R[rt2] if rt2 != 31 else 0
                        if sz == 3:
                            d64[idx >> 3] = a
                            d64[(idx >> 3) + 1] = b
                        else:
                            d32[idx >> 2] = a & 0xFFFFFFFF
                            d32[(idx >> 2) + 1] = b & 0xFFFFFFFF
                        crow = dc_rows[page]
                        if crow >= 0:
                            dc_op[crow, :] = -1
                    if op == T.LDSTP_PRE:
                        R[rn] = addr
                    elif op == T.LDSTP_POST:
                        R[rn] = base + imm
                    pc += 4
                    steps += 1
                    continue
        if op == T.RET or op == T.BR or op == T.BLR:
            rn = (w >> 5) & 31
            target = R[rn] if rn != 31 else 0
            if target & 3 == 0:
                if op == T.BLR:
                    R[30] = pc + 4
                pc = target
                steps += 1
                continue
        if op >= T.ADC and op <= T.CCMP_I:
            sf = (w >> 31) & 1
            rn = (w >> 5) & 31
            rm = (w >> 16) & 31
            a = R[rn] if rn != 31 else 0
            if op <= T.SBCS:
                b = R[rm] if rm != 31 else 0
                if op >= T.SBC:
                    b = ~b
                res, f = add_with_carry(a, b, (R[NZCV] >> 1) & 1, sf)
                if op == T.ADCS or op == T.SBCS:
                    R[NZCV] = f
                if w & 31 != 31:
                    R[w & 31] = res if sf else res & 0xFFFFFFFF
            elif cond_holds(R[NZCV], (w >> 12) & 15):
                b = np.int64(rm) if op >= T.CCMN_I else (R[rm] if rm != 31 else 0)
                if op == T.CCMP_R or op == T.CCMP_I:
                    res, f = add_with_carry(a, ~b, 1, sf)
                else:
                    res, f = add_with_carry(a, b, 0, sf)
                R[NZCV] = f
            else:
                R[NZCV] = w & 15
            pc += 4
            steps += 1
            continue
        if op == T.CSEL or op == T.CSINC or op == T.CSINV or op == T.CSNEG:
            rd = w & 31
            if rd != 31:
                if cond_holds(R[NZCV], (w >> 12) & 15):
                    rn = (w >> 5) & 31
                    x = R[rn] if rn != 31 else 0
                else:
                    rm = (w >> 16) & 31
                    x = R[rm] if rm != 31 else 0
                    if op == T.CSINC:
                        x += 1
                    elif op == T.CSINV:
                        x = ~x
                    elif op == T.CSNEG:
                        x = -x
                R[rd] = x if (w >> 31) & 1 else x & 0xFFFFFFFF
            pc += 4
            steps += 1
            continue
        # ---- the rest, still by frequency on the benchmark
        if op == T.CBZ or op == T.CBNZ:
            x = R[w & 31] if w & 31 != 31 else 0
            if not (w >> 31) & 1:
                x &= 0xFFFFFFFF
            pc += imm if (x == 0) == (op == T.CBZ) else 4
            steps += 1
            continue
        if op == T.B:
            pc += imm
            steps += 1
            continue
        # ---- scalar double-precision FP with no NaN operand: IEEE result from the host,
        # FPSR flags from the same cheap checks as exec_fp (fpu.*_flags).  Others go to exec_fp.
        if op >= T.FMUL_S and op <= T.FCVT_TOINT and (w >> 22) & 3 == 1:
            rd = w & 31
            rn = (w >> 5) & 31
            rm = (w >> 16) & 31
            fl = np.int64(-1)
            if op <= T.FSUB_S:
                fx = V.f64[rn, 0]
                fy = V.f64[rm, 0]
                if fx == fx and fy == fy and (op != T.FDIV_S or fy != 0):
                    if op == T.FADD_S:
                        fr = fx + fy
                        fl = arith_flags(K_ADD, fx, fy, fr, True)
                    elif op == T.FSUB_S:
                        fr = fx - fy
                        fl = arith_flags(K_SUB, fx, fy, fr, True)
                    elif op == T.FMUL_S:
                        fr = fx * fy
                        fl = arith_flags(K_MUL, fx, fy, fr, True)
                    else:
                        fr = fx / fy
                        fl = arith_flags(K_DIV, fx, fy, fr, True)
                    if fr == fr:
                        V.f64[rd, 0] = fr
                    else:
                        V.d[rd, 0] = np.int64(0x7FF8000000000000)
                    V.d[rd, 1] = 0
            elif op >= T.FMADD and op <= T.FNMSUB:
                fx = V.f64[rn, 0]
                fy = V.f64[rm, 0]
                fz = V.f64[(w >> 10) & 31, 0]
                if fx == fx and fy == fy and fz == fz:
                    if op == T.FMSUB or op == T.FNMADD:
                        fx = -fx
                    if op == T.FNMADD or op == T.FNMSUB:
                        fz = -fz
                    fr = fma64(fx, fy, fz)
                    fl = fma_flags(fx, fy, fz, fr, True)
                    if fr == fr:
                        V.f64[rd, 0] = fr
                    else:
                        V.d[rd, 0] = np.int64(0x7FF8000000000000)
                    V.d[rd, 1] = 0
            elif op == T.FCMP:
                fx = V.f64[rn, 0]
                fy = 0.0 if (w >> 3) & 1 else V.f64[rm, 0]
                if fx == fx and fy == fy:
                    R[NZCV] = 6 if fx == fy else 8 if fx < fy else 2
                    fl = 0
            elif op == T.XCVTF:
                if not (w >> 16) & 1:                                       # SCVTF
                    ix = R[rn] if rn != 31 else 0
                    if not (w >> 31) & 1:
                        ix = ((ix & 0xFFFFFFFF) ^ 0x80000000) - 0x80000000
                    fr = np.float64(ix)
                    fl = cvtf_flags(ix, False, fr)
                    V.f64[rd, 0] = fr
                    V.d[rd, 1] = 0
            elif op == T.FCVT_TOINT:
                fx = V.f64[rn, 0]
                if fx == fx:
                    sf = (w >> 31) & 1
                    mode = (w >> 19) & 3
                    uns = (w >> 16) & 1 == 1
                    width = 64 if sf else 32
                    ix = to_int(fx, mode, width, uns)
                    fl = to_int_flags(fx, mode, width, uns)
                    if rd != 31:
                        R[rd] = ix if sf else ix & 0xFFFFFFFF
            if fl >= 0:
                if fl:
                    R[FPSR] |= fl
                pc += 4
                steps += 1
                continue
        if op == T.TBZ or op == T.TBNZ:
            x = R[w & 31] if w & 31 != 31 else 0
            bit = (((w >> 31) & 1) << 5) | ((w >> 19) & 31)
            pc += imm if ((x >> bit) & 1 == 0) == (op == T.TBZ) else 4
            steps += 1
            continue
        if op == T.BL:
            R[30] = pc + 4
            pc += imm
            steps += 1
            continue
        if op == T.MOVZ:
            if w & 31 != 31:
                R[w & 31] = imm
            pc += 4
            steps += 1
            continue
        if op == T.MOVK:
            rd = w & 31
            if rd != 31:
                sh = ((w >> 21) & 3) * 16
                x = (R[rd] & ~(np.int64(0xFFFF) << sh)) | imm
                R[rd] = x if (w >> 31) & 1 else x & 0xFFFFFFFF
            pc += 4
            steps += 1
            continue
        if op == T.MOVN:
            rd = w & 31
            if rd != 31:
                R[rd] = ~imm if (w >> 31) & 1 else ~imm & 0xFFFFFFFF
            pc += 4
            steps += 1
            continue
        if op == T.ADRP:
            if w & 31 != 31:
                R[w & 31] = (pc & ~np.int64(4095)) + imm
            pc += 4
            steps += 1
            continue
        if op == T.ORR_I or op == T.AND_I:
            rn = (w >> 5) & 31
            a = R[rn] if rn != 31 else 0
            x = (a | imm) if op == T.ORR_I else (a & imm)
            R[w & 31] = x if (w >> 31) & 1 else x & 0xFFFFFFFF     # rd 31 is SP here
            pc += 4
            steps += 1
            continue
        if op >= T.SBFM and op <= T.UBFM:
            _bitfield(op, w, R, (w >> 31) & 1)
            pc += 4
            steps += 1
            continue
        if op == T.HINT or op == T.BARRIER:
            pc += 4
            steps += 1
            continue

        if op < T.FIRST_BRANCH:
            npc = exec_int(op, w, imm, pc, R, st)
        elif op < T.FIRST_SYS:
            npc = exec_branch(op, w, imm, pc, R, st)
        elif op < T.FIRST_MEM:
            npc = exec_sys(op, w, imm, pc, R, st, m, steps)
        elif op < T.FIRST_FP:
            npc = exec_mem(op, w, imm, pc, R, V, m, st)
        elif op < T.FIRST_SIMD:
            npc = exec_fp(op, w, imm, pc, R, V, st)
        else:
            npc = exec_simd(op, w, imm, pc, R, V, st)
        if st[ST_REASON] != 0:
            if st[ST_REASON] == R_SVC:
                steps += 1
                pc = npc
            elif st[ST_REASON] == R_UNDEF:
                st[ST_ADDR] = pc
            break
        pc = npc
        steps += 1
    R[PC] = pc
    return steps
