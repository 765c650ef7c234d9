"""Hot pages translated to native code: the page's decoded rows become one LLVM function.

Why: the interpreter (run.py) spends about 2 ns per instruction on fetch,
dispatch and bookkeeping; 3x qemu-aarch64 needs hot code run without them.
An earlier try compiled a hot page as one numba function (docs/arm64.md): the
code was fast but numba's typing and analyses took 20-50 s per page.  Here
numba compiles each *row* once, as a small function (its row code from
gen_loop, the same text the loop carries, so nothing is written twice), and
a page is assembled directly in LLVM IR: per instruction, a call of its row's
function with the word, immediate, registers and pc as constants.  The page's
module gets the rows' already optimised code linked in (row_link.py: kept as
bitcode for the next process, so that one imports native_rows only to compile a
row it has not) and inlined (all but
the slow paths of loads and stores, which stay calls of the copy this process
has loaded: `_slow_paths`), then a short pass list (always-inline, global
DCE, SROA, instcombine, simplifycfg, DCE) folds the constants, and code is
generated at level 1 into an object
that numba's JIT engine loads (`_finish_light`; numba's own finalize, O3
module passes twice and O3 code generation, stays as PIPELINE = "o3" for
comparison).  Level 0 generates code faster but spills everything: the tight
loop ran at 350 M instructions per CPU-second against 535-690 at level 1.

What a page function does (`page_fn(cp, pc, budget, steps) -> steps + retired`, cp the
address of the loop's `(R, V, st, m)`):
enter at pc through a switch over the page's translated slots, then run
instruction after instruction: a row that goes on to pc + 4 (`row_facts`: NEXT,
loads and stores included, which set pc to pc where they fault) goes straight
on to the next slot after a test `npc == pc + 4` (folded away where the row
only ever returns pc + 4; else the switch), a row that may branch goes back to
the switch (its static targets on the page become direct jumps), and it leaves (R[PC] set,
the count returned) at a slot that is not translated, a pc off the page,
a stop (a fault: the row not retired, as in the loop), the budget, or a
store that reset the page's decode row (self-modifying code: the next
instructions must be decoded again).  Where it leaves at a pc that native code
holds (another page's, or a newer function of this page: `_native_at`, the
loop's checks for entering a page), it goes on to that function by a guaranteed
tail call instead of returning to the loop, after retiring at least one
instruction and with budget left (so a chain ends; the stack does not grow);
that is why it returns the absolute step count.  Counting is exact, so a run
takes the same number of instructions in every mode.  Rows the loop does not
carry inline (cold_rows: Advanced SIMD, the rare scalar FP rows, SVC, ...)
are translated too: the page function calls the row's family as its cold group
does (`family_*` in native_rows), inlined with the operands constant, and
handles a stop as the loop's outer path does (SVC retired, a fault or BRK not,
R_UNDEF's address).  Each row's
control flow (NEXT, JUMP, CALL, CONDITIONAL, EXIT), whether it may stop and
whether it may write memory (row_facts) were read by gen_loop from its family's code
specialised to the row, into native_facts.FACTS.

How the loop gets there: the interpreter adds up the instructions it runs
per page (`dc_nat[row, DC_HEAT]`); past the threshold it stops with R_HOT,
and Cpu.run samples where the time goes (Sampler: short slices, the pc at
the end of each); `translate` builds, for each page sampled often enough, a
function of the straight runs holding its sampled slots, stores its address
in `dc_nat[row, DC_NAT]` and marks each translated slot in `dc_op` as
MARK_BASE - op (a negative value, so the inner loop leaves at it); the loop
calls the page function where it finds a mark.  A page that stays hot is
sampled again (up to MAX_TRIES times); its new runs become a function of their
own that passes every other pc on to the previous function (a direct call), so
no slot is compiled twice; after MAX_DEPTH functions (LOADED_DEPTH where an earlier run
compiled them) the page is rebuilt as one.
`worth_translating` can leave short stretches between entering and leaving native
code interpreted (MIN_STRETCH); with the tail calls between page functions every
run is worth it (MIN_STRETCH 1).  A write to the page
resets its decode row, and with it the marks: the page is interpreted again.  With debug hooks the loop interprets
a marked slot instead (hooks see every instruction).

On by default since 2026-11-30 (`ncpu arm64 --no-native` or NCPU_NATIVE=off interprets
only; NCPU_NATIVE=N sets the threshold).  Measured with benchmarks/arm64_native_build.py
(build time by phase) and arm64_vs_qemu.py --native (docs/arm64.md, "Compiled once, chained,
cold rows inlined"): LLVM takes 5-30 ms of CPU per translated instruction (the optimiser and
code generation over the inlined rows); with the page functions a first run compiled loaded
by the next, the four benchmark programs ran at 0.9-2.8x qemu-aarch64's CPU time in a warm
process.  A first run is what kept it off by default until compiling was limited to
BUILD_FREE + BUILD_SHARE of the process's CPU (`may_translate`), the row functions' compile
after an install or an edit (9.7 s for arm64_bench's rows) included: no benchmark's
first run is slower than interpreted (arm64_calls the same within the noise).

A page function is compiled once: its inputs (the row code's version, the page, its
slots as decoded, the function it falls back to, the host) make a
key (`page_key`); a key loaded before in this process is reused, and the object
code is kept on disk in nCPU's cache directory (`native/pages_<digest>/<key>.o`, 20-50 KB
each; $NCPU_NATIVE_CACHE=off keeps nothing) and loaded by the next process that
translates the same code.  The object holds no address of this process: the older
function it falls back to is an external symbol (`_externals`).

The row functions are native_rows.py, and what each row does native_facts.py, which gen_loop
generates beside run.py (until
2026-11-30 each version was generated at run time into the cache directory, 2-3 s of a
first run outside the build limit, and its files stayed there); each is compiled, with
numba's cache, the first time a page needs it, within the build limit (`_compiled`).
A slot whose straight run does not fit the budget left when the loop reaches it is unmarked
(run.py), interpreted once and marked again (`run.mark_again`); until 2026-11-28 it stayed
interpreted until the page was translated again, and for good once the page's tries were
spent, so hot loops drifted back to the interpreter at every quantum, syscall or slice end
that fell inside a straight run (longer runs, since loads and stores continue them, made
that the main cost).
"""
from __future__ import annotations

import functools
import hashlib
import importlib
import os
import time
import weakref
from typing import NamedTuple
from pathlib import Path

import numpy as np
import llvmlite.binding as llvm
from llvmlite import ir
from numba import typeof, types
from numba.core import cgutils
from numba.core.callconv import RETCODE_NONE, RETCODE_OK
from numba.core.compiler_lock import global_compiler_lock
from numba.core.registry import cpu_target

