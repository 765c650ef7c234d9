"""Verification of the neural ALU: enumeration, sampling and margins.

Three kinds of check, each reported with the inputs it covered and the
failures it found:

  cell        every trained cell over its complete truth table, run through
              the same module code the circuits use; also records the
              margin (smallest |pre-activation|, or logit gap for routers).
  exhaustive  a composite operation at 8 bits over all 2^16 operand pairs
              (16 bits over all 2^32 with `exhaustive16=True`), through the
              dense layout the neural engine runs (`ncpu.alu.dense`) and
              through the cell form (what the soft variant differentiates).
  sampled     the 32-bit operations on random pairs plus every pair of
              boundary values, through the dense layout.

The expected values come from `reference_op`, i.e. `ncpu.alu.exact`: the
semantics of `ncpu.isa.semantics` restated for n-bit int64 tensors; at 32
bits it is itself checked against `semantics` on the boundary pairs.
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass, field
from functools import lru_cache
from typing import Callable, Iterator

import torch
from torch import Tensor

from ncpu.alu import truth_tables as tt
from ncpu.alu.alu import OPS, VALUE_OPS, NeuralALU
from ncpu.alu.dense import DenseALU
from ncpu.alu.exact import ExactALU
from ncpu.alu.logic import CELLS
from ncpu.alu.weights import build_alu
from ncpu.cluster import Job, run_job

COMPOSITE = OPS + ("CMP", "ZN")


@dataclass
class Check:
    name: str
    width: int
    kind: str  # cell | exhaustive | sampled
    inputs: int
    failures: int
    margin: float | None = None
    seconds: float = 0.0
    example: list = field(default_factory=list)  # a failing input, if any

    @property
    def ok(self) -> bool:
        return self.failures == 0


# -- the reference, for any width ---------------------------------------------

def wrap(x: Tensor, n: int) -> Tensor:
    return ExactALU(n).wrap(x)


def reference_op(op: str, a: Tensor, b: Tensor, n: int):
    """Expected result of `op` (or the flags of CMP [B, 4] N Z C V, of ZN
    [B, 2] Z N) on signed n-bit values held in int64: `ncpu.alu.exact`."""
    exact = ExactALU(n)
    if op == "CMP":
        return torch.stack(exact.compare(a, b), 1)
    if op == "ZN":
        return torch.stack(exact.zero_negative(a), 1)
    return exact.compute(op, a, b)


def neural_op(alu: NeuralALU | DenseALU, op: str, a: Tensor, b: Tensor) -> Tensor:
    """The circuits' answer on their own device, returned on the CPU (where
    the inputs and the reference live)."""
    device = (alu.alu if isinstance(alu, DenseALU) else alu).bit_weights.device
    return _neural_op(alu, op, a.to(device), b.to(device)).cpu()


def _neural_op(alu: NeuralALU | DenseALU, op: str, a: Tensor, b: Tensor) -> Tensor:
    if op in VALUE_OPS:  # the value and its own Z and N read-out: [B, 3]
        if isinstance(alu, DenseALU):
            out = alu.value_zn(op, torch.stack([a, b], 1))
        else:
            out = alu.op_value_zn(op, alu.to_bits(a), alu.to_bits(b))
        return read_out(out)
    if op == "CMP":
        return torch.stack(alu.compare(a, b), 1)
    if op == "ZN":
        return torch.stack(alu.zero_negative(a), 1)
    return alu.compute(op, a, None if op in ("NOT", "NEG") else b)


def boundary_values(n: int) -> list[int]:
    top = 1 << (n - 1)
    values = {0, 1, -1, -top, top - 1}
    for k in range(n):
        for v in ((1 << k) - 1, 1 << k, (1 << k) + 1):
            values.update({v, -v})
    return sorted({((v + top) % (1 << n)) - top for v in values})


# -- cells ------------------------------------------------------------------

def _margin(pre: Tensor) -> float:
    return pre.abs().min().item()


def _cell(name, width, pre: Tensor, out: Tensor, target: Tensor, seconds: float) -> Check:
    wrong = (out != target).reshape(target.shape[0], -1).any(1)
    return Check(name, width, "cell", int(target.shape[0]), int(wrong.sum()), _margin(pre), seconds)


def cell_checks(alu: NeuralALU) -> Iterator[Check]:
    n = alu.width
    ad, lg, fl, sh, mul = alu.adder, alu.logic, alu.flags, alu.shifter, alu.multiplier
    g, m = ad.group_bits, ad.groups
    with torch.inference_mode():
        # Adder layer 1, every group at once, with b as given and with NOT b folded in.
        a, b, cin, targets = tt.carry_cell(g)
        for invert in (False, True):
            t0 = time.perf_counter()
            w = ad._weights(invert)
            b_in = 1 - b if invert else b
            pre, c01 = ad.carry_layer(a.repeat(1, m), b_in.repeat(1, m), w)
            want = torch.stack([_carries(a, b, c) for c in (0.0, 1.0)], 1)
            want = want[:, None].expand(-1, m, -1, -1)
            name = "adder.carry" + ("(not b)" if invert else "")
            yield _cell(name, n, pre, c01, want, time.perf_counter() - t0)

        # Adder layer 2: each group's select neuron over its complete table.
        t0 = time.perf_counter()
        rows, targets = tt.select_neurons(m)
        w = ad._weights(False)
        pres, fails = [], 0
        for k in range(m):
            c01 = torch.zeros(rows.shape[0], m, 2, g)
            for l in range(k):
                c01[:, l, 0, g - 1] = rows[:, 2 + l]
                c01[:, l, 1, g - 1] = rows[:, m + 1 + l]
            c01[:, k, 0, :] = rows[:, 0:1]
            c01[:, k, 1, :] = rows[:, 1:2]
            pre, out = ad.select_layer(c01, rows[:, 2 * m], w)
            pres.append(pre[:, k])
            fails += int((out[:, k] != targets[:, k:k + 1]).any(1).sum())
        yield Check("adder.select", n, "cell", rows.shape[0] * m, fails, _margin(torch.cat(pres)),
                    time.perf_counter() - t0)

        # Adder layer 3: the sum cell at every position, plain and NOT-b weights.
        x, targets = tt.sum_cell()
        for invert in (False, True):
            t0 = time.perf_counter()
            w = ad._weights(invert)
            cols = [x[:, i:i + 1].expand(-1, n) for i in range(4)]
            b_in = 1 - cols[1] if invert else cols[1]
            pre, out = ad.sum_layer(cols[0], b_in, cols[2], cols[3], w)
            yield _cell("adder.sum" + ("(not b)" if invert else ""), n, pre, out,
                        targets[:, None].expand(-1, n), time.perf_counter() - t0)

        for name in CELLS:
            t0 = time.perf_counter()
            x, targets = tt.logic_cell(name)
            pre = lg.pre(name, *x.unbind(1))
            yield _cell(f"logic.{name}", n, pre, (pre > 0).float(), targets, time.perf_counter() - t0)

        # Z: tied weights, so its pre-activation is a function of the popcount.
        t0 = time.perf_counter()
        counts = tt.popcount_rows(n).long()
        bits = (torch.arange(n)[None, :] < counts[:, None]).float()
        pre = fl.zero_pre(bits)
        yield _cell("flags.zero", n, pre, (pre > 0).float(), (counts == 0).float(), time.perf_counter() - t0)
        pre = fl.sign_pre(torch.tensor([[0.0] * n, [0.0] * (n - 1) + [1.0]]))
        yield _cell("flags.sign", n, pre, (pre > 0).float(), torch.tensor([0.0, 1.0]), 0.0)

        t0 = time.perf_counter()
        k = sh.amount_bits
        counts = tt.popcount_rows(n - k).long()
        amount = torch.zeros(len(counts), n)
        amount[:, k:] = (torch.arange(n - k)[None, :] < counts[:, None]).float()
        pre = sh.high_pre(amount)
        yield _cell("shifter.high", n, pre, (pre > 0).float(), (counts > 0).float(), time.perf_counter() - t0)
        x, classes = tt.decoder_rows(n)
        pre = sh.decode_pre(x)
        one_hot = torch.nn.functional.one_hot(classes, n + 1).float()
        yield _cell("shifter.decode", n, pre, (pre > 0).float(), one_hot, 0.0)
        for direction in ("left", "right"):
            table = sh.route_left if direction == "left" else sh.route_right
            target = tt.route_targets(n, direction)
            top2 = table.topk(2, -1)
            chosen = table.argmax(-1)
            gap = (top2.values[..., 0] - top2.values[..., 1]).min().item()
            yield Check(f"shifter.route_{direction}", n, "cell", target.numel(),
                        int((chosen != target).sum()), gap, 0.0)

        t0 = time.perf_counter()
        targets = tt.product_targets(mul.digit_bits).reshape(-1, 2 * mul.digit_bits)
        table = mul.table()
        yield Check("multiplier.product", n, "cell", targets.shape[0],
                    int((table != targets).any(1).sum()), _margin(mul.product_logits),
                    time.perf_counter() - t0)


def constructed_margin_checks(alu: NeuralALU) -> Iterator[Check]:
    """The constructed threshold units of MUL (wrap neurons) and of the
    divider (comparison neurons, in the radix the cell form uses and in the
    two the dense layout uses), over every operand pair of an 8-bit
    instance: outputs (value, Z, N) against the reference, and the margin,
    1/2 by construction (integer pre-activations offset by 1/2)."""
    n = alu.width
    a, b = (x.to(alu.bit_weights.device) for x in all_pairs(n))
    with torch.inference_mode():
        t0 = time.perf_counter()
        margins: list = []
        out = alu.multiplier(alu.to_bits(a), alu.to_bits(b), margins=margins)
        yield Check("multiplier.wrap", n, "cell", a.shape[0], _value_failures(out, reference_op("MUL", a, b, n)),
                    min(margins), time.perf_counter() - t0)
        dense = DenseALU(alu)
        for divider in (alu.divider, dense.div_large):
            t0 = time.perf_counter()
            margins = []
            out = divider(torch.stack([a, b], 1).to(torch.float64), margins=margins)
            failures = (_value_failures(out[:, :3], reference_op("DIV", a, b, n))
                        + _value_failures(out[:, 3:], reference_op("MOD", a, b, n)))
            yield Check(f"divider.compare (radix 2^{divider.digit_bits})", n, "cell", a.shape[0], failures,
                        min(margins), time.perf_counter() - t0)


def read_out(out: Tensor) -> Tensor:
    """A value circuit's read-out [value, Z pre, N pre] float64 [B, 3] -> [value, Z, N] int64 [B, 3]."""
    return torch.stack([out[:, 0].to(torch.int64), out[:, 1] > 0, out[:, 2] > 0], 1)


