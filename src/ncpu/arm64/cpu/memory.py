"""Guest virtual memory: a flat page table over a 4 GiB guest space.

Why this shape: the compiled hot loop needs plain numpy arrays it can index
without calling back into Python.  A guest page number (addr >> 12) indexes
`pt` (int32, -1 = unmapped) which names a row of the backing store `data`
(one flat uint8 array, 4096 bytes per row) and `perm` (PROT_* bits).
Aligned accesses use typed views of the same buffer (`d16`, `d32`, `d64`).

The decode cache lives here too because it belongs to the address space:
`dc_row[page]` is the decode-cache row of a page that holds decoded code
(-1 if none); a guest or host write to such a page marks its row undecoded.
"""
from __future__ import annotations

from collections import namedtuple

import numpy as np

PAGE_SHIFT = 12
PAGE_SIZE = 1 << PAGE_SHIFT
PAGE_MASK = PAGE_SIZE - 1
ADDR_BITS = 32                      # guest space is [0, 4 GiB); beyond faults
NPAGES = 1 << (ADDR_BITS - PAGE_SHIFT)
WORDS_PER_PAGE = PAGE_SIZE // 4

PROT_NONE, PROT_READ, PROT_WRITE, PROT_EXEC = 0, 1, 2, 4

# Arrays handed to the compiled code, as one namedtuple (numba supports them).
MemArrays = namedtuple(
    "MemArrays",
    "pt perm data d16 d32 d64 dc_row dc_op dc_word dc_imm dc_regs dc_meta",
)


class GuestFault(Exception):
    """A host-side access touched guest memory that is not mapped."""

    def __init__(self, address: int, access: str = "read"):
        super().__init__(f"guest {access} fault at {address:#x}")
        self.address = address
        self.access = access


def _check_range(addr: int, size: int) -> tuple[int, int]:
    if addr & PAGE_MASK:
        raise ValueError(f"address {addr:#x} is not page aligned")
    if size <= 0:
        raise ValueError("size must be positive")
    first = addr >> PAGE_SHIFT
    last = (addr + size - 1) >> PAGE_SHIFT
    if last >= NPAGES:
        raise ValueError(f"range {addr:#x}+{size:#x} is outside the 4 GiB guest space")
    return first, last + 1


