"""The oracles `ncpu discover` can ask (`synth/oracle.py`): a Python
expression over the input registers (`--oracle`), or the person at the
terminal (`--ask`)."""

from __future__ import annotations

import sys

from ncpu.cli import CommandError


def expression_oracle(text: str, inputs: tuple[int, ...]):
    """`text` is evaluated with each input register bound by its lower-case
    name (`r0`, `r1`, ...), signed 32-bit; `u(v)` reads a value unsigned.
    It is the user's own code on their own command line, run as Python.
    An input it cannot compute (division by zero, a negative shift count)
    is skipped (`NoAnswer`): another input is asked instead."""
    from ncpu.synth.oracle import NoAnswer

    try:
        code = compile(text, "--oracle", "eval")
    except SyntaxError as error:
        raise CommandError(f"--oracle: not a Python expression: {error.msg}") from None
    names = [f"r{r}" for r in inputs]

    def oracle(values: tuple[int, ...]):
        scope = dict(zip(names, values), u=lambda v: v & 0xFFFFFFFF)
        try:
            return eval(code, scope)  # noqa: S307 - the user's expression, see the docstring
        except (ArithmeticError, ValueError) as error:
            raise NoAnswer(str(error)) from None
        except Exception as error:  # noqa: BLE001 - any failure of their expression is one line
            raise CommandError(f"--oracle: {type(error).__name__} on {dict(zip(names, values))}: {error}") from None

    return oracle


def prompt_oracle(inputs: tuple[int, ...], outputs: tuple[int, ...]):
    """Asks on stderr, reads the answer from stdin (blank line or end of
    input: no answer, the search stops asking)."""
    from ncpu.isa.assembler import parse_integer

    def oracle(values: tuple[int, ...]):
        shown = ", ".join(f"R{r}={v}" for r, v in zip(inputs, values))
        wanted = ",".join(f"R{r}" for r in outputs)
        while True:
            print(f"\nfitting programs disagree: what is {wanted} for {shown}? ", end="", file=sys.stderr, flush=True)
            line = sys.stdin.readline()
            if not line.strip():
                return None
            got = [parse_integer(p) for p in line.replace(",", " ").split()]
            if None not in got and len(got) == len(outputs):
                return got
            print(f"expected {len(outputs)} integer(s)", file=sys.stderr)

    return oracle


def seed_examples(oracle, inputs: tuple[int, ...], count: int) -> list[tuple[list[int], object]]:
    """Examples from the oracle alone (no --example given): (inputs, its
    answer) on the first `count` probe inputs it can answer (0, 1, -1,
    INT_MIN, INT_MAX, then edge values, small numbers and random words
    mixed)."""
    from types import SimpleNamespace

    from ncpu.synth.oracle import NoAnswer
    from ncpu.synth.verify import probe_inputs

    examples = []
    for row in probe_inputs(SimpleNamespace(inputs=inputs, examples=()), 4 * count, seed=1):
        try:
            examples.append((row, oracle(tuple(row))))
        except NoAnswer:
            continue
        if len(examples) == count:
            break
    if not examples:
        raise CommandError("--oracle: the expression answers none of the probe inputs")
    return examples
