"""Held-out figures for a trained world model.

Every figure is computed on programs of the `eval` split (random programs
and corpus files whose content hash never puts them in training); the
anomaly threshold is calibrated on the `valid` split.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import numpy as np
import torch
import torch.nn.functional as F

from ncpu.isa.opcodes import OPCODES as ALL_OPCODES
from ncpu.world.calibrate import ErrorRates
from ncpu.world.faults import FAULTS, inject
from ncpu.world.features import (CLASSES, CONDITIONAL_CODES, STATE_FIELDS, action_bits,
                                 instruction_class, state_bits)
from ncpu.world.model import WorldModel
from ncpu.world.traces import Trace, corpus_traces, random_traces
from ncpu.world.trips import Latches, TripHead, trip_report

MNEMONIC = {op.code: op.mnemonic for op in ALL_OPCODES}
ROLLOUT_KS = (1, 4, 16, 64)
SPECULATION_KS = (1, 4, 16)
FALSE_POSITIVE_RATE = 0.01  # the anomaly threshold: this share of clean valid steps flagged
EVAL_SEED = 10**9  # random eval programs come from seeds far from training's
ERROR_RATE_SEED = 7 * 10**8  # valid programs for the calibrated score's error rates (not the thresholds')


@dataclass
class Transitions:
    """Every step of some traces, aligned: raw and bit forms."""

    before: np.ndarray  # int64[N, 22]
    action: np.ndarray  # int64[N, 8]
    after: np.ndarray  # int64[N, 22]

    @classmethod
    def of(cls, traces: list[Trace]) -> Transitions:
        return cls(np.concatenate([t.states[:-1] for t in traces]),
                   np.concatenate([t.actions for t in traces]),
                   np.concatenate([t.states[1:] for t in traces]))

    def bits(self) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        return (torch.from_numpy(state_bits(self.before)), torch.from_numpy(action_bits(self.action)),
                torch.from_numpy(state_bits(self.after)))


def held_out(split: str = "eval", programs: int = 300, max_steps: int = 256, seed: int | None = None) -> list[Trace]:
    """Random programs of `split` (drawn from `seed` on) plus the corpus files of `split`."""
    if seed is None:
        seed = EVAL_SEED if split == "eval" else EVAL_SEED // 2
    return random_traces(split, seed, programs, max_steps) + corpus_traces(split, 4 * max_steps)


def _batched(fn, *tensors: torch.Tensor, size: int = 4096) -> torch.Tensor:
    return torch.cat([fn(*(t[i:i + size] for t in tensors)) for i in range(0, len(tensors[0]), size)])


SCORES = ("latent", "latent_word", "probe", "probe_bit", "calibrated")


@torch.no_grad()
def predicted_logits(model: WorldModel, data: Transitions) -> tuple[np.ndarray, np.ndarray]:
    """Probe logits of the predicted next states [N, 608] and the observed next-state bits."""
    before, action, after = data.bits()
    logits = _batched(lambda b, a: model.decode(model.predict(model.encode(b), a)), before, action)
    return logits.numpy(), after.numpy()


def fit_error_rates(model: WorldModel, traces: list[Trace]) -> ErrorRates:
    """The calibrated score's error rates, measured on clean runs of `traces`."""
    data = Transitions.of(traces)
    return ErrorRates.fit(data.action, *predicted_logits(model, data), before=state_bits(data.before))


@torch.no_grad()
def anomaly_scores(model: WorldModel, data: Transitions, rates: ErrorRates | None = None) -> dict[str, torch.Tensor]:
    """Per-step fault scores [N], each a distance between the prediction and
    the observed next state:

      latent       latent prediction error, mean over every latent dimension
      latent_word  the same for the worst word (mean per slot, max over slots):
                   a fault touches one or two words of 19
      probe        negative log-likelihood of the observed bits under the
                   probe reading the predicted latent (sum over the 608 bits)
      probe_bit    the largest single-bit surprise of that likelihood
      calibrated   the largest single-bit surprise under the error rates
                   measured per context on validation runs (`calibrate.py`);
                   only with `rates`
    """
    d = model.config.word_latent
    before, action, after = data.bits()

    def scores(b, a, s):
        predicted = model.predict(model.encode(b), a)
        error = (predicted - model.encode_target(s)).pow(2)  # (n, S*d)
        logits = model.decode(predicted)
        surprise = F.binary_cross_entropy_with_logits(logits, s, reduction="none")  # (n, 608)
        return torch.cat([torch.stack([error.mean(-1), error.view(len(error), -1, d).mean(-1).amax(-1),
                                       surprise.sum(-1), surprise.amax(-1)], -1), logits], -1)
    stacked = _batched(scores, before, action, after)
    out = {name: stacked[:, i] for i, name in enumerate(SCORES[:4])}
    if rates is not None:
        out["calibrated"] = torch.from_numpy(rates.worst(data.action, stacked[:, 4:].numpy(), after.numpy(),
                                                         before.numpy()))
    return out


