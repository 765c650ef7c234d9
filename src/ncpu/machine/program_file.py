"""`.asm` files that carry their own setup and expected result.

A program file is nCPU assembly whose leading comment lines may hold
directives, one per line:

    ; @name gcd
    ; @description Euclid's algorithm by repeated MOD
    ; @init R0=48 R1=18          registers, flags N Z C V (0/1), pc, sp; rest start at 0
    ; @mem-size 64               words of memory (default 1024, at most 4,194,304)
    ; @mem 16: 5 3 -8 1          initial words from an address (repeatable)
    ; @max-steps 10000           instruction budget (default 1000000, at most 2**62)
    ; @expect R0=6 Z=1 halted=1  R0-R7, N Z C V, pc, sp, steps, halted (repeatable)
    ; @expect-mem 16: 1 3 5 8    expected words from an address (repeatable)
    ; @test-init R0=1000         register overrides for quick test runs
    ; @test-expect R1=42 steps=9 expectation overrides for those runs

Numbers are decimal, 0x hex or 0b binary, optionally negative; register and
memory values are 32-bit words (-2**31 .. 2**32-1, stored signed). A `;`
after a directive's values starts a comment (except in @name/@description).

`@test-init`/`@test-expect` exist for programs that run too long for a unit
test (a benchmark loop): a test run starts from @init with the @test-init
values on top, and checks @expect with the @test-expect keys replaced.
Directives must come before the first line of code; plain comment lines may
be mixed in with them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from ncpu.isa.assembler import AssemblerError, Program, assemble, parse_integer, shorten
from ncpu.isa.opcodes import NUM_REGISTERS
from ncpu.isa.semantics import wrap
from ncpu.machine.state import DEFAULT_MEM_SIZE, MAX_MEM_SIZE, MAX_PC, MAX_STEPS, MachineState

DEFAULT_MAX_STEPS = 1_000_000

REGISTER_KEYS = tuple(f"R{i}" for i in range(NUM_REGISTERS))
FLAG_KEYS = ("N", "Z", "C", "V")
INIT_KEYS = REGISTER_KEYS + FLAG_KEYS + ("pc", "sp")
EXPECT_KEYS = INIT_KEYS + ("steps", "halted")
_BOOLEAN_KEYS = FLAG_KEYS + ("halted",)

_DIRECTIVE = re.compile(r"\s*;\s*@([A-Za-z-]+)(.*)$")


class ProgramFileError(Exception):
    """A malformed program file; names the file and the 1-based line."""

    def __init__(self, path: str, line: int, reason: str):
        super().__init__(f"{path}:{line}: {reason}")
        self.path = path
        self.line = line
        self.reason = reason


@dataclass
class ProgramFile:
    """A parsed program file: code, starting state and what it should end in.

    `expect` maps keys of EXPECT_KEYS to values (registers signed, flags and
    halted 0/1); `expect_mem` maps addresses to expected signed words. The
    `test_*` fields are the same for a quick test run (equal to the plain
    ones when the file has no @test-init/@test-expect).
    """

    path: str
    name: str
    description: str
    source: str
    program: Program
    initial_state: MachineState
    max_steps: int
    expect: dict[str, int] = field(default_factory=dict)
    expect_mem: dict[int, int] = field(default_factory=dict)
    test_initial_state: MachineState | None = None
    test_expect: dict[str, int] | None = None

    def __post_init__(self) -> None:
        if self.test_initial_state is None:
            self.test_initial_state = self.initial_state
        if self.test_expect is None:
            self.test_expect = dict(self.expect)

    @property
    def has_test_overrides(self) -> bool:
        return self.test_initial_state is not self.initial_state

    def fresh_state(self, test: bool = False) -> MachineState:
        """A copy of the starting state to run (the quick one when `test`)."""
        return (self.test_initial_state if test else self.initial_state).copy()

    def expectations(self, test: bool = False) -> dict[str, int]:
        return dict(self.test_expect if test else self.expect)


def _word(value: int) -> int | None:
    """A 32-bit word as a signed value, or None when it does not fit."""
    return wrap(value) if -(1 << 31) <= value < (1 << 32) else None


def _canonical_key(key: str) -> str | None:
    upper = key.upper()
    if upper in REGISTER_KEYS or upper in FLAG_KEYS:
        return upper
    lower = key.lower()
    return lower if lower in ("pc", "sp", "steps", "halted") else None


class _HeaderParser:
    """Collects directives line by line; `fail` raises with file and line."""

    def __init__(self, path: str):
        self.path = path
        self.line = 0
        self.name: str | None = None
        self.description = ""
        self.mem_size = DEFAULT_MEM_SIZE
        self.max_steps = DEFAULT_MAX_STEPS
        self.init: dict[str, int] = {}
        self.test_init: dict[str, int] = {}
        self.expect: dict[str, int] = {}
        self.test_expect: dict[str, int] = {}
        self.mem: list[tuple[int, int, list[int]]] = []  # (line, address, words)
        self.expect_mem: list[tuple[int, int, list[int]]] = []
        self.seen_test_init = self.seen_test_expect = False

    def fail(self, reason: str, line: int | None = None) -> None:
        raise ProgramFileError(self.path, self.line if line is None else line, reason)

    def integer(self, text: str, what: str) -> int:
        value = parse_integer(text)
        if value is None:
            self.fail(f"{what}: expected an integer, found '{shorten(text)}'")
        return value

    def assignments(self, text: str, allowed: tuple[str, ...], into: dict[str, int], directive: str) -> None:
        pairs = text.split()
        if not pairs:
            self.fail(f"@{directive} needs at least one KEY=VALUE")
        for pair in pairs:
            key, sep, value_text = pair.partition("=")
            canonical = _canonical_key(key)
            if not sep or canonical is None or canonical not in allowed:
                self.fail(f"@{directive}: '{pair}' is not KEY=VALUE with KEY one of {' '.join(allowed)}")
            if canonical in into:
                self.fail(f"@{directive}: {canonical} given twice")
            value = self.integer(value_text, f"@{directive} {canonical}")
            if canonical in _BOOLEAN_KEYS:
                if value not in (0, 1):
                    self.fail(f"@{directive}: {canonical} must be 0 or 1, found {value}")
            elif canonical in REGISTER_KEYS:
                word = _word(value)
                if word is None:
                    self.fail(f"@{directive}: {canonical}={value} is not a 32-bit word")
                value = word
            elif value < 0:
                self.fail(f"@{directive}: {canonical} must not be negative")
            elif canonical == "pc" and value > MAX_PC:
                self.fail(f"@{directive}: pc={value} is beyond the largest address {MAX_PC}")
            into[canonical] = value

    def memory_block(self, text: str, directive: str) -> tuple[int, int, list[int]]:
        address_text, sep, words_text = text.partition(":")
        if not sep or not words_text.split():
            self.fail(f"@{directive} expects 'ADDRESS: WORD WORD ...'")
        address = self.integer(address_text.strip(), f"@{directive} address")
        if address < 0:
            self.fail(f"@{directive}: address {address} is negative")
        words = []
        for token in words_text.split():
            word = _word(self.integer(token, f"@{directive} word"))
            if word is None:
                self.fail(f"@{directive}: {token} is not a 32-bit word")
            words.append(word)
        return self.line, address, words

    def directive(self, key: str, text: str) -> None:
        key = key.lower()
        if key in ("name", "description"):
            text = text.strip()
            if key == "name":
                if not text or self.name is not None:
                    self.fail("@name must be given once, with a value")
                self.name = text
            else:
                self.description = f"{self.description} {text}".strip()
            return
        text = text.split(";", 1)[0]
        if key == "init":
            self.assignments(text, INIT_KEYS, self.init, key)
        elif key == "test-init":
            self.seen_test_init = True
            self.assignments(text, INIT_KEYS, self.test_init, key)
        elif key == "expect":
            self.assignments(text, EXPECT_KEYS, self.expect, key)
        elif key == "test-expect":
            self.seen_test_expect = True
            self.assignments(text, EXPECT_KEYS, self.test_expect, key)
        elif key == "mem":
            self.mem.append(self.memory_block(text, key))
        elif key == "expect-mem":
            self.expect_mem.append(self.memory_block(text, key))
        elif key in ("mem-size", "max-steps"):
            value = self.integer(text.strip(), f"@{key}")
            if value < 1:
                self.fail(f"@{key} must be at least 1")
            limit = MAX_MEM_SIZE if key == "mem-size" else MAX_STEPS
            if value > limit:
                self.fail(f"@{key} {value} is above the limit of {limit:,}")
            if key == "mem-size":
                self.mem_size = value
            else:
                self.max_steps = value
        else:
            self.fail(f"unknown directive '@{key}'")

    def state(self, values: dict[str, int]) -> MachineState:
        state = MachineState(memory=[0] * self.mem_size)
        for line, address, words in self.mem:
            if address + len(words) > self.mem_size:
                self.fail(f"@mem block {address}..{address + len(words) - 1} outside memory of {self.mem_size} words", line)
            state.memory[address:address + len(words)] = words
        for key, value in values.items():
            if key in REGISTER_KEYS:
                state.registers[int(key[1:])] = value
            elif key in FLAG_KEYS:
                setattr(state, key.lower(), bool(value))
            else:
                setattr(state, key, value)
        if state.sp >= self.mem_size:
            self.fail(f"sp={state.sp} outside memory of {self.mem_size} words")
        return state

    def expected_memory(self) -> dict[int, int]:
        expected: dict[int, int] = {}
        for line, address, words in self.expect_mem:
            if address + len(words) > self.mem_size:
                self.fail(f"@expect-mem block {address}..{address + len(words) - 1} outside memory of {self.mem_size} words", line)
            for offset, word in enumerate(words):
                expected[address + offset] = word
        return expected


def parse_program_file(text: str, path: str = "<string>") -> ProgramFile:
    """Parse a program file's text; raises ProgramFileError."""
    header = _HeaderParser(path)
    code_started = False
    for number, raw in enumerate(text.splitlines(), start=1):
        header.line = number
        match = _DIRECTIVE.match(raw)
        if match:
            if code_started:
                header.fail(f"directive '@{match.group(1)}' after the first line of code")
            header.directive(match.group(1), match.group(2))
        elif raw.split(";", 1)[0].strip():
            code_started = True
    if header.seen_test_init != header.seen_test_expect:
        header.line = 1
        header.fail("@test-init and @test-expect go together: give both or neither")
    try:
        program = assemble(text)
    except AssemblerError as error:
        raise ProgramFileError(path, error.line, f"column {error.column}: {error.reason}") from error
    initial_state = header.state(header.init)
    test_initial_state = header.state({**header.init, **header.test_init}) if header.seen_test_init else initial_state
    return ProgramFile(
        path=path,
        name=header.name or Path(path).stem,
        description=header.description,
        source=text,
        program=program,
        initial_state=initial_state,
        max_steps=header.max_steps,
        expect=dict(header.expect),
        expect_mem=header.expected_memory(),
        test_initial_state=test_initial_state,
        test_expect={**header.expect, **header.test_expect},
    )


def load_program_file(path: str | Path) -> ProgramFile:
    """Read and parse one `.asm` program file."""
    path = Path(path)
    return parse_program_file(path.read_text(encoding="utf-8"), str(path))


def program_paths(directory: str | Path) -> list[Path]:
    """The `.asm` files of a directory, sorted by name."""
    return sorted(Path(directory).glob("*.asm"))


def _observed(state: MachineState, key: str) -> int:
    if key in REGISTER_KEYS:
        return state.registers[int(key[1:])]
    if key in FLAG_KEYS:
        return int(getattr(state, key.lower()))
    return int(getattr(state, key))


def expectation_failures(program_file: ProgramFile, state: MachineState, test: bool = False) -> list[str]:
    """How a final state differs from the file's expectations; [] when it matches.

    With `test`, the quick-run expectations (@test-expect on top of @expect).
    """
    failures = []
    for key, expected in program_file.expectations(test).items():
        got = _observed(state, key)
        if got != expected:
            failures.append(f"{key}: expected {expected}, got {got}")
    for address, expected in sorted(program_file.expect_mem.items()):
        got = state.memory[address] if address < len(state.memory) else None
        if got != expected:
            failures.append(f"mem[{address}]: expected {expected}, got {got}")
    return failures
