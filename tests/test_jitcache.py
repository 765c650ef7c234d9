"""numba's cache for nCPU code: in a user directory, stamped with every source the code can see."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from ncpu import jitcache

SRC = Path(jitcache.__file__).resolve().parents[1]
# a small compiled function whose module inlines a sibling (vecops) and reads ncpu.isa
PROBE = ("from ncpu.synth import loops; loops._apply(1, 2, 3); s = loops._apply.stats; "
         "print(len(s.cache_hits), len(s.cache_misses), s.cache_path)")


def _probe(src: Path, env: dict) -> tuple[int, int, str]:
    out = subprocess.run([sys.executable, "-c", PROBE], env={**env, "PYTHONPATH": str(src)},
                         capture_output=True, text=True, check=True).stdout.split()
    return int(out[0]), int(out[1]), out[2]


def _numba_files(tree: Path) -> list[Path]:
    return [p for p in tree.rglob("*") if p.suffix in (".nbi", ".nbc")]


def test_cache_lives_outside_the_package_and_a_sibling_edit_recompiles(tmp_path):
    src = tmp_path / "src"
    shutil.copytree(SRC / "ncpu", src / "ncpu", ignore=shutil.ignore_patterns("__pycache__"))
    env = {k: v for k, v in os.environ.items() if not k.startswith("NUMBA_") and k != "NCPU_CACHE_DIR"}
    env["XDG_CACHE_HOME"] = str(tmp_path / "xdg")
    assert _probe(src, env)[:2] == (0, 1)                     # cold: compiled
    hits, misses, path = _probe(src, env)
    assert (hits, misses) == (1, 0)                            # warm: loaded
    assert Path(path).is_relative_to(tmp_path / "xdg" / "ncpu" / "numba")
    vecops = src / "ncpu" / "synth" / "vecops.py"              # not the file that defines _apply
    vecops.write_text(vecops.read_text() + "\n# edited\n")
    assert _probe(src, env)[:2] == (0, 1)                      # stale: compiled again
    opcodes = src / "ncpu" / "isa" / "opcodes.py"              # a directory synth's code also sees
    opcodes.write_text(opcodes.read_text() + "\n# edited\n")
    assert _probe(src, env)[:2] == (0, 1)
    assert _probe(src, env)[:2] == (1, 0)
    assert _numba_files(src) == []                             # nothing written into the package


def test_cache_root_prefers_numba_then_ncpu_then_xdg_then_home(monkeypatch, tmp_path):
    for name in ("NUMBA_CACHE_DIR", "NCPU_CACHE_DIR", "XDG_CACHE_HOME"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert jitcache.cache_root() == tmp_path / "home" / ".cache" / "ncpu" / "numba"
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert jitcache.cache_root() == tmp_path / "xdg" / "ncpu" / "numba"
    monkeypatch.setenv("NCPU_CACHE_DIR", str(tmp_path / "nc"))
    assert jitcache.cache_root() == tmp_path / "nc" / "numba"
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "nb"))
    assert jitcache.cache_root() == tmp_path / "nb"


def test_unwritable_cache_root_falls_back_to_temp_not_the_package(monkeypatch, tmp_path):
    from ncpu.synth import loops    # decorated under the real roots: this test's are for the probes below

    blocker = tmp_path / "a-file"
    blocker.write_text("")                       # a directory below a file cannot be made, even by root
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    monkeypatch.delenv("NCPU_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))
    monkeypatch.setattr(jitcache.tempfile, "tempdir", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    locator = jitcache.install().from_function(loops._apply.py_func, loops.__file__)
    assert Path(locator.get_cache_path()).is_relative_to(tmp_path / "tmp")
    monkeypatch.setattr(jitcache.tempfile, "tempdir", str(blocker))
    assert jitcache.install().from_function(loops._apply.py_func, loops.__file__) is None


def test_a_temp_fallback_others_can_write_is_never_used(monkeypatch, tmp_path):
    """numba's index files are pickles: a fallback directory planted writable by others is skipped."""
    from ncpu.synth import loops    # (as above: a first import here would decorate with no locator of ours)

    blocker = tmp_path / "a-file"
    blocker.write_text("")
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    monkeypatch.delenv("NCPU_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))
    monkeypatch.setattr(jitcache.tempfile, "tempdir", str(tmp_path / "tmp"))
    planted = jitcache.fallback_root()
    planted.mkdir(parents=True)
    planted.chmod(0o777)
    assert jitcache.install().from_function(loops._apply.py_func, loops.__file__) is None
    planted.chmod(0o700)
    locator = jitcache.install().from_function(loops._apply.py_func, loops.__file__)
    assert Path(locator.get_cache_path()).is_relative_to(planted)


def test_stamp_covers_every_source_of_the_directory(tmp_path):
    for name in ("a.py", "b.py"):
        (tmp_path / name).write_text(f"# {name}\n")
    before = jitcache.sources_digest(tmp_path)
    (tmp_path / "b.py").write_text("# b, edited\n")
    edited = jitcache.sources_digest(tmp_path)
    assert edited != before
    (tmp_path / "notes.txt").write_text("not source")
    assert jitcache.sources_digest(tmp_path) == edited


@pytest.mark.parametrize("module", ["ncpu.synth.loops", "ncpu.machine.compute"])
def test_package_functions_use_our_locator(module):
    import importlib
    mod = importlib.import_module(module)
    compiled = [f for f in vars(mod).values() if getattr(f, "_cache", None) is not None
                and hasattr(f._cache, "_impl")]
    assert compiled
    for f in compiled:
        assert isinstance(f._cache._impl.locator, jitcache.install())
        assert not Path(f._cache._cache_path).is_relative_to(SRC / "ncpu")


ALLOCATES = '''
import numpy as np
from ncpu import jitcache
jitcache.install()
from numba import njit


@njit(cache=True)
def squares(n):
    out = np.empty(n, np.int64)     # needs numba's runtime (NRT) once loaded from the cache
    for i in range(n):
        out[i] = i * i
    return out
'''
# loads `squares` (from the cache when warm), then compiles a new function that needs numba's registries
LOAD_THEN_COMPILE = '''
import json, sys
import numpy as np
from ncpu import probe_squares as p
first = p.squares(5).tolist()
registries = "numba.np.arraymath" in sys.modules
from numba import njit
@njit
def fresh(n):
    xs = [i for i in range(n)]
    return sum(xs) + np.sum(np.arange(n))
print(json.dumps({"squares": first, "registries": registries, "fresh": int(fresh(10)),
                  "hits": len(p.squares.stats.cache_hits), "misses": len(p.squares.stats.cache_misses)}))
'''


def test_a_cache_hit_loads_no_registry_and_a_later_compile_still_finds_them(tmp_path):
    """jitcache skips numba's registry refresh when it loads our functions from the cache;
    numba's compiler refreshes by itself, so a compile after a cache hit still works."""
    import json

    src = tmp_path / "src"
    (src / "ncpu").mkdir(parents=True)
    for name in ("__init__.py", "jitcache.py", "cachedir.py"):
        shutil.copy(SRC / "ncpu" / name, src / "ncpu" / name)
    (src / "ncpu" / "probe_squares.py").write_text(ALLOCATES)
    env = {k: v for k, v in os.environ.items() if not k.startswith("NUMBA_") and k != "NCPU_CACHE_DIR"}
    env.update(XDG_CACHE_HOME=str(tmp_path / "xdg"), PYTHONPATH=str(src))

    def probe():
        return json.loads(subprocess.run([sys.executable, "-c", LOAD_THEN_COMPILE], env=env,
                                         capture_output=True, text=True, check=True).stdout)

    cold = probe()
    assert cold == {"squares": [0, 1, 4, 9, 16], "registries": True, "fresh": 90, "hits": 0, "misses": 1}
    warm = probe()
    assert warm == {"squares": [0, 1, 4, 9, 16], "registries": False, "fresh": 90, "hits": 1, "misses": 0}
