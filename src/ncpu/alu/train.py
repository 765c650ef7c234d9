"""Training every cell of the neural ALU from its complete truth table.

Each cell starts from small random weights (seeded) and is trained by full-
batch gradient descent (Adam) on a hinge loss over *every* row of its truth
table, until every row is on the right side of the threshold by at least
`MARGIN`. Exactness on the whole table is then the stopping criterion, not
an accident: a cell that does not get there raises `TrainingFailed`.

Widths 8, 16 and 32 are trained separately (their cells differ in size:
the adder's carry cell has 2g+1 inputs with g = width/4; the product table
is [2^d, 2^d, 2d] with d = width/4; the shifter has width + 1 queries).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Callable

import torch
from torch import Tensor, nn

from ncpu.alu import truth_tables as tt
from ncpu.alu.alu import NeuralALU
from ncpu.alu.logic import CELLS

MARGIN = 0.25  # required distance of every pre-activation from its threshold
REL_MARGIN = 1 / 4096  # the same, relative to a monotone neuron's total weight
Progress = Callable[[str, int], None]  # (cell name, steps done) - for a progress bar


class TrainingFailed(RuntimeError):
    """A cell did not become exact on its whole truth table within its budget."""


@dataclass
class CellResult:
    width: int
    cell: str
    rows: int
    steps: int
    margin: float


def _init(params: list[nn.Parameter], generator: torch.Generator, scale: float = 0.1) -> None:
    with torch.no_grad():
        for p in params:
            p.copy_(torch.randn(p.shape, generator=generator) * scale)


def fit(name: str, params: list[nn.Parameter], pre_fn: Callable[[], Tensor], targets: Tensor,
        generator: torch.Generator, lr: float, max_steps: int, progress: Progress | None = None,
        width: int = 0) -> CellResult:
    """Train threshold neurons: every row of `pre_fn()` must have the sign of
    its target (1 -> positive) with |pre| >= MARGIN."""
    _init(params, generator)
    sign = 2 * targets - 1
    opt = torch.optim.Adam(params, lr=lr)
    for step in range(max_steps + 1):
        with torch.enable_grad():
            signed = sign * pre_fn()
            worst = signed.min().item()
            if worst >= MARGIN:
                break
            loss = torch.relu(2 * MARGIN - signed).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
        if progress and step % 50 == 0:
            progress(name, 50)
    else:
        raise TrainingFailed(f"{name} (width {width}) not exact after {max_steps} steps: worst margin {worst:.3g}")
    return CellResult(width, name, int(targets.reshape(-1, targets.shape[-1]).shape[0]), step, worst)


def fit_monotone(name: str, x: Tensor, mask: Tensor, targets: Tensor, generator: torch.Generator,
                 max_steps: int, progress: Progress | None = None, width: int = 0,
                 ) -> tuple[CellResult, Tensor, Tensor]:
    """Train neurons known to be monotone (carries): weights exp(theta) > 0 on
    the inputs `mask` [M, K] allows, threshold exp(beta) > 0.

    The exponential parameterization lets weights that must differ by
    factors of 2^8 get there in a few hundred steps; the loss is a soft
    minimum of the margins divided by the neuron's total weight (scale-free),
    so training pushes up exactly the rows that are closest to flipping;
    the learning rate decays so the ratios can settle to the needed precision.
    Stops once every row is right with margin >= REL_MARGIN x total weight.
    Returns (result, weights [M, K], bias [M])."""
    theta = (torch.randn(mask.shape, generator=generator) * 0.1).requires_grad_()
    beta = (torch.randn(mask.shape[0], generator=generator) * 0.1).requires_grad_()
    opt = torch.optim.Adam([theta, beta], lr=0.05)
    decay = torch.optim.lr_scheduler.ExponentialLR(opt, 0.995)
    sign = 2 * targets - 1
    for step in range(max_steps + 1):
        with torch.enable_grad():
            w = torch.exp(theta) * mask
            relative = sign * (x @ w.t() - torch.exp(beta)) / w.sum(1)
            worst = relative.min().item()
            if worst >= REL_MARGIN:
                break
            loss = (torch.logsumexp(-1000.0 * relative, 0) / 1000.0).sum()
            opt.zero_grad()
            loss.backward()
            opt.step()
            decay.step()
        if progress and step % 50 == 0:
            progress(name, 50)
    else:
        raise TrainingFailed(f"{name} (width {width}) not exact after {max_steps} steps: worst margin {worst:.3g}")
    w = (torch.exp(theta) * mask).detach()
    bias = -torch.exp(beta).detach()
    margin = (sign * (x @ w.t() + bias)).min().item()
    return CellResult(width, name, int(x.shape[0]), step, margin), w, bias


def fit_router(name: str, table: nn.Parameter, targets: Tensor, generator: torch.Generator,
               max_steps: int, progress: Progress | None = None, width: int = 0) -> CellResult:
    """Train routing logits with cross-entropy until the target source beats
    every other source by MARGIN at every (query, position)."""
    _init([table], generator)
    opt = torch.optim.Adam([table], lr=0.1)
    flat_targets = targets.reshape(-1)
    for step in range(max_steps + 1):
        with torch.enable_grad():
            logits = table.reshape(-1, table.shape[-1])
            chosen = logits.gather(1, flat_targets[:, None])
            others = logits.masked_fill(nn.functional.one_hot(flat_targets, logits.shape[1]).bool(), -1e9)
            gap = (chosen[:, 0] - others.max(1).values).min().item()
            if gap >= MARGIN:
                break
            loss = nn.functional.cross_entropy(logits, flat_targets)
            opt.zero_grad()
            loss.backward()
            opt.step()
        if progress and step % 50 == 0:
            progress(name, 50)
    else:
        raise TrainingFailed(f"{name} (width {width}) not exact after {max_steps} steps")
    return CellResult(width, name, int(flat_targets.numel()), step, gap)


def train_adder(alu: NeuralALU, gen: torch.Generator, progress: Progress | None = None) -> list[CellResult]:
    adder, n = alu.adder, alu.width
    results = []
    g, m = adder.group_bits, adder.groups
    a, b, cin, targets = tt.carry_cell(g)
    x = torch.cat([a, b, cin[:, None]], 1)
    causal = torch.tril(torch.ones(g, g))
    mask = torch.cat([causal, causal, torch.ones(g, 1)], 1)
    result, w, bias = fit_monotone("adder.carry", x, mask, targets, gen, 4000, progress, n)
    with torch.no_grad():
        adder.carry_a.copy_(w[:, :g])
        adder.carry_b.copy_(w[:, g:2 * g])
        adder.carry_cin.copy_(w[:, 2 * g])
        adder.carry_bias.copy_(bias)
    results.append(result)

    # Select neurons: inputs (c0, c1, G_0..G_{m-2}, P_0..P_{m-2}, cin); neuron k sees groups l < k.
    rows, targets = tt.select_neurons(m)
    lower = torch.tril(torch.ones(m, m), -1)[:, :m - 1]
    mask = torch.cat([torch.ones(m, 2), lower, lower, torch.ones(m, 1)], 1)
    result, w, bias = fit_monotone("adder.select", rows, mask, targets, gen, 4000, progress, n)
    with torch.no_grad():
        adder.select_c0.copy_(w[:, 0])
        adder.select_c1.copy_(w[:, 1])
        adder.select_g.zero_()
        adder.select_p.zero_()
        adder.select_g[:, :m - 1] = w[:, 2:m + 1]
        adder.select_p[:, :m - 1] = w[:, m + 1:2 * m]
        adder.select_cin.copy_(w[:, 2 * m])
        adder.select_bias.copy_(bias)
    results.append(result)

    x, targets = tt.sum_cell()
    results.append(fit("adder.sum", [adder.sum_w, adder.sum_bias], lambda: x @ adder.sum_w + adder.sum_bias,
                       targets, gen, lr=0.05, max_steps=5000, progress=progress, width=n))
    return results


def train_logic(alu: NeuralALU, gen: torch.Generator, progress: Progress | None = None) -> list[CellResult]:
    logic = alu.logic
    results = []
    for name in CELLS:
        x, targets = tt.logic_cell(name)
        results.append(fit(f"logic.{name}", [logic.w[name], logic.b[name]],
                           lambda x=x, name=name: x @ logic.w[name] + logic.b[name], targets, gen,
                           lr=0.05, max_steps=5000, progress=progress, width=alu.width))
    return results


def train_flags(alu: NeuralALU, gen: torch.Generator, progress: Progress | None = None) -> list[CellResult]:
    flags, n = alu.flags, alu.width
    counts = tt.popcount_rows(n)
    top = torch.tensor([0.0, 1.0])
    return [
        fit("flags.zero", [flags.zero_w, flags.zero_b], lambda: counts * flags.zero_w + flags.zero_b,
            (counts == 0).float(), gen, lr=0.05, max_steps=5000, progress=progress, width=n),
        fit("flags.sign", [flags.sign_w, flags.sign_b], lambda: top * flags.sign_w + flags.sign_b,
            top, gen, lr=0.05, max_steps=5000, progress=progress, width=n),
    ]


def train_shifter(alu: NeuralALU, gen: torch.Generator, progress: Progress | None = None) -> list[CellResult]:
    sh, n = alu.shifter, alu.width
    counts = tt.popcount_rows(n - sh.amount_bits)
    x, classes = tt.decoder_rows(n)
    one_hot = nn.functional.one_hot(classes, n + 1).float()
    return [
        fit("shifter.high", [sh.high_w, sh.high_b], lambda: counts * sh.high_w + sh.high_b,
            (counts > 0).float(), gen, lr=0.05, max_steps=5000, progress=progress, width=n),
        fit("shifter.decode", [sh.decode_w, sh.decode_b], lambda: x @ sh.decode_w.t() + sh.decode_b,
            one_hot, gen, lr=0.05, max_steps=20000, progress=progress, width=n),
        fit_router("shifter.route_left", sh.route_left, tt.route_targets(n, "left"), gen, 5000, progress, n),
        fit_router("shifter.route_right", sh.route_right, tt.route_targets(n, "right"), gen, 5000, progress, n),
    ]


def train_multiplier(alu: NeuralALU, gen: torch.Generator, progress: Progress | None = None) -> list[CellResult]:
    mul = alu.multiplier
    targets = tt.product_targets(mul.digit_bits)
    return [fit("multiplier.product", [mul.product_logits], lambda: mul.product_logits, targets, gen,
                lr=0.1, max_steps=2000, progress=progress, width=alu.width)]


TRAINERS = (train_adder, train_logic, train_flags, train_shifter, train_multiplier)


def train_alu(width: int, seed: int = 0, progress: Progress | None = None) -> tuple[NeuralALU, list[CellResult]]:
    """A NeuralALU of `width` with every cell trained to exactness (seeded)."""
    gen = torch.Generator().manual_seed(seed * 1000 + width)
    alu = NeuralALU(width)
    results = []
    for trainer in TRAINERS:
        results.extend(trainer(alu, gen, progress))
    alu.requires_grad_(False)
    return alu, results


def result_rows(results: list[CellResult]) -> list[dict]:
    return [asdict(r) for r in results]
