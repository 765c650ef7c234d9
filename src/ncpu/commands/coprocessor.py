"""`ncpu coprocessor train|eval`: the neural ALU as a routed expert inside
small Hugging Face language models trained here, measured against the base
model. See docs/coprocessor.md."""

from __future__ import annotations

import json
import sys
from pathlib import Path


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "coprocessor", help="the neural ALU inside a transformer: train and evaluate",
        description="Train a small character-level causal LM from scratch on arithmetic and prose, then a "
                    "coprocessor (read-out heads, neural ALU, write-back, gate) on the frozen model; evaluate "
                    "exact match per op and operand length, prose perplexity and gate routing, with and "
                    "without the coprocessor. See docs/coprocessor.md.")
    sub = parser.add_subparsers(dest="action", metavar="ACTION", required=True)

    train = sub.add_parser("train", help="train a base LM and its coprocessor (CPU, minutes)",
                           description="Train the base LM from scratch, then the coprocessor with the base "
                                       "frozen, then the NALU comparison head; save all three to --out "
                                       "(default: the package's shipped weights for --size).")
    train.add_argument("--arch", choices=["qwen2", "llama", "gpt2"], default="qwen2", help="model family")
    train.add_argument("--size", choices=["tiny", "small", "medium"], default="small",
                       help="tiny 2x32, small 3x64, medium 4x128 (layers x hidden)")
    train.add_argument("--lm-steps", type=int, default=2000, help="base LM steps (batch 32 x 64 chars)")
    train.add_argument("--coprocessor-steps", type=int, default=1000, help="coprocessor steps")
    train.add_argument("--nalu-steps", type=int, default=2000, help="NALU head regression steps")
    train.add_argument("--max-len", type=int, default=3, help="operand digits in training (default 3)")
    _common(train)
    train.add_argument("--out", type=Path, default=None, help="output directory")
    train.add_argument("--reuse-base", action="store_true",
                       help="keep the base model already in the output directory; train only the coprocessor")
    train.set_defaults(func=run_train)

    evaluate = sub.add_parser("eval", help="exact match, perplexity and routing, base vs base + coprocessor",
                              description="Evaluate a trained model (shipped --size, a --dir from `train`, or "
                                          "any local Hugging Face causal LM with --model, for which a "
                                          "coprocessor is first trained on the frozen model).")
    evaluate.add_argument("--size", choices=["tiny", "small", "medium"], default="small",
                          help="the shipped model to evaluate (default small)")
    evaluate.add_argument("--dir", type=Path, default=None, help="a directory written by `coprocessor train`")
    evaluate.add_argument("--model", type=Path, default=None,
                          help="a local pretrained model (save_pretrained directory); its tokenizer must write "
                               "one digit per token")
    evaluate.add_argument("--coprocessor-steps", type=int, default=1000,
                          help="with --model: coprocessor training steps (default 1000)")
    evaluate.add_argument("--n", type=int, default=100, help="problems per op and length (default 100)")
    evaluate.add_argument("--lengths", default="1-9", help="first-operand lengths, e.g. 1-9 (default)")
    evaluate.add_argument("--max-len", type=int, default=3, help="with --model: training operand digits")
    evaluate.add_argument("--no-nalu", action="store_true", help="skip the NALU comparison")
    evaluate.add_argument("--json", action="store_true", help="print the whole report as JSON")
    _common(evaluate)
    evaluate.set_defaults(func=run_eval)


def _common(parser) -> None:
    parser.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    parser.add_argument("--threads", type=int, default=1, help="torch CPU threads (default 1)")
    parser.add_argument("--device", default="cpu", help="torch device (default cpu)")


def _setup(args):
    import torch

    from ncpu.cli import CommandError

    torch.set_num_threads(max(1, args.threads))
    try:
        torch.empty(0, device=args.device)
    except (RuntimeError, ValueError) as error:
        raise CommandError(f"device {args.device!r} is not available: {error}") from None


def _bar(args, desc):
    from tqdm import tqdm

    return tqdm(desc=desc, unit="step", disable=getattr(args, "json", False))


