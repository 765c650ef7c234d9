"""The benchmark suite: big enough, and every reference function agrees
with its own frozen examples."""

from collections import Counter

from ncpu.machine.state import DEFAULT_MEM_SIZE
from ncpu.synth.benchmarks import load_suite


def test_suite_size_and_families():
    problems = load_suite()
    assert len(problems) >= 150
    assert len({p.name for p in problems}) == len(problems)
    assert set(Counter(p.family for p in problems)) >= {"arithmetic", "bits", "comparison", "multi", "memory", "loops"}


def test_reference_functions_agree_with_examples():
    for problem in load_suite():
        d = problem.definition
        for e in problem.spec.examples:
            if d.memory in ("fold", "fixed4", "map", "inplace"):
                (_, values), = e.memory_in
                want = d.ref(list(values))
                got = e.outputs[0] if d.memory in ("fold", "fixed4") else list(e.memory_out[0][1])
            elif d.memory == "store":
                want, got = d.ref(*e.inputs[:2]), e.memory_out[0][1][0]
            else:
                want = d.ref(*e.inputs)
                want = want if isinstance(want, tuple) else (want,)
                got = e.outputs
            assert got == want, problem.name
            assert all(base + len(v) <= DEFAULT_MEM_SIZE for base, v in e.memory_in + e.memory_out)


def test_frozen_suite_is_reproducible():
    """suite.json is exactly what generate.py makes from problems.py."""
    from ncpu.synth.benchmarks.problems import DEFS
    from ncpu.synth.benchmarks.suite import make_spec_json

    frozen = {p.name: p.spec for p in load_suite()}
    from ncpu.synth import parse_spec

    for d in DEFS:
        assert parse_spec(make_spec_json(d, seed=0)) == frozen[d.name], d.name
        if d.sharp:
            assert len(frozen[d.name].examples) >= d.examples
