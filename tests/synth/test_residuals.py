"""Divide and conquer from the target: every layer's undo inverts its build
(checked by evaluating the built term), and enumeration finds a program
whose last steps use a subterm twice (`x ^ v ^ (v << 4)`), which as a tree
is too large to enumerate in a test's time."""

import random

import numpy as np
import pytest
from synth_helpers import spec_of

from ncpu.isa.semantics import wrap
from ncpu.synth import residuals as R
from ncpu.synth import solve_in_process
from ncpu.synth import terms as T
from ncpu.synth import vecops
from ncpu.synth.verify import outputs_on


def _columns(rng, n=40):
    v = np.array([wrap(rng.getrandbits(32)) for _ in range(n)], np.int64)
    amounts = np.array([rng.randint(1, 31) for _ in range(n)], np.int64)
    odd = np.array([wrap(rng.getrandbits(32) | 1) for _ in range(n)], np.int64)
    return v, amounts, odd


@pytest.mark.parametrize("layer", R.LAYERS, ids=lambda layer: layer.name)
def test_undo_inverts_build(layer):
    rng = random.Random(layer.name)
    v, amounts, odd = _columns(rng)
    leaf = amounts if layer.name in ("XSHL", "XSHR", "ASHL", "SSHL") else odd
    registers = np.zeros((8, len(v)), np.int64)
    registers[0], registers[1] = v, leaf
    built = T.evaluate(layer.build(T.inp(0), T.inp(1)), registers)
    assert (layer.undo(built, leaf) == v).all()


def test_layers_refuse_what_they_cannot_undo():
    t = np.array([5, 6, 7], np.int64)
    mul = next(layer for layer in R.LAYERS if layer.name == "MUL")
    xshl = next(layer for layer in R.LAYERS if layer.name == "XSHL")
    assert mul.undo(t, np.array([3, 4, 5])) is None  # 4 has no inverse mod 2^32
    assert xshl.undo(t, np.array([1, 0, 2])) is None  # a shift by 0 is not a bijection


def test_residuals_two_layers_deep_rebuild_the_target():
    rng = random.Random(3)
    v, amounts, _ = _columns(rng)
    x = np.array([wrap(rng.getrandbits(32)) for _ in range(len(v))], np.int64)
    target = x ^ v ^ vecops.shl(v, amounts)
    leaves = [T.inp(0), T.inp(1), T.const(1)]
    res = R.residuals(target, leaves, np.stack([x, amounts, np.ones_like(x)]), {"XOR", "SHL", "ADD"})
    hit = [i for i in range(len(res.costs)) if (res.values[i] == v).all()]
    assert hit and min(res.costs[i] for i in hit) == 5
    i = min(hit, key=lambda i: res.costs[i])
    registers = np.zeros((8, len(v)), np.int64)
    registers[0], registers[1], registers[2] = x, amounts, v
    assert (T.evaluate(res.rebuild(i, T.inp(2), leaves), registers) == target).all()


def test_enumeration_meets_a_shared_subterm_behind_two_layers():
    def f(x, y):
        v = wrap((y & 0xFFFFFFFF) >> 3)
        return wrap(x ^ v ^ (v << 4))

    rng = random.Random(7)
    inputs = [(wrap(rng.getrandbits(32)), wrap(rng.getrandbits(32))) for _ in range(16)]
    spec = spec_of(f, inputs)
    result = solve_in_process(spec, "enumerative", 60, engine="reference")
    assert result.solved
    unseen = [[wrap(rng.getrandbits(32)), wrap(rng.getrandbits(32))] for _ in range(200)]
    assert [row[1] for row in outputs_on(result.asm, spec, unseen, "reference")] == [f(*xs) for xs in unseen]
