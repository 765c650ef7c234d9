"""The `compute` engine: the nCPU semantics compiled by numba.

One kernel, `_run_machine`, runs machine `i` of a batch to its end (HALT,
pc outside the program, a SYS trap, or the step budget). A single run is a
batch of one; `run_batch` spreads machines over threads with `prange`.

Why the kernel looks the way it does (the goal is >= 1e8 instructions/s):
registers live in a local int64 array and the flags in local booleans, so
the loop touches no Python object; the dispatch is one `if` chain on the
opcode byte that LLVM turns into a jump table. Opcode bytes come from the
opcode table as module globals, which numba freezes into the machine code.
`cache=True` is kept fresh by `ncpu.jitcache` (any edit in machine/ or
isa/ recompiles).

Values are signed 32-bit, held in int64 and wrapped after arithmetic. The
stack pointer and memory addresses are reduced modulo the memory size when
used (the reference does the same for every in-range sp).
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from ncpu.jitcache import install as _install_jit_cache
from ncpu.machine.decoded import CODE, DecodedProgram, decode_words
from ncpu.machine.state import BatchState, MachineState

_install_jit_cache()    # before the first decorator below: see ncpu.jitcache

# Opcode bytes, frozen into the compiled code (see the module docstring).
HALT, NOP, MOV, MOVI, MOVT = CODE["HALT"], CODE["NOP"], CODE["MOV"], CODE["MOVI"], CODE["MOVT"]
ADD, SUB, MUL, DIV, MOD = CODE["ADD"], CODE["SUB"], CODE["MUL"], CODE["DIV"], CODE["MOD"]
AND, OR, XOR, SHL, SHR, SAR = CODE["AND"], CODE["OR"], CODE["XOR"], CODE["SHL"], CODE["SHR"], CODE["SAR"]
ADDI, ANDI, ORI, XORI = CODE["ADDI"], CODE["ANDI"], CODE["ORI"], CODE["XORI"]
SHLI, SHRI, SARI = CODE["SHLI"], CODE["SHRI"], CODE["SARI"]
NOT, NEG, INC, DEC, CMP, CMPI = CODE["NOT"], CODE["NEG"], CODE["INC"], CODE["DEC"], CODE["CMP"], CODE["CMPI"]
LOAD, STORE, PUSH, POP, CALL, RET = CODE["LOAD"], CODE["STORE"], CODE["PUSH"], CODE["POP"], CODE["CALL"], CODE["RET"]
SYS = CODE["SYS"]
JMP, JZ, JNZ, JS, JNS = CODE["JMP"], CODE["JZ"], CODE["JNZ"], CODE["JS"], CODE["JNS"]
JL, JGE, JG, JLE = CODE["JL"], CODE["JGE"], CODE["JG"], CODE["JLE"]
JB, JAE, JA, JBE = CODE["JB"], CODE["JAE"], CODE["JA"], CODE["JBE"]

# Budgets beyond this are "unlimited" (and keep steps + budget inside int64).
MAX_BUDGET = 1 << 62

_JIT = dict(cache=True, nogil=True, error_model="numpy")


@njit(inline="always", **_JIT)
def _wrap(x):
    return ((x + 0x80000000) & 0xFFFFFFFF) - 0x80000000


@njit(inline="always", **_JIT)
def _mod(x, size):
    """Python's x % size (non-negative) whatever numba's `%` convention."""
    r = x % size
    return r + size if r < 0 else r


@njit(inline="always", **_JIT)
def _div(a, b):
    if b == 0:
        return 0
    q = abs(a) // abs(b)
    return _wrap(q if (a < 0) == (b < 0) else -q)


@njit(**_JIT)
def _run_machine(op, rd, rs1, rs2, imm, regs, mem, flags, pcs, sps, stepss, halteds, trappeds, i, max_steps):
    """Run machine i of the batch arrays in place."""
    if halteds[i] or trappeds[i]:
        return
    r = np.empty(8, np.int64)
    for k in range(8):
        r[k] = regs[i, k]
    m = mem[i]
    size = m.shape[0]
    n, z, c, v = flags[i, 0], flags[i, 1], flags[i, 2], flags[i, 3]
    pc, sp, steps = pcs[i], sps[i], stepss[i]
    budget = steps + max_steps
    length = op.shape[0]
    halted = False
    trapped = False
    while True:
        if pc < 0 or pc >= length:
            halted = True
            break
        if steps >= budget:
            break
        o = op[pc]
        steps += 1
        nxt = pc + 1
        # Register-writing instructions set `w` (destination) and `val`.
        w = -1
        val = 0
        if o == ADDI:
            w = rd[pc]
            val = _wrap(r[rs1[pc]] + imm[pc])
        elif o == CMP or o == CMPI:
            a = r[rs1[pc]]
            b = r[rs2[pc]] if o == CMP else imm[pc]
            res = _wrap(a - b)
            n = res < 0
            z = res == 0
            c = (a & 0xFFFFFFFF) >= (b & 0xFFFFFFFF)
            v = ((a < 0) != (b < 0)) and ((res < 0) != (a < 0))
        elif o == JNZ:
            if not z:
                nxt = imm[pc]
        elif o == JZ:
            if z:
                nxt = imm[pc]
        elif o == JMP:
            nxt = imm[pc]
        elif o == INC:
            w = rd[pc]
            val = _wrap(r[w] + 1)
        elif o == DEC:
            w = rd[pc]
            val = _wrap(r[w] - 1)
        elif o == ADD:
            w = rd[pc]
            val = _wrap(r[rs1[pc]] + r[rs2[pc]])
        elif o == SUB:
            w = rd[pc]
            val = _wrap(r[rs1[pc]] - r[rs2[pc]])
        elif o == MUL:
            w = rd[pc]
            val = _wrap(r[rs1[pc]] * r[rs2[pc]])
        elif o == DIV:
            w = rd[pc]
            val = _div(r[rs1[pc]], r[rs2[pc]])
        elif o == MOD:
            w = rd[pc]
            a = r[rs1[pc]]
            b = r[rs2[pc]]
            val = a if b == 0 else _wrap(a - _div(a, b) * b)
        elif o == AND or o == ANDI:
            w = rd[pc]
            val = r[rs1[pc]] & (r[rs2[pc]] if o == AND else imm[pc])
        elif o == OR or o == ORI:
            w = rd[pc]
            val = r[rs1[pc]] | (r[rs2[pc]] if o == OR else imm[pc])
        elif o == XOR or o == XORI:
            w = rd[pc]
            val = r[rs1[pc]] ^ (r[rs2[pc]] if o == XOR else imm[pc])
        elif o == SHL or o == SHLI:
            w = rd[pc]
            amount = (r[rs2[pc]] if o == SHL else imm[pc]) & 0xFFFFFFFF
            val = 0 if amount >= 32 else _wrap(r[rs1[pc]] << amount)
        elif o == SHR or o == SHRI:
            w = rd[pc]
            amount = (r[rs2[pc]] if o == SHR else imm[pc]) & 0xFFFFFFFF
            val = 0 if amount >= 32 else _wrap((r[rs1[pc]] & 0xFFFFFFFF) >> amount)
        elif o == SAR or o == SARI:
            w = rd[pc]
            amount = (r[rs2[pc]] if o == SAR else imm[pc]) & 0xFFFFFFFF
            val = r[rs1[pc]] >> (31 if amount >= 32 else amount)
        elif o == MOV:
            w = rd[pc]
            val = r[rs1[pc]]
        elif o == MOVI:
            w = rd[pc]
            val = imm[pc]
        elif o == MOVT:
            w = rd[pc]
            val = _wrap((imm[pc] << 16) | (r[w] & 0xFFFF))
        elif o == NOT:
            w = rd[pc]
            val = ~r[rs1[pc]]
        elif o == NEG:
            w = rd[pc]
            val = _wrap(-r[rs1[pc]])
        elif o == LOAD:
            w = rd[pc]
            val = np.int64(m[_mod(r[rs1[pc]] + imm[pc], size)])
        elif o == STORE:
            m[_mod(r[rs1[pc]] + imm[pc], size)] = r[rs2[pc]]
        elif o == PUSH:
            sp = _mod(sp - 1, size)
            m[sp] = r[rs1[pc]]
        elif o == POP:
            w = rd[pc]
            val = np.int64(m[_mod(sp, size)])
            sp = _mod(sp + 1, size)
        elif o == CALL:
            sp = _mod(sp - 1, size)
            m[sp] = nxt
            nxt = imm[pc]
        elif o == RET:
            nxt = np.int64(m[_mod(sp, size)])
            sp = _mod(sp + 1, size)
        elif o == JS:
            if n:
                nxt = imm[pc]
        elif o == JNS:
            if not n:
                nxt = imm[pc]
        elif o == JL:
            if n != v:
                nxt = imm[pc]
        elif o == JGE:
            if n == v:
                nxt = imm[pc]
        elif o == JG:
            if not z and n == v:
                nxt = imm[pc]
        elif o == JLE:
            if z or n != v:
                nxt = imm[pc]
        elif o == JB:
            if not c:
                nxt = imm[pc]
        elif o == JAE:
            if c:
                nxt = imm[pc]
        elif o == JA:
            if c and not z:
                nxt = imm[pc]
        elif o == JBE:
            if not c or z:
                nxt = imm[pc]
        elif o == HALT:
            halted = True
            break
        elif o == SYS:  # trap before executing: no step, pc stays on the SYS
            steps -= 1
            trapped = True
            break
        # NOP (and nothing else: decoding rejected unknown opcodes) falls through.
        if w >= 0:
            r[w] = val
            z = val == 0
            n = val < 0
        pc = nxt
    for k in range(8):
        regs[i, k] = r[k]
    flags[i, 0], flags[i, 1], flags[i, 2], flags[i, 3] = n, z, c, v
    pcs[i], sps[i], stepss[i] = pc, sp, steps
    halteds[i] = halted
    trappeds[i] = trapped


@njit(**_JIT)
def _run_serial(op, rd, rs1, rs2, imm, regs, mem, flags, pcs, sps, stepss, halteds, trappeds, max_steps):
    for i in range(regs.shape[0]):
        _run_machine(op, rd, rs1, rs2, imm, regs, mem, flags, pcs, sps, stepss, halteds, trappeds, i, max_steps)


@njit(parallel=True, **_JIT)
def _run_parallel(op, rd, rs1, rs2, imm, regs, mem, flags, pcs, sps, stepss, halteds, trappeds, max_steps):
    for i in prange(regs.shape[0]):
        _run_machine(op, rd, rs1, rs2, imm, regs, mem, flags, pcs, sps, stepss, halteds, trappeds, i, max_steps)


def _program(words) -> DecodedProgram:
    return words if isinstance(words, DecodedProgram) else decode_words(words)


def run_batch(words, batch: BatchState, max_steps: int, parallel: bool = True) -> BatchState:
    """Run every machine of `batch` (not modified) for up to `max_steps` more
    steps each; machines are independent and spread over numba's threads."""
    p = _program(words)
    out = batch.copy()
    max_steps = min(max(max_steps, 0), MAX_BUDGET)  # a negative budget runs nothing, as in reference
    kernel = _run_parallel if parallel and out.batch_size > 1 else _run_serial
    kernel(p.op, p.rd, p.rs1, p.rs2, p.imm, out.registers, out.memory, out.flags,
           out.pc, out.sp, out.steps, out.halted, out.trapped, np.int64(max_steps))
    return out


def run(words, state: MachineState, max_steps: int) -> MachineState:
    """Run one machine; same contract as `ncpu.machine.reference.run`."""
    return run_batch(words, BatchState.stack([state]), max_steps, parallel=False).machine(0)


def warm_up() -> None:
    """Compile (or load from numba's cache) both kernels; benchmarks call
    this to time start-up separately from running."""
    program = decode_words([CODE["HALT"] << 24])
    batch = BatchState.zeros(2, 1)
    run_batch(program, batch, 1, parallel=False)
    run_batch(program, batch, 1, parallel=True)
