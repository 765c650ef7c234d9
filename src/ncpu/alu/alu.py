"""The neural ALU: every nCPU operation as a composition of the circuits.

`NeuralALU(width)` holds the trained (or constructed) circuits for one word
width and exposes each operation twice: on bit tensors (`op_bits`, what
the proofs enumerate and what gradients flow through) and on signed
integers held in int64 (`compute`, `compare`, `zero_negative`: the
`TensorALU` contract the machine engines call).
"""

from __future__ import annotations

import torch
from torch import Tensor, nn

from ncpu.alu.adder import CarrySelectAdder
from ncpu.alu.divider import RadixDivider
from ncpu.alu.flags import FlagNeurons
from ncpu.alu.logic import LogicCells
from ncpu.alu.multiplier import DigitProductMultiplier
from ncpu.alu.shifter import ShiftRouter

BINARY_OPS = ("ADD", "SUB", "MUL", "DIV", "MOD", "AND", "OR", "XOR", "SHL", "SHR", "SAR")
# Ops whose circuits end in a linear read-out of the signed value (with its Z
# and N pre-activations) instead of result bits: see multiplier.py, divider.py.
VALUE_OPS = ("MUL", "DIV", "MOD")
UNARY_OPS = ("NOT", "NEG")
OPS = BINARY_OPS + UNARY_OPS


class NeuralALU(nn.Module):
    def __init__(self, width: int = 32, dtype: torch.dtype = torch.float32):
        super().__init__()
        self.width = width
        self.dtype = dtype
        self.adder = CarrySelectAdder(width)
        self.logic = LogicCells()
        self.flags = FlagNeurons(width)
        self.shifter = ShiftRouter(width)
        self.multiplier = DigitProductMultiplier(width)
        self.divider = RadixDivider(width)
        weights = [1 << i for i in range(width)]
        weights[-1] = -weights[-1]  # two's complement: the top bit weighs -2^(n-1)
        self.register_buffer("bit_shifts", torch.arange(width), persistent=False)
        self.register_buffer("bit_weights", torch.tensor(weights), persistent=False)

    def analytic_(self) -> NeuralALU:
        for module in (self.adder, self.logic, self.flags, self.shifter, self.multiplier):
            module.analytic_()
        return self

    # -- the encoding (an interface, not a circuit) --------------------------

    def to_bits(self, x: Tensor) -> Tensor:
        """Signed (or unsigned) int64 [...] -> bits [..., n], LSB first."""
        return ((x.unsqueeze(-1) >> self.bit_shifts) & 1).to(self.dtype)

    def to_int(self, bits: Tensor) -> Tensor:
        """Bits [..., n] -> signed int64 [...]."""
        return (bits.detach().to(torch.int64) * self.bit_weights).sum(-1)

    # -- operations on bits --------------------------------------------------

    def op_bits(self, op: str, a: Tensor, b: Tensor | None = None, temperature=None) -> Tensor:
        t = temperature
        if op == "ADD":
            return self.adder(a, b, 0.0, temperature=t)[0]
        if op == "SUB":
            return self.adder(a, b, 1.0, invert_b=True, temperature=t)[0]
        if op == "NEG":
            return self.adder(torch.zeros_like(a), a, 1.0, invert_b=True, temperature=t)[0]
        if op in VALUE_OPS:  # their circuits end in values: bits through the interface
            return self.to_bits(self.op_value_zn(op, a, b, t)[:, 0].detach().to(torch.int64))
        if op == "AND":
            return self.logic.AND(a, b, t)
        if op == "OR":
            return self.logic.OR(a, b, t)
        if op == "XOR":
            return self.logic.XOR(a, b, t)
        if op == "NOT":
            return self.logic.NOT(a, t)
        if op == "SHL":
            return self.shifter(a, b, "left", temperature=t)
        if op == "SHR":
            return self.shifter(a, b, "right", temperature=t)
        if op == "SAR":
            return self.shifter(a, b, "right", arithmetic=True, temperature=t)
        raise ValueError(f"unknown ALU op {op!r}; expected one of {', '.join(OPS)}")

    def op_value_zn(self, op: str, a: Tensor, b: Tensor, temperature=None) -> Tensor:
        """MUL, DIV, MOD on bits [B, n] -> [value, Z pre, N pre] float64 [B, 3]:
        the circuits' own read-out (differentiable with a temperature)."""
        if op == "MUL":
            return self.multiplier(a, b, temperature=temperature)
        if op not in ("DIV", "MOD"):
            raise ValueError(f"{op} has no value read-out; expected one of {', '.join(VALUE_OPS)}")
        x = torch.stack([self.signed_value(a), self.signed_value(b)], 1)
        out = self.divider(x, temperature=temperature)
        return out[:, :3] if op == "DIV" else out[:, 3:]

    def signed_value(self, bits: Tensor) -> Tensor:
        """Bits [B, n] -> their signed value, float64 [B] (a linear unit: exact)."""
        return bits.to(torch.float64) @ self.bit_weights.to(torch.float64)

    def compare_bits(self, a: Tensor, b: Tensor, temperature=None) -> tuple[Tensor, Tensor, Tensor, Tensor]:
        """N, Z, C, V of a - b (ARM SUBS) as 0/1 floats [B]."""
        n = self.width
        diff, carries = self.adder(a, b, 1.0, invert_b=True, temperature=temperature)
        z, neg = self.flags(diff, temperature)
        v = self.logic.XOR(carries[:, n - 1], carries[:, n], temperature)
        return neg, z, carries[:, n], v

    # -- the TensorALU contract: int64 in, int64 / bool out -----------------

    def compute(self, op: str, a: Tensor, b: Tensor | None = None) -> Tensor:
        bits_b = None if b is None else self.to_bits(b)
        if op in VALUE_OPS:
            return self.op_value_zn(op, self.to_bits(a), bits_b)[:, 0].to(torch.int64)
        return self.to_int(self.op_bits(op, self.to_bits(a), bits_b))

    def compare(self, a: Tensor, b: Tensor) -> tuple[Tensor, Tensor, Tensor, Tensor]:
        return tuple(f > 0.5 for f in self.compare_bits(self.to_bits(a), self.to_bits(b)))

    def zero_negative(self, value: Tensor) -> tuple[Tensor, Tensor]:
        z, n = self.flags(self.to_bits(value))
        return z > 0.5, n > 0.5

    def sequential_layers(self) -> dict[str, int]:
        """Threshold / lookup / routing layers one after another, per op."""
        add = CarrySelectAdder.sequential_layers
        return {
            "ADD": add, "SUB": add, "NEG": add, "INC": add, "DEC": add,
            "CMP": add + 1,  # Z needs the sum bits; V the XOR cell's second layer
            "MUL": DigitProductMultiplier.sequential_layers,
            "DIV": self.divider.sequential_layers, "MOD": self.divider.sequential_layers,
            "AND": 1, "OR": 1, "NOT": 1, "XOR": 2,
            "SHL": ShiftRouter.sequential_layers, "SHR": ShiftRouter.sequential_layers,
            "SAR": ShiftRouter.sequential_layers,
            "ZN": FlagNeurons.sequential_layers,
        }
