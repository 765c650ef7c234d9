"""The world model: predict the machine's next state in a latent space.

    s_t  --context encoder-->  z_t  --predictor(z_t, action a_t)-->  ẑ_{t+1}
    s_{t+1} --target encoder (EMA of the context encoder, no gradient)--> z_{t+1}

    JEPA loss      ||ẑ_{t+1} - z_{t+1}||²  (over a window of L steps, the
                   predictor fed its own output: open-loop, like a rollout)
    anti-collapse  VICReg's variance hinge (every latent dimension keeps a
                   standard deviation >= 1 over the batch) and covariance
                   penalty (dimensions decorrelated), on the context latents
    probes         small MLPs reading latents back into the 548 state bits;
                   trained on *detached* latents, so they measure what the
                   latent space holds and never shape it

Nothing reconstructs the state: the encoders learn only from predicting
latents. Inputs are the 0/1 bit vectors of `ncpu.world.features`, mapped
to ±1.
"""

from __future__ import annotations

import copy
from dataclasses import asdict, dataclass

import torch
import torch.nn.functional as F
from torch import nn

from ncpu.world.features import ACTION_BITS, STATE_BITS


@dataclass
class WorldConfig:
    latent: int = 192  # D
    hidden: int = 384  # encoder width
    action_embed: int = 96  # E
    predictor_hidden: int = 512
    probe_hidden: int = 384
    window: int = 4  # L: open-loop steps per training example
    ema: float = 0.99  # target = ema * target + (1 - ema) * context, after every step
    # Loss weights, VICReg's defaults (invariance 25, variance 25, covariance 1).
    w_predict: float = 25.0
    w_variance: float = 25.0
    w_covariance: float = 1.0

    def to_dict(self) -> dict:
        return asdict(self)


def _mlp(sizes: list[int]) -> nn.Sequential:
    layers: list[nn.Module] = []
    for i, (a, b) in enumerate(zip(sizes, sizes[1:])):
        layers.append(nn.Linear(a, b))
        if i < len(sizes) - 2:
            layers += [nn.LayerNorm(b), nn.GELU()]
    return nn.Sequential(*layers)


class StateEncoder(nn.Module):
    """State bits [B, 548] -> latent [B, D]."""

    def __init__(self, c: WorldConfig):
        super().__init__()
        self.net = _mlp([STATE_BITS, c.hidden, c.hidden, c.latent])

    def forward(self, bits: torch.Tensor) -> torch.Tensor:
        return self.net(bits * 2 - 1)


class Predictor(nn.Module):
    """(latent [B, D], action bits [B, 144]) -> next latent [B, D].

    Residual: most of a state survives a step unchanged, so the network
    learns the change; at initialisation it is close to "no change"."""

    def __init__(self, c: WorldConfig):
        super().__init__()
        self.action = _mlp([ACTION_BITS, c.action_embed, c.action_embed])
        self.net = _mlp([c.latent + c.action_embed, c.predictor_hidden, c.predictor_hidden, c.latent])

    def forward(self, z: torch.Tensor, action_bits: torch.Tensor) -> torch.Tensor:
        return z + self.net(torch.cat([z, self.action(action_bits * 2 - 1)], dim=-1))


class WorldModel(nn.Module):
    def __init__(self, config: WorldConfig | None = None):
        super().__init__()
        self.config = c = config or WorldConfig()
        self.context = StateEncoder(c)
        self.target = copy.deepcopy(self.context).requires_grad_(False)
        self.predictor = Predictor(c)
        # Probe logits for state bits from a target latent (what a state's latent holds)
        # and from a predicted latent (what a prediction says the next state is).
        self.probe = _mlp([c.latent, c.probe_hidden, STATE_BITS])

    def encode(self, bits: torch.Tensor) -> torch.Tensor:
        return self.context(bits)

    @torch.no_grad()
    def encode_target(self, bits: torch.Tensor) -> torch.Tensor:
        return self.target(bits)

    def predict(self, z: torch.Tensor, action_bits: torch.Tensor) -> torch.Tensor:
        return self.predictor(z, action_bits)

    def rollout(self, z: torch.Tensor, actions: torch.Tensor) -> torch.Tensor:
        """Open loop: latents [B, D], actions [B, K, 144] -> predicted latents [B, K, D]."""
        out = []
        for k in range(actions.shape[1]):
            z = self.predictor(z, actions[:, k])
            out.append(z)
        return torch.stack(out, dim=1)

    def decode(self, z: torch.Tensor) -> torch.Tensor:
        """Probe logits [..., 548] for latents [..., D]."""
        return self.probe(z)

    @torch.no_grad()
    def update_target(self) -> None:
        m = self.config.ema
        for t, s in zip(self.target.parameters(), self.context.parameters()):
            t.mul_(m).add_(s.detach(), alpha=1 - m)


def vicreg_terms(z: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """Variance hinge and covariance penalty of latents z [B, D] (VICReg, Bardes et al. 2022)."""
    z = z - z.mean(0)
    std = torch.sqrt(z.var(0) + 1e-4)
    variance = F.relu(1 - std).mean()
    cov = (z.T @ z) / (z.shape[0] - 1)  # (D, D)
    off_diagonal = cov - torch.diag(torch.diag(cov))
    covariance = off_diagonal.pow(2).sum() / z.shape[1]
    return variance, covariance


def losses(model: WorldModel, states: torch.Tensor, actions: torch.Tensor) -> dict[str, torch.Tensor]:
    """Training terms for windows: state bits [B, L+1, 548], action bits [B, L, 144]."""
    c = model.config
    z0 = model.encode(states[:, 0])  # (B, D)
    predicted = model.rollout(z0, actions)  # (B, L, D)
    with torch.no_grad():
        targets = model.encode_target(states[:, 1:].flatten(0, 1)).view_as(predicted)
    predict = F.mse_loss(predicted, targets)
    variance, covariance = vicreg_terms(z0)
    # Probes read detached latents: they measure, they do not shape. One step of
    # each window (a different one per example) keeps their cost at B rows.
    pick = torch.randint(predicted.shape[1], (predicted.shape[0],))
    rows = torch.arange(predicted.shape[0])
    truth = states[rows, pick + 1]  # (B, 548)
    probe_state = F.binary_cross_entropy_with_logits(model.decode(targets[rows, pick]), truth)
    probe_next = F.binary_cross_entropy_with_logits(model.decode(predicted[rows, pick].detach()), truth)
    total = (c.w_predict * predict + c.w_variance * variance + c.w_covariance * covariance
             + probe_state + probe_next)
    return {"total": total, "predict": predict, "variance": variance, "covariance": covariance,
            "probe_state": probe_state, "probe_next": probe_next}
