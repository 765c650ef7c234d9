"""Neural ALU figures: per-op latency (batch 1), amortised cost (batch 4,096),
sequential layers, and whole-program instructions per second in neural mode.

    python benchmarks/neural_alu_bench.py [--weights trained|analytic] [--device cpu]
"""

from __future__ import annotations

import argparse
import time

import torch

from ncpu.alu.bench import format_rows, op_latency_rows


def program_ips(batch_size: int, steps: int, weights: str = "trained", device: str | None = None) -> float:
    """Instructions per second of the neural engine on `ncpu bench`'s loop."""
    from ncpu.commands.bench import bench_batch, bench_words
    from ncpu.machine import neural

    words, batch = bench_words(), bench_batch(batch_size)
    neural.run_batch(words, batch, 2, device, weights)  # warm-up: weights, caches
    start = time.perf_counter()
    out = neural.run_batch(words, batch, steps, device, weights)
    seconds = time.perf_counter() - start
    return float((out.steps - batch.steps).sum()) / seconds


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--weights", default="trained", choices=["trained", "analytic"])
    parser.add_argument("--device", default=None)
    parser.add_argument("--batch", type=int, default=4096)
    args = parser.parse_args(argv)
    print(f"torch {torch.__version__}, {torch.get_num_threads()} threads, device {args.device or 'cpu'}")
    print(format_rows(op_latency_rows(args.batch, args.weights, args.device), args.batch))
    print(f"neural engine, 1 machine: {program_ips(1, 300, args.weights, args.device):,.0f} instructions/s")
    print(f"neural engine, B={args.batch}: {program_ips(args.batch, 20, args.weights, args.device):,.0f} instructions/s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
