"""Reading program files for the commands, with one-line errors."""

from __future__ import annotations

from pathlib import Path

from ncpu.cli import CommandError
from ncpu.isa import AssemblerError, Program, assemble
from ncpu.isa.encoding import DecodeError, decode


def read_text(path: str) -> str:
    try:
        return Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise CommandError(f"cannot read {path}: {getattr(error, 'strerror', None) or error}") from None


def read_bytes(path: str) -> bytes:
    try:
        return Path(path).read_bytes()
    except OSError as error:
        raise CommandError(f"cannot read {path}: {error.strerror or error}") from None


def assemble_file(path: str) -> Program:
    """Assemble a text file; errors come out as `file:line:col: message`."""
    try:
        return assemble(read_text(path))
    except AssemblerError as error:
        raise CommandError(f"{path}:{error.line}:{error.column}: {error.reason}") from None


def words_from_binary(path: str) -> list[int]:
    """Little-endian 32-bit words, each checked to be a valid instruction."""
    data = read_bytes(path)
    if len(data) % 4:
        raise CommandError(f"{path}: size {len(data)} is not a multiple of 4 bytes")
    words = [int.from_bytes(data[i:i + 4], "little") for i in range(0, len(data), 4)]
    for index, word in enumerate(words):
        try:
            decode(word)
        except DecodeError as error:
            raise CommandError(f"{path}: word {index}: {error}") from None
    return words


def words_to_binary(words: list[int]) -> bytes:
    return b"".join(word.to_bytes(4, "little") for word in words)
