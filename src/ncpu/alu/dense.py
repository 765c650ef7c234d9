"""The neural ALU, laid out for speed: every circuit as a few dense matrices.

`NeuralALU` keeps each cell in its own small, shared-weight form: that is
what training fits, what `verify` enumerates cell by cell, and what the soft
(straight-through) variant differentiates. Evaluating it that way costs
dozens of tiny torch calls per operation (views, cats, per-group matmuls).

`DenseALU(alu)` re-lays the *same* weights out once, at construction: every
threshold layer of an operation becomes one `addmm` (input bits @ W + bias)
followed by one `heaviside`, with the wiring between layers (group
structure, NOT b, the constant carry-in, shifts of the divider's remainder,
the placement of partial products) folded into the matrices. Entries are
copies of cell weights, sums of a cell weight and 0, or (the carry-in,
folded into a bias) a sum of two cell weights; so pre-activations equal the
cell form's up to float32 summation order, far below every verified margin.
The dense form is what the neural engine runs, and `verify` runs its
composite checks (8-bit exhaustive, 32-bit sampled) through it.

Layer counts are unchanged: ADD/SUB/NEG 3, CMP 4, AND/OR/NOT 1, XOR 2,
shifts 3, MUL 10, Z/N 1 (see `NeuralALU.sequential_layers`).

Two equivalent forms, chosen by batch size (`set_batch_layout`): at small
batches (the engine's one instruction at a time) torch's per-call overhead
dominates, so MUL folds the partial-product placement into its first two
adder stages' matrices and DIV/MOD runs each restoring step as 4 addmm + 4
in-place thresholds on preallocated feature-major buffers (`_build_div`);
at large batches multiply-adds dominate, so ADD/SUB/CMP evaluate layer 1
group by group (no block-diagonal zeros) and MUL/DIV keep the gathered /
elementwise forms. Same neurons, same weights, same layer counts; `verify`
enumerates the 8-bit instance through each form.

Integers enter as bits by shift-and-mask and leave by one float64 matmul
against the signed powers of two (exact: |sum| < 2^53). Those two steps
are the interface, not the circuit.
"""

from __future__ import annotations

import torch
from torch import Tensor

