"""numba's nopython pipeline made cheaper for one large generated function: the loop (run.py).

The loop is a few thousand blocks and about ten thousand variables in one function, so
numba's passes that walk all of it, again after each change, cost most of its cold compile;
each change here is measured on that compile (docs/arm64.md, "Compile time") and gives the
same code:

- the inliner reads each `inline="always"` callee once (_InlineInlinablesOnce);
- the variables' lifetimes from bit masks (_live_map), and only where a pass reads them
  (_post_process_lazily);
- the bytecode's jump targets looked up in a set (_LabelSet);
- the loop's own LLVM function passes at level 1 (_LoopLibrary);
- no SSA, no closure inlining, no post-typing rewrites, lowered with less IR (LoopCompiler).
"""
import re
from collections import defaultdict

from numba.core import analysis, transforms
from numba.core.codegen import JITCodeLibrary
from numba.core.compiler import Compiler, DefaultPassBuilder
from numba.core.compiler_machinery import register_pass
from numba.core.inline_closurecall import InlineWorker
from numba.core.postproc import PostProcessor, VariableLifetime
from numba.core.typed_passes import NativeLowering, NopythonRewrites
from numba.core.untyped_passes import InlineClosureLikes, InlineInlinables

from .lean_lowering import LeanNativeLowering

@register_pass(mutates_CFG=True, analysis_only=False)
class _InlineInlinablesOnce(InlineInlinables):
    """numba's inliner of `inline="always"` functions, reading each callee's IR once.

    numba runs the callee's untyped pipeline again at every call site; the loop
    has about 80 sites of four helpers (`_result` alone 46).  inline_ir copies the
    callee's IR before it changes anything, so one reading serves every site."""
    _name = "inline_inlinables_once"

    def run_pass(self, state):
        original, read = InlineWorker.run_untyped_passes, {}

        def untyped_once(worker, func, enable_ssa=False):
            if (func, enable_ssa) not in read:
                read[func, enable_ssa] = original(worker, func, enable_ssa)
            return read[func, enable_ssa]

        InlineWorker.run_untyped_passes = untyped_once
        try:
            return super().run_pass(state)
        finally:
            InlineWorker.run_untyped_passes = original


def _live_map(cfg, blocks, var_use_map, var_def_map):
    """numba.core.analysis.compute_live_map, the same result, with each set of variable names
    held as an int bit mask.

    numba's version first computes, per block, the set of every variable defined or used on
    any path into it: in the loop, where the inner loop's back edge reaches every row, nearly
    all of its thousands of names in each of its thousands of blocks, unions of Python sets
    rebuilt on every pass (half of the loop's own compile time, docs/arm64.md).  Both fix-points
    are the same equations iterated in the same order, so they reach the same sets."""
    index, names = {}, []

    def mask(vs):
        m = 0
        for v in vs:
            if v not in index:
                index[v] = len(names)
                names.append(v)
            m |= 1 << index[v]
        return m

    use = {k: mask(v) for k, v in var_use_map.items()}
    defs = {k: mask(v) for k, v in var_def_map.items()}
    order = cfg.topo_order()
    reach = defaultdict(int)            # variables defined or used on some path into the block
    changed = True
    while changed:
        changed = False
        for k in order:
            new = reach[k] | defs[k] | use[k]
            changed |= new != reach[k]
            reach[k] = new
            for s, _ in cfg.successors(k):
                changed |= reach[s] | new != reach[s]
                reach[s] |= new
    live = {k: use[k] for k in blocks}   # variables live at the block's entry
    changed = True
    while changed:
        changed = False
        for k in reversed(order):
            for p, _ in cfg.predecessors(k):
                new = live[p] | (live[k] & reach[p] & ~defs[p])
                changed |= new != live[p]
                live[p] = new
    top = {k: len(bin(m)) - 1 for k, m in live.items()}      # bin(m)[j] is bit top - j
    return {k: {names[top[k] - j.start()] for j in re.finditer("1", bin(m))} for k, m in live.items()}


_numba_post_process = PostProcessor.run


