"""arm64/cpu/lean_lowering.py: the loop's leaner lowering gives numba's results.

Each function is compiled twice, by numba's own pipeline and by the loop's
(loop_compiler.LoopCompiler, which lowers with LeanLower), and both run on the same
random inputs."""
import re

import numpy as np
import pytest
from numba import njit as numba_njit
from numba.core import types
from numba.core.compiler import Compiler
from numba.core.runtime import _nrt_python as nrt, rtsys
from numba.core.typed_passes import NativeLowering

from ncpu.arm64.cpu import lean_lowering
from ncpu.arm64.cpu.exec_int import add_sub_imm, bitfield, cond_compare, logic_reg
from ncpu.arm64.cpu.loop_compiler import LoopCompiler


class _LoopPipelineNumbasLowering(LoopCompiler):
    """The loop's pipeline with numba's own lowering pass: what LeanLower must not change."""

    def define_pipelines(self):
        [pm] = super().define_pipelines()
        pm.passes = [(NativeLowering if p is lean_lowering.LeanNativeLowering else p, d) for p, d in pm.passes]
        pm.finalize()
        return [pm]


def _elements(a1, a2, u8, b, f, i, j, v):
    """Single elements read and written: negative and unsigned indices, 1-D and 2-D arrays,
    a value cast on store (int64 into uint8 and bool), floats."""
    a1[i] = v
    a1[-1] = a1[i] + 1
    a2[i, j] = a1[-2]
    a2[-1, -1] = a2[i, j] * 2
    u8[i] = v
    b[j] = v & 1
    f[i] = f[j] * 0.5 + v
    k = np.uint64(i if i >= 0 else -i)
    a1[k] = a1[k] + 3
    t = (i, j)
    a2[t] = a2[t] - 1
    s = 0
    for n in range(a1.shape[0]):
        s += a1[n] + a2[n % a2.shape[0], n % a2.shape[1]] + u8[n] + b[n % b.shape[0]]
    return s, f[i]


def _arrays_made_and_dropped(n):
    """Arrays (reference counted) made in a loop, each freed at its end of life or when its
    variable is assigned again (`b`, assigned in two places, lives in a stack slot)."""
    total = 0.0
    b = np.zeros(2)
    for k in range(n):
        a = np.full(4, k, np.float64)
        if k % 3:
            b = np.ones(2)
        else:
            b = np.full(2, k, np.float64)
        total += a[k % 4] + b[k % 2]
    return total


def _both(py_func):
    return numba_njit(py_func), numba_njit(pipeline_class=LoopCompiler)(py_func)


def _optimised_ir(dispatcher) -> str:
    """The final LLVM IR of the function's one compile, numbers (value names, ids) left out."""
    [ir_text] = dispatcher.inspect_llvm().values()
    return "\n".join(re.sub(r"[0-9]+", "N", line) for line in ir_text.splitlines() if not line.startswith(";"))


_BLOCK_LABEL = re.compile(r'^("[^"]*"|[-\w$.]+):')
_NAME_REF = re.compile(r'%("[^"]*"|[-\w$.]+)')
_PHI_INCOMING = re.compile(r"\[ [^\[\]]*?, %[-\w$.]+ \]")


def _block_name(k: int) -> str:
    """A block's new name from its place in the walk, in letters (numbers are left out later)."""
    name = ""
    while True:
        name, k = chr(ord("a") + k % 26) + name, k // 26
        if not k:
            return "blk_" + name


def _in_cfg_order(define: list[str]) -> list[str]:
    """One function's blocks in depth-first order from its entry, renamed by that order, each
    phi's incoming pairs sorted: what is left is the control-flow graph and each block's code."""
    blocks: dict[str, list[str]] = {}
    name = "<entry>"
    for line in define[1:-1]:
        label = _BLOCK_LABEL.match(line)
        if label:
            name = label.group(1)
        blocks.setdefault(name, [])
        if line.strip() and not label:
            blocks[name].append(line)

    def successors(block):
        terminator = blocks[block][-1:]
        while len(terminator) < len(blocks[block]) and terminator[0].startswith("    "):
            terminator.insert(0, blocks[block][-len(terminator) - 1])       # a switch's cases
        return [t for line in terminator for t in re.findall(r'label %("[^"]*"|[-\w$.]+)', line)]

    walk, todo = [], [next(iter(blocks))]
    while todo:
        block = todo.pop()
        if block not in walk:
            walk.append(block)
            todo.extend(reversed(successors(block)))
    walk += [b for b in blocks if b not in walk]
    new = {b: _block_name(k) for k, b in enumerate(walk)}
    out = [re.sub(r"[0-9]+", "N", define[0])]
    for block in walk:
        out.append(new[block] + ":")
        for line in blocks[block]:
            line = _NAME_REF.sub(lambda m: "%" + new.get(m.group(1), m.group(1)), line)
            line = re.sub(r"[0-9]+", "N", line)
            if " = phi " in line:
                line = line[:line.index("[")] + ", ".join(sorted(_PHI_INCOMING.findall(line)))
            out.append(line)
    return out + [define[-1]]


