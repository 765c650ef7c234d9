"""Argument types the commands share (argparse `type=`): one-line errors, never a traceback."""

from __future__ import annotations

import argparse


def positive(text: str) -> int:
    """A positive integer: decimal, 0x/0o/0b, or written like 1e9."""
    try:
        value = int(float(text)) if "e" in text.lower() and not text.lower().startswith("0x") else int(text, 0)
    except (ValueError, OverflowError):
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got '{text[:40]}'")
    return value


def at_most(limit: int):
    """`positive`, and at most `limit`."""
    def parse(text: str) -> int:
        value = positive(text)
        if value > limit:
            raise argparse.ArgumentTypeError(f"{value:,} is above the limit of {limit:,}")
        return value
    return parse
