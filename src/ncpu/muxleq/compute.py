"""The `compute` engine: the MUXLEQ semantics of `reference.py` compiled by numba.

One kernel, `_run_machine`, runs machine i of a batch in place until it
halts, spends its budget, reaches a read with no byte yet, or fills its
output buffer (the caller drains the buffer and calls again). A single run
is a batch of one; `run_batch` spreads machines over threads with `prange`.

Why it looks the way it does (the goal is >= 2e8 instructions/s): the loop
touches only local integers and the machine's own uint16 row; SUBLEQ, by
far the most frequent case, is tested last but costs two compares to reach,
and the taken jump skips the `pc += 3` join.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from ncpu.muxleq.state import MuxleqBatch, MuxleqState

OUTPUT_CHUNK = 1 << 16   # output bytes per machine between two drains
MAX_BUDGET = 1 << 62

_JIT = dict(cache=True, nogil=True, error_model="numpy")

# Why a machine stopped (besides halting).
RUNNING, BUDGET, NEED_INPUT, OUTPUT_FULL = 0, 1, 2, 3


@njit(**_JIT)
def _run_machine(mem, pcs, stepss, budgets, inp, in_end, in_pos, ends, out, out_len, i):
    """Run machine i; returns why it stopped (0 = halted). Its input bytes are
    inp[in_pos[i]:in_end[i]] (all machines' inputs, concatenated)."""
    m = mem[i]
    o = out[i]
    pc, steps, budget = pcs[i], stepss[i], budgets[i]
    pos, limit, end = in_pos[i], in_end[i], ends[i]
    n_out, cap = out_len[i], o.shape[0]
    why = 0
    while pc < 0x8000:
        if steps >= budget:
            why = BUDGET
            break
        a = np.int64(m[pc])
        b = np.int64(m[pc + 1])
        c = np.int64(m[pc + 2])
        if a == 0xFFFF:
            if pos < limit:
                m[b] = inp[pos]
                pos += 1
            elif end:
                m[b] = 0xFFFF
            else:
                why = NEED_INPUT
                break
        elif b == 0xFFFF:
            if n_out == cap:
                why = OUTPUT_FULL
                break
            o[n_out] = m[a] & 0xFF
            n_out += 1
        elif (c & 0x8000) != 0 and c != 0xFFFF:
            s = np.int64(m[c & 0x7FFF])
            m[b] = ((np.int64(m[a]) & ~s) | (np.int64(m[b]) & s)) & 0xFFFF
        else:
            r = (np.int64(m[b]) - np.int64(m[a])) & 0xFFFF
            m[b] = r
            if r == 0 or r >= 0x8000:
                pc = c
                steps += 1
                continue
        pc += 3
        steps += 1
    pcs[i], stepss[i], in_pos[i], out_len[i] = pc, steps, pos, n_out
    return why


@njit(parallel=True, **_JIT)
def _run_all(mem, pcs, stepss, budgets, inp, in_end, in_pos, ends, out, out_len, why):
    for i in prange(mem.shape[0]):
        why[i] = _run_machine(mem, pcs, stepss, budgets, inp, in_end, in_pos, ends, out, out_len, i)


def run_batch(batch: MuxleqBatch, max_steps: int) -> MuxleqBatch:
    b = batch.copy()
    B = b.batch_size
    budget = b.steps + min(max(max_steps, 0), MAX_BUDGET)
    lengths = np.array([len(x) for x in b.inputs], np.int64)
    in_start = np.concatenate([[0], np.cumsum(lengths)[:-1]]).astype(np.int64)
    in_end = in_start + lengths
    inp = np.frombuffer(b"".join(b.inputs) or b"\0", np.uint8)
    in_pos = in_start.copy()
    out = np.zeros((B, OUTPUT_CHUNK), np.uint8)
    out_len = np.zeros(B, np.int64)
    why = np.zeros(B, np.int64)
    outputs = [bytearray(x) for x in b.outputs]
    while True:
        _run_all(b.memory, b.pc, b.steps, budget, inp, in_end, in_pos, b.end_of_input, out, out_len, why)
        for i in np.flatnonzero(out_len):
            outputs[i] += out[i, :out_len[i]].tobytes()
        out_len[:] = 0
        if not (why == OUTPUT_FULL).any():
            break
    b.halted = b.pc >= 0x8000
    b.inputs = [x[p - s:] for x, p, s in zip(b.inputs, in_pos, in_start)]
    b.outputs = [bytes(x) for x in outputs]
    return b


def run(state: MuxleqState, max_steps: int) -> MuxleqState:
    return run_batch(MuxleqBatch.stack([state]), max_steps).machine(0)
