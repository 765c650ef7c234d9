"""The neural assembler: assembly text -> 32-bit words through networks.

What is a network (trained or constructed) and what is classical glue:

| step | how |
|---|---|
| character -> class, letter, digit value | `CharNet` (trained; enumerated on all 256 codes) |
| token starts | `BoundaryNet` (trained; enumerated on all 182 class pairs) |
| cutting tokens, the comment, labels `name:`, commas at bracket depth 0 | classical glue over the token classes |
| mnemonic -> table entry | `MnemonicNet`, attention over the mnemonic table (trained scale and threshold) |
| operand kind (register, integer, memory, word, bad) | classical glue over token classes and the number units' "valid" |
| digits -> integer, "every digit below its base" | `place_value` (constructed linear layer + threshold unit) |
| (entry, operand kinds) -> opcode, field routing, negate/shift/widen, field | `FormNet` (trained; enumerated on all 13,392 cases) |
| range checks of registers and immediates | `range_unit` threshold units (constructed) |
| label name -> address | classical: the two-pass label table (a dict) |
| value -> two's-complement bits; bits -> word | `twos_complement_bits`, `place_fields` (constructed) |

A line the networks cannot assemble is *rejected*; the caller then asks
the classical assembler, which raises the error with its message (the
guard in `ncpu.os.neural` counts any disagreement). `verify` is the
end-to-end enumeration against the classical assembler.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import torch
from torch import nn

from ncpu.isa.assembler import Program
from ncpu.isa.encoding import field_range
from ncpu.isa.opcodes import BY_MNEMONIC
from ncpu.os.nets import asm_codegen as cg
from ncpu.os.nets import asm_tokenizer as tk

MAX_LITERAL = 80  # as the classical assembler: a longer literal is not a number
MAX_PROGRAM = field_range("addr")[1] + 1
_X, _B, _R = 23, 1, 17  # letter indices of X, B, R
_FIELD_WIDTH = {"none": 0, "imm15": 15, "imm21": 21, "imm16": 16, "addr": 21}
_MOVT = BY_MNEMONIC["MOVT"].code


class Rejected(Exception):
    """The networks cannot assemble this line (the classical assembler says why)."""

    def __init__(self, line: int, reason: str):
        super().__init__(f"line {line}: {reason}")
        self.line = line
        self.reason = reason


@dataclass
class _Operand:
    pattern: str  # "word", "signed", "memory", "bad"
    token: tk.Token | None = None
    sign: int = 1
    base: tk.Token | None = None
    kind: int = cg.BAD
    register: int = 0  # register number (a register, or a memory operand's base)
    number: float = 0.0  # the integer (with its sign), or a memory offset
    label: str = ""


@dataclass
class _Line:
    number: int
    labels: list[tuple[str, tk.Token]] = field(default_factory=list)
    mnemonic: tk.Token | None = None
    operands: list[_Operand] = field(default_factory=list)
    reject: str = ""
    entry: int = cg.NULL
    form: dict = field(default_factory=dict)
    size: int = 0
    address: int = 0
    words: list[int] = field(default_factory=list)


class NeuralAssembler(nn.Module):
    def __init__(self):
        super().__init__()
        self.chars = tk.CharNet()
        self.boundaries = tk.BoundaryNet()
        self.mnemonics = cg.MnemonicNet()
        self.forms = cg.FormNet()

    # -- parsing: tokens -> statements (glue over the networks' token classes) ---------

    def _parse(self, text: str, number: int, tables: tk.CharTables) -> _Line:
        line = _Line(number)
        tokens = tables.tokens(text)
        semi = next((i for i, t in enumerate(tokens) if t.kind == tk.SEMI), len(tokens))
        tokens = [t for t in tokens[:semi]]
        i = 0
        while True:
            j = _skip_space(tokens, i)
            k = _skip_space(tokens, j + 1)
            if j < len(tokens) and tokens[j].kind == tk.LETTER and tokens[j].classes[0] != tk.DIGIT \
                    and k < len(tokens) and tokens[k].kind == tk.COLON:
                line.labels.append((tokens[j].text.upper(), tokens[j]))
                i = k + 1
                continue
            i = j
            break
        if i >= len(tokens):
            return line
        first = tokens[i]
        if first.kind != tk.LETTER or any(c != tk.LETTER for c in first.classes) or \
                (i + 1 < len(tokens) and tokens[i + 1].kind != tk.SPACE):
            line.reject = "expected an instruction"
            return line
        line.mnemonic = first
        rest = tokens[i + 1:]
        pieces, depth, current = [], 0, []
        for t in rest:
            if t.kind == tk.LBRACK:
                depth += 1
            elif t.kind == tk.RBRACK:
                depth -= 1
            if t.kind == tk.COMMA and depth <= 0:
                pieces.append(current)
                current = []
            else:
                current.append(t)
        pieces.append(current)
        pieces = [_strip(p) for p in pieces]
        if len(pieces) == 1 and not pieces[0]:
            pieces = []
        if len(pieces) > cg.SLOTS:
            line.reject = "too many operands"
        line.operands = [_pattern(p) for p in pieces[:cg.SLOTS]]
        return line

    # -- the batch: networks over every line at once ----------------------------------

    @torch.no_grad()
    def _decide(self, lines: list[_Line]) -> None:
        """Mnemonic attention, number units and the form network over every line."""
        words = [ln.mnemonic for ln in lines if ln.mnemonic is not None]
        names = [t for ln in lines for _, t in ln.labels if all(c == tk.LETTER for c in t.classes)]
        entries = self._lookup(words + names)
        reserved = {t.text.upper() for t, e in zip(names, entries[len(words):]) if e != cg.NULL}
        numbers = []  # (operand, attribute, token, skip): the tokens to read as integers
        for ln in lines:
            for op in ln.operands:
                for attribute, token in (("register", op.base if op.pattern == "memory" else op.token),
                                         ("number", op.token)):
                    if token is not None and token.kind == tk.LETTER:
                        numbers.append((op, attribute, token))
        values, valid = self._numbers([(t, 1 if a == "register" and _register_like(t) else 0)
                                       for _, a, t in numbers])
        found = {}
        for (op, attribute, token), value, ok in zip(numbers, values.tolist(), valid.tolist()):
            found[(id(op), attribute)] = (value, ok)
        cursor = 0
        for ln in lines:
            for name, token in ln.labels:
                if _register_like(token) or name in reserved:
                    ln.reject = ln.reject or f"'{token.text}' is reserved"
            if ln.mnemonic is not None:
                ln.entry = entries[cursor]
                cursor += 1
            for op in ln.operands:
                _kind(op, found)
        live = [ln for ln in lines if ln.mnemonic is not None and not ln.reject]
        if not live:
            return
        kinds = torch.tensor([[op.kind for op in ln.operands] + [cg.NONE] * (cg.SLOTS - len(ln.operands))
                              for ln in live])
        decided = self.forms.decide(torch.tensor([ln.entry for ln in live]), kinds)
        for index, ln in enumerate(live):
            ln.form = {name: int(v[index]) for name, v in decided.items()}
            if ln.form["reject"]:
                ln.reject = "no form of this instruction takes these operands"

    def _lookup(self, tokens: list[tk.Token]) -> list[int]:
        if not tokens:
            return []
        queries = torch.stack([cg.spell(t.letters) for t in tokens])
        return self.mnemonics.lookup(queries).tolist()

    def _numbers(self, items: list[tuple[tk.Token, int]]):
        """Each token read as an integer (skip = 1: the register's leading R)."""
        if not items:
            return torch.zeros(0, dtype=torch.float64), torch.zeros(0)
        rows, bases = [], []
        for token, skip in items:
            d, letters = token.digits[skip:], token.letters[skip:]
            prefixed = not skip and len(d) > 2 and d[0] == 0 and token.classes[0] == tk.DIGIT \
                and letters[1] in (_X, _B)
            bases.append(16 if prefixed and letters[1] == _X else 2 if prefixed else 10)
            rows.append(d[2:] if prefixed else d)
        width = max(1, max(len(r) for r in rows))
        digits = torch.tensor([[0] * (width - len(r)) + r for r in rows])
        return cg.place_value(digits, torch.tensor(bases))

    # -- resolution: sizes, labels, values, words ---------------------------------------

    def _resolve(self, lines: list[_Line], labels: dict[str, int] | None) -> None:
        """Route operand values into fields and size each line (labels None: the
        first pass, where a label's address does not matter yet)."""
        for ln in lines:
            if ln.reject or ln.mnemonic is None:
                continue
            f = ln.form
            slot = lambda index: ln.operands[index - 1] if 0 < index <= len(ln.operands) else None  # noqa: E731
            for name in ("rd", "rs1", "rs2"):
                op = slot(f[name])
                f[name + "_value"] = op.register if op is not None else 0
            op = slot(f["imm"])
            value = 0.0
            if op is not None:
                if op.kind == cg.WORD and labels is not None:
                    if op.label not in labels:
                        ln.reject = f"undefined label '{op.token.text}'"
                        continue
                    value = float(labels[op.label])
                elif op.kind != cg.WORD:
                    value = op.number
            f["value"] = -value if f["negate"] else value
            ln.size = 1 + int(f["widen"] and not _fits(f["value"], "imm21"))

    @torch.no_grad()
    def _encode(self, lines: list[_Line]) -> None:
        live = [ln for ln in lines if ln.mnemonic is not None and not ln.reject]
        if not live:
            return
        f = {key: torch.tensor([ln.form[key] for ln in live], dtype=torch.float64)
             for key in ("opcode", "rd_value", "rs1_value", "rs2_value", "value", "field", "shift", "widen")}
        ok = torch.ones(len(live), dtype=torch.float64)
        for name in ("rd_value", "rs1_value", "rs2_value"):
            ok = ok * cg.range_unit(f[name], 0, 7)
        v = f["value"]
        wide = f["widen"] * (1 - cg.range_unit(v, *field_range("imm21")))
        for index, name in enumerate(cg.IMM_FIELDS):
            if name == "none":
                continue
            lo, hi = field_range(name)
            chosen = (f["field"] == index).double()
            ok = ok * (1 - chosen * (1 - wide) * (1 - cg.range_unit(v, lo, hi)))
        ok = ok * (1 - wide * (1 - cg.range_unit(v, -(1 << 31), (1 << 32) - 1)))
        ok = ok * (1 - f["shift"] * (1 - cg.range_unit(v, 0, 31)))
        bits = cg.twos_complement_bits(v.clamp(-(1 << 31), (1 << 32) - 1))
        width = torch.tensor([_FIELD_WIDTH[cg.IMM_FIELDS[int(i)]] for i in f["field"]])
        width = torch.where(wide > 0, 16, width)
        keep = (torch.arange(21)[None, :] < width[:, None]).double()
        first = cg.place_fields(f["opcode"], f["rd_value"], f["rs1_value"], f["rs2_value"], bits[:, :21] * keep)
        high = torch.cat([bits[:, 16:], torch.zeros(len(live), 5, dtype=torch.float64)], 1)
        second = cg.place_fields(torch.full_like(v, _MOVT), f["rd_value"], torch.zeros_like(v), torch.zeros_like(v),
                                 high)
        for index, ln in enumerate(live):
            if not ok[index]:
                ln.reject = "an operand is out of range"
                continue
            ln.words = [int(first[index])] + ([int(second[index])] if wide[index] else [])

    # -- entry points ------------------------------------------------------------------

    def lines(self, texts: list[str], labels: dict[str, int] | None = None) -> list[list[int] | None]:
        """Each line on its own (no label definitions used), with a given label
        table: its words, or None where the networks reject it."""
        tables = tk.CharTables(self.chars, self.boundaries)
        parsed = [self._parse(text, n, tables) for n, text in enumerate(texts, start=1)]
        self._decide(parsed)
        self._resolve(parsed, {k.upper(): v for k, v in (labels or {}).items()})
        self._encode(parsed)
        return [None if ln.reject or ln.mnemonic is None else ln.words for ln in parsed]

    def assemble(self, source: str) -> Program:
        """Two passes as the classical assembler (sizes and labels, then words);
        raises Rejected at the first line the networks cannot assemble."""
        tables = tk.CharTables(self.chars, self.boundaries)
        parsed = [self._parse(text, n, tables) for n, text in enumerate(source.splitlines(), start=1)]
        self._decide(parsed)
        first_reject = next((ln for ln in parsed if ln.reject), None)
        if first_reject is not None:
            raise Rejected(first_reject.number, first_reject.reject)
        self._resolve(parsed, None)  # sizes do not depend on labels
        labels: dict[str, int] = {}
        address = 0
        pending: list[str] = []
        for ln in parsed:
            for name, _ in ln.labels:
                if name in labels or name in pending:
                    raise Rejected(ln.number, f"label '{name}' is defined twice")
                pending.append(name)
            if ln.mnemonic is not None:
                ln.address, address = address, address + ln.size
                for name in pending:
                    labels[name] = ln.address
                pending = []
        for name in pending:
            labels[name] = address
        if address > MAX_PROGRAM:
            raise Rejected(parsed[-1].number, "program too long")
        self._resolve(parsed, labels)
        self._encode(parsed)
        program = Program(words=[], labels=labels)
        for ln in parsed:
            if ln.reject:
                raise Rejected(ln.number, ln.reject)
            if ln.mnemonic is not None:
                program.words += ln.words
                program.lines += [ln.number] * len(ln.words)
        return program


def _fits(value: float, name: str) -> bool:
    lo, hi = field_range(name)
    return lo <= value <= hi


def _skip_space(tokens: list[tk.Token], i: int) -> int:
    while i < len(tokens) and tokens[i].kind == tk.SPACE:
        i += 1
    return i


def _strip(tokens: list[tk.Token]) -> list[tk.Token]:
    start = _skip_space(tokens, 0)
    end = len(tokens)
    while end > start and tokens[end - 1].kind == tk.SPACE:
        end -= 1
    return tokens[start:end]


def _register_like(token: tk.Token) -> bool:
    """R followed by one or more digits (the classical `[Rr][0-9]+`)."""
    return len(token.classes) > 1 and token.letters[0] == _R and all(c == tk.DIGIT for c in token.classes[1:])


def _pattern(tokens: list[tk.Token]) -> _Operand:
    """An operand's shape from its tokens (spaces at its ends already removed)."""
    kinds = [t.kind for t in tokens]
    if kinds == [tk.LETTER]:
        return _Operand("word", tokens[0])
    if kinds in ([tk.PLUS, tk.LETTER], [tk.MINUS, tk.LETTER]):
        return _Operand("signed", tokens[1], sign=-1 if kinds[0] == tk.MINUS else 1)
    inner = [t for t in tokens[1:-1] if t.kind != tk.SPACE]
    if kinds and kinds[0] == tk.LBRACK and kinds[-1] == tk.RBRACK and inner and inner[0].kind == tk.LETTER:
        shape = [t.kind for t in inner]
        if shape == [tk.LETTER]:
            return _Operand("memory", None, base=inner[0])
        if shape in ([tk.LETTER, tk.PLUS, tk.LETTER], [tk.LETTER, tk.MINUS, tk.LETTER]):
            return _Operand("memory", inner[2], sign=-1 if shape[1] == tk.MINUS else 1, base=inner[0])
    return _Operand("bad")


def _kind(op: _Operand, found: dict) -> None:
    """register / integer / memory / word / bad, from the token shapes and the number units."""
    number = found.get((id(op), "number"))
    register = found.get((id(op), "register"))
    literal = op.token is not None and op.token.classes[0] == tk.DIGIT and number is not None and number[1] \
        and len(op.token.text) + (op.pattern == "signed") <= MAX_LITERAL
    if op.pattern == "word":
        if _register_like(op.token):
            op.kind, op.register = cg.REG, register[0]
        elif literal:
            op.kind, op.number = cg.IMM, number[0]
        elif op.token.classes[0] != tk.DIGIT:
            op.kind, op.label = cg.WORD, op.token.text.upper()
    elif op.pattern == "signed" and literal:
        op.kind, op.number = cg.IMM, op.sign * number[0]
    elif op.pattern == "memory" and _register_like(op.base) and (op.token is None or literal):
        op.kind, op.register = cg.MEM, register[0]
        op.number = op.sign * number[0] if op.token is not None else 0.0


def guarded(net: NeuralAssembler, source: str) -> tuple[Program, int]:
    """The neural assembler checked against the classical one: (the program,
    overrides). The classical words replace the neural ones wherever they
    differ (an override per differing word, or per classical word where only
    one of the two accepts the text); an error the classical assembler raises
    is raised (one override if the networks had accepted the text)."""
    from ncpu.isa.assembler import AssemblerError, assemble

    try:
        neural = net.assemble(source)
    except Rejected:
        neural = None
    try:
        classical = assemble(source)
    except AssemblerError as error:
        error.overrides = int(neural is not None)
        raise
    if neural is None or len(neural.words) != len(classical.words):
        return classical, max(1, len(classical.words))
    wrong = sum(a != b for a, b in zip(neural.words, classical.words))
    return (classical, wrong) if wrong else (neural, 0)


_SHIPPED = None


def shipped() -> NeuralAssembler:
    """The shipped weights (loaded once)."""
    global _SHIPPED
    if _SHIPPED is None:
        from ncpu.os.neural import load_net

        _SHIPPED = load_net("assembler")
    return _SHIPPED


# -- training and enumeration -----------------------------------------------------------


def train(seed: int = 0, steps: int = 3000, device=None, log=None) -> NeuralAssembler:
    """Train the four networks, each on its whole input space (or, for the
    mnemonic attention, every entry and random near misses)."""
    net = NeuralAssembler()
    net.chars = tk.train_chars(seed, steps=4000, device=device, log=log)
    net.boundaries = tk.train_boundaries(seed, device=device, log=log)
    net.mnemonics = cg.train_mnemonics(seed, device=device, log=log)
    net.forms = cg.train_forms(seed, steps=steps, device=device, log=log)
    return net.cpu().eval()


def classical_line(text: str, labels: dict[str, int]) -> list[int] | None:
    """The classical assembler on one line with a given label table (the oracle)."""
    from ncpu.isa.assembler import AssemblerError, _Encoder, _parse_lines
    from ncpu.isa.encoding import encode

    try:
        statements, _ = _parse_lines(text)
        if len(statements) != 1:
            return None
        return [encode(i) for i in _Encoder({k.upper(): v for k, v in labels.items()}).encode(statements[0])]
    except AssemblerError:
        return None


LABELS = {"loop": 5, "End": 2_000_000, "_start": 0, "a.b_2": 1234, "x": (1 << 21) - 1}


def _spellings(value: int, index: int) -> list[str]:
    """The decimal spelling and one other (hex, binary, signed, leading zeros, lower-case hex)."""
    sign = "-" if value < 0 else ""
    magnitude = abs(value)
    others = [f"{sign}0x{magnitude:X}", f"{sign}0b{magnitude:b}" if magnitude < 1 << 12 else f"{sign}0X{magnitude:x}",
              f"+{value}" if value >= 0 else f"{sign}0x{magnitude:x}", f"{sign}00{magnitude}"]
    return [str(value), others[index % len(others)]]


def immediate_sweep(name: str, seed: int = 0, randoms: int = 6) -> list[int]:
    """Edge values of a field and around it, and random values inside it."""
    import random

    lo, hi = field_range(name)
    edges = {lo - 1, lo, lo + 1, -2, -1, 0, 1, 2, 31, 32, hi - 1, hi, hi + 1, 1 << 15, (1 << 16) - 1, 1 << 16,
             (1 << 20) - 1, 1 << 20, -(1 << 20), -(1 << 20) - 1, (1 << 31) - 1, -(1 << 31), -(1 << 31) - 1,
             (1 << 32) - 1, 1 << 32}
    rng = random.Random(f"{name}{seed}")
    return sorted(edges | {rng.randint(lo, hi) for _ in range(randoms)})


def instruction_cases(quick: bool = False, seed: int = 0) -> list[str]:
    """Every spelling of every instruction (each mnemonic and alias) with every
    register combination, a sweep of immediates in several spellings (edges,
    negatives, out of range), memory operands, label and absolute jump targets,
    and wrong ones (R8, missing and extra operands); some in lower case, with
    tabs, without spaces, with a comment. `quick` keeps every form but fewer
    register combinations and values."""
    from ncpu.isa.opcodes import FORMATS, IMMEDIATE_FORMS, JUMP_ALIASES

    regs = range(8)
    pairs = [(a, b) for a in regs for b in regs]
    triples = [(a, b, c) for a in regs for b in regs for c in regs]
    if quick:
        pairs, triples = pairs[::9], triples[::37]
    lines: list[str] = []

    def values(name):
        sweep = immediate_sweep(name, seed, 2 if quick else 6)
        out = []
        for index, value in enumerate(sweep):
            out += _spellings(value, index)[:1 if quick and index % 2 else 2]
        return out

    for spelling in cg.ENTRIES:
        op = BY_MNEMONIC[JUMP_ALIASES.get(spelling, spelling)]
        fmt = op.format
        if fmt == "none":
            lines += [spelling, f"{spelling} R1"]
        elif fmt in ("r", "s"):
            lines += [f"{spelling} R{a}" for a in regs] + [f"{spelling} R8", f"{spelling}", f"{spelling} 5"]
        elif fmt in ("rr", "ss"):
            lines += [f"{spelling} R{a}, R{b}" for a, b in pairs] + [f"{spelling} R1, R8", f"{spelling} R1"]
            if spelling in ("MOV", "CMP"):
                field = "imm21" if spelling == "MOV" else "imm15"
                lines += [f"{spelling} R{a}, {v}" for v in values(field) for a in (regs if not quick else (0, 7))]
        elif fmt == "rrr":
            lines += [f"{spelling} R{a}, R{b}, R{c}" for a, b, c in triples]
            lines += [f"{spelling} R1, R2", f"{spelling} R1, R2, R3, R4", f"{spelling} R9, R2, R3"]
            if spelling in IMMEDIATE_FORMS:
                vs = values("imm15")
                lines += [f"{spelling} R{a}, R{b}, {v}" for a, b in pairs for v in vs]
        elif fmt in ("rri", "si", "ri21", "ri16"):
            field = [f for f in FORMATS[fmt].fields if f.startswith("imm")][0]
            vs = values(field)
            if fmt == "rri":
                lines += [f"{spelling} R{a}, R{b}, {v}" for a, b in pairs for v in vs] + [f"{spelling} R1, R2, R3"]
            else:
                lines += [f"{spelling} R{a}, {v}" for a in regs for v in vs] + [f"{spelling} R1, R2"]
        elif fmt in ("load", "store"):
            offsets = values("imm15")
            lines += [f"{spelling} R{a}, [R{b}]" for a, b in pairs] + [f"{spelling} R{a}, [R{b}+4]" for a, b in pairs]
            for index, text in enumerate(offsets):
                a, b = pairs[index % len(pairs)]
                sign = "-" if index % 3 == 0 and not text.startswith(("-", "+")) else "+"
                lines += [f"{spelling} R{a}, [R{b}{sign}{text}]", f"{spelling} R{a}, [ R{b} {sign} {text} ]"]
            lines += [f"{spelling} R1, [R8+1]", f"{spelling} R1, R2", f"{spelling} R1, [R2+R3]", f"{spelling} [R1], R2"]
        elif fmt == "jump":
            names = list(LABELS) + [n.upper() for n in LABELS] + ["nowhere", "R1", "9lives"]
            lines += [f"{spelling} {n}" for n in names] + [f"{spelling} {v}" for v in values("addr")]
            lines += [f"{spelling}", f"{spelling} loop, 1"]
    variants = []
    for index, line in enumerate(lines):
        if index % 7 == 0:
            variants.append(line.lower())
        if index % 11 == 0:
            variants.append("\t" + line.replace(", ", ",").replace(" ", "\t", 1) + "\t; a comment, R1")
        if index % 13 == 0:
            variants.append("here: " + line)
    return lines + variants + ["MOVE R1, R2", "ADD3 R1, R2, R3", "ADD, R1", "mov.w R1, R2", "JMP", "FOO",
                               "here: there: NOP", "R1: NOP", "mov: NOP", "MOV R1, 0x", "MOV R1, 0b2",
                               "MOV R1, - 5", "MOV R1, 1e3", "MOV R1, 0x1_0", "LOAD R1, [R2+-3]"]


def verify_lines(net: NeuralAssembler, lines: list[str]) -> dict:
    """Each line against the classical assembler: same words, or both reject."""
    got = net.lines(lines, LABELS)
    wrong = []
    accepted = 0
    for line, words in zip(lines, got):
        want = classical_line(line, LABELS)
        accepted += want is not None
        if words != want:
            wrong.append((line, words, want))
    return {"cases": len(lines), "accepted": accepted, "wrong": len(wrong), "examples": wrong[:5]}


def verify_numbers(net: NeuralAssembler, quick: bool = False) -> dict:
    """Every integer 0..65,535 (quick: every 97th) in decimal, hex (both cases of
    prefix and digits), binary and with leading zeros, and long literals, through
    the tokenizer and the place-value units, against `parse_integer`."""
    from ncpu.isa.assembler import parse_integer

    texts = []
    for v in range(0, 1 << 16, 97 if quick else 1):
        texts += [str(v), f"0x{v:x}", f"0X{v:X}", f"0b{v:b}", f"0{v}"]
    texts += ["9" * 79, "1" + "0" * 79, "0x" + "F" * 78, "0b" + "1" * 78, "0" * 80 + "1", "0x", "0b", "0b2", "0xg",
              "1a", "08", "0x0", "0b0", "00"]
    tables = tk.CharTables(net.chars, net.boundaries)
    tokens = [tables.tokens(t) for t in texts]
    single = [ts[0] for ts in tokens if len(ts) == 1]
    values, valid = net._numbers([(t, 0) for t in single])
    wrong = 0
    for text, ts, value, ok in zip(texts, tokens, values.tolist(), valid.tolist()):
        want = parse_integer(text)
        got = int(value) if ok and len(text) <= MAX_LITERAL and ts[0].classes[0] == tk.DIGIT else None
        if want is not None and want >= 1 << 53:  # beyond float64's integers: only "too big to use" matters
            got, want = got is not None and got >= 1 << 53, True
        wrong += got != want
    return {"cases": len(texts), "wrong": wrong + len(texts) - len(single)}


def verify_fields(quick: bool = False) -> dict:
    """Every value of every immediate field (quick: every 61st), and every
    register in every register field, through `twos_complement_bits` and
    `place_fields`, against `ncpu.isa.encoding.encode`."""
    from ncpu.isa.encoding import Instruction, encode

    cases = wrong = 0
    for name, op in (("imm15", "ADDI"), ("imm21", "MOVI"), ("imm16", "MOVT"), ("addr", "JMP")):
        lo, hi = field_range(name)
        width = _FIELD_WIDTH[name]
        code = BY_MNEMONIC[op].code
        for start in range(lo, hi + 1, 1 << 18):
            values = torch.arange(start, min(start + (1 << 18), hi + 1), 61 if quick else 1, dtype=torch.float64)
            bits = cg.twos_complement_bits(values)[:, :21] * (torch.arange(21) < width).double()
            zero = torch.zeros_like(values)
            words = cg.place_fields(torch.full_like(values, code), zero, zero, zero, bits)
            want = torch.tensor([encode(Instruction(BY_MNEMONIC[op], imm=int(v))) for v in values.tolist()])
            cases += len(values)
            wrong += int((words != want).sum())
    regs = torch.tensor([(a, b, c) for a in range(8) for b in range(8) for c in range(8)], dtype=torch.float64)
    words = cg.place_fields(torch.full((512,), BY_MNEMONIC["ADD"].code, dtype=torch.float64), regs[:, 0], regs[:, 1],
                            regs[:, 2], torch.zeros(512, 21, dtype=torch.float64))
    want = torch.tensor([encode(Instruction(BY_MNEMONIC["ADD"], rd=a, rs1=b, rs2=c)) for a, b, c in regs.long().tolist()])
    return {"cases": cases + 512, "wrong": wrong + int((words != want).sum())}


def verify(net: NeuralAssembler, quick: bool = False, device=None) -> dict:
    """Every part on its whole input space, the number and field layers over
    their values, and the lines of `instruction_cases` end to end."""
    parts = {"chars": tk.verify_chars(net.chars), "boundaries": tk.verify_boundaries(net.boundaries),
             "mnemonics": cg.verify_mnemonics(net.mnemonics), "forms": cg.verify_forms(net.forms),
             "numbers": verify_numbers(net, quick), "fields": verify_fields(quick),
             "lines": verify_lines(net, instruction_cases(quick))}
    return {"cases": sum(p["cases"] for p in parts.values()), "wrong": sum(p["wrong"] for p in parts.values()),
            "parts": parts}
