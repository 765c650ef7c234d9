"""Native code for hot pages (native.py) against the interpreter it stands in for.

The page functions run the same row code as the loop, so what can go wrong is
the assembly around it: entry by the switch, straight runs and branches
between slots, the budget (counts must stay exact), a fault leaving the
instruction unretired, a store into the page itself.  Each test runs the same
program with translation and without and compares the whole outcome, and
checks that native code did run (marked slots), so that a translator that
gave up could not pass.
"""
import random
import struct

import pytest

import arm64cpu_harness as H
import arm64cpu_sequences as S
from ncpu.arm64.cpu import Cpu, CpuState, Memory, StopReason, native
from ncpu.arm64.cpu.memory import MARK_BASE
from ncpu.arm64.cpu.vregs import vr_views

import unicorn  # noqa: F401  (the sequences' harness needs it)

BASE = 0x10000
TIGHT = [0xD2800000, 0xD2800022,            # mov x0, #0; mov x2, #1
         0x91000C00, 0xCB020000, 0xCA000043,  # loop: add x0, x0, #3; sub x0, x0, x2; eor x3, x2, x0
         0xF1000421, 0x54FFFF81,              # subs x1, x1, #1; b.ne loop
         0xD4000001]                          # svc #0
# the loop stores w5 on every iteration: into the next page, and when x1 == x7 into its own first
# instruction (add x0, x0, #3 -> add x0, x0, #5), from native code, the store's slot translated
PATCHING = [0xD2800000, 0xD2800022,
            0x91000C00, 0xCB020000, 0xEB07003F,   # loop: add x0, x0, #3; sub x0, x0, x2; cmp x1, x7
            0x9A8C0166, 0xB90000C5,               # csel x6, x11, x12, eq; str w5, [x6]
            0xF1000421, 0x54FFFF41,               # subs x1, x1, #1; b.ne loop
            0xD4000001]
ADD5 = 0x91001400


@pytest.fixture(autouse=True)
def unlimited_builds(monkeypatch):
    """These tests translate on purpose, in a process that does little else: the share of CPU
    time that building may take (native.may_translate) would stop them at random."""
    monkeypatch.setattr(native, "BUILD_FREE", float("inf"))


@pytest.fixture
def threshold():
    """Set native.py's threshold for the test (restored after)."""
    before = native.threshold()
    yield native.set_threshold
    native.set_threshold(before)


def _run(words, x, budget, prot=5):
    mem = Memory()
    mem.map(BASE, 0x2000, prot)
    mem.write(BASE, b"".join(struct.pack("<I", w) for w in words))
    s = CpuState()
    s.pc = BASE
    for k, v in x.items():
        s.x[k] = v
    cpu = Cpu(mem, s)
    stop = cpu.run(budget)
    marked = int((mem.arrays().dc_op <= MARK_BASE).sum())
    return (stop.reason, stop.steps, s.pc, [int(v) for v in s.x[:8]], s.nzcv), marked


def _machine(words):
    """A memory with `words` at BASE (a read-execute page), a CPU state and a CPU on them."""
    mem = Memory()
    mem.map(BASE, 0x1000, 5)
    mem.write(BASE, b"".join(struct.pack("<I", w) for w in words))
    s = CpuState()
    return mem, s, Cpu(mem, s)


# a loop on one page calling a function on the next: native code of one page goes on to the
# other's by a tail call (native.build's leave block), and the count must stay exact
CALLING = ([0xD2800000, 0xD2800022,             # mov x0, #0; mov x2, #1
            0x940003FE,                           # loop: bl func (BASE + 0x1000)
            0xF1000421, 0x54FFFFC1,               # subs x1, x1, #1; b.ne loop
            0xD4000001] + [0] * (1024 - 6) +      # svc #0
           [0x91000C00, 0xCA000043, 0xD65F03C0])  # func: add x0, x0, #3; eor x3, x2, x0; ret


@pytest.mark.parametrize("budget", [300_017, 1_000_003, 10**7])
@pytest.mark.parametrize("words,slots", [(TIGHT, 5), (CALLING, 6)], ids=["tight_loop", "call_to_next_page"])
def test_same_state_and_count(threshold, words, slots, budget):
    """The tight loop (its five slots), and the loop whose call goes on to another page's
    native code (the slots of both pages), at three budgets: exact state and count."""
    x = {1: 1_000_000}
    threshold(0)
    interpreted, _ = _run(words, x, budget)
    threshold(1000)
    translated, marked = _run(words, x, budget)
    assert marked >= slots                              # they ran as native code
    assert translated == interpreted


