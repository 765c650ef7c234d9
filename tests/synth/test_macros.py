"""Larger components: MULHU's vector form is the high word of the unsigned
product, its expansion into 16-bit halves computes the same on the machine,
and enumeration solves P25 with it."""

import random
import time

import numpy as np

from ncpu.isa.semantics import EDGE_VALUES, wrap
from ncpu.synth import enumerative, macros
from ncpu.synth import terms as T
from ncpu.synth.benchmarks import load_suite
from ncpu.synth.portfolio import accept
from ncpu.synth.verify import outputs_on

from synth_helpers import spec_of


def _pairs(n=300):
    rng = random.Random(25)
    pairs = [(a, b) for a in EDGE_VALUES for b in EDGE_VALUES]
    return pairs + [(wrap(rng.getrandbits(32)), wrap(rng.getrandbits(32))) for _ in range(n)]


def _mulhu(a, b):
    return wrap(((a & 0xFFFFFFFF) * (b & 0xFFFFFFFF)) >> 32)


def test_mulhu_values_are_the_high_word_of_the_unsigned_product():
    pairs = _pairs()
    a, b = (np.array(column, np.int64) for column in zip(*pairs))
    assert macros.MACROS["MULHU"].values(a, b).tolist() == [_mulhu(x, y) for x, y in pairs]


def test_mulhu_expansion_compiles_to_machine_code_that_agrees():
    term = macros.node("MULHU", T.inp(0), T.inp(1))
    assert all(t.op != "MULHU" for t in _subterms(term))  # only nCPU operations are left
    lines = T.compile_terms({0: term}, [], (0, 1))
    assert lines is not None and len(lines) == macros.MACROS["MULHU"].length
    pairs = _pairs(100)
    spec = spec_of(_mulhu, pairs[:2])
    got = outputs_on("\n".join(lines + ["HALT"]), spec, [list(p) for p in pairs], "reference")
    assert [row[1] for row in got] == [_mulhu(*p) for p in pairs]


def _subterms(t):
    yield t
    for child in t.args:
        yield from _subterms(child)


def test_macros_stay_out_of_specs_that_restrict_opcodes_or_length():
    spec = spec_of(_mulhu, [(3, 5)], opcodes=["MUL", "ADD"])
    assert macros.allowed(spec) == []
    assert macros.allowed(spec_of(_mulhu, [(3, 5)], max_length=6)) == []
    assert macros.allowed(spec_of(_mulhu, [(3, 5)])) == ["MULHU"]


def test_enumeration_solves_mul_high_unsigned_exactly():
    problem = next(p for p in load_suite() if p.name == "hd25_mul_high_unsigned")
    lines = next(enumerative.search(problem.spec, time.monotonic() + 60))
    asm, _ = accept(lines, problem.spec, "reference")
    pairs = _pairs(200)
    assert [row[1] for row in outputs_on(asm, problem.spec, [list(p) for p in pairs], "reference")] == \
        [_mulhu(*p) for p in pairs]
