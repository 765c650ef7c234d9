"""A solved spec is stored under NCPU_CACHE_DIR and answered from there."""

import time

from synth_helpers import spec_of

from ncpu.synth import cache, synthesize
from ncpu.synth.pyemit import to_python


def test_cache_hit_returns_at_once(tmp_path):
    spec = spec_of(lambda a, b: a + b, [(1, 2), (5, 9)])
    asm = "ADD R0, R0, R1\nHALT"
    cache.store(spec.canonical_key(), {"asm": asm, "python": to_python(asm, spec), "solver": "enumerative"})
    assert str(cache.cache_dir()).startswith(str(tmp_path))
    started = time.monotonic()
    result = synthesize(spec, timeout=30, engine="reference")
    assert result.solved and result.cached and result.solver == "enumerative"
    assert time.monotonic() - started < 2  # no worker processes were started


def test_tampered_cache_entry_is_ignored():
    spec = spec_of(lambda a: a + 1, [(1,), (5,)])
    cache.store(spec.canonical_key(), {"asm": "ADD R0, R0, 2\nHALT", "python": "", "solver": "x"})
    from ncpu.synth.portfolio import cached_result

    assert cached_result(spec, spec.canonical_key(), engine="reference") is None