def _post_process_lazily(self, emit_dels=False, extend_lifetimes=False):
    """numba's PostProcessor.run, without working out the variables' lifetimes where nothing
    reads them.

    numba runs it after every pass that changed the IR, and each run computes, eagerly, the
    use and def sets, live map, dead maps and live variables of every block: for the loop
    about 0.6 s a run, four runs.  What it leaves behind is read by the final run before
    lowering (which puts in the `del`s: unchanged here, numba's own), by object-mode lowering
    and generators (`block_entry_vars`: numba's own run for a generator), and by a few passes
    through `func_ir.variable_lifetime`, which computes each of its maps when first read;
    the loop has nothing those passes act on (no `with` block, no literal_unroll)."""
    if emit_dels or self.func_ir.is_generator:
        return _numba_post_process(self, emit_dels, extend_lifetimes)
    self.func_ir.blocks = transforms.canonicalize_cfg(self.func_ir.blocks)
    self.func_ir.variable_lifetime = VariableLifetime(self.func_ir.blocks)
    self.func_ir.block_entry_vars = {}      # (a reader would fail on it, not read stale sets)
    self.func_ir.generator_info = None


class _LabelSet(list):
    """A bytecode's jump targets (numba's ByteCode.labels: a sorted list), looked up in a set.
    numba's flow analysis asks `offset in labels` for each instruction it reads: over the
    loop's thousands of labels a linear search each time (about 0.5 s of its compile)."""

    def __init__(self, labels):
        super().__init__(labels)
        self._members = frozenset(labels)

    def __contains__(self, offset):
        return offset in self._members


LOOP_FUNCTION_OPT = 1      # numba's per-function passes for the loop (numba: O3, like its module passes)


class _LoopLibrary(JITCodeLibrary):
    """The loop's code library, its per-function passes at level LOOP_FUNCTION_OPT.  Why: numba
    optimises a function three times: function passes at O3 when its module is added, then,
    once the callees are linked in, a cheap module round and the O3 module pipeline (which runs
    the same function simplifications again).  For the loop the first was the largest single part
    of LLVM's time (16.5 s of CPU of a cold compile of 87, load 5); at level 1 it is a few seconds,
    and the code is what the O3 module passes make of it.  Skipping the function passes instead
    left the module passes twice as long (9.5 s against 3.9)."""

    def _optimize_functions(self, ll_module):
        ll_module.data_layout = self._codegen._data_layout
        for func in ll_module.functions:
            fpm, pb = self._codegen._function_pass_manager(opt=LOOP_FUNCTION_OPT)
            fpm.run(func, pb)


class LoopCompiler(Compiler):
    """numba's nopython pipeline made cheaper for the generated loop only (docs/arm64.md,
    "Compile time"); numba's pass timings of the loop (`run_loop`) decided each change:

    - no SSA form (`enable_ssa` off, numba's pipeline before 0.50): reconstructing
      SSA over the loop's few thousand blocks was the costliest pass, and SSA's extra
      variable versions made typing and lowering longer.  Every named variable of the
      loop gets the same type either way (compared on the typemaps);
    - no closure inlining (InlineClosureLikes): the loop has no closure or array
      comprehension, and its walk over every loop was about a sixth of the compile;
    - no post-typing rewrites (NopythonRewrites): none of numba's after-inference
      rewrites (array expressions, constant arrays, string-literal items) matches
      anything here (logged), but the pass rebuilds the variables' lifetimes twice;
    - the inliner reads each `inline="always"` callee once (_InlineInlinablesOnce);
    - the variables' lifetimes (rebuilt after most passes) from bit masks (_live_map), and
      only where something reads them (_post_process_lazily);
    - the bytecode's jump targets in a set (_LabelSet);
    - lowered with less LLVM IR: array elements read and written without a stack copy of the
      array, no code for the end of a variable without a reference count (lean_lowering.py)."""

    def _compile_core(self):
        if self.state.library is None:          # numba's lowering pass would make a plain one
            codegen = self.state.targetctx.codegen()
            self.state.library = _LoopLibrary(codegen, self.state.func_id.func_qualname)
            self.state.library.enable_object_caching()
        if self.state.bc is not None:           # (None when numba compiles IR, not bytecode)
            self.state.bc.labels = _LabelSet(self.state.bc.labels)
        # numba's passes call analysis.compute_live_map by module attribute and PostProcessor.run
        # by class; the callees numba compiles while it types the loop get these too (the same
        # results, cheaper)
        numba_live_map, analysis.compute_live_map = analysis.compute_live_map, _live_map
        PostProcessor.run = _post_process_lazily
        try:
            return super()._compile_core()
        finally:
            analysis.compute_live_map = numba_live_map
            PostProcessor.run = _numba_post_process

    def define_pipelines(self):
        self.state.flags.enable_ssa = False
        pm = DefaultPassBuilder.define_nopython_pipeline(self.state)
        swap = {InlineInlinables: _InlineInlinablesOnce, NativeLowering: LeanNativeLowering}
        pm.passes = [(swap.get(p, p), d) for p, d in pm.passes if p not in (InlineClosureLikes, NopythonRewrites)]
        pm.finalize()
        return [pm]

