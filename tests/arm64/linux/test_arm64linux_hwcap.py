"""AT_HWCAP advertises a feature exactly when the CPU implements all of it.

The expectation is derived from the implementation, not written down: for each
Linux HWCAP feature that has instructions, a few words covering its forms
(encodings by GNU as, their names checked with capstone below) go through the
decoder; the feature counts as implemented when none decodes as undefined.
The advertised set must be that set, so implementing a feature without
advertising it fails here, and so does advertising one the CPU cannot run.
"""

from __future__ import annotations

import struct

import capstone
import pytest

from ncpu.arm64.cpu.decoder import UNDEF, decode
from ncpu.arm64.linux import hwcap, procfs

# feature -> (word, the instruction it encodes): one word from each encoding group
# of the feature (vector, scalar, by element; atomic memory operation, swap,
# compare-and-swap, pair), not every opcode.
FEATURE_WORDS = {
    "fp": [(0x1E222820, "fadd s0, s1, s2"), (0x9E670020, "fmov d0, x1")],
    "asimd": [(0x4EA28420, "add v0.4s, v1.4s, v2.4s")],
    "aes": [(0x4E284820, "aese v0.16b, v1.16b"), (0x4E286820, "aesmc v0.16b, v1.16b")],
    # the kernel's pmull bit means ID_AA64ISAR0_EL1.AES = 2: AES and PMULL 1Q together
    "pmull": [(0x0EE2E020, "pmull v0.1q, v1.1d, v2.1d"), (0x4E284820, "aese v0.16b, v1.16b")],
    "sha1": [(0x5E020020, "sha1c q0, s1, v2.4s")],
    "sha2": [(0x5E024020, "sha256h q0, q1, v2.4s")],
    "crc32": [(0x1AC24020, "crc32b w0, w1, w2"), (0x9AC25C20, "crc32cx w0, w1, x2")],
    "atomics": [(0xF8200041, "ldadd x0, x1, [x2]"), (0x38A04041, "ldsmaxab w0, w1, [x2]"),
                (0xB8208041, "swp w0, w1, [x2]"), (0x08A07C41, "casb w0, w1, [x2]"),
                (0xC8A07C41, "cas x0, x1, [x2]"), (0x48207C82, "casp x0, x1, x2, x3, [x4]")],
    "fphp": [(0x1EE22820, "fadd h0, h1, h2")],
    "asimdhp": [(0x4E421420, "fadd v0.8h, v1.8h, v2.8h")],
    "cpuid": [(0xD5380600, "mrs x0, id_aa64isar0_el1")],
    "asimdrdm": [(0x6E828420, "sqrdmlah v0.4s, v1.4s, v2.4s"), (0x6E428C20, "sqrdmlsh v0.8h, v1.8h, v2.8h"),
                 (0x7E828420, "sqrdmlah s0, s1, s2"), (0x6FA2D020, "sqrdmlah v0.4s, v1.4s, v2.s[1]"),
                 (0x7F42F020, "sqrdmlsh h0, h1, v2.h[0]")],
    "jscvt": [(0x1E7E0020, "fjcvtzs w0, d1")],
    "fcma": [(0x6E82CC20, "fcmla v0.4s, v1.4s, v2.4s, #90")],
    "lrcpc": [(0xF8BFC020, "ldapr x0, [x1]")],
    "dcpop": [(0xD50B7C20, "dc cvap, x0")],
    "sha3": [(0xCE020C20, "eor3 v0.16b, v1.16b, v2.16b, v3.16b")],
    "sm3": [(0xCE420C20, "sm3ss1 v0.4s, v1.4s, v2.4s, v3.4s")],
    "sm4": [(0xCEC08420, "sm4e v0.4s, v1.4s")],
    "asimddp": [(0x4E829420, "sdot v0.4s, v1.16b, v2.16b")],
    "sha512": [(0xCE628020, "sha512h q0, q1, v2.2d")],
    "sve": [(0x04A20020, "add z0.s, z1.s, z2.s")],
    "asimdfhm": [(0x4E22EC20, "fmlal v0.4s, v1.4h, v2.4h"), (0x0EA2EC20, "fmlsl v0.2s, v1.2h, v2.2h"),
                 (0x6E22CC20, "fmlal2 v0.4s, v1.4h, v2.4h"), (0x6EA2CC20, "fmlsl2 v0.4s, v1.4h, v2.4h"),
                 (0x4FB20820, "fmlal v0.4s, v1.4h, v2.h[7]"), (0x2F92C020, "fmlsl2 v0.2s, v1.2h, v2.h[1]")],
    "ilrcpc": [(0xD9408020, "ldapur x0, [x1, #8]")],
    "flagm": [(0xD500401F, "cfinv"), (0xBA018402, "rmif x0, #3, #2"), (0x3A00080D, "setf8 w0")],
    "sb": [(0xD50330FF, "sb")],
    "paca": [(0xDAC10020, "pacia x0, x1")],
    "pacg": [(0x9AC23020, "pacga x0, x1, x2")],
}
# AT_HWCAP2 features with instructions; none may be implemented while AT_HWCAP2 is 0.
HWCAP2_WORDS = {
    "flagm2": [(0xD500405F, "axflag")],
    "frint": [(0x1E284020, "frint32z s0, s1")],
    "i8mm": [(0x4E82A420, "smmla v0.4s, v1.16b, v2.16b")],
    "bf16": [(0x6E42FC20, "bfdot v0.4s, v1.8h, v2.8h")],
}
# Features with no instruction of their own: never advertised.
NO_INSTRUCTIONS = {"evtstrm", "dit", "uscat", "ssbs"}

