"""Per-operation latency of the neural ALU (figures, not tests).

`op_latency_rows` times every operation through the int64 interface the
engines use (`DenseALU`, the dense layout the neural engine runs; bit
encoding and decoding included) at batch 1 and the
amortised cost per operation at a large batch, beside the sequential layer
count and the original nCPU's published figure (Apple GPU, batch 1).
"""

from __future__ import annotations

import time

import torch

from ncpu.alu.dense import DenseALU
from ncpu.alu.weights import build_alu

ORIGINAL_US = {"ADD": 248, "SUB": 248, "CMP": 248, "MUL": 21, "AND": 21, "OR": 21, "XOR": 21,
               "SHL": 434, "SHR": 434}
BENCH_OPS = ("ADD", "SUB", "CMP", "MUL", "DIV", "MOD", "AND", "OR", "XOR", "NOT", "NEG",
             "SHL", "SHR", "SAR", "ZN")


def _time(fn, min_seconds: float) -> float:
    fn()
    calls, start = 0, time.perf_counter()
    while True:
        fn()
        calls += 1
        elapsed = time.perf_counter() - start
        if elapsed >= min_seconds and calls >= 3:
            return elapsed / calls


def op_latency_rows(large_batch: int = 4096, weights: str = "trained", device: str | None = None,
                    min_seconds: float = 0.3, ops=BENCH_OPS) -> list[dict]:
    alu = DenseALU(build_alu(32, weights, device))
    layers = alu.sequential_layers()
    gen = torch.Generator().manual_seed(0)
    rows = []
    with torch.inference_mode():
        for op in ops:
            row = {"op": op, "layers": layers[op], "original_us": ORIGINAL_US.get(op),
                   "large_batch_layers": alu.large_batch_layers.get(op, layers[op])}
            for batch in (1, large_batch):
                a = torch.randint(-(1 << 31), 1 << 31, (batch,), generator=gen).to(device or "cpu")
                b = torch.randint(-(1 << 31), 1 << 31, (batch,), generator=gen).to(device or "cpu")
                if op == "CMP":
                    fn = lambda: alu.compare(a, b)  # noqa: E731
                elif op == "ZN":
                    fn = lambda: alu.zero_negative(a)  # noqa: E731
                else:
                    fn = lambda: alu.compute(op, a, None if op in ("NOT", "NEG") else b)  # noqa: E731
                seconds = _time(fn, min_seconds)
                if batch == 1:
                    row["batch1_us"] = seconds * 1e6
                else:
                    row[f"batch{large_batch}_ns_per_op"] = seconds / batch * 1e9
            rows.append(row)
    return rows


def format_rows(rows: list[dict], large_batch: int = 4096) -> str:
    key = f"batch{large_batch}_ns_per_op"
    lines = [f"{'op':<5} {'layers':>6} {'batch 1 (us)':>13} {f'B={large_batch} (ns/op)':>16} {'original (us)':>14}"]
    for r in rows:
        original = "" if r["original_us"] is None else str(r["original_us"])
        lines.append(f"{r['op']:<5} {r['layers']:>6} {r['batch1_us']:>13.1f} {r[key]:>16.1f} {original:>14}")
    wider = sorted({(r["large_batch_layers"], r["op"]) for r in rows if r["large_batch_layers"] != r["layers"]})
    if wider:
        ops = "/".join(op for _, op in wider)
        lines.append(f"layers: at batch 1; at B={large_batch} {ops} run a narrower radix in {wider[0][0]} layers")
    return "\n".join(lines)
