"""The watchdog as a network: from a window of a process's recent time slices,
the probability that it will never terminate.

What the kernel sees after each slice is a snapshot: instructions run, pc,
registers, flags, a hash of memory, system calls made, bytes written. The
window's features say what a person reading a trace looks at: does a whole
state repeat (then, with no input, it loops forever), how many places the pc
stops at, which registers move and how steadily, and whether a moving
register is heading for zero or for another register (a loop bound) or has
already passed it. An MLP turns them into a score.

Oracle: running the program on to LABEL_STEPS instructions (it halts or it
does not). Training and held-out programs come from different generators
(loop shapes) and different corpus programs: `programs` says which.

At run time the watchdog only reports (`flagged` in the process's result):
the step budget is still what ends a process, under both policies, so a
flag never changes a result. A flag on a process that then ends by itself
is a false alarm, counted as an override (the rule "only the budget kills"
overrode the network).
"""

from __future__ import annotations

import math
import random
import zlib

import numpy as np
import torch
from torch import nn
from ncpu.os.nets.fitting import fit_by_steps

WINDOW = 12  # slices the features look back over
FEATURES = 14
HIDDEN = 32
LABEL_STEPS = 2_000_000  # the oracle's horizon (or the program's budget, if longer)
HORIZON = 60  # slices observed per program when judging (12,000 instructions at 200 a slice)


class WatchdogNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.Sequential(nn.Linear(FEATURES, HIDDEN), nn.ReLU(), nn.Linear(HIDDEN, HIDDEN), nn.ReLU(),
                                    nn.Linear(HIDDEN, 1))
        self.register_buffer("threshold", torch.tensor(0.5))  # chosen on training programs, shipped with it

    def forward(self, features: torch.Tensor) -> torch.Tensor:
        return self.layers(features).squeeze(-1)

    def score(self, features: np.ndarray) -> np.ndarray:
        """Probabilities, in numpy (one window per slice at run time)."""
        x = np.asarray(features, np.float32)
        linears = [layer for layer in self.layers if isinstance(layer, nn.Linear)]
        for index, layer in enumerate(linears):
            x = x @ layer.weight.detach().numpy().T + layer.bias.detach().numpy()
            if index < len(linears) - 1:
                x = np.maximum(x, 0)
        return 1 / (1 + np.exp(-x[..., 0]))


def snapshot(state, memory: np.ndarray, syscalls: int, written: int) -> tuple:
    """What the kernel keeps of a slice's end."""
    digest = zlib.crc32(np.ascontiguousarray(memory, np.int64).tobytes())
    return (state.steps, state.pc, tuple(state.registers), (state.n, state.z, state.c, state.v), digest,
            syscalls, written)


def window_features(snaps: list[tuple]) -> np.ndarray:
    """Features of the last WINDOW snapshots (fewer at the start of a run)."""
    snaps = snaps[-WINDOW:]
    n = len(snaps)
    states = [(s[1], s[2], s[3], s[4]) for s in snaps]
    repeats = sum(1 for i, s in enumerate(states) if s in states[:i]) / WINDOW
    pcs = len({s[1] for s in snaps}) / WINDOW
    memories = len({s[4] for s in snaps}) / WINDOW
    regs = np.array([s[2] for s in snaps], np.float64)  # [n, 8]
    moving = steady = 0.0
    to_zero = to_meet = crossed = 1.0
    if n >= 2:
        delta = np.diff(regs, axis=0)
        moving = float((delta[-1] != 0).mean())
        same_sign = np.all(np.sign(delta) == np.sign(delta[-1]), axis=0) & (delta[-1] != 0)
        steady = float(same_sign.mean())
        rate = np.abs(delta).mean(axis=0)
        # a register heading for zero: slices until it gets there at its pace
        heading = same_sign & (np.sign(delta[-1]) == -np.sign(regs[-1])) & (regs[-1] != 0)
        if heading.any():
            to_zero = min(math.log1p(abs(regs[-1][r]) / rate[r]) / 25 for r in np.nonzero(heading)[0])
        gaps = regs[:, :, None] - regs[:, None, :]  # [n, 8, 8] pairwise differences
        closing = np.abs(gaps[-1]) < np.abs(gaps[0])
        flips = (np.sign(gaps[0]) * np.sign(gaps[-1]) < 0)
        crossed = float(flips.sum() / 56)
        if closing.any():
            pace = (np.abs(gaps[0]) - np.abs(gaps[-1])) / (n - 1)
            times = np.abs(gaps[-1])[closing] / pace[closing]
            to_meet = float(np.log1p(times.min()) / 25)
    syscalls = (snaps[-1][5] - snaps[0][5]) / max(n - 1, 1) / 4
    written = math.log1p((snaps[-1][6] - snaps[0][6]) / max(n - 1, 1)) / 8
    return np.array([repeats, pcs, memories, moving, steady, to_zero, to_meet, crossed, min(syscalls, 1.0), written,
                     math.log1p(snaps[-1][0]) / 24, n / WINDOW, float(states[-1] in states[:-1]),
                     float(snaps[-1][1] == snaps[0][1])], np.float32)


