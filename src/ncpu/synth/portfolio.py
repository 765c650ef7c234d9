"""The portfolio: every search family at once; the first verified program
opens a short grace period, and the shortest verified program wins.

Each family runs in its own long-lived worker process (spawned, so torch
and numba start clean), fed jobs through a queue; with four families on two
cores the OS shares the cores. Workers send candidates back; this process
checks each one exactly on a real engine (assembly) and by running the
emitted Python, and only then reports it. A `Portfolio` can serve many
specs (the benchmark), `synthesize` serves one.
"""

from __future__ import annotations

import dataclasses
import importlib
import multiprocessing as mp
import os
import queue
import time
from dataclasses import asdict, dataclass, field

from ncpu.isa import AssemblerError
from ncpu.synth import cache, distinguish
from ncpu.synth.budget import Budget
from ncpu.synth.oracle import DISTINGUISHING, MAX_QUERIES, check_oracle_spec, solve_with_oracle
from ncpu.synth.pyemit import check_python, to_python
from ncpu.synth.ranking import rank
from ncpu.synth.spec import Spec, parse_spec
from ncpu.synth.verify import check_asm, count_instructions, disagreement_pool, domain_inputs, outputs_on

# Family name -> module whose `search(spec, deadline, seed)` yields candidates.
FAMILIES = {
    "enumerative": "ncpu.synth.enumerative",
    "sketch": "ncpu.synth.loops",
    "stochastic": "ncpu.synth.stochastic",
    "gradient": "ncpu.synth.gradient",
}


READY = -1  # job id of a worker's "imports done" message

# With fewer cores than families, the families that seldom win a race start
# this many seconds into each problem,
# so that enumeration and the sketches have the cores to themselves while
# most problems are solved: four busy processes on two cores halve the
# speed of each. Measured on the whole suite at 60 s: enumerative and sketch
# win all but 3 problems, stochastic 3, gradient none.
LATE_FAMILIES = {"stochastic": 1.0, "gradient": 1.0}


LATE_NICENESS = 5  # and run at this much lower priority


# The delay is in seconds of an unloaded core: on a loaded machine each
# process gets a fraction of one, enumeration and the sketches need as many
# more wall seconds for the same work, and the late families started while
# most problems were still being solved (at a load average of 15 on two
# cores they took over a quarter of the race's CPU on problems they never
# win). So it is stretched by the load average per core, like the grace
# period, up to LATE_MAX_SECONDS.
LATE_MAX_SECONDS = 8.0


def start_delay(family: str, families: int) -> float:
    if family not in LATE_FAMILIES or (os.cpu_count() or 1) >= families:
        return 0.0
    return min(LATE_MAX_SECONDS, LATE_FAMILIES[family] * load_per_core())


# After the first verified program, how long to wait for a shorter one from
# another family: on a tiny spec the sketch family's branch can win by
# milliseconds with several instructions where enumeration finds one or two
# a moment later. Short, so it adds little to a solved problem's wall time.
GRACE_SECONDS = 0.25
# On a loaded machine a worker gets a fraction of a core, and a quarter of a
# wall second is too little for enumeration to finish the level where the
# smaller program lives (mean_floor_small: the met `(a >> 1) + (b >> 1)`
# came back before `(a + b) >> 1`). The grace is stretched by the load
# average per core, up to GRACE_MAX_SECONDS.
GRACE_MAX_SECONDS = 2.0
# When programs kept from an earlier round (the oracle loop's) still fit
# every example, how long the families get to find another before the
# round ends with them: they opened no grace period, and a round where no
# family found anything new ran to the deadline (P11: its last round, the
# kept program exact, took 57 of the budget's 60 s). The families found
# each earlier round's programs within 0.3-2.4 s; stretched by the load
# per core like the grace period.
KEPT_PATIENCE_SECONDS = 5.0
KEPT_PATIENCE_MAX_SECONDS = 15.0
# When the race ends, programs the workers have already sent are still
# checked for this long: a shorter one, or one that disagrees off the
# examples, must not be dropped because it arrived a moment late.
DRAIN_SECONDS = 0.3


