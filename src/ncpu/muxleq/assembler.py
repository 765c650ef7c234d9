"""A macro assembler for SUBLEQ / MUXLEQ.

Source is line oriented; `;` starts a comment; operands are separated by
spaces or commas.

    name:                  a label (may share its line with a statement)
    subleq a b [c]         three cells a b c; c defaults to the next instruction
    mux a b s              a b (s | 0x8000): m[b] = m[b] where m[s] has 1s, else m[a]
    in b                   0xFFFF b next: read a byte into m[b]
    out a                  a 0xFFFF next: write m[a]'s low byte
    .word e ...            data cells
    .string "text"         one cell per byte (escapes: \\n \\t \\0 \\\\ \\")
    .space n               n zero cells
    .text / .data          switch section: text is laid out from address 0,
                           then data, then the constant pool
    .include "file"        another source (relative to this one, or a bundled program)
    .macro NAME p ...      define a macro; `.endm` ends it; `NAME x ...` expands it
                           with parameters substituted; `@name` labels inside are
                           local to one expansion

An operand is an expression: numbers (decimal, 0x.., 'c' characters),
labels, joined by + and -. `#expr` is the address of a constant-pool cell
holding expr (shared by equal expressions), so `subleq #1 x` decrements x.

The prelude (`programs/prelude.masm`: jmp, mov, add, jz, indirect load and
store, call/ret on a stack, ...) is included before every program unless
`prelude=False`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from ncpu.muxleq.state import IO, MASK, MUX_BIT, WORDS

PROGRAMS_DIR = Path(__file__).parent / "programs"
PRELUDE = PROGRAMS_DIR / "prelude.masm"
_NAME = re.compile(r"[@A-Za-z_][\w.@]*")
_TERM = re.compile(r"\s*([+-])?\s*('(?:\\.|[^'\\])'|0[xX][0-9a-fA-F]+|\d+|[@A-Za-z_][\w.@]*)\s*")
_ESCAPES = {"n": "\n", "t": "\t", "0": "\0", "\\": "\\", '"': '"', "'": "'", "r": "\r"}


class MuxleqAsmError(ValueError):
    """An assembly error, naming the source and line."""

    def __init__(self, where: str, message: str):
        super().__init__(f"{where}: {message}")
        self.where, self.reason = where, message


@dataclass
class Assembled:
    cells: list[int]                       # the image, from address 0
    symbols: dict[str, int] = field(default_factory=dict)


@dataclass
class _Macro:
    params: list[str]
    body: list[tuple[str, str]]            # (where, line)


@dataclass
class _Item:
    where: str
    exprs: list[str]                       # one expression per cell ("" = literal value below)
    values: list[int | None]               # a fixed value, or None: evaluate the expression
    label_next: bool = False               # a missing c: the next instruction
    mux: bool = False                      # the third cell is a MUX select address


def _unescape(text: str, where: str) -> str:
    out, i = [], 0
    while i < len(text):
        if text[i] == "\\":
            if i + 1 >= len(text) or text[i + 1] not in _ESCAPES:
                raise MuxleqAsmError(where, f"bad escape in {text!r}")
            out.append(_ESCAPES[text[i + 1]])
            i += 2
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


class _Assembler:
    def __init__(self):
        self.macros: dict[str, _Macro] = {}
        self.sections: dict[str, list[_Item]] = {"text": [], "data": []}
        self.labels: dict[str, tuple[str, int]] = {}  # name -> (section, index of the next item)
        self.section = "text"
        self.pool: dict[str, str] = {}                 # expression -> pool label
        self.expansions = 0
        self.included: set[Path] = set()

    # -- pass 1: lines -> items ----------------------------------------------

    def source(self, text: str, name: str, base: Path | None) -> None:
        lines = text.splitlines()
        i = 0
        while i < len(lines):
            where = f"{name}:{i + 1}"
            line = self.strip(lines[i])
            i += 1
            if line.split()[:1] == [".macro"]:
                parts = line.split()
                if len(parts) < 2:
                    raise MuxleqAsmError(where, ".macro needs a name")
                body = []
                while i < len(lines) and self.strip(lines[i]).split()[:1] != [".endm"]:
                    body.append((f"{name}:{i + 1}", lines[i]))
                    i += 1
                if i == len(lines):
                    raise MuxleqAsmError(where, f"macro {parts[1]} has no .endm")
                i += 1
                self.macros[parts[1]] = _Macro([p.strip(",") for p in parts[2:]], body)
                continue
            self.statement(line, where, base)

    @staticmethod
    def strip(line: str) -> str:
        """The line without its comment (a ';' outside quotes)."""
        quote = None
        for k, ch in enumerate(line):
            if quote:
                if ch == "\\":
                    continue
                if ch == quote and line[k - 1] != "\\":
                    quote = None
            elif ch in "\"'":
                quote = ch
            elif ch == ";":
                return line[:k].strip()
        return line.strip()

    def statement(self, line: str, where: str, base: Path | None) -> None:
        while True:  # labels first
            match = re.match(r"([@A-Za-z_][\w.@]*)\s*:(.*)", line)
            if not match:
                break
            name, line = match.group(1), match.group(2).strip()
            if name in self.labels:
                raise MuxleqAsmError(where, f"label {name} defined twice")
            self.labels[name] = (self.section, len(self.sections[self.section]))
        if not line:
            return
        op, _, rest = line.partition(" ")
        rest = rest.strip()
        if op == ".string":
            if not (len(rest) >= 2 and rest[0] == rest[-1] == '"'):
                raise MuxleqAsmError(where, '.string needs a "quoted" text')
            data = _unescape(rest[1:-1], where).encode("latin-1")
            self.emit(_Item(where, [""] * len(data), list(data)))
            return
        if op == ".include":
            self.include(rest.strip('"'), where, base)
            return
        args = [a for a in re.split(r"[\s,]+", rest) if a]
        if op in (".text", ".data"):
            self.section = op[1:]
        elif op == ".word":
            self.emit(_Item(where, args, [None] * len(args)))
        elif op == ".space":
            count = self.evaluate(args[0] if args else "", where, {})
            self.emit(_Item(where, [""] * count, [0] * count))
        elif op == "subleq":
            if len(args) not in (2, 3):
                raise MuxleqAsmError(where, "subleq takes a b [c]")
            self.emit(_Item(where, args[:3] + [""] * (3 - len(args)), [None, None, None], len(args) == 2))
        elif op == "mux":
            if len(args) != 3:
                raise MuxleqAsmError(where, "mux takes a b s")
            self.emit(_Item(where, args, [None] * 3, mux=True))
        elif op == "in":
            self.one_arg(op, args, where)
            self.emit(_Item(where, ["", args[0], ""], [IO, None, None], True))
        elif op == "out":
            self.one_arg(op, args, where)
            self.emit(_Item(where, [args[0], "", ""], [None, IO, None], True))
        elif op in self.macros:
            self.expand(op, args, where, base)
        else:
            raise MuxleqAsmError(where, f"unknown instruction or macro {op!r}")

    @staticmethod
    def one_arg(op: str, args: list[str], where: str) -> None:
        if len(args) != 1:
            raise MuxleqAsmError(where, f"{op} takes one operand")

    def include(self, name: str, where: str, base: Path | None) -> None:
        candidates = ([base / name] if base else []) + [PROGRAMS_DIR / name]
        path = next((p for p in candidates if p.exists()), None)
        if path is None:
            raise MuxleqAsmError(where, f"cannot find {name!r} to include")
        path = path.resolve()
        if path not in self.included:  # each file once
            self.included.add(path)
            self.source(path.read_text(encoding="utf-8"), path.name, path.parent)

    def expand(self, name: str, args: list[str], where: str, base: Path | None) -> None:
        macro = self.macros[name]
        if len(args) != len(macro.params):
            raise MuxleqAsmError(where, f"macro {name} takes {len(macro.params)} operands, got {len(args)}")
        self.expansions += 1
        if self.expansions > 1_000_000:
            raise MuxleqAsmError(where, "too many macro expansions (a recursive macro?)")
        scope = f".{self.expansions}"
        binding = dict(zip(macro.params, args))

        def rename(match: re.Match) -> str:
            token = match.group(0)
            if token.startswith("@"):
                return token + scope  # local to this expansion
            return binding.get(token, token)

        for body_where, line in macro.body:
            line = self.strip(line)
            if line.startswith(".string"):
                self.statement(line, f"{body_where} (in {name} at {where})", base)
                continue
            self.statement(_NAME.sub(rename, line), f"{body_where} (in {name} at {where})", base)

    def emit(self, item: _Item) -> None:
        for expr in item.exprs:
            if expr.startswith("#"):
                self.pool.setdefault(expr[1:], f"pool.{len(self.pool)}")
        self.sections[self.section].append(item)

    # -- pass 2: addresses, then values --------------------------------------

    def link(self) -> Assembled:
        addresses: dict[str, int] = {}
        starts: dict[str, list[int]] = {}
        address = 0
        for section in ("text", "data"):
            starts[section] = []
            for item in self.sections[section]:
                starts[section].append(address)
                address += len(item.exprs)
            starts[section].append(address)
        for name, (section, index) in self.labels.items():
            addresses[name] = starts[section][index]
        for body, label in self.pool.items():
            addresses[label] = address
            address += 1
        if address > WORDS:
            raise MuxleqAsmError("image", f"{address} cells do not fit {WORDS} words")
        cells: list[int] = []
        for section in ("text", "data"):
            for item, start in zip(self.sections[section], starts[section]):
                for k, (expr, value) in enumerate(zip(item.exprs, item.values)):
                    if k == 2 and item.label_next:
                        value = start + 3
                    elif value is None:
                        pooled = self.pool[expr[1:]] if expr.startswith("#") else expr
                        value = self.evaluate(pooled, item.where, addresses)
                    if k == 2 and item.mux:
                        if not 0 <= value < 0x8000:
                            raise MuxleqAsmError(item.where, f"mux select address {value} must be below 0x8000")
                        value |= MUX_BIT
                    cells.append(value & MASK)
        for body in self.pool:
            cells.append(self.evaluate(body, "constant #" + body, addresses) & MASK)
        return Assembled(cells, addresses)

    @staticmethod
    def evaluate(expr: str, where: str, addresses: dict[str, int]) -> int:
        total, pos = 0, 0
        if not expr:
            raise MuxleqAsmError(where, "missing operand")
        while pos < len(expr):
            match = _TERM.match(expr, pos)
            if not match or match.end() == pos:
                raise MuxleqAsmError(where, f"cannot read expression {expr!r}")
            sign, term = match.group(1), match.group(2)
            if pos > 0 and sign is None:
                raise MuxleqAsmError(where, f"expected + or - in {expr!r}")
            if term.startswith("'"):
                value = ord(_unescape(term[1:-1], where))
            elif term[0].isdigit():
                value = int(term, 0)
            elif term in addresses:
                value = addresses[term]
            else:
                raise MuxleqAsmError(where, f"undefined label {term.split('.')[0]!r}")
            total += -value if sign == "-" else value
            pos = match.end()
        return total


def assemble(text: str, name: str = "<source>", base: Path | None = None, prelude: bool = True) -> Assembled:
    """Source text -> the image's cells and its symbols."""
    asm = _Assembler()
    if prelude:
        asm.include(PRELUDE.name, name, PROGRAMS_DIR)
        asm.section = "text"
    asm.source(text, name, base)
    return asm.link()


def assemble_file(path: Path | str, prelude: bool = True) -> Assembled:
    path = Path(path)
    return assemble(path.read_text(encoding="utf-8"), path.name, path.parent, prelude)


def program_path(name: str) -> Path:
    """A bundled program by name ('hello' -> programs/hello.masm)."""
    return PROGRAMS_DIR / f"{name}.masm"


BUNDLED = ("hello", "fibonacci", "primes", "calculator", "forth")