from ...cachedir import read_checked, write_checked
from ...settings import OFF, ON, SettingError, switched_off
from . import perf_map, row_link
from .borrowed import borrowed_at
from .jit import njit
from .memory import DC_HEAT, DC_NAT, DC_TRIES, MARK_BASE, NPAGES
from .row_facts import CALL, CONDITIONAL, JUMP, NEXT, RowFacts
from .stops import COLD_GOES_ON, COLD_RETIRED, ST_REASON, cold_outcome
from .state import PC

ON_THRESHOLD = 1 << 20      # instructions interpreted on a page before its time is sampled
_override = None            # set_threshold's value, which wins over $NCPU_NATIVE
PIPELINE = "light"          # how page functions are compiled: "light" (_finish_light) or "o3"
_phases: dict = {}          # CPU seconds of the last build by phase (benchmarks/arm64_native_build.py)


def last_build_phases() -> dict:
    """{phase: CPU seconds} of the last `build` (assemble, and for "light" parse, link,
    optimize, codegen)."""
    return _phases


def threshold() -> int:
    """Instructions interpreted on a page before native code is considered, 0 for never.
    ON_THRESHOLD by default (since 2026-11-30; see the module docstring).  $NCPU_NATIVE:
    `off` (or no, false, 0), `on`, or a number of instructions; set_threshold wins over it."""
    if _override is not None:
        return _override
    value = os.environ.get("NCPU_NATIVE", "").strip().lower()
    if value in OFF:
        return 0
    if value in ON:
        return ON_THRESHOLD
    if value.isdigit():
        return int(value)
    raise SettingError(f"NCPU_NATIVE={value!r}: expected on, off or a number of instructions")


def set_threshold(value: int) -> None:
    """Change the threshold of every loop of this process (0: interpret only)."""
    from .entries import NATIVE, _resolved
    global _override
    _override = value
    for fp in _resolved.values():
        fp[NATIVE] = value


# ---- small compiled helpers the page function calls (inlined by LLVM) ----------------------

@njit(cache=True)
def _stopped(cp):
    return borrowed_at(cp)[2][ST_REASON] != 0


@njit(cache=True)
def _still_marked(cp, page, i, mark):
    """Slot i of the page still marked `mark` (a store may have reset its decode row).  The row
    is read here, not compiled in, so that the code does not depend on which row the page got."""
    m = borrowed_at(cp)[3]
    row = m.dc_row[page]
    return row >= 0 and m.dc_op[row, i] == mark


@njit(cache=True)
def _leave(cp, pc):
    borrowed_at(cp)[0][PC] = pc
    return pc


@njit(cache=True)
def _native_at(cp, pc):
    """The page function to run from pc, or 0: its page mapped executable (the checks of the
    loop when it enters a page), decoded, and pc's slot marked as native code."""
    m = borrowed_at(cp)[3]
    page = pc >> 12
    if page < 0 or page >= NPAGES or m.pt[page] < 0 or (m.perm[page] & 4) == 0 or (pc & 3):
        return 0
    row = m.dc_row[page]
    if row < 0 or m.dc_op[row, (pc & 4095) >> 2] > MARK_BASE:
        return 0
    return m.dc_nat[row, DC_NAT]


@njit(cache=True)
def _cold_stop(cp, pc):
    """After a cold row: stops.cold_outcome, as the loop's outer path reads it."""
    return cold_outcome(borrowed_at(cp)[2], pc)


# ---- the row functions ----------------------------------------------------------------------

_rows_digest = ""            # the version of the row code and of this file: in page keys, and the
                             # name of the object directory (pages_<digest>)
_pages_root = None           # the cache directory that holds the object directories


# what a page's code is made from besides native_rows' sources: the rows' facts, this file
# (which writes the page) and row_link.py (which prepares the rows' modules it links)
_SHAPING = ("native_facts.py", "native.py", "row_link.py")


def rows_version() -> str:
    """The digest of the row code (native_rows' sources, as numba's cache stamps them, and the
    _SHAPING files), read from the files without importing native_rows, which names the pages
    and the rows' modules compiled from it; the cache directory for them found on the way."""
    global _rows_digest, _pages_root
    if not _rows_digest:
        from ... import jitcache
        here = Path(__file__).resolve()
        stamp = jitcache._stamp(here.with_name("native_rows.py"))
        _rows_digest = hashlib.sha256(stamp.encode() + b"".join(here.with_name(f).read_bytes()
                                                                for f in _SHAPING)).hexdigest()[:16]
        for root in (jitcache.cache_root(), jitcache.fallback_root()):
            try:
                (root / "native").mkdir(parents=True, exist_ok=True)
            except OSError:
                continue
            _pages_root = root / "native"
            remove_generated_rows(root)
            break
    return _rows_digest


def remove_generated_rows(root: Path) -> None:
    """Remove what nCPU before 2026-11-30 left in the cache directory `root`: a rows module
    generated at run time per version of the row code (`native/ncpu_native_rows_*`), and
    numba's compiled rows of each (in `native/__pycache__`, or in `native_*` directories
    under $NUMBA_CACHE_DIR): about 20 MB a version, nothing reads them now."""
    folders = [root / "native", root / "native" / "__pycache__", *root.glob("native_*")]
    for folder in folders:
        try:
            for f in folder.glob("ncpu_native_rows_*"):
                f.unlink(missing_ok=True)
            if folder.name != "native" and not any(folder.iterdir()):
                folder.rmdir()
        except OSError:
            pass


@functools.lru_cache(maxsize=None)
def row_facts(name: str) -> RowFacts:
    """What a row does (row_facts.RowFacts), as gen_loop read it from the row's code."""
    from .native_facts import FACTS
    return RowFacts(*FACTS[name])


def static_targets(name: str, imm: int) -> list:
    """The pc offsets (bytes) a row goes on to that are known before it runs."""
    return {NEXT: [4], JUMP: [imm], CALL: [imm], CONDITIONAL: [imm, 4]}.get(row_facts(name).flow, [])


# ---- building a page function ---------------------------------------------------------------

_libraries: list = []        # keeps each page's machine code alive for the process


_rows_cpu = 0.0              # CPU seconds spent compiling or loading row functions (numba)


class _OverBudget(Exception):
    """A row function is still to be compiled (or loaded) and compiling is past the limit."""