def load_per_core() -> float:
    """The 1-minute load average per core, at least 1 (1 where unknown)."""
    try:
        return max(1.0, os.getloadavg()[0] / (os.cpu_count() or 1))
    except (OSError, AttributeError):
        return 1.0


def grace_seconds() -> float:
    return min(GRACE_MAX_SECONDS, GRACE_SECONDS * load_per_core())


def kept_patience_seconds() -> float:
    return min(KEPT_PATIENCE_MAX_SECONDS, KEPT_PATIENCE_SECONDS * load_per_core())


@dataclass
class SynthResult:
    solved: bool
    asm: str = ""
    python: str = ""
    solver: str = ""
    seconds: float = 0.0
    cached: bool = False
    # Another verified program fits every example but computes something
    # else on inputs drawn like the examples': the answer is only consistent
    # with the examples (the shortest such program is returned).
    underdetermined: bool = False
    # The chance-fit test (`distinguish._ChanceTest`): the probability that
    # programs of the answer's size would fit the examples with their
    # outputs rearranged at random (None: not run). Above
    # distinguish.CHANCE_LEVEL the fit may be a coincidence and the result
    # is flagged underdetermined even with no rival in hand.
    chance_fit: float | None = None
    # An input on which two fitting programs differ, {"in": [...], "outputs":
    # [this program's, the other's], "where": LIKE_EXAMPLES or EDGE_WORDS,
    # "more": [further such inputs]} (what to add an example for, or to ask
    # an oracle about); with EDGE_WORDS only, the result is not flagged.
    disagreement: dict | None = None
    # With an oracle (`synth/oracle.py`): the examples it answered, in order.
    queries: list = field(default_factory=list)
    # With an oracle: the answered questions this program gets wrong. Set
    # when a round after those answers found no program that fits them too
    # within the budget, and the loop fell back on the last program found
    # (it fits every example given; P20's oracle was asked an edge word
    # outside its positive inputs, and no program found fits that answer).
    contradicted: list = field(default_factory=list)
    # The other verified programs of the race (assembly): the oracle loop
    # offers them to the next round.
    alternatives: list = field(default_factory=list)
    # Where the race's time went: CPU seconds of this process and of every
    # worker while the problem was raced (None where /proc is not there), and
    # per family [seconds of its first candidate, of its first verified
    # program, candidates sent] (`Portfolio.solve`; the benchmark lists them).
    cpu_seconds: float | None = None
    cpu_to_answer: float | None = None  # the same, until the returned program was verified
    trace: dict = field(default_factory=dict)

    def to_json(self) -> dict:
        return asdict(self)


# Where fitting programs disagree (`Shortest.disagreement`): on inputs drawn
# like the examples (the answer is open where it will be used: the result is
# flagged underdetermined), or only on edge words outside them.
LIKE_EXAMPLES = "like the examples"
EDGE_WORDS = "edge words"

# After the race, CPU seconds a search for a rival program (one that fits the
# examples, is no longer than the answer and differs from it on inputs like
# the examples, or a simpler one that agrees with it: `synth/distinguish.py`)
# may take, within the budget; and wall seconds, since it delays the answer:
# terms of up to two operations take a few CPU-ms, the third operation's
# pairs could take minutes and are only sampled (at a load of 5 per core
# the CPU bound alone added 2-12 s of wall time before the answer).
RIVAL_CPU_SECONDS = 0.5
RIVAL_WALL_SECONDS = 0.5
# When the examples' outputs have few rearrangements (few examples, or few
# distinct outputs: `distinguish.chance_testable`), the same search also
# runs the chance-fit test, whose p-value needs every term of the answer's
# size (three operations over one input: 0.4-0.6 CPU-s): more CPU time,
# and wall time stretched by the load per core like the grace period.
CHANCE_CPU_SECONDS = 1.5
CHANCE_WALL_SECONDS = 1.5
CHANCE_WALL_MAX_SECONDS = 4.0

