"""Divide and conquer from the target down: residual targets.

A program whose last steps are invertible given a leaf is found by peeling
them off the target: `T = V ^ x` needs `V = T ^ x`, `T = V ^ (V << k)`
needs the V whose xorshift is T (solved bit by bit from the low end), and
`T = V * c` with c odd needs `V = T * c^-1 (mod 2^32)`. Each peeled layer
turns the target into a *residual* vector; the enumeration then looks for
the residual among its terms like any other target, so a program of
`size(V) + 2-3` nodes is found as soon as V is (V used twice, as in
`V ^ (V << k)`, costs one enumeration of V, not two).

Layers are computed on the example columns only: a residual is a vector of
outputs V must produce, nothing more. Two layers deep: the swap of two bit
fields `x ^ t ^ (t << k)` (Hacker's Delight P19) is `t` behind an XOR with
the input and a left xorshift.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ncpu.synth import terms as T
from ncpu.synth import vecops

MASK = np.uint64(0xFFFFFFFF)


def _odd_inverse(a: np.ndarray) -> np.ndarray | None:
    """a^-1 mod 2^32 per column (Newton's iteration), or None if some a is even."""
    u = a.astype(np.uint64) & MASK
    if not (u & np.uint64(1)).all():
        return None
    inv = u.copy()
    for _ in range(5):  # each step doubles the correct low bits: 3 -> 6 -> ... -> 96
        inv = (inv * (np.uint64(2) - u * inv)) & MASK
    return vecops.wrap(inv.astype(np.int64))


def _shift_amounts(k: np.ndarray) -> bool:
    return bool(((k >= 1) & (k <= 31)).all())


def _undo_xorshift(t: np.ndarray, k: np.ndarray, shift) -> np.ndarray | None:
    """The V with V ^ shift(V, k) == t (k in 1..31 in every column)."""
    if not _shift_amounts(k):
        return None
    v = t
    for _ in range(32):  # each round fixes at least k more bits
        v = t ^ shift(v, k)
    return v


def _undo_scale(t: np.ndarray, factor: np.ndarray) -> np.ndarray | None:
    inv = _odd_inverse(factor)
    return None if inv is None else vecops.wrap(t * inv)


def _one_plus_shift(k):
    return vecops.wrap(1 + vecops.shl(np.ones_like(k), k))


def _one_minus_shift(k):
    return vecops.wrap(1 - vecops.shl(np.ones_like(k), k))


@dataclass(frozen=True)
class Layer:
    """`T = build(V, L)`; `undo(T, L)` is V (or None when not invertible there);
    `cost` is the nodes the layer adds to V's size (its ops and the leaf)."""
    name: str
    undo: Callable
    build: Callable
    cost: int


LAYERS = (
    Layer("XOR", lambda t, l: t ^ l, lambda v, l: T.binary("XOR", v, l), 2),
    Layer("ADD", lambda t, l: vecops.wrap(t - l), lambda v, l: T.binary("ADD", v, l), 2),
    Layer("SUB", lambda t, l: vecops.wrap(t + l), lambda v, l: T.binary("SUB", v, l), 2),
    Layer("RSUB", lambda t, l: vecops.wrap(l - t), lambda v, l: T.binary("SUB", l, v), 2),
    Layer("MUL", lambda t, l: _undo_scale(t, l), lambda v, l: T.binary("MUL", v, l), 2),
    Layer("XSHL", lambda t, l: _undo_xorshift(t, l, vecops.shl),
          lambda v, l: T.binary("XOR", v, T.binary("SHL", v, l)), 3),
    Layer("XSHR", lambda t, l: _undo_xorshift(t, l, vecops.shr),
          lambda v, l: T.binary("XOR", v, T.binary("SHR", v, l)), 3),
    Layer("ASHL", lambda t, l: _undo_scale(t, _one_plus_shift(l)) if _shift_amounts(l) else None,
          lambda v, l: T.binary("ADD", v, T.binary("SHL", v, l)), 3),
    Layer("SSHL", lambda t, l: _undo_scale(t, _one_minus_shift(l)) if _shift_amounts(l) else None,
          lambda v, l: T.binary("SUB", v, T.binary("SHL", v, l)), 3),
    Layer("NOT", lambda t, l: ~t, lambda v, l: T.unary("NOT", v), 1),
    Layer("NEG", lambda t, l: vecops.wrap(-t), lambda v, l: T.unary("NEG", v), 1),
)
UNARY_LAYERS = {"NOT", "NEG"}
# The ops each layer's program uses (a layer is offered only when the spec allows them).
LAYER_OPS = {"XOR": {"XOR"}, "ADD": {"ADD"}, "SUB": {"SUB"}, "RSUB": {"SUB"}, "MUL": {"MUL"},
             "XSHL": {"XOR", "SHL"}, "XSHR": {"XOR", "SHR"}, "ASHL": {"ADD", "SHL"},
             "SSHL": {"SUB", "SHL"}, "NOT": {"NOT"}, "NEG": {"NEG"}}


@dataclass
class Residuals:
    """Residual targets of one target: `values[i]` (example columns) is what
    a term V must produce so that `rebuild(i, V)` produces the target."""
    values: np.ndarray  # [n, E]
    steps: list  # per residual: ((layer, leaf index or None), ...) outermost first
    costs: np.ndarray  # [n] nodes the layers add to V

    def rebuild(self, i: int, v: T.Term, leaves: list[T.Term]) -> T.Term:
        for layer, leaf in reversed(self.steps[i]):
            v = layer.build(v, None if leaf is None else leaves[leaf])
        return v


def residuals(target: np.ndarray, leaves: list[T.Term], leaf_values: np.ndarray, ops: set[str],
              depth: int = 2) -> Residuals:
    """Every residual of `target` (its example columns) behind at most
    `depth` layers whose leaf is one of `leaves` (inputs and constants;
    `leaf_values` their example columns). Each layer is undone on the whole
    previous level at once (one numpy pass per layer and leaf)."""
    layers = [layer for layer in LAYERS if LAYER_OPS[layer.name] <= ops]
    choices = [i for i, t in enumerate(leaves) if t.kind != "load"]  # inputs, constants, promoted terms
    level_values, level_steps, level_costs = target[None, :], [()], np.zeros(1, np.int64)
    all_values, all_steps, all_costs = [], [], []
    for _ in range(depth):
        values, steps, costs = [], [], []
        for layer in layers:
            for li in ([None] if layer.name in UNARY_LAYERS else choices):
                with np.errstate(over="ignore"):
                    v = layer.undo(level_values, None if li is None else leaf_values[li])
                if v is None:
                    continue
                values.append(v)
                steps += [s + ((layer, li),) for s in level_steps]
                costs.append(level_costs + layer.cost)
        if not values:
            break
        level_values, level_steps, level_costs = np.concatenate(values), steps, np.concatenate(costs)
        all_values.append(level_values); all_steps += steps; all_costs.append(level_costs)
    if not all_values:
        return Residuals(np.zeros((0, len(target)), np.int64), [], np.zeros(0, np.int64))
    return Residuals(np.concatenate(all_values), all_steps, np.concatenate(all_costs))
