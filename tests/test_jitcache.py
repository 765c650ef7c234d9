"""numba's cache for nCPU code: in a user directory, stamped with every source the code can reach."""

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


def test_stamp_covers_the_given_sources(tmp_path):
    for name in ("a.py", "b.py"):
        (tmp_path / name).write_text(f"# {name}\n")
    files = sorted(tmp_path.glob("*.py"))
    before = jitcache.sources_digest(files, tmp_path)
    (tmp_path / "b.py").write_text("# b, edited\n")
    edited = jitcache.sources_digest(files, tmp_path)
    assert edited != before
    (tmp_path / "b.py").rename(tmp_path / "c.py")             # same text, another module
    assert jitcache.sources_digest(sorted(tmp_path.glob("*.py")), tmp_path) != edited


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
# loads `squares` (from the cache when warm), then compiles a new function that needs numba's
# registries and one that calls `squares` (numba links the callee's module into the caller)
LOAD_THEN_COMPILE = '''
import json, sys
import numpy as np
from ncpu import probe_squares as p
first = p.squares(5).tolist()
registries = "numba.np.arraymath" in sys.modules
[library] = [cres.library for cres in p.squares.overloads.values()]
unparsed = getattr(library, "_bitcode", None) is not None
from numba import njit
@njit
def fresh(n):
    xs = [i for i in range(n)]
    return sum(xs) + np.sum(np.arange(n))
@njit
def linked(n):
    return p.squares(n).sum() + 1
print(json.dumps({"squares": first, "registries": registries, "fresh": int(fresh(10)),
                  "unparsed": unparsed, "linked": int(linked(5)),
                  "parsed after": getattr(library, "_bitcode", None) is None,
                  "hits": len(p.squares.stats.cache_hits), "misses": len(p.squares.stats.cache_misses)}))
'''


def test_a_cache_hit_loads_no_registry_and_a_later_compile_still_finds_them(tmp_path):
    """jitcache skips numba's registry refresh when it loads our functions from the cache;
    numba's compiler refreshes by itself, so a compile after a cache hit still works.  The
    loaded function's bitcode is parsed only when a compile links it in (cached_library)."""
    import json

    src = tmp_path / "src"
    (src / "ncpu").mkdir(parents=True)
    for name in ("__init__.py", "jitcache.py", "cachedir.py", "runtime_cache.py", "cached_library.py"):
        shutil.copy(SRC / "ncpu" / name, src / "ncpu" / name)
    (src / "ncpu" / "probe_squares.py").write_text(ALLOCATES)
    env = {k: v for k, v in os.environ.items() if not k.startswith("NUMBA_") and k != "NCPU_CACHE_DIR"}
    env.update(XDG_CACHE_HOME=str(tmp_path / "xdg"), PYTHONPATH=str(src))

    def probe():
        return json.loads(subprocess.run([sys.executable, "-c", LOAD_THEN_COMPILE], env=env,
                                         capture_output=True, text=True, check=True).stdout)

    cold = probe()
    assert cold == {"squares": [0, 1, 4, 9, 16], "registries": True, "fresh": 90, "unparsed": False,
                    "linked": 31, "parsed after": True, "hits": 0, "misses": 1}
    warm = probe()
    assert warm == {"squares": [0, 1, 4, 9, 16], "registries": False, "fresh": 90, "unparsed": True,
                    "linked": 31, "parsed after": True, "hits": 1, "misses": 0}


# Two compiled functions in sibling modules: `uses` calls a function of probe_dep, `alone` calls nothing.
PROBE_DEP = '''
from numba import njit


@njit(cache=True)
def helper(x):
    return x * 3
'''
PROBE_USES = '''
from ncpu import jitcache
jitcache.install()
from numba import njit
from ncpu.probe_dep import helper


@njit(cache=True)
def uses(x):
    return helper(x) + 1
'''
PROBE_ALONE = '''
from ncpu import jitcache
jitcache.install()
from numba import njit


@njit(cache=True)
def alone(x):
    return x - 1
'''
CALL_BOTH = '''
import json
from ncpu.probe_uses import uses
from ncpu.probe_alone import alone
print(json.dumps({"uses": uses(5), "alone": alone(5),
                  "compiled": sorted(f.__name__ for f in (uses, alone) if f.stats.cache_misses)}))
'''


