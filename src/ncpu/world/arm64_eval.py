"""Held-out figures for a world model of the ARM64 machine (`arm64.py`).

The same questions as `evaluate.py` asks of the nCPU model, on random ARM64
programs of the `eval` split: 1-step latent error against "no change" and a
linear model, probe-decoded bit and whole-state accuracy (by field and by
instruction class), latent variance and effective rank, k-step open-loop
rollouts, and the AUROC of the anomaly scores per injected fault type
(thresholds set on clean `valid` programs to flag 1% of their steps),
including the calibrated score (`calibrate.py`, with the ARM64 contexts of
`arm64.CONTEXTS`: instruction form, word role, bit, confidence).
Branch speculation and loop trip counts are the nCPU model's (`evaluate.speculation`,
`trips.py`), read through the ARM64 view of a trace (`arm64.LOOPS`).
"""

from __future__ import annotations

import hashlib
import random

import numpy as np
import torch
import torch.nn.functional as F

from ncpu.cachedir import user_cache_dir
from ncpu.world import arm64
from ncpu.world.arm64_branches import KS, DirectionHead, branch_pairs, fit_direction_head, head_accuracy, taken
from ncpu.world.calibrate import ErrorRates
from ncpu.world.evaluate import (ERROR_RATE_SEED, FALSE_POSITIVE_RATE, ROLLOUT_KS, _batched, _bit_scores, auroc,
                                 effective_rank)
from ncpu.world.model import WorldConfig, WorldModel
from ncpu.world.report import one_step_lines, trip_lines
from ncpu.world.trips import Latches, TripHead, majority_count, train_trip_head, trip_report

SCORES = ("latent", "latent_word", "probe", "probe_bit", "calibrated")
# `ncpu world train --target arm64`'s defaults (TrainConfig fields): a wider state
# (34 words of 64 bits) costs about twice the nCPU model's CPU time per window.
ARM64_TRAIN = {"steps": 700, "batch": 64, "programs_per_refresh": 300, "max_trace_steps": 128,
               "calibration_programs": 150, "error_rate_programs": 400, "trip_programs": 3000, "trip_steps": 1500}


SPECULATION_KS = KS
TRIP_SEED = 3 * 10**8  # training programs for the trip head, apart from the world model's pools
TRIP_PROGRAMS, TRIP_STEPS = ARM64_TRAIN["trip_programs"], ARM64_TRAIN["trip_steps"]


def config(exact_alu: bool = False) -> WorldConfig:
    """The ARM64 model: 34 slots of 64 bits (16 latent dims per byte, as for nCPU), the instruction word
    as action; `exact_alu`: the variant holding the ARM64 CPU's executor (`arm64_alu.py`)."""
    return WorldConfig(words=arm64.WORDS, word_bits=arm64.WORD_BITS, action_bits=arm64.ACTION_BITS,
                       word_latent=128, exact_alu=exact_alu, target="arm64")


def held_out(split: str, programs: int, max_steps: int = 128) -> list[arm64.Arm64Trace]:
    seed = arm64.EVAL_SEED if split == "eval" else arm64.EVAL_SEED // 2
    return arm64.random_traces(split, seed, programs, max_steps)


def _transitions(traces):
    before = np.concatenate([t.states[:-1] for t in traces])
    after = np.concatenate([t.states[1:] for t in traces])
    words = np.concatenate([t.actions for t in traces])
    return before, words, after


def _bits(before: np.ndarray, words: np.ndarray, after: np.ndarray):
    return (torch.from_numpy(arm64.state_bits(before)), torch.from_numpy(arm64.action_bits(words)),
            torch.from_numpy(arm64.state_bits(after)), torch.from_numpy(words.astype(np.int64)))


