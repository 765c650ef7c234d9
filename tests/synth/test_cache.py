"""A solved spec is stored under NCPU_CACHE_DIR and answered from there;
the cache is untrusted: nothing in it runs, and anything odd is a miss."""

import json
import stat
import time

import pytest
from synth_helpers import spec_of

from ncpu.synth import cache, synthesize
from ncpu.synth.portfolio import cached_result
from ncpu.synth.pyemit import to_python


def _plant(spec, entry) -> None:
    path = cache.cache_dir() / f"{spec.canonical_key()}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(entry if isinstance(entry, bytes) else json.dumps(entry).encode())


def test_cache_hit_returns_at_once(tmp_path):
    spec = spec_of(lambda a, b: a + b, [(1, 2), (5, 9)])
    asm = "ADD R0, R0, R1\nHALT"
    cache.store(spec.canonical_key(), asm, "enumerative", 0.5)
    assert str(cache.cache_dir()).startswith(str(tmp_path))
    started = time.monotonic()
    result = synthesize(spec, timeout=30, engine="reference")
    assert result.solved and result.cached and result.solver == "enumerative"
    assert result.python == to_python(asm, spec)   # regenerated, not read from the file
    assert time.monotonic() - started < 2  # no worker processes were started


def test_cache_directory_is_private():
    spec = spec_of(lambda a: a, [(1,)])
    cache.store(spec.canonical_key(), "HALT", "enumerative", 0.0)
    assert stat.S_IMODE(cache.cache_dir().stat().st_mode) == 0o700


def test_planted_python_is_never_run(tmp_path):
    """The attack of an older format: a correct program with a `python`
    field that runs code when checked. The entry is a miss and the marker
    file is never written."""
    spec = spec_of(lambda a: a + 1, [(1,), (5,)])
    marker = tmp_path / "pwned"
    payload = f"open({str(marker)!r}, 'w').write('x')\ndef f(r0):\n    return r0 + 1\n"
    _plant(spec, {"asm": "ADDI R0, R0, 1\nHALT", "python": payload, "solver": "enumerative"})
    assert cached_result(spec, spec.canonical_key(), engine="reference") is None
    _plant(spec, {"format": cache.FORMAT, "asm": "ADDI R0, R0, 1\nHALT", "solver": "x", "seconds": 0.0,
                  "python": payload})
    assert cached_result(spec, spec.canonical_key(), engine="reference") is None
    assert not marker.exists()


def test_wrong_program_is_a_miss():
    spec = spec_of(lambda a: a + 1, [(1,), (5,)])
    cache.store(spec.canonical_key(), "ADDI R0, R0, 2\nHALT", "x", 0.0)
    assert cached_result(spec, spec.canonical_key(), engine="reference") is None


def _good(**changes):
    entry = {"format": cache.FORMAT, "asm": "ADDI R0, R0, 1\nHALT", "solver": "enumerative", "seconds": 0.1}
    entry.update(changes)
    return {k: v for k, v in entry.items() if v is not ...}


@pytest.mark.parametrize("entry", [
    [1, 2, 3], "ADDI R0, R0, 1", 42, None, {},
    b"\xff\xfe not utf-8", b"{" * 100_000, b"[" * 100_000 + b"]" * 100_000, b"", b"\0" * 10,
    b'{"format": 2, "asm": "HALT", "solver": "x", "seconds": 1' + b"0" * 5000 + b"}",
    b" " * (cache.MAX_ENTRY_BYTES + 10),
    _good(asm=["ADDI R0, R0, 1"]), _good(asm=None), _good(asm="FROB R0"), _good(asm="MOVI R0, " + "9" * 40),
    _good(asm="MOVI R0, 1" + "0" * 5000), _good(asm="JMP 99999999999"), _good(solver=7), _good(solver="s" * 1000),
    _good(seconds="fast"), _good(seconds=float("nan")), _good(seconds=-1), _good(seconds=True),
    _good(format=1), _good(format="2"), _good(format=...), _good(extra=1),
])
def test_malformed_entries_are_misses(entry):
    spec = spec_of(lambda a: a + 1, [(1,), (5,)])
    _plant(spec, entry)
    assert cached_result(spec, spec.canonical_key(), engine="reference") is None


def test_well_formed_planted_entry_is_used_after_verification():
    spec = spec_of(lambda a: a + 1, [(1,), (5,)])
    _plant(spec, _good())
    hit = cached_result(spec, spec.canonical_key(), engine="reference")
    assert hit is not None and hit.asm == "ADDI R0, R0, 1\nHALT"


def test_keys_that_are_not_digests_are_refused():
    assert cache.lookup("../../etc/passwd") is None
    cache.store("../escape", "HALT", "x", 0.0)
    assert not (cache.cache_dir().parent / "escape.json").exists()
