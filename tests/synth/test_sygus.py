"""The cvc5 comparison path: a problem goes through SyGuS and comes back solved."""

from ncpu.synth import sygus
from ncpu.synth.spec import parse_spec


def spec(examples, **extra):
    return parse_spec({"name": "t", "inputs": ["R0", "R1"], "outputs": ["R0"],
                       "examples": [{"in": i, "out": o} for i, o in examples], **extra})


def test_cvc5_solves_a_register_problem():
    assert sygus.available(), "cvc5 is a test dependency (pip install -e .[test])"
    problem = spec([([3, 5], [8]), ([7, -2], [5]), ([100, 1], [101]), ([0, 0], [0])])
    assert sygus.expressible(problem)
    solved, seconds = sygus.solve(problem, timeout=60)
    assert solved and seconds < 60


def test_memory_problems_are_not_sent_to_sygus():
    problem = parse_spec({"name": "m", "inputs": [], "outputs": ["R0"],
                          "examples": [{"in": [], "out": [6], "memory_in": {"base": 0, "values": [1, 2, 3]}}]})
    assert not sygus.expressible(problem)
