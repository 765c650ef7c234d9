"""Signed division and remainder: radix-2^k restoring division, one digit
per layer of comparison neurons.

Binary restoring division needs n sequential subtract-and-select steps (it
was 139 layers at 32 bits). Here each step produces a whole k-bit quotient
digit, so the divider is S = ceil(n / k) steps deep. The network works on
integer *values* in float64 (a linear unit holds sum_i 2^i x_i exactly
while every magnitude stays below 2^53), with ReLU units, threshold units
and one selection per step:

  L1  a+ = relu(a), a- = relu(-a), b+, b- likewise    (|a| = a+ + a-)
  L2  the L1 units passed on (relu(x) = x for x >= 0), a constant unit 1,
      and bounded units: pa = relu(1 - a-) (1 when a >= 0), pb likewise,
      bz = relu(1 - b+ - b-) (1 when b == 0), and for each upper step j
      r_j = relu(c_j - |b|), so that s_j = c_j - r_j = min(|b|, c_j).
  step j = S-1 .. 0, digit weight W = 2^(kj), remainder R (|a| at first):
      comparison neurons  t_q = H(R - q W s_j + 1/2),  q = 0 .. 2^k - 1.
      t_0 always fires and t is a thermometer code: the digit
      d = sum_{q>=1} t_q is the largest q with q W |b| <= R. The
      pre-activation of neuron q, minus 1/2, *is* the candidate remainder
      R - q W s_j, and the one-hot (t_q - t_{q+1}) selects the chosen one:
         R' + 1/2 = sum_q (t_q - t_{q+1}) * pre_q.
  L_last  ReLU units gating the magnitude Q = sum_j W sum_{q>=1} t_q: kept
      when the operand signs agree and b != 0 (u1, u2), negated when they
      differ (u3, u4), zeroed when b == 0: u = relu(Q - M * gate), gate a
      small integer combination of pa, pb, bz that is 0 exactly in the
      unit's case, M = 2^(kS+1) > every Q. A pair w = relu(x + 1) - relu(x)
      (0 or 1) catches INT_MIN / -1 (Q = 2^(n-1), both signs negative),
      which wraps to INT_MIN. The remainder takes the dividend's sign
      (r1, r2). The read-out (linear) gives quotient, remainder and each
      one's Z and N pre-activations.

Exactness. Every weight is an integer or 1/2, and every product of a
weight and a unit, and every partial sum, stays below 2^(n+k+1) <= 2^53
(n + k <= 52): large units (up to 2^(n-1)) only ever meet weights up to
q <= 2^k, and large weights (W q, M) only meet bounded units (r_j <= c_j,
the 0/1 units). That is why the divisor of step j is s_j = min(|b|, c_j)
with c_j = 2^(n - kj): a digit q >= 1 can only fire when W |b| <= R <
2^n, and if |b| >= c_j then W s_j = 2^n > R too, so only q = 0 fires, as
with |b|: the same decisions, with q W s_j < 2^(n+k). So the float64
arithmetic is exact, and every threshold unit's pre-activation is an
integer plus 1/2: its margin is 1/2 (`verify` measures it).

b = 0 needs no special case in the steps: s_j = 0, every comparison fires,
R stays |a| (so x % 0 = x) and Q is all ones, which the gates zero.

The weights are constructed, not trained: they are fixed by the arithmetic
(as the shifter's routing is fixed by the shift); `verify` enumerates the
whole divider at 8 bits (and at 16 with --exhaustive16).
"""

from __future__ import annotations

import math

import torch
from torch import Tensor, nn

from ncpu.alu.threshold import heaviside

# The units of L2 (see the module docstring); r_j for the upper steps follow.
A_POS, A_NEG, B_POS, B_NEG, ONE, A_NONNEG, B_NONNEG, B_ZERO, SAT = range(9)
# Columns of the read-out.
OUT_Q, OUT_QZ, OUT_QN, OUT_R, OUT_RZ, OUT_RN = range(6)
F64 = torch.float64