def _compiled(dispatcher, sig):
    """The row's (or helper's) compiled code, for linking into a page: no Python wrappers
    (jit.py).  Compiled within the build limit like the page (may_translate): after an install
    or an edit of the row code, compiling the row functions a program needs takes about 10 s
    (arm64_bench's 39 functions 9.7 s), which a first run would otherwise pay whole; with the limit
    it is spread over the first runs, each compiled row kept in numba's cache."""
    global _rows_cpu, _build_cpu
    if sig.args not in dispatcher.overloads:
        if not may_translate():
            raise _OverBudget(dispatcher.py_func.__name__)
        t0 = time.process_time()
        dispatcher.compile_native(sig)
        spent = time.process_time() - t0
        _rows_cpu += spent
        _build_cpu += spent
    return dispatcher.overloads[sig.args]


_linkables: dict = {}         # (module, function, signature) -> its row_link.Linkable in this process


def _linkable(module: str, function: str, sig):
    """Function `function` of module `module` (its numba dispatcher) for signature `sig`, ready
    to call from a page function (row_link.Linkable): from this process's, from the disk (kept
    by an earlier process for the same row code, host and signature), or else compiled or
    loaded by numba (_compiled: within the build limit) and kept."""
    memo = (module, function, str(sig))
    found = _linkables.get(memo)
    if found is None:
        path = _row_module_path(*memo)
        found = row_link.load(path, sig)
        if found is None:
            cres = _compiled(getattr(importlib.import_module(module), function), sig)
            found = row_link.Linkable(cres.fndesc.mangled_name, sig, row_link.for_linking(cres.library))
            row_link.keep(path, found)
        _linkables[memo] = found
    return found


def _row_module_path(module: str, function: str, sig: str):
    """Where the module of a row (or helper) is kept: beside the page objects of the same row
    code, in the cache's own directory even when OBJECT_DIR names the pages' (a module serves
    every program's pages), named by what it is made from."""
    if _pages_root is None or not disk_cache():
        return None
    made_of = (module, function, sig, _host())
    return _pages_root / f"pages_{_rows_digest}" / "rows" / f"{hashlib.sha256(repr(made_of).encode()).hexdigest()[:32]}.bc"


class _Page:
    """The IR of one page function, built with numba's calling convention and data model."""

    def __init__(self, ctx, argtypes, name):
        self.ctx = ctx
        self.lib = ctx.codegen().create_library(name)
        self.module = self.lib.create_ir_module(name)
        fnty = ctx.call_conv.get_function_type(types.int64, argtypes)
        self.fn = cgutils.get_or_insert_function(self.module, fnty, name)
        self.builder = ir.IRBuilder(self.fn.append_basic_block("entry"))
        self.linked: dict = {}          # the functions' names -> the modules they are linked from
        self.callees: dict = {}         # function name -> (its declaration, return slot, argument packer)
        # one exception slot for every call (numba's call makes one per call): cleared before
        # each call, it holds null or what that call stored, and no value of it outlives its
        # call.  Left uncleared, as numba's call leaves its slots, each slot of a page's loop
        # carried the last value of every other's, phis that LLVM's register coalescer took
        # seconds over in a large page (arm64_calls' 379 slots: 8,931 phis).
        self.excinfo = cgutils.alloca_once(self.builder, self.fn.args[1].type.pointee, name="excinfo")

    def call(self, fn, args):
        """Call function `fn` (row_link.Linkable) by numba's convention (status = f(&result, &excinfo,
        args...)): a status other than ok or none is an exception, passed on to the page's
        caller as numba's return_status_propagate does outside a try block.  Written here
        rather than with numba's call_function, which makes two stack slots and about a dozen
        instructions per call: a page has two or three calls per guest instruction, and
        building and printing its IR was about a fifth of a page's compile (assemble and
        parse in benchmarks/arm64_native_build.py)."""
        ctx, b = self.ctx, self.builder
        sig, name = fn.signature, fn.name
        if name not in self.callees:
            self.linked[name] = fn.module
            fnty = ctx.call_conv.get_function_type(sig.return_type, sig.args)
            callee = cgutils.get_or_insert_function(self.module, fnty, name)
            result = cgutils.alloca_once(b, fnty.args[0].pointee)
            self.callees[name] = (callee, result, ctx.call_conv._get_arg_packer(sig.args))
        callee, result, packer = self.callees[name]
        b.store(ir.Constant(self.excinfo.type.pointee, None), self.excinfo)
        # inlined whatever LLVM's cost model says: a row left as a call pays numba's calling
        # convention and reloads the arrays, more than the interpreter's dispatch saves
        code = b.call(callee, [result, self.excinfo, *packer.as_arguments(b, args)], attrs=("alwaysinline",))
        fine = b.or_(b.icmp_signed("==", code, RETCODE_OK), b.icmp_signed("==", code, RETCODE_NONE))
        with cgutils.if_unlikely(b, b.not_(fine)):
            b.store(b.load(self.excinfo), self.fn.args[1])
            b.ret(code)
        value = b.load(result)
        if sig.return_type == types.boolean:
            # a comparison: numba's own conversion (BooleanModel.from_data) makes a stack slot
            # and two blocks at every call (_stopped, _still_marked: 17 a page on average in
            # arm64_calls' builds), each slot placed by a search of the growing entry block,
            # all for SROA to undo
            return b.icmp_unsigned("!=", value, value.type(0))
        return ctx.get_returned_value(b, sig.return_type, value)

    def tail_call(self, callee, args):
        """Return what page function `callee` returns for (cp, *args): a guaranteed tail call
        (musttail: the same prototype, numba's return slot and exception pointer passed on)."""
        retptr, excinfo, cp = self.fn.args[:3]
        self.builder.ret(self.builder.call(callee, [retptr, excinfo, cp, *args], tail="musttail"))

def frame_type(R, V, st, m):
    """The type of the loop's `(R, V, st, m)`, which it passes to a page function by address."""
    return types.Tuple((typeof(R), typeof(V), typeof(st), typeof(m)))


def _slots(m, row):
    """The page's translatable slots, marked ones included: {slot: (name, op, word, imm, regs)}:
    every decoded row (each has a family: the loop's own rows are inlined, the others called
    through their cold_rows function)."""
    from . import decode_table as T
    ops = m.dc_op[row].astype(np.int64)
    ops = np.where(ops <= MARK_BASE, MARK_BASE - ops, ops)
    out = {}
    for i in np.nonzero((ops >= 0) & (ops < len(T.TABLE)))[0].tolist():
        op = int(ops[i])
        out[i] = (T.TABLE[op].name, op, int(m.dc_word[row, i]), int(m.dc_imm[row, i]), int(m.dc_regs[row, i]))
    return out


def _falls(slot) -> bool:
    return row_facts(slot[0]).flow == NEXT


