"""Training the world model on traces generated on the fly.

Every `refresh_every` steps the pool of training transitions is rebuilt from
fresh random programs (new seeds each time, only programs whose content
falls in the `train` split) plus the corpus programs of the train split.
Batches are windows of L consecutive transitions inside one trace.

A checkpoint holds the model, the optimiser, the step and both configs;
training resumed from it draws the same programs it would have drawn.
The device (CPU or CUDA) changes how fast it trains, not which programs it sees.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Callable

import numpy as np
import torch

from ncpu.world.balanced import balanced_traces
from ncpu.world.calibrate import ErrorRates
from ncpu.world.evaluate import ERROR_RATE_SEED, fit_error_rates, held_out, thresholds
from ncpu.world.features import action_bits, state_bits
from ncpu.world.model import WorldConfig, WorldModel, losses
from ncpu.world.traces import Trace, corpus_traces, random_traces
from ncpu.world.trips import TripHead, majority_count, train_trip_head


@dataclass
class TrainConfig:
    steps: int = 4000
    batch: int = 128
    lr: float = 1e-3
    weight_decay: float = 1e-4
    programs_per_refresh: int = 400
    refresh_every: int = 250
    max_trace_steps: int = 256
    use_corpus: bool = True
    seed: int = 0
    checkpoint_every: int = 500
    calibration_programs: int = 200  # valid-split programs for the anomaly thresholds
    error_rate_programs: int = 600  # other valid-split programs for the calibrated score's error rates
    trip_programs: int = 12000  # training programs whose loops teach the trip-count head
    trip_steps: int = 3000
    balanced_programs: int = 2000  # short programs of uniformly drawn opcodes per refresh (`balanced.py`)


class WindowPool:
    """Traces flattened into arrays, sampled as windows of `window` steps.

    states float32[N, 548]; actions float32[N, 144] where row i is the
    action from state i to state i+1 (the last row of each trace is unused).
    """

    def __init__(self, traces: list, window: int, state_bits=state_bits, action_bits=action_bits):
        """`traces` of the nCPU machine (`traces.Trace`), or of another
        target with that target's `state_bits` and `action_bits`."""
        usable = [t for t in traces if len(t) >= window]
        if not usable:
            raise ValueError(f"no trace has {window} steps")
        self.states = torch.from_numpy(state_bits(np.concatenate([t.states for t in usable])))
        # A padding row after each trace keeps row i the action from state i; it is never sampled.
        padded = np.concatenate([np.concatenate([t.actions, t.actions[-1:]]) for t in usable])
        self.actions = torch.from_numpy(action_bits(padded))
        starts, offset = [], 0
        for t in usable:
            starts.append(np.arange(offset, offset + len(t) - window + 1))
            offset += len(t) + 1
        self.starts = torch.from_numpy(np.concatenate(starts))
        self.window = window
        self.transitions = sum(len(t) for t in usable)

    def sample(self, generator: torch.Generator, batch: int) -> tuple[torch.Tensor, torch.Tensor]:
        """States [B, L+1, 548] and actions [B, L, 144]."""
        pick = self.starts[torch.randint(len(self.starts), (batch,), generator=generator)]
        offsets = torch.arange(self.window + 1)
        index = pick[:, None] + offsets  # (B, L+1)
        return self.states[index], self.actions[index[:, :-1]]


BALANCED_SEED = 5 * 10**11  # balanced programs' seeds, apart from the random programs'


def training_pool(tc: TrainConfig, window: int, refresh: int, corpus: list[Trace]) -> WindowPool:
    seed = tc.seed * 1_000_000_007 + refresh * tc.programs_per_refresh * 12
    traces = random_traces("train", seed, tc.programs_per_refresh, tc.max_trace_steps)
    balanced = balanced_traces("train", BALANCED_SEED + seed * 5, tc.balanced_programs) if tc.balanced_programs else []
    return WindowPool(traces + balanced + corpus, window)