def _column(size: int, **terms: float) -> Tensor:
    """A weight column over L2's units from {unit name: coefficient}."""
    col = torch.zeros(size, dtype=F64)
    for name, coef in terms.items():
        col[globals()[name]] += coef
    return col


class RadixDivider(nn.Module):
    """Truncating signed division of n-bit integers, k = `digit_bits` per step
    (default ceil(n / 4): four steps, the fastest at batch 1 at 32 bits).

    `forward(x)` takes operand values x = [a, b] float64 [B, 2] and returns
    float64 [B, 6]: quotient, its Z and N pre-activations, remainder, its Z
    and N pre-activations (a flag is set where its pre-activation > 0)."""

    def __init__(self, width: int = 32, digit_bits: int | None = None):
        super().__init__()
        k = math.ceil(width / 4) if digit_bits is None else digit_bits
        if not 1 <= k <= width or width + k > 52:
            raise ValueError(f"digit_bits must be in 1..{width} with width + digit_bits <= 52")
        n = width
        self.width, self.digit_bits = n, k
        self.steps = S = math.ceil(n / k)
        Q = 1 << k
        bounds = [1 << max(n - k * j, 0) for j in range(1, S)]  # c_j of the upper steps j = 1..S-1
        units = SAT + len(bounds)

        w1 = torch.tensor([[1.0, -1.0, 0.0, 0.0], [0.0, 0.0, 1.0, -1.0]], dtype=F64)  # L1: a+, a-, b+, b-
        w2 = torch.zeros(4, units, dtype=F64)
        b2 = torch.zeros(units, dtype=F64)
        w2[:4, :4] = torch.eye(4, dtype=F64)
        b2[ONE] = 1.0
        w2[1, A_NONNEG], b2[A_NONNEG] = -1.0, 1.0
        w2[3, B_NONNEG], b2[B_NONNEG] = -1.0, 1.0
        w2[2:4, B_ZERO], b2[B_ZERO] = -1.0, 1.0
        for i, c in enumerate(bounds):
            w2[2:4, SAT + i], b2[SAT + i] = -1.0, float(c)

        # Steps, top first. Comparison neuron q of step j:
        #   pre = (R + 1/2) - q W s_j,  s_j = divisor[j] . h2,
        # R = |a| at the top step: `reads` holds the read-outs [|a|, s_(S-1), .., s_0]
        # and `digit_w` the weights -q W of each step ([S, Q]); `step_matrices()`
        # writes the same layer as one matrix over h2 per step, the form
        # `SmallBatchDivider` evaluates.
        q = torch.arange(Q, dtype=F64)
        reads = [_column(units, A_POS=1, A_NEG=1)]
        for j in range(S - 1, -1, -1):
            if j == 0:
                reads.append(_column(units, B_POS=1, B_NEG=1))
            else:  # s_j = c_j - r_j
                col = _column(units, ONE=bounds[j - 1])
                col[SAT + j - 1] = -1.0
                reads.append(col)
        reads = torch.stack(reads, 1)  # [units, S + 1]
        weights = torch.stack([-float(1 << (k * j)) * q for j in range(S - 1, -1, -1)])  # [S, Q]
        # The last layer, over [h2 | Q | R + 1/2], Q = sum_j W_j sum_{q>=1} t_q.
        M = float(1 << (k * S + 1))
        self.q_weights = [float(1 << (k * j)) for j in range(S - 1, -1, -1)]
        rows = units + 2
        Q_row, r_row = units, units + 1
        wl = torch.zeros(rows, 8, dtype=F64)
        gates = (  # unit = relu(Q - M * gate): gate = 0 exactly in the unit's case
            _column(units, ONE=2, A_NONNEG=-1, B_NONNEG=-1, B_ZERO=1),  # u1: a >= 0, b > 0
            _column(units, A_NONNEG=1, B_NONNEG=1, B_ZERO=1),           # u2: a < 0, b < 0
            _column(units, ONE=1, A_NONNEG=1, B_NONNEG=-1, B_ZERO=1),   # u3: a < 0, b > 0
            _column(units, ONE=1, A_NONNEG=-1, B_NONNEG=1, B_ZERO=1),   # u4: a >= 0, b < 0
            # w = relu(x + 1) - relu(x), x = Q - 2^(n-1) - M (pa + pb + bz)
            _column(units, ONE=(1 << (n - 1)) / M - 1 / M, A_NONNEG=1, B_NONNEG=1, B_ZERO=1),
            _column(units, ONE=(1 << (n - 1)) / M, A_NONNEG=1, B_NONNEG=1, B_ZERO=1),
        )
        for unit, gate in enumerate(gates):
            wl[Q_row, unit] = 1.0
            wl[:units, unit] = -M * gate
        wl[r_row, 6:8] = 1.0  # r1 = relu(R - M (1 - pa)), r2 = relu(R - M pa); R = carry - 1/2
        wl[:units, 6] = _column(units, ONE=-0.5 - M, A_NONNEG=M)
        wl[:units, 7] = _column(units, ONE=-0.5, A_NONNEG=-M)

        # Read-out: q = u1 + u2 - u3 - u4 - 2^n w, r = r1 - r2, with Z and N.
        wo = torch.zeros(8, 6, dtype=F64)
        bo = torch.tensor([0, 0.5, -0.5, 0, 0.5, -0.5], dtype=F64)
        wrap = torch.tensor([1.0, -1.0], dtype=F64)
        wo[0:2, OUT_Q], wo[2:4, OUT_Q], wo[4:6, OUT_Q] = 1.0, -1.0, -float(1 << n) * wrap
        wo[0:4, OUT_QZ], wo[4:6, OUT_QZ] = -1.0, -wrap
        wo[2:4, OUT_QN], wo[4:6, OUT_QN] = 1.0, wrap
        wo[6, OUT_R], wo[7, OUT_R] = 1.0, -1.0
        wo[6:8, OUT_RZ] = -1.0
        wo[7, OUT_RN] = 1.0
        for name, value in (("w1", w1), ("w2", w2), ("b2", b2), ("reads", reads), ("digit_w", weights),
                            ("w_last", wl), ("w_out", wo), ("b_out", bo)):
            self.register_buffer(name, value, persistent=False)
        self.units = units

    def step_matrices(self) -> Tensor:
        """Each step's comparison layer as one matrix over h2, [S, units, Q]:
        pre = (R + 1/2) + h2 @ W_s, the top step reading R = |a| from h2 (its
        carry is just the 1/2)."""
        w = self.reads[None, :, 1:].permute(2, 1, 0) * self.digit_w[:, None, :]
        w[0] += self.reads[:, :1]
        return w

    @property
    def sequential_layers(self) -> int:
        """L1, L2, per step the comparison layer and the selection, the gates."""
        return 2 * self.steps + 3

    def forward(self, x: Tensor, temperature=None, margins: list | None = None) -> Tensor:
        """x = [a, b] float64 [B, 2] -> [B, 6] (see the class docstring). With
        a `temperature`, thresholds pass sigmoid gradients (straight-through).
        `margins`, if a list, receives the smallest |pre-activation| of the
        comparison neurons."""
        h = torch.relu(torch.addmm(self.b2, torch.relu(x @ self.w1), self.w2))
        reads = h @ self.reads  # [|a|, s_(S-1), .., s_0]
        carry = reads[:, :1] + 0.5
        quotient = torch.zeros_like(carry)
        for j, (weights, w) in enumerate(zip(self.digit_w, self.q_weights)):
            divisor = reads[:, j + 1:j + 2]
            pre = torch.addcmul(carry, divisor, weights)
            t = heaviside(pre, temperature)
            if margins is not None:
                margins.append(float(pre.abs().min()))
            digit = t[:, 1:].sum(1, keepdim=True)
            carry = torch.addcmul(carry, divisor, digit, value=-w)  # pre of the last neuron that fired
            quotient = quotient + w * digit
        last = torch.relu(torch.cat([h, quotient, carry], 1) @ self.w_last)
        return torch.addmm(self.b_out, last, self.w_out)