def auroc(positive: np.ndarray, negative: np.ndarray) -> float:
    """Probability that a positive scores above a negative (ties count half):
    the Mann-Whitney U statistic over average ranks."""
    scores = np.concatenate([positive, negative])
    _, inverse, counts = np.unique(scores, return_inverse=True, return_counts=True)
    average_rank = np.cumsum(counts) - (counts - 1) / 2  # 1-based rank of each distinct value
    ranks = average_rank[inverse]
    n_pos, n_neg = len(positive), len(negative)
    return float((ranks[:n_pos].sum() - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg))


def thresholds(model: WorldModel, traces: list[Trace], rates: ErrorRates | None) -> dict[str, float]:
    """Score thresholds that flag FALSE_POSITIVE_RATE of the clean steps of `traces`."""
    scores = anomaly_scores(model, Transitions.of(traces), rates)
    return {k: float(np.quantile(v.numpy(), 1 - FALSE_POSITIVE_RATE)) for k, v in scores.items()}


def calibration_of(model: WorldModel, checkpoint: dict) -> tuple[dict[str, float], ErrorRates]:
    """The checkpoint's thresholds and error rates, or (for a checkpoint saved
    without them) both measured now on the same validation programs as training does."""
    saved = checkpoint.get("thresholds") or {}
    if "error_rates" in checkpoint and all(name in saved for name in SCORES):
        rates = ErrorRates(np.asarray(checkpoint["error_rates"], np.float64))
        if rates.fits():
            return saved, rates
    rates = fit_error_rates(model, held_out("valid", 600, seed=ERROR_RATE_SEED))
    return thresholds(model, held_out("valid", 200), rates), rates


def effective_rank(z: torch.Tensor) -> float:
    """exp(entropy) of the normalised singular values of centred latents (RankMe)."""
    s = torch.linalg.svdvals(z - z.mean(0))
    p = s / s.sum()
    return float(torch.exp(-(p * torch.log(p + 1e-12)).sum()))


def linear_baseline(model: WorldModel, traces: list[Trace], ridge: float = 1e4) -> torch.Tensor:
    """Ridge regression of the latent *change*: W with [z_t, a_t, 1] @ W ≈
    z_{t+1} - z_t, fitted on `traces`; the prediction is z_t + [z_t, a_t, 1] @ W.
    The ridge shrinks it toward "no change" where the fitting programs say
    little (dimensions that never vary there); 1e4 was the best of 1, 1e2
    and 1e4 on validation programs."""
    before, action, after = Transitions.of(traces).bits()
    with torch.no_grad():
        z = _batched(model.encode, before)
        x = torch.cat([z, action, torch.ones(len(action), 1)], 1).double()
        y = (_batched(model.encode_target, after) - z).double()
    gram = x.T @ x + ridge * torch.eye(x.shape[1], dtype=x.dtype)
    return torch.linalg.solve(gram, x.T @ y).float()


def _bit_scores(decoded: torch.Tensor, truth: torch.Tensor) -> dict[str, float]:
    match = decoded == (truth > 0.5)
    return {"bit_accuracy": float(match.float().mean()), "state_accuracy": float(match.all(-1).float().mean())}


@torch.no_grad()
def one_step(model: WorldModel, data: Transitions, linear: torch.Tensor) -> dict:
    """Latent error and decoded-state accuracy of the predictor and the baselines."""
    before, action, after = data.bits()
    z = _batched(model.encode, before)
    target = _batched(model.encode_target, after)
    predictions = {
        "model": _batched(model.predict, z, action),
        "no_change": _batched(model.encode_target, before),
        "linear": z + torch.cat([z, action, torch.ones(len(z), 1)], 1) @ linear,
    }
    out = {}
    for name, predicted in predictions.items():
        row = {"latent_mse": float((predicted - target).pow(2).mean())}
        decoded = before > 0.5 if name == "no_change" else _batched(model.decode, predicted) > 0
        row.update(_bit_scores(decoded, after))
        out[name] = row
    decoded = _batched(model.decode, predictions["model"]) > 0
    out["model"]["fields"] = {name: float((decoded[:, s] == (after[:, s] > 0.5)).float().mean())
                              for name, s in STATE_FIELDS.items()}
    classes = instruction_class(data.action[:, 0])
    out["per_class"] = {name: {**_bit_scores(decoded[classes == i], after[classes == i]),
                               "steps": int((classes == i).sum())}
                        for i, name in enumerate(CLASSES) if (classes == i).any()}
    # Per opcode: where the predictor is wrong on clean steps is where a fault
    # hides (it looks like what the model expected), so this is the table to read first.
    ops = data.action[:, 0]
    out["per_op"] = {MNEMONIC[code]: {"state_accuracy": float((decoded[ops == code] == (after[ops == code] > 0.5))
                                                              .all(-1).float().mean()),
                                      "steps": int((ops == code).sum())} for code in np.unique(ops)}
    out["probe_on_true_latents"] = _bit_scores(_batched(model.decode, target) > 0, after)
    # Collapse is measured where the anti-collapse terms act: over the byte
    # latents of every word of every state (per-dimension variance of the
    # flat state latent would also count bytes that are constant in every
    # state, such as the flags word's upper three).
    b = model.config.byte_latent
    byte_latents = target.reshape(-1, b)
    variance = byte_latents.var(0)
    out["latent"] = {"byte_dims": b, "variance_min": float(variance.min()),
                     "variance_median": float(variance.median()), "variance_max": float(variance.max()),
                     "dims_std_below_0.1": int((variance.sqrt() < 0.1).sum()),
                     "byte_effective_rank": effective_rank(byte_latents[:65536]),
                     "dims": int(target.shape[1]), "effective_rank": effective_rank(target[:8192])}
    return out


