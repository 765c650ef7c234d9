"""ncpu/cached_library.py: cache entries that keep their defined names, loaded without a parse.

Loading such an entry in a fresh process, and linking it into a later compile, is
tests/test_jitcache.py's test_a_cache_hit_loads_no_registry_and_a_later_compile_still_finds_them."""
import llvmlite.binding as ll
from llvmlite import ir
from numba.core.compiler_lock import global_compiler_lock
from numba.core.registry import cpu_target

from ncpu import cached_library


def _library():
    """A library as numba's cache serializes one: a function that calls a declared one, and a
    global variable.  The declared function is libc's labs: the object goes into the process's
    JIT engine, and a symbol it cannot resolve would abort the next load there (the ARM64 loop's,
    in a later test of the same worker)."""
    codegen = cpu_target.target_context.codegen()
    module = codegen._create_empty_module("probe")
    i64 = ir.IntType(64)
    declared = ir.Function(module, ir.FunctionType(i64, [i64]), "labs")
    constant = ir.GlobalVariable(module, i64, "probe_constant")
    constant.initializer = ir.Constant(i64, 7)
    defined = ir.Function(module, ir.FunctionType(i64, [i64]), "probe_defined")
    b = ir.IRBuilder(defined.append_basic_block())
    b.ret(b.add(b.call(declared, [defined.args[0]]), b.load(constant)))
    with global_compiler_lock:          # numba compiles under it
        library = codegen.create_library("probe")
        library.enable_object_caching()
        library.add_ir_module(module)
        library.finalize()
    return library


def test_the_names_kept_are_those_numba_reads_from_the_bitcode_at_a_load():
    library = _library()
    with global_compiler_lock:
        state = library.serialize_using_object_code()
    name, kind, (object_code, bitcode, names) = cached_library.with_names(state, library)
    assert (name, kind, object_code, bitcode) == (state[0], cached_library.KIND, *state[2])
    assert names == cached_library.defined_names(ll.parse_bitcode(bitcode))
    assert set(names) == {"probe_defined", "probe_constant"}


def test_other_kinds_are_left_as_numba_wrote_them():
    state = ("lib", "bitcode", b"\x00")
    assert cached_library.with_names(state, None) is state
