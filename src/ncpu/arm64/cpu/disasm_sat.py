"""Spelling of the words exec_sat runs (saturating, rounding, halving SIMD)
in the coarse rows (the vector three-same ones spell themselves: asm= rows).

Mnemonics by (opcode, U) per encoding group; a "2" suffix on the narrowing
and widening forms with Q = 1.  Operands: vector arrangements, or for the
scalar forms a register letter by lane size (b h s d).
"""
from __future__ import annotations

ARR = ["8b", "16b", "4h", "8h", "2s", "4s", "1d", "2d"]

_THREE_SAME = {0: ("shadd", "uhadd"), 1: ("sqadd", "uqadd"), 2: ("srhadd", "urhadd"), 4: ("shsub", "uhsub"),
               5: ("sqsub", "uqsub"), 9: ("sqshl", "uqshl"), 10: ("srshl", "urshl"), 11: ("sqrshl", "uqrshl"),
               22: ("sqdmulh", "sqrdmulh")}
_TWO_MISC = {3: ("suqadd", "usqadd"), 7: ("sqabs", "sqneg"), 18: (None, "sqxtun"), 20: ("sqxtn", "uqxtn")}
_THREE_DIFF = {9: ("sqdmlal", None), 11: ("sqdmlsl", None),
               13: ("sqdmull", None)}
_ELEM = {3: "sqdmlal", 7: "sqdmlsl", 11: "sqdmull", 12: "sqdmulh", 13: "sqrdmulh"}

_VECTOR = ("VELEM",)


def fmt_sat(name: str, f: dict) -> tuple[str, str]:
    q, u = f.get("q", 1), f["u"]
    rd, rn = f["rd"], f["rn"]
    vec = name in _VECTOR
    two = "2" if vec and q else ""

    def reg(r, sz, wide_vector=False):
        """Register r with lanes of 8 << sz bits: the whole 128 bits for a wide
        vector operand, else Q picks 64 or 128; a scalar is one lane."""
        if not vec:
            return f"{'bhsd'[sz]}{r}"
        return f"v{r}.{ARR[sz * 2 + (1 if wide_vector else q)]}"

    if name == "S3SAME":
        sz = f["size"]
        return _THREE_SAME[f["opcode"]][u], f"{reg(rd, sz)}, {reg(rn, sz)}, {reg(f['rm'], sz)}"
    if name == "S2MISC":
        o, sz = f["opcode"], f["size"]
        mn = _TWO_MISC[o][u]
        if o in (18, 20):
            return mn + two, f"{reg(rd, sz)}, {reg(rn, sz + 1, True)}"
        return mn, f"{reg(rd, sz)}, {reg(rn, sz)}"
    if name == "S3DIFF":
        o, sz, rm = f["opcode"], f["size"], f["rm"]
        mn = _THREE_DIFF[o][u] + two
        if o in (4, 6):
            return mn, f"{reg(rd, sz)}, {reg(rn, sz + 1, True)}, {reg(rm, sz + 1, True)}"
        return mn, f"{reg(rd, sz + 1, True)}, {reg(rn, sz)}, {reg(rm, sz)}"
    # VELEM / SELEM
    o, sz = f["opcode"], f["size"]
    if sz == 1:
        idx, rm = (f["h"] << 2) | (f["l"] << 1) | f["m"], f["rm"]
    else:
        idx, rm = (f["h"] << 1) | f["l"], (f["m"] << 4) | f["rm"]
    elem = f"v{rm}.{'bhsd'[sz]}[{idx}]"
    if o in (12, 13):
        return _ELEM[o], f"{reg(rd, sz)}, {reg(rn, sz)}, {elem}"
    return _ELEM[o] + two, f"{reg(rd, sz + 1, True)}, {reg(rn, sz)}, {elem}"
