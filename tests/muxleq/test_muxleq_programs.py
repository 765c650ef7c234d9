"""The bundled MUXLEQ programs, each checked against a Python oracle in every
engine: reference and compute on full inputs, fast and neural batched over
short inputs (and neural on single machines too)."""

from __future__ import annotations

import functools
import math
import random

import pytest

from ncpu.muxleq import compute, reference
from ncpu.muxleq.assembler import BUNDLED, assemble_file, program_path
from ncpu.muxleq.engines import get_engine
from ncpu.muxleq.state import MuxleqBatch, MuxleqState


@functools.cache
def image(name: str) -> tuple[int, ...]:
    return tuple(assemble_file(program_path(name)).cells)


def run(name: str, data: bytes, mode: str = "compute", max_steps: int = 10 ** 8) -> MuxleqState:
    state = get_engine(mode).run(MuxleqState.load(image(name), data), max_steps)
    assert state.halted, (name, data, state.steps)
    return state


# -- oracles ------------------------------------------------------------------

def signed16(x: int) -> int:
    return ((x + 0x8000) & 0xFFFF) - 0x8000


def lines(values) -> bytes:
    return b"".join(b"%d\n" % v for v in values)


def fibonacci(n: int) -> bytes:
    a, b, out = 0, 1, []
    for _ in range(n):
        out.append(a)
        a, b = b, signed16(a + b)
    return lines(out)


def primes(n: int) -> bytes:
    return lines(p for p in range(2, n + 1) if all(p % d for d in range(2, int(p ** 0.5) + 1)))


def evaluate(tokens: list) -> int | None:
    """[n, op, n, op, ...] with * / % & | before + -, 16-bit, truncating; None on x / 0."""
    total, sign, term = 0, 1, tokens[0]
    for op, value in zip(tokens[1::2], tokens[2::2]):
        if op in "*/%&|":
            if op == "*":
                term = signed16(term * value)
            elif op in "&|":
                term = signed16(term & value if op == "&" else term | value)
            elif value == 0:
                return None
            else:
                q = abs(term) // abs(value) * (1 if (term < 0) == (value < 0) else -1)
                term = signed16(q) if op == "/" else signed16(term - q * value)
        else:
            total = signed16(total + sign * term)
            sign, term = (1 if op == "+" else -1), value
    return signed16(total + sign * term)


def random_expression(rng: random.Random) -> tuple[str, int | None]:
    tokens = [rng.randint(-300, 300)]
    for _ in range(rng.randint(0, 5)):
        tokens += [rng.choice("+-*/%&|"), rng.randint(-300, 300) if rng.random() < 0.8 else rng.randint(0, 3)]
    spaced = lambda t: (" " * rng.randint(0, 2)) + str(t)  # noqa: E731
    return "".join(spaced(t) for t in tokens), evaluate(tokens)


# -- reference and compute, full inputs -------------------------------------

@pytest.mark.parametrize("mode", ["reference", "compute"])
def test_hello(mode):
    assert run("hello", b"", mode).output == b"Hello, world!\n"


@pytest.mark.parametrize("mode", ["reference", "compute"])
@pytest.mark.parametrize("n", [0, 1, 2, 24, 30])
def test_fibonacci(mode, n):
    assert run("fibonacci", b"%d\n" % n, mode).output == fibonacci(n)


def test_fibonacci_default_count():
    assert run("fibonacci", b"").output == fibonacci(24)


@pytest.mark.parametrize("mode", ["reference", "compute"])
@pytest.mark.parametrize("n", [1, 2, 3, 50])
def test_primes(mode, n):
    assert run("primes", b"%d" % n, mode).output == primes(n)


def test_primes_to_a_thousand_and_the_default():
    assert run("primes", b"1000\n").output == primes(1000)
    assert run("primes", b"").output == primes(100)


