"""Spelling of the words exec_sat runs (saturating, rounding, halving SIMD)
in the coarse rows (the vector three-same ones spell themselves: asm= rows).

Mnemonics by (opcode, U) per encoding group; a "2" suffix on the narrowing
and widening forms with Q = 1.  Operands: vector arrangements, or for the
scalar forms a register letter by lane size (b h s d).
"""
from __future__ import annotations

ARR = ["8b", "16b", "4h", "8h", "2s", "4s", "1d", "2d"]

_SHIFT = {4: ("srshr", "urshr"), 6: ("srsra", "ursra"), 12: (None, "sqshlu"), 14: ("sqshl", "uqshl"),
          16: (None, "sqshrun"), 17: ("rshrn", "sqrshrun"), 18: ("sqshrn", "uqshrn"), 19: ("sqrshrn", "uqrshrn")}

_VECTOR = ("VSHIFT",)


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

    if name in ("VSHIFT", "SSHIFT"):
        immh, o = f["immh"], f["opcode"]
        sz = immh.bit_length() - 1
        immhb = (immh << 3) | f["immb"]
        esize = 8 << sz
        mn = _SHIFT[o][u]
        if o >= 16:
            return mn + two, f"{reg(rd, sz)}, {reg(rn, sz + 1, True)}, #{2 * esize - immhb}"
        sh = 2 * esize - immhb if o <= 6 else immhb - esize
        return mn, f"{reg(rd, sz)}, {reg(rn, sz)}, #{sh}"
