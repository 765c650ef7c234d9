"""numba's runtime library comes from nCPU's cache after the first process compiles it."""
import os
import subprocess
import sys
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"

# Counts numba's builds of the runtime module, then compiles a function that allocates (so its
# code calls the runtime's reference counting) and runs it.
SCRIPT = """
from ncpu import jitcache
jitcache.install()
from numba.core.runtime import nrtdynmod
builds = []
original = nrtdynmod.create_nrt_module
nrtdynmod.create_nrt_module = lambda ctx: (builds.append(1), original(ctx))[1]
import numpy as np
from numba import njit

@njit
def total(n):
    return np.arange(n).sum()

result = total(10)          # compiles first
print(len(builds), result)
"""


def _run(cache: Path) -> str:
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache), "PYTHONPATH": str(SRC)}
    done = subprocess.run([sys.executable, "-c", SCRIPT], env=env, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout.strip()


def test_the_runtime_is_compiled_once_then_loaded_and_a_damaged_file_is_rebuilt(tmp_path):
    assert _run(tmp_path) == "1 45"                     # compiled, and kept
    files = list((tmp_path / "runtime").glob("nrt-*.pickle"))
    assert len(files) == 1
    assert _run(tmp_path) == "0 45"                     # loaded: no build
    files[0].write_bytes(files[0].read_bytes()[:100])   # truncated
    assert _run(tmp_path) == "1 45"                     # compiled again...
    assert _run(tmp_path) == "0 45"                     # ...and the file rewritten whole
    assert [p.name for p in (tmp_path / "runtime").iterdir()] == [files[0].name]   # no temporaries left


def test_an_unwritable_cache_leaves_numbas_compile(tmp_path):
    cache = tmp_path / "cache"
    cache.mkdir()
    (cache / "runtime").write_text("a file where the directory would go")
    assert _run(cache) == "1 45"
    assert _run(cache) == "1 45"                        # nothing kept, nothing broken


def test_a_file_of_something_else_is_rebuilt(tmp_path):
    """Binary garbage, or a pickle of something that is not a library: compiled again."""
    import pickle

    assert _run(tmp_path) == "1 45"
    [path] = (tmp_path / "runtime").glob("nrt-*.pickle")
    for junk in (b"\x00\xffnot a pickle", pickle.dumps(5), pickle.dumps(("nrt", "object", (b"x", b"y")))):
        path.write_bytes(junk)
        assert _run(tmp_path) == "1 45"
        assert _run(tmp_path) == "0 45"