def with_flags(value: Tensor) -> Tensor:
    """Reference values [B] -> [value, Z, N] [B, 3], to compare with `read_out`."""
    return torch.stack([value, value == 0, value < 0], 1)


def _value_failures(out: Tensor, want: Tensor) -> int:
    return int((read_out(out) != with_flags(want)).any(1).sum())


def _carries(a: Tensor, b: Tensor, cin: float) -> Tensor:
    g = a.shape[1]
    prefix = torch.cumsum((a + b) * 2.0 ** torch.arange(g), 1) + cin
    return (prefix >= 2.0 ** torch.arange(1, g + 1)).float()


# -- composite operations -----------------------------------------------------

def _compare(alu: NeuralALU, op: str, a: Tensor, b: Tensor, chunk: int) -> tuple[int, list]:
    failures, example = 0, []
    for start in range(0, a.shape[0], chunk):
        x, y = a[start:start + chunk], b[start:start + chunk]
        got = neural_op(alu, op, x, y)
        want = reference_op(op, x, y, alu.width)
        if op in VALUE_OPS:
            want = with_flags(want)
        wrong = (got != want).reshape(x.shape[0], -1).any(1)
        count = int(wrong.sum())
        if count and not example:
            i = int(wrong.nonzero()[0])
            example = [int(x[i]), int(y[i])]
        failures += count
    return failures, example


