"""Moved to `ncpu.isa.semantics` (the ISA's one definition); this name stays
importable for code written against it."""

from ncpu.isa.semantics import *  # noqa: F401,F403
from ncpu.isa.semantics import __all__  # noqa: F401
