"""The CPU features a guest is told about: AT_HWCAP, AT_HWCAP2 and the
`Features` line of /proc/cpuinfo, all three from the one list below.

A feature is advertised exactly when the CPU executes all of its
instructions; tests/arm64/linux/test_arm64linux_hwcap.py derives that set from
the decoder and compares.  Software acts on the bits: glibc's ifuncs read
AT_HWCAP, libgcc's outline atomics use LSE (CAS, LDADD ...) instead of
exclusive load/store loops when `atomics` is set, and a program with an
FMLAL or SQRDMLAH path looks for `asimdfhm` or `asimdrdm`.

PMULL 1Q runs, but `pmull` stays clear: the kernel sets it from
ID_AA64ISAR0_EL1.AES = 2, which means AES and PMULL together, and AESE/AESD/
AESMC/AESIMC are not implemented.  `cpuid` is clear too: MRS of the ID
registers (ID_AA64ISAR0_EL1 ...) is undefined here (only cpu/sysregs.py's
SUPPORTED_READ are readable), so no ID register can contradict these bits.
No AT_HWCAP2 feature is implemented (FEAT_FlagM2, FRINTTS, I8MM, BF16, RNG,
BTI, MTE, SVE2 ...), so AT_HWCAP2 is 0.  qemu-user's default `max` CPU
advertises far more (HWCAP 0xecfffffb, HWCAP2 0x7f877fff).
"""

from __future__ import annotations

# Linux's AT_HWCAP bits, in bit order, by their /proc/cpuinfo names
# (arch/arm64/include/uapi/asm/hwcap.h).
HWCAP_NAMES = ("fp", "asimd", "evtstrm", "aes", "pmull", "sha1", "sha2", "crc32",
               "atomics", "fphp", "asimdhp", "cpuid", "asimdrdm", "jscvt", "fcma", "lrcpc",
               "dcpop", "sha3", "sm3", "sm4", "asimddp", "sha512", "sve", "asimdfhm",
               "dit", "uscat", "ilrcpc", "flagm", "ssbs", "sb", "paca", "pacg")

ADVERTISED = (
    "fp",        # scalar floating point
    "asimd",     # Advanced SIMD
    "crc32",     # CRC32B..CRC32CX
    "atomics",   # FEAT_LSE: CAS, CASP, LDADD..LDUMIN, SWP
    "asimdrdm",  # FEAT_RDM: SQRDMLAH, SQRDMLSH
    "lrcpc",     # FEAT_LRCPC: LDAPR
    "asimdfhm",  # FEAT_FHM: FMLAL, FMLSL, FMLAL2, FMLSL2
    "sb",        # FEAT_SB: SB, a barrier like DSB/ISB here
)

HWCAP = sum(1 << HWCAP_NAMES.index(name) for name in ADVERTISED)
HWCAP2 = 0


def feature_names(bits: int) -> list[str]:
    """The names of the AT_HWCAP bits set in `bits`, in bit order (as /proc/cpuinfo
    lists them)."""
    return [name for i, name in enumerate(HWCAP_NAMES) if bits >> i & 1]