def hot_runs(slots: dict, sampled) -> set:
    """The slots of the straight runs that hold the sampled slots: from the slot after the
    previous branch (or untranslatable slot) to the next branch."""
    keep = set()
    for i in sampled:
        if i not in slots:
            continue
        while i - 1 in slots and _falls(slots[i - 1]):
            i -= 1
        while i not in keep:
            keep.add(i)
            if not _falls(slots[i]) or i + 1 not in slots:
                break
            i += 1
    return keep


def _successors(slots: dict, i: int) -> list:
    """The slots of the page that may run after slot i, as far as its code says: its static
    targets, and after a call (BL, BLR) the slot its callee returns to."""
    name, imm = slots[i][0], slots[i][3]
    offsets = static_targets(name, imm) + ([4] if row_facts(name).links else [])
    return [t for t in (i + (d >> 2) for d in offsets) if t in slots]


MAX_GAP = 8                 # slots in one gap that `between` fills


def between(slots: dict, chosen: set) -> set:
    """The decoded slots (slots: each ran since the page was decoded) on a path from a chosen
    slot to a chosen slot, not chosen themselves: the gaps of the hot code.  Why: a run the
    sampler missed between two translated ones (the tail of an inner loop, where a call
    returns to) sends native code back to the loop each time it runs, to be interpreted and
    enter native code again; arm64_bench's sieve did so a million times a run."""
    succ = {i: _successors(slots, i) for i in slots}
    pred: dict = {i: [] for i in slots}
    for i, ts in succ.items():
        for t in ts:
            pred[t].append(i)

    def reach(start, edges):
        seen, todo = set(), [j for i in start for j in edges[i]]
        while todo:
            j = todo.pop()
            if j not in seen:
                seen.add(j)
                todo.extend(edges[j])
        return seen

    inside = chosen & set(slots)
    gaps = (reach(inside, succ) & reach(inside, pred)) - chosen
    # each gap (slots joined by their flow) at most MAX_GAP long: a longer one is code of its
    # own that the sampler would have found if it mattered, and a page function's code
    # generation grows faster than its length (arm64_calls' largest page, 341 slots, became 478)
    joined = {j: [t for t in succ[j] + pred[j] if t in gaps] for j in gaps}
    kept, seen = set(), set()
    for i in sorted(gaps):
        if i not in seen:
            part = reach([i], joined) | {i}
            seen |= part
            if len(part) <= MAX_GAP:
                kept |= part
    return kept


MIN_STRETCH = 1             # 1: every run (see worth_translating's docstring for why)


def worth_translating(slots: dict, chosen: set) -> set:
    """The slots of `chosen` worth native code: those that are in or reach a loop within the
    chosen slots, and those on a path of at least MIN_STRETCH instructions from where native
    code is entered to where it is left.  Why: entering and leaving a page function costs more
    than interpreting a few instructions, so a short stretch entered by a call or a return
    and left by the next call or return (qsort's comparison function and the code around its
    call) runs faster interpreted.  A call has no successor here: what follows it runs after
    a return, which leaves native code.

    Since page functions go on to each other by tail calls (2026-11-28), leaving one for
    another costs little, and MIN_STRETCH is 1 (every run): with translations cached,
    arm64_calls took 4.8 s of CPU against 8.4 at 16, arm64_bench 5.3 against 8.9; the
    first run, which compiles more, took longer (arm64_calls 16.0 s against 10.7 at 16,
    arm64_bench 11.8 against 11.3; a noisy host, one run each)."""
    succ = {}
    for i in chosen:
        name, imm = slots[i][0], slots[i][3]
        offsets = [] if row_facts(name).flow == CALL else static_targets(name, imm)
        succ[i] = [t for t in (i + (d >> 2) for d in offsets) if t in chosen]
    # loopy: on a cycle or reaching one (a slot reaches itself again: it runs repeatedly)
    reach = {}
    for i in chosen:
        seen, todo = set(), list(succ[i])
        while todo:
            j = todo.pop()
            if j not in seen:
                seen.add(j)
                todo.extend(succ[j])
        reach[i] = seen
    loopy = {i for i in chosen if i in reach[i] or any(j in reach[j] for j in reach[i])}
    pred = {i: [] for i in chosen}
    for i, ts in succ.items():
        for t in ts:
            pred[t].append(i)
    # longest paths (capped at MIN_STRETCH) through the acyclic rest: from an entry to i (`up`;
    # coming out of a loop counts as long enough) and from i to where native code is left
    # (`down`), relaxed MIN_STRETCH times instead of recursing (a path may be 1,024 slots long)
    rest = chosen - loopy
    up = {i: 1 for i in rest}
    down = dict(up)
    for _ in range(MIN_STRETCH):
        for i in rest:
            up[i] = min(MIN_STRETCH, 1 + max((MIN_STRETCH if j in loopy else up[j] for j in pred[i]), default=0))
            down[i] = min(MIN_STRETCH, 1 + max((down[j] for j in succ[i]), default=0))
    return loopy | {i for i in rest if up[i] + down[i] - 1 >= MIN_STRETCH}


def _straight_runs(slots: dict) -> dict:
    """slot -> how many instructions run from it before a branch or an untranslated slot
    (the budget is checked once per run: within one, no instruction leaves for the budget;
    a load or store continues a run: where it faults, it leaves unretired)."""
    runs = {}
    for i in sorted(slots, reverse=True):
        runs[i] = 1 + runs[i + 1] if _falls(slots[i]) and i + 1 in runs else 1
    return runs


@global_compiler_lock
def build(page: int, slots: dict, R, V, st, m, fallback=None, older=frozenset()):
    """The page function for `slots` (see _slots): returns (address, library, key, compiled: False
    when loaded), or None when it would have to be compiled past the build limit (may_translate).
    `fallback`: (address, key) of the page's previous function, which runs slots `older`: a
    pc this function does not translate is passed on to it (not left), so a rebuild
    translates only the new runs.

    Compiled once: the code of a key loaded before in this process is reused, and with the
    light pipeline the object file is kept on disk (`_cached_object`), so the next run of the
    same program loads its pages instead of compiling them again."""
    _phases.clear()
    t0 = time.process_time()
    rows_version()
    tcp = types.CPointer(frame_type(R, V, st, m))
    key = page_key(page, slots, tcp, fallback[1] if fallback else None, older)
    _externals(fallback)
    try:
        _slow_paths(tcp)                             # what a page calls, loaded or compiled
    except _OverBudget:
        return None
    if key in _loaded:
        _phases["reused"] = time.process_time() - t0
        return _loaded[key], None, key, False
    if PIPELINE == "light":
        obj = _cached_object(key)
        if obj is not None:
            address = _load_object(obj, _function_name(key))
            _loaded[key] = address
            _phases["loaded"] = time.process_time() - t0
            return address, None, key, False
    if not may_translate():                          # past the build limit: load, do not compile
        return None
    try:
        return _build_new(page, slots, R, V, st, m, key, tcp, fallback, older, t0)
    except _OverBudget:                              # a row function left for a later run
        return None