def test_an_edit_recompiles_the_functions_that_reach_it_and_no_other(tmp_path):
    """The stamp covers what a module imports, transitively: editing probe_dep recompiles `uses`
    (whose code contains helper's) and loads `alone` from the cache; the edit is seen, not stale."""
    import json

    src = tmp_path / "src"
    (src / "ncpu").mkdir(parents=True)
    for name in ("__init__.py", "jitcache.py", "cachedir.py", "runtime_cache.py", "cached_library.py"):
        shutil.copy(SRC / "ncpu" / name, src / "ncpu" / name)
    for name, text in (("probe_dep", PROBE_DEP), ("probe_uses", PROBE_USES), ("probe_alone", PROBE_ALONE)):
        (src / "ncpu" / f"{name}.py").write_text(text)
    env = {k: v for k, v in os.environ.items() if not k.startswith("NUMBA_") and k != "NCPU_CACHE_DIR"}
    env.update(XDG_CACHE_HOME=str(tmp_path / "xdg"), PYTHONPATH=str(src))

    def probe():
        return json.loads(subprocess.run([sys.executable, "-c", CALL_BOTH], env=env,
                                         capture_output=True, text=True, check=True).stdout)

    assert probe() == {"uses": 16, "alone": 4, "compiled": ["alone", "uses"]}
    assert probe() == {"uses": 16, "alone": 4, "compiled": []}
    dep = src / "ncpu" / "probe_dep.py"
    dep.write_text(dep.read_text().replace("x * 3", "x * 7"))
    assert probe() == {"uses": 36, "alone": 4, "compiled": ["uses"]}     # helper's new code, not the cached one
    alone = src / "ncpu" / "probe_alone.py"
    alone.write_text(alone.read_text() + "\n# edited\n")
    assert probe() == {"uses": 36, "alone": 4, "compiled": ["alone"]}


def test_reach_follows_imports_transitively_and_nothing_else(tmp_path):
    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    files = {"__init__.py": "from .a import f\n", "a.py": "from . import b\nfrom .sub.c import g\n",
             "b.py": "import os\n", "sub/__init__.py": "", "sub/c.py": "def g(): from ..d import h\n",
             "d.py": "", "e.py": "from .a import f\n"}
    for name, text in files.items():
        (pkg / name).write_text(text)
    names = lambda paths: sorted(p.relative_to(tmp_path).as_posix() for p in paths)     # noqa: E731
    assert names(jitcache.reach(pkg / "a.py", tmp_path)) == ["pkg/a.py", "pkg/b.py", "pkg/d.py", "pkg/sub/c.py"]
    assert names(jitcache.reach(pkg / "e.py", tmp_path)) == ["pkg/a.py", "pkg/b.py", "pkg/d.py", "pkg/e.py",
                                                              "pkg/sub/c.py"]
    before = jitcache.sources_digest(jitcache.reach(pkg / "a.py", tmp_path), tmp_path)
    (pkg / "e.py").write_text("# edited\n")                     # not reached from a: same stamp
    assert jitcache.sources_digest(jitcache.reach(pkg / "a.py", tmp_path), tmp_path) == before
    (pkg / "d.py").write_text("# edited\n")                     # reached through sub/c's function body
    assert jitcache.sources_digest(jitcache.reach(pkg / "a.py", tmp_path), tmp_path) != before



def test_imports_are_found_only_as_whole_words(tmp_path):
    """The keyword at the file's start, after `;` or `:` counts; inside another word, or as an
    attribute (`x.import`), it does not."""
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    for name in "abcdefgh":
        (pkg / f"{name}.py").write_text("")
    (pkg / "m.py").write_text("import pkg.a\nx = 1; import pkg.b\ndef f(): from pkg.c import g\n"
                              "myfrom pkg.d import e\n_import pkg.e\ny.import pkg.f\nreimport pkg.g\n"
                              "(from pkg.h import q)\n")
    found = sorted(p.name for p in jitcache.imports(pkg / "m.py", tmp_path))
    assert found == ["a.py", "b.py", "c.py", "h.py"]

def _defining_file(value) -> Path | None:
    """The source that defines a global a compiled function can name (None: not from nCPU)."""
    import types as pytypes

    if isinstance(value, pytypes.ModuleType):
        where = getattr(value, "__file__", None)
    else:
        func = getattr(value, "py_func", None) or getattr(value, "_defn", None) or value
        module = sys.modules.get(getattr(func, "__module__", None) or "")
        where = getattr(module, "__file__", None) if callable(value) else None
    return Path(where).resolve() if where and Path(where).resolve().is_relative_to(SRC / "ncpu") else None


def _code_names(code) -> set[str]:
    names = set(code.co_names)
    for const in code.co_consts:
        if hasattr(const, "co_names"):
            names |= _code_names(const)
    return names


