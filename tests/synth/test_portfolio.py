"""The race's choice: after the first verified program, a short grace
period, then the shortest verified program (fewest instructions; ties: the
first). Tested on `Shortest` directly: deterministic, no worker processes."""

from ncpu.synth.portfolio import ALTERNATIVES, GRACE_SECONDS, Shortest, SynthResult

# sign_mask (x < 0 ? -1 : 0) from two examples, the way the sketch family's
# branch writes it (5 instructions) and the way enumeration does (1).
BRANCHY = "CMP R0, 0\nJGE then\nMOV R0, -1\nJMP end\nthen:\nMOV R0, 0\nend:\nHALT"
SHORT = "SARI R0, R0, 31\nHALT"


def result(asm: str, solver: str, seconds: float) -> SynthResult:
    return SynthResult(True, asm, "", solver, seconds)


def test_shorter_program_within_the_grace_period_wins():
    best = Shortest(deadline=60.0)
    first = result(BRANCHY, "sketch", 0.01)
    best.offer(first, now=0.01)
    assert best.result is first
    assert best.deadline == 0.01 + GRACE_SECONDS  # the first verified program opens the grace period
    second = result(SHORT, "enumerative", 0.05)
    best.offer(second, now=0.05)
    assert best.result is second
    assert best.deadline == 0.01 + GRACE_SECONDS  # later results do not extend it


def test_ties_and_longer_programs_keep_the_earlier_result():
    best = Shortest(deadline=60.0)
    first = result(SHORT, "enumerative", 0.01)
    best.offer(first, now=0.01)
    best.offer(result("SAR R0, R0, 31\nHALT", "stochastic", 0.02), now=0.02)
    best.offer(result(BRANCHY, "sketch", 0.03), now=0.03)
    assert best.result is first


def test_grace_period_stays_within_the_callers_deadline():
    best = Shortest(deadline=10.1)
    best.offer(result(BRANCHY, "sketch", 9.95), now=10.0)
    assert best.deadline == 10.1
    assert Shortest(deadline=10.1).result is None  # nothing verified: no grace period, no result


def test_shorter_candidates_and_a_few_alternatives_are_worth_checking():
    best = Shortest(deadline=60.0)
    assert best.worth_checking(BRANCHY.splitlines())  # nothing verified yet: every candidate is
    best.offer(result(BRANCHY, "sketch", 0.01), now=0.01)
    assert best.worth_checking(SHORT.splitlines())
    assert not best.worth_checking(BRANCHY.splitlines())  # already verified
    assert not best.worth_checking(["NOT AN INSTRUCTION", "HALT"])
    best.offer(result(SHORT, "enumerative", 0.02), now=0.02)
    longer = [f"MOV R1, {k}\nSAR R0, R0, 31\nHALT" for k in range(ALTERNATIVES + 1)]
    for asm in longer[:ALTERNATIVES - 1]:  # alternatives, to compare off the examples
        assert best.worth_checking(asm.splitlines())
        best.offer(result(asm, "stochastic", 0.03), now=0.03)
    assert not best.worth_checking(longer[-1].splitlines())  # enough kept: only shorter ones now
    assert best.result.asm == SHORT


def test_the_budget_counts_from_the_call_not_from_the_workers(monkeypatch):
    """synthesize hands Portfolio.solve the moment it was called, so the time
    spent starting worker processes comes out of --timeout (no processes here:
    a stand-in portfolio records what it was given)."""
    import time

    from synth_helpers import spec_of

    from ncpu.synth import portfolio as pf

    seen = {}

    class Recorder:
        def __init__(self, families, engine):
            seen["built"] = time.monotonic()

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return False

        def solve(self, spec, timeout, use_cache=True, progress=None, started=None):
            seen["started"], seen["timeout"] = started, timeout
            return SynthResult(False)

    monkeypatch.setattr(pf, "Portfolio", Recorder)
    before = time.monotonic()
    pf.synthesize(spec_of(lambda a: a ^ 0x5A5A, [(1,), (2,)]), timeout=3.0, use_cache=False)
    assert seen["timeout"] == 3.0
    assert before <= seen["started"] <= seen["built"]


def test_the_grace_period_stretches_with_the_load_up_to_a_cap(monkeypatch):
    """A quarter second on an idle machine; on a loaded one, where a worker
    gets a fraction of a core, longer in proportion, never past the cap."""
    import ncpu.synth.portfolio as pf

    monkeypatch.setattr(pf.os, "cpu_count", lambda: 2)
    monkeypatch.setattr(pf.os, "getloadavg", lambda: (0.5, 0.5, 0.5))
    assert pf.grace_seconds() == GRACE_SECONDS
    monkeypatch.setattr(pf.os, "getloadavg", lambda: (8.0, 8.0, 8.0))
    assert pf.grace_seconds() == GRACE_SECONDS * 4
    monkeypatch.setattr(pf.os, "getloadavg", lambda: (80.0, 80.0, 80.0))
    assert pf.grace_seconds() == pf.GRACE_MAX_SECONDS
    best = Shortest(100.0, grace=1.5)
    best.offer(SynthResult(True, "ADD R0, R0, R1\nHALT"), 10.0)
    assert best.deadline == 11.5


def test_a_result_says_which_family_sent_what_when_and_the_cpu_it_cost():
    """The race's trace (what `ncpu bench synth --trace` prints): per family
    the wall seconds of its first candidate and first verified program and
    how many it sent; CPU seconds of this process and the workers, until
    the answer was verified and for the whole call. One family, one worker."""
    from synth_helpers import spec_of

    from ncpu.synth.portfolio import Portfolio

    spec = spec_of(lambda a, b: a + b, [(1, 2), (5, 9), (-3, 4)])
    with Portfolio(["enumerative"]) as portfolio:
        result = portfolio.solve(spec, 30, use_cache=False)
    assert result.solved and result.solver == "enumerative"
    first, verified, sent = result.trace["enumerative"]
    assert first <= verified <= result.seconds + 1e-3 and sent >= 1
    assert set(result.trace) == {"enumerative"}
    assert 0 <= result.cpu_to_answer <= result.cpu_seconds


def test_workers_start_with_one_thread_each_and_the_callers_environment_is_restored(monkeypatch):
    """A spawned worker copies the environment: while the workers start,
    BLAS and numba are told to use one thread (an idle second thread spins
    on a loaded host); afterwards this process's settings are as before."""
    import os

    from ncpu.synth import portfolio as pf

    monkeypatch.setenv("OPENBLAS_NUM_THREADS", "7")
    monkeypatch.delenv("NUMBA_NUM_THREADS", raising=False)
    with pf._worker_environment():
        assert all(os.environ[k] == "1" for k in pf.WORKER_THREADS_ENV)
    assert os.environ["OPENBLAS_NUM_THREADS"] == "7"
    assert "NUMBA_NUM_THREADS" not in os.environ