def _windows(traces: list[Trace], k: int, rng: random.Random, limit: int, need_full: bool = True):
    """Up to `limit` (trace, start) pairs with k steps after start (fewer allowed unless need_full)."""
    pairs = [(t, s) for t in traces for s in range(len(t) if not need_full else len(t) - k + 1)]
    return rng.sample(pairs, min(limit, len(pairs)))


@torch.no_grad()
def _roll(model: WorldModel, pairs, k: int) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """Decoded states [P, k, 548] of open-loop rollouts, the true states and a valid mask [P, k]."""
    starts = torch.from_numpy(state_bits(np.stack([t.states[s] for t, s in pairs])))
    actions = np.zeros((len(pairs), k, 8), np.int64)
    truth = np.zeros((len(pairs), k, 22), np.int64)
    valid = np.zeros((len(pairs), k), bool)
    for i, (t, s) in enumerate(pairs):
        n = min(k, len(t) - s)
        actions[i, :n], truth[i, :n], valid[i, :n] = t.actions[s:s + n], t.states[s + 1:s + 1 + n], True
    action = torch.from_numpy(action_bits(actions.reshape(-1, 8))).view(len(pairs), k, -1)
    latents = model.rollout(model.encode(starts), action)
    decoded = model.decode(latents) > 0
    true_bits = torch.from_numpy(state_bits(truth.reshape(-1, 22))).view(len(pairs), k, -1) > 0.5
    return decoded, true_bits, torch.from_numpy(valid)


@torch.no_grad()
def rollouts(model: WorldModel, traces: list[Trace], rng: random.Random, limit: int = 1000) -> dict:
    """Exact whole-state accuracy after k open-loop steps, and the mean number
    of steps a rollout (at most 64 long) stays exact."""
    out = {}
    for k in ROLLOUT_KS:
        pairs = _windows(traces, k, rng, limit)
        decoded, truth, _ = _roll(model, pairs, k)
        exact = (decoded[:, -1] == truth[:, -1]).all(-1)
        out[f"k={k}"] = {"state_accuracy": float(exact.float().mean()),
                         "bit_accuracy": float((decoded[:, -1] == truth[:, -1]).float().mean()),
                         "rollouts": len(pairs)}
    horizon = max(ROLLOUT_KS)
    pairs = _windows(traces, horizon, rng, limit, need_full=False)
    decoded, truth, valid = _roll(model, pairs, horizon)
    wrong = ~(decoded == truth).all(-1) & valid  # (P, K)
    length = valid.sum(1)
    first = torch.where(wrong.any(1), wrong.float().argmax(1), length)
    out["steps_to_divergence"] = {"mean": float(first.float().mean()), "horizon": horizon,
                                  "never_diverged": float((~wrong.any(1)).float().mean())}
    return out


def _fault_set(data: Transitions, kind: str, rng: random.Random, limit: int):
    rows, faulty = [], []
    for i in rng.sample(range(len(data.action)), len(data.action)):
        bad = inject(kind, data.before[i], data.action[i], data.after[i], rng)
        if bad is not None:
            rows.append(i)
            faulty.append(bad)
            if len(rows) == limit:
                break
    return np.array(rows, np.int64), np.array(faulty, np.int64).reshape(-1, 22)


