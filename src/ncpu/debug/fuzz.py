"""`ncpu debug fuzz`: coverage-guided mutation fuzzing of a program's stdin.

Each execution is traced (registers included); from the trace come

* edges: (previous pc, pc) for every instruction that did not fall through;
  an input that reaches a new edge joins the corpus;
* comparison operands: for each `cmp` (SUBS with the zero register as
  destination) the two values compared.  When one of them appears in the
  input (1, 2, 4 or 8 bytes, little-endian), a candidate input has it
  replaced by the other: this is how a 4-byte magic number is matched in a
  few executions instead of 2**32 ("input-to-state" mutations);
* crashes: a run ended by a signal, named by signal, pc and a hash of the
  call stack at the fault (the shadow stack of BL/BLR and RET), which is the
  deduplication key; each new crash is minimised (chunks removed while the
  same key still comes out).

Everything random comes from one `random.Random(seed)`, and inputs are
generated in fixed batches before any of the batch runs, so a seed gives
the same campaign whatever the number of parallel jobs (`jobs`: processes
forked from this one, each running whole executions).
"""

from __future__ import annotations

import hashlib
import os
import random
from dataclasses import dataclass, field

import numpy as np

from .profile import is_call, is_ret
from .symbols import Program
from .tracing import COL_PC, COL_WORD, COL_X0, run_traced

BATCH = 8
INTERESTING = [0, 1, 0x7F, 0x80, 0xFF, 0x7FFF, 0x8000, 0xFFFF, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF]


@dataclass
class Execution:
    edges: frozenset
    cmps: list                    # (value, value, width in bytes)
    crash: tuple | None           # (signal, pc, stack hash) or None
    status: int
    instructions: int


@dataclass
class Crash:
    key: tuple
    input: bytes
    minimized: bytes
    found_at: int                 # execution number


@dataclass
class Campaign:
    executions: int = 0
    corpus: list = field(default_factory=list)
    edges: set = field(default_factory=set)
    crashes: dict = field(default_factory=dict)


def execute(binary: str, argv: list[str], data: bytes, max_steps: int) -> Execution:
    pcs_chunks, cmps, stack = [], [], []
    last = [None]

    def on_rows(tid, rows):
        words = rows[:, COL_WORD] & 0xFFFFFFFF
        pcs = rows[:, COL_PC]
        prev = np.concatenate(([last[0] if last[0] is not None else -1], pcs[:-1]))
        jump = pcs != prev + 4
        pcs_chunks.append((prev[jump] << 32) ^ (pcs[jump] & 0xFFFFFFFF))
        last[0] = int(pcs[-1])
        _comparisons(rows, words, cmps)
        calls, rets = is_call(words), is_ret(words)
        for k in np.nonzero(calls | rets)[0]:
            if calls[k]:
                stack.append(int(pcs[k]))
            elif stack:
                stack.pop()
    result = run_traced(binary, argv, stdin=data, on_rows=on_rows, max_steps=max_steps)
    edges = frozenset(np.unique(np.concatenate(pcs_chunks)).tolist()) if pcs_chunks else frozenset()
    crash = None
    if result.wait_status & 0x7F:
        digest = hashlib.sha1(repr(stack[-16:]).encode()).hexdigest()[:12]
        crash = (result.wait_status & 0x7F, result.fault_pc or 0, digest)
    return Execution(edges, cmps, crash, result.status, result.instructions)


def _comparisons(rows, words, out: list) -> None:
    """(x, y, width) of each cmp: SUBS immediate or shifted register with destination zr."""
    imm = ((words & 0x7F800000) == 0x71000000) & ((words & 31) == 31)
    reg = ((words & 0x7F200000) == 0x6B000000) & ((words & 31) == 31) & ((words >> 10) & 63 == 0)
    for k in np.nonzero(imm | reg)[0]:
        w = int(words[k])
        wide = w >> 31
        x = int(rows[k, COL_X0 + ((w >> 5) & 31)])
        if imm[k]:
            y = ((w >> 10) & 0xFFF) << (12 if (w >> 22) & 1 else 0)
        else:
            rm = (w >> 16) & 31
            y = 0 if rm == 31 else int(rows[k, COL_X0 + rm])
        mask = (1 << 64) - 1 if wide else 0xFFFFFFFF
        x, y = x & mask, y & mask
        if x != y:
            out.append((x, y, 8 if wide else 4))


