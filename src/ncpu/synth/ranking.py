"""Which of two verified programs to prefer: Occam's razor as a total order.

Every program returned fits the examples; when several do, the simplest is
the one most likely meant (and the one a reader checks fastest). Simplest
means, in this order:

1. fewer instructions (the trailing HALT not counted);
2. cheaper operations: a multiply, divide or remainder weighs more than an
   add, shift or logic operation (they are the components a program fits
   examples with by accident: a DIV of the inputs fits 24 examples of
   nlz(x) < nlz(y), and `x & MULHU(x, -1)` computes what `x & (x - 1)`
   does in six times the instructions);
3. fewer constants written in it (a constant tuned to the examples is the
   other way a program fits them by chance);
then the one verified first (an exact tie: `SAR R0, R0, 31` and its
immediate form `SARI`).
"""

from __future__ import annotations

import re

from ncpu.synth.verify import count_instructions

# Operation weights (anything else weighs 1): by how often such a component
# makes a program fit examples without meaning it, roughly as a processor
# prices them.
OP_WEIGHT = {"MUL": 3, "DIV": 4, "MOD": 4}

_LITERAL = re.compile(r"(?<![\w])-?(?:0[xX][0-9a-fA-F]+|\d+)\b")  # a number, not a register's digits


def literals(asm: str) -> int:
    """Constants written in a program (immediates and MOV values)."""
    return sum(len(_LITERAL.findall(line.partition(" ")[2])) for line in asm.splitlines())


def weight(asm: str) -> int:
    """Sum of the operation weights of its instructions (labels and HALT weigh nothing)."""
    total = 0
    for line in asm.splitlines():
        mnemonic = line.strip().partition(" ")[0].upper()
        if mnemonic and not mnemonic.endswith(":") and mnemonic != "HALT":
            total += OP_WEIGHT.get(mnemonic, 1)
    return total


def rank(asm: str) -> tuple:
    """Sort key: the smaller, the simpler (see the module text)."""
    return (count_instructions(asm), weight(asm), literals(asm))