def _build_new(page, slots, R, V, st, m, key, tcp, fallback, older, t0):
    """build's compile of a new page function (its arguments, the key, the frame's pointer
    type, and when build started)."""
    from .native_facts import FAMILY
    global _build_cpu
    rows = f"{__package__}.native_rows"             # imported only if a row must be compiled
    rows_before = _rows_cpu
    ctx = cpu_target.target_context
    argtypes = (tcp, types.int64, types.int64, types.int64)
    i64 = ir.IntType(64)
    row_sig = types.int64(tcp, *([types.int64] * 8))
    family_sig = types.int64(tcp, *([types.int64] * 9))
    P = _Page(ctx, argtypes, _function_name(key))
    b = P.builder
    cp, pc0, budget, steps0 = ctx.call_conv.decode_arguments(b, argtypes, P.fn)
    count = cgutils.alloca_once_value(b, i64(0))
    pcv = cgutils.alloca_once_value(b, pc0)
    leave = P.fn.append_basic_block("leave")
    dispatch = P.fn.append_basic_block("dispatch")
    entries = {i: P.fn.append_basic_block(f"enter{i}") for i in sorted(slots)}
    bodies = {i: P.fn.append_basic_block(f"slot{i}") for i in sorted(slots)}
    b.branch(dispatch)

    def leave_at(pc_value, cond=None, otherwise=None):
        """Leave with R[PC] = pc_value (when `cond`, else go on to `otherwise`)."""
        if cond is None:
            b.store(pc_value, pcv)
            b.branch(leave)
            return
        out = P.fn.append_basic_block()
        b.cbranch(cond, out, otherwise)
        b.position_at_end(out)
        leave_at(pc_value)
        b.position_at_end(otherwise)

    b.position_at_end(dispatch)
    base = page << 12
    older_fn = P.fn.append_basic_block("older") if fallback else leave
    switch = b.switch(b.load(pcv), older_fn)
    for i, bb in entries.items():
        switch.add_case(i64(base + 4 * i), bb)

    stopped = _linkable(__name__, "_stopped", types.boolean(tcp))
    still = _linkable(__name__, "_still_marked", types.boolean(tcp, types.int64, types.int64, types.int64))
    cold_stop = _linkable(__name__, "_cold_stop", types.int64(tcp, types.int64))
    runs = _straight_runs(slots)
    for i in sorted(slots):
        name, op, w, imm, rg = slots[i]
        flow, stops, writes, cold, _ = row_facts(name)
        pc = base + 4 * i
        b.position_at_end(entries[i])                # the budget, for the whole straight run
        over = b.icmp_signed(">", b.add(b.load(count), i64(runs[i])), budget)
        leave_at(i64(pc), over, bodies[i])
        n = b.load(count)
        regs = [rg & 0xFF, (rg >> 8) & 0xFF, (rg >> 16) & 0xFF, (rg >> 24) & 0xFF]
        if cold:                                     # its family, as its cold_rows function calls it
            fn = _linkable(rows, FAMILY[name], family_sig)
            npc = P.call(fn, [cp, i64(op), i64(w), i64(imm), i64(pc), *map(i64, regs), b.add(steps0, n)])
            if stops:                                # the loop's outer path: SVC retires, not the others
                outcome = P.call(cold_stop, [cp, i64(pc)])
                out, on = P.fn.append_basic_block(), P.fn.append_basic_block()
                b.cbranch(b.icmp_signed("!=", outcome, i64(COLD_GOES_ON)), out, on)
                b.position_at_end(out)
                retired = b.icmp_signed("==", outcome, i64(COLD_RETIRED))
                b.store(b.add(n, b.zext(retired, i64)), count)
                leave_at(b.select(retired, npc, i64(pc)))
                b.position_at_end(on)
        else:
            fn = _linkable(rows, f"row_{name}", row_sig)
            npc = P.call(fn, [cp, i64(w), i64(imm), i64(pc), *map(i64, regs), b.add(steps0, n)])
            if stops:                                # a fault: not retired, as in the loop
                leave_at(npc, P.call(stopped, [cp]), P.fn.append_basic_block())
        b.store(b.add(n, i64(1)), count)
        if writes:                                   # maybe into this very page
            gone = b.not_(P.call(still, [cp, i64(page), i64(i), i64(MARK_BASE - op)]))
            leave_at(npc, gone, P.fn.append_basic_block())
        if flow == NEXT:
            if i + 1 in slots:                       # pc + 4 unless it stopped (left above):
                following = P.fn.append_basic_block()   # tested, so that any row is exact
                b.cbranch(b.icmp_signed("==", npc, i64(pc + 4)), bodies[i + 1], following)
                b.position_at_end(following)
            elif i + 1 in older:                     # the previous function goes on
                b.store(npc, pcv)
                b.branch(older_fn)
                continue
            else:
                leave_at(npc)
                continue
        else:
            # a branch: its static targets on this page straight to their slots, others by the switch
            for target in sorted({pc + off for off in static_targets(name, imm)}):
                k = (target - base) >> 2
                if target >> 12 == page and k in entries:
                    b.cbranch(b.icmp_signed("==", npc, i64(target)), entries[k], P.fn.append_basic_block())
                    b.position_at_end(b.block.parent.blocks[-1])
        b.store(npc, pcv)
        b.branch(dispatch)

    if fallback:                                     # it leaves by itself and counts its own
        # only a pc on this page: the older function would leave at any other, having retired
        # nothing itself, and so return to the loop instead of going on to the code there
        # (a return from a function on this page to native code elsewhere: arm64_bench's
        # qsort comparator returned to the loop 26 M times a run)
        b.position_at_end(older_fn)
        on_page = b.icmp_signed("==", b.ashr(b.load(pcv), i64(12)), i64(page))
        older_fn = P.fn.append_basic_block("older_on_page")
        b.cbranch(on_page, older_fn, leave)
        b.position_at_end(older_fn)
        n = b.load(count)
        older_code = cgutils.get_or_insert_function(P.module, P.fn.function_type, _older_symbol(fallback[1]))
        P.tail_call(older_code, [b.load(pcv), b.sub(budget, n), b.add(steps0, n)])
    # leaving: R[PC] set; where native code of another page (or a newer function of this one)
    # starts at pc, go on to it directly (a tail call: the stack does not grow) instead of
    # returning to the loop, which would find the same mark and call it (chaining).  Only
    # after an instruction retired here, without a stop, with budget left: every function in
    # a chain retires one or more, so the chain ends within the budget.
    b.position_at_end(leave)
    n, pc_out = b.load(count), b.load(pcv)
    P.call(_linkable(__name__, "_leave", types.int64(tcp, types.int64)), [cp, pc_out])
    chain, ret = P.fn.append_basic_block("chain"), P.fn.append_basic_block("return")
    may = b.and_(b.icmp_signed(">", n, i64(0)), b.icmp_signed("<", n, budget))
    b.cbranch(b.and_(may, b.not_(P.call(stopped, [cp]))), chain, ret)
    b.position_at_end(chain)
    target = P.call(_linkable(__name__, "_native_at", types.int64(tcp, types.int64)), [cp, pc_out])
    go = P.fn.append_basic_block("go")
    b.cbranch(b.icmp_signed("!=", target, i64(0)), go, ret)
    b.position_at_end(go)
    P.tail_call(b.inttoptr(target, P.fn.function_type.as_pointer()), [pc_out, b.sub(budget, n), b.add(steps0, n)])
    b.position_at_end(ret)
    ctx.call_conv.return_value(b, b.add(steps0, n))
    _phases["assemble"] = time.process_time() - t0
    if PIPELINE == "o3":
        P.lib.add_ir_module(P.module)
        t = time.process_time()
        for module in P.linked.values():            # (after the page: linked first, they crashed it)
            P.lib.add_llvm_module(module.clone())
        _phases["link"] = time.process_time() - t
        P.lib.finalize()
        address, lib = P.lib.get_pointer_to_function(P.fn.name), P.lib
    else:
        address, lib = _finish_light(P, key), None
    _loaded[key] = address
    # what may_translate limits: the compile (the row functions' counted as _compiled ran them)
    _build_cpu += time.process_time() - t0 - (_rows_cpu - rows_before)
    return address, lib, key, True


