"""The peephole optimizer: candidate rewrites of short windows, a chooser
that says which to try, and a guard that proves each one before it is kept.

    windows of 2..4 straight-line instructions
      -> candidates (classical generator: `candidates`)
      -> a chooser orders them (greedy: generator order; oracle: most saving
         first; neural: the network's scores, `ncpu.os.nets.optimizer`)
      -> the guard (`guard`): random concrete states first (a cheap
         counterexample), then the SMT proof (`equivalence.prove`)
      -> the first proven one replaces the window; liveness is recomputed

The chooser may also say "none": a window it expects nothing from costs no
proof. Every candidate the chooser put first that the guard rejected is
counted (`Report.rejected`); for the network these are its overrides.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field

from ncpu.isa.encoding import Instruction, field_range
from ncpu.isa.opcodes import BY_MNEMONIC
from ncpu.isa.semantics import BINARY, IMMEDIATE_TO_BINARY, wrap
from ncpu.machine import reference
from ncpu.machine.state import MachineState
from ncpu.nsl import listing
from ncpu.nsl.equivalence import FLAGS, prove

WINDOW_SIZES = (4, 3, 2)
IMM21 = field_range("imm21")
MAX_PASSES = 8
CONCRETE_STATES = 12


@dataclass(frozen=True)
class Candidate:
    kind: str                        # delete, delete2, retarget, fold
    new: tuple[Instruction, ...]
    saving: int                      # instructions saved


@dataclass
class Rewrite:
    old: tuple[str, ...]
    new: tuple[str, ...]
    kind: str
    live: tuple[str, ...]
    proof: str


@dataclass
class Report:
    before: int = 0                  # instructions
    after: int = 0
    applied: list[Rewrite] = field(default_factory=list)
    guard_calls: int = 0             # candidates checked
    smt_calls: int = 0               # of which reached the solver
    rejected: int = 0                # candidates tried and refused by the guard
    windows: int = 0                 # windows looked at


def _mov_const(rd: int, value: int) -> Instruction | None:
    if IMM21[0] <= value <= IMM21[1]:
        return Instruction(BY_MNEMONIC["MOVI"], rd=rd, imm=value)
    return None


def candidates(window: list[Instruction]) -> list[Candidate]:
    """Rewrites worth proving for this window, none of them known to be right."""
    found: dict[tuple, Candidate] = {}

    def add(kind: str, new: list[Instruction]) -> None:
        key = tuple(new)
        if key != tuple(window) and key not in found:
            found[key] = Candidate(kind, key, len(window) - len(new))

    n = len(window)
    for i in range(n):
        add("delete", window[:i] + window[i + 1:])
    for i in range(n):
        for j in range(i + 1, n):
            add("delete2", [w for k, w in enumerate(window) if k not in (i, j)])
    # MOV Ra, Rb: compute the value straight into Ra from where Rb was last written.
    for j, ins in enumerate(window):
        if ins.op.mnemonic != "MOV":
            continue
        a, b = ins.rd, ins.rs1
        for i in range(j):
            if f"R{b}" not in listing.writes(window[i]):
                continue
            middle = [listing.with_registers(w, {b: a}) for w in window[i + 1:j]]
            add("retarget", window[:i] + [listing.with_registers(window[i], {b: a}, destination_only=True)]
                + middle + window[j + 1:])
    # Constant folding: an operation whose operands the window set to constants.
    known: dict[int, int] = {}
    for j, ins in enumerate(window):
        name = ins.op.mnemonic
        value = None
        if name in IMMEDIATE_TO_BINARY and ins.rs1 in known:
            value = BINARY[IMMEDIATE_TO_BINARY[name]](known[ins.rs1], ins.imm)
        elif name in BINARY and ins.rs1 in known and ins.rs2 in known:
            value = BINARY[name](known[ins.rs1], known[ins.rs2])
        elif name in ("INC", "DEC") and ins.rd in known:
            value = wrap(known[ins.rd] + (1 if name == "INC" else -1))
        elif name == "MOV" and ins.rs1 in known:
            value = known[ins.rs1]
        folded = _mov_const(ins.rd, value) if value is not None else None
        if folded is not None:
            add("fold", window[:j] + [folded] + window[j + 1:])
            if j and window[j - 1].op.mnemonic == "MOVI" and window[j - 1].rd == ins.rd:
                add("fold", window[:j - 1] + [folded] + window[j + 1:])
        for r in listing.writes(ins):
            if r.startswith("R"):
                known.pop(int(r[1:]), None)
        if name == "MOVI":
            known[ins.rd] = ins.imm
        elif folded is not None:
            known[ins.rd] = value
    return list(found.values())


# -- the guard ----------------------------------------------------------------------

def _random_state(rng: random.Random, mem_size: int) -> MachineState:
    """Register values that collide with each other and with small addresses,
    so that wrong rewrites show up on a few states."""
    pool = [0, 1, -1, 2, 5, mem_size - 1, -(1 << 31), (1 << 31) - 1]
    regs = [rng.choice(pool + [rng.randint(-8, 8), rng.getrandbits(32) - (1 << 31)]) for _ in range(8)]
    memory = [rng.randint(-3, 3) for _ in range(mem_size)]
    return MachineState(regs, memory, *(rng.random() < 0.5 for _ in FLAGS), sp=rng.randrange(mem_size))


def _run(window, state: MachineState) -> MachineState:
    state = state.copy()
    for k, ins in enumerate(window):
        state.pc = k
        reference.step(list(window), state)
    return state


def _observed(state: MachineState, live: frozenset[str]) -> tuple:
    regs = tuple(state.registers[i] for i in range(8) if f"R{i}" in live)
    flags = tuple(state.flags[f] for f in FLAGS if f in live)
    return regs, flags, state.sp, tuple(state.memory)


@dataclass
class Guard:
    mem_size: int
    seed: int = 0
    report: Report = field(default_factory=Report)

    def __post_init__(self):
        rng = random.Random(self.seed)
        self.states = [_random_state(rng, self.mem_size) for _ in range(CONCRETE_STATES)]
        self.known: dict[tuple, tuple[bool, str]] = {}

    def __call__(self, old, new, live) -> tuple[bool, str]:
        """(kept, why): why is the solver's "unsat", or "counterexample"/"sat"/"unknown"."""
        key = (tuple(old), tuple(new), live)
        if key not in self.known:
            self.known[key] = self.check(old, new, live)
        return self.known[key]

    def check(self, old, new, live) -> tuple[bool, str]:
        self.report.guard_calls += 1
        for state in self.states:
            if _observed(_run(old, state), live) != _observed(_run(new, state), live):
                return False, "counterexample"
        self.report.smt_calls += 1
        verdict = prove(list(old), list(new), live, self.mem_size)
        return verdict.proven, verdict.reason