def all_pairs(n: int, start: int = 0, stop: int | None = None, step: int = 1) -> tuple[Tensor, Tensor]:
    """Pairs index start..stop (every `step`-th) of the (2^n)^2 signed pairs,
    a the high half of the index, b the low half."""
    stop = (1 << (2 * n)) if stop is None else stop
    idx = torch.arange(start, stop, step, dtype=torch.int64)
    return wrap(idx >> n, n), wrap(idx & ((1 << n) - 1), n)


def _label(alu) -> str:
    if isinstance(alu, DenseALU):
        return " (dense)" if alu.layout == "auto" else f" (dense, {alu.layout}-batch form)"
    return " (cells)"


def dense_flag_checks(dense: DenseALU) -> Iterator[Check]:
    """The dense layout's Z neuron (float64, tied weights: its pre-activation
    is exactly popcount * w + b) over every popcount 0..n, and N on both
    values of the top bit."""
    n = dense.width
    t0 = time.perf_counter()
    with torch.inference_mode():
        counts = torch.arange(n + 1)
        values = wrap((torch.ones_like(counts) << counts) - 1, n)
        pre = dense.zero_negative_pre(values)[:, 0]
        yield _cell("dense flags.zero", n, pre, (pre > 0).float(), (counts == 0).float(), time.perf_counter() - t0)
        pre = dense.zero_negative_pre(torch.tensor([0, -(1 << (n - 1))]))[:, 1]
        yield _cell("dense flags.sign", n, pre, (pre > 0).float(), torch.tensor([0.0, 1.0]), 0.0)


