"""The expert: read the problem off the hidden states, compute, write back.

Per token, a linear read-out head classifies the hidden state into a digit
(0-9), an op symbol, '=' or anything else (`symbols.N_CLASSES`). A scan
over the tokens, in order, folds those classes into the operands exactly as
a calculator's keypad would (acc = 10 * acc + digit; an op symbol moves acc
to the first operand; '=' ends the second), so the operands' 32-bit values,
and thus their bits, are exact for any number of digits the head reads
correctly. At '=' the arithmetic unit (the neural ALU) computes every op's
result; the op read-out picks one (hard mode) or mixes them (soft mode).
From '=' on, each position writes back the next answer character through
a learned embedding into the hidden state's space (the write-back).

The scan's state survives between forward calls, so generation with a KV
cache (one new token per call) continues the problem it is answering.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch
from torch import Tensor, nn

from ncpu.coprocessor.symbols import (ANSWER_LEN, ANSWER_SYMBOLS, DIGIT_CLASSES, END_CODE, EQUALS_CLASS,
                                      N_CLASSES, OP_CLASS0, OPS, OTHER_CLASS, decimal_codes)

READING, ANSWERING = 0, 1
WRITE_GAIN = 40.0


@dataclass
class ScanState:
    """One row per sequence: the keypad's registers and the answer being written."""
    acc: Tensor        # (B,) int64  the number being typed
    digits: Tensor     # (B,) int64  how many digits acc holds
    first: Tensor      # (B,) int64  the first operand, once an op symbol was read
    op_probs: Tensor   # (B, n_ops)  the op read-out at the op symbol (zeros: none yet)
    phase: Tensor      # (B,) int64  READING or ANSWERING
    k: Tensor          # (B,) int64  answer characters written so far
    codes: Tensor      # (B, n_ops, ANSWER_LEN) the answer being written, for every op
    answer_probs: Tensor  # (B, n_ops) the op mixture of the answer being written

    @classmethod
    def empty(cls, batch: int, device) -> ScanState:
        zeros = torch.zeros(batch, dtype=torch.long, device=device)
        n = len(OPS)
        return cls(zeros, zeros.clone(), zeros.clone(), torch.zeros(batch, n, device=device),
                   zeros.clone(), zeros.clone(),
                   torch.full((batch, n, ANSWER_LEN), END_CODE, dtype=torch.long, device=device),
                   torch.zeros(batch, n, device=device))


