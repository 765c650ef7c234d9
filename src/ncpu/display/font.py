"""The display font: 8 x 16 one-bit glyphs for the 95 printable ASCII codes.

The glyphs are data in this repository (`font8x16.txt`, one block per code:
a header line `0x41 A`, then 16 rows of 8 pixels, '#' for ink). They were
rasterised from matplotlib's bundled DejaVu Sans Mono by `font_build.py`.
Codes outside 0x20-0x7E have no glyph: they show as blank cells.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import numpy as np

FONT_PATH = Path(__file__).parent / "font8x16.txt"
GLYPH_H, GLYPH_W = 16, 8
PRINTABLE = tuple(range(0x20, 0x7F))  # the 95 printable ASCII codes


class FontError(ValueError):
    """A malformed font file."""


def format_font(glyphs: np.ndarray) -> str:
    """uint8 [95, 16, 8] -> the text form."""
    blocks = []
    for code, glyph in zip(PRINTABLE, glyphs):
        rows = ["".join("#" if p else "." for p in row) for row in glyph]
        blocks.append("\n".join([f"0x{code:02X} {chr(code)}"] + rows))
    return "\n".join(blocks) + "\n"


def parse_font(text: str) -> np.ndarray:
    """The text form -> uint8 [95, 16, 8]; every printable code exactly once."""
    lines = text.splitlines()
    glyphs = np.zeros((len(PRINTABLE), GLYPH_H, GLYPH_W), np.uint8)
    seen = set()
    for start in range(0, len(lines), GLYPH_H + 1):
        header = lines[start]
        try:
            code = int(header.split()[0], 16)
        except (ValueError, IndexError):
            raise FontError(f"line {start + 1}: expected a code like 0x41, got {header!r}") from None
        if code not in PRINTABLE or code in seen:
            raise FontError(f"line {start + 1}: code {code:#x} is not printable or is repeated")
        rows = lines[start + 1: start + 1 + GLYPH_H]
        if len(rows) != GLYPH_H or any(len(r) != GLYPH_W or set(r) - {"#", "."} for r in rows):
            raise FontError(f"line {start + 2}: glyph {code:#x} needs {GLYPH_H} rows of {GLYPH_W} '#'/'.'")
        glyphs[code - PRINTABLE[0]] = [[ch == "#" for ch in row] for row in rows]
        seen.add(code)
    if len(seen) != len(PRINTABLE):
        raise FontError(f"font has {len(seen)} glyphs, expected {len(PRINTABLE)}")
    return glyphs


@cache
def load_font() -> np.ndarray:
    """uint8 [95, 16, 8] from the committed font file."""
    return parse_font(FONT_PATH.read_text(encoding="ascii"))


def glyph_table() -> np.ndarray:
    """uint8 [256, 16, 8]: the bitmap of every byte value (blank where no glyph)."""
    table = np.zeros((256, GLYPH_H, GLYPH_W), np.uint8)
    table[PRINTABLE[0]: PRINTABLE[-1] + 1] = load_font()
    return table
