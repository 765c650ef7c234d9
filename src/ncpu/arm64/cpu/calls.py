"""Calling a compiled function by its address, so that the caller's code does not contain it.

Why: numba links a callee's code into its caller, so the hot loop (run.py)
was recompiled whenever any executor it calls changed, and each of its
compiles optimised the out-of-line executors again.  The loop instead calls
the functions of cold_rows (which call the cold rows' families) through
addresses it receives as an argument (entries.py resolves them); run.py does not import
cold_rows, so an edit of a cold family reaches neither the loop's code nor
its cache stamp (ncpu.jitcache).

An address is resolved the first time it is needed: the caller finds 0,
calls `unresolved` (the loop stops with R_RESOLVE, the instruction not run),
Cpu.run has entries.resolve compile or load that one function, and the
instruction runs again.  So a run that needs no cold row of a group does not
compile or load that group and its families at all.

Both sides derive the signature from the same values by one rule (`canonical`):
integers are passed as int64, everything else as its own numba type.  The
call is numba's own calling convention (not the C wrapper), so it costs what
a direct call to a function that is not inlined costs, plus an indirect
branch, and an exception raised in the callee propagates as usual.
"""
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

from .jit import njit
from .stops import R_RESOLVE, ST_ADDR, ST_REASON


def canonical(ty):
    """The type an argument of `ty` is passed as."""
    return types.int64 if isinstance(ty, (types.Integer, types.Boolean)) else ty


def signature(argtypes):
    """The signature of a callee that takes these argument types (before `canonical`)."""
    return types.int64(*[canonical(t) for t in argtypes])


@intrinsic
def call_at(typingctx, address, *args):
    """call_at(address, *args) -> int64: call the compiled function at `address`
    (a numba function compiled for `signature(types of args)`, see entries.py)."""
    if not isinstance(address, types.Integer):
        return None
    argtypes = args[0].types if len(args) == 1 and isinstance(args[0], types.StarArgTuple) else args
    callee = signature(argtypes)

    def codegen(context, builder, sig, llargs):
        values = cgutils.unpack_tuple(builder, llargs[1], len(argtypes))
        values = [context.cast(builder, v, t, c) for v, t, c in zip(values, argtypes, callee.args)]
        fnty = context.call_conv.get_function_type(callee.return_type, callee.args)
        fn = builder.inttoptr(llargs[0], fnty.as_pointer())
        status, result = context.call_conv.call_function(builder, fn, callee.return_type, callee.args, values)
        with cgutils.if_unlikely(builder, status.is_error):
            context.call_conv.return_status_propagate(builder, status)
        return result

    return types.int64(address, types.StarArgTuple.from_types(tuple(argtypes))), codegen


@intrinsic
def pointer_to(typingctx, value):
    """pointer_to(value) -> CPointer: the address of a copy of `value` in the caller's stack
    frame (one slot per call site, in the function's entry block), valid until the caller
    returns.  Why: numba passes a tuple argument field by field, so the memory arrays
    (memory.MemArrays: twelve arrays, about a hundred machine words) would be copied onto
    the stack at every call into cold_rows; the loop stores them once and passes the address."""
    def codegen(context, builder, sig, args):
        model = context.data_model_manager[sig.args[0]]
        slot = cgutils.alloca_once(builder, model.get_data_type())
        builder.store(model.as_data(builder, args[0]), slot)
        return slot
    return types.CPointer(value)(value), codegen


@intrinsic
def value_at(typingctx, pointer):
    """value_at(pointer_to(x)) -> x (a new reference, as numba expects of a call's result)."""
    if not isinstance(pointer, types.CPointer):
        return None

    def codegen(context, builder, sig, args):
        value = context.data_model_manager[sig.return_type].load_from_data_pointer(builder, args[0])
        context.nrt.incref(builder, sig.return_type, value)
        return value
    return pointer.dtype(pointer), codegen


@njit(cache=True)
def unresolved(st, k, pc):
    """Stop the loop before the instruction at pc: entry k of the addresses is still 0."""
    st[ST_REASON] = R_RESOLVE
    st[ST_ADDR] = k
    return pc