class Expert(nn.Module):
    def __init__(self, hidden_size: int, unit: nn.Module):
        super().__init__()
        self.read = nn.Linear(hidden_size, N_CLASSES)                       # the read-out head
        self.write = nn.Embedding(len(ANSWER_SYMBOLS), hidden_size)          # the write-back
        nn.init.zeros_(self.write.weight)
        # A fixed gain lets the written vector outgrow the base model's residual stream
        # quickly (Adam moves each weight by about lr per step, whatever its gradient's scale):
        # past the answer lengths seen in training the base model pulls hard towards its own guess.
        self.register_buffer("gain", torch.tensor(WRITE_GAIN))
        self.unit = unit

    def forward(self, x: Tensor, reads: Tensor, mask: Tensor, state: ScanState, hard: bool
                ) -> tuple[Tensor, Tensor, Tensor, ScanState]:
        """x (B, T, C) float32 the hooked layer's MLP input, reads (B, T, C) the hidden states the
        read-out head reads, mask (B, T) bool (False: padding, skipped).
        Returns the write-back (B, T, C), whether each token is in an answer (B, T) bool,
        the class logits (B, T, N_CLASSES) and the new state."""
        logits = self.read(reads)                                            # (B, T, K)
        classes = logits.argmax(-1)                                          # (B, T)
        op_probs = logits[..., OP_CLASS0:OP_CLASS0 + len(OPS)].softmax(-1)   # (B, T, n_ops)
        if hard:
            op_probs = nn.functional.one_hot(op_probs.argmax(-1), len(OPS)).to(op_probs.dtype)
        events, answer_event, answer_k, state, final_event = self._scan(classes, op_probs, mask, state)
        # every problem's results at once: (E, n_ops) -> codes (E, n_ops, L)
        if events["a"].numel():
            new_codes = decimal_codes(self.unit(events["a"], events["b"]))
            codes = torch.cat([events["codes"], new_codes], 0)
        else:
            codes = events["codes"]
        probs = events["probs"]                                              # (E, n_ops)
        state.codes, state.answer_probs = codes[final_event], probs[final_event]
        out = x.new_zeros(x.shape)
        where = answer_event >= 0                                            # (B, T)
        if where.any():
            event, k = answer_event[where], answer_k[where].clamp(max=ANSWER_LEN - 1)
            chosen = codes[event, :, k]                                      # (N, n_ops)
            written = self.gain * (probs[event].unsqueeze(-1) * self.write(chosen)).sum(1)  # (N, C)
            out[where] = written.to(out.dtype)
        return out, where, logits, state

    def _scan(self, classes: Tensor, op_probs: Tensor, mask: Tensor, state: ScanState):
        """The keypad, token by token. Problems completed here become events
        (ids after the B carried-in answers, whose codes are already known)."""
        B, T = classes.shape
        device = classes.device
        answer_event = torch.full((B, T), -1, dtype=torch.long, device=device)
        answer_k = torch.zeros((B, T), dtype=torch.long, device=device)
        rows = torch.arange(B, device=device)
        event = torch.where(state.phase == ANSWERING, rows, -1)              # carried-in answers: ids 0..B-1
        ev_a, ev_b, ev_probs = [], [], [state.answer_probs]
        n_events = B
        acc, digits, first, held = state.acc, state.digits, state.first, state.op_probs
        phase, k = state.phase, state.k
        for t in range(T):
            c, live = classes[:, t], mask[:, t]
            is_digit, is_op = c < DIGIT_CLASSES, (c >= OP_CLASS0) & (c < EQUALS_CLASS)
            is_eq, is_other = c == EQUALS_CLASS, c == OTHER_CLASS
            reading, answering = live & (phase == READING), live & (phase == ANSWERING)
            # answering: any character but 'other' is the next answer character; 'other' ends it
            stop = answering & is_other
            go_on = answering & ~is_other
            k = torch.where(go_on, k + 1, k)
            # reading: the keypad
            typed = reading & is_digit
            acc = torch.where(typed, (acc * 10 + c).clamp(max=1 << 40), acc)
            digits = torch.where(typed, digits + 1, digits)
            op_read = reading & is_op & (digits > 0)
            first = torch.where(op_read, acc, first)
            has_op = held.sum(-1) > 0
            solve = reading & is_eq & (digits > 0) & has_op
            clear = (reading & (is_other | (is_eq & ~solve) | (is_op & ~op_read))) | stop | op_read | solve
            if solve.any():
                ids = torch.arange(n_events, n_events + int(solve.sum()), device=device)
                ev_a.append(first[solve])
                ev_b.append(acc[solve])
                ev_probs.append(held[solve])
                event = event.masked_scatter(solve, ids)
                n_events += len(ids)
            held = torch.where(op_read.unsqueeze(-1), op_probs[:, t], held)
            held = torch.where((clear & ~op_read).unsqueeze(-1), torch.zeros_like(held), held)
            acc = torch.where(clear, torch.zeros_like(acc), acc)
            digits = torch.where(clear, torch.zeros_like(digits), digits)
            k = torch.where(solve, torch.zeros_like(k), k)
            phase = torch.where(solve, ANSWERING, torch.where(stop, READING, phase))
            event = torch.where(stop, -1, event)
            writing = live & (phase == ANSWERING)
            answer_event[:, t] = torch.where(writing, event, -1)
            answer_k[:, t] = k
        empty = torch.zeros(0, dtype=torch.long, device=device)
        events = {"a": torch.cat(ev_a) if ev_a else empty, "b": torch.cat(ev_b) if ev_b else empty,
                  "probs": torch.cat(ev_probs), "codes": state.codes}
        new = ScanState(acc, digits, first, held, phase, k, state.codes, state.answer_probs)
        return events, answer_event, answer_k, new, event.clamp(min=0)