# Verified programs kept besides the best, to compare on inputs the examples
# do not cover (each costs one exact check). With an oracle they are the
# rivals its answers rule out within one round: with 4, P11's nested tests
# (40 and more fit its 24 examples) took more rounds than the budget had.
ALTERNATIVES = 8
# Steps per input when they are compared (a loop that has not halted by then
# counts as behaving otherwise): bounded so the comparison of a thousand
# inputs after the race stays a small constant past the budget.
COMPARE_STEPS = 20_000


class Shortest:
    """The simplest verified result so far (`ranking.rank`: fewest
    instructions, then cheaper operations, fewer constants, the text), a few
    other verified programs, and how long the race goes on:
    the first result cuts the deadline to `grace` seconds later, never past
    the caller's."""

    def __init__(self, deadline: float, grace: float = GRACE_SECONDS):
        self.deadline = deadline
        self.grace = grace
        self.result: SynthResult | None = None
        self.length = 0
        self.grace_open = False
        self._compared: tuple = (None, None)  # (programs compared, their disagreement)
        self.verified: list[str] = []  # every verified program's assembly, best or not
        self.chance: float | None = None  # the chance-fit test's p-value, where it ran

    def offer(self, result: SynthResult, now: float, opens_grace: bool = True) -> None:
        """`opens_grace`: False for a program kept from an earlier round (the
        race still runs until a family finds one)."""
        length = count_instructions(result.asm)
        if result.asm not in self.verified:
            self.verified.append(result.asm)
        if opens_grace:
            self.open_grace(now)
        if self.result is not None and rank(result.asm) >= rank(self.result.asm):
            return
        self.result, self.length = result, length

    def open_grace(self, now: float) -> None:
        if not self.grace_open:
            self.grace_open = True
            self.deadline = min(self.deadline, now + self.grace)

    def worth_checking(self, lines: list[str]) -> bool:
        """Could this candidate beat the best so far, or be one of the few
        alternatives kept? Counting is cheap next to the exact check, and a
        family that keeps streaming programs of the same length must not
        use up the grace period being checked."""
        text = "\n".join(lines)
        if text in self.verified:
            return False
        if self.result is None:
            return True
        try:
            return count_instructions(text) < self.length or len(self.verified) <= ALTERNATIVES
        except AssemblerError:
            return False

    def look_for_rival(self, spec: Spec, deadline: float, engine: str = "compute") -> None:
        """Ask `distinguish.search` (a bounded enumeration of programs no
        longer than the best, within RIVAL_CPU_SECONDS, RIVAL_WALL_SECONDS
        and `deadline`) for a rival and for a simpler equivalent of the best.
        A rival that passes the exact check joins the verified programs, so
        `disagreement` reports it (not looked for when a verified program
        already disagrees on inputs like the examples); a simpler equivalent
        that passes it becomes the best (the race's families meet equal
        behaviours in whatever order their banks hold them: P1 came back as
        `x & MULHU(x, -1)`, 19 instructions, for `x & (x - 1)`). When
        no verified program disagrees yet and the outputs have few
        rearrangements, the search also runs the chance-fit test (with
        CHANCE_CPU_SECONDS and CHANCE_WALL_SECONDS instead), kept in `chance`."""
        if self.result is None or not distinguish.applicable(spec):
            return
        flagged = self.underdetermined(spec, engine)
        cpu, wall = RIVAL_CPU_SECONDS, RIVAL_WALL_SECONDS
        if not flagged and distinguish.chance_testable(spec):
            cpu, wall = CHANCE_CPU_SECONDS, min(CHANCE_WALL_MAX_SECONDS, CHANCE_WALL_SECONDS * load_per_core())
        found = distinguish.search(spec, self.result.asm, min(deadline, time.monotonic() + wall),
                                   engine, cpu, want_rival=not flagged)
        self.chance = found.chance
        if found.simpler is not None and (ok := accept(found.simpler, spec, engine, deadline)) is not None:
            if ok[0] not in self.verified:
                self.verified.append(ok[0])
            self.result = dataclasses.replace(self.result, asm=ok[0], python=ok[1])
            self.length = count_instructions(ok[0])
        if found.rival is not None and accept(found.rival, spec, engine, deadline) is not None:
            asm = "\n".join(found.rival)
            if asm not in self.verified:
                self.verified.append(asm)

    def underdetermined(self, spec: Spec, engine: str = "compute") -> bool:
        """Do verified programs disagree on inputs drawn like the examples?"""
        found = self.disagreement(spec, engine)
        return found is not None and found["where"] == LIKE_EXAMPLES

    def disagreement(self, spec: Spec, engine: str = "compute") -> dict | None:
        """Where a verified program computes something else than the best:
        {"in": inputs, "outputs": [best's, other's], "where": LIKE_EXAMPLES or
        EDGE_WORDS, "more": [up to oracle.DISTINGUISHING - 1 further such
        inputs, same form]}, else None. Inputs drawn like the examples
        (`verify.domain_inputs`) are looked at first, over every other
        program: a disagreement there means the examples leave the answer
        open where its user works; one only on edge words
        (`verify.disagreement_pool`: 0, -1, INT_MIN, words of every
        magnitude) is reported as such."""
        if self.result is None or len(self.verified) < 2 or spec.uses_memory or not spec.outputs:
            return None
        key = (self.result.asm, tuple(self.verified))
        if self._compared[0] != key:  # computed once per set of programs (a small constant past the budget)
            self._compared = (key, self._disagreement(spec, engine))
        return self._compared[1]

    def _disagreement(self, spec: Spec, engine: str) -> dict | None:
        pools = [(LIKE_EXAMPLES, domain_inputs(spec)), (EDGE_WORDS, disagreement_pool(spec))]
        inputs = [row for _, rows in pools for row in rows]
        best = outputs_on(self.result.asm, spec, inputs, engine, COMPARE_STEPS)
        others = [outputs_on(asm, spec, inputs, engine, COMPARE_STEPS)
                  for asm in self.verified if asm != self.result.asm]
        start = 0
        for where, rows in pools:
            span = range(start, start + len(rows))
            start += len(rows)
            for other in others:
                differ = [i for i in span if best[i] != other[i]]
                if differ:
                    found = [{"in": list(inputs[i]), "outputs": [_outputs(best[i]), _outputs(other[i])],
                              "where": where} for i in differ[:DISTINGUISHING]]
                    return {**found[0], "more": found[1:]}
        return None


