"""The coprocessor: the neural ALU as a routed expert in a causal LM. Read this first.

    model = inject(model, CoprocessorConfig(layers=(-1,)))
    model.generate(...)                 # answers 'A<op>B=' with the ALU
    coprocessor = eject(model)          # the model is exactly as before

`inject` walks the model for its decoder layers (the ModuleList whose
layers each have an `mlp`: Llama, Qwen2, Mistral, GPT-2, ...) and hooks
the chosen layers' MLPs; it adds no parameters to the model, so the base
weights and their state dict are untouched. In a hooked layer:

    mlp_out' = w_mlp * mlp(x) + w_alu * expert(x)         # (B, T, C)

with (w_mlp, w_alu) from the gate (gate.py) and the expert (expert.py):
read-out head -> exact operands -> arithmetic unit -> write-back.

Injecting twice is an error (eject first). The coprocessor is not a
submodule of the model: it follows the hidden states' device on its own,
and computes in float32 whatever the model's dtype.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from pathlib import Path

import torch
from torch import Tensor, nn

from ncpu.coprocessor.expert import Expert, ScanState
from ncpu.coprocessor.gate import GATES, Gate
from ncpu.coprocessor.units import ALUUnit, NALUUnit

MODES = ("hard", "soft")
UNITS = ("alu", "nalu")
_ATTR = "_ncpu_coprocessor"
_FINAL_NORMS = ("norm", "ln_f", "final_layernorm", "final_layer_norm")


class CoprocessorError(ValueError):
    """A model or configuration the coprocessor cannot work with."""


@dataclass
class CoprocessorConfig:
    layers: tuple[int, ...] = (-1,)     # decoder layer indices (negative: from the end)
    gate: str = "sigmoid"               # 'sigmoid' or 'top1'
    max_gate: float = 1.0               # cap on the ALU's weight
    confidence: bool = False            # damp the gate where the base model is already confident
    confidence_threshold: float = 0.9   # ... above this top next-token probability (logit lens)
    mode: str = "hard"                  # 'hard': argmax op, 0/1 gate; 'soft': mixtures (training)
    unit: str = "alu"                   # 'alu' (ncpu.alu) or 'nalu' (the learned comparison head)
    read_layer: int | None = 0          # the read-out reads the input of this decoder layer (None: the
                                        # hooked layer's own MLP input); see docs/coprocessor.md
    extra: dict = field(default_factory=dict)

    def check(self) -> None:
        if self.gate not in GATES:
            raise CoprocessorError(f"gate must be one of {', '.join(GATES)}, not {self.gate!r}")
        if self.mode not in MODES:
            raise CoprocessorError(f"mode must be one of {', '.join(MODES)}, not {self.mode!r}")
        if self.unit not in UNITS:
            raise CoprocessorError(f"unit must be one of {', '.join(UNITS)}, not {self.unit!r}")
        if not 0.0 < self.max_gate <= 1.0:
            raise CoprocessorError(f"max_gate must be in (0, 1], not {self.max_gate}")
        if not self.layers:
            raise CoprocessorError("layers: give at least one decoder layer index")


def find_decoder_layers(model: nn.Module) -> tuple[nn.Module, nn.ModuleList]:
    """(parent, layers): the largest ModuleList whose every item has an `mlp` submodule."""
    best = None
    for parent in model.modules():
        for child in parent.children():
            if isinstance(child, nn.ModuleList) and len(child) and all(
                    isinstance(getattr(layer, "mlp", None), nn.Module) for layer in child):
                if best is None or len(child) > len(best[1]):
                    best = (parent, child)
    if best is None:
        raise CoprocessorError(
            f"{type(model).__name__} has no recognisable decoder layers: expected an nn.ModuleList of "
            "layers that each have an `mlp` submodule (as in Llama, Qwen2, Mistral or GPT-2 models)")
    return best


class Coprocessor(nn.Module):
    def __init__(self, config: CoprocessorConfig, hidden_size: int, n_layers: int):
        super().__init__()
        config.check()
        layers = sorted({i % n_layers if -n_layers <= i < n_layers else _bad_layer(i, n_layers)
                         for i in config.layers})
        self.config, self.hidden_size, self.layer_ids = config, hidden_size, layers
        unit = ALUUnit() if config.unit == "alu" else NALUUnit()  # one unit, shared by every layer
        self.experts = nn.ModuleDict({str(i): Expert(hidden_size, unit) for i in layers})
        self.gates = nn.ModuleDict({str(i): Gate(hidden_size, config.gate, config.max_gate) for i in layers})
        self.hard = config.mode == "hard"
        self.records: list[dict] | None = None  # set to [] to record read-outs and gates per call
        self._states: dict[int, ScanState] = {}
        self._mask: Tensor | None = None
        self._fresh = True
        self._residual: dict[int, Tensor] = {}  # decoder layer index -> its input hidden states
        self._read_index = 0
        self._handles: list = []
        self._lens: tuple[nn.Module | None, nn.Module | None] = (None, None)

    # -- hooks -----------------------------------------------------------------

    def _on_model_call(self, model, args, kwargs) -> None:
        ids = kwargs.get("input_ids", args[0] if args else None)
        embeds = kwargs.get("inputs_embeds")
        shape = ids.shape if ids is not None else embeds.shape[:2] if embeds is not None else None
        past = kwargs.get("past_key_values")
        past_len = past.get_seq_length() if past is not None and hasattr(past, "get_seq_length") else 0
        self._fresh = past_len == 0
        mask = kwargs.get("attention_mask")
        if mask is not None and shape is not None and mask.dim() == 2:
            self._mask = mask[:, -shape[1]:].bool()
        else:
            self._mask = None

    def _on_layer_input(self, index: int):
        def hook(layer, args, kwargs):
            hidden = kwargs.get("hidden_states", args[0] if args else None)
            self._residual[index] = hidden
        return hook

    def _on_mlp_output(self, index: int):
        def hook(mlp, inputs, output):
            if not isinstance(output, Tensor):
                raise CoprocessorError(f"layer {index}'s mlp returned {type(output).__name__}, expected a tensor")
            return self._route(index, inputs[0], output)
        return hook

    def _route(self, index: int, x: Tensor, mlp_out: Tensor) -> Tensor:
        B, T, _ = x.shape
        if self.gates[str(index)].proj.weight.device != x.device:
            self.to(x.device)
        x32 = x.float()                                                     # (B, T, C)
        mask = self._mask if self._mask is not None and self._mask.shape == (B, T) else \
            torch.ones(B, T, dtype=torch.bool, device=x.device)
        mask = mask.to(x.device)
        state = self._states.get(index)
        if self._fresh or state is None or state.acc.shape[0] != B:
            state = ScanState.empty(B, x.device)
        damp = self._confidence_damp(index, x32) if self.config.confidence else torch.ones_like(x32[..., 0])
        reads = x32
        if self.config.read_layer is not None:
            bottom = self._residual.get(self._read_index)
            if bottom is None or bottom.shape[:2] != (B, T):
                raise CoprocessorError(f"layer {self._read_index} did not run before layer {index}")
            # RMS-normalised: embeddings start tiny (std 0.02) in a fresh model, and a linear
            # head on them would need large weights, learned slowly
            reads = bottom.float()
            reads = reads * torch.rsqrt(reads.pow(2).mean(-1, keepdim=True) + 1e-6)
        written, answering, logits, state = self.experts[str(index)](x32, reads, mask, state, self.hard)
        # The gate reads what the read-out reads: at the bottom of the stack a token's state does
        # not drift with its position, so the gate cannot close on answers longer than seen in training.
        p, w_mlp, w_alu = self.gates[str(index)](reads, answering, damp, self.hard)
        w_alu = w_alu * mask
        w_mlp = torch.where(mask, w_mlp, torch.ones_like(w_mlp))
        self._states[index] = state
        if self.records is not None:
            self.records.append({"layer": index, "p": p, "w_alu": w_alu, "logits": logits, "mask": mask})
        out = w_mlp.unsqueeze(-1) * mlp_out.float() + w_alu.unsqueeze(-1) * written
        return out.to(mlp_out.dtype)

    def _confidence_damp(self, index: int, x: Tensor) -> Tensor:
        """1 where the logit lens at this layer's input is unsure, falling to 0
        as its top next-token probability goes from the threshold to 1."""
        norm, head = self._lens
        residual = self._residual.get(index)
        if head is None or residual is None:
            return torch.ones_like(x[..., 0])
        with torch.no_grad():
            h = norm(residual) if norm is not None else residual
            confidence = head(h).float().softmax(-1).amax(-1)                 # (B, T)
        tau = self.config.confidence_threshold
        return ((1 - confidence) / (1 - tau)).clamp(0, 1)

    # -- saving ------------------------------------------------------------------

    def save(self, path: Path | str) -> Path:
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        config = asdict(self.config)
        config["layers"] = list(self.config.layers)
        torch.save({"config": config, "hidden_size": self.hidden_size, "layer_ids": self.layer_ids,
                    "state": {k: v.detach().cpu() for k, v in self.state_dict().items()}}, path)
        return path


def _bad_layer(index: int, n_layers: int):
    raise CoprocessorError(f"layer {index} out of range: the model has {n_layers} decoder layers")


def injected(model: nn.Module) -> Coprocessor | None:
    return model.__dict__.get(_ATTR)


def inject(model: nn.Module, config: CoprocessorConfig | Coprocessor | None = None) -> nn.Module:
    """Hook a coprocessor (a new one from `config`, or a given one) into `model`; returns `model`."""
    if injected(model) is not None:
        raise CoprocessorError("a coprocessor is already injected into this model; eject it first")
    parent, layers = find_decoder_layers(model)
    hidden = _hidden_size(model)
    if isinstance(config, Coprocessor):
        coprocessor = config
        if coprocessor.hidden_size != hidden:
            raise CoprocessorError(f"coprocessor built for hidden size {coprocessor.hidden_size}, model has {hidden}")
        if max(coprocessor.layer_ids) >= len(layers):
            raise CoprocessorError(f"coprocessor uses layer {max(coprocessor.layer_ids)}; the model has {len(layers)}")
    else:
        coprocessor = Coprocessor(config or CoprocessorConfig(), hidden, len(layers))
    device = next(model.parameters()).device
    coprocessor.to(device)
    norm = next((getattr(parent, n) for n in _FINAL_NORMS if isinstance(getattr(parent, n, None), nn.Module)), None)
    head = model.get_output_embeddings() if hasattr(model, "get_output_embeddings") else None
    coprocessor._lens = (norm, head)
    handles = [model.register_forward_pre_hook(coprocessor._on_model_call, with_kwargs=True)]
    watched = set(coprocessor.layer_ids) if coprocessor.config.confidence else set()
    if coprocessor.config.read_layer is not None:
        read = coprocessor.config.read_layer
        if not -len(layers) <= read < len(layers):
            _bad_layer(read, len(layers))
        coprocessor._read_index = read % len(layers)
        if coprocessor._read_index > min(coprocessor.layer_ids):
            raise CoprocessorError(f"read_layer {read} comes after hooked layer {min(coprocessor.layer_ids)}")
        watched.add(coprocessor._read_index)
    for i in coprocessor.layer_ids:
        handles.append(layers[i].mlp.register_forward_hook(coprocessor._on_mlp_output(i)))
    for i in sorted(watched):
        handles.append(layers[i].register_forward_pre_hook(coprocessor._on_layer_input(i), with_kwargs=True))
    coprocessor._handles = handles
    model.__dict__[_ATTR] = coprocessor
    return model


def eject(model: nn.Module) -> Coprocessor:
    """Remove the hooks; returns the coprocessor (to save or inject elsewhere)."""
    coprocessor = model.__dict__.pop(_ATTR, None)
    if coprocessor is None:
        raise CoprocessorError("no coprocessor is injected into this model")
    for handle in coprocessor._handles:
        handle.remove()
    coprocessor._handles, coprocessor._states, coprocessor._residual = [], {}, {}
    coprocessor._lens = (None, None)
    return coprocessor


def load_coprocessor(path: Path | str, device: torch.device | str | None = None) -> Coprocessor:
    path = Path(path)
    if not path.exists():
        raise CoprocessorError(f"no coprocessor at {path}")
    saved = torch.load(path, map_location="cpu", weights_only=True)
    config = dict(saved["config"])
    config["layers"] = tuple(saved["layer_ids"])
    n_layers = max(saved["layer_ids"]) + 1
    coprocessor = Coprocessor(CoprocessorConfig(**config), saved["hidden_size"], n_layers)
    coprocessor.load_state_dict(saved["state"])
    return coprocessor.to(device) if device is not None else coprocessor


def _hidden_size(model: nn.Module) -> int:
    config = getattr(model, "config", None)
    for name in ("hidden_size", "n_embd", "d_model"):
        if config is not None and isinstance(getattr(config, name, None), int):
            return getattr(config, name)
    embeddings = model.get_input_embeddings() if hasattr(model, "get_input_embeddings") else None
    if embeddings is None:
        raise CoprocessorError(f"cannot tell the hidden size of {type(model).__name__}: no config.hidden_size")
    return embeddings.weight.shape[1]