# ---- page functions compiled once: in this process, and on disk across processes -----------

_loaded: dict = {}           # page key -> the address of its function, loaded in this process


def page_key(page: int, slots: dict, tcp, fallback_key, older) -> str:
    """What a page function is compiled from, as a digest: the version of the row code and of
    this file (the rows module's digest), how it is compiled, the host and libraries it is
    compiled for (_host),
    the frame's types, the page (a constant in the code), its slots as decoded, and the
    function it falls back to.  Not the page's decode row, which the code reads when it runs:
    the same code entered in another order (another program's run of the same library) is
    the same function.  Equal keys give the same code, so a key names a function: in this
    process (_loaded) and in the object cache on disk."""
    parts = (_rows_digest, PIPELINE, CODEGEN_OPT, _host(), str(tcp), page, sorted(slots.items()),
             fallback_key, sorted(older))
    return hashlib.sha256(repr(parts).encode()).hexdigest()[:32]


@functools.lru_cache(maxsize=None)
def _host() -> tuple:
    """What compiled code depends on besides our sources: llvmlite's and numba's versions (numba's
    calling convention and data model shape every page and row module) and numba's target
    options (CPU name and features)."""
    import llvmlite
    import numba
    options: dict = {}
    cpu_target.target_context.codegen()._customize_tm_options(options)
    return llvmlite.__version__, numba.__version__, tuple(sorted(options.items()))


def _function_name(key: str) -> str:
    return f"ncpu_page_{key}"


def _older_symbol(key: str) -> str:
    return f"ncpu_older_{key}"


def _externals(fallback) -> None:
    """Give the older function a page function calls its address in this process (llvm's
    symbol table, which the JIT engine consults when it loads code).  Why a symbol and not a
    constant: an object file written to disk must not hold this process's addresses."""
    if fallback:
        llvm.add_symbol(_older_symbol(fallback[1]), fallback[0])


def disk_cache() -> bool:
    """Whether compiled page functions are kept on disk ($NCPU_NATIVE_CACHE=off: not)."""
    return not switched_off("NCPU_NATIVE_CACHE")


OBJECT_DIR = os.environ.get("NCPU_NATIVE_OBJECTS") or None   # where page objects are kept; None:
                                                             # beside the rows module


def _object_path(key: str):
    if OBJECT_DIR is not None:
        return Path(OBJECT_DIR) / f"{key}.o"
    return None if _pages_root is None else _pages_root / f"pages_{_rows_digest}" / f"{key}.o"


def forget_loaded() -> None:
    """Forget which page functions this process has loaded (their code stays) and what it spent
    compiling: the next build of each compiles it again or loads its object, as a new process
    would (benchmarks)."""
    global _build_cpu, _start_cpu
    _loaded.clear()
    _build_cpu, _start_cpu = 0.0, time.process_time()


_OBJECT_MAGIC = b"ncpu-page-object\n"


def _cached_object(key: str):
    """The object code kept for `key`, or None (cachedir.read_checked)."""
    path = _object_path(key) if disk_cache() else None
    return None if path is None else read_checked(path, _OBJECT_MAGIC)


MAX_OBJECTS = 4096           # objects kept per version of the row code (20-50 KB each)
STALE_DAYS = 1.0             # another version's objects unchanged this long are removed


_kept: dict = {}             # object directory -> objects in it (counted at this process's first store)


def _store_object(key: str, data: bytes) -> None:
    """Keep a compiled page function on disk, unless MAX_OBJECTS are kept already (the cache
    then stops growing: later pages are compiled in each run).  The first store of a process
    removes the object directories of other versions of the row code left unchanged for
    STALE_DAYS (each edit or upgrade of the loop starts a new one); not beside a directory
    given as OBJECT_DIR ($NCPU_NATIVE_OBJECTS), whose neighbours are not ours."""
    path = _object_path(key) if disk_cache() else None
    if path is None:
        return
    folder = path.parent
    if OBJECT_DIR is None:
        _prune_once(folder)
    if folder not in _kept:
        try:
            _kept[folder] = sum(1 for _ in folder.glob("*.o")) if folder.is_dir() else 0
        except OSError:
            return
    if _kept[folder] >= MAX_OBJECTS:
        return
    if write_checked(path, _OBJECT_MAGIC, data):
        _kept[folder] += 1


@functools.lru_cache(maxsize=None)
def _prune_once(current: Path) -> None:
    """Remove the other versions' object directories beside `current` unchanged for STALE_DAYS."""
    import shutil
    now = time.time()
    try:
        others = [d for d in current.parent.glob("pages_*") if d.is_dir() and d != current]
        for d in others:
            if now - d.stat().st_mtime > STALE_DAYS * 86400:
                shutil.rmtree(d, ignore_errors=True)
    except OSError:
        pass