def learning_rate(tc: TrainConfig, step: int) -> float:
    warmup = min(200, tc.steps // 10 + 1)
    if step < warmup:
        return tc.lr * (step + 1) / warmup
    progress = (step - warmup) / max(1, tc.steps - warmup)
    return tc.lr * (0.1 + 0.9 * 0.5 * (1 + math.cos(math.pi * min(progress, 1.0))))


def save_checkpoint(path: Path, model: WorldModel, optimizer, step: int, tc: TrainConfig, extra: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(path.suffix + ".tmp")
    torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(), "step": step,
                "config": model.config.to_dict(), "train_config": asdict(tc), **extra}, tmp)
    tmp.replace(path)  # never leave a half-written checkpoint


def load_model(path: Path) -> tuple[WorldModel, dict]:
    """The model saved at `path` (eval mode) and the whole checkpoint dict."""
    checkpoint = torch.load(path, map_location="cpu", weights_only=False)
    model = WorldModel(WorldConfig(**checkpoint["config"]))
    model.load_state_dict({k: v.float() for k, v in checkpoint["model"].items()})
    return model.eval(), checkpoint


def trip_head_of(model: WorldModel, checkpoint: dict) -> tuple[TripHead, int]:
    """The checkpoint's trip head and majority count, or (for a checkpoint
    saved without them) both fitted now as training would."""
    if "trip_head" in checkpoint:
        head = TripHead(model.config.latent)
        head.load_state_dict({k: v.float() for k, v in checkpoint["trip_head"].items()})
        return head.eval(), int(checkpoint["trip_majority"])
    saved = trip_head(model, TrainConfig(**checkpoint.get("train_config", {})))
    return trip_head_of(model, saved)


def complete(path: Path, out: Path, half: bool = False) -> None:
    """Write to `out` the model at `path` with everything eval and watch need
    (thresholds, error rates, trip head), computed now where missing, and
    without the optimiser; `half` stores tensors as float16 (a smaller file;
    loading turns them back into float32)."""
    model, checkpoint = load_model(path)
    if half:  # calibrate the weights as they will be loaded
        rounded = {k: v.half().float() if v.is_floating_point() else v for k, v in model.state_dict().items()}
        model.load_state_dict(rounded)
        # The anomaly calibration is measured again on the rounded weights; a trip head
        # saved with the model is kept (it reads the encoder's latents, which rounding
        # moves by far less than its classes are apart; eval measures it on the rounded model).
        checkpoint = {k: v for k, v in checkpoint.items() if k not in ("thresholds", "error_rates")}
        checkpoint["model"] = rounded
    tc = TrainConfig(**checkpoint.get("train_config", {}))
    if checkpoint.get("target", "ncpu") == "arm64":
        # The ARM64 heads (trip counts, branch directions) are left out: they would more than
        # double the file; eval fits them for the weights on first use and caches them.
        from ncpu.world.arm64_eval import arm64_calibration_of
        checkpoint = {k: v for k, v in checkpoint.items() if k not in ("trip_head", "trip_majority")}
        thresholds, rates = arm64_calibration_of(model, checkpoint)
        extra = {"thresholds": thresholds, "error_rates": rates.table.astype(np.float32)}
    else:
        calibrated = ("error_rates" in checkpoint
                      and ErrorRates(np.asarray(checkpoint["error_rates"], np.float64)).fits())
        extra = {} if calibrated else calibration(model, tc)
        extra.update({} if "trip_head" in checkpoint else trip_head(model, tc))
    full = {**{k: v for k, v in checkpoint.items() if k != "optimizer"}, **extra}
    if half:
        for key in ("model", "trip_head") if "trip_head" in full else ("model",):
            full[key] = {k: v.half() if v.is_floating_point() else v for k, v in full[key].items()}
    out.parent.mkdir(parents=True, exist_ok=True)
    torch.save(full, out)