def _replacements(data: bytes, cmps: list, limit: int = 64) -> list[bytes]:
    """Inputs with one compared value replaced by the value it was compared with."""
    out, seen = [], set()
    for x, y, width in cmps:
        for a, b in ((x, y), (y, x)):
            for size in (1, 2, 4, 8):
                if size > width or a >> (8 * size) or b >> (8 * size):
                    continue
                pattern, repl = a.to_bytes(size, "little"), b.to_bytes(size, "little")
                pos = data.find(pattern)
                if pos < 0 or (pattern, repl) in seen:
                    continue
                seen.add((pattern, repl))
                out.append(data[:pos] + repl + data[pos + size:])
                if len(out) >= limit:
                    return out
    return out


def _mutate(rng: random.Random, data: bytes, corpus: list, max_len: int) -> bytes:
    buf = bytearray(data or b"\0")
    for _ in range(1 << rng.randrange(4)):
        choice = rng.randrange(7)
        pos = rng.randrange(len(buf)) if buf else 0
        if choice == 0 and buf:
            buf[pos] ^= 1 << rng.randrange(8)
        elif choice == 1 and buf:
            buf[pos] = rng.randrange(256)
        elif choice == 2 and buf:
            v = rng.choice(INTERESTING)
            size = rng.choice((1, 2, 4))
            buf[pos:pos + size] = (v & ((1 << 8 * size) - 1)).to_bytes(size, "little")
        elif choice == 3 and len(buf) < max_len:
            buf[pos:pos] = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 9)))
        elif choice == 4 and len(buf) > 1:
            del buf[pos:pos + rng.randrange(1, min(8, len(buf)) + 1)]
        elif choice == 5 and buf:
            buf[pos] = (buf[pos] + rng.choice((-1, 1))) & 0xFF
        elif choice == 6 and corpus:
            other = rng.choice(corpus)
            cut = rng.randrange(len(other) + 1)
            buf = buf[:pos] + bytearray(other[cut:])
    return bytes(buf[:max_len])


def _worker(args):
    return execute(*args)


def minimize(binary, argv, data: bytes, key: tuple, max_steps: int) -> bytes:
    """Remove chunks (halving their size) while the run still crashes with the same key."""
    size = max(len(data) // 2, 1)
    while size >= 1:
        pos, changed = 0, False
        while pos < len(data):
            candidate = data[:pos] + data[pos + size:]
            if candidate and execute(binary, argv, candidate, max_steps).crash == key:
                data, changed = candidate, True
            else:
                pos += size
        if not changed:
            size //= 2
    return data


def fuzz(binary: str, argv: list[str], *, seeds: list[bytes], executions: int, seed: int = 0,
         max_steps: int = 10**7, max_len: int = 256, jobs: int = 1, corpus_dir: str | None = None,
         stop_on_crash: bool = False, progress=None) -> Campaign:
    rng = random.Random(seed)
    state = Campaign()
    pending: list[bytes] = list(seeds) or [b"AAAAAAAA"]
    pool = None
    if jobs > 1:
        import multiprocessing
        pool = multiprocessing.get_context("fork").Pool(jobs)
    try:
        while state.executions < executions:
            batch = []
            while len(batch) < BATCH and state.executions + len(batch) < executions:
                if pending:
                    batch.append(pending.pop(0))
                else:
                    parent = state.corpus[rng.randrange(len(state.corpus))] if state.corpus else b"A"
                    batch.append(_mutate(rng, parent, state.corpus, max_len))
            work = [(binary, argv, data, max_steps) for data in batch]
            results = pool.map(_worker, work) if pool is not None else [_worker(w) for w in work]
            for data, ex in zip(batch, results):
                state.executions += 1
                if progress is not None:
                    progress()
                if ex.crash is not None and ex.crash not in state.crashes:
                    small = minimize(binary, argv, data, ex.crash, max_steps)
                    state.crashes[ex.crash] = Crash(ex.crash, data, small, state.executions)
                    _save(corpus_dir, "crashes", small)
                new = ex.edges - state.edges
                if new:
                    state.edges |= new
                    state.corpus.append(data)
                    _save(corpus_dir, "queue", data)
                    pending.extend(_replacements(data, ex.cmps))
            if stop_on_crash and state.crashes:
                break
    finally:
        if pool is not None:
            pool.close()
    return state


def _save(directory: str | None, kind: str, data: bytes) -> None:
    if directory is None:
        return
    path = os.path.join(directory, kind)
    os.makedirs(path, exist_ok=True)
    with open(os.path.join(path, hashlib.sha1(data).hexdigest()[:16]), "wb") as f:
        f.write(data)


def report(state: Campaign, program: Program) -> dict:
    return {"executions": state.executions, "corpus": len(state.corpus), "edges": len(state.edges),
            "crashes": [{"signal": c.key[0], "pc": c.key[1], "where": program.where(c.key[1]),
                         "stack": c.key[2], "found_at": c.found_at, "input": c.input.hex(),
                         "minimized": c.minimized.hex()} for c in state.crashes.values()]}
