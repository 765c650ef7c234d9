"""The synthesis benchmark suite: problems (reference functions, in
`problems.py`) and their frozen examples (`suite.json`, written by
`python -m ncpu.synth.benchmarks.generate`)."""

from ncpu.synth.benchmarks.suite import Problem, load_suite

__all__ = ["Problem", "load_suite"]
