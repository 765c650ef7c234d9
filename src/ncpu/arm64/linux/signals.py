"""Signal delivery: Linux's arm64 rt_sigframe on the guest stack, and rt_sigreturn.

The frame is `struct rt_sigframe` (siginfo, then ucontext whose mcontext
holds x0..x30, sp, pc, pstate and an FPSIMD record in __reserved),
followed by a frame record (x29, x30) that x29 points at, as the kernel
builds it.  The handler returns through sa_restorer if the guest gave one, else
through our trampoline page (see TRAMPOLINE).
"""

from __future__ import annotations

import struct

import numpy as np

from . import abi

# Signals whose default action is to do nothing.  There is no job control,
# so stop signals are ignored as well.
DEFAULT_IGNORE = {abi.SIGCHLD, abi.SIGCONT, abi.SIGURG, abi.SIGWINCH, abi.SIGSTOP,
                  abi.SIGTSTP, abi.SIGTTIN, abi.SIGTTOU}
UNBLOCKABLE = (1 << (abi.SIGKILL - 1)) | (1 << (abi.SIGSTOP - 1))

# arm64 glibc does not set SA_RESTORER: Linux returns from handlers through
# the vDSO's sigreturn trampoline.  We have no vDSO, so every process gets
# one read-only page holding that trampoline: mov x8, #139; svc #0.
TRAMPOLINE = 0xFFFFE000
TRAMPOLINE_CODE = struct.pack("<II", 0xD2801168, 0xD4000001)


def map_trampoline(mem) -> None:
    mem.map(TRAMPOLINE, abi.PAGE, abi.PROT_READ | abi.PROT_EXEC)
    mem.write(TRAMPOLINE, TRAMPOLINE_CODE)


def bit(signo: int) -> int:
    return 1 << (signo - 1)


def siginfo(signo: int, code: int = 0, *, addr: int | None = None, pid: int = 0, uid: int = 0,
            status: int | None = None) -> bytes:
    """struct siginfo: signo, errno, code, then the union (fault address or sender)."""
    head = struct.pack("<iii4x", signo, 0, code)
    if addr is not None:
        body = struct.pack("<Q", addr & abi.MASK64)
    elif status is not None:
        body = struct.pack("<iIiiqq", pid, uid, status, 0, 0, 0)
    else:
        body = struct.pack("<iI", pid, uid)
    data = head + body
    return data + bytes(abi.SIGINFO_SIZE - len(data))


def on_altstack(proc, sp: int) -> bool:
    base, flags, size = proc.altstack
    return not flags & abi.SS_DISABLE and base < sp <= base + size


def setup_frame(proc, signo: int, info: bytes, action, fault_address: int = 0,
                saved_mask: int | None = None) -> None:
    """Push a signal frame and point the registers at the handler."""
    state, mem = proc.state, proc.mem
    sp = state.sp
    base, flags, size = proc.altstack
    if action.flags & abi.SA_ONSTACK and not flags & abi.SS_DISABLE and not on_altstack(proc, sp):
        sp = base + size
    frame = (sp - abi.SIGFRAME_SIZE - 16) & ~15
    uc = frame + abi.SIGINFO_SIZE
    record = frame + abi.SIGFRAME_SIZE
    x = [int(v) for v in state.x]
    ss_flags = abi.SS_DISABLE if flags & abi.SS_DISABLE else (abi.SS_ONSTACK if on_altstack(proc, state.sp) else 0)
    ucontext = bytearray(abi.UCONTEXT_SIZE)
    struct.pack_into("<QQQiiQQ", ucontext, 0, 0, 0, base, ss_flags, 0, size,
                     proc.sigmask if saved_mask is None else saved_mask)
    struct.pack_into("<Q31QQQQ", ucontext, abi.UC_MCONTEXT, fault_address & abi.MASK64, *x,
                     state.sp, state.pc, (state.nzcv & 15) << 28)
    fp = abi.UC_MCONTEXT + abi.MC_RESERVED
    struct.pack_into("<IIII", ucontext, fp, abi.FPSIMD_MAGIC, abi.FPSIMD_SIZE,
                     state.fpsr & 0xFFFFFFFF, state.fpcr & 0xFFFFFFFF)
    ucontext[fp + 16:fp + 16 + 512] = np.ascontiguousarray(state.v, dtype=np.uint64).tobytes()
    # the terminator record (magic 0, size 0) is already zero
    mem.write(frame, info)
    mem.write(uc, bytes(ucontext))
    mem.write(record, struct.pack("<QQ", x[29], x[30]))
    state.x[0] = signo
    state.x[1] = frame
    state.x[2] = uc
    state.x[29] = record
    state.x[30] = action.restorer if action.flags & abi.SA_RESTORER else TRAMPOLINE
    state.sp = frame
    state.pc = action.handler
    proc.sigmask |= action.mask
    if not action.flags & abi.SA_NODEFER:
        proc.sigmask |= bit(signo)
    proc.sigmask &= ~UNBLOCKABLE
    if action.flags & abi.SA_RESETHAND:
        action.handler, action.flags = abi.SIG_DFL, 0


def sigreturn(proc) -> None:
    """Restore registers, mask and FP state from the frame at sp."""
    state, mem = proc.state, proc.mem
    uc = state.sp + abi.SIGINFO_SIZE
    data = mem.read(uc, abi.UCONTEXT_SIZE)
    (mask,) = struct.unpack_from("<Q", data, abi.UC_SIGMASK)
    regs = struct.unpack_from("<31QQQQ", data, abi.UC_MCONTEXT + abi.MC_REGS)
    for i in range(31):
        state.x[i] = regs[i]
    state.sp, state.pc = regs[31], regs[32]
    state.nzcv = (regs[33] >> 28) & 15
    fp = abi.UC_MCONTEXT + abi.MC_RESERVED
    magic, size, fpsr, fpcr = struct.unpack_from("<IIII", data, fp)
    if magic == abi.FPSIMD_MAGIC and size == abi.FPSIMD_SIZE:
        state.fpsr, state.fpcr = fpsr, fpcr
        state.v[:] = np.frombuffer(data, np.uint64, 64, fp + 16).reshape(32, 2)
    proc.sigmask = mask & ~UNBLOCKABLE