# -- programs: loop shapes that never end and ones that end late ---------------------------

def _noise(rng: random.Random) -> str:
    """An unrelated instruction in R5..R7 so that loops of one shape differ."""
    r = rng.randint(5, 7)
    return rng.choice([f"ADD R{r}, R{r}, {rng.randint(1, 9)}", f"XOR R{r}, R{r}, R{rng.randint(5, 7)}",
                       f"MUL R{r}, R{r}, R{r}", "NOP"])


def _body(rng: random.Random) -> str:
    return "\n".join(f"        {_noise(rng)}" for _ in range(rng.randint(0, 3)))


def _spin(rng):  # never ends: a jump to itself after some setup
    return f"        MOV R1, {rng.randint(1, 99)}\n{_body(rng)}\nloop:   JMP loop"


def _count_up(rng):  # never ends: a counter with no exit test
    return f"        MOV R1, 0\nloop:   ADD R1, R1, {rng.randint(1, 5)}\n{_body(rng)}\n        JMP loop"


def _untouched_exit(rng):  # never ends: the exit test reads a register the loop never changes
    return (f"        MOV R3, {rng.randint(1, 50)}\nloop:   INC R2\n{_body(rng)}\n        CMP R3, 0\n"
            f"        JNZ loop\n        HALT")


def _memory_ring(rng):  # never ends: writes round a ring buffer forever
    return (f"        MOV R2, 0\nloop:   STORE R1, [R2+0]\n        INC R2\n        AND R2, R2, {rng.choice((15, 31))}\n"
            f"        INC R1\n{_body(rng)}\n        JMP loop")


def _forever_outer(rng):  # never ends: an inner loop that ends, inside one that does not
    return (f"outer:  MOV R1, {rng.randint(5, 300)}\ninner:\n{_body(rng)}\n        DEC R1\n        JNZ inner\n"
            f"        INC R4\n        JMP outer")


def _missed_exit(rng):  # never ends: steps over its exit value (odd start, step 2, exit at 0)
    return (f"        MOV R1, {2 * rng.randint(100, 5000) + 1}\nloop:   SUB R1, R1, 2\n{_body(rng)}\n"
            f"        CMP R1, 0\n        JNZ loop\n        HALT")


def _xorshift_zero(rng):  # never ends: xorshift never reaches 0 from a non-zero seed
    return (f"        MOV R1, {rng.randint(1, 30000)}\nloop:   SHL R2, R1, 13\n        XOR R1, R1, R2\n"
            f"        SHR R2, R1, 17\n        XOR R1, R1, R2\n        SHL R2, R1, 5\n        XOR R1, R1, R2\n"
            f"{_body(rng)}\n        CMP R1, 0\n        JNZ loop\n        HALT")


def _recurse_forever(rng):  # never ends: a call with no base case (the stack wraps round memory)
    return (f"        MOV R1, {rng.randint(1, 9)}\nf:      PUSH R1\n        INC R1\n{_body(rng)}\n"
            f"        CALL f\n        HALT")


