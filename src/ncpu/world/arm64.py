"""The ARM64 machine as a second target of the world model.

A *state* is the machine's integer side: X0..X30, SP, PC and NZCV, 34 words
of 64 bits (one latent slot each, 8 bytes per slot through the same byte
encoder as the nCPU machine's). An *action* is the 32-bit instruction word,
bit by bit: the model learns to decode it.

Traces come from our ARM64 CPU (`ncpu.arm64.cpu`, tested against unicorn
and qemu) stepped one instruction at a time over random programs of
integer data processing (add/sub with and without flags, logic, moves,
multiply, divide, variable shifts, conditional selects; 64- and 32-bit
forms) and branches (B.cond, CBZ/CBNZ, B) forward and backward inside the
program. Programs use X0..X7; the other registers hold random values that
only a fault changes. Memory instructions are left out: the state holds no
memory, so a load's value would be unpredictable from it.

Programs are split by content, as for the nCPU machine (`traces.split_of`).
"""

from __future__ import annotations

import random
import struct
from dataclasses import dataclass
from typing import Callable

import numpy as np

from ncpu.world.calibrate import Contexts
from ncpu.world.traces import split_of
from ncpu.world.trips import LoopView

CODE = 0x100000
MAX_WORDS = 1024  # the code page(s) mapped at CODE
WORDS = 34  # X0..X30, SP, PC, NZCV
WORD_BITS = 64
STATE_BITS = WORDS * WORD_BITS
ACTION_BITS = 32
SP_COL, PC_COL, NZCV_COL = 31, 32, 33
STATE_FIELDS = {"registers": slice(0, 31 * 64), "sp": slice(31 * 64, 32 * 64), "pc": slice(32 * 64, 33 * 64),
                "nzcv": slice(33 * 64, 33 * 64 + 4)}
CLASSES = ("alu", "branch")
U64 = (1 << 64) - 1

# Data-processing encodings (sf, the 64-bit bit, is or-ed in at bit 31).
_ADDSUB_IMM = {"add": 0x11000000, "adds": 0x31000000, "sub": 0x51000000, "subs": 0x71000000}
_ADDSUB_REG = {"add": 0x0B000000, "adds": 0x2B000000, "sub": 0x4B000000, "subs": 0x6B000000}
_LOGIC_REG = {"and": 0x0A000000, "orr": 0x2A000000, "eor": 0x4A000000, "ands": 0x6A000000, "bic": 0x0A200000}
_MOVE = {"movn": 0x12800000, "movz": 0x52800000, "movk": 0x72800000}
_TWO_SOURCE = {"udiv": 0x1AC00800, "sdiv": 0x1AC00C00, "lslv": 0x1AC02000, "lsrv": 0x1AC02400,
               "asrv": 0x1AC02800, "rorv": 0x1AC02C00}
_SELECT = {"csel": 0x1A800000, "csinc": 0x1A800400, "csinv": 0x5A800000, "csneg": 0x5A800400}
_MADD = 0x1B000000
_BCOND, _CBZ, _CBNZ, _B = 0x54000000, 0x34000000, 0x35000000, 0x14000000


def instruction_class(words: np.ndarray) -> np.ndarray:
    """0 (alu) or 1 (branch) for each instruction word (of the forms above)."""
    w = words.astype(np.int64)
    branch = ((w & 0xFF000010) == _BCOND) | ((w & 0x7E000000) == 0x34000000) | ((w & 0xFC000000) == _B)
    return branch.astype(np.int64)


def is_conditional(words: np.ndarray) -> np.ndarray:
    w = words.astype(np.int64)
    return ((w & 0xFF000010) == _BCOND) | ((w & 0x7E000000) == 0x34000000)


def is_jump(word: int) -> bool:
    """Whether a word is an unconditional B."""
    return word & 0xFC000000 == _B


def branch_target(word: int, pc: int) -> int:
    """Target of a B.cond/CBZ/CBNZ at pc."""
    offset = (word >> 5) & 0x7FFFF
    offset -= (1 << 19) if offset >> 18 else 0
    return (pc + 4 * offset) & U64


def jump_target(word: int, pc: int) -> int:
    """Target of a B at pc."""
    offset = word & 0x3FFFFFF
    offset -= (1 << 26) if offset >> 25 else 0
    return (pc + 4 * offset) & U64


