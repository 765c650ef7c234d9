"""Which function executes which table row: the registry the hot loop is generated from.

An executor family is one function `f(op, w, imm, pc, R, st, a, b, c, d) -> next pc`
that implements one or more rows of decode_table (QEMU's `TRANS(ROW, gen_family)`):
`op` is the row's id, `w` the word, `imm` the decoder's pre-computed immediate,
a/b/c/d the resolved register operands (decode_table: register operands), `st`
the stop array for faults.  A family is ordinary numba code and can be called
as it is (tests do); the hot loop does not call it but carries a copy of its
body per row, made by gen_loop.py, because a numba call per instruction costs
more than the instruction.

Adding an instruction: a row in decode_table, a family (or one more row name on
an existing family), then `python -m ncpu.arm64.cpu.gen_loop`.
"""

from . import decode_table as T
from .jit import njit

EXECUTOR: dict[str, object] = {}     # row name -> its executor family (numba dispatcher)
INLINED: dict[str, object] = {}      # helper name -> helper the loop generator copies in (inlined)
OUT_OF_LINE: set[str] = set()        # rows of other classes than SIMD that run out of line too (cold=True)
HOT: set[str] = set()                # SIMD rows that the loop carries inline all the same (hot=True)
RARE: dict[str, object] = {}         # helper name -> a family's rare case, run out of the loop (rare)

# The callers that take a family's code in place of a call to it (numba's untyped inliner): the
# one-line functions that give each cold family the loop's calling convention (cold_rows).
# Called, the family was compiled on its own as well, its code through numba's pipeline, LLVM's
# passes and code generation twice.  Not into native.py's family_ functions: they call the
# family, compiled on its own once for all of them, which cost less than inlining it into each
# (arm64_native_build.py on arm64_fp, docs/arm64.md).
INLINE_INTO = ("ncpu.arm64.cpu.cold_rows",)


def _into_wrappers(call, caller_ir, family_ir) -> bool:
    """numba's inline cost model (`inline=` a callable): inline a family into INLINE_INTO only."""
    return caller_ir.func_id.modname.startswith(INLINE_INTO)


def executes(*names: str, cold: bool = False, hot: bool | tuple[str, ...] = False):
    """Register the decorated function as the executor of the named rows.
    cold=True: rare rows, called from cold_rows rather than copied into the
    hot loop (as every SIMD row is), so that they do not lengthen its compile.
    hot=True: SIMD rows the loop carries inline all the same (the few that gcc's
    vectorised loops live on); hot=(NAME, ...): only those of the family's rows."""
    def register(fn):
        jitted = njit(cache=True, inline=_into_wrappers)(fn)
        for name in names:
            if name not in T.BY_NAME:
                raise ValueError(f"{fn.__name__}: no table row named {name}")
            if name in EXECUTOR:
                raise ValueError(f"row {name} has two executors: {EXECUTOR[name].__name__} and {fn.__name__}")
            EXECUTOR[name] = jitted
            if cold:
                OUT_OF_LINE.add(name)
            if hot is True or name in (hot or ()):
                HOT.add(name)
        unknown = set(hot) - set(names) if isinstance(hot, tuple) else set()
        if unknown:
            raise ValueError(f"{fn.__name__}: hot= names rows it does not execute: {sorted(unknown)}")
        return jitted
    return register


def inlined(fn):
    """A small helper of the families that gen_loop copies into the loop at each
    call (`x = helper(...)` or `helper(...)` as a statement), as it does family
    bodies: numba's own inlining of a helper that takes arrays still pays a
    reference count per array, several times the cost of a guest load."""
    return _registered(INLINED, fn)


def rare(fn):
    """A family's rare case (fp_arith's NaN operands and single precision: `_arith_rare`),
    which the loop does not carry.  Where a family the loop copies calls it, as a statement
    followed by `return` at the top of the family's body, before the family changed anything,
    the loop's copy calls the family's cold_rows function by its address instead, which runs
    the instruction again, whole (compiled when the first such case runs, as a cold row's is:
    gen_loop).  So the loop's compile leaves out the helper and what only it calls.  The family
    called as it is (cold_rows, native code, tests) calls the helper."""
    return _registered(RARE, fn)


def _registered(registry: dict, fn):
    """fn compiled (cached), entered in `registry` under its name for gen_loop."""
    jitted = njit(cache=True)(fn)
    registry[fn.__name__] = jitted
    return jitted