def _countdown(rng):  # ends: a countdown, long or short
    return (f"        MOV R1, {rng.choice((50, 500, 5000, 50000, 200000))}\nloop:\n{_body(rng)}\n"
            f"        DEC R1\n        JNZ loop\n        HALT")


def _nested(rng):  # ends: nested loops with bounds
    return (f"        MOV R3, {rng.randint(2, 400)}\nouter:  MOV R1, {rng.randint(5, 300)}\ninner:\n"
            f"{_body(rng)}\n        DEC R1\n        JNZ inner\n        DEC R3\n        JNZ outer\n        HALT")


def _sweep(rng):  # ends: writes through memory until a bound
    return (f"        MOV R2, 0\n        MOV R3, {rng.choice((40, 400, 4000, 40000))}\nloop:   STORE R2, [R2+0]\n"
            f"        INC R2\n{_body(rng)}\n        CMP R2, R3\n        JL loop\n        HALT")


def _count_to_bound(rng):  # ends: counts up by k to a bound it reaches exactly
    step = rng.randint(1, 4)
    return (f"        MOV R1, 0\n        MOV R3, {step * rng.choice((30, 300, 3000, 30000, 120000))}\n"
            f"loop:   ADD R1, R1, {step}\n{_body(rng)}\n        CMP R1, R3\n        JNZ loop\n        HALT")


def _xorshift_counted(rng):  # ends: chaotic registers, but a counter bounds the loop
    return (f"        MOV R1, {rng.randint(1, 30000)}\n        MOV R4, {rng.choice((20, 200, 2000, 20000))}\n"
            f"loop:   SHL R2, R1, 13\n        XOR R1, R1, R2\n        SHR R2, R1, 17\n        XOR R1, R1, R2\n"
            f"{_body(rng)}\n        DEC R4\n        JNZ loop\n        HALT")


def _recurse_deep(rng):  # ends: recursion with a base case (sum 1..n on the stack)
    return (f"        MOV R1, {rng.choice((10, 100, 300, 900))}\n        CALL f\n        HALT\n"
            f"f:      CMP R1, 0\n        JZ done\n        PUSH R1\n        DEC R1\n{_body(rng)}\n        CALL f\n"
            f"        POP R1\n        ADD R2, R2, R1\ndone:   RET")


TRAIN_SHAPES = {"spin": _spin, "count_up": _count_up, "untouched_exit": _untouched_exit,
                "memory_ring": _memory_ring, "forever_outer": _forever_outer,
                "countdown": _countdown, "nested": _nested, "sweep": _sweep}
HELD_SHAPES = {"missed_exit": _missed_exit, "xorshift_zero": _xorshift_zero, "recurse_forever": _recurse_forever,
               "count_to_bound": _count_to_bound, "xorshift_counted": _xorshift_counted,
               "recurse_deep": _recurse_deep}


def programs(held: bool, per_shape: int = 24, seed: int = 0) -> list[tuple[str, object]]:
    """(shape or program name, Image) for one side of the split: generated
    loop shapes, and the corpus and nsl jobs of that side."""
    from ncpu.isa import assemble
    from ncpu.machine.state import MachineState
    from ncpu.os.jobs import all_jobs, held_out
    from ncpu.os.kernel import Image

    rng = random.Random(seed + (1000 if held else 0))
    out = []
    for name, make in (HELD_SHAPES if held else TRAIN_SHAPES).items():
        for index in range(per_shape):
            words = assemble(make(rng)).words
            out.append((name, Image(f"{name}{index}", words, MachineState(memory=[0] * 64), LABEL_STEPS)))
    out.extend((job.program, job.image) for job in all_jobs() if held_out(job.program) == held)
    return out