def loop_branches(words: list[int]) -> dict[int, bool]:
    """pc of each loop branch -> whether the loop goes on when it is taken, as
    `trips.loop_branches` finds them in nCPU code: a backward conditional branch
    (goes on when taken), or a forward one that jumps past a backward B to it or
    before it (goes on when not taken)."""
    pcs = [CODE + 4 * i for i in range(len(words))]
    jumps = [(pc, jump_target(w, pc)) for pc, w in zip(pcs, words) if w & 0xFC000000 == _B]
    out = {}
    for pc, word in zip(pcs, words):
        if not is_conditional(np.array([word]))[0]:
            continue
        target = branch_target(word, pc)
        if target <= pc:
            out[pc] = True
        elif any(pc < q < target and back <= pc for q, back in jumps):
            out[pc] = False
    return out


def branch_targets(words: np.ndarray, pcs: np.ndarray) -> np.ndarray:
    """`branch_target` of each step's word at its pc, uint64[T] (meaningful for conditional branches)."""
    return np.array([branch_target(int(w), int(pc)) for w, pc in zip(words, pcs)], np.uint64)


def destination(word: int) -> int | None:
    """The register a data-processing word of the forms above writes (None: none, or XZR)."""
    if instruction_class(np.array([word]))[0] == 1 or word & 0x1F == 31:
        return None
    return word & 0x1F


def random_program(rng: random.Random) -> list[int]:
    """8..40 instruction words."""
    n = rng.randint(8, 40)
    words = []
    for i in range(n):
        r = rng.random()
        if r < 0.82:
            words.append(_data_processing(rng))
        else:
            offsets = [d for d in range(-6, 7) if d not in (0, 1) and 0 <= i + d <= n]
            offset = rng.choice(offsets)
            kind = rng.random()
            if kind < 0.6:
                words.append(_BCOND | (offset & 0x7FFFF) << 5 | rng.randrange(14))
            elif kind < 0.9:
                words.append(rng.randrange(2) << 31 | rng.choice((_CBZ, _CBNZ)) | (offset & 0x7FFFF) << 5
                             | rng.randrange(8))
            else:
                words.append(_B | max(offset, 2) & 0x3FFFFFF)
    return words


COUNTER = 7  # the counted loops' counter register


def loop_program(rng: random.Random) -> list[int]:
    """A counted loop among random code, for trip counts (random programs' loops
    nearly always exit at once: their branch conditions are random):

        (random code)  MOVZ X7, #n  body: (random code not writing X7)
        SUBS X7, X7, #1  B.NE body  (random code)

    The loop runs n times; from the latch's state on, the remaining count is in X7."""
    def free_of_counter() -> int:
        while True:
            word = _data_processing(rng)
            if destination(word) != COUNTER:
                return word
    head = [_data_processing(rng) for _ in range(rng.randint(0, 3))]
    body = [free_of_counter() for _ in range(rng.randint(1, 6))]
    count = rng.choice((rng.randint(1, 4), rng.randint(1, 20)))
    subs = (1 << 31) | _ADDSUB_IMM["subs"] | 1 << 10 | COUNTER << 5 | COUNTER
    back = -(len(body) + 1)
    bne = _BCOND | (back & 0x7FFFF) << 5 | 1  # condition NE
    tail = [_data_processing(rng) for _ in range(rng.randint(0, 3))]
    return head + [(1 << 31) | _MOVE["movz"] | count << 5 | COUNTER] + body + [subs, bne] + tail


def _data_processing(rng: random.Random) -> int:
    sf = rng.random() < 0.7
    reg = lambda: rng.randrange(8)  # noqa: E731
    rd, rn, rm = reg(), reg(), reg()
    kind = rng.random()
    top = sf << 31
    if kind < 0.25:
        op = rng.choice(list(_ADDSUB_IMM))
        if op in ("adds", "subs") and rng.random() < 0.3:
            rd = 31  # CMN / CMP
        imm = rng.choice((rng.randrange(16), rng.randrange(4096)))
        return top | _ADDSUB_IMM[op] | (rng.random() < 0.1) << 22 | imm << 10 | rn << 5 | rd
    if kind < 0.45:
        op = rng.choice(list(_ADDSUB_REG))
        if op in ("adds", "subs") and rng.random() < 0.3:
            rd = 31
        shift = rng.choice((0, 0, 0, rng.randrange(32 + 32 * sf)))
        return top | _ADDSUB_REG[op] | rm << 16 | shift << 10 | rn << 5 | rd
    if kind < 0.6:
        op = rng.choice(list(_LOGIC_REG))
        return top | _LOGIC_REG[op] | rm << 16 | rn << 5 | rd
    if kind < 0.72:
        op = rng.choice(list(_MOVE))
        hw = rng.randrange(4 if sf else 2)
        imm = rng.choice((rng.randrange(16), rng.getrandbits(16)))
        return top | _MOVE[op] | hw << 21 | imm << 5 | rd
    if kind < 0.8:
        return top | _MADD | rm << 16 | 31 << 10 | rn << 5 | rd  # MUL
    if kind < 0.9:
        return top | _TWO_SOURCE[rng.choice(list(_TWO_SOURCE))] | rm << 16 | rn << 5 | rd
    return top | _SELECT[rng.choice(list(_SELECT))] | rm << 16 | rng.randrange(14) << 12 | rn << 5 | rd