_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def _outputs(row: tuple) -> list | None:
    """A program's outputs from `verify.outputs_on`'s row (None: it did not halt)."""
    return list(row[1:]) if row[0] else None


def accept(lines: list[str], spec: Spec, engine: str = "compute",
           deadline: float | None = None) -> tuple[str, str] | None:
    """(asm, python) when the candidate is exact on every example, else None
    (also None when `deadline` passes during the check: it counts against the budget)."""
    asm = "\n".join(lines)
    if not check_asm(asm, spec, engine=engine, deadline=deadline):
        return None
    python = to_python(asm, spec)
    return (asm, python) if check_python(python, spec, deadline) else None


# Each worker is one search on (at most) one core: its BLAS (the decision
# sketch's matrix products) and numba's parallel kernels (the exact checks a
# sketch runs) get one thread. With the default two threads each, on a
# loaded 2-core host the idle thread spins: the decision sketch took 3-4x
# the CPU time for the same work (P10: 0.42 -> 0.12-0.15 CPU-s in-process,
# load 13). Read by the libraries when the spawned worker imports them.
WORKER_THREADS_ENV = {"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1",
                      "NUMBA_NUM_THREADS": "1"}


class _worker_environment:
    """Sets WORKER_THREADS_ENV while worker processes are started (a spawned
    child copies the environment), and restores this process's own."""

    def __enter__(self):
        self.saved = {k: os.environ.get(k) for k in WORKER_THREADS_ENV}
        os.environ.update(WORKER_THREADS_ENV)

    def __exit__(self, *exc):
        for key, value in self.saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


