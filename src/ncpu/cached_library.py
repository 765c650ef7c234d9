"""numba's cached functions loaded without parsing their LLVM bitcode.

numba keeps, beside a cached function's object code, the function's LLVM module
as bitcode: a later compile that calls the function links it in to inline it.
Each load parses that bitcode, only to learn the names the object defines.
nCPU's cached functions are rarely linked after a load: the ARM64 loop and
the executors it calls by address are called from Python or by address, and a
process that compiles nothing links nothing.  The parse was half the time of
those loads: 41-64 ms of the 83-119 ms that `ncpu arm64 hello` spent loading
its 13 libraries (2026-11-29).

So an entry jitcache saves keeps the defined names beside the bitcode
(`with_names`), and loading one (`unserialize`) hands the names to numba's
engine and keeps the bitcode as bytes, parsed the first time a compile links
the library in (`LazyLinkingLibrary`).  Entries in numba's own format load as
numba loads them.  Nothing else changes: the object code is loaded as numba
loads it, and a library that is linked gets the module numba would have parsed.
"""

from __future__ import annotations

import functools

# the kind of serialized library that carries its defined names; numba's own loader rejects it
# ("unsupported serialization kind"), so jitcache writes it only where it installed `unserialize`
KIND = "object+names"


def defined_names(module) -> tuple[str, ...]:
    """The names a module defines, as numba's engine records them at a load (functions and
    global variables that are not declarations)."""
    return tuple(g.name for gs in (module.functions, module.global_variables) for g in gs
                 if not g.is_declaration)


def with_names(libdata, library):
    """numba's serialization of `library`, (name, 'object', (object code, bitcode)), with the
    names its bitcode defines added; other kinds unchanged."""
    name, kind, data = libdata
    if kind != "object":
        return libdata
    return name, KIND, (*data, defined_names(library._get_module_for_linking()))


@functools.cache
def _lazy_class():
    import llvmlite.binding as ll
    from numba.core.codegen import JITCodeLibrary

    class LazyLinkingLibrary(JITCodeLibrary):
        """A library loaded from the cache whose module for linking is parsed on first use."""

        _bitcode = None

        @property
        def _shared_module(self):
            if self._bitcode is not None:
                self._parsed, self._bitcode = ll.parse_bitcode(self._bitcode), None
            return self._parsed

        @_shared_module.setter
        def _shared_module(self, module):
            self._parsed, self._bitcode = module, None

    return LazyLinkingLibrary


def unserialize(codegen, state):
    """numba's JITCodeLibrary._unserialize for an 'object' library, with the names given and
    the bitcode left unparsed (numba's own for any other kind)."""
    name, kind, data = state
    if kind != KIND:
        return codegen._library_class._unserialize(codegen, state)
    object_code, bitcode, names = data
    library = _lazy_class()(codegen, name)
    library.enable_object_caching()
    library._set_compiled_object(object_code)
    library._bitcode = bitcode
    library._finalize_final_module()
    engine = codegen._engine
    if hasattr(engine, "_defined_symbols"):
        engine._defined_symbols.update(names)
    else:                                   # a numba that tracks them otherwise: its own way
        engine._load_defined_symbols(library._shared_module)
    return library


def usable() -> bool:
    """Whether this numba has the helpers `unserialize` leans on (a release may rename them;
    then jitcache keeps numba's format, and loads parse as before)."""
    from numba.core.codegen import JITCodeLibrary, JitEngine

    return (all(hasattr(JITCodeLibrary, n) for n in ("_unserialize", "enable_object_caching",
                                                     "_set_compiled_object", "_finalize_final_module",
                                                     "_get_module_for_linking"))
            and hasattr(JitEngine, "_load_defined_symbols"))
