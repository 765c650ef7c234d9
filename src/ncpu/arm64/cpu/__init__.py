"""AArch64 CPU core: guest memory, registers, a decode-cached compiled interpreter.

API contract (the Linux layer in ncpu.arm64.linux codes against exactly this):

    from ncpu.arm64.cpu import Memory, CpuState, Cpu, Stop, StopReason, GuestFault, disassemble

    mem = Memory()                      # guest space 0 .. 2**32-1, 4 KiB pages; outside -> fault
    mem.map(addr, size, prot)           # prot = PROT_READ 1 | PROT_WRITE 2 | PROT_EXEC 4; page aligned, zero-filled
    mem.unmap(addr, size); mem.protect(addr, size, prot)
    mem.is_mapped(addr, size) -> bool; mem.is_free(addr, size) -> bool   # no page mapped
    mem.find_free(size, hint=None) -> addr
    mem.read(addr, n) -> bytes; mem.write(addr, data)   # host side, ignores PROT_WRITE, GuestFault if unmapped
    mem.read_u64(addr); mem.write_u64(addr, v); mem.read_cstring(addr, limit=4096) -> bytes
    mem.fork() -> Memory                # independent copy

    state = CpuState()                  # x: np.uint64[31] (a view: state.x[0] = 5 works), sp, pc, nzcv (4 bits N Z C V),
                                        # v: np.uint64[32, 2] (low 64 bits first), fpcr, fpsr, tpidr_el0
    state.copy() -> CpuState

    cpu = Cpu(mem, state)
    stop = cpu.run(max_steps)           # runs until SVC / BRK / fault / undefined / budget
    stop.reason: StopReason.SVC         # state.pc is already AFTER the svc; syscall nr in x8; write x0, run again
                 StopReason.BUDGET
                 StopReason.FAULT       # stop.address, stop.access 'read'|'write'|'exec'|'align'
                                        # ('align': misaligned exclusive/atomic); pc at the faulting insn
                 StopReason.UNDEFINED   # stop.word, state.pc is its address
                 StopReason.BRK         # stop.word, state.pc is the brk itself
    stop.steps                          # instructions retired in this call (an SVC counts as one)
    cpu.instructions                    # total retired ever by this Cpu
    disassemble(code: bytes, addr: int) -> list[tuple[int, str]]    # one line per 4-byte word

System registers as qemu-user shows them: MIDR_EL1 0xf0510, DCZID_EL0 7 (DC ZVA
zeroes 512 bytes), CTR_EL0 0x80038003, CNTFRQ_EL0 62500000.  CNTVCT_EL0 is
deterministic: it is cpu.instructions at the reading instruction (one tick per
instruction, so 62.5 M instructions read as one virtual second).
"""
from ncpu.jitcache import install as _install_jit_cache

_install_jit_cache()    # before any module below is compiled: see ncpu.jitcache

from .disasm import disassemble  # noqa: E402
from .memory import PROT_EXEC, PROT_NONE, PROT_READ, PROT_WRITE, GuestFault, Memory  # noqa: E402
from .state import CpuState  # noqa: E402

__all__ = ["Memory", "CpuState", "Cpu", "Stop", "StopReason", "GuestFault", "disassemble",
           "PROT_NONE", "PROT_READ", "PROT_WRITE", "PROT_EXEC"]


def __getattr__(name: str):
    """Cpu, Stop and StopReason, imported at first use: cpu.py imports the generated run.py and
    cold_rows, which name the executor families, and `python -m ncpu.arm64.cpu.gen_loop` (which
    rewrites them) imports this package first, so a renamed or removed family must not stop it."""
    if name in ("Cpu", "Stop", "StopReason"):
        from . import cpu
        return getattr(cpu, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