@torch.no_grad()
def anomalies(model: WorldModel, data: Transitions, threshold: dict[str, float] | None,
              rng: random.Random, limit: int = 2000, rates: ErrorRates | None = None) -> dict:
    """AUROC of each fault score, per fault type: faulty steps against every clean step."""
    clean = anomaly_scores(model, data, rates)
    out = {}
    if threshold:
        out["false_positive_rate"] = {k: float((clean[k] > threshold[k]).float().mean()) for k in clean}
    for kind in FAULTS:
        rows, faulty = _fault_set(data, kind, rng, limit)
        if not len(rows):
            continue
        sub = Transitions(data.before[rows], data.action[rows], faulty)
        scores = anomaly_scores(model, sub, rates)
        # The ceiling of any score read off the decoded prediction: the share of
        # faults whose changed bits the prediction does not already show as
        # changed (where the model was wrong at exactly those bits on the clean
        # step, the faulty state is what it predicted).
        logits, faulty_bits = predicted_logits(model, sub)
        clean_bits = state_bits(data.after[rows])
        visible = ((logits > 0) != (faulty_bits > 0.5)) & (faulty_bits != clean_bits)
        row = {"faults": len(rows), "visible": float(visible.any(-1).mean())}
        for name in clean:
            row[f"auroc_{name}"] = auroc(scores[name].numpy(), clean[name].numpy())
            if threshold:
                row[f"detected_{name}"] = float((scores[name] > threshold[name]).float().mean())
        out[kind] = row
    return out


@torch.no_grad()
def speculation(model: WorldModel, traces: list[Trace], horizon: int = 16) -> dict:
    """Branch outcomes predicted k steps ahead, and a speculate-then-verify tally.

    Branches: for each conditional branch at step j of a trace (target !=
    fall-through), roll the predictor open-loop from the exact state at
    j-k+1 over the recorded instructions, decode the pc after the branch and
    check whether it names the direction taken.
    Speculate-then-verify: from an exact state, speculate `horizon` steps,
    verify them against exact execution, keep the exact prefix, execute the
    first wrong step exactly, repeat. With a verifier that checks a whole
    speculated run at once, each round costs one sequential step.
    """
    out = {}
    for k in SPECULATION_KS:
        pairs = []
        for t in traces:
            for j in np.flatnonzero(np.isin(t.actions[:, 0], CONDITIONAL_CODES)):
                if j - k + 1 >= 0 and t.actions[j, 4] != t.states[j, 12] + 1:
                    pairs.append((t, j - k + 1))
        if not pairs:
            continue
        decoded, truth, _ = _roll(model, pairs, k)
        pc = STATE_FIELDS["pc"]
        correct = (decoded[:, -1, pc] == truth[:, -1, pc]).all(-1)
        taken = np.array([t.states[s + k, 12] == t.actions[s + k - 1, 4] for t, s in pairs])
        out[f"branch_k={k}"] = {"accuracy": float(correct.float().mean()), "branches": len(pairs),
                                "taken_share": float(taken.mean())}
    steps = rounds = 0
    for t in traces:
        position = 0
        while position < len(t):
            n = min(horizon, len(t) - position)
            decoded, truth, _ = _roll(model, [(t, position)], n)
            wrong = ~(decoded[0] == truth[0]).all(-1)
            accepted = int(wrong.float().argmax()) if wrong.any() else n
            position += accepted + (1 if accepted < n else 0)
            rounds += 1
        steps += len(t)
    out["speculate_verify"] = {"horizon": horizon, "steps": steps, "rounds": rounds,
                               "sequential_steps_saved": steps - rounds,
                               "saved_share": (steps - rounds) / steps if steps else 0.0}
    return out


def evaluate(model: WorldModel, threshold: dict[str, float] | None = None, programs: int = 300,
             seed: int = 0, rates: ErrorRates | None = None, trips: tuple[TripHead, int] | None = None) -> dict:
    """Every figure of `ncpu world eval`, as one dict. `threshold` maps each
    score to its calibrated threshold (for the "caught" share of each fault);
    `rates` (from `calibration_of`) adds the calibrated score; `trips` (a
    trip head and the training majority count) adds loop trip counts."""
    rng = random.Random(seed)
    traces = held_out("eval", programs)
    corpus = [t for t in traces if not t.name.startswith("random:")]
    data = Transitions.of(traces)
    linear = linear_baseline(model, random_traces("train", EVAL_SEED * 3, programs))
    return {
        "programs": {"random": len(traces) - len(corpus), "corpus": [t.name for t in corpus],
                     "transitions": len(data.action)},
        "one_step": one_step(model, data, linear),
        "rollouts": rollouts(model, traces, rng),
        "anomalies": anomalies(model, data, threshold, rng, rates=rates),
        "speculation": speculation(model, corpus),
        **({"trip_counts": {"held_out": trip_report(model, *trips, Latches.of(traces)),
                            "held_out_corpus": trip_report(model, *trips, Latches.of(corpus))}} if trips else {}),
    }
