"""What a row does to control flow and to the machine, as native code needs to know it.

Read from the row's family specialised to it (gen_loop.row_body) when gen_loop generates
native_rows.py, which holds the facts of every row (FACTS): reading them takes 20-40 ms a row,
which a first run with native code paid for each row it translated (and a second or more for
the rows module's source) until 2026-11-30, outside the build limit.
"""
from __future__ import annotations

import ast
import re
from typing import NamedTuple

# A row's control flow (RowFacts.flow), from the values its family may return as the next pc:
NEXT = "next"                  # pc + 4, or pc where it stops (a fault: not retired)
JUMP = "jump"                  # pc + imm only
CALL = "call"                  # the same, writing the link register: what follows runs after a
                               # return, which leaves native code
CONDITIONAL = "conditional"    # pc + imm or pc + 4
EXIT = "exit"                  # anything else (a register's value): native code is left


class RowFacts(NamedTuple):
    flow: str          # NEXT, JUMP, CALL, CONDITIONAL or EXIT
    may_stop: bool     # it can record a stop (a fault, SVC, BRK) in `st`
    may_write: bool    # it can write guest memory, and so reset this page's decode row (it passes
                       # the memory arrays on, or touches the decode cache or the backing store)
    cold: bool         # the loop does not carry it: it runs through its cold_rows function
    links: bool        # it writes the link register (BL, BLR): the callee's return comes back to pc + 4


def read(body: ast.Module, cold: bool) -> RowFacts:
    """The facts of a row whose specialised family is `body` (gen_loop.row_body), its `return`s
    the next pc."""
    targets = set()
    for node in ast.walk(body):
        if isinstance(node, ast.Return):
            v = node.value
            targets |= {ast.unparse(x) for x in ((v.body, v.orelse) if isinstance(v, ast.IfExp) else (v,))}
    code = ast.unparse(body)
    links = re.search(r"\bR\[30\]\s*=", code) is not None
    if targets <= {"pc + 4", "pc"}:
        flow = NEXT
    elif targets == {"pc + imm"}:
        flow = CALL if links else JUMP
    elif targets == {"pc + imm", "pc + 4"}:
        flow = CONDITIONAL
    else:
        flow = EXIT
    stops = re.search(r"\bst\b", code) is not None
    writes = re.search(r"\bm\b|\bm_dc_op\b|\bm_(data|d16|d32|d64)\b", code) is not None
    return RowFacts(flow, stops, writes, cold, links)
