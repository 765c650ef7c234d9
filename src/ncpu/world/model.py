"""The world model: predict the machine's next state in a latent space.

The state is 19 words (R0..R7, memory words 0..7, pc, sp, flags); each word
is one *slot* of the latent state, encoded byte by byte by one shared
byte encoder:

    s_t  --context encoder (per word)-->  z_t [S=19, d]
    z_t, action a_t  --predictor-->  ẑ_{t+1}
    s_{t+1}  --target encoder (EMA of the context encoder, no gradient)-->  z_{t+1}

The predictor is shaped like a register machine, but learns everything:
read heads attend over the slots (where to read is a function of the
action), a core MLP combines the action with what was read, and write heads
attend over the slots and overwrite them through a gate:
    ẑ_s = z_s + Σ_w attention_w(s) · gate_w · (value_w - z_s)
so a slot no head writes is carried over unchanged, and the untrained
predictor (gates closed) is "no change".
The `exact_alu` variant (`WorldConfig.exact_alu`, `alu_module.py`) adds two
write heads whose values are not learned: the project's exact neural ALU,
frozen, computes the result and flags words from operands the probe decodes
from z; where and whether those heads write is learned like the others.

    JEPA loss      ||ẑ_{t+1} - z_{t+1}||² over a window of L steps, the
                   predictor fed its own output (open loop, like a rollout)
    anti-collapse  VICReg's variance hinge (each latent dimension keeps a
                   standard deviation >= 1 over a batch of bytes) and its
                   covariance penalty (dimensions decorrelated)
    probes         a small MLP reading each byte's latent back into its 8
                   bits; trained on *detached* latents, so it measures what
                   the latent space holds and never shapes it

Nothing reconstructs the state: the encoders learn only from predicting
latents. Latents leave this module flat, [B, S*d].
"""

from __future__ import annotations

import copy
import math
from dataclasses import asdict, dataclass

import torch
import torch.nn.functional as F
from torch import nn

from ncpu.world.features import ACTION_BITS, WORDS


@dataclass
class WorldConfig:
    word_latent: int = 64  # d, per slot (d/4 per byte)
    byte_hidden: int = 64
    action_embed: int = 96  # E
    core_hidden: int = 384
    heads: int = 4  # read heads and write heads
    key: int = 32  # slot address size for attention
    probe_hidden: int = 64
    window: int = 4  # L: open-loop steps per training example
    ema: float = 0.99  # target = ema * target + (1 - ema) * context, after every step
    # Loss weights, VICReg's defaults (invariance 25, variance 25, covariance 1).
    w_predict: float = 25.0
    w_variance: float = 25.0
    w_covariance: float = 1.0
    # The machine's shape: state words (one latent slot each), bits per word,
    # action bits. The defaults are the nCPU machine's; the ARM64 target
    # (`arm64.py`) has 34 words of 64 bits and 32 action bits (the instruction word).
    words: int = WORDS
    word_bits: int = 32
    action_bits: int = ACTION_BITS
    # The `exact_alu` variant: two more write heads whose values are an exact
    # module's result and flags words, computed from operands the probe decodes
    # from the latent state: the project's neural ALU for the nCPU target
    # (`alu_module.py`), the ARM64 CPU's executor for the ARM64 one (`arm64_alu.py`).
    exact_alu: bool = False
    target: str = "ncpu"  # which machine's exact module the exact_alu variant holds

    @property
    def exact_words(self) -> int:
        """Candidate words the exact module gives (exact_alu variant): result and flags; for
        ARM64 also the two addresses a step may go to next (`arm64_alu.py`)."""
        return 4 if self.target == "arm64" else 2

    @property
    def latent(self) -> int:
        return self.words * self.word_latent

    @property
    def word_bytes(self) -> int:
        return self.word_bits // 8

    @property
    def byte_latent(self) -> int:
        return self.word_latent // self.word_bytes

    def to_dict(self) -> dict:
        return asdict(self)


def _mlp(sizes: list[int]) -> nn.Sequential:
    layers: list[nn.Module] = []
    for i, (a, b) in enumerate(zip(sizes, sizes[1:])):
        layers.append(nn.Linear(a, b))
        if i < len(sizes) - 2:
            layers += [nn.LayerNorm(b), nn.GELU()]
    return nn.Sequential(*layers)


def fit_head(head: nn.Module, loss_of, n: int, steps: int, batch: int, seed: int) -> nn.Module:
    """Fit a small head on n precomputed examples (latents of a frozen model): AdamW, random
    batches, the learning rate decaying linearly to 1e-5; loss_of(indices) -> the batch's loss.
    The trip and branch-direction heads share it."""
    optimizer = torch.optim.AdamW(head.parameters(), lr=2e-3, weight_decay=1e-4)
    generator = torch.Generator().manual_seed(seed)
    for step in range(steps):
        pick = torch.randint(n, (batch,), generator=generator)
        for group in optimizer.param_groups:
            group["lr"] = 2e-3 * (1 - step / steps) + 1e-5
        loss = loss_of(pick)
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        optimizer.step()
    return head.eval()


