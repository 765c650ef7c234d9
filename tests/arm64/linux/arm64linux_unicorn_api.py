"""A stand-in for ncpu.arm64.cpu built on unicorn: same Memory/CpuState/Cpu API.

Used to test the Linux layer against an independent emulator (and to develop
it before our CPU ran real code).  Instruction counts are per basic block,
so they are approximate: tests on this backend do not compare counts.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

import numpy as np
from unicorn import (UC_ARCH_ARM64, UC_HOOK_BLOCK, UC_HOOK_INTR, UC_HOOK_MEM_INVALID, UC_MODE_ARM, Uc,
                     UcError)
from unicorn import arm64_const as R

from ncpu.arm64.cpu.state import CpuState

PAGE = 4096


class GuestFault(Exception):
    def __init__(self, address: int, access: str = "read"):
        super().__init__(f"guest {access} fault at {address:#x}")
        self.address, self.access = address, access


class StopReason(enum.Enum):
    SVC = "svc"
    BUDGET = "budget"
    FAULT = "fault"
    UNDEFINED = "undefined"
    BRK = "brk"


@dataclass
class Stop:
    reason: StopReason
    steps: int
    address: int = 0
    access: str = ""
    word: int = 0


class Memory:
    def __init__(self):
        self.uc = Uc(UC_ARCH_ARM64, UC_MODE_ARM)
        self.uc.ctl_set_cpu_model = None
        self.pages: dict[int, int] = {}

    def map(self, addr, size, prot):
        self.unmap(addr, size)
        self.uc.mem_map(addr, size, 7)
        for a in range(addr, addr + size, PAGE):
            self.pages[a] = prot & 7

    def unmap(self, addr, size):
        for a in range(addr, addr + size, PAGE):
            if a in self.pages:
                del self.pages[a]
                self.uc.mem_unmap(a, PAGE)

    def protect(self, addr, size, prot):
        if not self.is_mapped(addr, size):
            raise GuestFault(addr, "protect")
        for a in range(addr, addr + size, PAGE):
            self.pages[a] = prot & 7

    def is_mapped(self, addr, size):
        a = addr & ~(PAGE - 1)
        while a < addr + size:
            if a not in self.pages:
                return False
            a += PAGE
        return True

    def find_free(self, size, hint=None):
        n = (size + PAGE - 1) // PAGE
        for start in ([hint] if hint else []) + [0x10000000, PAGE]:
            a = start
            while a + size <= 1 << 32:
                bad = next((b for b in range(a, a + n * PAGE, PAGE) if b in self.pages), None)
                if bad is None:
                    return a
                a = bad + PAGE
        raise MemoryError(size)

    def read(self, addr, n):
        if not self.is_mapped(addr, n):
            raise GuestFault(addr, "read")
        return bytes(self.uc.mem_read(addr, n))

    def write(self, addr, data):
        data = bytes(data)
        if not self.is_mapped(addr, len(data)):
            raise GuestFault(addr, "write")
        self.uc.mem_write(addr, data)

    def read_u64(self, addr):
        return int.from_bytes(self.read(addr, 8), "little")

    def write_u64(self, addr, v):
        self.write(addr, (v & (2**64 - 1)).to_bytes(8, "little"))

    def read_cstring(self, addr, limit=4096):
        out = bytearray()
        while len(out) < limit:
            chunk = self.read(addr, min(PAGE - (addr % PAGE), limit - len(out)))
            i = chunk.find(b"\0")
            if i >= 0:
                return bytes(out + chunk[:i])
            out += chunk
            addr += len(chunk)
        return bytes(out)

    def fork(self):
        child = Memory()
        for a, prot in sorted(self.pages.items()):
            child.uc.mem_map(a, PAGE, 7)
            child.uc.mem_write(a, bytes(self.uc.mem_read(a, PAGE)))
            child.pages[a] = prot
        return child


_X = [getattr(R, f"UC_ARM64_REG_X{i}") for i in range(29)] + [R.UC_ARM64_REG_X29, R.UC_ARM64_REG_X30]
_V = [getattr(R, f"UC_ARM64_REG_Q{i}") for i in range(32)]


class Cpu:
    def __init__(self, mem: Memory, state: CpuState):
        self.mem, self.state = mem, state
        self.instructions = 0
        uc = mem.uc
        self._hooked = getattr(uc, "_ncpu_hooked", False)
        if not self._hooked:
            uc.hook_add(UC_HOOK_INTR, self._intr)
            uc.hook_add(UC_HOOK_BLOCK, self._block)
            uc.hook_add(UC_HOOK_MEM_INVALID, self._invalid)
            uc._ncpu_hooked = True
            uc._ncpu_cpu = self
        # CPACR: enable FP
        uc.reg_write(R.UC_ARM64_REG_CPACR_EL1, 0x300000)

    def _intr(self, uc, intno, _):
        me = uc._ncpu_cpu
        me._stop = ("intr", intno)
        uc.emu_stop()

    def _block(self, uc, addr, size, _):
        me = uc._ncpu_cpu
        me._count += size // 4

    def _invalid(self, uc, access, addr, size, value, _):
        me = uc._ncpu_cpu
        me._stop = ("fault", addr)
        return False

    def run(self, max_steps: int) -> Stop:
        uc, st = self.mem.uc, self.state
        uc._ncpu_cpu = self
        for i in range(31):
            uc.reg_write(_X[i], int(st.x[i]))
        uc.reg_write(R.UC_ARM64_REG_SP, st.sp)
        uc.reg_write(R.UC_ARM64_REG_NZCV, st.nzcv << 28)
        uc.reg_write(R.UC_ARM64_REG_TPIDR_EL0, st.tpidr_el0)
        uc.reg_write(R.UC_ARM64_REG_FPCR, st.fpcr)
        uc.reg_write(R.UC_ARM64_REG_FPSR, st.fpsr)
        for i in range(32):
            uc.reg_write(_V[i], int(st.v[i, 0]) | (int(st.v[i, 1]) << 64))
        self._stop = None
        self._count = 0
        pc = st.pc
        try:
            uc.emu_start(pc, 1 << 48, count=max_steps)
            err = None
        except UcError as e:
            err = e
        for i in range(31):
            st.x[i] = uc.reg_read(_X[i])
        st.sp = uc.reg_read(R.UC_ARM64_REG_SP)
        st.pc = uc.reg_read(R.UC_ARM64_REG_PC)
        st.nzcv = uc.reg_read(R.UC_ARM64_REG_NZCV) >> 28
        st.tpidr_el0 = uc.reg_read(R.UC_ARM64_REG_TPIDR_EL0)
        st.fpcr = uc.reg_read(R.UC_ARM64_REG_FPCR)
        st.fpsr = uc.reg_read(R.UC_ARM64_REG_FPSR)
        for i in range(32):
            q = uc.reg_read(_V[i])
            st.v[i, 0] = q & (2**64 - 1)
            st.v[i, 1] = q >> 64
        steps = max(1, min(self._count, max_steps))
        self.instructions += steps
        if self._stop and self._stop[0] == "intr":
            word = int.from_bytes(uc.mem_read(st.pc - 4, 4), "little")
            if word & 0xFFE0001F == 0xD4200000:
                return Stop(StopReason.BRK, steps)
            return Stop(StopReason.SVC, steps)
        if self._stop and self._stop[0] == "fault":
            return Stop(StopReason.FAULT, steps, address=self._stop[1])
        if err is not None:
            word = 0
            try:
                word = int.from_bytes(uc.mem_read(st.pc, 4), "little")
            except UcError:
                return Stop(StopReason.FAULT, steps, address=st.pc, access="exec")
            return Stop(StopReason.UNDEFINED, steps, word=word)
        return Stop(StopReason.BUDGET, steps)
