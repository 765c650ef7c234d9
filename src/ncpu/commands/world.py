"""`ncpu world train | eval | watch`: the JEPA world model of the nCPU machine."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from ncpu.cli import CommandError
from ncpu.commands._args import positive

TRAINED = Path("world.pt")  # where `train` writes unless told otherwise
TARGETS = ("ncpu", "arm64")


def shipped(target: str) -> Path:
    """The weights that come with the package (what eval and watch read by default)."""
    from ncpu.world import WEIGHTS
    return WEIGHTS / ("world.pt" if target == "ncpu" else "world_arm64.pt")


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "world", help="train, evaluate and watch the world model of the machine",
        description="A JEPA-style model that predicts the nCPU machine's next state in a latent space. "
                    "Trained on traces the exact machine produces on the fly; evaluated only on "
                    "programs whose content keeps them out of training.")
    sub = parser.add_subparsers(dest="world_command", metavar="ACTION", required=True)

    train = sub.add_parser("train", help="train (or resume) a model on CPU",
                           description="Train on fresh random programs and the training share of the "
                                       "programs/ corpus; saves a checkpoint every few hundred steps and "
                                       "at the end, with the anomaly score's error rates and thresholds "
                                       "measured on held-out validation programs and the trip-count head.")
    train.add_argument("--checkpoint", type=Path, default=None,
                       help="checkpoint to write (default: world.pt, or world_arm64.pt / world_arm64_alu.pt "
                            "for --target arm64)")
    _target_option(train)
    train.add_argument("--steps", type=positive, default=None,
                       help="total optimiser steps, counting those of a resumed checkpoint "
                            "(default: the default model's, TrainConfig.steps)")
    train.add_argument("--seed", type=int, default=0, help="seed of the weights and the programs (default 0)")
    train.add_argument("--resume", action="store_true", help="continue from the checkpoint if it exists")
    train.add_argument("--threads", type=positive, default=1, help="torch CPU threads (default 1)")
    train.add_argument("--device", default="cpu", help="torch device to train on: cpu (default) or cuda")
    train.add_argument("--batch", type=positive, default=None, help="windows per step (default 128)")
    train.add_argument("--exact-alu", action="store_true",
                       help="the exact_alu variant: the predictor holds an exact module, frozen (the project's "
                            "neural ALU; for --target arm64 the ARM64 CPU's executor), fed with operands the "
                            "probe decodes from the latents")
    train.set_defaults(func=run_train)

    evaluate = sub.add_parser("eval", help="print the held-out figures",
                              description="1-step latent error against 'no change' and linear baselines, "
                                          "probe-decoded accuracy, k-step rollouts, anomaly AUROC per "
                                          "fault type, branch speculation and loop trip counts, on "
                                          "held-out programs.")
    _checkpoint_option(evaluate)
    _target_option(evaluate)
    evaluate.add_argument("--programs", type=positive, default=300,
                          help="held-out random programs (default 300; the corpus share is always added)")
    evaluate.add_argument("--seed", type=int, default=0, help="seed for sampling rollouts and faults")
    evaluate.add_argument("--json", action="store_true", help="print exactly one JSON object")
    evaluate.set_defaults(func=run_eval)

    watch = sub.add_parser("watch", help="run a program beside the predictor, step by step",
                           description="Run PROGRAM on the exact machine (the nCPU machine, or our ARM64 CPU with "
                                       "--target arm64) and score every step by how "
                                       "far the observed next state is from the prediction; steps over "
                                       "the calibrated threshold are flagged ('!').")
    watch.add_argument("file", metavar="PROGRAM",
                       help="program file: nCPU assembly (its header sets the start state), or for --target "
                            "arm64 a text file of hex instruction words (`#` comments)")
    _checkpoint_option(watch)
    _target_option(watch)
    watch.add_argument("--fault", action="append", default=[], metavar="KIND@STEP",
                       help="inject a fault after STEP: register, alu, skip, memory (nCPU only) or branch "
                            "(repeatable)")
    watch.add_argument("--seed", type=int, default=0,
                       help="arm64: seed of the random start registers and of the faults (default 0)")
    watch.add_argument("--max-steps", type=positive, default=200, help="steps to run (default 200)")
    watch.add_argument("--score", choices=("latent", "latent_word", "probe", "probe_bit", "calibrated"),
                       default=None, help="score that flags a step (default: calibrated, the surprise under "
                                          "error rates measured per context on validation programs)")
    watch.add_argument("--png", metavar="FILE", help="also plot the error trace to FILE")
    watch.add_argument("--json", action="store_true", help="print exactly one JSON object")
    watch.set_defaults(func=run_watch)


def _checkpoint_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--checkpoint", type=Path, default=None,
                        help="model checkpoint (default: the weights shipped with nCPU for the target; "
                             "`ncpu world train` writes world.pt)")
    parser.add_argument("--exact-alu", action="store_true",
                        help="read the shipped weights of the exact_alu variant (world_alu.pt, or "
                             "world_arm64_alu.pt for --target arm64: the predictor holds the project's exact "
                             "neural ALU, or the ARM64 CPU's executor, frozen) instead of the purely learned model's")


def _variant(args) -> None:
    """--exact-alu names the shipped exact_alu weights of the target."""
    if args.exact_alu and args.checkpoint is None:
        from ncpu.world import WEIGHTS
        args.checkpoint = WEIGHTS / ("world_alu.pt" if args.target == "ncpu" else "world_arm64_alu.pt")


def _target_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--target", choices=TARGETS, default="ncpu",
                        help="the machine modelled: ncpu (default) or arm64 (integer registers, SP, PC, NZCV)")


def _load(path: Path | None, target: str = "ncpu"):
    from ncpu.world.train import load_model
    path = path or shipped(target)
    if not path.exists():
        raise CommandError(f"no checkpoint at {path}; run `ncpu world train` first")
    try:
        model, checkpoint = load_model(path)
    except Exception as error:  # a corrupt or foreign file
        raise CommandError(f"cannot load {path}: {error}") from None
    if checkpoint.get("target", "ncpu") != target:
        raise CommandError(f"{path} is a model of the {checkpoint.get('target', 'ncpu')} machine; "
                           f"pass --target {checkpoint.get('target', 'ncpu')}")
    return model, checkpoint


def run_train(args) -> int:
    import time

    import torch
    from tqdm import tqdm

    from ncpu.world.model import WorldConfig
    from ncpu.world.train import TrainConfig, train
    from ncpu.world.arm64_eval import ARM64_TRAIN, config as arm64_config

    torch.set_num_threads(args.threads)
    if args.device != "cpu" and not _device_available(args.device):
        raise CommandError(f"device {args.device!r} is not available here; use --device cpu")
    overrides = {"steps": args.steps, "batch": args.batch}
    defaults = ARM64_TRAIN if args.target == "arm64" else {}
    tc = TrainConfig(seed=args.seed, **{**defaults, **{k: v for k, v in overrides.items() if v}})
    config = arm64_config(args.exact_alu) if args.target == "arm64" else WorldConfig(exact_alu=args.exact_alu)
    arm64_name = "world_arm64_alu.pt" if args.exact_alu else "world_arm64.pt"
    args.checkpoint = args.checkpoint or (Path(arm64_name) if args.target == "arm64" else TRAINED)
    started = time.perf_counter()
    with tqdm(total=tc.steps, desc="training", unit="step", file=sys.stderr) as bar:
        def progress(step: int, terms: dict) -> None:
            if bar.n == 0 and step > 1:
                bar.update(step - 1)  # resumed
            bar.update(1)
            bar.set_postfix(predict=f"{terms['predict']:.4f}", var=f"{terms['variance']:.3f}",
                            probe=f"{terms['probe_next']:.3f}")
        train(tc, config, args.checkpoint, args.resume, progress, args.device, args.target)
    print(f"trained {tc.steps} steps in {time.perf_counter() - started:.0f} s; checkpoint {args.checkpoint}")
    return 0


def _device_available(name: str) -> bool:
    import torch
    try:
        torch.empty(1, device=name)
    except (RuntimeError, AssertionError, ValueError):
        return False
    return True


def run_eval(args) -> int:
    import torch

    from ncpu.world.evaluate import evaluate
    from ncpu.world.report import format_report

    torch.set_num_threads(1)
    _variant(args)
    model, checkpoint = _load(args.checkpoint, args.target)
    if args.target == "arm64":
        from ncpu.world.arm64_eval import (arm64_calibration_of, arm64_direction_head_of, arm64_trip_head_of,
                                           evaluate_arm64, format_arm64_report)
        thresholds, rates = arm64_calibration_of(model, checkpoint)
        result = evaluate_arm64(model, thresholds, args.programs, args.seed, rates=rates,
                                trips=arm64_trip_head_of(model, checkpoint),
                                directions=arm64_direction_head_of(model, checkpoint))
        result["checkpoint"] = {"path": str(args.checkpoint or shipped("arm64")), "steps": checkpoint["step"]}
        print(json.dumps(result) if args.json else format_arm64_report(result))
        return 0
    from ncpu.world.evaluate import calibration_of
    from ncpu.world.train import trip_head_of
    thresholds, rates = calibration_of(model, checkpoint)
    result = evaluate(model, thresholds, args.programs, args.seed, rates, trip_head_of(model, checkpoint))
    result["checkpoint"] = {"path": str(args.checkpoint or shipped("ncpu")), "steps": checkpoint["step"],
                            "config": checkpoint["config"]}
    print(json.dumps(result) if args.json else format_report(result))
    return 0


def run_watch(args) -> int:
    import torch

    from ncpu.world.evaluate import FALSE_POSITIVE_RATE
    from ncpu.world.watch import DEFAULT_SCORE, FaultNotApplied, plot

    torch.set_num_threads(1)
    _variant(args)
    kinds = _fault_kinds(args.target)
    faults = {}
    for text in args.fault:
        kind, _, step = text.partition("@")
        if kind not in kinds or not step.isdigit():
            raise CommandError(f"--fault expects KIND@STEP with KIND one of {', '.join(kinds)}, got '{text}'")
        faults[int(step)] = kind
    score = args.score or DEFAULT_SCORE
    try:
        steps, thresholds = (_watch_arm64 if args.target == "arm64" else _watch_ncpu)(args, faults, score)
    except FaultNotApplied as error:
        raise CommandError(str(error)) from None
    if args.png:
        try:
            plot(steps, thresholds, args.png, f"{args.file}: per-step prediction error ({score} score)", score)
        except ImportError:
            raise CommandError("--png needs matplotlib: pip install 'ncpu[world]'") from None
        except OSError as error:
            raise CommandError(f"cannot write {args.png}: {error.strerror or error}") from None
    if args.json:
        print(json.dumps({"score": score, "threshold": thresholds[score],
                          "false_positive_rate": FALSE_POSITIVE_RATE, "steps": [vars(s) for s in steps]}))
        return 0
    names = list(steps[0].scores) if steps else []
    width = 8 if args.target == "arm64" else 4
    print(f"{'step':>5} {'pc':>{width}}  {'instruction':<24}" + "".join(f"{name:>12}" for name in names))
    for s in steps:
        mark = "!" if s.flagged else " "
        fault = f"  <- {s.fault} fault injected" if s.fault else ""
        pc = f"{s.pc:x}" if args.target == "arm64" else str(s.pc)
        print(f"{s.step:>5} {pc:>{width}}  {s.instruction:<24}" + "".join(f"{s.scores[n]:>12.4g}" for n in names)
              + f" {mark}{fault}")
    flagged = sum(s.flagged for s in steps)
    print(f"{flagged} of {len(steps)} steps flagged ('!'): {score} score above {thresholds[score]:.4g}, "
          f"a threshold that flags {FALSE_POSITIVE_RATE:.0%} of the clean steps of held-out validation programs")
    return 0


def _fault_kinds(target: str) -> tuple[str, ...]:
    if target == "arm64":
        from ncpu.world.arm64 import FAULTS
        return FAULTS
    from ncpu.world.faults import FAULTS
    return FAULTS


def _watch_ncpu(args, faults: dict[int, str], score: str):
    from ncpu.commands._load import assemble_file
    from ncpu.machine.program_file import ProgramFileError, load_program_file
    from ncpu.world.evaluate import calibration_of
    from ncpu.world.watch import watch

    assemble_file(args.file)
    try:
        loaded = load_program_file(args.file)
    except ProgramFileError as error:
        raise CommandError(str(error)) from None
    model, checkpoint = _load(args.checkpoint)
    thresholds, rates = calibration_of(model, checkpoint)
    return watch(model, thresholds, rates, loaded.program.words, loaded.fresh_state(), args.max_steps,
                 faults, score=score), thresholds


def _watch_arm64(args, faults: dict[int, str], score: str):
    from ncpu.world.arm64_eval import arm64_calibration_of
    from ncpu.world.arm64_watch import read_words, watch_arm64

    try:
        words = read_words(args.file)
    except OSError as error:
        raise CommandError(f"cannot read {args.file}: {error.strerror or error}") from None
    except ValueError as error:
        raise CommandError(str(error)) from None
    model, checkpoint = _load(args.checkpoint, "arm64")
    thresholds, rates = arm64_calibration_of(model, checkpoint)
    try:
        steps = watch_arm64(model, thresholds, rates, words, args.max_steps, faults, args.seed, score)
    except (RuntimeError, ValueError) as error:
        if isinstance(error, FaultNotApplied):
            raise
        raise CommandError(str(error)) from None
    return steps, thresholds
