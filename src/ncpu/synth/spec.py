"""A synthesis problem: input/output examples plus optional constraints.

JSON form (see docs/synthesis.md):

    {"name": "add", "inputs": ["R0", "R1"], "outputs": ["R7"],
     "examples": [{"in": [3, 5], "out": [8]}, ...],
     "opcodes": ["ADD", "SUB"], "max_length": 4, "constants": [1, 31]}

Memory is part of an example: `"memory_in": {"base": 100, "values": [...]}`
sets words base.. before the run; `"memory_out"` (same form) lists words that
must hold those values after it. Either may also be a list of such regions.
Every register not named in `inputs` and all other memory start at 0.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path

from ncpu.isa.assembler import parse_integer
from ncpu.isa.opcodes import BY_MNEMONIC, NUM_REGISTERS
from ncpu.isa.semantics import wrap
from ncpu.machine.state import DEFAULT_MEM_SIZE

Region = tuple[int, tuple[int, ...]]  # (base address, words)
MAX_SPEC_BYTES = 64 << 20     # a spec file larger than this is refused before it is parsed


class SpecError(ValueError):
    """A specification that cannot be synthesised from; the message is one line."""


@dataclass(frozen=True)
class Example:
    inputs: tuple[int, ...]
    outputs: tuple[int, ...]
    memory_in: tuple[Region, ...] = ()
    memory_out: tuple[Region, ...] = ()


@dataclass(frozen=True)
class Spec:
    name: str
    inputs: tuple[int, ...]  # register numbers
    outputs: tuple[int, ...]
    examples: tuple[Example, ...]
    opcodes: frozenset[str] | None = None  # allowed mnemonics, None = all
    max_length: int | None = None
    constants: tuple[int, ...] = ()
    extra: dict = field(default_factory=dict, compare=False, hash=False)

    @property
    def uses_memory(self) -> bool:
        return any(e.memory_in or e.memory_out for e in self.examples)

    def allows(self, mnemonic: str) -> bool:
        return self.opcodes is None or mnemonic in self.opcodes

    def canonical_key(self) -> str:
        """Hash of what a solution must satisfy; the name is left out so a
        renamed copy of a solved problem still hits the cache."""
        examples = sorted(
            [list(e.inputs), list(e.outputs), [[b, list(v)] for b, v in e.memory_in],
             [[b, list(v)] for b, v in e.memory_out]]
            for e in self.examples
        )
        payload = {
            "inputs": list(self.inputs), "outputs": list(self.outputs), "examples": examples,
            "opcodes": sorted(self.opcodes) if self.opcodes is not None else None,
            "max_length": self.max_length, "constants": sorted(set(self.constants)),
        }
        return hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()

    def to_json(self) -> dict:
        def regions(rs):
            return [{"base": b, "values": list(v)} for b, v in rs]

        out: dict = {
            "name": self.name,
            "inputs": [f"R{r}" for r in self.inputs],
            "outputs": [f"R{r}" for r in self.outputs],
            "examples": [],
        }
        for e in self.examples:
            item: dict = {"in": list(e.inputs), "out": list(e.outputs)}
            if e.memory_in:
                item["memory_in"] = regions(e.memory_in)
            if e.memory_out:
                item["memory_out"] = regions(e.memory_out)
            out["examples"].append(item)
        if self.opcodes is not None:
            out["opcodes"] = sorted(self.opcodes)
        if self.max_length is not None:
            out["max_length"] = self.max_length
        if self.constants:
            out["constants"] = list(self.constants)
        return out


def _register(text, where: str) -> int:
    # ASCII digits only: "R²" passes str.isdigit() but is not a number int() reads
    if not isinstance(text, str) or text[:1].upper() != "R" or not 2 <= len(text) <= 3 \
            or not all(c in "0123456789" for c in text[1:]) or int(text[1:]) >= NUM_REGISTERS:
        raise SpecError(f"{where}: unknown register {_short(text)} (expected R0-R{NUM_REGISTERS - 1})")
    return int(text[1:])


def _short(value) -> str:
    """repr for a message, cut when long (a spec value can be anything)."""
    text = repr(value) if not isinstance(value, (list, dict)) else type(value).__name__
    return text if len(text) <= 40 else text[:40] + "..."


def _list(data: dict, key: str, default=()) -> list:
    value = data.get(key, list(default))
    if not isinstance(value, list):
        raise SpecError(f"{key}: expected a list, found {_short(value)}")
    return value


def _word(value, where: str) -> int:
    # Accept signed and unsigned spellings of a 32-bit word; booleans are not numbers here.
    if isinstance(value, bool) or not isinstance(value, int):
        raise SpecError(f"{where}: expected an integer, found {_short(value)}")
    if not -(1 << 31) <= value < (1 << 32):
        raise SpecError(f"{where}: {_short(value)} is not a 32-bit value")
    return wrap(value)


def _regions(raw, where: str) -> tuple[Region, ...]:
    if raw is None:
        return ()
    items = raw if isinstance(raw, list) else [raw]
    regions = []
    for item in items:
        if not isinstance(item, dict) or "base" not in item or "values" not in item:
            raise SpecError(f"{where}: expected {{\"base\": int, \"values\": [int, ...]}}")
        base = item["base"]
        if isinstance(base, bool) or not isinstance(base, int) or not isinstance(item["values"], list):
            raise SpecError(f"{where}: base must be an integer and values a list")
        values = tuple(_word(v, where) for v in item["values"])
        if base < 0 or base + len(values) > DEFAULT_MEM_SIZE:
            raise SpecError(f"{where}: region {base}..{base + len(values) - 1} outside memory 0..{DEFAULT_MEM_SIZE - 1}")
        regions.append((base, values))
    return tuple(regions)


def parse_spec(data) -> Spec:
    """Validate a decoded JSON object and build a Spec; raises SpecError."""
    if not isinstance(data, dict):
        raise SpecError("specification must be a JSON object")
    unknown = set(data) - {"name", "inputs", "outputs", "examples", "opcodes", "max_length", "constants",
                           "family", "description"}
    if unknown:
        raise SpecError(f"unknown field(s): {', '.join(sorted(unknown))}")
    inputs = tuple(_register(r, "inputs") for r in _list(data, "inputs"))
    outputs = tuple(_register(r, "outputs") for r in _list(data, "outputs"))
    if len(set(inputs)) != len(inputs) or len(set(outputs)) != len(outputs):
        raise SpecError("a register is listed twice in inputs or outputs")
    raw_examples = data.get("examples")
    if not isinstance(raw_examples, list) or not raw_examples:
        raise SpecError("examples: expected a non-empty list")
    examples = []
    seen: dict = {}
    for index, raw in enumerate(raw_examples, 1):
        where = f"example {index}"
        if not isinstance(raw, dict) or not isinstance(raw.get("in"), list) or not isinstance(raw.get("out", []), list):
            raise SpecError(f"{where}: expected {{\"in\": [...], \"out\": [...]}}")
        if len(raw["in"]) != len(inputs):
            raise SpecError(f"{where}: {len(raw['in'])} input(s) given, {len(inputs)} register(s) declared")
        if len(raw.get("out", [])) != len(outputs):
            raise SpecError(f"{where}: {len(raw.get('out', []))} output(s) given, {len(outputs)} register(s) declared")
        example = Example(
            tuple(_word(v, where) for v in raw["in"]),
            tuple(_word(v, where) for v in raw.get("out", [])),
            _regions(raw.get("memory_in"), f"{where} memory_in"),
            _regions(raw.get("memory_out"), f"{where} memory_out"),
        )
        key = (example.inputs, example.memory_in)
        if key in seen and seen[key][1] != (example.outputs, example.memory_out):
            raise SpecError(f"inconsistent examples: {seen[key][0]} and {index} have the same input but different outputs")
        seen.setdefault(key, (index, (example.outputs, example.memory_out)))
        examples.append(example)
    if not outputs and not any(e.memory_out for e in examples):
        raise SpecError("nothing to synthesise: no output registers and no memory_out")
    opcodes = data.get("opcodes")
    if opcodes is not None:
        if not isinstance(opcodes, list):
            raise SpecError("opcodes: expected a list of mnemonics")
        bad = [o for o in opcodes if not isinstance(o, str) or o.upper() not in BY_MNEMONIC]
        if bad:
            raise SpecError(f"opcodes: unknown mnemonic {_short(bad[0])}")
        opcodes = frozenset(o.upper() for o in opcodes)
    max_length = data.get("max_length")
    if max_length is not None and (isinstance(max_length, bool) or not isinstance(max_length, int) or max_length < 1):
        raise SpecError("max_length: expected a positive integer")
    constants = tuple(_word(c, "constants") for c in _list(data, "constants"))
    name = data.get("name", "unnamed")
    if not isinstance(name, str):
        raise SpecError("name: expected a string")
    return Spec(name, inputs, outputs, tuple(examples), opcodes, max_length, constants,
                extra={k: data[k] for k in ("family", "description") if k in data})


def load_spec(path: str | Path) -> Spec:
    try:
        with open(path, "rb") as handle:
            raw = handle.read(MAX_SPEC_BYTES + 1)
    except OSError as error:
        raise SpecError(f"cannot read {path}: {error.strerror}") from None
    if len(raw) > MAX_SPEC_BYTES:
        raise SpecError(f"{path}: larger than {MAX_SPEC_BYTES >> 20} MiB")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise SpecError(f"{path}: not UTF-8 text (byte {error.start})") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise SpecError(f"{path}: malformed JSON at line {error.lineno} column {error.colno}: {error.msg}") from None
    except RecursionError:
        raise SpecError(f"{path}: JSON nested too deeply") from None
    except ValueError as error:      # an integer past Python's 4,300-digit conversion limit
        raise SpecError(f"{path}: {str(error).split(';')[0]}") from None
    return parse_spec(data)


def parse_example(text: str) -> tuple[list[int], list[int]]:
    """`"3,5->8"` or `"3 5 -> 8 1"` into ([3, 5], [8]) / ([3, 5], [8, 1])."""
    if "->" not in text:
        raise SpecError(f"example {_short(text)}: expected 'IN,...->OUT,...'")
    left, right = text.split("->", 1)

    def numbers(part: str) -> list[int]:
        items = [p for p in part.replace(",", " ").split() if p]
        values = [parse_integer(p) for p in items]
        if None in values:
            raise SpecError(f"example {_short(text)}: expected integers") from None
        return values

    return numbers(left), numbers(right)