class StateEncoder(nn.Module):
    """State bits [B, 608] -> latent [B, S*d]: every byte of every word through
    one small network, a word's latent the concatenation of its 4 bytes'.

    Why bytes: a network that reads whole 32-bit words meets in training a
    vanishing share of the 2**32 values, and its latents of unseen values
    are not decodable (a probe fits the training words and misses on new
    ones). A byte has 256 values, and training meets them all."""

    def __init__(self, c: WorldConfig):
        super().__init__()
        self.c = c
        self.byte = _mlp([8, c.byte_hidden, c.byte_hidden, c.byte_latent])

    def forward(self, bits: torch.Tensor) -> torch.Tensor:
        byte_bits = bits.view(*bits.shape[:-1], self.c.words * self.c.word_bytes, 8) * 2 - 1  # (B, S*4, 8)
        return self.byte(byte_bits).flatten(-2)  # (B, S*d)

    def word(self, bits: torch.Tensor) -> torch.Tensor:
        """One word's bits [B, word_bits] -> its slot latent [B, d]."""
        byte_bits = bits.view(len(bits), self.c.word_bytes, 8) * 2 - 1
        return self.byte(byte_bits).flatten(-2)


class Predictor(nn.Module):
    """(latent [B, S*d], action bits [B, A]) -> next latent [B, S*d]."""

    def __init__(self, c: WorldConfig):
        super().__init__()
        self.c = c
        self.action = _mlp([c.action_bits, c.action_embed, c.action_embed])
        self.read_keys = nn.Parameter(torch.randn(c.words, c.key))  # where each slot is, to readers
        self.write_keys = nn.Parameter(torch.randn(c.words, c.key))
        self.read_query = nn.Linear(c.action_embed, c.heads * c.key)
        self.write_query = nn.Linear(c.action_embed, c.heads * c.key)
        self.core = _mlp([c.action_embed + c.heads * c.word_latent, c.core_hidden, c.core_hidden])
        self.values = nn.Linear(c.core_hidden, c.heads * c.word_latent)
        self.gates = nn.Linear(c.core_hidden, c.heads)
        nn.init.constant_(self.gates.bias, -3.0)  # start closed: "no change"
        if c.exact_alu:  # where and whether the ALU's two words are written: learned
            self.alu_query = nn.Linear(c.action_embed, c.exact_words * c.key)
            self.alu_gates = nn.Linear(c.core_hidden, c.exact_words)
            nn.init.constant_(self.alu_gates.bias, -3.0)

    def _attend(self, query: nn.Linear, keys: torch.Tensor, e: torch.Tensor) -> torch.Tensor:
        q = query(e).view(-1, self.c.heads, self.c.key)  # (B, H, k)
        return torch.softmax(q @ keys.T / math.sqrt(self.c.key), dim=-1)  # (B, H, S)

    def forward(self, z: torch.Tensor, action_bits: torch.Tensor,
                alu_values: torch.Tensor | None = None) -> torch.Tensor:
        """`alu_values` [B, n, d]: the exact module's candidate words (exact_alu variant)."""
        c = self.c
        slots = z.view(-1, c.words, c.word_latent)  # (B, S, d)
        e = self.action(action_bits * 2 - 1)  # (B, E)
        operands = self._attend(self.read_query, self.read_keys, e) @ slots  # (B, H, d)
        h = self.core(torch.cat([e, operands.flatten(1)], dim=-1))  # (B, C)
        values = self.values(h).view(-1, c.heads, c.word_latent)  # (B, H, d)
        where = self._attend(self.write_query, self.write_keys, e)  # (B, H, S)
        weight = where * torch.sigmoid(self.gates(h))[..., None]  # (B, H, S)
        if alu_values is not None:
            q = self.alu_query(e).view(-1, c.exact_words, c.key)
            alu_where = torch.softmax(q @ self.write_keys.T / math.sqrt(c.key), dim=-1)  # (B, n, S)
            weight = torch.cat([weight, alu_where * torch.sigmoid(self.alu_gates(h))[..., None]], 1)
            values = torch.cat([values, alu_values], 1)
        # Σ_w weight_w(s) · (value_w - z_s)
        update = weight.transpose(1, 2) @ values - weight.sum(1)[..., None] * slots  # (B, S, d)
        return (slots + update).flatten(1)