def _load_object(data: bytes, name: str) -> int:
    """Load a page function's object code into numba's JIT engine; its address."""
    engine = cpu_target.target_context.codegen()._engine
    engine._ee.add_object_file(llvm.ObjectFileRef.from_data(data))
    engine.finalize_object()
    address = engine._ee.get_function_address(name)
    if not address:
        raise RuntimeError(f"native: {name} not found after loading its code")
    if perf_map.enabled():
        perf_map.add(data, name, address)
    return address


# ---- the light pipeline: a short pass list and cheap code generation ---------------------------

CODEGEN_OPT = 1


@functools.lru_cache(maxsize=None)
def _target_machine(opt: int):
    """A target machine like numba's JIT one (host CPU and features, its relocation and code
    model), but generating code at level `opt`."""
    options = dict(opt=opt)
    cpu_target.target_context.codegen()._customize_tm_options(options)
    return llvm.Target.from_default_triple().create_target_machine(**options)


# ---- the slow paths of loads and stores: called where they are loaded, not compiled per page -----

_bound: set = set()                 # frame types whose slow paths are bound (_slow_paths)


def _slow_paths(tcp) -> None:
    """Compile (or load) guest_access's slow paths for the frame type `tcp` and give each
    LLVM a stable symbol bound to its address in this process.  Why: a row function inlines
    the access within one page and calls these for the rest (a page crossing, a fault); linked
    into every page, each load and store site carried their code through LLVM's optimiser and
    code generation, for code that almost never runs.  Declared instead, a page calls the one
    copy loaded; the symbol, not the address, is in the object, which a later process loads."""
    from . import guest_access
    if tcp in _bound:
        return
    i64 = types.int64
    sigs = {"slow_load": i64(tcp, i64, i64), "slow_store": types.none(tcp, i64, i64, i64),
            "slow_writable": types.boolean(tcp, i64, i64)}
    for name, sig in sigs.items():
        cres = _compiled(getattr(guest_access, name), sig)
        symbol = f"ncpu_{name}_{hashlib.sha256(str(sig).encode()).hexdigest()[:12]}"
        llvm.add_symbol(symbol, cres.library.get_pointer_to_function(cres.fndesc.llvm_func_name))
        row_link.bind_slow_path(cres.fndesc.llvm_func_name, symbol)
    _bound.add(tcp)


def _finish_light(P, key: str) -> int:
    """Optimise and compile page P's module; returns the page function's address.

    numba's finalize runs its O3 module pipeline twice over (a cheap pass, then the full one)
    and generates code at O3: 20-35 ms of CPU per guest instruction.  A page function needs
    much less: its rows are already optimised (numba compiled them at O3), so what is left is
    inlining them, promoting the frame to registers and folding the constant operands."""
    clock = time.process_time
    codegen = P.ctx.codegen()
    t = clock()
    mod = llvm.parse_assembly(str(P.module))
    mod.data_layout = codegen._data_layout
    t, _phases["parse"] = clock(), clock() - t
    for module in P.linked.values():    # the rows' optimised modules, copied in
        mod.link_in(module, preserve=True)
    # every row inlined, then dropped (not exported); numba's own noinline functions too:
    # NRT_decref left a call made arm64_fp's pages 1.8x slower (tried 2026-11-30)
    for fn in mod.functions:
        if not fn.is_declaration and fn.name != P.fn.name:
            fn.linkage = "internal"
            fn.add_function_attribute("alwaysinline")
    t, _phases["link"] = clock(), clock() - t
    tm = _target_machine(CODEGEN_OPT)
    pb = llvm.create_pass_builder(tm, llvm.create_pipeline_tuning_options(speed_level=1))
    pm = llvm.create_new_module_pass_manager()
    pm.add_always_inliner_pass()
    pm.add_global_dead_code_eliminate_pass()
    pm.add_sroa_pass()
    pm.add_instruction_combine_pass()
    pm.add_simplify_cfg_pass()
    pm.add_instruction_combine_pass()
    pm.add_dead_code_elimination_pass()
    pm.run(mod, pb)
    t, _phases["optimize"] = clock(), clock() - t
    data = tm.emit_object(mod)
    _store_object(key, data)
    address = _load_object(data, P.fn.name)
    _phases["codegen"] = clock() - t
    return address


class Sampler:
    """Where the time goes, found cheaply when a page becomes hot: the loop runs SAMPLES short
    slices of varied length (so that a loop's period cannot alias with them) and the pc at the
    end of each is one sample; a page with MIN_SAMPLES or more gets the straight runs of its
    sampled slots translated.  Why not the whole page: LLVM's time grows with the code (a page
    of 400 instructions took 10 s), and most of a hot page is not hot."""

    SAMPLES = 128
    MIN_SAMPLES = 4

    def __init__(self):
        self.pcs: list[int] = []

    def slice(self) -> int:
        k = len(self.pcs)
        return 1000 + (k * 7919) % 2003

    def add(self, pc: int) -> bool:
        """Record a sample; True when there are enough."""
        self.pcs.append(pc)
        return len(self.pcs) >= self.SAMPLES


def hot(mem, page: int) -> None:
    """The loop stopped with R_HOT at `page`: count the attempt, restart its heat (a page stops
    counting after MAX_TRIES).  An attempt the build limit refuses (may_translate) counts too,
    so a page hot while the limit is reached stays interpreted for the rest of the run: tried
    otherwise and not kept (docs/arm64.md, "Native code left less often"), since the builds
    that then fit a first run cost arm64_calls more than they saved it there."""
    m = mem.arrays()
    nat = m.dc_nat[int(m.dc_row[page])]
    nat[DC_HEAT] = 0
    nat[DC_TRIES] += 1


class _Chain(NamedTuple):
    """A page's native code: its newest function (`address`, which passes what it does not
    translate on to the older ones), the slots they translate, and how many functions deep."""
    row: int
    address: int
    slots: dict
    depth: int
    key: str                 # the newest function's page_key
    loaded: bool             # every function of it loaded (compiled by an earlier run), none compiled here


# Functions in a chain before a page is rebuilt whole: MAX_DEPTH while the run compiles them,
# LOADED_DEPTH once they were all loaded (an earlier run compiled them).  Why two: a rebuild
# compiles again every slot the chain holds, and at 4 arm64_calls' largest page was compiled as
# 22 + 157 + 64 + 27 slots and then as one of 379 (`arm64_native_build.py --max-depth`: 866
# translated instructions against 570 at 8, builds 2.9-3.1 s against 2.3-2.6); its first run in
# `arm64_vs_qemu.py --native` took 4.8 and 5.1 s at 8 against 5.8 and 5.7 at 4.  But a deeper
# chain passes more pcs on from function to function: its runs 3-4 took 2.9-3.3 s against
# 2.7-3.0 (alternated, a noisy host; docs/arm64.md had the same trade at 8 and 16 on 2026-11-29).
# So a first run chains up to 8, and the next run, which loads those functions, rebuilds the
# page as one function at the 4th (within the build limit), which later runs load.
MAX_DEPTH = 8
LOADED_DEPTH = 4
_chains: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()   # Memory -> {page: _Chain}