UNARY = ("NOT", "NEG", "ZN")


def exhaustive_checks(alu: NeuralALU | DenseALU, ops=COMPOSITE, chunk: int = 1 << 16,
                      progress: Callable[[str, int], None] | None = None,
                      unary_values_only: bool = False) -> Iterator[Check]:
    """Every op over all (2^n)^2 pairs, in chunks of `chunk` pairs; `alu` is
    the cell form (`NeuralALU`) or the dense layout (`DenseALU`). With
    `unary_values_only`, NOT, NEG and ZN (which ignore b) run over their
    2^n inputs instead of 2^n copies of them."""
    with torch.inference_mode():
        for op in ops:
            t0 = time.perf_counter()
            total = exhaustive_total(alu.width, op, unary_values_only)
            failures, example = _exhaustive_range(alu, op, 0, total, chunk, unary_values_only, progress)
            yield Check(op + _label(alu), alu.width, "exhaustive", total, failures, None, time.perf_counter() - t0,
                        example)


def exhaustive_total(n: int, op: str, unary_values_only: bool) -> int:
    """How many inputs the exhaustive check of `op` at n bits enumerates."""
    return 1 << (n if unary_values_only and op in UNARY else 2 * n)


def _exhaustive_range(alu, op: str, start: int, stop: int, chunk: int, unary_values_only: bool,
                      progress=None) -> tuple[int, list]:
    """Failures and the first failing pair among inputs start..stop of op's
    exhaustive enumeration (pair indices, or values of a when unary-only)."""
    n = alu.width
    failures, example = 0, []
    with torch.inference_mode():
        for first in range(start, stop, chunk):
            last = min(stop, first + chunk)
            if exhaustive_total(n, op, unary_values_only) == 1 << n:  # every value of a, with b = 0
                a, b = all_pairs(n, first << n, last << n, step=1 << n)
            else:
                a, b = all_pairs(n, first, last)
            f, e = _compare(alu, op, a, b, chunk)
            failures += f
            example = example or e
            if progress:
                progress(op, a.shape[0])
    return failures, example


