"""Arrays passed into compiled code without their reference counts.

The machine's arrays (memory, vector registers, hook buffers) are held by the
Python caller for the whole of a run, so the compiled loop may use them without
counting references (see `borrowed`).
"""
from numba import types
from numba.extending import intrinsic


@intrinsic
def borrowed(typingctx, arr):
    """The same array (or tuple of arrays, such as memory.MemArrays) without reference
    counts (meminfo NULL).

    Why: numba increments and decrements the (atomic) reference count of
    every array argument on entry to and exit from each compiled call that
    is not inlined; with the 11 arrays of MemArrays that cost ~0.3 us per
    guest load.  The arrays outlive the run call (the caller holds them),
    so inside the loop we may use them without counting."""
    def codegen(context, builder, sig, args):
        return _without_counts(context, builder, sig.args[0], args[0])
    return arr(arr), codegen


def _without_counts(context, builder, ty, value):
    """`value` (an array, or tuples of them) with NULL meminfo and parent."""
    if isinstance(ty, types.Array):
        ary = context.make_array(ty)(context, builder, value)
        ary.meminfo = context.get_constant_null(types.MemInfoPointer(types.voidptr))
        ary.parent = context.get_constant_null(types.pyobject)
        return ary._getvalue()
    if isinstance(ty, types.BaseTuple):
        for k, t in enumerate(ty.types):
            value = builder.insert_value(value, _without_counts(context, builder, t, builder.extract_value(value, k)), k)
    return value


@intrinsic
def borrowed_at(typingctx, pointer):
    """borrowed_at(pointer_to(x)) -> x with every array's reference count left out (NULL meminfo,
    as `borrowed`): for code that only runs while the caller holds the arrays.  Why: value_at's
    new reference costs a null test per array at each read and again at release; with the NULL a
    constant, LLVM folds them all away once the reader is inlined (native.py's row functions)."""
    if not isinstance(pointer, types.CPointer):
        return None

    def codegen(context, builder, sig, args):
        value = context.data_model_manager[sig.return_type].load_from_data_pointer(builder, args[0])
        return _without_counts(context, builder, sig.return_type, value)
    return pointer.dtype(pointer), codegen