def observe(image, slices: int = HORIZON, slice_steps: int = 200) -> tuple[list[tuple], bool]:
    """Snapshots after each slice of `image` run alone (no system calls serviced:
    a SYS ends the observation), and the oracle's label: True = never ends."""
    from ncpu.machine.engines import get_engine

    engine = get_engine("compute")
    state = image.state.copy()
    snaps = []
    for _ in range(slices):
        state = engine.run(image.words, state, slice_steps)
        snaps.append(snapshot(state, np.asarray(state.memory, np.int64), 0, 0))
        if state.halted or state.trapped:
            break
    if state.halted or state.trapped:
        return snaps, False
    # The corpus's long programs (bench_loop: 150 M instructions) end within their budgets.
    horizon = min(max(LABEL_STEPS, image.max_steps), 200_000_000)
    final = engine.run(image.words, state, horizon - state.steps)
    return snaps, not (final.halted or final.trapped)


def dataset(observed: list[tuple[list[tuple], bool]]) -> tuple[torch.Tensor, torch.Tensor]:
    rows, labels = [], []
    for snaps, endless in observed:
        for end in range(1, len(snaps) + 1):
            rows.append(window_features(snaps[:end]))
            labels.append(float(endless))
    return torch.as_tensor(np.stack(rows)), torch.tensor(labels)


def train(observed, seed: int = 0, steps: int = 1500, log=None) -> WatchdogNet:
    torch.manual_seed(seed)
    net = WatchdogNet()
    x, y = dataset(observed)
    fit_by_steps(net, x, y, nn.functional.binary_cross_entropy_with_logits, seed=seed, steps=steps,
                 weight_decay=1e-4, log=log, name="watchdog")
    # The threshold: just above every window of every terminating training program.
    scores = net.score(x.numpy())
    ending = scores[y.numpy() == 0]
    net.threshold.fill_(float(min(0.999, ending.max() + 1e-3)) if len(ending) else 0.5)
    return net


def judge(net: WatchdogNet, observed, slice_steps: int = 200) -> dict:
    """Per program: its score is the highest over its windows; AUROC over
    programs; for those that never end, instructions until the first flag."""
    scores, labels, delays, false_flags = [], [], [], 0
    threshold = float(net.threshold)
    for snaps, endless in observed:
        window = np.stack([window_features(snaps[:end]) for end in range(1, len(snaps) + 1)])
        s = net.score(window)
        scores.append(float(s.max()))
        labels.append(endless)
        flagged = np.nonzero(s > threshold)[0]
        if endless:
            delays.append(snaps[flagged[0]][0] if len(flagged) else None)
        elif len(flagged):
            false_flags += 1
    caught = [d for d in delays if d is not None]
    return {"auroc": auroc(scores, labels), "programs": len(labels), "endless": sum(labels),
            "caught": len(caught), "median_delay_steps": float(np.median(caught)) if caught else None,
            "false_flags": false_flags, "threshold": threshold}


def baseline(observed, slice_steps: int = 200) -> dict:
    """The classical watchdog is a step budget: here one of the observed
    HORIZON slices, which flags whatever is still running then (endless or
    merely long) at exactly that delay."""
    scores = [float(not snaps[-1][0] < HORIZON * slice_steps) for snaps, _ in observed]
    labels = [e for _, e in observed]
    caught = sum(1 for s, e in zip(scores, labels) if s and e)
    return {"auroc": auroc(scores, labels), "caught": caught, "median_delay_steps": float(HORIZON * slice_steps),
            "false_flags": sum(1 for s, e in zip(scores, labels) if s and not e)}


def exact_repeat(observed) -> dict:
    """A rule, for comparison: flag only when a whole state repeats (sure, but blind to counters)."""
    scores = [float(any(window_features(snaps[:e])[12] for e in range(1, len(snaps) + 1))) for snaps, _ in observed]
    return {"auroc": auroc(scores, [e for _, e in observed])}


def auroc(scores: list[float], labels: list[bool]) -> float:
    pos = [s for s, l in zip(scores, labels) if l]
    neg = [s for s, l in zip(scores, labels) if not l]
    if not pos or not neg:
        return float("nan")
    wins = sum((p > n) + 0.5 * (p == n) for p in pos for n in neg)
    return wins / (len(pos) * len(neg))


def split(per_shape: int = 24, seed: int = 0) -> tuple[list, list]:
    """Observed training and held-out programs: [(snapshots, endless)]."""
    return tuple([observe(image) for _, image in programs(held, per_shape, seed)] for held in (False, True))
