"""The one error type of the nsl compiler: a message with its place in the source."""

from __future__ import annotations


class NslError(Exception):
    """Bad nsl source. `line` and `column` are 1-based; `str()` is `line:col: reason`
    (the command puts the file name in front)."""

    def __init__(self, line: int, column: int, reason: str):
        super().__init__(f"{line}:{column}: {reason}")
        self.line = line
        self.column = column
        self.reason = reason
