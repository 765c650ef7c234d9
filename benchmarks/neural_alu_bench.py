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
    if batch_size == 1:  # one machine: neural.run (the single-machine path), as `ncpu bench` times it
        state = batch.machine(0)
        neural.run(words, state, 2, device, weights)  # warm-up: weights, caches
        start = time.perf_counter()
        out = neural.run(words, state, steps, device, weights)
        return (out.steps - state.steps) / (time.perf_counter() - start)
    neural.run_batch(words, batch, 2, device, weights)
    start = time.perf_counter()
    out = neural.run_batch(words, batch, steps, device, weights)
    seconds = time.perf_counter() - start
    return float((out.steps - batch.steps).sum()) / seconds


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--weights", default="trained", choices=["trained", "analytic"])
    parser.add_argument("--device", default=None)
    parser.add_argument("--batch", type=int, default=4096)
    parser.add_argument("--threads", type=int, default=1, help="torch threads (default 1, as `ncpu bench`)")
    args = parser.parse_args(argv)
    torch.set_num_threads(args.threads)
    print(f"torch {torch.__version__}, {torch.get_num_threads()} threads, device {args.device or 'cpu'}")
    print(format_rows(op_latency_rows(args.batch, args.weights, args.device), args.batch))
    print(f"neural engine, 1 machine: {program_ips(1, 5000, args.weights, args.device):,.0f} instructions/s")
    print(f"neural engine, B={args.batch}: {program_ips(args.batch, 100, args.weights, args.device):,.0f} instructions/s")
    return 0


if __name__ == "__main__":
    from ncpu.pipes import run_script
    run_script(main)
