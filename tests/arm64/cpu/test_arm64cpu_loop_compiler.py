"""arm64/cpu/loop_compiler.py: the loop's cheaper pipeline computes what numba's computes.

Each shortcut is checked against numba's own code on functions with loops, early exits,
many branches and a generator; the loop itself is compiled by it in every test run."""
import io

import numpy as np
from numba import njit as numba_njit
from numba.core import analysis, compiler, types
from numba.core.bytecode import ByteCode, FunctionIdentity
from numba.core.postproc import VariableLifetime

from ncpu.arm64.cpu import decoder, exec_vstruct, loop_compiler, run


def _branches_and_loops(a, n):
    """Loops, early exits, a variable assigned in many places and live across the loop."""
    total, last = 0, -1
    for i in range(n):
        if a[i % a.shape[0]] < 0:
            return -i
        elif a[i % a.shape[0]] == 3:
            last = i
            continue
        for j in range(i % 4):
            total += a[j] * (j + 1)
            if total > 1000:
                break
        else:
            total -= 1
    return total + last


def _straight(x, y):
    z = x * y
    w = z - x if z > y else z + y
    return (w << 3) ^ (z >> 2)


def _counting(n):
    """A generator: numba's post-processing builds its yield points from the lifetimes."""
    for i in range(n):
        if i % 3:
            yield i * 2


def _sum_of(n):
    s = 0
    for v in _counting_jitted(n):
        s += v
    return s


_counting_jitted = numba_njit(_counting)
_FUNCTIONS = [(_branches_and_loops, (types.int64[:], types.int64)),
              (_straight, (types.int64, types.int64)),
              (_sum_of, (types.int64,))]


class _Keeping(loop_compiler.LoopCompiler):
    """The loop's pipeline, keeping the function's final IR (the `del`s put in)."""
    kept: list = []

    def _compile_core(self):
        try:
            return super()._compile_core()
        finally:
            self.kept.append(self.state.func_ir)


def _final_ir(py_func, sig) -> str:
    _Keeping.kept = []
    numba_njit(pipeline_class=_Keeping)(py_func).compile(sig)
    text = io.StringIO()
    _Keeping.kept[-1].dump(file=text)
    return text.getvalue()


def test_lazy_post_processing_gives_numbas_ir(monkeypatch):
    """The final IR (with numba's `del`s) is the same as when every post-processing run works
    out the lifetimes (and the bytecode's labels are numba's plain list)."""
    lazy = [_final_ir(f, sig) for f, sig in _FUNCTIONS]
    monkeypatch.setattr(loop_compiler, "_post_process_lazily", loop_compiler._numba_post_process)
    monkeypatch.setattr(loop_compiler, "_LabelSet", list)
    eager = [_final_ir(f, sig) for f, sig in _FUNCTIONS]
    assert all("del " in text for text in eager)
    assert lazy == eager


def test_lifetimes_worked_out_once_per_function(monkeypatch):
    """The point of the change: one computation of the dead maps (the final one, for the
    `del`s) per function instead of one after every pass that changed the IR."""
    calls = []
    numbas = analysis.compute_dead_maps

    def counting(*args):
        calls.append(1)
        return numbas(*args)

    monkeypatch.setattr(analysis, "compute_dead_maps", counting)
    _final_ir(_branches_and_loops, _FUNCTIONS[0][1])
    assert len(calls) == 1
    calls.clear()
    monkeypatch.setattr(loop_compiler, "_post_process_lazily", loop_compiler._numba_post_process)
    _final_ir(_branches_and_loops, _FUNCTIONS[0][1])
    assert len(calls) > 1


def test_compiled_functions_still_compute(monkeypatch):
    a = np.array([1, 3, 2, 5, 3, 7], np.int64)
    for py_func, args in ((_branches_and_loops, (a, 40)), (_straight, (7, 11)), (_sum_of, (30,))):
        assert numba_njit(pipeline_class=loop_compiler.LoopCompiler)(py_func)(*args) == py_func(*args)
    assert loop_compiler.PostProcessor.run is loop_compiler._numba_post_process   # put back after


def test_label_set_is_numbas_list():
    """_LabelSet reads as numba's sorted list and answers `in` the same, for every offset."""
    for fn in (decoder.decode, run.run_loop):          # a few labels, thousands
        labels = ByteCode(FunctionIdentity.from_function(fn.py_func)).labels
        fast = loop_compiler._LabelSet(labels)
        assert list(fast) == labels and len(labels) > 5
        for offset in range(max(labels) + 4):
            assert (offset in fast) == (offset in labels)


def test_loop_live_map_is_numbas():
    """The loop's pipeline computes variable lifetimes with bit masks (loop_compiler._live_map):
    the same sets as numba's compute_live_map, on functions with loops, early exits and many
    branches."""
    for fn in (decoder.decode, decoder.imm_of, exec_vstruct.vstruct_multiple, run.run_loop):
        blocks = compiler.run_frontend(fn.py_func).blocks
        lifetimes = VariableLifetime(blocks)
        args = (lifetimes.cfg, blocks, lifetimes.usedefs.usemap, lifetimes.usedefs.defmap)
        expected = analysis.compute_live_map(*args)
        assert any(expected.values()), fn
        assert loop_compiler._live_map(*args) == expected, fn