# -- the driver -----------------------------------------------------------------------

# A chooser gets (window, live, candidates) and returns the candidates to try, in order.
Chooser = Callable[[list[Instruction], frozenset[str], list[Candidate]], list[Candidate]]


def greedy(window, live, found: list[Candidate]) -> list[Candidate]:
    """The classical baseline: every candidate, in the generator's order."""
    return found


def most_saving(window, live, found: list[Candidate]) -> list[Candidate]:
    return sorted(found, key=lambda c: -c.saving)


def oracle(guard: "Guard") -> Chooser:
    """Knows the truth: asks the guard about every candidate and offers only
    the proven ones, most saving first (what the network learns to imitate)."""
    def choose(window, live, found):
        return sorted((c for c in found if guard(window, c.new, live)[0]), key=lambda c: -c.saving)
    return choose


def optimize(assembly: str, mem_size: int, chooser: Chooser = greedy, seed: int = 0,
             observe: Callable | None = None, guard: Guard | None = None) -> tuple[str, Report]:
    """Rewrite until a pass over every window changes nothing; returns the
    assembly and what was done. `observe(window, live, candidates, verdicts)`
    sees every window with the guard's verdict on each candidate it was asked
    about (the network's training data)."""
    lines = listing.parse(assembly)
    guard = guard or Guard(mem_size, seed)
    report = guard.report
    report.before = len(listing.instructions(lines))
    for _ in range(MAX_PASSES):
        changed = False
        live_after = listing.liveness(lines)
        r = 0
        while r < len(runs := listing.runs(lines)):
            run, start = runs[r], 0
            while start < len(run) - 1:
                span = _rewrite_at(lines, run, start, live_after, chooser, guard, observe)
                if span:
                    changed = True
                    live_after = listing.liveness(lines)
                    runs = listing.runs(lines)
                    if r >= len(runs):
                        break
                    run, start = runs[r], max(0, start - 3)
                else:
                    start += 1
            r += 1
        if not changed:
            break
    report.after = len(listing.instructions(lines))
    return listing.write(lines), report


def _rewrite_at(lines, run, start, live_after, chooser, guard, observe) -> bool:
    """Try the windows that start at run[start], largest first; True once one was rewritten."""
    report = guard.report
    for size in WINDOW_SIZES:
        span = run[start:start + size]
        if len(span) < size:
            continue
        window = [lines[i].ins for i in span]
        live = live_after[span[-1]]
        found = candidates(window)
        report.windows += 1
        verdicts = {}
        chosen = None
        for candidate in chooser(window, live, found):
            ok, reason = guard(window, candidate.new, live)
            verdicts[candidate] = ok
            if ok:
                chosen = candidate, reason
                break
            report.rejected += 1
        if observe is not None:
            observe(window, live, found, verdicts)
        if chosen is not None:
            candidate, reason = chosen
            report.applied.append(Rewrite(tuple(listing.render(w).strip() for w in window),
                                          tuple(listing.render(w).strip() for w in candidate.new),
                                          candidate.kind, tuple(sorted(live)), reason))
            _replace(lines, span, candidate.new)
            return True
    return False


def _replace(lines: list[listing.Line], span: list[int], new) -> None:
    """Put the new instructions where the window was (its first line keeps its place)."""
    for index in reversed(span):
        del lines[index]
    for offset, ins in enumerate(new):
        lines.insert(span[0] + offset, listing.Line(listing.render(ins), ins=ins))
