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
from .exec_int import exec_branch, exec_int, exec_sys
from .exec_mem import exec_mem
from .exec_simd import exec_simd
from .memory import NPAGES
from .mmu import A_EXEC, R_BUDGET, R_GROW, R_SVC, R_UNDEF, ST_ADDR, ST_REASON, ST_WORD, fault
from .alu import cond_holds, shift_reg, ult
from .state import NZCV, PC


@njit(cache=True)
def run_loop(R, V, m, st, max_steps):
    """Execute up to max_steps instructions; returns instructions retired."""
    steps = 0
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
        # Fast paths for the most frequent simple instructions: no call, no stop check.
        if op == T.ADD_I or op == T.SUB_I:
            v = R[(w >> 5) & 31] + (imm if op == T.ADD_I else -imm)
            R[w & 31] = v if (w >> 31) & 1 else v & 0xFFFFFFFF
            pc += 4
            steps += 1
            continue
        if op == T.SUBS_I and (w >> 31) & 1:
            a = R[(w >> 5) & 31]
            res = a - imm
            n = np.int64(res < 0)
            z = np.int64(res == 0)
            c = np.int64(not ult(a, imm))
            v = np.int64(((a ^ imm) & (a ^ res)) < 0)
            R[NZCV] = (n << 3) | (z << 2) | (c << 1) | v
            if w & 31 != 31:
                R[w & 31] = res
            pc += 4
            steps += 1
            continue
        if op == T.B_COND:
            pc += imm if cond_holds(R[NZCV], w & 15) else 4
            steps += 1
            continue
        if op == T.B:
            pc += imm
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
        if op == T.MOVZ:
            if w & 31 != 31:
                R[w & 31] = imm
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
