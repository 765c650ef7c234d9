"""Tests over computed values, two-test decision lists, and saying so when
the examples underdetermine the answer."""

from __future__ import annotations

import random
import time

from synth_helpers import spec_of

from ncpu.isa.semantics import wrap
from ncpu.synth import decisions
from ncpu.synth import enumerative
from ncpu.synth.portfolio import EDGE_WORDS, LIKE_EXAMPLES, Shortest, SynthResult, accept
from ncpu.synth.verify import outputs_on, probe_inputs


def _nlz(x):
    return 32 - (x & 0xFFFFFFFF).bit_length()


def _words(rng, n):
    return [wrap(rng.getrandbits(32) >> rng.randint(0, 31)) for _ in range(n)]


def test_one_test_over_computed_values_finds_nlz_equal():
    rng = random.Random(3)
    pairs = []
    for x in _words(rng, 30):
        length = (x & 0xFFFFFFFF).bit_length()
        y = wrap((1 << (length - 1)) | rng.getrandbits(length - 1)) if length > 1 and rng.random() < 0.5 else _words(rng, 1)[0]
        pairs.append((x, y))
    spec = spec_of(lambda x, y: int(_nlz(x) == _nlz(y)), pairs)
    programs = list(decisions.search(spec, time.monotonic() + 60))
    assert programs and accept(programs[0], spec) is not None
    fresh = [(x, y) for x, y in zip(_words(rng, 300), _words(rng, 300))] + [(x, x ^ 1) for x in _words(rng, 50)]
    got = outputs_on("\n".join(programs[0]), spec, [list(p) for p in fresh])
    assert [g[1] for g in got] == [int(_nlz(x) == _nlz(y)) for x, y in fresh]


def test_two_tests_cycle_through_three_values():
    rng = random.Random(5)
    rows = []
    for _ in range(24):
        a, b, c = rng.sample(range(-1000, 1000), 3)
        rows.append((rng.choice([a, b, c]), a, b, c))
    nxt = lambda x, a, b, c: b if x == a else c if x == b else a  # noqa: E731
    spec = spec_of(nxt, rows)
    programs = list(decisions.search(spec, time.monotonic() + 60))
    assert programs and accept(programs[0], spec) is not None
    assert sum(line.startswith("CMP") for line in programs[0]) == 2


def test_enumeration_reports_a_second_program_that_differs_off_the_examples():
    """sign(x) from examples without 0: two programs fit, and they differ at inputs the examples lack."""
    rng = random.Random(1)
    xs = [(x,) for x in rng.sample(range(1, 1 << 20), 12) + [-x for x in rng.sample(range(1, 1 << 20), 12)]]
    spec = spec_of(lambda x: (x > 0) - (x < 0), xs)
    # (a longer look for the second program than the portfolio's default, so a loaded machine cannot miss it)
    programs = ["\n".join(p) for p in enumerative.search(spec, time.monotonic() + 60, linger=20)]
    assert len(programs) >= 2 and all(accept(p.splitlines(), spec) for p in programs)
    inputs = probe_inputs(spec)
    assert len({tuple(outputs_on(p, spec, inputs)) for p in programs}) >= 2


def test_shortest_says_underdetermined_only_when_verified_programs_disagree_on_inputs_like_the_examples():
    spec = spec_of(lambda x: x & 1, [(3,), (4,), (10,), (7,)])
    best = Shortest(time.monotonic() + 10)
    best.offer(SynthResult(True, "AND R0, R0, 1\nHALT"), time.monotonic())
    best.offer(SynthResult(True, "SHL R0, R0, 31\nSHR R0, R0, 31\nHALT"), time.monotonic())  # the same function
    assert not best.underdetermined(spec)
    best.offer(SynthResult(True, "MOV R1, 2\nMOD R0, R0, R1\nHALT"), time.monotonic())  # differs on negatives
    # The examples are 3..10: negative inputs are edge words outside them,
    # so the disagreement is reported as such, and the result not flagged.
    assert not best.underdetermined(spec)
    found = best.disagreement(spec)
    assert found["where"] == EDGE_WORDS and found["in"][0] < 0
    best.offer(SynthResult(True, "CMP R0, 5\nJZ five\nAND R0, R0, 1\nJMP end\nfive:\nMOV R0, 7\nend:\nHALT"),
               time.monotonic())  # differs at 5, inside the examples' range
    assert best.underdetermined(spec)
    found = best.disagreement(spec)
    assert found["where"] == LIKE_EXAMPLES and found["in"] == [5] and found["outputs"] == [[1], [7]]
    assert best.result.asm == "AND R0, R0, 1\nHALT"  # the shortest stays the answer