class WorldModel(nn.Module):
    def __init__(self, config: WorldConfig | None = None):
        super().__init__()
        self.config = c = config or WorldConfig()
        self.context = StateEncoder(c)
        self.target = copy.deepcopy(self.context).requires_grad_(False)
        self.predictor = Predictor(c)
        # One byte's latent -> its 8 bit logits (bytes, like the encoder: every value is met).
        self.probe = _mlp([c.byte_latent, c.probe_hidden, 8])
        self.alu = None  # the exact_alu variant's frozen ALU, built on first use (not a parameter)

    def encode(self, bits: torch.Tensor) -> torch.Tensor:
        return self.context(bits)

    @torch.no_grad()
    def encode_target(self, bits: torch.Tensor) -> torch.Tensor:
        return self.target(bits)

    def predict(self, z: torch.Tensor, action_bits: torch.Tensor) -> torch.Tensor:
        return self.predictor(z, action_bits, self.alu_values(z, action_bits) if self.config.exact_alu else None)

    def alu_values(self, z: torch.Tensor, action_bits: torch.Tensor) -> torch.Tensor:
        """The exact module's candidate words for latents z, as slot latents [B, n, d]:
        operands read from z by the probe (`alu_module.py`, `arm64_alu.py`)."""
        c = self.config
        if self.alu is None:
            if c.target == "arm64":
                from ncpu.world.arm64_alu import Arm64ExactALU
                self.alu = Arm64ExactALU()
            else:
                from ncpu.world.alu_module import ExactALUModule
                self.alu = ExactALUModule()
        with torch.no_grad():
            bits = (self.decode(z) > 0).view(len(z), c.words, c.word_bits)
            candidate = self.alu.candidates(bits, action_bits).to(z.device)
        return self.context.word(candidate.view(-1, c.word_bits)).view(len(z), c.exact_words, -1)

    def rollout(self, z: torch.Tensor, actions: torch.Tensor) -> torch.Tensor:
        """Open loop: latents [B, S*d], actions [B, K, 144] -> predicted latents [B, K, S*d]."""
        out = []
        for k in range(actions.shape[1]):
            z = self.predict(z, actions[:, k])
            out.append(z)
        return torch.stack(out, dim=1)

    def decode(self, z: torch.Tensor) -> torch.Tensor:
        """Probe logits [..., 608] for latents [..., S*d]."""
        c = self.config
        byte_latents = z.view(*z.shape[:-1], c.words * c.word_bytes, c.byte_latent)
        return self.probe(byte_latents).flatten(-2)

    @torch.no_grad()
    def update_target(self) -> None:
        m = self.config.ema
        for t, s in zip(self.target.parameters(), self.context.parameters()):
            t.mul_(m).add_(s.detach(), alpha=1 - m)


def vicreg_terms(z: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """Variance hinge and covariance penalty of latents z [N, D] (VICReg, Bardes et al. 2022)."""
    z = z - z.mean(0)
    std = torch.sqrt(z.var(0) + 1e-4)
    variance = F.relu(1 - std).mean()
    cov = (z.T @ z) / (z.shape[0] - 1)  # (D, D)
    off_diagonal = cov - torch.diag(torch.diag(cov))
    covariance = off_diagonal.pow(2).sum() / z.shape[1]
    return variance, covariance


def losses(model: WorldModel, states: torch.Tensor, actions: torch.Tensor) -> dict[str, torch.Tensor]:
    """Training terms for windows: state bits [B, L+1, 608], action bits [B, L, 144]."""
    c = model.config
    z0 = model.encode(states[:, 0])  # (B, S*d)
    predicted = model.rollout(z0, actions)  # (B, L, S*d)
    with torch.no_grad():
        targets = model.encode_target(states[:, 1:].flatten(0, 1)).view_as(predicted)
    predict = F.mse_loss(predicted, targets)
    variance, covariance = vicreg_terms(z0.view(-1, c.byte_latent))  # over every byte of the batch
    # Probes read detached latents: they measure, they do not shape. One step of
    # each window (a different one per example) keeps their cost at B rows.
    pick = torch.randint(predicted.shape[1], (predicted.shape[0],), device=predicted.device)
    rows = torch.arange(predicted.shape[0], device=predicted.device)
    truth = states[rows, pick + 1]  # (B, 608)
    probe_state = F.binary_cross_entropy_with_logits(model.decode(targets[rows, pick]), truth)
    probe_next = F.binary_cross_entropy_with_logits(model.decode(predicted[rows, pick].detach()), truth)
    total = (c.w_predict * predict + c.w_variance * variance + c.w_covariance * covariance
             + probe_state + probe_next)
    return {"total": total, "predict": predict, "variance": variance, "covariance": covariance,
            "probe_state": probe_state, "probe_next": probe_next}
