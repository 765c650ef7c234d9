"""The `fast` engine: B MUXLEQ machines as torch tensors, one instruction a step.

The step is `reference.step` for every machine at once: fetch a, b, c by
gather, classify (INPUT / OUTPUT / MUX / SUBLEQ) as boolean masks, compute
both data operations for every row, and commit with `where` and one
scatter into memory. The data operations come from a `TensorOps`, so the
neural engine runs this same step with its circuits (see neural.py).

Machines that halted, spent their budget or wait for input are masked out
(their state does not change). Every `SYNC_EVERY` steps the host checks
whether any machine is still running and grows the output buffers.

Shapes: memory int16 [B, 65536] (16-bit words, read back with & 0xFFFF);
pc, steps, input position, output length int64 [B]; input bytes [B, L+1];
output bytes [B, capacity].
"""

from __future__ import annotations

import numpy as np
import torch
from torch import Tensor

from ncpu.muxleq.state import HALT_PC, IO, MASK, MuxleqBatch, MuxleqState

SYNC_EVERY = 64
MAX_BUDGET = 1 << 62


class TensorOps:
    """The two data operations on int64 [B] tensors of 16-bit values."""

    def subtract(self, x: Tensor, y: Tensor) -> tuple[Tensor, Tensor]:
        """(x - y mod 2^16, result is zero or negative as signed 16-bit)."""
        r = (x - y) & MASK
        return r, (r == 0) | (r >= 0x8000)

    def mux(self, a: Tensor, b: Tensor, select: Tensor) -> Tensor:
        return (a & ~select | b & select) & MASK


def run_batch(batch: MuxleqBatch, max_steps: int, device: torch.device | str | None = None,
              ops: TensorOps | None = None) -> MuxleqBatch:
    ops = ops or TensorOps()
    dev = torch.device(device) if device is not None else torch.device("cpu")
    B = batch.batch_size
    i64 = dict(dtype=torch.int64, device=dev)
    mem = torch.from_numpy(batch.memory.view(np.int16)).to(dev).clone()  # [B, 65536]
    pc = torch.as_tensor(batch.pc, **i64)
    steps = torch.as_tensor(batch.steps, **i64)
    budget = steps + min(max(max_steps, 0), MAX_BUDGET)
    end = torch.as_tensor(batch.end_of_input, device=dev)
    lengths = torch.tensor([len(x) for x in batch.inputs], **i64)
    width = int(lengths.max()) + 1 if B else 1
    inp = torch.zeros(B, width, **i64)  # [B, L+1]; column L is never a real byte
    for i, data in enumerate(batch.inputs):
        if data:
            inp[i, :len(data)] = torch.frombuffer(bytearray(data), dtype=torch.uint8)
    pos = torch.zeros(B, **i64)
    out = torch.zeros(B, 4 * SYNC_EVERY, **i64)
    out_len = torch.zeros(B, **i64)
    offsets = torch.arange(3, **i64)
    rows = torch.arange(B, **i64)

    def one_step() -> None:
        nonlocal pc, steps, pos, out_len
        running = (pc < HALT_PC) & (steps < budget)
        abc = mem.gather(1, pc.clamp(max=HALT_PC - 1)[:, None] + offsets).long() & MASK  # [B, 3]
        a, b, c = abc.unbind(1)
        is_in = a == IO
        is_out = ~is_in & (b == IO)
        is_mux = ~is_in & ~is_out & (c >= 0x8000) & (c != IO)
        is_sub = ~(is_in | is_out | is_mux)
        ma, mb, ms = (mem.gather(1, torch.stack([a, b, c & 0x7FFF], 1)).long() & MASK).unbind(1)
        have = pos < lengths
        running &= ~is_in | have | end  # a read with no byte yet waits
        in_value = torch.where(have, inp[rows, pos.clamp(max=width - 1)], IO)
        diff, jump = ops.subtract(mb, ma)
        new = torch.where(is_in, in_value, torch.where(is_mux, ops.mux(ma, mb, ms), diff))
        new = torch.where(running & ~is_out, new, mb)
        mem.scatter_(1, b[:, None], new.to(torch.int16)[:, None])
        printing = running & is_out
        out[rows, out_len] = torch.where(printing, ma & 0xFF, out[rows, out_len])
        out_len = out_len + printing
        pos = pos + (running & is_in & have)
        pc = torch.where(running, torch.where(is_sub & jump, c, pc + 3), pc)
        steps = steps + running

    while True:
        if out.shape[1] - int(out_len.max()) < SYNC_EVERY:
            out = torch.cat([out, torch.zeros_like(out)], 1)
        before = steps.clone()
        for _ in range(SYNC_EVERY):
            one_step()
        if bool((steps == before).all()):
            break  # nobody moved: every machine halted, spent its budget or waits
    result = batch.copy()
    result.memory = mem.cpu().numpy().view(np.uint16).copy()
    result.pc, result.steps = pc.cpu().numpy().copy(), steps.cpu().numpy().copy()
    result.halted = result.pc >= HALT_PC
    used = pos.cpu().tolist()
    lens = out_len.cpu().tolist()
    out_bytes = out.cpu().to(torch.uint8).numpy()
    result.inputs = [x[p:] for x, p in zip(batch.inputs, used)]
    result.outputs = [o + out_bytes[i, :lens[i]].tobytes() for i, o in enumerate(batch.outputs)]
    return result


def run(state: MuxleqState, max_steps: int, device: torch.device | str | None = None) -> MuxleqState:
    return run_batch(MuxleqBatch.stack([state]), max_steps, device).machine(0)
