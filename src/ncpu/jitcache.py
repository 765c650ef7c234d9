"""Where numba keeps the machine code of nCPU's `cache=True` functions, and when it is stale.

Numba stamps a cached function with a hash of the one file that defines it,
but our compiled code inlines functions and constants from sibling modules
(the ARM64 hot loop calls every executor; the nCPU engine freezes opcode
numbers from `ncpu.isa`). So for every function defined inside this package
the stamp is a hash of all the sources it can see: the `.py` files of its
own directory plus the extra directories listed in `_ALSO_SEEN`. Any edit
there makes numba recompile; nothing is ever deleted by hand.

The cache lives in a user directory, never inside the installed package:
`$NUMBA_CACHE_DIR` if set, else `numba/` in nCPU's user cache directory
(`ncpu.cachedir`: `$NCPU_CACHE_DIR`, `$XDG_CACHE_HOME/ncpu`, `~/.cache/ncpu`);
if that cannot be written, a per-user directory under the system's
temporary directory. (Only if that fails too does numba
fall back to its own locators.)

`install()` must run before the first `@njit(cache=True)` of a module is
decorated (numba picks the locator then); the compiled packages call it at
import.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import os
import sys
import tempfile
from pathlib import Path

from ncpu.cachedir import user_cache_dir

PACKAGE = Path(__file__).resolve().parent
# directory of a compiled module (relative to the package) -> other directories its code inlines
_ALSO_SEEN = {"machine": ("isa",), "synth": ("isa",)}


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


def sources_digest(directory: Path, also: tuple[Path, ...] = ()) -> str:
    """sha256 over the names and contents of the .py files in `directory` and `also` (not recursive)."""
    h = hashlib.sha256()
    for d in (directory, *also):
        for path in sorted(Path(d).glob("*.py")):
            h.update(str(path.relative_to(d.parent)).encode())
            h.update(path.read_bytes())
    return h.hexdigest()


@functools.lru_cache(maxsize=None)
def _stamp(directory: Path) -> str:
    # computed once per process: the running code is what was imported
    relative = directory.relative_to(PACKAGE).as_posix()
    return sources_digest(directory, tuple(PACKAGE / d for d in _ALSO_SEEN.get(relative, ())))


def _locator_class():
    from numba.core.caching import _CacheLocator

    class PackageCacheLocator(_CacheLocator):
        """numba cache locator for functions defined inside the ncpu package."""

        def __init__(self, py_func, py_file: str, root: Path):
            self._directory = Path(py_file).resolve().parent
            self._lineno = py_func.__code__.co_firstlineno
            self._path = str(root / self.get_suitable_cache_subpath(py_file))

        def get_cache_path(self):
            return self._path

        def get_source_stamp(self):
            return _stamp(self._directory)

        def get_disambiguator(self):
            return str(self._lineno)

        @classmethod
        def from_function(cls, py_func, py_file):
            if not Path(py_file).resolve().is_relative_to(PACKAGE):
                return None     # someone else's function: numba's own locators decide
            for root in (cache_root(), fallback_root()):
                if root == fallback_root() and not _private(root):
                    continue
                locator = cls(py_func, py_file, root)
                try:
                    locator.ensure_cache_path()
                    return locator
                except OSError:
                    continue
            return None

    return PackageCacheLocator


@contextlib.contextmanager
def _numba_without_scipy():
    """Import numba without letting it import scipy.linalg.

    Why: numba's first import probes for BLAS by importing scipy.linalg (when
    scipy is installed, as scikit-learn brings it), about half of the start-up
    CPU time of `ncpu arm64` on a hello world.  Our compiled code calls no
    BLAS routine; numba's np.dot and friends import scipy themselves when
    they are compiled, which still works after this.  Nothing is hidden when
    scipy or numba is already loaded."""
    if "numba" in sys.modules or "scipy" in sys.modules:
        yield
        return
    sys.modules["scipy"] = None          # `import scipy...` raises ImportError: numba records "no BLAS"
    try:
        yield
    finally:
        if sys.modules.get("scipy", 0) is None:
            del sys.modules["scipy"]


@functools.cache
def install():
    """Put our locator first in numba's list (idempotent); returns its class."""
    with _numba_without_scipy():
        import numba.np.arraymath  # noqa: F401  (where numba probes for BLAS)
        from numba.core import caching

    impl = getattr(caching, "CacheImpl", None) or caching._CacheImpl    # renamed in numba 0.60
    locator = _locator_class()
    impl._locator_classes.insert(0, locator)
    return locator