def test_stop_counts_native_instructions_and_entries(threshold):
    """Stop.native and Stop.entered say how much of a run was native code: none interpreted, all
    but the first iterations (the heat threshold, the sampling) once translated, entered a few
    times (the sampler's slices and the translation), not once an iteration."""
    threshold(0)
    mem = Memory()
    mem.map(BASE, 0x1000, 5)
    mem.write(BASE, b"".join(struct.pack("<I", w) for w in TIGHT))
    s = CpuState()
    s.pc, s.x[1] = BASE, 1_000_000
    stop = Cpu(mem, s).run(10**7)
    assert stop.native == stop.entered == 0
    threshold(1000)
    mem.write(BASE, b"".join(struct.pack("<I", w) for w in TIGHT))     # a fresh decode row
    s.pc, s.x[1] = BASE, 1_000_000
    stop = Cpu(mem, s).run(10**7)
    assert stop.steps == 5 * 1_000_000 + 3
    assert 0.9 * stop.steps < stop.native < stop.steps
    assert 0 < stop.entered < 1000


# CALLING with its function in two straight runs (add, b; eor, ret), which two rounds of
# translation put into two functions of one page: the newer one holds the ret
SPLIT = CALLING[:1024] + [0x91000C00, 0x14000001, 0xCA000043, 0xD65F03C0]


def test_a_newer_function_goes_on_to_native_code_on_another_page(threshold):
    """A page's newer function leaving for another page goes on to the native code there, as
    the oldest does (native.build's leave block): before, it passed the pc to the older
    function, which left having retired nothing itself and so returned to the loop, once an
    iteration here (arm64_bench's qsort comparator: 26 M times a run)."""
    threshold(0)
    n = 100_000
    interpreted, _ = _run(SPLIT, {1: n}, 10**7)
    mem = Memory()
    mem.map(BASE, 0x2000, 5)
    mem.write(BASE, b"".join(struct.pack("<I", w) for w in SPLIT))
    s = CpuState()
    s.pc, s.x[1] = BASE, 3
    cpu = Cpu(mem, s)
    cpu.run(100)                                              # every slot decoded
    func = BASE + 0x1000
    for pcs in ([BASE + 8, BASE + 12, BASE + 16, func], [func + 8]):     # two rounds
        native.translate(mem, pcs * native.Sampler.MIN_SAMPLES, s.regs, vr_views(s.v), cpu._st)
    assert native._chains[mem][func >> 12].depth == 2
    s.pc, s.x[0], s.x[1], s.x[2], s.x[3] = BASE, 0, n, 0, 0
    stop = cpu.run(10**7)
    assert (stop.reason, stop.steps, s.pc, [int(v) for v in s.x[:8]], s.nzcv) == interpreted
    assert stop.native > 0.99 * stop.steps
    assert stop.entered < 10                                  # not once an iteration


def test_gaps_between_translated_runs_are_filled():
    """native.between: decoded slots on a path from translated slots back to them (the return
    site of a call, the tail of a loop the sampler missed), at most MAX_GAP long; not code that
    leads elsewhere."""
    row = lambda name, imm=0: (name, 0, 0, imm, 0)          # noqa: E731
    slots = {0: row("ADD_I"), 1: row("ADD_I"), 2: row("BL", 0x4000),   # loop: a call, then
             3: row("ADD_I"), 4: row("B_COND", -16),                    # its return site, back
             5: row("RET")}                                             # after the loop: left
    assert native.between(slots, {0, 1, 2}) == {3, 4}
    slots = {i: row("ADD_I") for i in range(2 + native.MAX_GAP)}       # a tail longer than MAX_GAP
    slots[2 + native.MAX_GAP] = row("B_COND", -4 * (2 + native.MAX_GAP))
    assert native.between(slots, {0, 1}) == set()
    slots[2 + native.MAX_GAP] = row("B_COND", -4 * native.MAX_GAP)     # back into the tail only
    assert native.between(slots, {0, 1}) == set()


def test_page_functions_are_named_for_perf(threshold, monkeypatch, tmp_path):
    """With NCPU_PERF_MAP set, each page function loaded (compiled or from the cache) gets a
    `START SIZE NAME` line in perf's map for this process: the address the loop calls, the
    function's size from its object file; without it, nothing is written."""
    from ncpu.arm64.cpu import perf_map
    from ncpu.arm64.cpu.memory import DC_NAT

    where = tmp_path / "perf.map"
    monkeypatch.setattr(perf_map, "path", lambda: where)
    threshold(1000)
    for setting in ("", "1"):
        monkeypatch.setenv("NCPU_PERF_MAP", setting)
        native.forget_loaded()                  # loaded again, not reused: _load_object runs
        mem = Memory()
        mem.map(BASE, 0x1000, 5)
        mem.write(BASE, b"".join(struct.pack("<I", w) for w in TIGHT))
        s = CpuState()
        s.pc, s.x[1] = BASE, 200_000
        assert Cpu(mem, s).run(10**7).native > 0
        assert where.exists() == (setting == "1")
    [line] = where.read_text().splitlines()
    start, size, name = line.split()
    m = mem.arrays()
    assert int(start, 16) == m.dc_nat[m.dc_row[BASE >> 12], DC_NAT]
    assert int(size, 16) > 0 and name.startswith("ncpu_page_")