def _optimised_cfg(dispatcher) -> str:
    """_optimised_ir with each function's blocks compared as a graph: where they lie in the
    function, what they are called and the order of a phi's incoming pairs are left out."""
    [ir_text] = dispatcher.inspect_llvm().values()
    out, define = [], None
    for line in ir_text.splitlines():
        if define is not None:
            define.append(line)
            if line == "}":
                out += _in_cfg_order(define)
                define = None
        elif line.startswith("define "):
            define = [line]
        elif not line.startswith(";"):
            out.append(re.sub(r"[0-9]+", "N", line))
    return "\n".join(out)


_PIPELINES = [(LoopCompiler, _LoopPipelineNumbasLowering),     # the loop's
               (lean_lowering.LeanCompiler, Compiler)]            # every other CPU function's


@pytest.mark.parametrize("pipelines", _PIPELINES, ids=["loop", "cpu"])
@pytest.mark.parametrize("py_func", [_elements, _arrays_made_and_dropped])
def test_llvm_makes_the_same_code_of_it(py_func, pipelines):
    """Less IR in, the same IR out of LLVM's passes: the changes cost the code nothing."""
    ours, numbas = (numba_njit(pipeline_class=p)(py_func) for p in pipelines)
    args = (np.zeros(8, np.int64), np.zeros((8, 5), np.int64), np.zeros(8, np.uint8), np.zeros(3, np.bool_),
            np.zeros(8), 1, 2, 3) if py_func is _elements else (5,)
    assert ours(*args) == numbas(*args)
    assert _optimised_ir(ours) == _optimised_ir(numbas)


@pytest.mark.parametrize("family", [add_sub_imm, bitfield, cond_compare, logic_reg])
def test_cpu_families_compile_to_the_same_code(family):
    """Executor families of the CPU (what the loop copies and the cold groups call), for the
    argument types the loop gives them: (op, w, imm, pc, R, st, a, b, c, d)."""
    row = types.Array(types.int64, 1, "C")
    sig = (types.int64,) * 4 + (row, row) + (types.int64,) * 4
    ours = numba_njit(pipeline_class=lean_lowering.LeanCompiler)(family.py_func)
    numbas = numba_njit(pipeline_class=Compiler)(family.py_func)
    ours.compile(sig)
    numbas.compile(sig)
    assert _optimised_ir(ours) == _optimised_ir(numbas)


def test_elements_read_and_written_as_numba_does(monkeypatch):
    lean_sites = []
    element_pointer = lean_lowering.LeanLower._element_pointer

    def counting(self, *args):
        ptr = element_pointer(self, *args)
        if ptr is not None:
            lean_sites.append(args[0])
        return ptr

    monkeypatch.setattr(lean_lowering.LeanLower, "_element_pointer", counting)
    reference, loop = _both(_elements)
    rng = np.random.default_rng(7)
    for _ in range(300):
        n = 8
        arrays = (rng.integers(-2**40, 2**40, n), rng.integers(-9, 9, (n, 5)), rng.integers(0, 255, n).astype(np.uint8),
                  rng.integers(0, 2, 3).astype(np.bool_), rng.standard_normal(n))
        i, j = int(rng.integers(-n + 1, n)), int(rng.integers(-3, 3))
        v = int(rng.integers(-2**63, 2**63 - 1))
        ours = tuple(a.copy() for a in arrays)
        theirs = tuple(a.copy() for a in arrays)
        assert loop(*ours, i, j, v) == reference(*theirs, i, j, v)
        for x, y in zip(ours, theirs):
            assert np.array_equal(x, y)
    assert lean_sites, "the loop's lowering did not take its own path"


def test_reference_counted_values_still_released():
    reference, loop = _both(_arrays_made_and_dropped)
    assert loop(10) == reference(10)
    was_on = nrt.memsys_stats_enabled()
    nrt.memsys_enable_stats()
    try:
        before = rtsys.get_allocation_stats()
        assert loop(1000) == reference(1000)
        after = rtsys.get_allocation_stats()
    finally:
        if not was_on:
            nrt.memsys_disable_stats()
    assert after.alloc - before.alloc >= 4000
    assert after.alloc - before.alloc == after.free - before.free