def _random_x(rng: random.Random) -> int:
    r = rng.random()
    if r < 0.25:
        return rng.choice((0, 1, 2, U64, U64 - 1, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF, 1 << 63, (1 << 63) - 1))
    if r < 0.5:
        return rng.randrange(-300, 300) & U64
    if r < 0.75:
        return rng.getrandbits(32)
    return rng.getrandbits(64)


def random_start(rng: random.Random) -> list[int]:
    """A raw start state: random X0..X30, an aligned SP, PC at the code, random NZCV."""
    return [_random_x(rng) for _ in range(31)] + [rng.getrandbits(32) & ~15, CODE, rng.randrange(16)]


@dataclass
class Arm64Trace:
    name: str
    words: list[int]
    states: np.ndarray  # uint64[T+1, 34]
    actions: np.ndarray  # uint64[T]: the instruction word of each step

    def __len__(self) -> int:
        return len(self.actions)


class Stepper:
    """Our ARM64 CPU, one instruction at a time, over a program at CODE."""

    def __init__(self):
        from ncpu.arm64.cpu import Cpu, CpuState, Memory
        self.memory = Memory()
        self.memory.map(CODE, 4 * MAX_WORDS, 5)  # read + execute
        self.state = CpuState()
        self.cpu = Cpu(self.memory, self.state)

    def record(self, words: list[int], start: list[int], max_steps: int, name: str = "",
               after_step: Callable[[int, list[int], int, list[int]], list[int] | None] | None = None) -> Arm64Trace:
        """Run `words` from the raw state `start` for up to `max_steps` steps.

        `after_step(t, raw s_t, word, raw s_t+1)` may return another raw state
        (fault injection); the run goes on from it."""
        if len(words) > MAX_WORDS:
            raise ValueError(f"{name or 'program'}: {len(words)} instructions, at most {MAX_WORDS}")
        self.memory.write(CODE, struct.pack(f"<{len(words)}I", *words) + bytes(4 * (MAX_WORDS - len(words))))
        self._set(start)
        states, actions = [list(start)], []
        end = CODE + 4 * len(words)
        s = self.state
        while len(actions) < max_steps and CODE <= s.pc < end:
            word = words[(s.pc - CODE) // 4]
            stop = self.cpu.run(1)
            if stop.steps != 1:
                raise RuntimeError(f"{name}: {word:#010x} at {s.pc:#x} stopped with {stop.reason}")
            actions.append(word)
            states.append([int(v) for v in s.x] + [s.sp, s.pc, s.nzcv])
            if after_step is not None:
                changed = after_step(len(actions) - 1, states[-2], word, states[-1])
                if changed is not None:
                    states[-1] = [int(v) for v in changed]
                    self._set(states[-1])
        return Arm64Trace(name, words, np.array(states, np.uint64).reshape(-1, WORDS),
                          np.array(actions, np.uint64))

    def execute(self, raw, word: int) -> list[int] | None:
        """The raw state after the one instruction `word` runs from the raw state `raw`
        (placed at CODE, the pc moved there), or None where the CPU stops on it."""
        self.memory.write(CODE, word.to_bytes(4, "little"))
        s = self.state
        s.x[:] = raw[:31]
        s.sp, s.pc, s.nzcv = int(raw[SP_COL]), CODE, int(raw[NZCV_COL])
        if self.cpu.run(1).steps != 1:
            return None
        return [int(v) for v in s.x] + [s.sp, s.pc, s.nzcv]

    def _set(self, raw: list[int]) -> None:
        s = self.state
        for i in range(31):
            s.x[i] = raw[i]
        s.sp, s.pc, s.nzcv = raw[SP_COL], raw[PC_COL], raw[NZCV_COL]


EVAL_SEED = 10**9


def random_traces(split: str, seed: int, count: int, max_steps: int = 128,
                  stepper: Stepper | None = None, program: Callable[[random.Random], list[int]] = random_program
                  ) -> list[Arm64Trace]:
    """`count` non-empty traces of `program`s (random programs by default) whose content
    falls in `split` (seeds seed, seed+1, ...)."""
    stepper = stepper or Stepper()
    traces, current = [], seed
    while len(traces) < count:
        rng = random.Random(current)
        words = program(rng)
        if split_of(words) == split:
            trace = stepper.record(words, random_start(rng), max_steps, f"arm64:{current}")
            if len(trace):
                traces.append(trace)
        current += 1
    return traces


def state_bits(raw: np.ndarray) -> np.ndarray:
    """Raw states uint64[N, 34] -> float32[N, 2176] of 0/1, word after word, least significant bit first."""
    raw = raw.astype(np.uint64)
    bits = (raw[..., None] >> np.arange(64, dtype=np.uint64)) & np.uint64(1)
    return bits.astype(np.float32).reshape(len(raw), STATE_BITS)


def action_bits(words: np.ndarray) -> np.ndarray:
    """Instruction words [N] -> float32[N, 32]."""
    w = words.astype(np.uint64)
    return ((w[:, None] >> np.arange(32, dtype=np.uint64)) & np.uint64(1)).astype(np.float32)


# Instruction kinds for the calibrated score's contexts (`calibrate.Contexts`):
# each form above by its fixed bits, and whether it works on 64 or 32 bits.
_FORMS = ([(0x7F000000, v) for v in _ADDSUB_IMM.values()] + [(0x7F200000, v) for v in _ADDSUB_REG.values()]
          + [(0x7F200000, v) for v in _LOGIC_REG.values()] + [(0x7F800000, v) for v in _MOVE.values()]
          + [(0x7FE08000, _MADD)] + [(0x7FE0FC00, v) for v in _TWO_SOURCE.values()]
          + [(0x7FE00C00, v) for v in _SELECT.values()]
          + [(0xFF000010, _BCOND), (0x7F000000, _CBZ), (0x7F000000, _CBNZ), (0xFC000000, _B)])
KINDS = 2 * (len(_FORMS) + 1)  # the last form index: none of the above
ROLES = ("written_register", "other_register", "sp", "pc", "nzcv")


def kind_of(words: np.ndarray) -> np.ndarray:
    """Index of each word's form (len(_FORMS) where none fits) times two, plus its 64-bit flag: int64[N]."""
    w = words.astype(np.int64)
    form = np.full(len(w), len(_FORMS), np.int64)
    for i, (mask, value) in reversed(list(enumerate(_FORMS))):
        form[(w & mask) == value] = i
    return 2 * form + ((w >> 31) & 1)


def word_roles(words: np.ndarray) -> np.ndarray:
    """The role (index into ROLES) of each of the 34 state words: int64[N, 34]."""
    roles = np.ones((len(words), WORDS), np.int64)
    for i, word in enumerate(words):
        rd = destination(int(word))
        if rd is not None:
            roles[i, rd] = 0
    roles[:, SP_COL], roles[:, PC_COL], roles[:, NZCV_COL] = 2, 3, 4
    return roles


CONTEXTS = Contexts(KINDS, len(ROLES), WORD_BITS, lambda words: (kind_of(words), word_roles(words)))
# How trip counting (`trips.py`) reads ARM64 traces.
LOOPS = LoopView(loop_branches, PC_COL, branch_targets, state_bits, action_bits, ACTION_BITS)


# Faults, as in `faults.py` (the same definition: a fault always changes the
# state the model sees): the faulty next raw state, or None where the fault does not apply.
FAULTS = ("register", "alu", "skip", "branch")


def inject(kind: str, before: np.ndarray, word: int, after: np.ndarray, rng: random.Random) -> np.ndarray | None:
    faulty = after.copy()
    rd = destination(word)
    if kind == "register":  # a bit flip in X0..X30 or SP, not the one the step writes
        register = rng.choice([r for r in range(32) if r != rd])
        faulty[register] ^= np.uint64(1 << rng.randrange(64))
    elif kind == "alu":  # a bit flip in the result (within the low 32 bits of a W result)
        if rd is None:
            return None
        faulty[rd] ^= np.uint64(1 << rng.randrange(64 if word >> 31 else 32))
    elif kind == "skip":
        faulty = before.copy()
        faulty[PC_COL] += np.uint64(4)
        if np.array_equal(faulty, after):
            return None
    elif kind == "branch":
        pc = int(before[PC_COL])
        target, fall_through = branch_target(word, pc), pc + 4
        if not is_conditional(np.array([word]))[0] or target == fall_through:
            return None
        faulty[PC_COL] = fall_through if int(after[PC_COL]) == target else target
    else:
        raise ValueError(f"unknown fault {kind!r}; choose one of {', '.join(FAULTS)}")
    assert not np.array_equal(faulty, after), kind  # each kind above is built to change the state
    return faulty
