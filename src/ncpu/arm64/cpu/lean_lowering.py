"""numba's lowering of the CPU's functions, with less LLVM IR and the same machine code
(docs/arm64.md, "A call's type worked out once, and less IR for LLVM").

LLVM's share of a compile grows with the IR numba hands it: 91,000 instructions for the loop.
Counted per numba IR statement (an ad-hoc count of the instructions each one added), two kinds
made half of it, each for a reason that does not apply to a number:

- An array element read or written (`R[a]`, `dc_op[row, i] = x`; 15,300 instructions for the
  273 stores, 12,900 for the 307 reads of int64 arrays): numba copies the array's structure
  to a stack slot and reads its data pointer, shape and strides back out of the copy.  Here
  the three are taken from the structure's value, and numba's own `basic_indexing`,
  `load_item` and `store_item` do the rest, so negative indices, bounds checks (when on),
  casts and alignment are numba's.  Slices and other indices are left to numba.
- The end of a variable's life (`del`: 13,200 of them, 13,600 instructions): numba loads the
  value, drops its reference and stores a zero over it.  For a type without a reference count
  only the store is kept: it ends the value there, and LLVM then sees the same program.

Both leave LLVM's result unchanged: the loop's optimised IR is numba's, block for block and
instruction for instruction, up to the names of values.  The tests compare smaller functions
as text; the whole loop as a graph, because one block lies elsewhere and under another name:
numba's lowering of an element store opens `.if`/`.endif` blocks at the function's end, this
one does not, and where LLVM does not merge them back the same code stays in either.

Two more were tried and not kept: no store at a `del` either, and no load of a slot's old
value before storing over it (dead as well).  Together they changed LLVM's result (its jump
threading differed) and the tight loop ran 8% slower; the second alone already changed it.

A function registered with `slow_path` gets LLVM's `noinline`: its callers keep a call
(guest_access's slow paths, which every load and store site of the loop would otherwise carry
inlined).  Adding `cold` as well made native page builds about a third dearer (codegen 5-6 ms
per guest instruction against 3), so it is not added.

Every function `jit.njit` makes is lowered this way: `LeanCompiler` is numba's nopython
pipeline with `LeanNativeLowering` in place of numba's lowering pass (run.py's loop pipeline
makes the same swap).
"""
from __future__ import annotations

from llvmlite.ir import Constant
from numba.core import cgutils, types
from numba.core.compiler import Compiler, DefaultPassBuilder
from numba.core.compiler_machinery import register_pass
from numba.core.lowering import Lower
from numba.core.typed_passes import NativeLowering

# numba.np.arrayobj's basic_indexing, load_item and store_item are imported where lowering calls
# them: that module (with numba's string and hashing code it imports) takes about 18 ms to import,
# which `ncpu arm64` would pay at every start-up although a cached start compiles nothing.


class _ArrayFields:
    """What numba's `basic_indexing` reads of an array (data pointer, shape, strides), taken
    from the array's value instead of from a copy of it on the stack."""

    def __init__(self, context, builder, aryty, value):
        model = context.data_model_manager[aryty]
        self.data, self.shape, self.strides = (
            builder.extract_value(value, model.get_field_position(f)) for f in ("data", "shape", "strides"))


_SLOW_PATHS: set = set()        # the Python functions of slow_path's dispatchers


def slow_path(dispatcher):
    """Mark a `jit.njit` function as one its callers rarely call (decorator, above @njit): LLVM
    keeps it out of line."""
    _SLOW_PATHS.add(dispatcher.py_func)
    return dispatcher


class LeanLower(Lower):
    """numba's Lower, with the changes of the module docstring."""

    def setup_function(self, fndesc):
        super().setup_function(fndesc)
        if self.func_ir.func_id.func in _SLOW_PATHS:
            self.function.attributes.add("noinline")

    def _counted(self, ty) -> bool:
        return self.context.data_model_manager[ty].contains_nrt_meminfo()

    def _element_pointer(self, aryty, idxty, array_var, index_var):
        """The address of `array_var[index_var]` if that names one element of a plain array
        of numbers (an integer per dimension), else None: numba's lowering then."""
        index_types = idxty.types if isinstance(idxty, types.BaseTuple) else (idxty,)
        if not (type(aryty) is types.Array and isinstance(aryty.dtype, (types.Number, types.Boolean))
                and self.typeof(array_var.name) == aryty and len(index_types) == aryty.ndim
                and all(isinstance(t, types.Integer) for t in index_types)):
            return None
        index = self.context.cast(self.builder, self.loadvar(index_var.name), self.typeof(index_var.name), idxty)
        indices = cgutils.unpack_tuple(self.builder, index, len(index_types)) if isinstance(
            idxty, types.BaseTuple) else (index,)
        fields = _ArrayFields(self.context, self.builder, aryty, self.loadvar(array_var.name))
        from numba.np.arrayobj import basic_indexing   # here, not at the top: see the imports

        ptr, shapes, _ = basic_indexing(self.context, self.builder, aryty, fields, index_types, indices,
                                        boundscheck=self.context.enable_boundscheck)
        assert not shapes               # one element: no dimension left
        return ptr

    def lower_getitem(self, resty, expr, value, index, signature):
        aryty, idxty = signature.args
        ptr = self._element_pointer(aryty, idxty, value, index)
        if ptr is None:
            return super().lower_getitem(resty, expr, value, index, signature)
        from numba.np.arrayobj import load_item

        item = load_item(self.context, self.builder, aryty, ptr)
        return self.context.cast(self.builder, item, signature.return_type, resty)

    def lower_setitem(self, target_var, index_var, value_var, signature):
        aryty, idxty, valty = signature.args
        ptr = self._element_pointer(aryty, idxty, target_var, index_var)
        if ptr is None:
            return super().lower_setitem(target_var, index_var, value_var, signature)
        value = self.context.cast(self.builder, self.loadvar(value_var.name), self.typeof(value_var.name), valty)
        from numba.np.arrayobj import store_item

        store_item(self.context, self.builder, aryty, self.context.cast(self.builder, value, valty, aryty.dtype), ptr)
        return self.context.get_dummy_value()

    def delvar(self, name):
        """numba's, without loading a value that has no reference to drop."""
        fetype = self.typeof(name)
        if self._counted(fetype):
            return super().delvar(name)
        if name not in self._blk_local_varmap and not self._disable_sroa_like_opt:
            self._singly_assigned_vars.discard(name)
        self._alloca_var(name, fetype)
        if name not in self._blk_local_varmap or self._disable_sroa_like_opt:
            ptr = self.getvar(name)
            self.builder.store(Constant(ptr.type.pointee, None), ptr)
        return None


@register_pass(mutates_CFG=True, analysis_only=False)
class LeanNativeLowering(NativeLowering):
    """numba's lowering pass, with LeanLower."""
    _name = "lean_native_lowering"

    @property
    def lowering_class(self):
        return LeanLower


class LeanCompiler(Compiler):
    """numba's nopython pipeline, lowered by LeanLower."""

    def define_pipelines(self):
        pm = DefaultPassBuilder.define_nopython_pipeline(self.state)
        pm.passes = [(LeanNativeLowering if p is NativeLowering else p, d) for p, d in pm.passes]
        pm.finalize()
        return [pm]
