"""Where numba keeps the machine code of nCPU's `cache=True` functions, and when it is stale.

Numba stamps a cached function with a hash of the one file that defines it,
but our compiled code links in functions and freezes constants from other
modules (the ARM64 hot loop calls its executors; the nCPU engine freezes
opcode numbers from `ncpu.isa`). So for every function defined inside this
package the stamp is a hash of every source it can reach: its own module
and the package modules that module imports, transitively (`reach`). A
compiled function can only name what its module defines or imports, so an
edit anywhere in that set makes numba recompile it, and an edit elsewhere
(a cold SIMD family the loop calls only through an address, see
arm64/cpu/entries.py) leaves it cached. Nothing is ever deleted by hand.

The cache lives in a user directory, never inside the installed package:
`$NUMBA_CACHE_DIR` if set, else `numba/` in nCPU's user cache directory
(`ncpu.cachedir`: `$NCPU_CACHE_DIR`, `$XDG_CACHE_HOME/ncpu`, `~/.cache/ncpu`);
if that cannot be written, a per-user directory under the system's
temporary directory. (Only if that fails too does numba
fall back to its own locators.)

Loading from the cache skips work a load does not need: numba's registry
refresh (`_cache_loader`), and the parse of each function's bitcode, which
our entries replace by the list of names the code defines
(ncpu.cached_library). An entry's stamp names its format, so an nCPU that
writes numba's own finds it stale rather than unreadable.

`install()` must run before the first `@njit(cache=True)` of a module is
decorated (numba picks the locator then); the compiled packages call it at
import.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import os
import re
import sys
import tempfile
from pathlib import Path

from ncpu import cached_library, runtime_cache
from ncpu.cachedir import user_cache_dir

PACKAGE = Path(__file__).resolve().parent


def cache_root() -> Path:
    """The preferred directory for numba's files (it may not exist yet)."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        return Path(os.environ["NUMBA_CACHE_DIR"])
    return user_cache_dir("numba")


def fallback_root() -> Path:
    return Path(tempfile.gettempdir()) / f"ncpu-numba-{os.getuid() if hasattr(os, 'getuid') else 'user'}"


def _private(root: Path) -> bool:
    """True if `root` is a directory only we can write, creating it (0700) if absent.

    numba's index files are pickles: a cache directory someone else can write is
    a way to run code as the next user, so the shared temporary directory is used
    only through a directory of our own that nobody else can write into."""
    try:
        root.mkdir(mode=0o700, parents=True, exist_ok=True)
        info = root.lstat()
    except OSError:
        return False
    import stat

    mine = not hasattr(os, "getuid") or info.st_uid == os.getuid()
    return stat.S_ISDIR(info.st_mode) and mine and not info.st_mode & 0o022


@functools.lru_cache(maxsize=None)
def _module_file(name: str, root: Path) -> Path | None:
    """The source of module `name` (dotted) under `root` (the directory holding the top package)."""
    base = root.joinpath(*name.split("."))
    if (base / "__init__.py").is_file():
        return base / "__init__.py"
    return base.with_suffix(".py") if base.with_suffix(".py").is_file() else None


# Import statements, found by text rather than by parsing (ast.parse of the ARM64 package's
# sources was 0.17 s of CPU, a third of `ncpu arm64`'s start-up). Not anchored to a line's
# start, so also `def f(): from x import y` or `a; import b`; text that only looks like an
# import (in a docstring) adds a source to the stamp at most, never leaves one out.
# Each pattern opens with its keyword and checks the character before it by a lookbehind placed
# after the keyword: a pattern that starts with a literal is searched for by that literal, 25 times
# faster here than one that starts with an assertion (40 ms of `ncpu arm64`'s start-up, 1.6 after).
_FROM = re.compile(r"from(?<!\wfrom)[ \t]+(\.*[\w.]*)[ \t]+import[ \t]+(\((?:[^)#]|#[^\n]*)*\)|[^\n;]*)")
_IMPORT = re.compile(r"import(?<![\w.]import)[ \t]+([\w. \t,]+)")


def _names(text: str) -> list[str]:
    """`a as b, c` (or a parenthesised, commented list) -> ['a', 'c']."""
    text = re.sub(r"#[^\n]*", "", text).strip("() \t\n")
    return [part.split()[0] for part in text.split(",") if part.split()]


