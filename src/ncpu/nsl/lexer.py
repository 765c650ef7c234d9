"""nsl source text -> tokens, each with its line and column.

Token kinds: NUM (value already parsed: decimal, 0x hex, 0b binary or a
character literal like 'a' or '\\n'), STR (the decoded bytes), IDENT,
KEYWORD, OP (operators and punctuation, longest match first) and EOF.
Comments are // to the end of the line and /* ... */.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ncpu.nsl.errors import NslError

KEYWORDS = frozenset(("int", "if", "else", "while", "for", "return", "break", "continue"))

# Longest first, so that '<<=' is not read as '<<' then '='.
OPERATORS = sorted(
    """>>>= <<= >>= >>> == != <= >= && || << >> ++ -- += -= *= /= %= &= |= ^=
       + - * / % & | ^ ~ ! < > = ( ) { } [ ] , ; ? :""".split(),
    key=len, reverse=True)

ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "0": "\0", "\\": "\\", "'": "'", '"': '"'}

_NUMBER = re.compile(r"0[xX][0-9a-fA-F]+|0[bB][01]+|[0-9]+")
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
MAX_LITERAL = (1 << 32) - 1   # literals are 32-bit words; larger ones are an error


@dataclass(frozen=True)
class Token:
    kind: str          # NUM STR IDENT KEYWORD OP EOF
    text: str          # the source spelling (for OP/KEYWORD/IDENT: the name)
    line: int
    column: int
    value: int | str | None = None   # NUM: the integer; STR: the decoded text


def tokenize(source: str) -> list[Token]:
    tokens: list[Token] = []
    i, line, line_start = 0, 1, 0
    n = len(source)

    def here() -> tuple[int, int]:
        return line, i - line_start + 1

    while i < n:
        char = source[i]
        if char == "\n":
            i += 1
            line, line_start = line + 1, i
            continue
        if char in " \t\r\f\v":
            i += 1
            continue
        if source.startswith("//", i):
            end = source.find("\n", i)
            i = n if end < 0 else end
            continue
        if source.startswith("/*", i):
            end = source.find("*/", i + 2)
            if end < 0:
                raise NslError(*here(), "unterminated comment")
            for k in range(i, end):
                if source[k] == "\n":
                    line, line_start = line + 1, k + 1
            i = end + 2
            continue
        at = here()
        if char.isdigit():
            match = _NUMBER.match(source, i)
            text = match.group(0)
            if match.end() < n and (source[match.end()].isalnum() or source[match.end()] == "_"):
                bad = _IDENT.match(source, match.end())
                raise NslError(*at, f"malformed number '{text}{bad.group(0) if bad else ''}'")
            base = {"0x": 16, "0b": 2}.get(text[:2].lower(), 10)
            # leading zeros dropped: Python refuses to convert a decimal literal of thousands of
            # digits, zeros counted (a traceback instead of an error); and more than 40 digits
            # cannot fit 32 bits in any base
            digits = (text if base == 10 else text[2:]).lstrip("0") or "0"
            if len(digits) > 40 or (value := int(digits, base)) > MAX_LITERAL:
                shown = text if len(text) <= 40 else f"{text[:20]}...({len(text)} characters)"
                raise NslError(*at, f"integer literal {shown} does not fit 32 bits")
            tokens.append(Token("NUM", text, *at, value))
            i = match.end()
            continue
        if char == "_" or char.isalpha():
            word = _IDENT.match(source, i).group(0)
            tokens.append(Token("KEYWORD" if word in KEYWORDS else "IDENT", word, *at))
            i += len(word)
            continue
        if char in "'\"":
            text, i = _quoted(source, i, at)
            if char == "'":
                if len(text) != 1:
                    raise NslError(*at, "a character literal holds exactly one character")
                tokens.append(Token("NUM", repr(text), *at, ord(text)))
            else:
                tokens.append(Token("STR", text, *at, text))
            continue
        for op in OPERATORS:
            if source.startswith(op, i):
                tokens.append(Token("OP", op, *at))
                i += len(op)
                break
        else:
            raise NslError(*at, f"unexpected character {char!r}")
    tokens.append(Token("EOF", "end of file", *here()))
    return tokens


def _quoted(source: str, start: int, at: tuple[int, int]) -> tuple[str, int]:
    """The decoded text of the literal opening at `start`, and the index after it.
    Literals stay on one line; bytes above 255 cannot be written."""
    quote, out, i = source[start], [], start + 1
    while True:
        if i >= len(source) or source[i] == "\n":
            raise NslError(*at, "unterminated " + ("string" if quote == '"' else "character") + " literal")
        char = source[i]
        if char == quote:
            return "".join(out), i + 1
        if char == "\\":
            escaped = source[i + 1] if i + 1 < len(source) else ""
            if escaped not in ESCAPES:
                raise NslError(at[0], at[1] + i - start, f"unknown escape '\\{escaped}'")
            out.append(ESCAPES[escaped])
            i += 2
            continue
        if ord(char) > 255:
            raise NslError(at[0], at[1] + i - start, f"character {char!r} is not one byte")
        out.append(char)
        i += 1