@torch.no_grad()
def anomaly_scores(model: WorldModel, before: np.ndarray, words: np.ndarray, after: np.ndarray,
                   rates: ErrorRates | None = None) -> dict:
    """The scores of `evaluate.anomaly_scores`, per step (the calibrated one only with `rates`)."""
    d = model.config.word_latent

    def scores(b, a, s, w):
        predicted = model.predict(model.encode(b), a)
        error = (predicted - model.encode_target(s)).pow(2)
        logits = model.decode(predicted)
        surprise = F.binary_cross_entropy_with_logits(logits, s, reduction="none")
        calibrated = (torch.from_numpy(rates.worst(w.numpy(), logits.numpy(), s.numpy(), b.numpy())).float()
                      if rates else torch.zeros(len(s)))
        return torch.stack([error.mean(-1), error.view(len(error), -1, d).mean(-1).amax(-1),
                            surprise.sum(-1), surprise.amax(-1), calibrated], -1)
    stacked = _batched(scores, *_bits(before, words, after), size=2048)
    names = SCORES if rates else SCORES[:-1]
    return {name: stacked[:, i].numpy() for i, name in enumerate(names)}


@torch.no_grad()
def fit_error_rates(model: WorldModel, programs: int, max_steps: int = 128) -> ErrorRates:
    """The calibrated score's error rates, from clean runs of validation programs
    (other seeds than the thresholds' programs; never trained on, never evaluated on)."""
    before, words, after = _transitions(arm64.random_traces("valid", ERROR_RATE_SEED, programs, max_steps))
    b, a, s, _ = _bits(before, words, after)
    # float16 logits: 2,176 of them a step would take 300 MB as float32 (the confidence bins barely move)
    logits = _batched(lambda b, a: model.decode(model.predict(model.encode(b), a)).half(), b, a, size=2048)
    return ErrorRates.fit(words, logits.numpy(), s.numpy() > 0.5, arm64.CONTEXTS, before=b.numpy() > 0.5)


def arm64_thresholds(model: WorldModel, programs: int = 200, max_steps: int = 128,
                     rates: ErrorRates | None = None) -> dict[str, float]:
    scores = anomaly_scores(model, *_transitions(held_out("valid", programs, max_steps)), rates)
    return {k: float(np.quantile(v, 1 - FALSE_POSITIVE_RATE)) for k, v in scores.items()}


def arm64_calibration(model: WorldModel, calibration_programs: int, error_rate_programs: int,
                      max_steps: int = 128) -> dict:
    """What the ARM64 anomaly scores need beside the weights: error rates and thresholds."""
    rates = fit_error_rates(model, error_rate_programs, max_steps)
    return {"thresholds": arm64_thresholds(model, calibration_programs, max_steps, rates),
            "error_rates": rates.table.astype(np.float32)}


def arm64_calibration_of(model: WorldModel, checkpoint: dict) -> tuple[dict[str, float], ErrorRates]:
    """The checkpoint's thresholds and error rates, or both measured now as training does."""
    if "error_rates" in checkpoint and "calibrated" in (checkpoint.get("thresholds") or {}):
        rates = ErrorRates(np.asarray(checkpoint["error_rates"], np.float64), arm64.CONTEXTS)
        if rates.fits():
            return checkpoint["thresholds"], rates
    checkpoint = {**checkpoint, **arm64_calibration(model, ARM64_TRAIN["calibration_programs"],
                                                    ARM64_TRAIN["error_rate_programs"])}
    return checkpoint["thresholds"], ErrorRates(np.asarray(checkpoint["error_rates"], np.float64), arm64.CONTEXTS)