# -- the exhaustive check in shards (one process or a Ray cluster) --------------

@dataclass(frozen=True)
class ExhaustiveShard:
    """Inputs start..stop of op's exhaustive enumeration at `width` bits,
    through the dense layout of `source` weights on `device`."""

    source: str
    device: str
    width: int
    op: str
    start: int
    stop: int
    chunk: int
    unary_values_only: bool


def exhaustive_shards(width: int, ops, source: str = "trained", device: str = "cpu", chunk: int = 1 << 13,
                      shard_inputs: int = 1 << 24, unary_values_only: bool = True) -> list[ExhaustiveShard]:
    """The enumeration of every op cut into contiguous shards, op by op."""
    shards = []
    for op in ops:
        total = exhaustive_total(width, op, unary_values_only)
        for start in range(0, total, shard_inputs):
            shards.append(ExhaustiveShard(source, str(device), width, op, start, min(total, start + shard_inputs),
                                          chunk, unary_values_only))
    return shards


@lru_cache(maxsize=4)
def _dense_alu(width: int, source: str, device: str) -> DenseALU:
    """Built once per process: a worker runs many shards with the same weights."""
    return DenseALU(build_alu(width, source, device))


def run_exhaustive_shard(context, shard: ExhaustiveShard) -> tuple[int, list, float]:
    """(failures, first failing pair or [], seconds) of one shard."""
    t0 = time.perf_counter()
    alu = _dense_alu(shard.width, shard.source, shard.device)
    failures, example = _exhaustive_range(alu, shard.op, shard.start, shard.stop, shard.chunk,
                                          shard.unary_values_only)
    return failures, example, time.perf_counter() - t0


def merge_exhaustive(shards: list[ExhaustiveShard], results: list[tuple[int, list, float]]) -> list[Check]:
    """One check per op from its shards' results (in shard order): failures
    summed, the example of the first shard that has one (the first failing
    pair of the whole enumeration, as the unsharded check reports), seconds
    summed over shards (compute time, not wall time)."""
    checks: dict[str, Check] = {}
    for shard, (failures, example, seconds) in zip(shards, results, strict=True):
        check = checks.setdefault(shard.op, Check(shard.op + " (dense)", shard.width, "exhaustive", 0, 0, None, 0.0))
        check.inputs += shard.stop - shard.start
        check.failures += failures
        check.seconds += seconds
        check.example = check.example or list(example)
    return list(checks.values())


def exhaustive_job(shards: list[ExhaustiveShard]) -> Job:
    return Job("verify.exhaustive", shards, run_exhaustive_shard)


def sampled_checks(alu: NeuralALU | DenseALU, samples: int = 1_000_000, seed: int = 0, ops=COMPOSITE,
                   chunk: int = 1 << 16, progress: Callable[[str, int], None] | None = None) -> Iterator[Check]:
    """Random pairs (half uniform, half small/structured) plus all boundary pairs."""
    n = alu.width
    gen = torch.Generator().manual_seed(seed)
    half = samples // 2
    a = torch.randint(-(1 << (n - 1)), 1 << (n - 1), (samples,), generator=gen)
    b = torch.randint(-(1 << (n - 1)), 1 << (n - 1), (samples,), generator=gen)
    # The second half: b small (shift amounts, small divisors), a of random magnitude.
    b[half:] = torch.randint(-(n + 2), n + 2, (samples - half,), generator=gen)
    a[half:] = a[half:] >> torch.randint(0, n, (samples - half,), generator=gen)
    bound = torch.tensor(boundary_values(n))
    ba, bb = bound.repeat_interleave(len(bound)), bound.repeat(len(bound))
    a, b = torch.cat([a, ba]), torch.cat([b, bb])
    with torch.inference_mode():
        for op in ops:
            t0 = time.perf_counter()
            failures, example = 0, []
            for start in range(0, a.shape[0], chunk):
                f, e = _compare(alu, op, a[start:start + chunk], b[start:start + chunk], chunk)
                failures += f
                example = example or e
                if progress:
                    progress(op, min(chunk, a.shape[0] - start))
            yield Check(op + _label(alu), n, "sampled", int(a.shape[0]), failures, None,
                        time.perf_counter() - t0, example)


