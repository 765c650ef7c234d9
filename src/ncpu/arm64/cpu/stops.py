"""Why the compiled loop stopped: the stop array's slots, the stop reasons and the access kinds of a fault.

The loop and the executors never raise for the guest: they write a reason (and for a
fault the address and access) into the small int64 array `st` and return; cpu.Cpu.run
reads it (`Stop`).
"""
from .jit import njit

# stop array slots and values
ST_REASON, ST_ADDR, ST_ACCESS, ST_WORD = 0, 1, 2, 3
ST_NATIVE, ST_ENTERED = 4, 5  # instructions retired in native code (native.py), and the times the
                              # loop entered it, during one call of the loop: Cpu.run adds them up
ST_SIZE = 6
R_NONE, R_SVC, R_BUDGET, R_FAULT, R_UNDEF, R_BRK, R_GROW = 0, 1, 2, 3, 4, 5, 6
R_HOOK = 7          # a breakpoint or trace hook asked to stop (hooks.py)
R_RESOLVE = 8       # an executor called by address is needed the first time (calls.py, entries.py)
R_HOT = 9           # a page became hot: Cpu.run samples it and translates (native.py)
A_READ, A_WRITE, A_EXEC, A_ALIGN = 0, 1, 2, 3     # A_ALIGN: misaligned exclusive/atomic


@njit(cache=True)
def fault(st, addr, access):
    if st[ST_REASON] == R_NONE:
        st[ST_REASON] = R_FAULT
        st[ST_ADDR] = addr
        st[ST_ACCESS] = access


COLD_GOES_ON, COLD_RETIRED, COLD_NOT_RETIRED = 0, 1, 2


@njit(cache=True)
def cold_outcome(st, pc):
    """What a stop recorded by an out-of-line row at `pc` means, for the loop's outer path and
    for native.py's page functions alike: COLD_GOES_ON (no stop); COLD_RETIRED (SVC: the row
    counts and the run stops after it, at its next pc); COLD_NOT_RETIRED (a fault, BRK, a group
    not yet resolved: the run stops at pc; an undefined instruction gets pc as its address)."""
    if st[ST_REASON] == R_NONE:
        return COLD_GOES_ON
    if st[ST_REASON] == R_SVC:
        return COLD_RETIRED
    if st[ST_REASON] == R_UNDEF:
        st[ST_ADDR] = pc
    return COLD_NOT_RETIRED
