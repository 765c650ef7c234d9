"""Program synthesis from input/output examples (see docs/synthesis.md).

Four search families (enumerative, sketch, stochastic, gradient) run as a
portfolio; every reported program is verified exactly on a real engine and
comes with an equivalent Python function.
"""

from ncpu.synth.portfolio import FAMILIES, Portfolio, SynthResult, solve_in_process, synthesize
from ncpu.synth.spec import Example, Spec, SpecError, load_spec, parse_example, parse_spec

__all__ = ["FAMILIES", "Example", "Portfolio", "Spec", "SpecError", "SynthResult", "load_spec",
           "parse_example", "parse_spec", "solve_in_process", "synthesize"]
