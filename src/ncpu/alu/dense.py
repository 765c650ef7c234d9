"""The neural ALU, laid out for speed: every circuit as a few dense matrices.

`NeuralALU` keeps each cell in its own small, shared-weight form: that is
what training fits, what `verify` enumerates cell by cell, and what the soft
(straight-through) variant differentiates. Evaluating it that way costs
dozens of tiny torch calls per operation (views, cats, per-group matmuls).

`DenseALU(alu)` re-lays the *same* weights out once, at construction: every
threshold layer of an operation becomes one `addmm` (input bits @ W + bias)
followed by one `heaviside`, with the wiring between layers (group
structure, NOT b, the constant carry-in) folded into the matrices. Entries are
copies of cell weights, sums of a cell weight and 0, or (the carry-in,
folded into a bias) a sum of two cell weights; so pre-activations equal the
cell form's up to float32 summation order, far below every verified margin.
The dense form is what the neural engine runs, and `verify` runs its
composite checks (8-bit exhaustive, 32-bit sampled) through it.

Layer counts are unchanged: ADD/SUB/NEG 3, CMP 4, AND/OR/NOT 1, XOR 2,
shifts 3, MUL 2, DIV/MOD 11, Z/N 1 (see `NeuralALU.sequential_layers`).

Two equivalent forms of ADD/SUB/CMP, chosen by batch size
(`set_batch_layout`): at small batches (the engine's one instruction at a
time) torch's per-call overhead dominates, so layer 1 is one block-diagonal
matmul; at large batches multiply-adds dominate, so it runs group by group
(no zero blocks). Same neurons, same weights, same layer counts.

MUL, DIV and MOD end in a linear read-out of the signed value with its Z and
N pre-activations (`value_zn`), not in result bits. DIV/MOD run the radix
2^(n/4) divider of the cell form at small batches, in its preallocated
3-calls-a-step form (`SmallBatchDivider`), and a radix-8 instance of the
same construction at large batches (more, narrower steps: fewer
multiply-adds); `verify` enumerates the 8-bit instance through each.

Integers enter as bits by shift-and-mask and leave by one float64 matmul
against the signed powers of two (exact: |sum| < 2^53). Those two steps
are the interface, not the circuit.
"""

from __future__ import annotations

import copy

import torch
from torch import Tensor

from ncpu.alu.alu import NeuralALU, OPS, UNARY_OPS, VALUE_OPS
from ncpu.alu.divider import RadixDivider, SmallBatchDivider
from ncpu.alu.multiplier import PAIRS


def _heaviside(pre: Tensor, zero: Tensor) -> Tensor:
    """The threshold unit: 1.0 where pre > 0, else 0.0, in place on a fresh
    pre-activation (one op; much faster than torch.heaviside on large batches)."""
    return pre.gt_(zero)