@functools.lru_cache(maxsize=None)
def imports(path: Path, root: Path) -> tuple[Path, ...]:
    """The sources under `root` that module `path` imports, anywhere in its text.

    `from a.b import c` reads a/b/c when c is a module, else a/b (the module that
    defines or re-exports c); `import a.b` reads a/b. Parent packages'
    __init__ files run on import too but give the module no name it can compile
    with, so they count only when imported from."""
    parts = path.relative_to(root).with_suffix("").parts
    package = parts[:-1]         # the package a relative import starts from (also for __init__)
    text = path.read_text(encoding="utf-8", errors="replace").replace("\\\n", " ")
    found = []
    for match in _FROM.finditer(text):
        module = match.group(1)
        level = len(module) - len(module.lstrip("."))
        if level:
            base = ".".join((*package[:len(package) - level + 1], *([module[level:]] if module[level:] else [])))
        else:
            base = module
        source = _module_file(base, root)
        if source is not None and source.name != "__init__.py":
            found.append(source)                 # a plain module: its names are not modules
            continue
        modules = [_module_file(f"{base}.{name}", root) for name in _names(match.group(2))]
        found += modules
        if None in modules or not modules:       # a name defined (or re-exported) by `base` itself
            found.append(source)
    for match in _IMPORT.finditer(text):
        found += [_module_file(name, root) for name in _names(match.group(1))]
    return tuple(sorted({f for f in found if f is not None and f != path}))


def reach(path: Path, root: Path) -> list[Path]:
    """`path` and every source under `root` it imports, directly or through others (sorted)."""
    seen, todo = {path}, [path]
    while todo:
        for dep in imports(todo.pop(), root):
            if dep not in seen:
                seen.add(dep)
                todo.append(dep)
    return sorted(seen)


def sources_digest(paths, root: Path) -> str:
    """sha256 over the names (relative to `root`) and contents of `paths`."""
    h = hashlib.sha256()
    for path in sorted(paths):
        h.update(path.relative_to(root).as_posix().encode() + b"\0")
        h.update(path.read_bytes())
    return h.hexdigest()


@functools.lru_cache(maxsize=None)
def _stamp(py_file: Path) -> str:
    # computed once per module and process: the running code is what was imported
    return sources_digest(reach(py_file, PACKAGE.parent), PACKAGE.parent)


_found: dict[tuple, tuple[Path, str]] = {}


def _cache_path(py_file: str) -> tuple[Path, str] | None:
    """(`py_file` resolved, the writable cache directory for its functions), or None when
    `py_file` lies outside this package or no directory can be used.

    Remembered per source file and roots: a module defines dozens of compiled functions and
    the writability check writes a file (219 checks were 5-10% of `ncpu arm64`'s start-up).
    Only successes are remembered, so a directory that becomes usable is used."""
    from numba.core.caching import _CacheLocator

    # what cache_root() and fallback_root() read, cheaper to compare than to build the paths
    key = (py_file, tempfile.tempdir, *map(os.environ.get, ("NUMBA_CACHE_DIR", "NCPU_CACHE_DIR",
                                                           "XDG_CACHE_HOME", "HOME", "TMPDIR")))
    if key in _found:
        return _found[key]
    source = Path(py_file).resolve()
    if not source.is_relative_to(PACKAGE):
        return None     # someone else's function: numba's own locators decide
    for root in (cache_root(), fallback_root()):
        if root == fallback_root() and not _private(root):
            continue
        path = str(root / _CacheLocator.get_suitable_cache_subpath(py_file))
        try:
            os.makedirs(path, exist_ok=True)
            tempfile.TemporaryFile(dir=path).close()     # writable: numba's ensure_cache_path's check
        except OSError:
            continue
        _found[key] = source, path
        return _found[key]
    return None


def _locator_class():
    from numba.core.caching import _CacheLocator

    class PackageCacheLocator(_CacheLocator):
        """numba cache locator for functions defined inside the ncpu package."""

        def __init__(self, py_func, source: Path, path: str):
            self._source = source
            self._lineno = py_func.__code__.co_firstlineno
            self._path = path

        def get_cache_path(self):
            return self._path

        def get_source_stamp(self):
            # with the format of the entries: another nCPU that writes numba's own format (or
            # ours) finds the index stale and compiles, instead of reading what it cannot load
            return f"{_stamp(self._source)} {_entry_format}"

        def get_disambiguator(self):
            return str(self._lineno)

        @classmethod
        def from_function(cls, py_func, py_file):
            found = _cache_path(py_file)
            return None if found is None else cls(py_func, *found)

    return PackageCacheLocator