def test_no_translation_past_the_build_share(threshold, monkeypatch):
    """Once building took more than BUILD_SHARE of the process's CPU time, hot pages stay
    interpreted (with the same outcome)."""
    threshold(0)
    interpreted, _ = _run(TIGHT, {1: 200_000}, 10**7)
    threshold(1000)
    monkeypatch.setattr(native, "BUILD_SHARE", 0.0)
    monkeypatch.setattr(native, "BUILD_FREE", 0.0)
    monkeypatch.setattr(native, "_build_cpu", 1e-9)
    assert not native.may_translate()
    translated, marked = _run(TIGHT, {1: 200_000}, 10**7)
    assert marked == 0 and translated == interpreted


def test_row_functions_compile_within_the_build_limit(monkeypatch):
    """Compiling a row function a page needs counts toward the build limit, and past the limit
    it is not compiled: the build is given up (native._OverBudget), for a later run."""
    from numba import types
    from ncpu.arm64.cpu.jit import njit

    def row(a):
        return a * 3 + 1

    fresh, sig = njit(row), types.int64(types.int64)
    monkeypatch.setattr(native, "BUILD_FREE", 0.0)
    monkeypatch.setattr(native, "BUILD_SHARE", 0.0)
    monkeypatch.setattr(native, "_build_cpu", 1e-9)
    with pytest.raises(native._OverBudget):
        native._compiled(fresh, sig)
    assert sig.args not in fresh.overloads
    monkeypatch.setattr(native, "BUILD_FREE", float("inf"))
    assert native._compiled(fresh, sig) is fresh.overloads[sig.args]
    assert native._build_cpu > 1e-9                          # its compile was counted


@pytest.mark.parametrize("value, expected", [("", (1.5, 0.5)), ("inf,0", (float("inf"), 0.0)),
                                             (" 2.5,0.1 ", (2.5, 0.1))])
def test_build_budget_from_the_environment(monkeypatch, value, expected):
    """$NCPU_NATIVE_BUDGET, when set, instead of BUILD_FREE and BUILD_SHARE."""
    monkeypatch.setattr(native, "BUILD_FREE", 1.5)
    monkeypatch.setattr(native, "BUILD_SHARE", 0.5)
    monkeypatch.setenv("NCPU_NATIVE_BUDGET", value)
    assert native.build_budget() == expected


@pytest.mark.parametrize("value, expected", [("", native.ON_THRESHOLD), ("on", native.ON_THRESHOLD),
                                             ("off", 0), ("0", 0), ("no", 0), ("5000", 5000)])
def test_native_is_on_unless_the_environment_says_off(monkeypatch, value, expected):
    monkeypatch.setattr(native, "_override", None)
    monkeypatch.setenv("NCPU_NATIVE", value)
    assert native.threshold() == expected


def test_same_code_in_another_decode_row_is_reused(threshold):
    """A page function does not depend on the page's decode row (it reads it when it runs), so
    the same code, first entered after another page, is the function already compiled."""
    threshold(1000)
    first, _ = _run(TIGHT, {1: 200_000}, 10**7)
    mem = Memory()
    mem.map(BASE, 0x2000, 5)
    mem.write(BASE, b"".join(struct.pack("<I", w) for w in TIGHT))
    mem.map(BASE + 0x10000, 0x1000, 5)
    mem.write(BASE + 0x10000, struct.pack("<I", 0xD4000001))      # svc #0: decoded first, row 0
    s = CpuState()
    s.pc = BASE + 0x10000
    cpu = Cpu(mem, s)
    cpu.run(10)
    s.pc, s.x[1] = BASE, 200_000
    stop = cpu.run(10**7)
    assert int(mem.arrays().dc_row[BASE >> 12]) == 1                 # another row than in the first run
    assert "reused" in native.last_build_phases()
    assert (stop.reason, stop.steps, s.pc, [int(v) for v in s.x[:8]], s.nzcv) == first


def test_store_into_the_running_page(threshold):
    n, switch = 400_000, 100_000
    x = {1: n, 7: switch, 5: ADD5, 11: BASE + 8, 12: BASE + 0x1000}
    threshold(0)
    interpreted, _ = _run(PATCHING, x, 10**8, prot=7)
    threshold(1000)
    translated, _ = _run(PATCHING, x, 10**8, prot=7)
    assert interpreted[3][0] == 2 * (n - switch + 1) + 4 * (switch - 1)
    assert translated == interpreted


def test_hot_page_is_translated_after_sampling(threshold):
    threshold(1000)
    _, marked = _run(TIGHT, {1: 200_000}, 10**7)
    assert marked >= 5
    threshold(0)
    _, marked = _run(TIGHT, {1: 200_000}, 10**7)
    assert marked == 0