def train(tc: TrainConfig, config: WorldConfig, checkpoint: Path | None = None, resume: bool = False,
          progress: Callable[[int, dict], None] | None = None, device: str = "cpu",
          target: str = "ncpu") -> WorldModel:
    """Train for `tc.steps` steps in total (counting those of a resumed checkpoint)
    on `device` ("cpu", "cuda"), for the `target` machine: "ncpu" or "arm64"
    (`arm64.py`; give it `arm64_eval.config()`).

    `progress(step, terms)` is called after each step with the loss terms as floats.
    The returned model is on the CPU, in eval mode.
    """
    torch.manual_seed(tc.seed)
    model = WorldModel(config)
    optimizer = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad],
                                  lr=tc.lr, weight_decay=tc.weight_decay)
    start = 0
    if resume and checkpoint is not None and checkpoint.exists():
        saved = torch.load(checkpoint, map_location="cpu", weights_only=False)
        model = WorldModel(WorldConfig(**saved["config"]))
        model.load_state_dict({k: v.float() for k, v in saved["model"].items()})
        optimizer = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad],
                                      lr=tc.lr, weight_decay=tc.weight_decay)
        if "optimizer" in saved:  # a shipped checkpoint has none: go on with a fresh optimiser
            optimizer.load_state_dict(saved["optimizer"])
        start = saved["step"]
    model.to(device).train()
    _optimizer_to(optimizer, device)
    if target == "arm64":
        from ncpu.world import arm64
        stepper = arm64.Stepper()

        def pool_of(refresh: int) -> WindowPool:
            seed = tc.seed * 1_000_000_007 + refresh * tc.programs_per_refresh * 12
            return WindowPool(arm64.random_traces("train", seed, tc.programs_per_refresh, tc.max_trace_steps,
                                                  stepper), model.config.window, arm64.state_bits, arm64.action_bits)
    else:
        corpus = corpus_traces("train", tc.max_trace_steps * 4) if tc.use_corpus else []

        def pool_of(refresh: int) -> WindowPool:
            return training_pool(tc, model.config.window, refresh, corpus)
    generator = torch.Generator().manual_seed(tc.seed * 7919 + start)
    pool = None
    for step in range(start, tc.steps):
        if pool is None or step % tc.refresh_every == 0:
            pool = pool_of(step // tc.refresh_every)
        for group in optimizer.param_groups:
            group["lr"] = learning_rate(tc, step)
        states, actions = pool.sample(generator, tc.batch)
        terms = losses(model, states.to(device), actions.to(device))
        optimizer.zero_grad(set_to_none=True)
        terms["total"].backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
        model.update_target()
        if progress is not None:
            progress(step + 1, {k: float(v.detach()) for k, v in terms.items()})
        if checkpoint is not None and (step + 1) % tc.checkpoint_every == 0:
            save_checkpoint(checkpoint, model, optimizer, step + 1, tc, {"target": target})
    model.cpu().eval()
    _optimizer_to(optimizer, "cpu")
    if checkpoint is not None:
        if target == "arm64":
            from ncpu.world.arm64_eval import arm64_calibration, arm64_trip_head
            extra = {**arm64_calibration(model, tc.calibration_programs, tc.error_rate_programs, tc.max_trace_steps),
                     **arm64_trip_head(model, tc.trip_programs, tc.trip_steps)}
        else:
            extra = {**calibration(model, tc), **trip_head(model, tc)}
        save_checkpoint(checkpoint, model, optimizer, tc.steps, tc, {"target": target, **extra})
    return model


TRIP_SEED = 3 * 10**8  # training programs for the trip head, apart from the world model's pools


def trip_head(model: WorldModel, tc: TrainConfig) -> dict:
    """The trip-count head (`trips.py`), fitted on the loops of training programs."""
    traces = random_traces("train", TRIP_SEED, tc.trip_programs, tc.max_trace_steps)
    if tc.use_corpus:
        traces += corpus_traces("train", tc.max_trace_steps * 4)
    head = train_trip_head(model, traces, tc.trip_steps)
    return {"trip_head": head.state_dict(), "trip_majority": majority_count(traces)}


def calibration(model: WorldModel, tc: TrainConfig) -> dict:
    """What the anomaly scores need beside the weights, from clean runs of
    validation programs (neither trained on nor evaluated on): the measured
    error rates of the calibrated score, from one set of programs, and every
    score's threshold, from another."""
    rates = fit_error_rates(model, held_out("valid", tc.error_rate_programs, tc.max_trace_steps,
                                            seed=ERROR_RATE_SEED))
    calibrated = thresholds(model, held_out("valid", tc.calibration_programs, tc.max_trace_steps), rates)
    return {"thresholds": calibrated, "error_rates": rates.table.astype(np.float32)}


def _optimizer_to(optimizer, device: str) -> None:
    for state in optimizer.state.values():
        for key, value in state.items():
            if torch.is_tensor(value) and key != "step":
                state[key] = value.to(device)