def run_train(args) -> int:
    from ncpu.cli import CommandError
    from ncpu.coprocessor.pipeline import WEIGHTS_DIR, train_all

    _setup(args)
    for name in ("lm_steps", "coprocessor_steps", "nalu_steps"):
        if getattr(args, name) < 1:
            raise CommandError(f"--{name.replace('_', '-')} must be >= 1")
    if not 1 <= args.max_len <= 9:
        raise CommandError("--max-len must be 1..9")
    out = args.out or WEIGHTS_DIR / args.size
    with _bar(args, "training") as bar:
        def progress(stage: str, step: int, loss: float) -> None:
            bar.set_postfix_str(f"{stage} loss {loss:.3f}")
            bar.update(1)
        if args.reuse_base and not (out / "config.json").exists():
            raise CommandError(f"--reuse-base: no base model in {out}")
        train_all(out, args.arch, args.size, args.lm_steps, args.coprocessor_steps, args.nalu_steps,
                  args.max_len, args.seed, progress=progress, reuse_base=args.reuse_base)
    size = sum(f.stat().st_size for f in out.iterdir())
    print(f"saved the base model, coprocessor and NALU head to {out} ({size:,} bytes)")
    return 0


def _lengths(text: str) -> range:
    from ncpu.cli import CommandError

    try:
        low, _, high = text.partition("-")
        lengths = range(int(low), int(high or low) + 1)
    except ValueError:
        raise CommandError(f"--lengths: expected N or N-M, not {text!r}") from None
    if not lengths or lengths.start < 1 or lengths.stop > 10:
        raise CommandError(f"--lengths must lie within 1-9 (the 32-bit ALU), not {text!r}")
    return lengths


def run_eval(args) -> int:
    from ncpu.cli import CommandError
    from ncpu.coprocessor.coprocessor import CoprocessorError
    from ncpu.coprocessor.evaluate import report
    from ncpu.coprocessor.lm import load_lm
    from ncpu.coprocessor.pipeline import WEIGHTS_DIR, load_trained
    from ncpu.coprocessor.tokenizer import check_digit_tokens
    from ncpu.coprocessor.train import train_coprocessor, with_nalu

    _setup(args)
    lengths = _lengths(args.lengths)
    if args.n < 1:
        raise CommandError("--n must be >= 1")
    if args.dir and args.model:
        raise CommandError("give --dir or --model, not both")
    try:
        if args.model:
            if not args.model.is_dir():
                raise CommandError(f"--model: {args.model} is not a directory")
            model, tokenizer = load_lm(args.model, args.device)
            check_digit_tokens(tokenizer)
            with _bar(args, "coprocessor") as bar:
                alu = train_coprocessor(model, tokenizer, steps=args.coprocessor_steps, max_len=args.max_len,
                                        seed=args.seed, progress=lambda *_: bar.update(1))
            coprocessors = {"alu": alu}
            if not args.no_nalu:
                coprocessors["nalu"] = with_nalu(alu, max_len=args.max_len, seed=args.seed)
        else:
            directory = args.dir or WEIGHTS_DIR / args.size
            if not (directory / "config.json").exists():
                raise CommandError(f"no trained model in {directory}; run `ncpu coprocessor train --size "
                                   f"{args.size}` (or give --dir)")
            model, tokenizer, coprocessors = load_trained(directory, args.device)
            if args.no_nalu:
                coprocessors.pop("nalu", None)
    except (OSError, ValueError) as error:
        if isinstance(error, CommandError):
            raise
        raise CommandError(str(error).splitlines()[0]) from None
    with _bar(args, "eval") as bar:
        bar.unit = "problem"
        try:
            result = report(model, tokenizer, coprocessors, lengths, args.n, progress=bar.update)
        except CoprocessorError as error:
            raise CommandError(str(error)) from None
    if args.json:
        json.dump(result, sys.stdout, indent=1)
        print()
    else:
        print(format_report(result))
    return 0


def format_report(result: dict) -> str:
    from ncpu.coprocessor.evaluate import mean

    lines = []
    names = list(result["exact"])
    ops = list(result["exact"]["base"])
    lengths = sorted({length for table in result["exact"]["base"].values() for length in table})
    lines.append("exact match (%) per op and first-operand length; rows: " + ", ".join(names))
    lines.append(f"{'op':<4} {'model':<5} " + " ".join(f"{n:>5}" for n in lengths))
    for op in ops:
        for name in names:
            cells = result["exact"][name][op]
            lines.append(f"{op:<4} {name:<5} " + " ".join(
                f"{100 * cells[n]:>5.0f}" if n in cells else f"{'':>5}" for n in lengths))
    for name in names:
        cells = [v for table in result["exact"][name].values() for v in table.values()]
        lines.append(f"mean exact match {name}: {100 * mean(cells):.1f}%")
    base_ppl = result["perplexity"]["base"]
    for name, ppl in result["perplexity"].items():
        lines.append(f"prose perplexity {name}: {ppl:.4f} ({100 * (ppl / base_ppl - 1):+.2f}% vs base)")
    for name, shares in result["routing"].items():
        lines.append(f"routed to the ALU ({name}): " + ", ".join(f"{k} {100 * v:.1f}%" for k, v in shares.items()))
    return "\n".join(lines)
