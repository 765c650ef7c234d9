"""System registers a user-mode guest may touch, with the values qemu-user shows.

Keys are the 15-bit o0:op1:CRn:CRm:op2 field of MRS/MSR (op0 = 2 + o0).
Values measured with a static C program reading them under qemu-aarch64
(qemu 'max' CPU): MIDR_EL1 = 0xf0510, DCZID_EL0 = 7 (DC ZVA allowed, 512-byte
blocks), CNTFRQ_EL0 = 62.5 MHz, CTR_EL0 as below.

CNTVCT_EL0 is virtual and deterministic: it equals the number of guest
instructions retired so far (so 62.5 M instructions read as one second).
"""


def sysreg(op0: int, op1: int, crn: int, crm: int, op2: int) -> int:
    return ((op0 - 2) << 14) | (op1 << 11) | (crn << 7) | (crm << 3) | op2


NZCV = sysreg(3, 3, 4, 2, 0)
FPCR = sysreg(3, 3, 4, 4, 0)
FPSR = sysreg(3, 3, 4, 4, 1)
TPIDR_EL0 = sysreg(3, 3, 13, 0, 2)
CNTVCT_EL0 = sysreg(3, 3, 14, 0, 2)
CNTFRQ_EL0 = sysreg(3, 3, 14, 0, 0)
DCZID_EL0 = sysreg(3, 3, 0, 0, 7)
CTR_EL0 = sysreg(3, 3, 0, 0, 1)
MIDR_EL1 = sysreg(3, 0, 0, 0, 0)

CNTFRQ_VALUE = 62_500_000
DCZID_VALUE = 7
ZVA_BYTES = 4 << DCZID_VALUE
MIDR_VALUE = 0xF0510
CTR_VALUE = 0x80038003

SUPPORTED_READ = {NZCV, FPCR, FPSR, TPIDR_EL0, CNTVCT_EL0, CNTFRQ_EL0, DCZID_EL0, CTR_EL0, MIDR_EL1}
SUPPORTED_WRITE = {NZCV, FPCR, FPSR, TPIDR_EL0}

NAMES = {NZCV: "nzcv", FPCR: "fpcr", FPSR: "fpsr", TPIDR_EL0: "tpidr_el0", CNTVCT_EL0: "cntvct_el0",
         CNTFRQ_EL0: "cntfrq_el0", DCZID_EL0: "dczid_el0", CTR_EL0: "ctr_el0", MIDR_EL1: "midr_el1"}
