"""`ncpu debug reverse`: where did this value come from?  A backward data-flow slice over the trace.

Start from a register (or memory bytes) as it was before instruction N of
the first thread (by default, the last time a given pc ran).  Walking the
trace backwards, an instruction joins the slice when it wrote something
wanted; what it wrote is then no longer wanted, and what it read is
(dataflow.effects: its source registers; for a load, the bytes it read;
for a store, the registers it stored).  A read(2) that filled wanted bytes
names the input bytes they came from ("stdin[2]"); what is still wanted
at the start of the run came from the loader (the program image, argv,
the environment, the initial registers).  Data flow only: a value chosen
by a branch on another value is not followed to that value.
"""

from __future__ import annotations

import numpy as np

from .dataflow import effects
from .symbols import Program
from .tracing import COL_PC, COL_WORD, access, run_traced

COL_COUNT = 2
MAX_CHAIN = 200


def _rows_and_calls(binary, argv, stdin, max_steps):
    chunks, calls, first, seen = [], {}, [None], [0]

    def on_rows(tid, rows):
        if first[0] is None:
            first[0] = tid
        if tid == first[0]:
            chunks.append(rows.copy())
            seen[0] += len(rows)

    def on_call(call):
        if call.pid == first[0]:
            calls[seen[0] - 1] = call                # the svc is the last row seen
    result = run_traced(binary, argv, stdin=stdin, on_rows=on_rows, on_call=on_call, max_steps=max_steps)
    rows = np.vstack(chunks) if chunks else np.zeros((0, 36), np.int64)
    return rows, calls, result


def slice_back(binary: str, argv: list[str], *, stdin: bytes = b"", register: str | None = "x0",
               memory: tuple[int, int] | None = None, at_pc: int | None = None, at: int | None = None,
               max_steps: int = 10**9) -> dict:
    program = Program.load(binary)
    rows, calls, result = _rows_and_calls(binary, argv, stdin, max_steps)
    if at is None:
        hits = np.nonzero(rows[:, COL_PC] == at_pc)[0] if at_pc is not None else np.array([len(rows)])
        if len(hits) == 0:
            raise ValueError(f"pc {at_pc:#x} never ran")
        index = int(hits[-1])
    else:
        index = int(np.searchsorted(rows[:, COL_COUNT], at))
    want_regs = {register} if register and memory is None else set()
    want_mem = set(range(memory[0], memory[0] + memory[1])) if memory else set()
    chain, inputs = [], {}
    stdin_offsets = _stdin_offsets(calls)
    for k in range(index - 1, -1, -1):
        if not want_regs and not want_mem:
            break
        row = rows[k]
        call = calls.get(k)
        if call is not None:
            hit = False
            if "x0" in want_regs and call.result is not None:
                want_regs.discard("x0")
                hit = True
            if call.name in ("read", "pread64") and call.result and call.result > 0:
                buf = call.raw[1]
                got = {a for a in want_mem if buf <= a < buf + call.result}
                if got:
                    want_mem -= got
                    hit = True
                    base = stdin_offsets.get(k) if call.raw[0] == 0 else None
                    for a in got:
                        name = "stdin" if base is not None else f"fd{call.raw[0]}"
                        inputs[f"{name}[{(base or 0) + a - buf}]"] = None
            if hit:
                chain.append(_entry(program, row, f"{call.name}(...) = {call.result}"))
            continue
        eff = effects(int(row[COL_PC]), int(row[COL_WORD]) & 0xFFFFFFFF)
        hit = False
        mem = access(row) if (eff.mem_read or eff.mem_write) else None
        if mem is not None and mem[3]:
            addr, size = mem[0], mem[1]
            got = {a for a in range(addr, addr + size) if a in want_mem}
            if got:
                want_mem -= got
                want_regs |= {r for r in eff.uses if r not in eff.address}
                hit = True
        defs = [d for d in eff.defs if d in want_regs]
        if defs:
            want_regs -= set(defs)
            hit = True
            if mem is not None and mem[2] and any(d not in eff.address for d in defs):
                want_mem |= set(range(mem[0], mem[0] + mem[1]))
            else:
                want_regs |= set(eff.uses)
        if hit:
            chain.append(_entry(program, row, None))
            if len(chain) >= MAX_CHAIN:
                break
    start = {"registers": sorted(want_regs), "memory": _spans(sorted(want_mem))}
    return {"index": index, "count": int(rows[index - 1, COL_COUNT]) + 1 if index else 0,
            "register": register if memory is None else None, "memory": memory, "chain": chain,
            "inputs": sorted(inputs, key=lambda s: (s.split("[")[0], int(s.split("[")[1][:-1]))),
            "from_start": start, "status": result.status}


def _stdin_offsets(calls: dict) -> dict:
    pos, out = 0, {}
    for k in sorted(calls):
        c = calls[k]
        if c.name == "read" and c.raw and c.raw[0] == 0 and c.result and c.result > 0:
            out[k] = pos
            pos += c.result
    return out


def _spans(addrs: list[int]) -> list[list[int]]:
    out = []
    for a in addrs:
        if out and out[-1][1] == a:
            out[-1][1] = a + 1
        else:
            out.append([a, a + 1])
    return out


def _entry(program: Program, row, note) -> dict:
    from .tracing import instruction
    pc = int(row[COL_PC])
    where = program.line_of(pc)
    return {"count": int(row[COL_COUNT]), "pc": pc, "where": program.where(pc),
            "line": f"{where[0]}:{where[1]}" if where else None,
            "instruction": note or instruction(pc, int(row[COL_WORD]) & 0xFFFFFFFF).text}


def format_report(rep: dict) -> str:
    what = rep["register"] or f"{rep['memory'][1]} bytes at {rep['memory'][0]:#x}"
    out = [f"{what} before instruction {rep['count']:,}: {len(rep['chain'])} instructions in its data flow"]
    for e in rep["chain"]:
        line = f" ({e['line']})" if e["line"] else ""
        out.append(f"{e['count']:>10} {e['pc']:#x} {e['where']}{line}: {e['instruction']}")
    if rep["inputs"]:
        out.append("input bytes: " + " ".join(rep["inputs"]))
    start = rep["from_start"]
    if start["registers"] or start["memory"]:
        mem = " ".join(f"{a:#x}..{b:#x}" for a, b in start["memory"][:8])
        out.append(f"from the initial state: {' '.join(start['registers'])} {mem}".rstrip())
    return "\n".join(out)
