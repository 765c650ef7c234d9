"""`ncpu debug diff`: two runs of one program (other stdin, arguments or seed), their first divergence.

Both runs are traced with registers; rows of the first thread are compared
in order.  Two points are reported:

* the first data divergence: the first instruction after which some
  register differs (the instruction that computed it is named, with the
  values in each run);
* the first control divergence: the first instruction whose pc differs;
  the instruction before it (same pc in both runs) took another way.

Everything before the first data divergence was the same in both runs,
registers included (memory read by kernel calls such as read(2) can differ
earlier: it shows when a register first picks it up).
"""

from __future__ import annotations

import numpy as np

from .symbols import Program
from .tracing import COL_PC, COL_X0, REG_NAMES, instruction, run_traced

COL_COUNT = 2


def _rows(binary: str, argv: list[str], stdin: bytes, seed: int, max_steps: int):
    chunks, first = [], [None]

    def on_rows(tid, rows):
        if first[0] is None:
            first[0] = tid
        if tid == first[0]:
            chunks.append(rows.copy())
    result = run_traced(binary, argv, stdin=stdin, on_rows=on_rows, max_steps=max_steps, seed=seed)
    rows = np.vstack(chunks) if chunks else np.zeros((0, COL_X0 + 33), np.int64)
    return rows, result


def compare(binary: str, runs: list[tuple[list[str], bytes, int]], *, max_steps: int = 10**8) -> dict:
    """runs: two (argv, stdin, seed)."""
    program = Program.load(binary)
    (a, ra), (b, rb) = (_rows(binary, argv, stdin, seed, max_steps) for argv, stdin, seed in runs)
    n = min(len(a), len(b))
    report = {"instructions": [len(a), len(b)], "status": [ra.status, rb.status],
              "stdout_equal": ra.stdout == rb.stdout, "data": None, "control": None}
    pcs_differ = np.nonzero(a[:n, COL_PC] != b[:n, COL_PC])[0]
    control = int(pcs_differ[0]) if len(pcs_differ) else (n if len(a) != len(b) else None)
    limit = control if control is not None else n
    regs_differ = np.nonzero((a[:limit, COL_X0:] != b[:limit, COL_X0:]).any(axis=1))[0]
    if len(regs_differ):
        i = int(regs_differ[0])
        report["data"] = _point(program, a, i - 1) | {
            "registers": {REG_NAMES[c]: [_u(a[i, COL_X0 + c]), _u(b[i, COL_X0 + c])]
                          for c in np.nonzero(a[i, COL_X0:] != b[i, COL_X0:])[0]}}
    if control is not None and control > 0:
        report["control"] = _point(program, a, control - 1) | {
            "next_pc": [_u(a[control, COL_PC]) if control < len(a) else None,
                        _u(b[control, COL_PC]) if control < len(b) else None],
            "registers": {REG_NAMES[c]: [_u(a[control - 1, COL_X0 + c]), _u(b[control - 1, COL_X0 + c])]
                          for c in np.nonzero(a[control - 1, COL_X0:] != b[control - 1, COL_X0:])[0]}}
    return report


def _u(v) -> int:
    return int(v) & (2**64 - 1)


def _point(program: Program, rows: np.ndarray, i: int) -> dict:
    pc = int(rows[i, COL_PC])
    where = program.line_of(pc)
    return {"index": i, "count": int(rows[i, COL_COUNT]), "pc": pc, "where": program.where(pc),
            "line": f"{where[0]}:{where[1]}" if where else None,
            "instruction": instruction(pc, int(rows[i, 1]) & 0xFFFFFFFF).text}


def format_report(report: dict) -> str:
    out = [f"run A: {report['instructions'][0]:,} instructions, exit {report['status'][0]}; "
           f"run B: {report['instructions'][1]:,} instructions, exit {report['status'][1]}"]
    for key, title in (("data", "first data divergence"), ("control", "first control divergence")):
        p = report[key]
        if p is None:
            out.append(f"{title}: none")
            continue
        line = f" ({p['line']})" if p["line"] else ""
        out.append(f"{title} after instruction {p['count']:,}: {p['pc']:#x} {p['where']}{line}: {p['instruction']}")
        if key == "control":
            na, nb = p["next_pc"]
            out.append(f"  next pc: A {na:#x}  B {nb:#x}" if na is not None and nb is not None
                       else "  one run ended here")
        for name, (va, vb) in p["registers"].items():
            out.append(f"  {name}: A {va:#x}  B {vb:#x}")
    return "\n".join(out)
