"""Frames per second of the neural display (codes and cursor -> 320 x 192 pixels).

    python benchmarks/display_bench.py [--batches 1,8,64] [--threads 1] [--json]

Random screens; each figure is the best of 3 timed runs after a warm-up,
in wall-clock and in process CPU time (steadier on a shared machine).
Also prints the networks' parameter counts and layers.
"""

from __future__ import annotations

import argparse
import json
import time

import torch

from ncpu.display.networks import NeuralDisplay
from ncpu.display.screen import CELLS


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--batches", default="1,8,64")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    display = NeuralDisplay()
    report = {"parameters": display.layer_report(), "layers": display.layers,
              "threshold_layers": display.threshold_layers, "frames_per_second": {}, "frames_per_cpu_second": {}}
    for batch in (int(b) for b in args.batches.split(",")):
        codes = torch.randint(0, 256, (batch, CELLS))
        cursor = torch.randint(0, CELLS, (batch,))
        with torch.inference_mode():
            display(codes, cursor)
            best = best_cpu = float("inf")
            for _ in range(3):
                started, cpu = time.perf_counter(), time.process_time()
                display(codes, cursor)
                best = min(best, time.perf_counter() - started)
                best_cpu = min(best_cpu, time.process_time() - cpu)
        report["frames_per_second"][batch] = round(batch / best, 1)
        report["frames_per_cpu_second"][batch] = round(batch / best_cpu, 1)
    if args.json:
        print(json.dumps(report))
    else:
        print(f"parameters {report['parameters']}, {report['layers']} layers "
              f"({report['threshold_layers']} of threshold units)")
        for batch, fps in report["frames_per_second"].items():
            print(f"B={batch:<4} {fps:>10,.1f} frames/s  {report['frames_per_cpu_second'][batch]:>10,.1f} frames/CPU-s")
    return 0


if __name__ == "__main__":
    from ncpu.pipes import run_script
    run_script(main)
