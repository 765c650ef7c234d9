"""Standard output laid out on the display's text screen, as a terminal does.

Printable bytes fill the 40 x 12 cells left to right; '\\n' starts the next
row, '\\r' returns to the row's start, a full row wraps, and a new row past
the last scrolls the screen up by one. The cursor rests where the next byte
would go. The layout is decided on the bytes' values; what a cell holds is
the byte's *payload*: the byte itself for the exact machine, or its eight
bits as a tensor for the soft one (so gradients reach every cell that shows
output, while where it lands is a discrete decision).
"""

from __future__ import annotations

from typing import Any

from ncpu.display.screen import CELLS, COLS, CURSOR, ROWS, SCREEN_BASE


class Terminal:
    def __init__(self):
        self.cells: list[Any] = [None] * CELLS   # payload per cell, None = never written (blank)
        self.row = 0
        self.column = 0
        self.text = bytearray()

    def write(self, byte: int, payload: Any = None) -> None:
        byte &= 0xFF
        self.text.append(byte)
        if byte == 0x0A:
            self.newline()
        elif byte == 0x0D:
            self.column = 0
        else:
            if self.column == COLS:
                self.newline()
            self.cells[self.row * COLS + self.column] = byte if payload is None else payload
            self.column += 1

    def newline(self) -> None:
        self.row, self.column = self.row + 1, 0
        if self.row == ROWS:
            self.cells = self.cells[COLS:] + [None] * COLS
            self.row = ROWS - 1

    @property
    def cursor(self) -> int:
        return self.row * COLS + min(self.column, COLS - 1)

    def codes(self) -> list[int]:
        """The cells as character codes (exact payloads; blank = 0)."""
        return [0 if cell is None else int(cell) & 0xFF for cell in self.cells]

    def put_on_screen(self, memory: list[int]) -> None:
        """Copy the screen into machine memory (words 256..736), where the
        neural display reads it."""
        memory[SCREEN_BASE:SCREEN_BASE + CELLS] = self.codes()
        memory[CURSOR] = self.cursor


def screen_of(text: bytes) -> Terminal:
    """The terminal after `text` was written to it."""
    terminal = Terminal()
    for byte in text:
        terminal.write(byte)
    return terminal