from ncpu.alu.alu import NeuralALU, OPS, UNARY_OPS
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
        with torch.no_grad():
            self._build(alu, n)
        self.set_batch_layout("auto")
        for name, value in list(vars(self).items()):
            if torch.is_tensor(value):
                setattr(self, name, value.to(device).contiguous())
        for mats in (self.add_m, self.sub_m, self.add_var):
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
        g = alu.adder.group_bits
        ad, lg, fl, sh, mul = alu.adder, alu.logic, alu.flags, alu.shifter, alu.multiplier
        self.add_m = _AdderMats(ad, False, 0.0)
        self.sub_m = _AdderMats(ad, True, 1.0)
        self.add_var = _AdderMats(ad, False, None)
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
        self.cells = {name: (lg.w[name].detach().clone(), lg.b[name].detach().clone()) for name in lg.w}

        # Z (tied weight on every bit) and N, in float64 so that the Z
        # pre-activation is exactly popcount * w + b.
        zn = torch.zeros(n, 2, dtype=torch.float64)
        zn[:, 0] = fl.zero_w.double()
        zn[n - 1, 1] = fl.sign_w.double()
        self.zn_W = zn
        self.z_W, self.z_b = zn[:, :1].to(dt), fl.zero_b.reshape(1).clone()  # the divider's Z, in float32
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

        # MUL: the product table (hard), digit extraction, placement.
        d = mul.digit_bits
        self.mul_table = torch.cat([mul.table().reshape(-1, 2 * d),
                                    torch.zeros(1, 2 * d, dtype=dt)])  # last row: zeros
        self.mul_digit_shifts = torch.arange(4) * d
        self.mul_digit_mask = (1 << d) - 1
        self.mul_pair_a = torch.tensor([a for a, _, _ in PAIRS])
        self.mul_pair_b = torch.tensor([b for _, b, _ in PAIRS]) + 4
        self.mul_d = d
        self.mul_place = mul.placement.clone()  # [7n] into the products + one zero column
        self._build_div(n)
        self._build_mul(n, d)

    def _build_mul(self, n: int, d: int) -> None:
        """MUL's adder tree with the partial-product placement folded into its
        first two stages. The 10 looked-up products P [B, 20d] feed, through
        0/1 selection matrices (each product bit lands in at most one row
        position, so every entry is a single cell weight), stage 1: rows
        (0+1), (2+3), (4+5) side by side [B, 3n]; stage 2: (s01 + s23),
        (s45 + row 6) [B, 2n]; stage 3 is the plain adder on that [B, 2n]."""
        M, dt = self.add_m, self.zero.dtype
        place = self.mul_place.view(7, n)
        width = len(PAIRS) * 2 * d

        def sel(row):  # [20d, n]: product bit -> position of `row`
            S = torch.zeros(width + 1, n, dtype=dt)
            S[place[row], torch.arange(n)] = 1.0
            return S[:width]

        def blockdiag(W, k):
            return torch.block_diag(*([W] * k))

        self.mul_s1_W1 = torch.cat([sel(2 * k) @ M.W1[:n] + sel(2 * k + 1) @ M.W1[n:] for k in range(3)], 1)
        self.mul_s1_b1 = M.b1.repeat(3)
        self.mul_s1_W2, self.mul_s1_b2 = blockdiag(M.W2, 3), M.b2.repeat(3)
        self.mul_s1_W3 = torch.cat([sel(2 * k) @ M.W3x[:n] + sel(2 * k + 1) @ M.W3x[n:] for k in range(3)], 1)
        self.mul_s1_W3c, self.mul_s1_b3 = blockdiag(M.W3c, 3), M.b3.repeat(3)
        z1, z3 = torch.zeros(n, 2 * n, dtype=dt), torch.zeros(n, n, dtype=dt)
        self.mul_s2_W1S = torch.cat([torch.cat([M.W1, torch.zeros(2 * n, 2 * n, dtype=dt)], 1),
                                     torch.cat([z1, M.W1[:n]], 1)])  # [3n, 4n]
        self.mul_s2_W1P = torch.cat([torch.zeros(width, 2 * n, dtype=dt), sel(6) @ M.W1[n:]], 1)
        self.mul_s2_b1 = M.b1.repeat(2)
        self.mul_s2_W2, self.mul_s2_b2 = blockdiag(M.W2, 2), M.b2.repeat(2)
        self.mul_s2_W3S = torch.cat([torch.cat([M.W3x, torch.zeros(2 * n, n, dtype=dt)], 1),
                                     torch.cat([z3, M.W3x[:n]], 1)])  # [3n, 2n]
        self.mul_s2_W3P = torch.cat([torch.zeros(width, n, dtype=dt), sel(6) @ M.W3x[n:]], 1)
        self.mul_s2_W3c, self.mul_s2_b3 = blockdiag(M.W3c, 2), M.b3.repeat(2)
        # Digit pair p's table index: (a_k << d) | b_l, from ab [B, 2] in 3 ops.
        shifts = torch.stack([self.mul_pair_a, self.mul_pair_b - 4]) * d  # [2, 10]
        self.mul_index_shifts = shifts.to(torch.int64)
        self.mul_index_scale = torch.tensor([[1 << d], [1]], dtype=torch.int64)

    # -- batch-size dependent forms -------------------------------------------

    SMALL_BATCH_OPS = ("ADD", "SUB", "CMP", "MUL", "DIV", "MOD")

    def set_batch_layout(self, layout: str = "auto") -> DenseALU:
        """Which of the two equivalent forms of ADD/SUB/CMP, MUL and DIV/MOD
        runs: 'auto' (by batch size: the fewest torch calls for small batches,
        the fewest multiply-adds for large ones), 'small' or 'large' (every
        batch, so `verify` can enumerate each form)."""
        limits = {"auto": (256, 64, 64), "small": (1 << 62, 1 << 62, 1 << 62), "large": (-1, -1, -1)}
        if layout not in limits:
            raise ValueError(f"batch layout must be one of {', '.join(limits)}, not {layout!r}")
        self.group_batch, self.mul_narrow_batch, self.div_narrow_batch = limits[layout]
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

    def add_cin_bits(self, x: Tensor, cin: Tensor) -> Tensor:
        """x + cin (b = 0), cin a per-row 0/1 column [B, 1]."""
        H, z, M, n = _heaviside, self.zero, self.add_var, self.width
        c = H(torch.addmm(M.b1, x, M.W1[:n]), z)
        C = H(torch.addmm(torch.addmm(M.b2, cin, M.w2_cin), c, M.W2), z)
        pre = torch.addmm(torch.addmm(torch.addmm(M.b3, cin, M.w3_cin), x, M.W3x[:n]), C, M.W3c)
        return H(pre, z)

    def cell(self, name: str, *inputs: Tensor) -> Tensor:
        """A per-bit logic cell applied elementwise (inputs broadcast)."""
        w, b = self.cells[name]
        pre = inputs[0] * w[0] + b
        for k in range(1, len(inputs)):
            pre = pre + inputs[k] * w[k]
        return _heaviside(pre, self.zero)

    def xor_bits(self, x: Tensor, y: Tensor) -> Tensor:
        return self.cell("xor", x, y, self.cell("and", x, y))

    def cond_negate_bits(self, x: Tensor, s: Tensor) -> Tensor:
        """x if s == 0 else -x, s [B, 1]: XOR cell then the adder with carry-in s."""
        return self.add_cin_bits(self.xor_bits(x, s), s)

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

    def mul_bits(self, ab: Tensor) -> Tensor:
        """a * b mod 2^n, ab int64 [B, 2]: table lookup of the 10 digit pairs,
        then the adder tree, rows 7 -> 4 -> 2 -> 1 (placement folded in: see
        `_build_mul`)."""
        H, z, B = _heaviside, self.zero, ab.shape[0]
        if B > self.mul_narrow_batch:
            return self._mul_wide(ab)
        digits = (ab.unsqueeze(-1) >> self.mul_index_shifts) & self.mul_digit_mask  # [B, 2, 10]
        index = (digits * self.mul_index_scale).sum(1)  # [B, 10]
        P = self.mul_table.index_select(0, index.view(-1)).view(B, -1)  # [B, 20d]
        c = H(torch.addmm(self.mul_s1_b1, P, self.mul_s1_W1), z)
        C = H(torch.addmm(self.mul_s1_b2, c, self.mul_s1_W2), z)
        S = H(torch.addmm(torch.addmm(self.mul_s1_b3, P, self.mul_s1_W3), C, self.mul_s1_W3c), z)
        c = H(torch.addmm(torch.addmm(self.mul_s2_b1, S, self.mul_s2_W1S), P, self.mul_s2_W1P), z)
        C = H(torch.addmm(self.mul_s2_b2, c, self.mul_s2_W2), z)
        pre = torch.addmm(torch.addmm(self.mul_s2_b3, S, self.mul_s2_W3S), P, self.mul_s2_W3P)
        S = H(torch.addmm(pre, C, self.mul_s2_W3c), z)
        return self.add_bits(S, self.add_m)[0]

    def _mul_wide(self, ab: Tensor) -> Tensor:
        """MUL at large batches (fewer FLOPs than the folded matrices): the
        products gathered into their 7 rows, then the adder on [3B, 2n],
        [2B, 2n], [B, 2n]."""
        B, n, d = ab.shape[0], self.width, self.mul_d
        digits = (ab.unsqueeze(-1) >> self.mul_digit_shifts) & self.mul_digit_mask
        digits = digits.view(B, 8)
        index = digits.index_select(1, self.mul_pair_a) * (1 << d) + digits.index_select(1, self.mul_pair_b)
        products = self.mul_table.index_select(0, index.view(-1)).view(B, -1)
        flat = torch.cat([products, products.new_zeros(B, 1)], 1)
        # Rows 0..5 pair up as (0, 1), (2, 3), (4, 5): one [3B, 2n] adder input.
        s, _ = self.add_bits(flat.index_select(1, self.mul_place[:6 * n]).view(3 * B, 2 * n), self.add_m)
        x = torch.cat([s.view(B, 3 * n), flat.index_select(1, self.mul_place[6 * n:])], 1).view(2 * B, 2 * n)
        s, _ = self.add_bits(x, self.add_m)
        s, _ = self.add_bits(s.view(B, 2 * n), self.add_m)
        return s

    def _build_div(self, n: int) -> None:
        """The restoring step's four threshold layers as feature-major matrices
        over one state buffer Z (rows, batch in columns), laid out so that every
        layer reads one contiguous block of rows:

            Z = [ c (2n) | a_i (1) | m1 (n) | m0 (n) | C (n) | trial (n) ]

        c, C, trial: the subtractor's layers 1-3 on R = (rem << 1) | a_i minus
        |b|; m1, m0: the multiplexer's two neurons (exclusive outputs, so the
        remainder is m1 + m0; the matrices read the pair with duplicated rows
        instead of summing it). The shift of the remainder is wiring, folded in
        (rows of rem bit j feed the columns of R bit j+1; rem's top bit, always
        0 since rem < |b| <= 2^(n-1), is dropped as before). |b|'s share of
        layers 1 and 3 is a per-row bias computed once per division. Every
        entry is a cell weight copied (or the same weight twice for m1 / m0):
        the same neurons as the cell form's loop, in another summation order."""
        M, dt = self.sub_m, self.zero.dtype
        w1, b1 = self.cells["mux1"]
        w0, b0 = self.cells["mux0"]
        rc, ra, rm, rC, rt = 0, 2 * n, 2 * n + 1, 4 * n + 1, 5 * n + 1
        self.div_rows = (rc, ra, rm, rC, rt, 6 * n + 1)
        self._div_cache = {}

        def from_r(W):  # W: rows indexed by R's bits [n, k] -> rows (a_i, m1, m0) [1 + 2n, k]
            out = torch.zeros(1 + 2 * n, W.shape[1], dtype=dt)
            out[0] = W[0]
            out[1:n] = W[1:n]          # m1 bit j -> R bit j+1
            out[1 + n:2 * n] = W[1:n]  # m0 bit j -> R bit j+1
            return out

        self.div_W1 = from_r(M.W1[:n]).t().contiguous()                       # [2n, 1+2n]
        self.div_W2 = M.W2.t().contiguous()                                    # [n, 2n]
        self.div_W3 = torch.cat([from_r(M.W3x[:n]), M.W3c]).t().contiguous()  # [n, 1+3n]
        Wm = torch.zeros(1 + 4 * n, 2 * n, dtype=dt)  # rows (a_i, m1, m0, C, trial) -> (m1', m0')
        idx = torch.arange(n)
        Wm[1 + 2 * n + n - 1, :n] = w1[0]   # q = carry out = C[n-1] into every mux1 neuron
        Wm[1 + 3 * n + idx, idx] = w1[1]    # trial bit j
        Wm[1 + 2 * n + n - 1, n:] = w0[0]   # q into every mux0 neuron
        Wm[:1 + 2 * n, n:] = from_r(torch.diag(w0[1].expand(n)))  # R bit j (shifted rem)
        self.div_Wm = Wm.t().contiguous()                                       # [2n, 1+4n]
        self.div_b2 = M.b2[:, None].contiguous()
        self.div_bm = torch.cat([b1.expand(n), b0.expand(n)])[:, None].contiguous()

    def _restoring_narrow(self, abs_a: Tensor, kb1: Tensor, kb3: Tensor) -> tuple[Tensor, Tensor]:
        """The n restoring steps, feature-major (see `_build_div`): 4 threshold
        layers = 4 addmm + 4 in-place thresholds per step on buffers cached
        per batch size (not thread-safe), no allocation in the loop. Fewest calls, so fastest at small batches (call overhead bound)."""
        B = abs_a.shape[0]
        kb1, kb3 = kb1.t().contiguous(), kb3.t().contiguous()  # [2n, B], [n, B]
        a_rows, steps, q_rows, rem_pair, rem0 = self._div_buffers(B, abs_a.dtype, abs_a.device)
        a_rows.copy_(abs_a.t().flip(0))  # step s reads a_(n-1-s): wiring, R = rem << 1 | a_i
        rem0.zero_()  # the remainder starts at 0
        H, z = _heaviside, self.zero
        W1, W2, W3, Wm, b2, bm = self.div_W1, self.div_W2, self.div_W3, self.div_Wm, self.div_b2, self.div_bm
        for x1, c, x2, C, x3, trial, xm, m_next in steps:
            H(torch.addmm(kb1, W1, x1, out=c), z)
            H(torch.addmm(b2, W2, x2, out=C), z)
            H(torch.addmm(kb3, W3, x3, out=trial), z)
            H(torch.addmm(bm, Wm, xm, out=m_next), z)
        quotient = q_rows.flip(0).t()  # q_i, the carry out of step n-1-i (no borrow: R >= |b|)
        rem = torch.add(*rem_pair).t()  # the mux's exclusive outputs, summed
        return quotient, rem

    def _div_buffers(self, B: int, dtype, device):
        """Preallocated state of `_restoring_narrow` for batch B: one state
        buffer per step (so a_i and q_i need no per-step copies), with every
        view the loop uses made once (slicing costs as much as a small matmul)."""
        key = (B, dtype, device)
        if key not in self._div_cache:
            n = self.width
            rc, ra, rm, rC, rt, rows = self.div_rows
            Z = torch.zeros(n + 1, rows, B, dtype=dtype, device=device)
            steps = [(Z[s, ra:rC], Z[s, rc:ra], Z[s, rc:ra], Z[s, rC:rt], Z[s, ra:rt], Z[s, rt:rows],
                      Z[s, ra:rows], Z[s + 1, rm:rC]) for s in range(n)]
            if len(self._div_cache) > 8:
                self._div_cache.clear()
            self._div_cache[key] = (Z[:n, ra], steps, Z[:n, rt - 1], (Z[n, rm:rm + n], Z[n, rm + n:rC]),
                                    Z[0, rm:rC])
        return self._div_cache[key]

    def _restoring_wide(self, abs_a: Tensor, kb1: Tensor, kb3: Tensor) -> tuple[Tensor, Tensor]:
        """The same n steps, batch-major, the multiplexer elementwise: fewer
        FLOPs than the narrow form's matmuls, so faster at large batches."""
        B, n = abs_a.shape
        H, z, M = _heaviside, self.zero, self.sub_m
        W1a, W3a = M.W1[:n], M.W3x[:n]
        w1, b1 = self.cells["mux1"]
        w0, b0 = self.cells["mux0"]
        rem = torch.zeros_like(abs_a)
        carries = []
        columns = abs_a.split(1, dim=1)
        for i in range(n - 1, -1, -1):
            rem = torch.cat([columns[i], rem[:, :-1]], 1)  # wiring: R << 1 | a_i
            c = H(torch.addmm(kb1, rem, W1a), z)
            C = H(torch.addmm(M.b2, c, M.W2), z)
            trial = H(torch.addmm(torch.addmm(kb3, rem, W3a), C, M.W3c), z)
            q = C[:, n - 1:]  # carry out: no borrow, R >= |b|
            # The multiplexer: two neurons per bit with exclusive outputs, summed.
            rem = (H(torch.addcmul(torch.addcmul(b1, q, w1[0]), trial, w1[1]), z)
                   + H(torch.addcmul(torch.addcmul(b0, q, w0[0]), rem, w0[1]), z))
            carries.append(q)
        return torch.cat(carries[::-1], 1), rem

    def divmod_bits(self, a: Tensor, b: Tensor) -> tuple[Tensor, Tensor]:
        """Bits [B, n] -> (quotient, remainder): the restoring divider's circuit."""
        B, n = a.shape
        H, z, M = _heaviside, self.zero, self.sub_m
        signs = torch.cat([a[:, -1:], b[:, -1:]], 0)
        magnitude = self.cond_negate_bits(torch.cat([a, b], 0), signs)
        abs_a, abs_b = magnitude[:B], magnitude[B:]
        # |b| is fixed for the whole loop: its share of layers 1 and 3 once.
        kb1 = torch.addmm(M.b1, abs_b, M.W1[n:])
        kb3 = torch.addmm(M.b3, abs_b, M.W3x[n:])
        loop = self._restoring_narrow if B <= self.div_narrow_batch else self._restoring_wide
        quotient, rem = loop(abs_a, kb1, kb3)
        sa, sb = signs[:B], signs[B:]
        sq = self.xor_bits(sa, sb)
        fixed = self.cond_negate_bits(torch.cat([quotient, rem], 0), torch.cat([sq, sa], 0))
        quotient, rem = fixed[:B], fixed[B:]
        b_zero = H(torch.addmm(self.z_b, b, self.z_W), z)
        return self.cell("and", quotient, self.cell("not", b_zero)), rem

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
        if op in ("MUL", "DIV", "MOD"):
            raise ValueError("use compute() for MUL/DIV/MOD")
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
        if op == "MUL":
            return self.mul_bits(ab)
        if op in ("DIV", "MOD"):
            x = self.bits(ab)
            q, r = self.divmod_bits(x[:, 0], x[:, 1])
            return q if op == "DIV" else r
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
        return self.decode(self.result_bits(op, self.pair(a, b)))

    def compute_zn(self, op: str, ab: Tensor) -> Tensor:
        """(value, Z pre, N pre) float64 [B, 3] of `op` on operands [B, 2]:
        the result bits are decoded and its Z and N neurons evaluated in one
        matmul (value exact: |sum| < 2^53)."""
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
