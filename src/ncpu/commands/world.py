"""`ncpu world train | eval | watch`: the JEPA world model of the nCPU machine."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from ncpu.cli import CommandError

DEFAULT_CHECKPOINT = Path("world.pt")


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
                                       "at the end, with the anomaly thresholds calibrated on held-out "
                                       "validation programs.")
    _checkpoint_option(train)
    train.add_argument("--steps", type=_positive, default=None,
                       help="total optimiser steps (default: %(default)s -> the TrainConfig default)")
    train.add_argument("--seed", type=int, default=0, help="seed of the weights and the programs (default 0)")
    train.add_argument("--resume", action="store_true", help="continue from the checkpoint if it exists")
    train.add_argument("--threads", type=_positive, default=1, help="torch CPU threads (default 1)")
    train.set_defaults(func=run_train)

    evaluate = sub.add_parser("eval", help="print the held-out figures",
                              description="1-step latent error against 'no change' and linear baselines, "
                                          "probe-decoded accuracy, k-step rollouts, anomaly AUROC per "
                                          "fault type and branch speculation, on held-out programs.")
    _checkpoint_option(evaluate)
    evaluate.add_argument("--programs", type=_positive, default=300,
                          help="held-out random programs (default 300; the corpus share is always added)")
    evaluate.add_argument("--seed", type=int, default=0, help="seed for sampling rollouts and faults")
    evaluate.add_argument("--json", action="store_true", help="print exactly one JSON object")
    evaluate.set_defaults(func=run_eval)

    watch = sub.add_parser("watch", help="run a program beside the predictor, step by step",
                           description="Run PROGRAM on the exact machine and score every step by how "
                                       "far the observed next state is from the prediction; steps over "
                                       "the calibrated threshold are flagged ('!').")
    watch.add_argument("file", metavar="PROGRAM.asm", help="program file (its header sets the start state)")
    _checkpoint_option(watch)
    watch.add_argument("--fault", action="append", default=[], metavar="KIND@STEP",
                       help="inject a fault after STEP: register, alu, skip, memory or branch (repeatable)")
    watch.add_argument("--max-steps", type=_positive, default=200, help="steps to run (default 200)")
    watch.add_argument("--score", choices=("probe", "latent"), default="probe",
                       help="score that flags a step (default probe)")
    watch.add_argument("--png", metavar="FILE", help="also plot the error trace to FILE")
    watch.add_argument("--json", action="store_true", help="print exactly one JSON object")
    watch.set_defaults(func=run_watch)


def _checkpoint_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--checkpoint", type=Path, default=DEFAULT_CHECKPOINT,
                        help=f"model checkpoint (default: {DEFAULT_CHECKPOINT})")


def _positive(text: str) -> int:
    try:
        value = int(text, 0)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got '{text}'") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got '{text}'")
    return value


def _load(path: Path):
    from ncpu.world.train import load_model
    if not path.exists():
        raise CommandError(f"no checkpoint at {path}; run `ncpu world train` first")
    try:
        return load_model(path)
    except Exception as error:  # a corrupt or foreign file
        raise CommandError(f"cannot load {path}: {error}") from None


def run_train(args) -> int:
    import time

    import torch
    from tqdm import tqdm

    from ncpu.world.model import WorldConfig
    from ncpu.world.train import TrainConfig, train

    torch.set_num_threads(args.threads)
    tc = TrainConfig(seed=args.seed, **({"steps": args.steps} if args.steps else {}))
    started = time.perf_counter()
    with tqdm(total=tc.steps, desc="training", unit="step", file=sys.stderr) as bar:
        def progress(step: int, terms: dict) -> None:
            if bar.n == 0 and step > 1:
                bar.update(step - 1)  # resumed
            bar.update(1)
            bar.set_postfix(predict=f"{terms['predict']:.4f}", var=f"{terms['variance']:.3f}",
                            probe=f"{terms['probe_next']:.3f}")
        train(tc, WorldConfig(), args.checkpoint, args.resume, progress)
    print(f"trained {tc.steps} steps in {time.perf_counter() - started:.0f} s; checkpoint {args.checkpoint}")
    return 0


def run_eval(args) -> int:
    import torch

    from ncpu.world.evaluate import evaluate

    torch.set_num_threads(1)
    model, checkpoint = _load(args.checkpoint)
    result = evaluate(model, checkpoint.get("thresholds"), args.programs, args.seed)
    result["checkpoint"] = {"path": str(args.checkpoint), "steps": checkpoint["step"],
                            "config": checkpoint["config"]}
    print(json.dumps(result) if args.json else format_report(result))
    return 0


def format_report(r: dict) -> str:
    """The eval result as the tables the README quotes."""
    p, o = r["programs"], r["one_step"]
    lines = [f"held-out programs: {p['random']} random + corpus {', '.join(p['corpus'])} "
             f"({p['transitions']:,} transitions)", "",
             f"{'1-step prediction':<22}{'latent MSE':>12}{'bit acc':>10}{'state acc':>11}"]
    for name in ("model", "no_change", "linear"):
        row = o[name]
        lines.append(f"{name.replace('_', ' '):<22}{row['latent_mse']:>12.4g}{row['bit_accuracy']:>10.2%}"
                     f"{row['state_accuracy']:>11.2%}")
    probe = o["probe_on_true_latents"]
    lines.append(f"{'probe on true latents':<22}{'':>12}{probe['bit_accuracy']:>10.2%}{probe['state_accuracy']:>11.2%}")
    lines += ["", "model bit accuracy by field: " + "  ".join(f"{k} {v:.2%}" for k, v in o["model"]["fields"].items()),
              "by instruction class:  " + "  ".join(
                  f"{k} {v['bit_accuracy']:.2%} bits / {v['state_accuracy']:.2%} states ({v['steps']})"
                  for k, v in o["per_class"].items())]
    lat = o["latent"]
    lines.append(f"latents: {lat['dims']} dims, per-dim variance min {lat['variance_min']:.3g} / median "
                 f"{lat['variance_median']:.3g} / max {lat['variance_max']:.3g}, dims with std < 0.1: "
                 f"{lat['dims_std_below_0.1']}, effective rank {lat['effective_rank']:.1f}")
    ro = r["rollouts"]
    lines += ["", f"{'open-loop rollout':<22}{'state acc':>11}{'bit acc':>10}"]
    for k in ("k=1", "k=4", "k=16", "k=64"):
        lines.append(f"{k:<22}{ro[k]['state_accuracy']:>11.2%}{ro[k]['bit_accuracy']:>10.2%}")
    d = ro["steps_to_divergence"]
    lines.append(f"mean exact steps before the first divergence: {d['mean']:.2f} "
                 f"(horizon {d['horizon']}, {d['never_diverged']:.1%} never diverged)")
    an = r["anomalies"]
    lines += ["", f"{'fault':<12}{'count':>7}{'AUROC latent':>14}{'AUROC probe':>13}{'caught@thr':>12}"]
    for kind in ("register", "alu", "skip", "memory", "branch"):
        if kind in an:
            row = an[kind]
            caught = f"{row['detected_probe']:.1%}" if "detected_probe" in row else "-"
            lines.append(f"{kind:<12}{row['faults']:>7}{row['auroc_latent']:>14.4f}{row['auroc_probe']:>13.4f}{caught:>12}")
    if "false_positive_rate" in an:
        lines.append(f"threshold (probe score) flags {an['false_positive_rate']['probe']:.2%} of clean held-out steps")
    sp = r["speculation"]
    lines += ["", "branch outcome from latents (held-out corpus): " + "  ".join(
        f"{k.split('_')[1]} {v['accuracy']:.1%} of {v['branches']}" for k, v in sp.items() if k.startswith("branch"))]
    sv = sp["speculate_verify"]
    lines.append(f"speculate-then-verify (horizon {sv['horizon']}): {sv['steps']} steps in {sv['rounds']} rounds, "
                 f"{sv['sequential_steps_saved']} sequential steps saved ({sv['saved_share']:.1%})")
    return "\n".join(lines)


def run_watch(args) -> int:
    import torch

    from ncpu.commands._load import assemble_file
    from ncpu.machine.program_file import ProgramFileError, load_program_file
    from ncpu.world.faults import FAULTS
    from ncpu.world.watch import FaultNotApplied, plot, watch

    torch.set_num_threads(1)
    faults = {}
    for text in args.fault:
        kind, _, step = text.partition("@")
        if kind not in FAULTS or not step.isdigit():
            raise CommandError(f"--fault expects KIND@STEP with KIND one of {', '.join(FAULTS)}, got '{text}'")
        faults[int(step)] = kind
    assemble_file(args.file)
    try:
        loaded = load_program_file(args.file)
    except ProgramFileError as error:
        raise CommandError(str(error)) from None
    model, checkpoint = _load(args.checkpoint)
    thresholds = checkpoint.get("thresholds")
    if not thresholds:
        raise CommandError(f"{args.checkpoint} has no calibrated thresholds (training did not finish)")
    try:
        steps = watch(model, thresholds, loaded.program.words, loaded.fresh_state(), args.max_steps,
                      faults, score=args.score)
    except FaultNotApplied as error:
        raise CommandError(str(error)) from None
    if args.png:
        plot(steps, thresholds, args.png, f"{args.file}: per-step prediction error", args.score)
    if args.json:
        print(json.dumps({"threshold": thresholds[args.score], "score": args.score,
                          "false_positive_rate": 0.01, "steps": [vars(s) for s in steps]}))
        return 0
    print(f"{'step':>5} {'pc':>4}  {'instruction':<22}{'latent':>10}{'probe':>10}")
    for s in steps:
        mark = "!" if s.flagged else " "
        fault = f"  <- {s.fault} fault injected" if s.fault else ""
        print(f"{s.step:>5} {s.pc:>4}  {s.instruction:<22}{s.latent:>10.4f}{s.probe:>10.2f} {mark}{fault}")
    flagged = sum(s.flagged for s in steps)
    print(f"{flagged} of {len(steps)} steps flagged; threshold {thresholds[args.score]:.4g} on the {args.score} "
          f"score flags 1% of clean steps of held-out validation programs")
    return 0
