"""The executor registry and the hot loop generated from it (rows.py, gen_loop.py).

The loop carries a source-level copy of each family's body per row; these tests
check that the copy is current and that it computes what the family itself
computes when called, on random words and random registers of every row."""
import inspect
import random
import re
import struct

import numpy as np
import pytest

from ncpu.arm64.cpu import Cpu, CpuState, Memory, StopReason
from ncpu.arm64.cpu.stops import R_BRK, R_SVC
from ncpu.arm64.cpu import decode_table as T
from ncpu.arm64.cpu import gen_loop
from ncpu.arm64.cpu.decoder import imm_of, regs_of
from ncpu.arm64.cpu.exec_vmove import vdup
from ncpu.arm64.cpu.rows import EXECUTOR, HOT, OUT_OF_LINE
from ncpu.arm64.cpu.state import DISCARD, NREGS, PC, ZR
from ncpu.arm64.cpu.vregs import vr_views

from arm64cpu_harness import random_word, random_x

CODE = 0x400000


def test_generated_loop_is_current():
    assert gen_loop.main(["--check"]) == 0, "run python -m ncpu.arm64.cpu.gen_loop"


def test_the_generator_runs_after_a_family_is_renamed(tmp_path):
    """run.py and cold_rows name the families they call; a family renamed leaves them stale
    until the generator rewrites them, so the generator must not import them (the package's
    Cpu is imported at first use)."""
    import os
    import shutil
    import subprocess
    import sys
    from pathlib import Path

    import ncpu
    copy = tmp_path / "ncpu"
    shutil.copytree(Path(ncpu.__file__).parent, copy, ignore=shutil.ignore_patterns("__pycache__"))
    exec_mem = copy / "arm64" / "cpu" / "exec_mem.py"
    text = exec_mem.read_text()
    assert "def compare_and_swap_pair(" in text
    exec_mem.write_text(text.replace("def compare_and_swap_pair(", "def cas_pair("))
    env = {**os.environ, "PYTHONPATH": str(tmp_path), "NUMBA_CACHE_DIR": str(tmp_path / "cache")}
    done = subprocess.run([sys.executable, "-m", "ncpu.arm64.cpu.gen_loop"], env=env, cwd=tmp_path,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "def cold_cas_pair(" in (copy / "arm64" / "cpu" / "cold_rows" / "exec_mem.py").read_text()


def test_every_row_has_one_executor():
    """The table names the execute function of every instruction (rows.executes), and the
    loop runs each row either inline (gen_loop.rows) or through cold_rows, once."""
    missing = [e.name for e in T.TABLE if e.name not in EXECUTOR]
    assert missing == []
    assert sorted(gen_loop.rows() + gen_loop.cold_rows(), key=T.BY_NAME_ID.get) == [e.name for e in T.TABLE]
    # the loop runs every row with a family except the SIMD ones (unless registered hot) and the rare ones
    assert gen_loop.rows() == [e.name for e in T.TABLE if e.name in EXECUTOR and (e.cls != "simd" or e.name in HOT)
                               and e.name not in OUT_OF_LINE]
    assert not set(gen_loop.rows()) & set(gen_loop.cold_rows())


def test_rare_scalar_fp_rows_run_out_of_line():
    """Rows registered cold=True are in cold_rows' dispatch, not in the hot loop."""
    assert OUT_OF_LINE and OUT_OF_LINE <= set(gen_loop.cold_rows())
    assert not OUT_OF_LINE & set(gen_loop.rows())


def test_hot_simd_rows_run_in_the_loop():
    assert HOT and HOT <= set(gen_loop.rows())


def test_the_loads_and_stores_of_registers_and_pairs_have_executors():
    names = ["LDST_UI", "LDST_UNSC", "LDST_PRE", "LDST_POST", "LDST_REG", "LDR_LIT",
             "LDSTNP", "LDSTP_POST", "LDSTP_OFF", "LDSTP_PRE"]
    assert [n for n in names if n not in EXECUTOR] == []


def test_register_31_resolves_by_role():
    add_sp = T.BY_NAME["ADD_I"].encode(sf=1, sh=0, imm12=1, rn=31, rd=31)        # add sp, sp, #1
    assert regs_of(T.ADD_I, add_sp) & 0xFFFF == 31 | 31 << 8
    cmp = T.BY_NAME["SUBS_R"].encode(sf=1, shift=0, rm=31, imm6=0, rn=2, rd=31)  # cmp x2, xzr
    packed = regs_of(T.SUBS_R, cmp)
    assert packed & 0xFF == DISCARD and (packed >> 16) & 0xFF == ZR


def test_decoder_imports_no_executor():
    """Layering: table -> decoder -> executors -> loop."""
    import ast
    from pathlib import Path

    from ncpu.arm64.cpu import decoder
    tree = ast.parse(Path(decoder.__file__).read_text())
    imported = [n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module]
    assert not [m for m in imported if m.startswith(("exec_", "run", "cold_rows"))], imported


def test_simd_rows_run_out_of_line():
    """Every SIMD row with a family is in cold_rows' dispatch, none in the hot loop."""
    cold = gen_loop.cold_rows()
    assert cold and all(T.BY_NAME[n].cls == "simd" or n in OUT_OF_LINE for n in cold)
    assert not set(cold) & set(gen_loop.rows())
    assert [e.name for e in T.TABLE if e.cls == "simd" and e.asm and e.name not in EXECUTOR] == []




def test_each_cold_family_has_its_own_function():
    """cold_rows has one function per cold family and the loop sends each cold row to its
    family's, so that a program compiles only the families it runs."""
    from ncpu.arm64.cpu import cold_rows, run
    for name in gen_loop.cold_rows():
        group = cold_rows.group(run.COLD_GROUP[T.BY_NAME_ID[name]])
        assert group.__name__ == "cold_" + EXECUTOR[name].__name__, name
    rare = gen_loop.rare_groups()
    assert len(cold_rows.GROUP_HOMES) == len({EXECUTOR[n] for n in gen_loop.cold_rows()}) + len(rare)
    for name in gen_loop.rows():                    # -1, or the function that runs its rare case
        k = run.COLD_GROUP[T.BY_NAME_ID[name]]
        assert k == -1 if "cold_" + EXECUTOR[name].__name__ not in rare else \
            cold_rows.group(k).__name__ == "cold_" + EXECUTOR[name].__name__, name


def test_rare_cases_run_out_of_the_loop():
    """The FP families' rare cases (NaN operands, single precision: rows.rare) are not in the
    loop: its copies call their family's cold_rows function by its address instead."""
    from ncpu.arm64.cpu import run
    from ncpu.arm64.cpu.rows import RARE
    source = inspect.getsource(run)
    assert {"_arith_rare", "_unary", "_fma_rare", "_compare_rare"} <= set(RARE)
    assert not [name for name in RARE if re.search(rf"\b{name}\(", source)]
    assert set(gen_loop.rare_groups()) == {"cold_fp_arith", "cold_fsqrt", "cold_fp_fma", "cold_fcmp"}
    k = run.COLD_GROUP[T.BY_NAME_ID["FADD_S"]]
    code, _ = gen_loop._row_code("FADD_S", {"cold_fp_arith": k})
    assert code.splitlines()[-4:] == [f"elif fp[{k}]:",
                                      f"    pc = call_at(fp[{k}], op, w, imm, pc, R, V, st, rg, mp, steps)",
                                      "else:", f"    pc = unresolved(st, {k}, pc)"]
    assert "_arith_rare" in gen_loop._row_code("FADD_S")[0]          # native code calls it


@pytest.mark.parametrize("before", ["R[2] = x", "if x:\n    R[2] = x", "store(m, st, x, 8, x)"])
def test_a_rare_case_only_before_anything_changed(before):
    """The instruction runs again, whole, out of line: the loop's copy may not have changed
    anything before it leaves (gen_loop._leave_for_rare refuses the family)."""
    import ast
    body = ast.parse(f"x = R[1]\n{before}\n_arith_rare(op, w, R, V)\nreturn pc + 4").body
    with pytest.raises(ValueError, match="before _arith_rare"):
        gen_loop._leave_for_rare("FADD_S", body, {"cold_fp_arith": 62})
    fine = ast.parse("x = R[1]\nif x:\n    R[2] = x\n    return pc + 4\n_arith_rare(op, w, R, V)\nreturn pc + 4").body
    assert ast.unparse(gen_loop._leave_for_rare("FADD_S", fine, {"cold_fp_arith": 62})[-1]) == "return unresolved(st, 62, pc)"


def _compiled_ir(py_func) -> str:
    """py_func compiled here (not loaded from a cache) for the signature the loop calls
    cold_rows' functions with; its LLVM IR."""
    from ncpu.arm64.cpu import entries, jit
    mem = Memory()
    cpu = Cpu(mem, CpuState())
    s = cpu.state
    sig = entries.group_signature(entries.loop_types(s.regs, vr_views(s.v), cpu._st, mem.arrays()))
    return jit.njit(py_func).compile_native(sig).library.get_llvm_str()


def _cold_vdup_elsewhere(op, w, imm, pc, R, V, st, rg, mp, steps):
    return vdup(op, w, imm, pc, R, V, st, rg & 0xFF, (rg >> 8) & 0xFF, (rg >> 16) & 0xFF, rg >> 24)


def test_a_cold_family_is_compiled_inside_its_function():
    """numba inlines a cold family into its cold_rows function (rows.INLINE_INTO): the
    family's code is compiled there, not also as a function of its own that it calls.  The
    same call from any other module stays a call."""
    from ncpu.arm64.cpu.cold_rows.exec_vmove import cold_vdup
    family = "10exec_vmove4vdup"                    # exec_vmove.vdup, as numba mangles it
    inlined = _compiled_ir(cold_vdup.py_func)
    assert "9cold_vdup" in inlined and family not in inlined
    assert family in _compiled_ir(_cold_vdup_elsewhere)



DATA = 0x10000000       # a mapped data page, so that loads and stores mostly reach memory


def _machine(rng, w):
    mem = Memory()
    mem.map(CODE, 0x1000, 5)
    mem.write(CODE, struct.pack("<I", w))
    mem.map(DATA, 0x2000, 3)
    mem.write(DATA, rng.randbytes(0x2000))
    state = CpuState()
    for r in range(31):             # half the registers point into the data pages
        state.x[r] = DATA + rng.randrange(-64, 0x2040) if rng.random() < 0.5 else random_x(rng)
    state.sp = (DATA + rng.randrange(0, 0x2000)) & ~15
    state.nzcv = rng.getrandbits(4)
    state.pc = CODE
    state.v[:] = np.frombuffer(rng.randbytes(512), np.uint64).reshape(32, 2)
    return mem, state


@pytest.mark.parametrize("name", gen_loop.rows() + sorted(OUT_OF_LINE))
def test_loop_matches_family(name):
    """One instruction through Cpu.run (the generated copy, or for a cold row the call
    from cold_rows) against a direct call of its family on a copy of the machine:
    registers, vector registers, memory, and the stop (SVC retires, BRK and faults do not)."""
    rng = random.Random(name)
    e = T.BY_NAME[name]
    op = T.BY_NAME_ID[name]
    family = EXECUTOR[name]
    params = inspect.signature(family.py_func).parameters
    for _ in range(60):
        w = random_word(rng, e)
        if w is None:
            continue
        mem, state = _machine(rng, w)
        mem2, state2 = _machine(random.Random(0), w)
        mem2.write(DATA, mem.read(DATA, 0x2000))
        state2.regs[:], state2.v[:] = state.regs, state.v
        expected = state2.regs
        st = np.zeros(4, np.int64)
        packed = regs_of(op, w)
        args = dict(op=op, w=w, imm=imm_of(op, w), pc=CODE, R=expected, V=vr_views(state2.v), m=mem2.arrays(),
                    st=st, steps=0, **{k: packed >> (8 * i) & 0xFF for i, k in enumerate("abcd")})
        next_pc = family(*(args[p] for p in params))
        expected[PC] = next_pc
        stop = Cpu(mem, state).run(1)
        if st[0] == R_SVC:                          # a system call: retired, the loop stops after it
            assert stop.reason is StopReason.SVC and stop.steps == 1
        elif st[0]:                                 # BRK or a fault: same stop, nothing retired
            assert stop.reason is (StopReason.BRK if st[0] == R_BRK else StopReason.FAULT) and stop.steps == 0
            continue
        got = state.regs.copy()
        got[DISCARD] = expected[DISCARD] = 0        # write-only slot
        assert stop.steps == 1 or stop.reason is StopReason.FAULT   # a jump outside the mapped page
        assert got[:NREGS].tolist() == expected[:NREGS].tolist(), f"{name} {w:#010x}"
        assert state.v.tolist() == state2.v.tolist(), f"{name} {w:#010x}: vector registers"
        assert mem.read(DATA, 0x2000) == mem2.read(DATA, 0x2000), f"{name} {w:#010x}: memory"


def test_cold_rows_imports_a_module_when_one_of_its_functions_is_first_asked_for():
    """A process imports only the cold_rows modules of the families it runs (a fresh process:
    this one has imported them all)."""
    import subprocess
    import sys

    probe = ("import sys\nfrom ncpu.arm64.cpu import cold_rows\n"
             "loaded = lambda: sorted(m for m in sys.modules if m.startswith('ncpu.arm64.cpu.cold_rows.'))\n"
             "print(loaded())\nprint(cold_rows.group(0).__name__, cold_rows.GROUP_HOMES[0])\nprint(loaded())\n")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    assert out.splitlines() == ["[]", "cold_supervisor_call ('exec_int', 'cold_supervisor_call')",
                                "['ncpu.arm64.cpu.cold_rows.exec_int']"]