class _AdderMats:
    """One carry-select adder (given NOT b folding and carry-in) as dense layers.

    L1: c = H(X @ W1 + b1), X = [a | b] bits [B, 2n]; c [B, 2n] ordered
        (group k, carry-in hypothesis h, bit j) -> k*2g + h*g + j.
    L2: C = H(c @ W2 + b2) [B, n]: C[:, t] = carry into bit t+1.
    L3: S = H(X @ W3x + C @ W3c + b3): the sum bits.
    With `cin=None` the carry-in is a per-row input (`w2_cin`, `w3_cin`)."""

    def __init__(self, adder, invert_b: bool, cin: float | None):
        n, g, m = adder.width, adder.group_bits, adder.groups
        w = adder._weights(invert_b)
        dt = w["w1"].dtype
        col = lambda k, h, j: k * 2 * g + h * g + j  # noqa: E731
        W1 = torch.zeros(2 * n, 2 * n, dtype=dt)
        b1 = torch.zeros(2 * n, dtype=dt)
        for k in range(m):
            for h in range(2):
                cols = slice(col(k, h, 0), col(k, h, 0) + g)
                W1[k * g:(k + 1) * g, cols] = w["w1"][:g]
                W1[n + k * g:n + (k + 1) * g, cols] = w["w1"][g:]
                b1[cols] = w["bias1"][h]
        W2 = torch.zeros(2 * n, n, dtype=dt)
        b2 = torch.zeros(n, dtype=dt)
        w2_cin = torch.zeros(1, n, dtype=dt)
        for k in range(m):
            for j in range(g):
                t = k * g + j
                W2[col(k, 0, j), t] += w["u0"][k, 0]
                W2[col(k, 1, j), t] += w["u1"][k, 0]
                for l in range(m):
                    W2[col(l, 0, g - 1), t] += w["w2"][l, k]
                    W2[col(l, 1, g - 1), t] += w["w2"][m + l, k]
                b2[t] = w["bias2"][k] + (cin or 0.0) * w["w2"][2 * m, k]
                w2_cin[0, t] = w["w2"][2 * m, k]
        w3 = w["w3"]
        W3x = torch.zeros(2 * n, n, dtype=dt)
        W3c = torch.zeros(n, n, dtype=dt)
        idx = torch.arange(n)
        W3x[idx, idx] = w3[0]
        W3x[n + idx, idx] = w3[1]
        W3c[idx[:-1], idx[1:]] = w3[2]  # carry into bit i (i >= 1) is C[i-1]
        W3c[idx, idx] = w3[3]  # carry out of bit i is C[i]
        b3 = w["bias3"].expand(n).clone()
        b3[0] = b3[0] + (cin or 0.0) * w3[2]  # carry into bit 0 is the carry-in
        w3_cin = torch.zeros(1, n, dtype=dt)
        w3_cin[0, 0] = w3[2]
        self.W1, self.b1, self.W2, self.b2, self.W3x, self.W3c, self.b3 = (
            t.contiguous() for t in (W1, b1, W2, b2, W3x, W3c, b3))
        self.w2_cin, self.w3_cin = w2_cin, w3_cin
        # Grouped layout for large batches: X_g = bits ordered (group k,
        # operand, bit j), so layer 1 is one [4B, 2g] @ [2g, 2g] matmul (the
        # block-diagonal W1 without its zero blocks: the same entries) and
        # layer 3 reads X_g through W3x with its rows permuted to match.
        self.W1g_a = W1[:g, :2 * g].contiguous()  # group 0's block: every group's (tied weights)
        self.W1g_b = W1[n:n + g, :2 * g].contiguous()
        self.b1g = b1[:2 * g].contiguous()
        self.group_bits = g