@torch.no_grad()
def evaluate_arm64(model: WorldModel, thresholds: dict[str, float] | None, programs: int = 300,
                   seed: int = 0, faults_per_kind: int = 2000, rates: ErrorRates | None = None,
                   trips: tuple[TripHead, int] | None = None, directions: DirectionHead | None = None) -> dict:
    """Every held-out figure of `ncpu world eval --target arm64`; `rates` adds the calibrated
    score; `trips` (a trip head and the training majority count) adds loop trip counts;
    `directions` adds the direction head's branch directions."""
    rng = random.Random(seed)
    traces = held_out("eval", programs)
    before, words, after = _transitions(traces)
    b, a, s = (torch.from_numpy(arm64.state_bits(before)), torch.from_numpy(arm64.action_bits(words)),
               torch.from_numpy(arm64.state_bits(after)))
    z = _batched(model.encode, b)
    target = _batched(model.encode_target, s)
    # Linear baseline: ridge regression of the latent change on [z, a, 1], fitted on
    # training programs (at most 100: the latent has 4,352 dims, the Gram matrix is 4,385 square).
    tb, tw, ta = _transitions(arm64.random_traces("train", arm64.EVAL_SEED * 3, min(programs, 100)))
    xz = _batched(model.encode, torch.from_numpy(arm64.state_bits(tb)))
    x = torch.cat([xz, torch.from_numpy(arm64.action_bits(tw)), torch.ones(len(tw), 1)], 1)
    y = _batched(model.encode_target, torch.from_numpy(arm64.state_bits(ta))) - xz
    gram = (x.T @ x).double() + 1e4 * torch.eye(x.shape[1], dtype=torch.float64)
    w = torch.linalg.solve(gram, (x.T @ y).double()).float()
    predictions = {"model": _batched(model.predict, z, a), "no_change": _batched(model.encode_target, b),
                   "linear": z + torch.cat([z, a, torch.ones(len(z), 1)], 1) @ w}
    one = {}
    for name, predicted in predictions.items():
        decoded = b > 0.5 if name == "no_change" else _batched(model.decode, predicted) > 0
        one[name] = {"latent_mse": float((predicted - target).pow(2).mean()), **_bit_scores(decoded, s)}
    decoded = _batched(model.decode, predictions["model"]) > 0
    one["model"]["fields"] = {k: float((decoded[:, f] == (s[:, f] > 0.5)).float().mean())
                              for k, f in arm64.STATE_FIELDS.items()}
    classes = arm64.instruction_class(words)
    one["per_class"] = {name: {**_bit_scores(decoded[classes == i], s[classes == i]), "steps": int((classes == i).sum())}
                        for i, name in enumerate(arm64.CLASSES) if (classes == i).any()}
    one["probe_on_true_latents"] = _bit_scores(_batched(model.decode, target) > 0, s)
    byte_latents = target.reshape(-1, model.config.byte_latent)
    variance = byte_latents.var(0)
    one["latent"] = {"byte_dims": model.config.byte_latent, "variance_min": float(variance.min()),
                     "variance_median": float(variance.median()), "variance_max": float(variance.max()),
                     "dims_std_below_0.1": int((variance.sqrt() < 0.1).sum()),
                     "byte_effective_rank": effective_rank(byte_latents[:65536]),
                     "dims": int(target.shape[1]), "effective_rank": effective_rank(target[:8192])}
    return {"programs": {"random": len(traces), "transitions": len(words)}, "one_step": one,
            "rollouts": _rollouts(model, traces, rng),
            "anomalies": _anomalies(model, before, words, after, thresholds, rng, faults_per_kind, rates),
            "speculation": branch_speculation(model, traces, directions),
            **({"trip_counts": trip_counts(model, trips, traces)} if trips else {})}


def trip_counts(model: WorldModel, trips: tuple[TripHead, int], held: list) -> dict:
    """The trip report on held-out programs: the random ones `held` and as many counted loops."""
    traces = held + arm64.random_traces("eval", arm64.EVAL_SEED, len(held), program=arm64.loop_program)
    return {"held_out": trip_report(model, *trips, Latches.of(traces, arm64.LOOPS), arm64.LOOPS)}


