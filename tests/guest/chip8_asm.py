"""A small CHIP-8 assembler for the emulator's test ROMs (programs start at 0x200).

One instruction per line in Cowgod's mnemonics (`LD V0, 5`, `DRW V1, V2, 5`,
`LD [I], V3`, ...), `label:` lines, `DB n, n, ...`, `;` comments.
"""

from __future__ import annotations

import re


def _reg(tok: str) -> int | None:
    m = re.fullmatch(r"V([0-9A-F])", tok.upper())
    return int(m[1], 16) if m else None


def _num(tok: str, labels: dict[str, int]) -> int:
    if tok in labels:
        return labels[tok]
    return int(tok, 0)


def _encode(op: str, args: list[str], labels: dict[str, int]) -> list[int]:
    a = [t.upper() if _reg(t) is not None or t.upper() in ("I", "DT", "ST", "K", "F", "B", "[I]") else t for t in args]
    x = _reg(a[0]) if a else None
    y = _reg(a[1]) if len(a) > 1 else None
    w = None
    if op == "CLS": w = 0x00E0
    elif op == "RET": w = 0x00EE
    elif op == "JP": w = 0xB000 | _num(a[1], labels) if a[0] == "V0" and len(a) == 2 else 0x1000 | _num(a[0], labels)
    elif op == "CALL": w = 0x2000 | _num(a[0], labels)
    elif op in ("SE", "SNE"):
        w = (0x5000 if op == "SE" else 0x9000) | x << 8 | y << 4 if y is not None else \
            (0x3000 if op == "SE" else 0x4000) | x << 8 | _num(a[1], labels) & 0xFF
    elif op == "LD":
        if a[0] == "I": w = 0xA000 | _num(a[1], labels)
        elif a[0] == "DT": w = 0xF015 | _reg(a[1]) << 8
        elif a[0] == "ST": w = 0xF018 | _reg(a[1]) << 8
        elif a[0] == "F": w = 0xF029 | _reg(a[1]) << 8
        elif a[0] == "B": w = 0xF033 | _reg(a[1]) << 8
        elif a[0] == "[I]": w = 0xF055 | _reg(a[1]) << 8
        elif a[1] == "DT": w = 0xF007 | x << 8
        elif a[1] == "K": w = 0xF00A | x << 8
        elif a[1] == "[I]": w = 0xF065 | x << 8
        elif y is not None: w = 0x8000 | x << 8 | y << 4
        else: w = 0x6000 | x << 8 | _num(a[1], labels) & 0xFF
    elif op == "ADD":
        if a[0] == "I": w = 0xF01E | _reg(a[1]) << 8
        elif y is not None: w = 0x8004 | x << 8 | y << 4
        else: w = 0x7000 | x << 8 | _num(a[1], labels) & 0xFF
    elif op in ("OR", "AND", "XOR", "SUB", "SHR", "SUBN", "SHL"):
        w = 0x8000 | x << 8 | y << 4 | {"OR": 1, "AND": 2, "XOR": 3, "SUB": 5, "SHR": 6, "SUBN": 7, "SHL": 14}[op]
    elif op == "RND": w = 0xC000 | x << 8 | _num(a[1], labels) & 0xFF
    elif op == "DRW": w = 0xD000 | x << 8 | y << 4 | _num(a[2], labels) & 0xF
    elif op == "SKP": w = 0xE09E | x << 8
    elif op == "SKNP": w = 0xE0A1 | x << 8
    elif op == "DB": return [_num(t, labels) & 0xFF for t in args]
    if w is None:
        raise ValueError(f"cannot assemble {op} {args}")
    return [w >> 8, w & 0xFF]


def assemble(source: str) -> bytes:
    lines = []
    for raw in source.splitlines():
        line = raw.split(";")[0].strip()
        if line:
            lines.append(line)
    labels: dict[str, int] = {}
    out: list[int] = []
    for pass_ in range(2):
        out = []
        for line in lines:
            if line.endswith(":"):
                labels[line[:-1]] = 0x200 + len(out)
                continue
            op, _, rest = line.partition(" ")
            args = [t.strip() for t in rest.split(",") if t.strip()]
            try:
                out += _encode(op.upper(), args, labels)
            except (KeyError, ValueError):
                if pass_ == 1:
                    raise
                out += [0, 0] * (len(args) if op.upper() == "DB" else 1)
    return bytes(out)
