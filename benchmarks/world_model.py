"""The world model's held-out figures, as the README quotes them.

    python benchmarks/world_model.py [--checkpoint CKPT] [--train [--device cuda --steps N ...]]
    python benchmarks/world_model.py --target arm64      # the ARM64 machine's model
    python benchmarks/world_model.py --target arm64 --exact-alu   # its exact_alu variant
    python benchmarks/world_model.py --complete WEIGHTS.pt --checkpoint world.pt

Without --checkpoint it evaluates the weights shipped in the package
(src/ncpu/world/weights/). With --train (or when the checkpoint is missing) it first trains a model
(default: `ncpu world train`'s defaults, CPU, one thread) and reports how
long that took and on which device; then it evaluates on held-out programs
(`ncpu world eval`) on the CPU. --complete takes weights saved elsewhere
(model and configs only, e.g. from a GPU machine) and writes a checkpoint
with what eval and watch need beside them (anomaly error rates and
thresholds, trip head; float16 tensors), computed on the CPU.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import torch

from ncpu.world import WEIGHTS
from ncpu.world.evaluate import calibration_of, evaluate
from ncpu.world.model import WorldConfig
from ncpu.world.report import format_report
from ncpu.world.train import TrainConfig, complete, load_model, train, trip_head_of


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--checkpoint", type=Path, default=None,
                        help="default: the shipped weights of --target")
    parser.add_argument("--target", choices=("ncpu", "arm64"), default="ncpu")
    parser.add_argument("--exact-alu", action="store_true",
                        help="the exact_alu variant (its shipped weights; with --train, train it)")
    parser.add_argument("--train", action="store_true", help="train a model first")
    parser.add_argument("--device", default="cpu", help="device to train on (evaluation is on the CPU)")
    parser.add_argument("--steps", type=int, default=TrainConfig.steps)
    parser.add_argument("--batch", type=int, default=TrainConfig.batch)
    parser.add_argument("--programs-per-refresh", type=int, default=TrainConfig.programs_per_refresh)
    parser.add_argument("--refresh-every", type=int, default=TrainConfig.refresh_every)
    parser.add_argument("--programs", type=int, default=300, help="held-out random programs")
    parser.add_argument("--no-eval", action="store_true", help="train only")
    parser.add_argument("--complete", type=Path, metavar="WEIGHTS", help="complete WEIGHTS into --checkpoint first")
    args = parser.parse_args()
    torch.set_num_threads(1)
    if args.checkpoint is None:
        names = {("ncpu", False): "world.pt", ("ncpu", True): "world_alu.pt",
                 ("arm64", False): "world_arm64.pt", ("arm64", True): "world_arm64_alu.pt"}
        args.checkpoint = WEIGHTS / names[args.target, args.exact_alu]
    if args.target == "arm64":
        return arm64(args)
    if args.complete:
        started = time.process_time()
        complete(args.complete, args.checkpoint, half=True)
        print(f"completed {args.complete} into {args.checkpoint} in {time.process_time() - started:.0f} s of CPU time")
    elif args.train or not args.checkpoint.exists():
        tc = TrainConfig(steps=args.steps, batch=args.batch, programs_per_refresh=args.programs_per_refresh,
                         refresh_every=args.refresh_every)
        wall, cpu = time.perf_counter(), time.process_time()
        train(tc, WorldConfig(exact_alu=args.exact_alu), args.checkpoint, device=args.device)
        name = torch.cuda.get_device_name() if args.device.startswith("cuda") else "one CPU thread"
        print(f"trained ({tc.steps} steps, batch {tc.batch}) on {args.device} ({name}) in {time.perf_counter() - wall:.0f} s wall, {time.process_time() - cpu:.0f} s CPU "
              f"of the main process")
    if args.no_eval:
        return 0
    model, checkpoint = load_model(args.checkpoint)
    parameters = sum(p.numel() for name, p in model.named_parameters() if not name.startswith("target."))
    print(f"checkpoint {args.checkpoint.name}: {checkpoint['step']} steps, {parameters:,} trained parameters")
    started = time.process_time()
    thresholds, rates = calibration_of(model, checkpoint)
    result = evaluate(model, thresholds, args.programs, rates=rates, trips=trip_head_of(model, checkpoint))
    print(format_report(result))
    print(f"(evaluation on the CPU took {time.process_time() - started:.0f} s of CPU time)")
    return 0


def arm64(args) -> int:
    from ncpu.world.arm64_eval import (ARM64_TRAIN, arm64_calibration_of, arm64_direction_head_of, arm64_trip_head_of,
                                       config, evaluate_arm64, format_arm64_report)
    if args.complete:
        started = time.process_time()
        complete(args.complete, args.checkpoint, half=True)
        print(f"completed {args.complete} into {args.checkpoint} in {time.process_time() - started:.0f} s of CPU time")
    elif args.train or not args.checkpoint.exists():
        tc = TrainConfig(**{**ARM64_TRAIN, **({"steps": args.steps} if args.steps != TrainConfig.steps else {})})
        cpu = time.process_time()
        train(tc, config(args.exact_alu), args.checkpoint, device=args.device, target="arm64")
        print(f"trained ({tc.steps} steps, batch {tc.batch}) in {time.process_time() - cpu:.0f} s CPU")
    model, checkpoint = load_model(args.checkpoint)
    parameters = sum(p.numel() for name, p in model.named_parameters() if not name.startswith("target."))
    print(f"checkpoint {args.checkpoint.name}: ARM64 target, {checkpoint['step']} steps, {parameters:,} trained parameters")
    started = time.process_time()
    thresholds, rates = arm64_calibration_of(model, checkpoint)
    trips = arm64_trip_head_of(model, checkpoint)
    directions = arm64_direction_head_of(model, checkpoint)
    print(format_arm64_report(evaluate_arm64(model, thresholds, args.programs, rates=rates, trips=trips,
                                             directions=directions)))
    print(f"(evaluation on the CPU took {time.process_time() - started:.0f} s of CPU time)")
    return 0


if __name__ == "__main__":
    from ncpu.pipes import run_script
    run_script(main)
