"""The text screen: a region of nCPU data memory, and how it should look.

The screen is ROWS x COLS character cells stored row by row at SCREEN_BASE
(one word a cell; the display reads each word's low 8 bits as a character
code), followed by one word, CURSOR, holding the cursor's cell index
(row * COLS + col; any value outside 0..ROWS*COLS-1 hides it). Programs
write it with STORE. The machine's default 1,024-word memory holds it
(words 256..736), leaving the top of memory to the stack.

`reference_frame` is the classical oracle the networks are tested against:
each cell's glyph copied into its 8 x 16 block of pixels, and the cursor
drawn as an underline over the bottom two pixel rows of its cell.
"""

from __future__ import annotations

import numpy as np

from ncpu.display.font import GLYPH_H, GLYPH_W, glyph_table

ROWS, COLS = 12, 40
CELLS = ROWS * COLS
SCREEN_BASE = 256
CURSOR = SCREEN_BASE + CELLS          # 736
HEIGHT, WIDTH = ROWS * GLYPH_H, COLS * GLYPH_W   # 192 x 320 pixels
UNDERLINE_ROWS = (GLYPH_H - 2, GLYPH_H - 1)


class ScreenUnavailable(ValueError):
    """Memory too small to hold the screen."""


def screen_words(memory) -> tuple[np.ndarray, int]:
    """Machine memory (a sequence of words) -> (cell codes int64 [CELLS], cursor word)."""
    if len(memory) <= CURSOR:
        raise ScreenUnavailable(f"the screen needs memory words {SCREEN_BASE}..{CURSOR}; "
                                f"this machine has {len(memory)}")
    words = np.asarray(memory[SCREEN_BASE: CURSOR + 1], np.int64)
    return words[:CELLS] & 0xFF, int(words[CELLS])


def screen_text(memory) -> str:
    """The screen as text lines (cells without a glyph as spaces)."""
    codes, _ = screen_words(memory)
    chars = [chr(c) if 0x20 <= c < 0x7F else " " for c in codes]
    return "\n".join("".join(chars[r * COLS:(r + 1) * COLS]).rstrip() for r in range(ROWS))


def reference_frame(codes: np.ndarray, cursor: int) -> np.ndarray:
    """Codes int [CELLS] and the cursor word -> pixels uint8 [HEIGHT, WIDTH] (1 = ink)."""
    table = glyph_table()
    cells = table[np.asarray(codes, np.int64) & 0xFF].copy()          # [CELLS, 16, 8]
    if 0 <= cursor < CELLS:
        cells[cursor, list(UNDERLINE_ROWS)] = 1
    grid = cells.reshape(ROWS, COLS, GLYPH_H, GLYPH_W)
    return grid.transpose(0, 2, 1, 3).reshape(HEIGHT, WIDTH)