@pytest.mark.parametrize("index, value", [(0, 5), (-1, -7), (3, 2**40)])
def test_scalar_store_and_load_in_a_loop(index, value):
    def body(a, index, value):
        for k in range(3):
            a[index] = a[index] + value
            value = value * 2
        return a[index]
    reference, loop = _both(body)
    a, b = np.arange(4, dtype=np.int64), np.arange(4, dtype=np.int64)
    assert loop(a, index, value) == reference(b, index, value)
    assert np.array_equal(a, b)


@pytest.mark.slow
def test_the_loop_compiles_to_the_same_code_as_with_numbas_lowering():
    """The claim of lean_lowering.py on the loop itself (two compiles of it, about a minute)."""
    import struct

    from ncpu.arm64.cpu import Cpu, CpuState, Memory
    from ncpu.arm64.cpu.jit import njit
    from ncpu.arm64.cpu.run import run_loop

    mem = Memory()
    mem.map(0x10000, 0x1000, 5)
    mem.write(0x10000, struct.pack("<I", 0xD4000001))     # svc #0
    state = CpuState()
    state.pc = 0x10000
    Cpu(mem, state).run(10)                                 # the loop's argument types
    [sig] = run_loop.signatures
    ours = njit(pipeline_class=LoopCompiler)(run_loop.py_func)
    numbas = njit(pipeline_class=_LoopPipelineNumbasLowering)(run_loop.py_func)
    ours.compile(sig)
    numbas.compile(sig)
    assert _optimised_cfg(ours) == _optimised_cfg(numbas)


class _IR:
    """A dispatcher's stand-in for _optimised_cfg: one compile's IR text."""

    def __init__(self, text):
        self.text = text

    def inspect_llvm(self):
        return {"sig": self.text}


_DIAMOND = """define i64 @f(i64 %a) {
entry:
  %c = icmp slt i64 %a, 0
  br i1 %c, label %B1.if, label %B1.endif

B1.if:                                  ; preds = %entry
  %n = sub i64 0, %a
  br label %B1.endif

B1.endif:                               ; preds = %B1.if, %entry
  %r = phi i64 [ %n, %B1.if ], [ %a, %entry ]
  ret i64 %r
}"""


def test_the_graph_comparison_leaves_out_only_block_places_names_and_phi_order():
    """The whole loop is compared as a graph (numba's lowering opens `.if`/`.endif` blocks at
    an element store, LeanLower does not, and LLVM can then leave the same code in a block of
    another name at another place); the comparison must still see any other change."""
    lines = _DIAMOND.splitlines()
    moved = "\n".join(lines[:4] + lines[8:12] + [""] + lines[4:8] + lines[12:])    # endif block first
    renamed = _DIAMOND.replace("B1.if", "B7").replace("[ %n, %B7 ], [ %a, %entry ]", "[ %a, %entry ], [ %n, %B7 ]")
    assert _optimised_cfg(_IR(moved)) == _optimised_cfg(_IR(_DIAMOND)) == _optimised_cfg(_IR(renamed))
    assert _optimised_ir(_IR(moved)) != _optimised_ir(_IR(_DIAMOND))
    for changed in (_DIAMOND.replace("sub i64 0", "add i64 0"),                    # an instruction
                    _DIAMOND.replace("label %B1.if, label %B1.endif", "label %B1.endif, label %B1.if"),
                    _DIAMOND.replace("[ %n, %B1.if ], [ %a, %entry ]", "[ %a, %B1.if ], [ %n, %entry ]")):
        assert _optimised_cfg(_IR(changed)) != _optimised_cfg(_IR(_DIAMOND))


def test_a_slow_path_function_stays_a_call_and_an_ordinary_one_is_inlined():
    """slow_path gives LLVM's noinline (guest_access's slow paths rely on it); the same body
    unmarked is inlined into its caller, so the call is the mark's doing."""
    from ncpu.arm64.cpu.jit import njit

    def body():                  # a new Python function each time: the mark is per function
        def body(x):
            return x * 3 + 1
        return body

    kept = lean_lowering.slow_path(njit(body()))
    inlined = njit(body())

    def caller_of(callee):
        @njit
        def caller(x):
            return callee(x) + callee(x + 1)
        return caller

    for callee, calls in ((kept, 2), (inlined, 0)):
        caller = caller_of(callee)
        assert caller(4) == 13 + 16
        [ir] = caller.inspect_llvm().values()
        caller_ir = ir[ir.index("define ", ir.index("caller")):]
        caller_ir = caller_ir[:caller_ir.index("\n}\n")]
        assert len(re.findall(r"call .*@.*body", caller_ir)) == calls, caller_ir
