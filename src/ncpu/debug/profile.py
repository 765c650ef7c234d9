"""`ncpu debug profile`: instructions per function (flat and by call stack), hottest instructions.

The pc trace is folded as it comes: a flat count per pc (np.unique), and a
shadow call stack moved by BL/BLR (push) and RET (pop), so each stretch of
instructions between two calls or returns is charged to one stack.  Self
counts are by the function holding the pc; inclusive counts charge every
function on the stack once; `collapsed` is the stacks in the format
flame-graph tools read ("main;hot 1200").
"""

from __future__ import annotations

from collections import Counter

import numpy as np

from .symbols import Program
from .tracing import COL_PC, COL_WORD, instruction

MAX_DEPTH = 256          # a deeper shadow stack (recursion, longjmp) keeps its newest frames


def is_call(words: np.ndarray) -> np.ndarray:
    return ((words & 0xFC000000) == 0x94000000) | ((words & 0xFFFFFC1F) == 0xD63F0000)   # BL, BLR


def is_ret(words: np.ndarray) -> np.ndarray:
    return (words & 0xFFFFFC1F) == 0xD65F0000


class Profile:
    def __init__(self, program: Program):
        self.program = program
        self.pc_counts: Counter = Counter()
        self.stacks: Counter = Counter()         # tuple of function indices -> instructions
        self.edges: Counter = Counter()          # (caller, callee) -> calls
        self.stack: list[int] = []               # functions of the calls in progress
        self.pending_call = False
        self.total = 0
        self.words: dict[int, int] = {}          # pc -> instruction word, for the report

    def add(self, rows: np.ndarray) -> None:
        pcs = rows[:, COL_PC]
        words = rows[:, COL_WORD] & 0xFFFFFFFF
        self.total += len(pcs)
        values, counts = np.unique(pcs, return_counts=True)
        self.pc_counts.update(dict(zip(values.tolist(), counts.tolist())))
        funcs = self.program.function_index(pcs)
        calls, rets = is_call(words), is_ret(words)
        events = np.nonzero(calls | rets)[0].tolist()
        for pc, w in zip(pcs[calls | rets].tolist(), words[calls | rets].tolist()):
            self.words[pc] = w
        start = 0
        for end in events:                      # a stretch ends with a call or a return
            self._charge(funcs[start:end + 1])
            if calls[end]:
                self.stack.append(int(funcs[end]))
                del self.stack[:-MAX_DEPTH]
                self.pending_call = True
            elif self.stack:
                self.stack.pop()
            start = end + 1
        self._charge(funcs[start:])
        hot = [int(p) for p in values[np.argsort(-counts)[:64]]]
        for pc in hot:
            if pc not in self.words:
                self.words[pc] = int(words[np.argmax(pcs == pc)])

    def _charge(self, funcs: np.ndarray) -> None:
        if len(funcs) == 0:
            return
        if self.pending_call:                   # first instruction after a call: the callee
            self.edges[(self.stack[-1], int(funcs[0]))] += 1
            self.pending_call = False
        values, counts = np.unique(funcs, return_counts=True)
        base = tuple(self.stack)
        for f, c in zip(values.tolist(), counts.tolist()):
            self.stacks[base + (f,)] += c

    # --- reports ----------------------------------------------------------------------
    def flat(self) -> list[dict]:
        self_count: Counter = Counter()
        inclusive: Counter = Counter()
        for stack, n in self.stacks.items():
            self_count[stack[-1]] += n
            for f in set(stack):
                inclusive[f] += n
        name = self.program.name_of
        rows = [{"function": name(f), "self": n, "inclusive": inclusive[f],
                 "percent": round(100.0 * n / max(self.total, 1), 2)} for f, n in self_count.items()]
        return sorted(rows, key=lambda r: (-r["self"], r["function"]))

    def calls(self) -> list[dict]:
        name = self.program.name_of
        return sorted(({"caller": name(a), "callee": name(b), "calls": n} for (a, b), n in self.edges.items()),
                      key=lambda r: (-r["calls"], r["caller"], r["callee"]))

    def hottest(self, n: int = 10) -> list[dict]:
        out = []
        for pc, count in sorted(self.pc_counts.items(), key=lambda kv: (-kv[1], kv[0]))[:n]:
            out.append({"pc": pc, "where": self.program.where(pc), "count": count,
                        "instruction": instruction(pc, self._word(pc)).text})
        return out

    def collapsed(self) -> list[str]:
        name = self.program.name_of
        return [f"{';'.join(name(f) for f in stack)} {n}" for stack, n in sorted(self.stacks.items(),
                                                                                 key=lambda kv: -kv[1])]

    def _word(self, pc: int) -> int:
        return self.words[pc] if pc in self.words else self.program.word_at(pc)
