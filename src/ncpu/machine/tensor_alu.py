"""The ALU the tensor engine calls for every piece of arithmetic and every flag.

`ncpu.machine.fast` never computes a result or a flag itself: it gathers
operands, calls a `TensorALU`, and scatters what comes back. Swapping in a
subclass whose methods run neural circuits turns the same engine into the
neural engine, with nothing copied.
"""

from __future__ import annotations

from ncpu.alu.exact import ExactALU
from ncpu.isa.semantics import BINARY_OPS, OPS, UNARY_OPS

__all__ = ["BINARY_OPS", "OPS", "TensorALU", "UNARY_OPS"]


class TensorALU(ExactALU):
    """Exact 32-bit arithmetic on batches, as native torch ops (`ExactALU`
    at n = 32: the restatement of `ncpu.isa.semantics` that the neural
    ALU is verified against).

    Interface (what a neural subclass overrides; keep the contracts):

    * ``compute(op, a, b) -> Tensor``: ``op`` is one of ``OPS``. ``a`` and
      ``b`` are int64 tensors of the same shape ``[K]`` (K machines that run
      that op this step, on the engine's device) holding signed 32-bit
      values; ``b`` is ``None`` for the unary ops NOT and NEG. Returns int64
      ``[K]``, the signed 32-bit result, exactly as
      ``ncpu.isa.semantics`` defines it (wrapping; x/0 = 0,
      INT_MIN/-1 = INT_MIN; x%0 = x; shift amounts are read as unsigned, so
      negative or >= 32 amounts give 0, or 0/-1 for SAR).
    * ``compare(a, b) -> (n, z, c, v)``: bool ``[K]`` each, the flags of
      ``a - b`` as ARM's SUBS sets them (C = no borrow, unsigned a >= b).
    * ``zero_negative(value) -> (z, n)``: bool ``[K]``, the flags every
      register write sets.

    The engine routes everything through these three methods: immediate
    forms pass the sign-extended immediate as ``b``; INC/DEC are ADD/SUB with
    ``b = 1``; MOVT is ``OR(SHL(imm16, 16), AND(rd, 0xFFFF))``. Only address
    arithmetic (LOAD/STORE base + offset, sp +- 1, all modulo the memory
    size; pc + 1) and the branch-condition lookup stay plain tensor code in
    the engine: they are plumbing, not the ALU. The engine calls ``compute``
    once per op present in a step, with only the machines that run it, so
    an expensive op costs nothing in steps where no machine uses it.
    """

    def __init__(self):
        super().__init__(32)
