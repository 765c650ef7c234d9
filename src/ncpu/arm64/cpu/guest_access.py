"""Guest loads and stores from compiled code, through the page table, with permission checks.

Faults do not raise: they record (R_FAULT, address, access) in the stop array
`st` (stops.fault) and return 0; the executor then leaves the instruction unretired.
Stores into a page that holds decoded code reset that page's decode-cache
row, which is how self-modifying and JIT-written code stays correct.

The loop's copies of the load and store rows (gen_loop) inline the access
within one mapped page and call `slow_load`, `slow_store` or `slow_writable`
for the rest (a page crossing, a fault): calls that LLVM keeps as calls
(lean_lowering.slow_path), taking the loop's frame pointer `cp`
(calls.pointer_to of its `(R, V, st, m)`) rather than the memory arrays, which
numba would pass as about a hundred values.  Inlined, each of the loop's 48
sites carried about 180 LLVM instructions of code that almost never runs.
native.py's row functions call them too, and a page function calls the copy
loaded in the process (native._slow_paths) instead of compiling them into
every page (docs/arm64.md, "Cheaper page builds").
"""
import numpy as np
from llvmlite import ir
from numba import types
from numba.extending import intrinsic

from .borrowed import borrowed_at
from .jit import njit
from .lean_lowering import slow_path
from .memory import NPAGES
from .rows import inlined
from .stops import A_READ, A_WRITE, fault


def _host_access(bits):
    """(load, store) of a `bits`-wide little-endian integer at any byte offset of a uint8
    array: one host access with alignment 1 (x86-64 and AArch64 hosts allow it; the
    backing store is little-endian like the guest).  Why: an aligned-only fast path sent
    every unaligned guest access (memmove to an odd address, unaligned string loads)
    to the byte-by-byte general path."""
    ity = ir.IntType(bits)

    def address(context, builder, sig, args):
        data = context.make_array(sig.args[0])(context, builder, args[0])
        idx = context.cast(builder, args[1], sig.args[1], types.int64)
        return builder.bitcast(builder.gep(data.data, [idx]), ity.as_pointer())

    def load_at(typingctx, data, idx):
        def codegen(context, builder, sig, args):
            v = builder.load(address(context, builder, sig, args), align=1)
            return v if bits == 64 else builder.zext(v, ir.IntType(64))
        return types.int64(data, idx), codegen

    def store_at(typingctx, data, idx, val):
        def codegen(context, builder, sig, args):
            v = context.cast(builder, args[2], sig.args[2], types.int64)
            builder.store(v if bits == 64 else builder.trunc(v, ity), address(context, builder, sig, args), align=1)
            return context.get_dummy_value()
        return types.void(data, idx, val), codegen

    load_at.__name__ = load_at.__qualname__ = f"load{bits}"
    store_at.__name__ = store_at.__qualname__ = f"store{bits}"
    return intrinsic(load_at), intrinsic(store_at)


load16, store16 = _host_access(16)
load32, store32 = _host_access(32)
load64, store64 = _host_access(64)


# The access of load/store inside one page; the loop's load/store families copy them in
# (rows.inlined).  idx need not be aligned.
@inlined
def host_read(m, idx, e):
    """e (1, 2, 4, 8) bytes at offset idx of the backing store, zero-extended."""
    if e == 8:
        return load64(m.data, idx)
    if e == 4:
        return load32(m.data, idx)
    if e == 2:
        return load16(m.data, idx)
    return np.int64(m.data[idx])


@inlined
def host_write(m, idx, e, x):
    if e == 8:
        store64(m.data, idx, x)
    elif e == 4:
        store32(m.data, idx, x)
    elif e == 2:
        store16(m.data, idx, x)
    else:
        m.data[idx] = x & 0xFF


@njit(cache=True)
def _row(m, page, need):
    """Backing row of a page if it is mapped with permission `need`, else -1."""
    if page < 0 or page >= NPAGES:
        return -1
    r = m.pt[page]
    if r < 0 or (m.perm[page] & need) == 0:
        return -1
    return np.int64(r)


@njit(cache=True)
def load(m, st, addr, size):
    """Zero-extended little-endian load of 1, 2, 4 or 8 bytes."""
    off = addr & 4095
    if off + size <= 4096:
        row = _row(m, addr >> 12, 1)
        if row < 0:
            fault(st, addr, A_READ)
            return np.int64(0)
        return host_read(m, (row << 12) + off, size)
    # crosses a page boundary: byte by byte
    v = np.int64(0)
    for i in range(size):
        a = addr + i
        row = _row(m, a >> 12, 1)
        if row < 0:
            fault(st, a, A_READ)
            return np.int64(0)
        v |= np.int64(m.data[(row << 12) + (a & 4095)]) << (8 * i)
    return v


@njit(cache=True)
def zero_block(m, st, addr, n):
    """Zero n bytes at addr, n a power of two <= 4096 and addr n-aligned (DC ZVA): one
    translation, then whole words; a fault stores nothing."""
    page = addr >> 12
    row = _row(m, page, 2)
    if row < 0:
        fault(st, addr, A_WRITE)
        return False
    _touch_code(m, page)
    base = ((row << 12) + (addr & 4095)) >> 3
    m.d64[base:base + (n >> 3)] = 0
    return True


@njit(cache=True)
def _touch_code(m, page):
    r = m.dc_row[page]
    if r >= 0:
        forget_decoded(m.dc_op, r)


@njit(cache=True)
def forget_decoded(dc_op, row):
    """Every slot of decode-cache row `row` to be decoded again (-1): a store reached its page,
    or the row is new.  A call, not the slice store in place: numba lowers `dc_op[row, :] = -1`
    to about 330 LLVM instructions, and the loop has one at each store path it carries."""
    dc_op[row, :] = -1


@njit(cache=True)
def writable(m, st, addr, size):
    """Check (and record a fault) before a store that must not half-happen."""
    if _row(m, addr >> 12, 2) < 0:
        fault(st, addr, A_WRITE)
        return False
    last = addr + size - 1
    if _row(m, last >> 12, 2) < 0:
        fault(st, last & -4096, A_WRITE)
        return False
    return True


@njit(cache=True)
def store(m, st, addr, size, val):
    off = addr & 4095
    page = addr >> 12
    if off + size <= 4096:
        row = _row(m, page, 2)
        if row < 0:
            fault(st, addr, A_WRITE)
            return
        _touch_code(m, page)
        host_write(m, (row << 12) + off, size, val)
        return
    if not writable(m, st, addr, size):
        return
    for i in range(size):
        a = addr + i
        row = _row(m, a >> 12, 2)
        _touch_code(m, a >> 12)
        m.data[(row << 12) + (a & 4095)] = (val >> (8 * i)) & 0xFF


@slow_path
@njit(cache=True)
def slow_load(cp, addr, size):
    """`load`, for the loop's copies of the rows (module docstring)."""
    R, V, st, m = borrowed_at(cp)
    return load(m, st, addr, size)


@slow_path
@njit(cache=True)
def slow_store(cp, addr, size, val):
    """`store`, for the loop's copies of the rows (module docstring)."""
    R, V, st, m = borrowed_at(cp)
    store(m, st, addr, size, val)


@slow_path
@njit(cache=True)
def slow_writable(cp, addr, size):
    """`writable`, for the loop's copies of the rows (module docstring)."""
    R, V, st, m = borrowed_at(cp)
    return writable(m, st, addr, size)