def test_nested_tests_come_as_rivals_of_a_simple_test_that_fits_by_chance():
    """nlz(x) < nlz(y) (P11, 24 examples): `x >=u y + y` fits them; the
    nested tests are sent too, and some of them compute something else on
    inputs drawn like the examples (what flags the simple test, or what an
    oracle is asked about)."""
    from ncpu.synth.benchmarks import load_suite
    from ncpu.synth.verify import domain_inputs

    problem = next(p for p in load_suite() if p.name == "hd11_nlz_less")
    simple = next(decisions.search(problem.spec, time.monotonic() + 120))
    nested = list(decisions.search_nested(problem.spec, time.monotonic() + 120))
    assert accept(simple, problem.spec) and len(nested) >= 2 and all(accept(n, problem.spec) for n in nested)
    rows = domain_inputs(problem.spec)
    mine = outputs_on("\n".join(simple), problem.spec, rows)
    assert any(outputs_on("\n".join(n), problem.spec, rows) != mine for n in nested)


def test_nested_tests_run_before_the_recurrence_when_no_simple_test_fits(monkeypatch):
    """Once answers rule the simple tests out (64 examples of nlz(x) < nlz(y)),
    the nested test `(x & ~y) >u y` is the answer: the sketch family looks for
    it before the recurrence, which takes tens of seconds on such a spec and
    made P11 unsolvable in 60 s through the oracle."""
    from ncpu.synth import loops
    from ncpu.synth.benchmarks.suite import load_suite, make_spec_json
    from ncpu.synth.spec import parse_spec

    problem = next(p for p in load_suite() if p.name == "hd11_nlz_less")
    spec = parse_spec(make_spec_json(problem.definition, seed=0, count=64))
    assert decisions.arms_can_fit(spec)
    assert not list(decisions.search(spec, time.monotonic() + 60))   # no simple test fits
    order = []
    nested = decisions.search_nested

    def recurrence(spec, deadline):
        order.append("recurrence")
        yield from ()

    def nested_first(spec, deadline):
        order.append("nested")
        yield from nested(spec, deadline)

    monkeypatch.setattr(loops, "search_recurrence", recurrence)
    monkeypatch.setattr(decisions, "search_nested", nested_first)
    programs = list(loops.search(spec, time.monotonic() + 60))
    assert order == ["nested", "recurrence"] and programs
    fresh = problem.fresh_spec(count=2000)
    got = outputs_on("\n".join(programs[0]), fresh, [e.inputs for e in fresh.examples])
    assert [g[1] for g in got] == [e.outputs[0] for e in fresh.examples]


def test_nested_tests_are_skipped_where_copies_cannot_fit(monkeypatch):
    """A nested test's arms are copies of inputs or constants: where an output
    is neither, it cannot fit, and the search does not run."""
    from ncpu.synth import loops

    spec = spec_of(lambda x: wrap(x * 3 + 12345), [(x,) for x in (3, 8, 100, -7, 4000)])
    assert not decisions.arms_can_fit(spec)
    ran = []
    monkeypatch.setattr(decisions, "search_nested", lambda spec, deadline: ran.append(1) or iter(()))
    monkeypatch.setattr(loops, "search_recurrence", lambda spec, deadline: iter(()))
    list(loops.search(spec, time.monotonic() + 30))
    assert ran == []