def _chain_holds(m, page: int, row: int, chain) -> bool:
    """Whether `chain` still fits the page: same decode row, the same words in guest memory
    (a write may have changed the code it was compiled from)."""
    if chain is None or chain.row != row or m.pt[page] < 0:
        return False
    idx = np.fromiter(chain.slots, np.int64)
    words = m.d32[(np.int64(m.pt[page]) << 10) + idx].astype(np.int64)
    return bool((words == [chain.slots[i][2] for i in idx.tolist()]).all())


BUILD_FREE = 1.0           # CPU seconds of compiling page functions always allowed, and then
BUILD_SHARE = 0.25         # the share of this process's CPU time that compiling may take beyond them
_build_cpu = 0.0           # CPU seconds this process has spent compiling page functions and the
                           # row functions they need (build, _compiled), not loading them
_start_cpu = 0.0           # the process's CPU time when that count started (forget_loaded)


def may_translate() -> bool:
    """Whether more pages may be translated: compiling page functions has taken at most
    BUILD_FREE + BUILD_SHARE x this process's CPU time so far (loading a compiled one from
    disk does not count; compiling the row functions does, since native code is on by
    default: _compiled).  Why: LLVM takes 5-30 ms of CPU per translated instruction, and a
    program with much warm code spread over many pages (a Python interpreter in the guest:
    test_python_http_server_and_client) spent 457 s translating where it ran 9 s interpreted;
    with the limit a first run's CPU time T holds at most 1 s + T/4 of compiling, so T is at
    most a third more than the run without compiling, plus 1.3 s; later runs load what earlier
    ones compiled, and compile more.

    1.0 s and 0.25 since 2026-11-30 (5.0 and 0.5 before): `benchmarks/arm64_vs_qemu.py --native
    --native-runs 4 --build-budget F,S`, the two one after the other on a quiet host, CPU s of
    the first run: arm64_bench 6.37 against 8.05, arm64_fp 3.63 against 3.43, arm64_calls 6.75
    against 10.17, arm64_mem 2.47 against 2.56 (interpreted, the same hour: 6.66, 7.57, 7.60,
    3.50).  No first run slower than interpreted, where two were before; arm64_calls, which has
    the most to compile, takes four runs instead of two to load all of it (runs 2-4: 5.28, 4.81,
    3.08 against 3.04, 2.82, 2.87).  As fresh `ncpu arm64 [--native]` processes an hour later:
    first runs 7.04, 5.68, 8.50, 3.73 against 7.05, 8.65, 8.44, 4.44 interpreted."""
    free, share = build_budget()
    return _build_cpu <= free + share * (time.process_time() - _start_cpu)


def build_budget() -> tuple[float, float]:
    """(BUILD_FREE, BUILD_SHARE), or what $NCPU_NATIVE_BUDGET says instead: `FREE,SHARE`, CPU
    seconds and a share, `inf` for no limit (`inf,0`: compile whatever gets hot)."""
    value = os.environ.get("NCPU_NATIVE_BUDGET", "").strip()
    if not value:
        return BUILD_FREE, BUILD_SHARE
    try:
        free, share = (float(x) for x in value.split(","))
    except ValueError:
        free = share = -1.0
    if not (free >= 0 and share >= 0):                  # nan is not >= 0
        raise SettingError(f"NCPU_NATIVE_BUDGET={value!r}: expected FREE,SHARE, two numbers, "
                         "neither negative (CPU seconds and a share of the run's, e.g. 1,0.25)")
    return free, share


def translate(mem, pcs, R, V, st) -> int:
    """Translate the sampled hot runs (Sampler) of every page sampled often enough; returns the
    number of pages given new native code.

    A page translated before keeps its functions while its code is unchanged: the new runs
    become a function that passes everything else on to the previous one (up to MAX_DEPTH
    functions, then the page is rebuilt whole), and slots of the older functions that the loop
    unmarked (a straight run that did not fit a short budget) are marked again: the same code
    is never compiled twice."""
    m = mem.arrays()
    chains = _chains.setdefault(mem, {})
    by_page: dict[int, list[int]] = {}
    for pc in pcs:
        by_page.setdefault(pc >> 12, []).append((pc & 4095) >> 2)
    done = 0
    for page, sampled in sorted(by_page.items()):
        row = int(m.dc_row[page]) if 0 <= page < len(m.dc_row) else -1
        if len(sampled) < Sampler.MIN_SAMPLES or row < 0:
            continue
        slots = _slots(m, row)
        chain = chains.get(page)
        if not _chain_holds(m, page, row, chain):
            chain = None
        older = chain.slots if chain else {}
        marked = set(np.nonzero(m.dc_op[row] <= MARK_BASE)[0].tolist())
        wanted = hot_runs(slots, sampled) | (marked & set(slots)) | set(older)
        wanted |= between(slots, wanted)
        chosen = worth_translating({**older, **slots}, wanted) - set(older)
        # older slots decoded as they were compiled (their words checked above), marked again
        again = [i for i in older if i in slots and i not in marked and slots[i] == older[i]]
        for i in again:
            m.dc_op[row, i] = MARK_BASE - older[i][1]
        if not chosen or chosen <= marked:
            continue
        chosen_slots = {i: slots[i] for i in chosen}
        if chain is not None and chain.depth >= (LOADED_DEPTH if chain.loaded else MAX_DEPTH):
            chosen_slots = {**older, **chosen_slots}          # too deep: one function again
            chain = None
        fallback = (chain.address, chain.key) if chain is not None else None
        built = build(page, chosen_slots, R, V, st, m, fallback, frozenset(older) if fallback else frozenset())
        if built is None:                                     # not compiled: the build limit
            continue
        address, lib, key, compiled = built
        if chain is None:
            chain = _Chain(row, address, chosen_slots, 1, key, not compiled)
        else:
            chain = _Chain(row, address, {**older, **chosen_slots}, chain.depth + 1, key, chain.loaded and not compiled)
        if lib is not None:
            _libraries.append(lib)
        chains[page] = chain
        for i, (_, op, *_rest) in chosen_slots.items():
            m.dc_op[row, i] = MARK_BASE - op
        m.dc_nat[row, DC_NAT] = address
        done += 1
    return done
