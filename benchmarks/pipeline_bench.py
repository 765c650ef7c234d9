"""Gradient descent through the differentiable pipeline: how often it finds
an input that makes a program print a target, with the gradient ranking the
bit flips vs the same search with flips in random order.

    python benchmarks/pipeline_bench.py [--targets 10] [--steps 100] [--candidates 3]

For each program and each of --targets random inputs x*, the target is what
the program prints for x*; the search starts at R1 = 0 and searches the low
16 bits. Times are CPU seconds (time.process_time).
"""

from __future__ import annotations

import argparse
import random
import time
from pathlib import Path

import torch

from ncpu.nsl.interpreter import interpret
from ncpu.pipeline.differentiable import SoftPipeline, descend
from ncpu.pipeline.stages import build

PROGRAMS = {
    "x + 1234 in octal": (Path(__file__).resolve().parents[1] / "src/ncpu/nsl/examples/octal.nsl").read_text(),
    "x in octal": "int main(int x) {\n for (int k = 15; k >= 0; k -= 3) putc('0' + ((x >>> k) & 7));\n"
                  " putc('\\n');\n return 0;\n}\n",
    "3x + 7 in octal": "int main(int x) {\n int y = (x << 1) + x + 7;\n"
                       " for (int k = 18; k >= 0; k -= 3) putc('0' + ((y >>> k) & 7));\n putc('\\n');\n return 0;\n}\n",
    "3x + 7 in decimal (print)": "int main(int x) {\n print(3 * x + 7, \"\\n\");\n return 0;\n}\n",
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--targets", type=int, default=10)
    parser.add_argument("--steps", type=int, default=100)
    parser.add_argument("--candidates", type=int, default=3)
    parser.add_argument("--programs", default=",".join(map(str, range(len(PROGRAMS)))),
                        help="which programs, by index (default: all)")
    args = parser.parse_args()
    torch.set_num_threads(1)
    print(f"{args.targets} random targets per program, 16 input bits, at most {args.steps} steps, "
          f"{args.candidates} candidate flips per step")
    print(f"{'program':28} {'ranking':9} {'found':>7} {'verified':>9} {'mean steps':>11} {'runs':>7} {'CPU s':>7}")
    chosen = {int(i) for i in args.programs.split(",")}
    for index, (name, source) in enumerate(PROGRAMS.items()):
        if index not in chosen:
            continue
        built = build(source)
        pipeline = SoftPipeline(built, relaxed=False)
        for ranking in ("gradient", "random"):
            found = verified = steps = runs = 0
            started = time.process_time()
            for trial in range(args.targets):
                x = random.Random(trial).randrange(1 << 16)
                target = interpret(source, [x]).output
                d = descend(built, target, steps=args.steps, candidates=args.candidates, ranking=ranking,
                            seed=trial, pipeline=pipeline)
                found += d.found is not None
                verified += d.verified
                steps += d.iterations
                runs += d.evaluations
            cpu = time.process_time() - started
            print(f"{name:28} {ranking:9} {found:>3}/{args.targets:<3} {verified:>5}/{args.targets:<3} "
                  f"{steps / args.targets:>11.1f} {runs:>7} {cpu:>7.1f}", flush=True)


if __name__ == "__main__":
    from ncpu.pipes import run_script
    run_script(main)