def _worker(family: str, jobs, results, current, late: bool = False) -> None:
    if late:
        # A family that seldom wins also yields the cores to the others
        # while it runs (on a loaded machine a start delay alone does not).
        os.nice(LATE_NICENESS)
    module = importlib.import_module(FAMILIES[family])
    # One-time costs a family would otherwise pay inside its first race.
    getattr(module, "warm_up", lambda: None)()
    results.put((READY, family, None))  # imported (torch, numba): ready for real budgets
    while True:
        job = jobs.get()
        if job is None:
            return
        job_id, spec_json, deadline, seed, delay = job
        spec = parse_spec(spec_json)
        budget = Budget(deadline, lambda: current.value != job_id)
        if budget.expired():
            # Already decided (a family that ran long on the previous problem
            # finds its jobs queued up): setting the search up would only
            # take CPU from the problem being raced now.
            results.put((job_id, family, None))
            continue
        start = time.monotonic() + delay
        while time.monotonic() < start and not budget.expired():
            time.sleep(0.02)
        try:
            for lines in module.search(spec, budget, seed):
                results.put((job_id, family, lines))
                if budget.expired():
                    break
        except Exception as error:  # noqa: BLE001 - a broken family must not stop the others
            results.put((job_id, family, f"error: {type(error).__name__}: {error}"))
        results.put((job_id, family, None))