# a load and a store per iteration: x2 walks through DATA_SIZE bytes of data and then off the
# mapping (a fault inside the straight run), x4 + 8 is written every time
WALK = [0xF8408443, 0x8B030000, 0xF9000480,   # loop: ldr x3, [x2], #8; add x0, x0, x3; str x0, [x4, #8]
        0xF1000421, 0x54FFFF81,               # subs x1, x1, #1; b.ne loop
        0xD4000001]                           # svc #0
DATA, DATA_SIZE = 0x100000, 0x100000


def _walk(budget):
    """WALK over data whose words are 0, 1, 2, ..."""
    mem = Memory()
    mem.map(BASE, 0x1000, 5)
    mem.write(BASE, b"".join(struct.pack("<I", w) for w in WALK))
    mem.map(DATA, DATA_SIZE, 3)
    # every page written now: a first touch would stop the loop (Cpu.run resolves it) about as
    # often as the sampler's longest slices, which would then never end
    mem.write(DATA, b"".join(struct.pack("<Q", k) for k in range(DATA_SIZE // 8)))
    s = CpuState()
    s.pc = BASE
    s.x[1], s.x[2], s.x[4] = 10**9, DATA, DATA
    stop = Cpu(mem, s).run(budget)
    marked = int((mem.arrays().dc_op <= MARK_BASE).sum())
    return (stop.reason, stop.steps, s.pc, getattr(stop, "address", None), [int(v) for v in s.x[:5]]), marked


def test_loads_and_stores_continue_a_straight_run():
    row = lambda name, imm=0: (name, 0, 0, imm, 0)          # noqa: E731
    slots = {0: row("LDST_POST"), 1: row("ADD_R"), 2: row("LDST_UI"), 3: row("SUBS_I"), 4: row("B_COND", -16)}
    assert native._straight_runs(slots)[0] == 5            # the budget checked once per iteration
    assert native.hot_runs(slots, [2]) == set(range(5))


@pytest.mark.parametrize("budget", [400_003, 10**7])
def test_fault_inside_a_translated_run_leaves_it_unretired(threshold, budget):
    """The load faults at the end of the data: it stays unretired (pc at it, x2 not advanced),
    the count and registers as interpreted."""
    threshold(0)
    interpreted, _ = _walk(budget)
    threshold(1000)
    translated, marked = _walk(budget)
    assert marked >= 5
    assert translated == interpreted
    if budget == 10**7:
        assert interpreted[0] is StopReason.FAULT and interpreted[2] == BASE
        assert interpreted[3] == DATA + DATA_SIZE and interpreted[4][2] == DATA + DATA_SIZE


# a cold row (FMLA by element: Advanced SIMD, out of line in the loop) inside a loop, then SVC
# (cold too, and retired where it stops)
FMLA_LOOP = [0x4FC21820, 0x1E602863,          # loop: fmla v0.2d, v1.2d, v2.d[1]; fadd d3, d3, d0
             0xF1000421, 0x54FFFFA1,          # subs x1, x1, #1; b.ne loop
             0xD4000001]                      # svc #0


def _fmla(translate_first):
    mem, s, cpu = _machine(FMLA_LOOP)

    def start():
        s.pc, s.x[1] = BASE, 1000
        s.v[:] = 0
        s.v[1] = [struct.unpack("<Q", struct.pack("<d", v))[0] for v in (1.5, -0.25)]
        s.v[2] = [struct.unpack("<Q", struct.pack("<d", v))[0] for v in (3.0, 0.5)]
    start()
    stop = cpu.run(10**6)
    marked = 0
    if translate_first:                 # every slot, the cold ones too (they are decoded now)
        native.translate(mem, [BASE + 4 * i for i in range(len(FMLA_LOOP))] * native.Sampler.MIN_SAMPLES,
                         s.regs, vr_views(s.v), cpu._st)
        arrays = mem.arrays()
        ops = arrays.dc_op[int(arrays.dc_row[BASE >> 12])]
        marked = int((ops[:len(FMLA_LOOP)] <= MARK_BASE).sum())
        start()
        stop = cpu.run(10**6)
    return (stop.reason, stop.steps, s.pc, [int(v) for v in s.x[:4]], s.v[:4].tolist()), marked


def test_cold_row_inside_a_translated_run(threshold):
    threshold(0)
    interpreted, _ = _fmla(False)
    translated, marked = _fmla(True)
    assert marked == len(FMLA_LOOP)                     # the FMLA and SVC slots too
    assert interpreted[0] is StopReason.SVC and interpreted[2] == BASE + 4 * 5 and interpreted[1] == 4001
    assert translated == interpreted


@pytest.fixture
def every_slot(monkeypatch):
    """Translate short stretches too (native.worth_translating leaves them to the interpreter):
    the random sequences are straight code cut by branches, what is compared is the code."""
    monkeypatch.setattr(native, "MIN_STRETCH", 1)


def test_short_stretches_between_calls_stay_interpreted(monkeypatch):
    monkeypatch.setattr(native, "MIN_STRETCH", 16)          # the default is 1: every run
    row = lambda name, imm=0: (name, 0, 0, imm, 0)          # noqa: E731
    slots = {i: row("ADD_I") for i in range(6)}          # a small function: 6 instructions, ret
    slots[6] = row("RET")
    slots.update({i: row("ADD_I") for i in range(10, 13)})    # a loop: b.cond back 3 slots
    slots[13] = row("B_COND", -12)
    slots[14] = row("RET")                                  # after the loop
    slots.update({i: row("LDST_UI") for i in range(20, 40)})    # 20 instructions, then ret
    slots[40] = row("RET")
    assert native.worth_translating(slots, set(slots)) == set(range(10, 15)) | set(range(20, 41))


def _translated_run(us, case, init, rounds=1):
    """Run `case` interpreted (decoding its slots), translate every decoded slot, run it again.
    With rounds > 1 the slots are sampled in growing prefixes, one translation each, so that
    later functions chain to the earlier ones."""
    S.run_ours(us, case, init)
    n = len(case.words) + 1
    s = us.state
    for k in range(1, rounds + 1):
        pcs = [H.CODE + 4 * i for i in range(n * k // rounds)] * native.Sampler.MIN_SAMPLES
        native.translate(us.mem, pcs, s.regs, vr_views(s.v), us.cpu._st)
    marked = int((us.mem.arrays().dc_op <= MARK_BASE).sum())
    us.mem.write(H.SCRATCH, init)                        # the code stays: its decode row and marks too
    us.set_state(case.xs, case.sp, case.nzcv, case.vs, case.fpcr)
    us.state.regs[37] = -1
    stop = us.cpu.run(len(case.words) + 1)
    us.steps = stop.steps
    end = H.CODE + 4 * len(case.words)
    if stop.reason is not StopReason.BRK or s.pc != end:
        return S.Outcome("stop", s.pc), marked
    regs = [int(v) for v in s.x] + [s.sp, s.pc, s.nzcv << 28, s.fpcr]
    regs += [int(s.v[i, 0]) | int(s.v[i, 1]) << 64 for i in range(32)]
    return S.Outcome("end", end, regs, s.fpsr, us.mem.read(H.SCRATCH, H.SCRATCH_SIZE)), marked


def _compare_random_sequences(n, length, classes, seed, rounds=1):
    rng = random.Random(seed)
    init = bytes(rng.getrandbits(8) for _ in range(H.SCRATCH_SIZE))
    bad, translated = [], 0
    for _ in range(n):
        case = S.random_case(rng, length, classes)
        plain, stops = H.Ours(), []
        run = plain.cpu.run
        plain.cpu.run = lambda budget: stops.append(run(budget)) or stops[-1]    # its count
        interpreted = S.run_ours(plain, case, init)
        us = H.Ours()
        native_outcome, marked = _translated_run(us, case, init, rounds)
        chains = native._chains.get(us.mem, {}).values()
        translated += marked > 0 and (rounds == 1 or max(c.depth for c in chains) > 1)
        diffs = S.differences(interpreted, native_outcome, 0xFFFFFFFF)
        if stops[-1].steps != us.steps:                 # counts are exact (the scheduler relies on them)
            diffs.append(f"steps: interpreted {stops[-1].steps} translated {us.steps}")
        if diffs:
            bad.append(S._describe(case, diffs, len(case.words)))
    return bad, translated


@pytest.mark.parametrize("classes,n", [(("int",), 12), (("mem", "int"), 12), (S.CLASSES, 8)])
def test_random_sequences_same_as_interpreted(threshold, every_slot, classes, n):
    threshold(0)                 # only the explicit translate: the runs are too short to get hot
    bad, translated = _compare_random_sequences(n, 20, classes, seed=sum(map(ord, "".join(classes))))
    assert translated >= n // 2, translated
    assert not bad, "\n".join(bad)


# Rows whose lane arithmetic wraps through the sign bit (swar.py), each with operands that make
# it wrap.  numba marks signed arithmetic `nsw` (overflow undefined); with the row's operands
# constants in a page function, LLVM folded on that assumption and lost bit 63 (row_link.for_linking).
WRAPPING_SIMD = [
    (0x0F31A5AB, 13, (0xE10ED734E10ED734, 0)),                  # sshll v11.2d, v13.2s, #17
    (0x0F1E157B, 11, (0x8000FFFF7FFF0001, 0)),                  # ssra v27.4h, v11.4h, #2
    (0x4F301656, 18, (0x80000000FFFFFFFF, 0x7FFFFFFF00000001)),  # ssra v22.4s, v18.4s, #16
    (0x6EE88E0D, 16, (0x8000000000000000, 0)),                  # cmeq v13.2d, v16.2d, v8.2d
]


@pytest.mark.parametrize("word,src,value", WRAPPING_SIMD, ids=["sshll", "ssra_4h", "ssra_4s", "cmeq"])
def test_lane_arithmetic_wraps_translated_as_interpreted(threshold, every_slot, word, src, value):
    threshold(0)
    rng = random.Random(word)
    init = bytes(rng.getrandbits(8) for _ in range(H.SCRATCH_SIZE))
    case = S.random_case(rng, 1, ("int",))
    case.words = [word]
    case.vs = [(int(rng.getrandbits(64)), int(rng.getrandbits(64))) for _ in range(32)]
    case.vs[src] = value
    interpreted = S.run_ours(H.Ours(), case, init)
    translated, marked = _translated_run(H.Ours(), case, init)
    assert marked >= 1
    assert not S.differences(interpreted, translated, 0xFFFFFFFF)


@pytest.mark.parametrize("classes,n", [(("int",), 12), (("mem", "int"), 12), (("int", "fp"), 8), (("int", "simd"), 8)])
def test_rebuilt_pages_chain_to_their_older_functions(threshold, every_slot, classes, n):
    """A page translated again gets a function of its new runs only, which passes the other
    slots on to the older function (native.translate): the chain must run as interpreted.
    Every class has "int" (its branches): loads, stores, FP and SIMD rows continue a straight
    run, so without branches a sequence is one run, translated whole in the first round."""
    threshold(0)
    bad, chained = _compare_random_sequences(n, 20, classes, seed=7 + len(classes), rounds=3)
    assert chained >= n // 3, chained
    assert not bad, "\n".join(bad)


def test_chains_as_deep_as_allowed_and_rebuilt_past_it(threshold, monkeypatch, tmp_path):
    """A page whose hot runs are found one round at a time: its chain grows by a function a
    round up to native.MAX_DEPTH, then the page is rebuilt as one function and chains again.
    A later run that loads those functions (here: the same process, its loaded functions
    forgotten) rebuilds the page at native.LOADED_DEPTH instead.  Every run afterwards is exact
    (registers and count as interpreted)."""
    monkeypatch.setattr(native, "OBJECT_DIR", str(tmp_path))        # compiled functions kept on disk
    monkeypatch.delenv("NCPU_NATIVE_CACHE", raising=False)
    rounds = 2 * native.MAX_DEPTH + 1
    words = [w for k in range(rounds) for w in (0x91000000 | (k + 1) << 10, 0x14000001)]   # add x0, x0, #k+1; b .+4
    words += [0xF1000421, 0x54000000 | ((-2 * rounds - 1) & 0x7FFFF) << 5 | 1, 0xD4000001]  # subs x1; b.ne top; svc

    def run(translate_in_rounds):
        mem, s, cpu = _machine(words)
        s.pc, s.x[1] = BASE, 1
        cpu.run(10**6)                                      # decoded, interpreted
        depths = []
        for k in range(rounds if translate_in_rounds else 0):
            native.translate(mem, [BASE + 8 * k] * native.Sampler.MIN_SAMPLES, s.regs, vr_views(s.v), cpu._st)
            depths.append(native._chains[mem][BASE >> 12].depth)
        s.pc, s.x[0], s.x[1] = BASE, 0, 1000
        stop = cpu.run(10**7)
        return (stop.reason, stop.steps, s.pc, int(s.x[0])), depths

    def rebuilt_at(depths, deepest):                        # one function a round, then one again
        top = depths.index(deepest)
        return depths[:top + 1] == list(range(1, deepest + 1)) and depths[top + 1] == 1

    threshold(0)
    interpreted, _ = run(False)
    assert interpreted[3] == 1000 * rounds * (rounds + 1) // 2
    native.forget_loaded()
    compiling, depths = run(True)
    assert compiling == interpreted and rebuilt_at(depths, native.MAX_DEPTH), depths
    native.forget_loaded()                                  # as the next process would
    loading, depths = run(True)
    assert loading == interpreted and rebuilt_at(depths, native.LOADED_DEPTH), depths


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(3))
def test_random_sequences_same_as_interpreted_long(threshold, every_slot, seed):
    threshold(0)
    bad, translated = _compare_random_sequences(60, 28, S.CLASSES, seed=500 + seed)
    assert translated >= 30, translated
    assert not bad, "\n".join(bad)


_PROCESS = """
import json, os, struct, sys
from pathlib import Path
from ncpu.arm64.cpu import Cpu, CpuState, Memory, native
native.OBJECT_DIR = sys.argv[1]
if os.environ.get("ROWS_ROOT"):         # the row modules kept here, not in the shared cache
    native.rows_version()
    native._pages_root = Path(os.environ["ROWS_ROOT"])
native.BUILD_FREE = float("inf")
native.set_threshold(1000)
mem = Memory()
mem.map(0x10000, 0x2000, 5)
mem.write(0x10000, b"".join(struct.pack("<I", w) for w in json.loads(sys.argv[2])))
s = CpuState()
s.pc = 0x10000
s.x[1] = 300_000
if len(sys.argv) > 3:                   # data pages, and registers pointing into them
    data, size, xs = json.loads(sys.argv[3])
    mem.map(data, size, 3)
    mem.write(data, bytes(size))
    for k, v in xs.items():
        s.x[int(k)] = v
stop = Cpu(mem, s).run(10**7)
print(json.dumps([stop.steps, s.pc, [int(v) for v in s.x[:8]], sorted(native.last_build_phases()),
                  "ncpu.arm64.cpu.native_rows" in sys.modules]))
"""


def test_page_functions_are_loaded_by_the_next_process(tmp_path):
    """A page function compiled once is kept as an object file and loaded, not compiled, by the
    next process that translates the same code (native.page_key), with the same outcome; that
    process does not import the row functions (native_rows), only what they do (native_facts).
    The rows' modules are kept too (row_link): a process that compiles a page of rows an
    earlier one linked does not import native_rows either.  A damaged file of either kind is
    made again, without a crash."""
    import json
    import os
    import subprocess
    import sys

    objects, rows = tmp_path / "objects", tmp_path / "cache"

    def run():
        out = subprocess.run([sys.executable, "-c", _PROCESS, str(objects), json.dumps(CALLING)],
                             capture_output=True, text=True, check=True, env={**os.environ, "ROWS_ROOT": str(rows)}).stdout
        return json.loads(out.splitlines()[-1])

    def damage(paths):
        for path in paths:
            path.write_bytes(path.read_bytes()[:-100] + b"\0" * 100)

    first = run()
    assert list(objects.glob("*.o"))                        # the pages' objects were written
    kept = sorted(rows.glob("pages_*/rows/*.bc"))
    assert kept                                             # and the rows' modules
    second = run()
    assert "codegen" in first[3] and "loaded" in second[3]  # compiled, then loaded
    assert first[4] and not second[4]                       # the row functions: only to compile
    assert first[:3] == second[:3]
    damage(objects.glob("*.o"))                             # compiled again, from the kept rows
    third = run()
    assert "codegen" in third[3] and third[:3] == first[:3]
    assert not third[4]
    damage(objects.glob("*.o"))
    damage(kept)                                            # the rows made again by numba
    fourth = run()
    assert "codegen" in fourth[3] and fourth[:3] == first[:3] and fourth[4]
    assert sorted(rows.glob("pages_*/rows/*.bc")) == kept
    damage(objects.glob("*.o"))
    assert not run()[4]                                     # and kept whole again
    assert first[1] == 0x10000 + 24 and first[2][0] == 3 * 300_000    # ran to the svc, exactly


# Each iteration's loads and stores cross from one data page into the next: the access that one
# page cannot hold is guest_access's slow path, which a page function calls where it is loaded
# (native._slow_paths) instead of carrying its code.
CROSSING = [0x91000C00, 0xF90000C0, 0xF94000C3,   # loop: add x0, x0, #3; str x0, [x6]; ldr x3, [x6]
            0xCA030042, 0xA90008E0, 0xA94014E4,   # eor x2, x2, x3; stp x0, x2, [x7]; ldp x4, x5, [x7]
            0xF1000421, 0x54FFFF21,               # subs x1, x1, #1; b.ne loop
            0xD4000001]                           # svc #0
CROSSING_DATA = [DATA, 0x2000, {6: DATA + 0x1000 - 4, 7: DATA + 0x1000 - 8}]


def _crossing():
    mem, s, cpu = _machine(CROSSING)
    mem.map(DATA, 0x2000, 3)
    mem.write(DATA, bytes(0x2000))
    s.pc, s.x[1] = BASE, 300_000
    for k, v in CROSSING_DATA[2].items():
        s.x[k] = v
    stop = cpu.run(10**7)
    marked = int((mem.arrays().dc_op <= MARK_BASE).sum())
    return [stop.steps, s.pc, [int(v) for v in s.x[:8]]], marked


def test_accesses_across_pages_in_native_code(threshold, tmp_path):
    """Loads and stores that cross a page run natively as interpreted, in the process that
    compiles the page and in the next one, which loads it and binds the slow paths it calls."""
    import json
    import subprocess
    import sys

    threshold(0)
    interpreted, _ = _crossing()
    threshold(1000)
    translated, marked = _crossing()
    assert marked >= 8 and translated == interpreted
    assert interpreted[1] == BASE + 4 * 9 and interpreted[2][0] == 3 * 300_000
    for phase in ("codegen", "loaded"):                     # a new process compiles, the next loads
        out = subprocess.run([sys.executable, "-c", _PROCESS, str(tmp_path), json.dumps(CROSSING),
                              json.dumps(CROSSING_DATA)], capture_output=True, text=True, check=True).stdout
        result = json.loads(out.splitlines()[-1])
        assert phase in result[3] and result[:3] == interpreted


def test_a_page_calls_the_slow_paths_instead_of_carrying_them(threshold):
    """The row code linked into a page declares guest_access's slow paths under native's stable
    symbols and defines none of them (their calls leave the page for the copy loaded)."""
    threshold(1000)
    _crossing()                                             # a page built or loaded: slow paths bound
    from numba import types
    tcp = next(iter(native._bound))
    for name in ("LDSTP_OFF", "LDST_UI"):
        module = native._linkable("ncpu.arm64.cpu.native_rows", f"row_{name}", types.int64(tcp, *[types.int64] * 8)).module
        defined = [f.name for f in module.functions if not f.is_declaration]
        declared = [f.name for f in module.functions if f.is_declaration]
        assert not [n for n in defined if "slow_" in n], name
        assert [n for n in declared if n.startswith("ncpu_slow_")], name


@pytest.mark.parametrize("edited", ["native_facts.py", "native.py", "row_link.py"])
def test_an_edit_of_what_shapes_page_code_is_a_new_version(monkeypatch, edited):
    """The rows' version (in every page key and row module's name) changes when any file whose
    code ends up in page functions changes: the facts, native.py, row_link.py (the rows'
    modules as linked).  Else an edit would leave the old pages and modules in use."""
    from pathlib import Path

    monkeypatch.setattr(native, "_rows_digest", "")
    before = native.rows_version()
    read = Path.read_bytes

    def edited_read(path):
        return read(path) + (b"# edited\n" if path.name == edited else b"")

    monkeypatch.setattr(Path, "read_bytes", edited_read)
    monkeypatch.setattr(native, "_rows_digest", "")
    assert native.rows_version() != before


def test_object_cache_is_bounded(tmp_path, monkeypatch):
    """At most MAX_OBJECTS page objects are kept per version of the row code, and other versions'
    object directories left unchanged for STALE_DAYS are removed."""
    import os
    import time

    current, stale, recent = tmp_path / "pages_now", tmp_path / "pages_old", tmp_path / "pages_recent"
    for d in (stale, recent):
        d.mkdir()
        (d / "x.o").write_bytes(b"x")
    two_days_ago = time.time() - 2 * 86400
    os.utime(stale, (two_days_ago, two_days_ago))
    monkeypatch.setattr(native, "OBJECT_DIR", None)               # the cache's own layout
    monkeypatch.setattr(native, "_pages_root", tmp_path)
    monkeypatch.setattr(native, "_rows_digest", "now")
    monkeypatch.setattr(native, "MAX_OBJECTS", 2)
    monkeypatch.delenv("NCPU_NATIVE_CACHE", raising=False)
    native._prune_once.cache_clear()
    for key in "abc":
        native._store_object(key, b"object")
    assert sorted(p.name for p in current.glob("*.o")) == ["a.o", "b.o"]
    assert not stale.exists() and (recent / "x.o").exists()


def test_rows_modules_generated_at_run_time_before_are_removed(tmp_path):
    """The rows modules that earlier versions generated into the cache directory, and numba's
    files for them, are removed; page objects and other files stay."""
    native_dir, pycache, numba_dir = tmp_path / "native", tmp_path / "native" / "__pycache__", tmp_path / "native_ab12"
    for d in (native_dir / "pages_x", pycache, numba_dir):
        d.mkdir(parents=True)
    old = [native_dir / "ncpu_native_rows_1234.py", native_dir / "ncpu_native_rows_1234.facts.json",
           pycache / "ncpu_native_rows_1234.row_B-7.py311-bare.nbi", numba_dir / "ncpu_native_rows_1234.row_B-7.py311.nbc"]
    kept = [native_dir / "pages_x" / "k.o", tmp_path / "cpu_ff" / "run.run_loop-1.nbi"]
    kept[1].parent.mkdir()
    for f in old + kept:
        f.write_bytes(b"x")
    native.remove_generated_rows(tmp_path)
    assert not any(f.exists() for f in old) and all(f.exists() for f in kept)
    assert not numba_dir.exists() and not pycache.exists() and native_dir.exists()


def test_a_given_object_directory_leaves_its_neighbours_alone(tmp_path, monkeypatch):
    """$NCPU_NATIVE_OBJECTS names a directory of the user's: old directories beside it that
    happen to be called pages_* are not the cache's to remove; one that is a file stores nothing."""
    import os
    import time

    neighbour = tmp_path / "pages_old"
    neighbour.mkdir()
    two_days_ago = time.time() - 2 * 86400
    os.utime(neighbour, (two_days_ago, two_days_ago))
    monkeypatch.setattr(native, "OBJECT_DIR", tmp_path / "objects")
    monkeypatch.delenv("NCPU_NATIVE_CACHE", raising=False)
    native._prune_once.cache_clear()
    native._store_object("a", b"object")
    assert native._cached_object("a") == b"object"
    assert neighbour.exists()
    a_file = tmp_path / "not_a_directory"
    a_file.write_bytes(b"")
    monkeypatch.setattr(native, "OBJECT_DIR", a_file)
    native._store_object("b", b"object")
    assert native._cached_object("b") is None and a_file.read_bytes() == b""
