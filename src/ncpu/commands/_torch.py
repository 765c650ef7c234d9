"""Torch-side checks shared by the commands, as one-line errors.

Imported only by commands that use torch, so `ncpu asm` and friends never
pay for importing it.
"""

from __future__ import annotations

from ncpu.cli import CommandError


def check_device(name: str) -> None:
    """CommandError unless `name` is a torch device this machine can use
    (an unknown name, or CUDA/MPS absent)."""
    import torch

    try:
        torch.empty(1, device=torch.device(name))
    except (RuntimeError, AssertionError, ValueError, TypeError) as error:
        reason = (str(error).strip().splitlines() or [type(error).__name__])[0]
        raise CommandError(f"--device {name!r} is not usable here: {reason}") from None


def weights_errors() -> tuple[type[Exception], ...]:
    """The exception types meaning "these weights cannot be used" (for `except`)."""
    from ncpu.alu.weights import WeightsError

    return (WeightsError,)