class Portfolio:
    def __init__(self, families: list[str] | None = None, engine: str = "compute"):
        self.families = families or list(FAMILIES)
        self.engine = engine
        context = mp.get_context("spawn")
        self.current = context.Value("q", 0)
        self.results = context.Queue()
        self.jobs = {f: context.Queue() for f in self.families}
        self.processes = [context.Process(target=_worker, daemon=True,
                                          args=(f, self.jobs[f], self.results, self.current,
                                                start_delay(f, len(self.families)) > 0))
                          for f in self.families]
        with _worker_environment():
            for p in self.processes:
                p.start()
        self.errors: list[str] = []
        # Compile/load the checking engine now, while the workers import,
        # not inside the first race: with two examples, so that the
        # engine's parallel kernel is the one loaded (a one-example batch
        # runs the serial one; loading the parallel one took 4-10 s of the
        # first problem's budget on a loaded machine).
        accept(["HALT"], parse_spec({"inputs": ["R0"], "outputs": ["R0"],
                                     "examples": [{"in": [0], "out": [0]}, {"in": [1], "out": [1]}]}), engine)
        # Wait for every worker to finish its imports, so that the first
        # problem's budget is not spent starting torch.
        waiting, until = set(self.families), time.monotonic() + 120
        while waiting and time.monotonic() < until:
            try:
                got_id, family, _ = self.results.get(timeout=1)
            except queue.Empty:
                continue
            if got_id == READY:
                waiting.discard(family)

    def solve(self, spec: Spec, timeout: float, use_cache: bool = True, seed: int = 0,
              progress=None, started: float | None = None, candidates: tuple[str, ...] = ()) -> SynthResult:
        """`started`: when the caller's budget began (time.monotonic()); default now.
        synthesize passes the moment it was called, so starting the worker
        processes counts against the budget too. `candidates`: programs
        (assembly) from an earlier round, offered first; those that still
        fit every example take part like any found program (the oracle loop
        keeps the candidates its answers have not ruled out)."""
        started = time.monotonic() if started is None else started
        key = spec.canonical_key()
        if use_cache:
            hit = cached_result(spec, key, self.engine)
            if hit is not None:
                hit.seconds = time.monotonic() - started
                return hit
        deadline = started + timeout
        with self.current.get_lock():
            self.current.value += 1
            job_id = self.current.value
        for family in self.families:
            self.jobs[family].put((job_id, spec.to_json(), deadline, seed,
                                   start_delay(family, len(self.families))))
        running = set(self.families)
        cpu_before = self.cpu_used()
        trace: dict[str, list] = {}  # family -> [first candidate s, first verified s, candidates]

        cpu_at: dict[str, float | None] = {}  # verified program -> CPU used by then

        def note(family: str, verified: str | None) -> None:
            seen = trace.setdefault(family, [round(time.monotonic() - started, 3), None, 0])
            seen[2] += 1
            if verified is not None:
                now_cpu = self.cpu_used()
                cpu_at[verified] = None if now_cpu is None or cpu_before is None else round(now_cpu - cpu_before, 3)
                if seen[1] is None:
                    seen[1] = round(time.monotonic() - started, 3)

        best = Shortest(deadline, grace_seconds())
        for asm in candidates:
            if (found := accept(asm.splitlines(), spec, self.engine, deadline)) is not None:
                now = time.monotonic()
                best.offer(SynthResult(True, found[0], found[1], "kept", now - started), now, opens_grace=False)
        if best.result is not None:
            best.deadline = min(best.deadline, time.monotonic() + kept_patience_seconds())
        while running and time.monotonic() < best.deadline:
            try:
                got_id, family, lines = self.results.get(
                    timeout=min(0.2, max(0.01, best.deadline - time.monotonic())))
            except queue.Empty:
                if progress:
                    progress(time.monotonic() - started)
                continue
            if got_id != job_id:
                continue  # a late message from an earlier job
            if lines is None:
                running.discard(family)
            elif isinstance(lines, str):
                self.errors.append(f"{family}: {lines}")
            elif "\n".join(lines) in best.verified:
                # A family found a program kept from an earlier round (the
                # oracle loop's): that opens the grace period as a new one
                # would (a round where no family finds anything else ran to
                # the deadline: 46 s of P11's 60).
                note(family, "\n".join(lines))
                best.open_grace(time.monotonic())
            else:
                found = accept(lines, spec, self.engine, best.deadline) if best.worth_checking(lines) else None
                note(family, found and found[0])
                if found is not None:
                    now = time.monotonic()
                    best.offer(SynthResult(True, found[0], found[1], family, now - started), now)
        drain_until = min(deadline, time.monotonic() + DRAIN_SECONDS)
        while best.result is not None and time.monotonic() < drain_until:
            try:
                got_id, family, lines = self.results.get_nowait()
            except queue.Empty:
                break
            if got_id == job_id and isinstance(lines, list):
                found = accept(lines, spec, self.engine, drain_until) if best.worth_checking(lines) else None
                note(family, found and found[0])
                if found is not None:
                    now = time.monotonic()
                    best.offer(SynthResult(True, found[0], found[1], family, now - started), now)
        with self.current.get_lock():
            self.current.value += 1  # cancels every worker still on this job
        best.look_for_rival(spec, deadline, self.engine)
        # `seconds` of a solved result: when that program was verified (the
        # call returns up to grace_seconds() later).
        result = best.result or SynthResult(False, seconds=time.monotonic() - started)
        result.alternatives = [asm for asm in best.verified if asm != result.asm]
        result.disagreement = best.disagreement(spec, self.engine)
        result.chance_fit = best.chance
        result.underdetermined = ((result.disagreement is not None and result.disagreement["where"] == LIKE_EXAMPLES)
                                  or (best.chance is not None and best.chance > distinguish.CHANCE_LEVEL))
        cpu_after = self.cpu_used()
        result.cpu_seconds = None if cpu_before is None or cpu_after is None else round(cpu_after - cpu_before, 3)
        result.trace = trace
        result.cpu_to_answer = cpu_at.get(result.asm)
        if result.solved and use_cache:
            cache.store(key, result.asm, result.solver, result.seconds)
        return result

    def solve_with_oracle(self, spec: Spec, timeout: float, oracle, max_queries: int = MAX_QUERIES,
                          confirm: int = 0, seed: int = 0, progress=None,
                          started: float | None = None) -> SynthResult:
        """Solve, and while fitting programs disagree on some input, ask
        `oracle` for that input's outputs and solve again with it as one more
        example (`synth/oracle.py`). One budget for all rounds (time in the
        oracle not counted); no cache (a cached answer has no alternatives)."""
        started = time.monotonic() if started is None else started

        def one_round(current: Spec, oracle_seconds: float, candidates: tuple[str, ...] = ()) -> SynthResult:
            return self.solve(current, timeout, use_cache=False, seed=seed, progress=progress, candidates=candidates,
                              started=started + oracle_seconds)

        return solve_with_oracle(one_round, spec, oracle, max_queries, confirm, self.engine)

    def cpu_used(self) -> float | None:
        """CPU seconds used so far by this process and the workers (None
        where a worker's /proc entry cannot be read)."""
        total = time.process_time()
        for p in self.processes:
            try:
                with open(f"/proc/{p.pid}/stat") as f:
                    fields = f.read().rpartition(")")[2].split()
            except OSError:
                return None
            total += (int(fields[11]) + int(fields[12])) / _TICKS  # utime, stime
        return total

    def close(self) -> None:
        for family in self.families:
            self.jobs[family].put(None)
        # A worker still importing torch reads no queue: give all of them one
        # short grace period together, then stop the rest (closing must not
        # add seconds to a caller's time budget).
        until = time.monotonic() + 1.0
        for p in self.processes:
            p.join(timeout=max(0.0, until - time.monotonic()))
            if p.is_alive():
                p.terminate()
        for q in self.jobs.values():
            q.cancel_join_thread()   # a job its stopped worker never read must not hold up our exit

    def __enter__(self) -> Portfolio:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def cached_result(spec: Spec, key: str, engine: str = "compute") -> SynthResult | None:
    """A cache hit, re-verified: the entry's assembly must meet the spec on
    the machine, and its Python is regenerated from the decoded words (the
    cache is a file anyone with access can edit; nothing in it is executed)."""
    entry = cache.lookup(key)
    if entry is None or not check_asm(entry.asm, spec, engine=engine):
        return None
    python = to_python(entry.asm, spec)
    if not check_python(python, spec):
        return None
    return SynthResult(True, entry.asm, python, entry.solver, 0.0, cached=True)