class DenseALU:
    """The circuits of a `NeuralALU`, expanded into dense layers; int64 in,
    int64 / bool out (the `TensorALU` contract)."""

    def __init__(self, alu: NeuralALU):
        self.alu = alu
        self.width = n = alu.width
        self.sequential_layers = alu.sequential_layers
        device = alu.bit_weights.device
        with torch.inference_mode(False), torch.no_grad():
            # The matrices are assembled element by element: do that on the
            # CPU (from a CPU copy of the weights), then move the results.
            self._build(copy.deepcopy(alu).to("cpu") if device.type != "cpu" else alu, n)
        self.set_batch_layout("auto")
        self.div_small = SmallBatchDivider(alu.divider)
        self.div_large = RadixDivider(n, min(self.LARGE_BATCH_DIGIT_BITS, n)).to(device)
        self.large_batch_layers = {"DIV": self.div_large.sequential_layers, "MOD": self.div_large.sequential_layers}
        for name, value in list(vars(self).items()):
            if torch.is_tensor(value):
                setattr(self, name, value.to(device).contiguous())
        for name, value in list(vars(self).items()):     # tables kept per direction
            if isinstance(value, dict) and all(torch.is_tensor(v) for v in value.values()):
                setattr(self, name, {k: v.to(device) for k, v in value.items()})
        for mats in (self.add_m, self.sub_m):
            for k, v in list(vars(mats).items()):
                if torch.is_tensor(v):
                    setattr(mats, k, v.to(device).contiguous())

    # -- construction ---------------------------------------------------------

    def _build(self, alu: NeuralALU, n: int) -> None:
        dt = alu.dtype
        self.zero = torch.zeros((), dtype=dt)
        self.shifts = torch.arange(n, dtype=torch.int32)
        signed = [float(1 << i) for i in range(n)]
        signed[-1] = -signed[-1]
        self.powers = torch.tensor(signed, dtype=torch.float64)[:, None]  # [n, 1]
        self.powers_v = self.powers[:, 0].clone()
        ad, lg, fl, sh, mul = alu.adder, alu.logic, alu.flags, alu.shifter, alu.multiplier
        self.add_m = _AdderMats(ad, False, 0.0)
        self.sub_m = _AdderMats(ad, True, 1.0)
        idx = torch.arange(n)

        def pair_cell(name):  # a per-bit cell over (a_i, b_i): [2n, n], [n]
            W = torch.zeros(2 * n, n, dtype=dt)
            W[idx, idx] = lg.w[name][0]
            W[n + idx, idx] = lg.w[name][1]
            return W, lg.b[name].expand(n).clone()

        self.and_W, self.and_b = pair_cell("and")
        self.or_W, self.or_b = pair_cell("or")
        self.xor_W, _ = pair_cell("xor")
        self.xor_Wh = torch.diag(lg.w["xor"][2].expand(n)).clone()
        self.xor_b = lg.b["xor"].expand(n).clone()
        self.not_W = torch.diag(lg.w["not"][0].expand(n)).clone()
        self.not_b = lg.b["not"].expand(n).clone()

        # Z (tied weight on every bit) and N, in float64 so that the Z
        # pre-activation is exactly popcount * w + b.
        zn = torch.zeros(n, 2, dtype=torch.float64)
        zn[:, 0] = fl.zero_w.double()
        zn[n - 1, 1] = fl.sign_w.double()
        self.zn_W = zn
        self.zn_b = torch.stack([fl.zero_b, fl.sign_b]).double()
        # Decoding plus Z/N of the result, in one matmul: [value, z pre, n pre].
        self.out_W = torch.cat([self.powers, zn], 1)
        self.out_b = torch.cat([torch.zeros(1, dtype=torch.float64), self.zn_b])
        self.zero64 = torch.zeros((), dtype=torch.float64)

        # CMP: the subtractor, plus (in layer 3) the AND neuron of V's XOR on
        # (carry into bit n-1, carry out), then one flag layer (N, Z, V).
        s = self.sub_m
        self.cmp_W3x = torch.cat([s.W3x, torch.zeros(2 * n, 1, dtype=dt)], 1)
        self.cmp_W3c = torch.cat([s.W3c, torch.zeros(n, 1, dtype=dt)], 1)
        self.cmp_W3c[n - 2, n] = lg.w["and"][0]
        self.cmp_W3c[n - 1, n] = lg.w["and"][1]
        self.cmp_b3 = torch.cat([s.b3, lg.b["and"].reshape(1)])
        W4s = torch.zeros(n + 1, 3, dtype=dt)  # columns: N, Z, V
        W4s[n - 1, 0] = fl.sign_w
        W4s[:n, 1] = fl.zero_w
        W4s[n, 2] = lg.w["xor"][2]
        W4c = torch.zeros(n, 3, dtype=dt)
        W4c[n - 2, 2] = lg.w["xor"][0]
        W4c[n - 1, 2] = lg.w["xor"][1]
        self.cmp_W4s, self.cmp_W4c = W4s, W4c
        self.cmp_b4 = torch.stack([fl.sign_b, fl.zero_b, lg.b["xor"]])

        # Shifter: "amount >= n" neuron, then the decoder (n+1 neurons), then
        # hard attention: the one-hot query selects a routing row, i.e. each
        # output position copies the source its argmax names (n = fill).
        k = sh.amount_bits
        Wh = torch.zeros(n, 1, dtype=dt)
        Wh[k:, 0] = sh.high_w
        self.sh_Wh, self.sh_bh = Wh, sh.high_b.reshape(1).clone()
        Wd = torch.zeros(n, n + 1, dtype=dt)
        Wd[:k] = sh.decode_w[:, :k].t()
        self.sh_Wd, self.sh_Wdh = Wd, sh.decode_w[:, k:k + 1].t().clone()
        self.sh_bd = sh.decode_b.clone()
        self.sh_query_index = torch.arange(n + 1, dtype=dt)[:, None]
        # Sources index the operand bits [B, n] followed by the fill column.
        self.sh_src = {d: getattr(sh, f"route_{d}").argmax(-1) for d in ("left", "right")}  # [n+1, n]
        self._build_mul(mul)

    def _build_mul(self, mul) -> None:
        """MUL: the product table (hard, float64), the lookup index of the 10
        digit pairs from the operands [B, 2] in 3 ops, and layer 2 as one
        addmm whose column 0 is the sum V itself (see multiplier.py):
        pre = [V | V - thresholds] = P @ (place x 1) - [0 | thresholds]."""
        d = mul.digit_bits
        self.mul_table = mul.table().to(torch.float64)
        pair_a = torch.tensor([a for a, _, _ in PAIRS])
        pair_b = torch.tensor([b for _, b, _ in PAIRS])
        self.mul_index_shifts = (torch.stack([pair_a, pair_b]) * d).to(torch.int64)  # [2, 10]
        self.mul_index_scale = torch.tensor([[1 << d], [1]], dtype=torch.int64)
        self.mul_digit_mask = (1 << d) - 1
        units = 1 + mul.thresholds.shape[0]
        self.mul_W = mul.place[:, None].expand(-1, units).contiguous()
        self.mul_b = torch.cat([torch.zeros(1, dtype=torch.float64), -mul.thresholds])
        self.mul_w_out, self.mul_b_out = mul.w_out.clone(), mul.b_out.clone()

    # -- batch-size dependent forms -------------------------------------------

    SMALL_BATCH_OPS = ("ADD", "SUB", "CMP", "DIV", "MOD")
    LARGE_BATCH_DIGIT_BITS = 3  # the divider's radix at large batches (2^3 comparisons a step)

    def set_batch_layout(self, layout: str = "auto") -> DenseALU:
        """Which of the two equivalent forms of ADD/SUB/CMP, MUL and DIV/MOD
        runs: 'auto' (by batch size: the fewest torch calls for small batches,
        the fewest multiply-adds for large ones), 'small' or 'large' (every
        batch, so `verify` can enumerate each form)."""
        limits = {"auto": (256, 64), "small": (1 << 62, 1 << 62), "large": (-1, -1)}
        if layout not in limits:
            raise ValueError(f"batch layout must be one of {', '.join(limits)}, not {layout!r}")
        self.group_batch, self.div_narrow_batch = limits[layout]
        self.layout = layout
        return self

    # -- the interface: bits in, integers out --------------------------------

    def bits(self, x: Tensor) -> Tensor:
        """Signed 32-bit values in int64 [...] -> bits [..., n] (LSB first)."""
        return ((x.to(torch.int32).unsqueeze(-1) >> self.shifts) & 1).to(self.zero.dtype)

    def bits2(self, ab: Tensor) -> Tensor:
        """Operand pairs int64 [B, 2] -> [a | b] bits [B, 2n]."""
        return self.bits(ab).view(ab.shape[0], 2 * self.width)

    def bits2_split(self, ab: Tensor) -> Tensor:
        """Operand pairs int64 [B, 2] -> bits [2, B, n] (a's, then b's): the
        input layout of `add_bits_grouped` (no more work than `bits2`)."""
        return self.bits(ab.t().contiguous())

    def decode(self, bits: Tensor) -> Tensor:
        return torch.mv(bits.to(torch.float64), self.powers_v).to(torch.int64)

    # -- circuits on bits ----------------------------------------------------

    def add_bits(self, X: Tensor, M: _AdderMats) -> tuple[Tensor, Tensor]:
        """The three adder layers. X = [a | b] bits [B, 2n] -> (sum, carries C)."""
        H, z = _heaviside, self.zero
        c = H(torch.addmm(M.b1, X, M.W1), z)
        C = H(torch.addmm(M.b2, c, M.W2), z)
        return H(torch.addmm(torch.addmm(M.b3, X, M.W3x), C, M.W3c), z), C

    def add_bits_grouped(self, Xs: Tensor, M: _AdderMats) -> tuple[Tensor, Tensor]:
        """`add_bits` on split operands Xs = [a bits, b bits] [2, B, n]: the
        same neurons, layer 1 evaluated group by group ([4B, g] @ [g, 2g] per
        operand: the block-diagonal W1 without its zero blocks, 4x fewer
        multiply-adds), layer 3 as a's rows plus b's rows of W3x."""
        H, z, B, n = _heaviside, self.zero, Xs.shape[1], self.width
        xa, xb = Xs[0], Xs[1]
        pre = torch.addmm(torch.addmm(M.b1g, xa.view(-1, M.group_bits), M.W1g_a), xb.view(-1, M.group_bits), M.W1g_b)
        c = H(pre, z).view(B, -1)
        C = H(torch.addmm(M.b2, c, M.W2), z)
        pre = torch.addmm(torch.addmm(torch.addmm(M.b3, xa, M.W3x[:n]), xb, M.W3x[n:]), C, M.W3c)
        return H(pre, z), C

    def shift_bits(self, X: Tensor, direction: str, arithmetic: bool) -> Tensor:
        """X = [x | amount] bits [B, 2n] -> x shifted."""
        H, z, n = _heaviside, self.zero, self.width
        amount = X[:, n:]
        high = H(torch.addmm(self.sh_bh, amount, self.sh_Wh), z)
        query = H(torch.addmm(torch.addmm(self.sh_bd, amount, self.sh_Wd), high, self.sh_Wdh), z)
        row = (query @ self.sh_query_index).squeeze(1).to(torch.int64)  # the one-hot's index
        source = self.sh_src[direction].index_select(0, row)  # [B, n]
        fill = X[:, n - 1:n] if arithmetic else torch.zeros_like(X[:, :1])
        return torch.cat([X[:, :n], fill], 1).gather(1, source)

    def mul_zn(self, ab: Tensor) -> Tensor:
        """a * b for operands int64 [B, 2] -> [value, Z pre, N pre] float64 [B, 3]:
        the lookup, layer 2 (thresholds in place on columns 1.. of one addmm),
        the read-out."""
        B = ab.shape[0]
        digits = (ab.unsqueeze(-1) >> self.mul_index_shifts) & self.mul_digit_mask  # [B, 2, 10]
        index = (digits * self.mul_index_scale).sum(1)  # [B, 10]
        P = self.mul_table.index_select(0, index.view(-1)).view(B, -1)  # [B, 20d]
        pre = torch.addmm(self.mul_b, P, self.mul_W)
        pre[:, 1:].gt_(self.zero64)
        return torch.addmm(self.mul_b_out, pre, self.mul_w_out)

    def divide_zn(self, op: str, ab: Tensor) -> Tensor:
        """DIV or MOD of operands int64 [B, 2] -> [value, Z pre, N pre] float64
        [B, 3]: the radix-2^k divider, k = n/4 at small batches (4 steps, fewest
        torch calls) and k = 3 at large ones (fewest multiply-adds)."""
        x = ab.to(torch.float64)
        if ab.shape[0] <= self.div_narrow_batch:
            return self.div_small(x, op)
        out = self.div_large(x)
        return out[:, :3] if op == "DIV" else out[:, 3:]

    def value_zn(self, op: str, ab: Tensor) -> Tensor:
        return self.mul_zn(ab) if op == "MUL" else self.divide_zn(op, ab)

    def op_bits(self, op: str, a: Tensor, b: Tensor | None = None) -> Tensor:
        """Bits [B, n] -> result bits [B, n]: the dense circuits on bit inputs."""
        H, z = _heaviside, self.zero
        if op in UNARY_OPS:
            if op == "NOT":
                return H(torch.addmm(self.not_b, a, self.not_W), z)
            M = self.sub_m  # NEG = 0 + NOT a + 1: only the b rows of the subtractor
            c = H(torch.addmm(M.b1, a, M.W1[self.width:]), z)
            C = H(torch.addmm(M.b2, c, M.W2), z)
            return H(torch.addmm(torch.addmm(M.b3, a, M.W3x[self.width:]), C, M.W3c), z)
        if op in VALUE_OPS:
            raise ValueError(f"{op} ends in a value read-out: use compute() or compute_zn()")
        return self._binary_bits(op, torch.cat([a, b], 1))

    def _binary_bits(self, op: str, X: Tensor) -> Tensor:
        H, z = _heaviside, self.zero
        if op == "ADD":
            return self.add_bits(X, self.add_m)[0]
        if op == "SUB":
            return self.add_bits(X, self.sub_m)[0]
        if op == "AND":
            return H(torch.addmm(self.and_b, X, self.and_W), z)
        if op == "OR":
            return H(torch.addmm(self.or_b, X, self.or_W), z)
        if op == "XOR":
            h = H(torch.addmm(self.and_b, X, self.and_W), z)
            return H(torch.addmm(torch.addmm(self.xor_b, X, self.xor_W), h, self.xor_Wh), z)
        if op == "SHL":
            return self.shift_bits(X, "left", False)
        if op == "SHR":
            return self.shift_bits(X, "right", False)
        if op == "SAR":
            return self.shift_bits(X, "right", True)
        raise ValueError(f"unknown ALU op {op!r}; expected one of {', '.join(OPS)}")

    def result_bits(self, op: str, ab: Tensor) -> Tensor:
        """Operands int64 [B, 2] (a, b; b ignored by NOT/NEG) -> result bits [B, n]."""
        if op in UNARY_OPS:
            return self.op_bits(op, self.bits(ab[:, 0]))
        if op in VALUE_OPS:
            raise ValueError(f"{op} ends in a value read-out: use compute() or compute_zn()")
        if op not in OPS:
            raise ValueError(f"unknown ALU op {op!r}; expected one of {', '.join(OPS)}")
        if op in ("ADD", "SUB") and ab.shape[0] > self.group_batch:
            return self.add_bits_grouped(self.bits2_split(ab), self.add_m if op == "ADD" else self.sub_m)[0]
        return self._binary_bits(op, self.bits2(ab))

    @staticmethod
    def pair(a: Tensor, b: Tensor | None) -> Tensor:
        return torch.stack([a, a if b is None else b], 1)

    # -- the TensorALU contract ------------------------------------------------

    def compute(self, op: str, a: Tensor, b: Tensor | None = None) -> Tensor:
        if op in VALUE_OPS:
            return self.value_zn(op, self.pair(a, b))[:, 0].to(torch.int64)
        return self.decode(self.result_bits(op, self.pair(a, b)))

    def compute_zn(self, op: str, ab: Tensor) -> Tensor:
        """(value, Z pre, N pre) float64 [B, 3] of `op` on operands [B, 2]:
        the result bits are decoded and its Z and N neurons evaluated in one
        matmul (value exact: |sum| < 2^53); MUL, DIV and MOD have that read-out
        built in."""
        if op in VALUE_OPS:
            return self.value_zn(op, ab)
        return torch.addmm(self.out_b, self.result_bits(op, ab).to(torch.float64), self.out_W)

    def compare_flags(self, ab: Tensor) -> Tensor:
        """Flags of a - b, operands int64 [B, 2], as 0/1 floats [B, 4]: N Z C V."""
        H, z, M, n = _heaviside, self.zero, self.sub_m, self.width
        if ab.shape[0] > self.group_batch:  # layer 1 group by group (see `add_bits_grouped`)
            Xs = self.bits2_split(ab)
            xa, xb, g = Xs[0], Xs[1], M.group_bits
            pre = torch.addmm(torch.addmm(M.b1g, xa.view(-1, g), M.W1g_a), xb.view(-1, g), M.W1g_b)
            C = H(torch.addmm(M.b2, H(pre, z).view(ab.shape[0], -1), M.W2), z)
            pre = torch.addmm(torch.addmm(self.cmp_b3, xa, self.cmp_W3x[:n]), xb, self.cmp_W3x[n:])
        else:
            X = self.bits2(ab)
            C = H(torch.addmm(M.b2, H(torch.addmm(M.b1, X, M.W1), z), M.W2), z)
            pre = torch.addmm(self.cmp_b3, X, self.cmp_W3x)
        S = H(torch.addmm(pre, C, self.cmp_W3c), z)
        nzv = H(torch.addmm(torch.addmm(self.cmp_b4, S, self.cmp_W4s), C, self.cmp_W4c), z)
        return torch.cat([nzv[:, :2], C[:, n - 1:], nzv[:, 2:]], 1)

    def compare(self, a: Tensor, b: Tensor) -> tuple[Tensor, Tensor, Tensor, Tensor]:
        return (self.compare_flags(torch.stack([a, b], 1)) > 0.5).unbind(1)

    def zero_negative_pre(self, value: Tensor) -> Tensor:
        bits = ((value.to(torch.int32).unsqueeze(-1) >> self.shifts) & 1).to(torch.float64)
        return torch.addmm(self.zn_b, bits, self.zn_W)

    def zero_negative(self, value: Tensor) -> tuple[Tensor, Tensor]:
        return (self.zero_negative_pre(value) > 0).unbind(1)


__all__ = ["DenseALU"]