class Memory:
    """Guest virtual memory (see module docstring)."""

    def __init__(self, _rows: int = 16, _dc_rows: int = 16):
        self.pt = np.full(NPAGES, -1, np.int32)
        self.perm = np.zeros(NPAGES, np.uint8)
        self._set_data(np.zeros(_rows * PAGE_SIZE, np.uint8))
        self._free = list(range(_rows - 1, -1, -1))      # free backing rows (a stack)
        self.dc_row = np.full(NPAGES, -1, np.int32)
        self._dc_alloc(_dc_rows)
        self.dc_meta = np.zeros(2, np.int64)              # [0] = decode rows in use
        self._arrays = None

    # ---- backing store -------------------------------------------------
    def _set_data(self, data: np.ndarray) -> None:
        self.data = data
        self._arrays = None

    def _grow(self, need: int) -> None:
        rows = len(self.data) // PAGE_SIZE
        new_rows = max(rows * 2, rows + need)
        data = np.zeros(new_rows * PAGE_SIZE, np.uint8)
        data[: len(self.data)] = self.data
        self._free = list(range(new_rows - 1, rows - 1, -1)) + self._free
        self._set_data(data)

    def _dc_alloc(self, rows: int) -> None:
        self.dc_op = np.full((rows, WORDS_PER_PAGE), -1, np.int32)
        self.dc_word = np.zeros((rows, WORDS_PER_PAGE), np.int64)
        self.dc_imm = np.zeros((rows, WORDS_PER_PAGE), np.int64)
        self.dc_regs = np.zeros((rows, WORDS_PER_PAGE), np.int32)   # decoder.regs_of
        self._arrays = None

    def grow_decode_cache(self) -> None:
        """Called by the CPU when the compiled loop ran out of decode rows."""
        old = (self.dc_op, self.dc_word, self.dc_imm, self.dc_regs)
        n = len(old[0])
        self._dc_alloc(n * 2)
        self.dc_op[:n], self.dc_word[:n], self.dc_imm[:n], self.dc_regs[:n] = old

    def arrays(self) -> MemArrays:
        """The arrays the compiled code works on (rebuilt after growth)."""
        if self._arrays is None:
            d = self.data
            self._arrays = MemArrays(self.pt, self.perm, d, d.view(np.uint16), d.view(np.uint32),
                                     d.view(np.int64), self.dc_row, self.dc_op, self.dc_word,
                                     self.dc_imm, self.dc_regs, self.dc_meta)
        return self._arrays

    def _invalidate_code(self, first: int, end: int) -> None:
        rows = self.dc_row[first:end]
        rows = rows[rows >= 0]
        if len(rows):
            self.dc_op[rows] = -1

    # ---- mapping ---------------------------------------------------------
    def map(self, addr: int, size: int, prot: int) -> None:
        """Map zero-filled pages over [addr, addr+size); replaces existing pages."""
        first, end = _check_range(addr, size)
        self.unmap(addr, size)
        n = end - first
        if n > len(self._free):
            self._grow(n - len(self._free))
        rows = [self._free.pop() for _ in range(n)]
        self.pt[first:end] = rows
        self.perm[first:end] = prot & 7
        for r in rows:  # rows may be reused after unmap: zero them
            self.data[r * PAGE_SIZE:(r + 1) * PAGE_SIZE] = 0

    def unmap(self, addr: int, size: int) -> None:
        first, end = _check_range(addr, size)
        rows = self.pt[first:end]
        self._free.extend(int(r) for r in rows[rows >= 0])
        self._invalidate_code(first, end)
        self.pt[first:end] = -1
        self.perm[first:end] = 0

    def protect(self, addr: int, size: int, prot: int) -> None:
        """Change permissions; raises GuestFault if part of the range is unmapped."""
        first, end = _check_range(addr, size)
        if (self.pt[first:end] < 0).any():
            raise GuestFault(addr, "protect")
        self._invalidate_code(first, end)
        self.perm[first:end] = prot & 7

    def is_mapped(self, addr: int, size: int) -> bool:
        if size <= 0:
            return True
        if addr < 0 or addr + size > NPAGES << PAGE_SHIFT:
            return False
        first, end = addr >> PAGE_SHIFT, ((addr + size - 1) >> PAGE_SHIFT) + 1
        return bool((self.pt[first:end] >= 0).all())

    def is_free(self, addr: int, size: int) -> bool:
        """True if no page of [addr, addr+size) is mapped and the range lies in
        guest space above the zero page (cost: the range's pages only)."""
        if size <= 0:
            return True
        if addr < PAGE_SIZE or addr + size > NPAGES << PAGE_SHIFT:
            return False
        first, end = addr >> PAGE_SHIFT, ((addr + size - 1) >> PAGE_SHIFT) + 1
        return not bool((self.pt[first:end] >= 0).any())

    def find_free(self, size: int, hint: int | None = None) -> int:
        """Lowest free page-aligned range of `size` bytes at or above `hint`
        (default 0x1000_0000); searched upward, then from the bottom."""
        n = (size + PAGE_MASK) >> PAGE_SHIFT
        free = self.pt < 0
        free[0] = False                       # never hand out the zero page
        for start in ([hint >> PAGE_SHIFT] if hint else []) + [0x10000, 1]:
            pos = self._find_run(free, n, start)
            if pos is not None:
                return pos << PAGE_SHIFT
        raise MemoryError(f"no free guest range of {size:#x} bytes")

    @staticmethod
    def _find_run(free: np.ndarray, n: int, start: int):
        f = free[start:].astype(np.int8)
        if len(f) < n:
            return None
        # run starts where a free page follows a used one; check run lengths
        c = np.concatenate(([0], np.cumsum(f, dtype=np.int64)))
        ok = np.nonzero(c[n:] - c[:-n] == n)[0]
        return None if len(ok) == 0 else start + int(ok[0])

    # ---- host-side access (ignores PROT_WRITE; the loader needs that) -----
    def _row_span(self, addr: int, n: int, access: str):
        """Yield (offset into data, length, guest addr) chunks, faulting if unmapped."""
        end = addr + n
        while addr < end:
            page = addr >> PAGE_SHIFT
            if addr < 0 or page >= NPAGES or self.pt[page] < 0:
                raise GuestFault(addr, access)
            off = addr & PAGE_MASK
            k = min(end - addr, PAGE_SIZE - off)
            yield int(self.pt[page]) * PAGE_SIZE + off, k, addr
            addr += k

    def read(self, addr: int, n: int) -> bytes:
        spans = list(self._row_span(addr, n, "read"))
        return b"".join(self.data[o:o + k].tobytes() for o, k, _ in spans)

    def write(self, addr: int, data) -> None:
        data = bytes(data)
        spans = list(self._row_span(addr, len(data), "write"))   # fault before writing
        pos = 0
        for o, k, a in spans:
            self.data[o:o + k] = np.frombuffer(data, np.uint8, k, pos)
            page = a >> PAGE_SHIFT
            if self.dc_row[page] >= 0:
                self.dc_op[self.dc_row[page]] = -1
            pos += k

    def read_u64(self, addr: int) -> int:
        return int.from_bytes(self.read(addr, 8), "little")

    def write_u64(self, addr: int, v: int) -> None:
        self.write(addr, (v & (2**64 - 1)).to_bytes(8, "little"))

    def read_cstring(self, addr: int, limit: int = 4096) -> bytes:
        """Bytes up to (not including) the first NUL, at most `limit` bytes."""
        out = bytearray()
        while len(out) < limit:
            page_left = PAGE_SIZE - (addr & PAGE_MASK)
            chunk = self.read(addr, min(page_left, limit - len(out)))
            i = chunk.find(b"\0")
            if i >= 0:
                return bytes(out + chunk[:i])
            out += chunk
            addr += len(chunk)
        return bytes(out)

    def fork(self) -> "Memory":
        """Independent copy: page table, permissions and every used page.
        The child starts with an empty decode cache."""
        child = Memory.__new__(Memory)
        child.pt = self.pt.copy()
        child.perm = self.perm.copy()
        child._set_data(self.data.copy())
        child._free = list(self._free)
        child.dc_row = np.full(NPAGES, -1, np.int32)
        child._dc_alloc(16)
        child.dc_meta = np.zeros(2, np.int64)
        return child
