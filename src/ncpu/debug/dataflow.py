"""Which registers an instruction reads and writes, from its disassembly: the base of taint and reverse.

Locations are register names ("x0".."x30", "sp", "nzcv", "v0".."v31"; a
w register is its x register) and memory bytes (int addresses).  The rule
for the operand list: the first register is the destination, the others
sources — except for instructions with no destination (compares, tests,
branches, stores, whose registers are all sources), loads (the registers
before the bracket are destinations) and the few that also read their
destination (MOVK, BFI/BFXIL/BFM, the accumulating forms); the base register
of an address is a source, and a destination too with write-back.
Conservative where unsure: for a location that is both read and written,
the new value depends on the old one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .tracing import instruction

_REG = re.compile(r"\b([xw](?:[12]?\d|30)|sp|wsp|[bhsdqv](?:[12]?\d|3[01]))\b")
NO_DEST = ("cmp", "cmn", "tst", "ccmp", "ccmn", "fcmp", "fcmpe", "fccmp", "fccmpe", "b", "bl", "br", "blr", "ret",
           "cbz", "cbnz", "tbz", "tbnz", "prfm", "prfum", "nop", "svc", "brk", "hint", "msr", "dmb", "dsb", "isb",
           "dc", "ic", "yield", "clrex", "sys")
READS_DEST = ("movk", "bfi", "bfxil", "bfm", "fmla", "fmls", "mla", "mls", "ins", "mov.elem")
SETS_FLAGS = ("adds", "subs", "ands", "bics", "adcs", "sbcs", "negs", "ngcs", "cmp", "cmn", "tst", "ccmp", "ccmn",
              "fcmp", "fcmpe", "fccmp", "fccmpe")
READS_FLAGS = ("csel", "csinc", "csinv", "csneg", "cset", "csetm", "cinc", "cinv", "cneg", "ccmp", "ccmn", "adc",
               "adcs", "sbc", "sbcs", "ngc", "ngcs", "fcsel", "fccmp", "fccmpe")


@dataclass(frozen=True)
class Effects:
    uses: tuple                  # register names read
    defs: tuple                  # register names written
    mem_read: bool
    mem_write: bool
    address: tuple               # registers an address is computed from (base, index)
    branch_on: tuple             # registers a conditional branch decides on (nzcv, or the tested one)


def _name(token: str) -> str:
    if token in ("sp", "wsp"):
        return "sp"
    if token[0] in "xw":
        return "x" + token[1:]
    return "v" + token[1:]


_CACHE: dict[tuple[int, int], Effects] = {}


def effects(pc: int, word: int) -> Effects:
    key = (pc, word)
    eff = _CACHE.get(key)
    if eff is None:
        eff = _CACHE[key] = _effects(pc, word)
    return eff


def _effects(pc: int, word: int) -> Effects:
    ins = instruction(pc, word)
    mnemonic = ins.mnemonic.split(".")[0] if not ins.mnemonic.startswith("b.") else "b.cond"
    operands = ins.text[len(ins.mnemonic):]
    head, bracket, tail = operands.partition("[")
    regs = [_name(t) for t in _REG.findall(head)]
    base = [_name(t) for t in _REG.findall(bracket + tail)]
    uses, defs = [], []
    if ins.mem is not None:
        wb = ins.mem[5] or "!" in tail
        uses += base
        if wb:
            defs.append(base[0])
        if ins.store:
            status = mnemonic.startswith(("stx", "stlx"))
            defs += regs[:1] if status else []
            uses += regs[1:] if status else regs
            if ins.load:                                    # swp, cas, ldadd...: old value to the last register
                defs += regs[-1:]
        else:
            defs += regs
    elif mnemonic == "svc":
        uses += ["x8", "x0", "x1", "x2", "x3", "x4", "x5"]
        defs.append("x0")
    elif mnemonic in ("bl", "blr"):
        uses += regs
        defs.append("x30")
    elif mnemonic == "ret":
        uses.append(regs[0] if regs else "x30")
    elif mnemonic in NO_DEST or mnemonic == "b.cond":
        uses += regs
    else:
        defs += regs[:1]
        uses += regs[1:]
        if mnemonic in READS_DEST:
            uses += regs[:1]
    if mnemonic in SETS_FLAGS:
        defs.append("nzcv")
    if mnemonic in READS_FLAGS or mnemonic == "b.cond":
        uses.append("nzcv")
    branch_on = ()
    if mnemonic == "b.cond":
        branch_on = ("nzcv",)
    elif mnemonic in ("cbz", "cbnz", "tbz", "tbnz"):
        branch_on = tuple(regs[:1])
    elif mnemonic in ("br", "blr"):
        branch_on = tuple(regs[:1])
    return Effects(tuple(dict.fromkeys(uses)), tuple(dict.fromkeys(defs)), ins.load, ins.store,
                   tuple(base) if ins.mem is not None else (), branch_on)
