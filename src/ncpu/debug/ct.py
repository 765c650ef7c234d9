"""`ncpu debug ct`: constant-time verification over several secret inputs.

The program runs once per secret (given on stdin).  From each run's trace
we keep, per instruction of the first thread: the pc, the address of each
load and store, and the operands of each division (UDIV/SDIV take a
variable number of cycles on real cores).  The runs are then compared
instruction by instruction; the first place where they differ is reported
with its kind:

* branch: the same instruction was followed by different pcs (the
  reported pc is that instruction, a conditional branch as a rule);
* load address / store address: the same instruction touched different
  addresses (a secret-dependent table index, say);
* division: the same division got different operands.

The machine is deterministic, so identical traces are a proof of
constant-time behaviour for the inputs run (not a statistical estimate);
other inputs may still differ.  `--function` restricts the comparison to
instructions inside one function (its own code, not its callees).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .symbols import Program
from .tracing import COL_PC, COL_WORD, COL_X0, access, instruction, run_traced

KINDS = ("branch", "load address", "store address", "division")


def is_division(words: np.ndarray) -> np.ndarray:
    w = words & 0x7FE0FC00
    return (w == 0x1AC00800) | (w == 0x1AC00C00)


@dataclass
class RunTrace:
    pcs: np.ndarray          # (n,)
    loads: np.ndarray        # (n,) address, -1 where the instruction loads nothing
    stores: np.ndarray
    divs: np.ndarray         # (n, 2) operands, 0 where not a division
    status: int


def record(binary: str, argv: list[str], stdin: bytes, span: tuple[int, int] | None, max_steps: int) -> RunTrace:
    chunks = []

    def on_rows(tid, rows):
        if first[0] is None:
            first[0] = tid
        if tid != first[0]:
            return
        keep = rows if span is None else rows[(rows[:, COL_PC] >= span[0]) & (rows[:, COL_PC] < span[1])]
        if len(keep):
            chunks.append(keep.copy())
    first = [None]
    result = run_traced(binary, argv, stdin=stdin, on_rows=on_rows, max_steps=max_steps)
    rows = np.vstack(chunks) if chunks else np.zeros((0, COL_X0 + 33), np.int64)
    n = len(rows)
    loads = np.full(n, -1, np.int64)
    stores = np.full(n, -1, np.int64)
    words = rows[:, COL_WORD] & 0xFFFFFFFF
    # loads and stores: bit 27 set, bit 25 clear (the A64 load/store encoding group)
    for k in np.nonzero((words & 0x0A000000) == 0x08000000)[0]:
        mem = access(rows[k])
        if mem is not None:
            addr, _, load, store = mem
            if load:
                loads[k] = addr
            if store:
                stores[k] = addr
    divs = np.zeros((n, 2), np.int64)
    for k in np.nonzero(is_division(words))[0]:
        w = int(words[k])
        divs[k] = rows[k, COL_X0 + ((w >> 5) & 31)], rows[k, COL_X0 + ((w >> 16) & 31)]
    return RunTrace(rows[:, COL_PC].copy(), loads, stores, divs, result.status)


def first_difference(a: RunTrace, b: RunTrace) -> tuple[str, int] | None:
    """(kind, index into a's trace) of the first difference, or None if the traces are identical."""
    n = min(len(a.pcs), len(b.pcs))
    diff = np.nonzero(a.pcs[:n] != b.pcs[:n])[0]
    candidates = []
    if len(diff):
        candidates.append((int(diff[0]) - 1, "branch"))       # the instruction before took another way
        n = int(diff[0])
    elif len(a.pcs) != len(b.pcs):
        candidates.append((n - 1, "branch"))
    for kind, x, y in (("load address", a.loads, b.loads), ("store address", a.stores, b.stores)):
        d = np.nonzero(x[:n] != y[:n])[0]
        if len(d):
            candidates.append((int(d[0]), kind))
    d = np.nonzero((a.divs[:n] != b.divs[:n]).any(axis=1))[0]
    if len(d):
        candidates.append((int(d[0]), "division"))
    if not candidates:
        return None
    index, kind = min(candidates)
    return kind, max(index, 0)


def check(binary: str, argv: list[str], secrets: list[bytes], *, function: str | None = None,
          max_steps: int = 10**9, progress=None) -> dict:
    program = Program.load(binary)
    span = program.function(function) if function else None
    runs = []
    for secret in secrets:
        runs.append(record(binary, argv, secret, span, max_steps))
        if progress is not None:
            progress()
    report = {"constant_time": True, "inputs": len(secrets), "function": function,
              "instructions": [int(len(r.pcs)) for r in runs], "divergence": None}
    for k in range(1, len(runs)):
        found = first_difference(runs[0], runs[k])
        if found is None:
            continue
        kind, index = found
        pc = int(runs[0].pcs[index]) if index < len(runs[0].pcs) else int(runs[k].pcs[index])
        word = program.word_at(pc)
        report["constant_time"] = False
        report["divergence"] = {"kind": kind, "index": index, "pc": pc, "where": program.where(pc),
                                "line": _line(program, pc), "instruction": instruction(pc, word).text,
                                "inputs": [0, k]}
        if kind in ("load address", "store address"):
            column = runs[0].loads if kind == "load address" else runs[0].stores
            other = runs[k].loads if kind == "load address" else runs[k].stores
            report["divergence"]["addresses"] = [int(column[index]), int(other[index])]
        break
    return report


def _line(program: Program, pc: int):
    where = program.line_of(pc)
    return f"{where[0]}:{where[1]}" if where else None


def format_report(report: dict) -> str:
    runs = report["inputs"]
    scope = f" in {report['function']}" if report["function"] else ""
    if report["constant_time"]:
        return (f"constant time{scope} over {runs} inputs: identical pc, load/store address and division "
                f"traces ({report['instructions'][0]:,} instructions each)")
    d = report["divergence"]
    line = f" ({d['line']})" if d["line"] else ""
    text = (f"NOT constant time{scope}: inputs {d['inputs'][0]} and {d['inputs'][1]} diverge at instruction "
            f"{d['index']:,}: {d['kind']} at {d['pc']:#x} {d['where']}{line}: {d['instruction']}")
    if "addresses" in d:
        text += f" (addresses {d['addresses'][0]:#x} and {d['addresses'][1]:#x})"
    return text