@contextlib.contextmanager
def _numba_without_optional_imports():
    """Import numba without letting it import scipy, or yaml when it has no file to read.

    Why scipy: numba's import imports scipy to check its version (0.01-0.02 s of
    CPU), and numba's linear-algebra module probes for BLAS by importing
    scipy.linalg (about 0.15 s) when numba's registries are loaded.  Our
    compiled code calls no BLAS routine; a run whose functions all come from
    the cache loads no registry (see _cache_loader), and a run that compiles
    loads them, scipy included, as plain numba does.

    Why yaml: numba imports it (about 0.03 s) to read `.numba_config.yaml` from
    the working directory, where it looks at its import and before each
    compile.  Where that file exists when numba is imported, yaml is imported
    as numba does (one created later, while nCPU runs, gets numba's warning
    that yaml is missing).

    Nothing is hidden from a process that has loaded numba (or the module) already."""
    if "numba" in sys.modules:
        yield
        return
    hidden = [name for name in ("scipy", "yaml") if name not in sys.modules]
    if os.path.isfile(".numba_config.yaml") and "yaml" in hidden:
        hidden.remove("yaml")
    for name in hidden:
        sys.modules[name] = None          # `import name` raises ImportError while numba imports
    try:
        yield
    finally:
        for name in hidden:
            if sys.modules.get(name, 0) is None:
                del sys.modules[name]


def _cache_loader(original, locator):
    """numba's FunctionCache.load_overload, without its refresh for our functions.

    numba refreshes the target context before every cache load: the first call
    imports and installs all of numba's typing and lowering registries (about
    250 modules' worth: numba.np.arraymath, linalg, the random generators,
    typed containers...), 0.15-0.25 s of CPU, although rebuilding machine code
    from the cache uses none of them: it needs only the runtime (NRT) symbols
    that the code links against, which rtsys.initialize provides.  Compiling
    still refreshes (numba's compiler does so itself before typing), so a cache
    miss later in the process finds every registry.  Functions outside this
    package keep numba's behaviour."""
    from numba.core.runtime import rtsys

    def load_overload(self, sig, target_context):
        if not isinstance(self._impl.locator, locator):
            return original(self, sig, target_context)
        rtsys.initialize(target_context)
        with self._guard_against_spurious_io_errors():
            return self._load_overload(sig, target_context)

    load_overload.__doc__ = _cache_loader.__doc__
    return load_overload


def _cache_reducer(original, locator):
    """numba's CompileResultCacheImpl.reduce, with the defined names kept beside the bitcode
    for our functions (ncpu.cached_library: a load then parses no bitcode)."""

    def reduce(self, cres):
        payload = original(self, cres)
        if not isinstance(self.locator, locator):
            return payload
        return (cached_library.with_names(payload[0], cres.library), *payload[1:])

    reduce.__doc__ = _cache_reducer.__doc__
    return reduce


# the format our functions' entries are saved in: numba's ("object"), or with names (install)
_entry_format = "object"


@functools.cache
def install():
    """Put our locator first in numba's list and our cache loader in place (idempotent);
    returns the locator class."""
    global _entry_format
    with _numba_without_optional_imports():
        import numba  # noqa: F401
        from numba.core import caching

    impl = getattr(caching, "CacheImpl", None) or caching._CacheImpl    # renamed in numba 0.60
    locator = _locator_class()
    impl._locator_classes.insert(0, locator)
    # The loader leans on numba's private helpers: where a numba release renames them, keep
    # numba's own loader (start-up pays the refresh again; nothing else changes).
    if all(hasattr(caching.Cache, name) for name in ("_load_overload", "_guard_against_spurious_io_errors")):
        caching.Cache.load_overload = _cache_loader(caching.Cache.load_overload, locator)
        if cached_library.usable():
            from numba.core.codegen import JITCPUCodegen

            JITCPUCodegen.unserialize_library = cached_library.unserialize
            caching.CompileResultCacheImpl.reduce = _cache_reducer(caching.CompileResultCacheImpl.reduce, locator)
            _entry_format = cached_library.KIND
    runtime_cache.install()
    return locator
