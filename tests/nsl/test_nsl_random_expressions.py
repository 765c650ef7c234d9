"""Random expressions, compiled and run on the machine vs the reading interpreter.

Every operator, constants of every size (immediate forms, wide MOVs), the
edge values of the ISA as inputs, and calls with a side effect on a global
(so that evaluation order matters: left before right, short-circuits).
"""

from __future__ import annotations

import random

import pytest

from ncpu.isa.semantics import EDGE_VALUES
from ncpu.nsl.interpreter import interpret
from ncpu.pipeline.stages import build, execute

BINARY = ["+", "-", "*", "/", "%", "&", "|", "^", "<<", ">>", ">>>", "==", "!=", "<", "<=", ">", ">=", "&&", "||"]
UNARY = ["-", "~", "!"]
CONSTANTS = [0, 1, 2, 3, 7, 31, 32, 100, -1, -5, 16383, -16384, 16384, 65535, 1 << 20, -(1 << 31), (1 << 31) - 1]


def expression(rng: random.Random, depth: int) -> str:
    if depth == 0 or rng.random() < 0.2:
        choice = rng.random()
        if choice < 0.45:
            return rng.choice("abc")
        if choice < 0.6:
            return "g"
        if choice < 0.7:
            return f"t[{rng.randrange(4)}]"
        return str(rng.choice(CONSTANTS)).replace("-", "- ") if rng.random() < 0.1 else f"({rng.choice(CONSTANTS)})"
    kind = rng.random()
    if kind < 0.12:
        return f"{rng.choice(UNARY)}({expression(rng, depth - 1)})"
    if kind < 0.22:
        return f"bump({expression(rng, depth - 1)})"
    if kind < 0.3:
        return f"({expression(rng, depth - 1)} ? {expression(rng, depth - 1)} : {expression(rng, depth - 1)})"
    if kind < 0.36:
        return f"t[({expression(rng, depth - 1)}) & 3]"
    return f"({expression(rng, depth - 1)} {rng.choice(BINARY)} {expression(rng, depth - 1)})"


def program(seed: int, count: int = 25) -> str:
    rng = random.Random(seed)
    lines = [f"    print({expression(rng, 4)}, \"\\n\");" for _ in range(count)]
    return ("int g = 3;\nint t[4] = {5, -7, 11, 0x7FFFFFFF};\n"
            "int bump(int v) { g = g * 3 + 1; return v ^ g; }\n"
            "int main(int a, int b, int c) {\n" + "\n".join(lines) + "\n    return g;\n}\n")


@pytest.mark.parametrize("seed", range(6))
def test_random_expressions_compile_to_what_the_interpreter_computes(seed):
    source = program(seed)
    rng = random.Random(1000 + seed)
    args = [rng.choice(EDGE_VALUES) for _ in range(3)]
    expected = interpret(source, args)
    built = build(source)
    for engine in ("reference", "compute"):
        run = execute(built, args, engine, max_steps=2_000_000)
        assert run.output == expected.output, engine
        assert run.exit_status == expected.status, engine


def test_the_generator_covers_every_operator():
    text = "".join(program(seed) for seed in range(6))
    for op in BINARY:
        assert f" {op} " in text, op
    assert "bump(" in text and " ? " in text and "t[(" in text