def test_calculator_on_random_expressions():
    rng = random.Random(16)
    cases = [random_expression(rng) for _ in range(300)]
    text = "".join(expr + "\n" for expr, _ in cases).encode()
    want = b"".join(b"error\n" if v is None else b"%d\n" % v for _, v in cases)
    assert run("calculator", text).output == want
    few = "".join(expr + "\n" for expr, _ in cases[:25]).encode()
    assert run("calculator", few, "reference").output == b"".join(want.splitlines(keepends=True)[:25])


def test_calculator_lines_errors_and_end_of_input():
    data = b"  2 + 3*4\n\n\n7 / 0\n1 +\nx\n-32767 - 1\n300*300\n9 % -4 - 2\n-1 & 255 | 4096\n6*7"
    assert run("calculator", data).output == b"14\nerror\nerror\nerror\n-32768\n24464\n-1\n4351\n42\n"
    assert run("calculator", b"").output == b""


def test_calculator_is_interactive():
    """One line in, its answer out, before the next line exists."""
    state = MuxleqState.load(image("calculator"), b"40+2\n", end_of_input=False)
    state = compute.run(state, 10 ** 7)
    assert state.waiting_for_input and state.output == b"42\n"
    state.input, state.end_of_input = b"5*5\n", True
    state = compute.run(state, 10 ** 7)
    assert state.halted and state.output == b"42\n25\n"


FIB = b": fib dup 1 > if dup 1 - fib swap 2 - fib + then ; "
FACT = b": fact dup 1 > if dup 1 - fact * else drop 1 then ; "


@pytest.mark.parametrize("mode, count", [("compute", 15), ("reference", 8)])
def test_forth_recursive_definitions(mode, count):
    loop = b": fibs 0 begin dup fib . 1 + dup %d = until drop ; fibs cr" % count
    assert run("forth", FIB + loop, mode).output == fibonacci(count).replace(b"\n", b" ") + b"\n"


def test_forth_arithmetic_logic_stack_and_memory():
    data = FACT + b"1 fact . 5 fact . 7 fact . cr 100 7 / . -100 7 mod . 5 0 / . 12 10 and . 12 10 or . cr "
    data += b"1 2 3 rot . . . 1 2 over . . . 3 4 < . 4 3 < . 0 0= . 7 0= . 3 3 = . cr "
    data += b"72 emit 105 emit cr 123 here 50 + ! here 50 + @ . -32768 . 32767 1 + ."
    want = b"%d %d %d \n" % (math.factorial(1), math.factorial(5), math.factorial(7))
    want += b"14 -2 0 8 14 \n" b"1 3 2 1 2 1 -1 0 -1 0 -1 \n" b"Hi\n" b"123 -32768 -32768 "
    assert run("forth", data).output == want


def test_forth_unknown_words_reset_the_interpreter():
    assert run("forth", b"1 2 nope 3 . cr : bad dup zzz ; 4 .").output == b"nope ?\n3 \nzzz ?\n4 "


# -- every engine on short inputs ---------------------------------------------

SHORT = [("hello", b"", b"Hello, world!\n"), ("fibonacci", b"6\n", fibonacci(6)),
         ("primes", b"12", primes(12)), ("calculator", b"6*7\n-3+4 / 2\n1+\n12&10|1\n", b"42\n-1\nerror\n9\n"),
         ("forth", b"2 3 + .", b"5 ")]


@pytest.mark.parametrize("mode", ["fast", "neural"])
def test_every_program_batched(mode):
    batch = MuxleqBatch.stack([MuxleqState.load(image(name), data) for name, data, _ in SHORT])
    out = get_engine(mode).run_batch(batch, 10_000)
    assert out.halted.all()
    assert out.outputs == [want for _, _, want in SHORT]
    assert (out.steps == reference.run_batch(batch, 10_000).steps).all()


@pytest.mark.parametrize("name, data, want", [SHORT[0], ("calculator", b"6*7", b"42\n")])
def test_neural_single_machine(name, data, want):
    assert run(name, data, "neural", 20_000).output == want


def test_every_bundled_program_is_tested():
    assert {name for name, _, _ in SHORT} == set(BUNDLED)