def arm64_trip_head(model: WorldModel, programs: int = TRIP_PROGRAMS, steps: int = TRIP_STEPS) -> dict:
    """The trip-count head for the ARM64 model, fitted on the loops of training programs:
    random programs and counted loops (`arm64.loop_program`), half each."""
    traces = (arm64.random_traces("train", TRIP_SEED, programs // 2)
              + arm64.random_traces("train", TRIP_SEED, programs - programs // 2, program=arm64.loop_program))
    head = train_trip_head(model, traces, steps, view=arm64.LOOPS)
    return {"trip_head": head.state_dict(), "trip_majority": majority_count(traces, arm64.LOOPS)}


def arm64_trip_head_of(model: WorldModel, checkpoint: dict) -> tuple[TripHead, int]:
    """The checkpoint's trip head and majority count, or both fitted for these weights (about 40
    CPU-s; deterministic) and kept in the user cache. The shipped ARM64 weights come without them:
    the head would more than double the file."""
    saved = checkpoint if "trip_head" in checkpoint else _cached(model, "trips", arm64_trip_head)
    head = TripHead(model.config.latent, action_width=arm64.ACTION_BITS)
    head.load_state_dict({k: v.float() for k, v in saved["trip_head"].items()})
    return head.eval(), int(saved["trip_majority"])


def arm64_direction_head(model: WorldModel) -> dict:
    return {"direction_head": fit_direction_head(model).state_dict()}


def arm64_direction_head_of(model: WorldModel, checkpoint: dict) -> DirectionHead:
    """The checkpoint's direction head, or one fitted for these weights (deterministic) and kept
    in the user cache, as the trip head."""
    saved = checkpoint if "direction_head" in checkpoint else _cached(model, "directions", arm64_direction_head)
    head = DirectionHead(model.config.latent)
    head.load_state_dict({k: v.float() for k, v in saved["direction_head"].items()})
    return head.eval()


def _cached(model: WorldModel, name: str, fit) -> dict:
    digest = hashlib.sha256()
    for key, tensor in model.state_dict().items():
        digest.update(key.encode())
        digest.update(tensor.detach().cpu().contiguous().numpy().tobytes())
    path = user_cache_dir("world") / f"arm64_{name}_{digest.hexdigest()[:20]}.pt"
    if path.exists():
        return torch.load(path, weights_only=False)
    saved = fit(model)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        torch.save(saved, path.with_suffix(".tmp"))
        path.with_suffix(".tmp").replace(path)
    except OSError:         # an unwritable cache: fit again next time
        pass
    return saved


@torch.no_grad()
def branch_speculation(model: WorldModel, traces, directions: DirectionHead | None = None) -> dict:
    """Direction of each conditional branch (target != fall-through) predicted k
    steps ahead, two ways: roll the predictor open-loop from the exact state k-1 steps
    before the branch over the recorded words, decode the pc after the branch and
    check it names the direction taken (as `evaluate.speculation` for nCPU; the
    64-bit pc must be exact); and, with `directions`, the direction head's answer
    from the latent before the branch (`arm64_branches.py`)."""
    out = {}
    pc = arm64.STATE_FIELDS["pc"]
    for k in SPECULATION_KS:
        pairs = branch_pairs(traces, k)
        if not pairs:
            continue
        start = torch.from_numpy(arm64.state_bits(np.stack([t.states[i] for t, i in pairs])))
        actions = torch.from_numpy(arm64.action_bits(np.concatenate([t.actions[i:i + k] for t, i in pairs])))
        latents = model.rollout(model.encode(start), actions.view(len(pairs), k, -1))
        decoded = _batched(model.decode, latents[:, -1]) > 0
        truth = torch.from_numpy(arm64.state_bits(np.stack([t.states[i + k] for t, i in pairs]))) > 0.5
        correct = (decoded[:, pc] == truth[:, pc]).all(-1)
        out[f"branch_k={k}"] = {"accuracy": float(correct.float().mean()), "branches": len(pairs),
                                "taken_share": float(taken(pairs, k).mean())}
        if directions is not None:
            out[f"branch_k={k}"]["head_accuracy"] = head_accuracy(model, directions, traces, k)[0]
    return out


@torch.no_grad()
def _rollouts(model: WorldModel, traces, rng: random.Random, limit: int = 1000) -> dict:
    out = {}
    for k in ROLLOUT_KS:
        pairs = [(t, i) for t in traces for i in range(len(t) - k + 1)]
        pairs = rng.sample(pairs, min(limit, len(pairs)))
        if not pairs:
            continue
        start = torch.from_numpy(arm64.state_bits(np.stack([t.states[i] for t, i in pairs])))
        actions = torch.from_numpy(arm64.action_bits(np.concatenate([t.actions[i:i + k] for t, i in pairs])))
        latents = model.rollout(model.encode(start), actions.view(len(pairs), k, -1))
        decoded = model.decode(latents[:, -1]) > 0
        truth = torch.from_numpy(arm64.state_bits(np.stack([t.states[i + k] for t, i in pairs]))) > 0.5
        out[f"k={k}"] = {"state_accuracy": float((decoded == truth).all(-1).float().mean()),
                         "bit_accuracy": float((decoded == truth).float().mean()), "rollouts": len(pairs)}
    return out


def _anomalies(model, before, words, after, thresholds, rng: random.Random, limit: int,
               rates: ErrorRates | None) -> dict:
    clean = anomaly_scores(model, before, words, after, rates)
    out = {}
    if thresholds:
        out["false_positive_rate"] = {k: float((clean[k] > thresholds[k]).mean()) for k in clean}
    for kind in arm64.FAULTS:
        rows, faulty = [], []
        for i in rng.sample(range(len(words)), len(words)):
            bad = arm64.inject(kind, before[i], int(words[i]), after[i], rng)
            if bad is not None:
                rows.append(i)
                faulty.append(bad)
                if len(rows) == limit:
                    break
        if not rows:
            continue
        faulty = np.stack(faulty)
        scores = anomaly_scores(model, before[rows], words[rows], faulty, rates)
        row = {"faults": len(rows), "visible": _visible(model, before[rows], words[rows], after[rows], faulty)}
        for name in clean:
            row[f"auroc_{name}"] = auroc(scores[name], clean[name])
            if thresholds:
                row[f"detected_{name}"] = float((scores[name] > thresholds[name]).mean())
        out[kind] = row
    return out


@torch.no_grad()
def _visible(model, before, words, clean, faulty) -> float:
    """Share of faults whose changed bits the decoded prediction does not already show (as `evaluate`)."""
    b, a, s, _ = _bits(before, words, faulty)
    decoded = (_batched(lambda b, a: model.decode(model.predict(model.encode(b), a)), b, a, size=2048) > 0).numpy()
    faulty_bits, clean_bits = s.numpy() > 0.5, arm64.state_bits(clean) > 0.5
    return float(((decoded != faulty_bits) & (faulty_bits != clean_bits)).any(-1).mean())


def format_arm64_report(r: dict, flag: str = "calibrated") -> str:
    o = r["one_step"]
    lines = [f"held-out ARM64 programs: {r['programs']['random']} random ({r['programs']['transitions']:,} transitions)",
             "", f"{'1-step prediction':<22}{'latent MSE':>12}{'bit acc':>10}{'state acc':>11}"]
    lines += one_step_lines(o)
    lines += ["", f"{'open-loop rollout':<22}{'state acc':>11}{'bit acc':>10}"]
    for k, v in r["rollouts"].items():
        lines.append(f"{k:<22}{v['state_accuracy']:>11.2%}{v['bit_accuracy']:>10.2%}")
    an = r["anomalies"]
    scores = [n for n in SCORES if f"auroc_{n}" in an.get("alu", {})]
    flag = flag if flag in scores else "probe_bit"
    lines += ["", "anomaly AUROC (faulty steps against all clean held-out steps)",
              f"{'fault':<10}{'count':>7}" + "".join(f"{n:>13}" for n in scores) + f"{'caught*':>10}{'visible**':>11}"]
    for kind in arm64.FAULTS:
        if kind in an:
            row = an[kind]
            caught = f"{row['detected_' + flag]:.1%}" if f"detected_{flag}" in row else "-"
            lines.append(f"{kind:<10}{row['faults']:>7}" + "".join(f"{row['auroc_' + n]:>13.4f}" for n in scores)
                         + f"{caught:>10}{row['visible']:>11.1%}")
    if "false_positive_rate" in an:
        lines.append(f"* caught by the {flag} threshold, which flags {an['false_positive_rate'][flag]:.2%} of clean "
                     f"held-out steps (set to flag 1% of the clean steps of validation programs)")
    branches = r.get("speculation", {})
    if branches:
        share = next(iter(branches.values()))["taken_share"]
        lines += ["", "branch direction predicted k steps ahead (held-out programs), majority guess "
                  f"{max(share, 1 - share):.1%}:",
                  "  decoded pc exact: " + "  ".join(f"{k.split('_')[1]} {v['accuracy']:.1%} of {v['branches']}"
                                                     for k, v in branches.items())]
        if all("head_accuracy" in v for v in branches.values()):
            lines.append("  direction head:   " + "  ".join(f"{k.split('_')[1]} {v['head_accuracy']:.1%}"
                                                           for k, v in branches.items()))
    if "trip_counts" in r:
        lines += [""] + trip_lines(r["trip_counts"])
    return "\n".join(lines)