def test_compiled_functions_name_only_sources_their_stamp_covers():
    """What a compiled function can link in or freeze is what it names: the functions, intrinsics and
    modules among its globals. Each must be defined in a source of its stamp (jitcache.reach)."""
    import importlib

    from numba.core.dispatcher import Dispatcher

    cpu = sorted(p.stem for p in (SRC / "ncpu" / "arm64" / "cpu").glob("*.py") if p.stem != "__init__")
    cpu += sorted(f"cold_rows.{p.stem}" for p in (SRC / "ncpu" / "arm64" / "cpu" / "cold_rows").glob("exec_*.py"))
    checked = 0
    for module in [f"ncpu.arm64.cpu.{m}" for m in cpu] + ["ncpu.machine.compute", "ncpu.synth.loops"]:
        mod = importlib.import_module(module)
        covered = set(jitcache.reach(Path(mod.__file__).resolve(), SRC))
        for f in vars(mod).values():
            if not isinstance(f, Dispatcher) or f.py_func.__module__ != module:
                continue
            checked += 1
            for name in _code_names(f.py_func.__code__):
                where = _defining_file(f.py_func.__globals__.get(name))
                assert where is None or where in covered, (module, f.py_func.__name__, name, where)
    assert checked > 100


def test_the_arm64_loop_does_not_reach_the_cold_families():
    """run.py calls cold_rows' functions (which call the cold families) by address (entries.py): their sources
    are not in the loop's stamp, so editing a cold SIMD family does not recompile the loop; entries.py, which
    resolves them, reaches cold_rows' index (which imports a module by name when it is first needed).  Each
    module of cold_rows reaches its own family module, not the others: editing one recompiles its own cold
    functions only."""
    cpu = SRC / "ncpu" / "arm64" / "cpu"

    def reached(path):
        return {p.relative_to(cpu).as_posix() for p in jitcache.reach(path, SRC) if p.is_relative_to(cpu)}
    loop, entries = reached(cpu / "run.py"), reached(cpu / "entries.py")
    cold = {"cold_rows/__init__.py", "cold_rows/exec_vshift.py", "exec_vshift.py", "exec_vec3.py", "exec_vperm.py",
            "exec_vmove.py", "exec_vstruct.py"}
    assert not loop & cold
    assert "cold_rows/__init__.py" in entries
    assert {"exec_int.py", "exec_mem.py", "decode_table.py", "decoder.py"} <= loop
    vec3 = reached(cpu / "cold_rows" / "exec_vec3.py")
    assert "exec_vec3.py" in vec3 and not vec3 & {"exec_vshift.py", "cold_rows/exec_vshift.py", "cold_rows/__init__.py"}


def test_the_loop_passes_what_its_callees_by_address_take():
    """entries.py compiles each of cold_rows' functions for its parameters; run.py's call by address
    must pass the same arguments in the same order (a call through an address is not checked):
    the packed register operands, the address of the memory arrays, the steps run so far."""
    import inspect
    import re

    from ncpu.arm64.cpu import cold_rows, run

    from ncpu.arm64.cpu import gen_loop

    calls = re.findall(r"call_at\(fp\[(\w+)\], ([^)]*)\)", Path(run.__file__).read_text())
    numbers = list(gen_loop.out_of_line_groups())
    rare = {str(numbers.index(group)) for group in gen_loop.rare_groups()}
    assert {k for k, _ in calls} == {"k"} | rare and rare    # the cold rows', each rare case's
    for k, args in calls:
        # the outer loop passes the row's packed operands as m_dc_regs[row, i], the inner as rg
        for group in cold_rows.all_groups() if k == "k" else [cold_rows.group(int(k))]:
            cold = [*inspect.signature(group.py_func).parameters]
            regs = "m_dc_regs" if k == "k" else "rg"
            assert args.replace("[row, i]", "").split(", ") == [*cold[:7], regs, "mp", "steps"]
            assert cold[7:] == ["rg", "mp", "steps"]


# numba's import as jitcache.install does it: what it imported, whether it reads a config file, and
# that both modules stay importable afterwards
OPTIONAL = ("import sys\nfrom ncpu import jitcache\njitcache.install()\nimport numba.core.config as config\n"
            "print('scipy' in sys.modules, 'yaml' in sys.modules, config._HAVE_YAML, int(config.OPT))\n"
            "import scipy, yaml\nprint('importable')")


@pytest.mark.parametrize("config_file, expected", [(None, "False False False 3"),
                                                   ("OPT: '1'\n", "False True True 1")])
def test_numba_is_imported_without_scipy_and_without_yaml_unless_a_config_file_needs_it(
        tmp_path, config_file, expected):
    if config_file is not None:
        (tmp_path / ".numba_config.yaml").write_text(config_file)
    env = {k: v for k, v in os.environ.items() if not k.startswith("NUMBA_")}
    out = subprocess.run([sys.executable, "-c", OPTIONAL], env={**env, "PYTHONPATH": str(SRC)},
                         cwd=tmp_path, capture_output=True, text=True, check=True).stdout.split("\n")
    assert out[:2] == [expected, "importable"]