def reference_self_check() -> Check:
    """`reference_op` at 32 bits against `ncpu.isa.semantics` on every boundary pair."""
    from ncpu.isa import semantics as sem
    t0 = time.perf_counter()
    values = boundary_values(32)
    a = torch.tensor(values).repeat_interleave(len(values))
    b = torch.tensor(values).repeat(len(values))
    failures = 0
    for op, fn in sem.BINARY.items():
        got = reference_op(op, a, b, 32).tolist()
        failures += sum(g != fn(x, y) for g, x, y in zip(got, a.tolist(), b.tolist()))
    flags = reference_op("CMP", a, b, 32).tolist()
    failures += sum(tuple(f) != sem.compare_flags(x, y) for f, x, y in zip(flags, a.tolist(), b.tolist()))
    return Check("reference vs semantics", 32, "sampled", len(a) * (len(sem.BINARY) + 1), failures, None,
                 time.perf_counter() - t0)


def verify(source: str = "trained", samples: int = 1_000_000, exhaustive16: bool = False,
           device: torch.device | str | None = None, progress=None, ops=COMPOSITE,
           run_shards: Callable[..., list] = run_job) -> Iterator[Check]:
    """Every check, in order; consumers decide how to report them. `ops`
    restricts the composite checks (the cells are always all checked).
    `run_shards(job, progress=...)` runs the 16-bit enumeration's shards
    (default: in this process; `ncpu.cluster.run_job` with a cluster spec
    spreads them over Ray workers) and returns their results in order."""
    unknown = sorted(set(ops) - set(COMPOSITE))
    if unknown:
        raise ValueError(f"unknown op(s) {', '.join(unknown)}; expected some of {', '.join(COMPOSITE)}")
    ops = tuple(op for op in COMPOSITE if op in ops)
    small_ops = tuple(op for op in DenseALU.SMALL_BATCH_OPS if op in ops)
    yield reference_self_check()
    for width in (8, 16, 32):
        alu = build_alu(width, source)
        yield from cell_checks(alu)
        yield from dense_flag_checks(DenseALU(alu))
    alu8 = build_alu(8, source, device)
    yield from constructed_margin_checks(alu8)
    yield from exhaustive_checks(DenseALU(alu8), ops=ops, progress=progress)
    # The dense ops with a second form for small batches (what the engine runs
    # one instruction at a time), enumerated through that form too.
    small = DenseALU(alu8).set_batch_layout("small")
    yield from exhaustive_checks(small, ops=small_ops, chunk=1 << 14, progress=progress)
    yield from exhaustive_checks(alu8, ops=ops, progress=progress)
    if exhaustive16:
        # On a CPU, chunks of 2^13 pairs keep the working set in cache (2.3x
        # faster than 2^17 on six ops); a GPU wants few, large launches.
        # NOT, NEG and ZN ignore b: their 2^16 inputs. Shards of 2^24 pairs
        # (256 per binary op) run where `run_shards` puts them.
        on_cpu = torch.device(device or "cpu").type == "cpu"
        shards = exhaustive_shards(16, ops, source, str(device or "cpu"), chunk=1 << (13 if on_cpu else 22))

        def shard_done(index: int) -> None:
            if progress:
                progress(shards[index].op, shards[index].stop - shards[index].start)
        yield from merge_exhaustive(shards, run_shards(exhaustive_job(shards), progress=shard_done))
    alu32 = build_alu(32, source, device)
    yield from sampled_checks(DenseALU(alu32), samples, ops=ops, progress=progress)
    yield from sampled_checks(DenseALU(alu32).set_batch_layout("small"), max(samples // 10, 1000),
                              ops=small_ops, chunk=1 << 12, progress=progress)


def as_dict(check: Check) -> dict:
    return asdict(check) | {"ok": check.ok}
