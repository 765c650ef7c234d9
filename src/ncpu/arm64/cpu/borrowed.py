"""Arrays passed into compiled code without their reference counts.

The machine's arrays (memory, vector registers, hook buffers) are held by the
Python caller for the whole of a run, so the compiled loop may use them without
counting references (see `borrowed`).
"""
from numba import njit, types
from numba.extending import intrinsic

from .memory import MemArrays


@intrinsic
def borrowed(typingctx, arr):
    """The same array without its reference count (meminfo NULL).

    Why: numba increments and decrements the (atomic) reference count of
    every array argument on entry to and exit from each compiled call that
    is not inlined; with the 11 arrays of MemArrays that cost ~0.3 us per
    guest load.  The arrays outlive the run call (the caller holds them),
    so inside the loop we may use them without counting."""
    def codegen(context, builder, sig, args):
        ary = context.make_array(sig.args[0])(context, builder, args[0])
        ary.meminfo = context.get_constant_null(types.MemInfoPointer(types.voidptr))
        ary.parent = context.get_constant_null(types.pyobject)
        return ary._getvalue()
    return arr(arr), codegen


@njit(cache=True)
def borrowed_mem(m):
    return MemArrays(borrowed(m.pt), borrowed(m.perm), borrowed(m.data), borrowed(m.d16), borrowed(m.d32),
                     borrowed(m.d64), borrowed(m.dc_row), borrowed(m.dc_op), borrowed(m.dc_word),
                     borrowed(m.dc_imm), borrowed(m.dc_regs), borrowed(m.dc_meta))
