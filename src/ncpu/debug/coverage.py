"""`ncpu debug coverage`: basic blocks and source lines run, written as lcov `.info`.

Counts per pc come from the trace.  A basic block starts where the trace
did not fall through (the previous instruction was a branch, or the pc is
not the previous one plus 4): a block counts as hit at each such entry.
Lines come from the DWARF line table of a `-g` binary: a line's hit count is
the number of times the first instruction of one of its line-table rows ran,
so a line of the table that never ran is reported with 0 (`DA:line,0`).
"""

from __future__ import annotations

from collections import Counter, defaultdict

import numpy as np

from .symbols import Program
from .tracing import COL_PC, COL_WORD


def is_branch(words: np.ndarray) -> np.ndarray:
    """B, BL, B.cond, CBZ/CBNZ, TBZ/TBNZ, BR/BLR/RET: the A64 branch encoding group."""
    return (words & 0x1C000000) == 0x14000000


class Coverage:
    def __init__(self, program: Program):
        self.program = program
        self.pc_counts: Counter = Counter()
        self.blocks: Counter = Counter()
        self.prev_pc = -1
        self.prev_branch = True

    def add(self, rows: np.ndarray) -> None:
        pcs = rows[:, COL_PC]
        words = rows[:, COL_WORD] & 0xFFFFFFFF
        values, counts = np.unique(pcs, return_counts=True)
        self.pc_counts.update(dict(zip(values.tolist(), counts.tolist())))
        prev = np.concatenate(([self.prev_pc], pcs[:-1]))
        branch = np.concatenate(([self.prev_branch], is_branch(words[:-1])))
        starts = pcs[branch | (pcs != prev + 4)]
        values, counts = np.unique(starts, return_counts=True)
        self.blocks.update(dict(zip(values.tolist(), counts.tolist())))
        self.prev_pc, self.prev_branch = int(pcs[-1]), bool(is_branch(words[-1:])[0])

    def lines(self) -> dict[str, dict[int, int]]:
        """file -> line -> hits, for every line in the line table."""
        out: dict[str, dict[int, int]] = defaultdict(dict)
        for addr, (name, line) in self.program.lines.items():
            if line == 0:
                continue
            hits = self.pc_counts.get(addr, 0)
            out[name][line] = max(out[name].get(line, 0), hits)
        return dict(out)

    def functions(self) -> dict[str, tuple[str, int, int]]:
        """function -> (file, first line, calls) for functions with line info."""
        out = {}
        for k, name in enumerate(self.program.names):
            start = int(self.program.starts[k])
            where = self.program.lines.get(start)
            if where is not None:
                out[name] = (where[0], where[1], self.pc_counts.get(start, 0))
        return out

    def summary(self) -> dict:
        lines = self.lines()
        found = sum(len(v) for v in lines.values())
        hit = sum(1 for v in lines.values() for n in v.values() if n)
        return {"instructions": sum(self.pc_counts.values()), "distinct_pcs": len(self.pc_counts),
                "blocks_hit": len(self.blocks), "block_entries": sum(self.blocks.values()),
                "lines_found": found, "lines_hit": hit,
                "files": {name: {"found": len(v), "hit": sum(1 for n in v.values() if n)}
                          for name, v in sorted(lines.items())}}

    def lcov(self, test_name: str = "") -> str:
        """The lcov tracefile (geninfo's format): per source file, FN/FNDA, DA, LF/LH."""
        out = []
        funcs = self.functions()
        for name, lines in sorted(self.lines().items()):
            out.append(f"TN:{test_name}")
            out.append(f"SF:{name}")
            mine = sorted((line, f, calls) for f, (src, line, calls) in funcs.items() if src == name)
            for line, f, _ in mine:
                out.append(f"FN:{line},{f}")
            for line, f, calls in mine:
                out.append(f"FNDA:{calls},{f}")
            out.append(f"FNF:{len(mine)}")
            out.append(f"FNH:{sum(1 for _, _, c in mine if c)}")
            for line, hits in sorted(lines.items()):
                out.append(f"DA:{line},{hits}")
            out.append(f"LF:{len(lines)}")
            out.append(f"LH:{sum(1 for n in lines.values() if n)}")
            out.append("end_of_record")
        return "\n".join(out) + "\n"