class SmallBatchDivider:
    """`RadixDivider.forward` for small batches (the engine's one instruction
    at a time), where torch's per-call overhead is the cost: the same
    neurons and weights, 3 torch calls a step, into buffers preallocated
    per batch size with every view made once (slicing costs as much as a
    small matmul).

    One state buffer per batch, Z = [h2 | R + 1/2 | t of each step]. A step
    is one matmul over Z's first units + 1 columns giving [pre | delta]:
    pre the comparison neurons' pre-activations, delta_0 = pre_0 and
    delta_q = pre_q - pre_(q-1) = -W s_j (q >= 1); then the thresholds into
    the step's t block; then R' + 1/2 = t . delta, a telescoping sum that
    ends at the pre-activation of the last neuron that fired (the
    selection of `RadixDivider`, the same value exactly). The last layer
    is one matmul over Z, Q's weights spread over the t blocks.
    Not thread-safe (the buffers are reused)."""

    def __init__(self, divider: RadixDivider):
        self.divider = d = divider
        Q, S, units = 1 << d.digit_bits, d.steps, d.units
        device = d.w_last.device
        self.width = Q
        # Step matrices over [h2 | R + 1/2]: the top step reads |a| from h2
        # and its 1/2 from the constant unit; later steps read the carry.
        self.w_steps = []
        for s, step in enumerate(d.step_matrices()):
            w = torch.zeros(units + 1, 2 * Q, dtype=F64, device=device)
            w[:units, :Q] = step
            w[:units, Q + 1:] = step[:, 1:] - step[:, :-1]
            if s == 0:
                w[ONE, :Q] += 0.5
            else:
                w[units, :Q] = 1.0
            w[:, Q] = w[:, 0]
            self.w_steps.append(w)
        w_last = torch.zeros(units + 1 + S * Q, d.w_last.shape[1], dtype=F64, device=device)
        w_last[:units] = d.w_last[:units]
        w_last[units] = d.w_last[units + 1]
        for s, w in enumerate(d.q_weights):  # Q's row spread over each block's t rows q >= 1
            w_last[units + 1 + s * Q + 1:units + 1 + (s + 1) * Q] = w * d.w_last[units]
        self.w_last = w_last
        self.w_out = {"DIV": d.w_out[:, OUT_Q:OUT_QN + 1].contiguous(), "MOD": d.w_out[:, OUT_R:].contiguous()}
        self.b_out = {"DIV": d.b_out[OUT_Q:OUT_QN + 1].contiguous(), "MOD": d.b_out[OUT_R:].contiguous()}
        self.zero = torch.zeros((), dtype=F64, device=device)
        self._buffers: dict = {}

    def _state(self, batch: int):
        if batch not in self._buffers:
            d, Q = self.divider, self.width
            units = d.units
            Z = torch.zeros(batch, self.w_last.shape[0], dtype=F64, device=self.w_last.device)
            h1 = torch.zeros(batch, 4, dtype=F64, device=Z.device)
            pre_delta = torch.zeros(batch, 2 * Q, dtype=F64, device=Z.device)
            steps = [(w, Z[:, units + 1 + s * Q:units + 1 + (s + 1) * Q]) for s, w in enumerate(self.w_steps)]
            self._buffers[batch] = (Z, h1, Z[:, :units], Z[:, :units + 1], Z[:, units], pre_delta,
                                    pre_delta[:, :Q], pre_delta[:, Q:], steps)
        return self._buffers[batch]

    def __call__(self, x: Tensor, op: str) -> Tensor:
        """x = [a, b] float64 [B, 2] -> [value, Z pre, N pre] float64 [B, 3]
        of the quotient (op 'DIV') or the remainder ('MOD')."""
        d = self.divider
        Z, h1, h2, h2_carry, carry, pre_delta, pre, delta, steps = self._state(x.shape[0])
        torch.mm(x, d.w1, out=h1).relu_()
        torch.addmm(d.b2, h1, d.w2, out=h2).relu_()
        for w, t in steps:
            torch.mm(h2_carry, w, out=pre_delta)
            torch.heaviside(pre, self.zero, out=t)
            torch.linalg.vecdot(t, delta, out=carry)
        last = torch.mm(Z, self.w_last).relu_()
        return torch.addmm(self.b_out[op], last, self.w_out[op])