_CS = capstone.Cs(capstone.CS_ARCH_ARM64, capstone.CS_MODE_ARM)


def implemented(words) -> bool:
    return all(decode(w) != UNDEF for w, _ in words)


@pytest.mark.parametrize("table", [FEATURE_WORDS, HWCAP2_WORDS])
def test_words_are_the_instructions_named(table):
    """The facts above are right: capstone names each word as written (its
    mnemonic; the SVE and system words it prints in its own spelling)."""
    for words in table.values():
        for w, text in words:
            found = next(_CS.disasm(struct.pack("<I", w), 0), None)
            assert found is not None, f"{w:#010x} {text}"
            assert found.mnemonic == text.split()[0], f"{w:#010x}: {text} vs {found.mnemonic} {found.op_str}"


def test_every_hwcap_feature_is_covered():
    assert set(FEATURE_WORDS) | NO_INSTRUCTIONS == set(hwcap.HWCAP_NAMES)


def test_advertised_hwcap_is_what_the_decoder_implements():
    expected = {name for name, words in FEATURE_WORDS.items() if implemented(words)}
    assert set(hwcap.feature_names(hwcap.HWCAP)) == expected
    assert hwcap.HWCAP >> 32 == 0


def test_fhm_is_advertised():
    """FEAT_FHM is implemented (exec_vfhm.py); AT_HWCAP once left it out."""
    assert "asimdfhm" in hwcap.feature_names(hwcap.HWCAP)


def test_no_hwcap2_feature_is_implemented():
    assert hwcap.HWCAP2 == 0
    assert not [name for name, words in HWCAP2_WORDS.items() if implemented(words)]


def test_cpuinfo_lists_the_advertised_features():
    text = procfs.cpuinfo(None, None).decode()
    line = next(x for x in text.splitlines() if x.startswith("Features"))
    assert line.split(":", 1)[1].split() == hwcap.feature_names(hwcap.HWCAP)


def test_guest_sees_the_bits_and_uses_them_as_under_qemu(tools, tmp_path):
    """c/hwcap.c reads AT_HWCAP and /proc/cpuinfo, then uses LDADDAL, LDAPR,
    SQRDMLAH and FMLAL/FMLSL2 when their bit is set.  qemu-aarch64's `max` CPU
    sets all four bits, so its "use" lines are what ours must print."""
    import arm64linux_harness as harness
    binary = harness.compile_c("hwcap", "-O2", ("-march=armv8.2-a+lse+rdma+rcpc+fp16fml",))
    ref = harness.run_qemu(binary, ["prog"], harness.make_tree(tmp_path / "q"))
    ours = harness.run_ncpu(binary, ["prog"], harness.make_tree(tmp_path / "n"))
    assert ours.status == ref.status == 0 and not ours.messages, ours.messages
    lines = ours.stdout.decode().splitlines()
    assert lines[0] == f"hwcap {hwcap.HWCAP:#x}" and lines[1] == "hwcap2 0"
    assert lines[2] == "cpuinfo " + " ".join(hwcap.feature_names(hwcap.HWCAP))
    used = [x for x in lines if x.startswith("use ")]
    assert len(used) == 4 and used == [x for x in ref.stdout.decode().splitlines() if x.startswith("use ")]


def test_cpuinfo_ids_are_those_of_midr():
    """/proc/cpuinfo's CPU fields decode the MIDR_EL1 that MRS returns."""
    from ncpu.arm64.cpu.sysregs import MIDR_VALUE
    text = procfs.cpuinfo(None, None).decode()
    field = {k.strip(): v.strip() for k, v in (x.split(":", 1) for x in text.splitlines() if ":" in x)}
    assert int(field["CPU implementer"], 16) == MIDR_VALUE >> 24
    assert int(field["CPU variant"], 16) == MIDR_VALUE >> 20 & 0xF
    assert int(field["CPU part"], 16) == MIDR_VALUE >> 4 & 0xFFF
    assert int(field["CPU revision"]) == MIDR_VALUE & 0xF