def synthesize(spec: Spec, timeout: float = 60.0, families: list[str] | None = None, use_cache: bool = True,
               engine: str = "compute", progress=None, oracle=None, max_queries: int = MAX_QUERIES,
               confirm: int = 0) -> SynthResult:
    """Solve one spec with the whole portfolio (answers from the cache at once).
    The budget counts from this call: starting the workers spends it too.
    `oracle`: a callable from input values to output values, asked about
    inputs on which fitting programs disagree, and about `confirm` more
    inputs when none do (`Portfolio.solve_with_oracle`)."""
    started = time.monotonic()
    if oracle is not None:
        check_oracle_spec(spec)  # before starting the workers
        with Portfolio(families, engine) as portfolio:
            return portfolio.solve_with_oracle(spec, timeout, oracle, max_queries, confirm,
                                               progress=progress, started=started)
    if use_cache:
        hit = cached_result(spec, spec.canonical_key(), engine)
        if hit is not None:
            return hit
    with Portfolio(families, engine) as portfolio:
        return portfolio.solve(spec, timeout, use_cache=use_cache, progress=progress, started=started)


def solve_in_process(spec: Spec, family: str, timeout: float, engine: str = "compute", seed: int = 0) -> SynthResult:
    """One family in this process (tests, debugging): no workers, no cache."""
    started = time.monotonic()
    module = importlib.import_module(FAMILIES[family])
    for lines in module.search(spec, started + timeout, seed):
        found = accept(lines, spec, engine)
        if found:
            return SynthResult(True, found[0], found[1], family, time.monotonic() - started)
    return SynthResult(False, seconds=time.monotonic() - started)
