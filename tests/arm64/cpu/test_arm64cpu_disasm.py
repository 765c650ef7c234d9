"""Disassembler against capstone on random words of every table entry.

Mnemonics must agree for every class.  Full text (operands too) must agree
for the classes listed in FULL_TEXT.  Intentional differences (KNOWN) are
aliases or spellings where capstone 5 differs from the ARM ARM's preferred
form or prints an immediate differently; each is listed with the reason.
"""
import random
import re
import struct

import pytest

import arm64cpu_harness as H
from ncpu.arm64.cpu import decode_table as T
from ncpu.arm64.cpu.disasm import disassemble_word

import capstone  # a test dependency: fail, never skip, when it is missing

# (entry, reason): mnemonic differences we accept
KNOWN_MNEMONIC = {
    "HINT": "capstone 5 names only some hint numbers (e.g. prints 'hint #0x22' for bti c)",
    "BARRIER": "capstone 5 spells DSB with CRm=12 as 'dfb'",
}
# (our preferred alias, capstone's spelling): the ARM ARM prefers SXTL/UXTL for SSHLL/USHLL with
# shift 0; capstone 5 never uses the alias.  Compared as capstone's form, operands included.
ALIAS_OF = {"sxtl": "sshll", "uxtl": "ushll", "sxtl2": "sshll2", "uxtl2": "ushll2"}
FULL_TEXT = set(T.CLASSES)
# Operand text compared after normalising numbers (hex/decimal/signed/float spellings).
FULL_TEXT_SKIP = {
    "HINT": "see KNOWN_MNEMONIC",
    "LDR_LIT": "capstone 5 prints an empty prefetch operation for PRFM (literal)",
}


def _norm(text):
    """Numbers to one spelling: integers mod 2**64 in decimal, floats as floats."""
    def num(m):
        t = m.group(0)
        try:
            return str(int(t, 0) % (1 << 64))
        except ValueError:
            return repr(float(t))
    return re.sub(r"-?(0x[0-9a-f]+|\d+\.\d+(e[-+]?\d+)?|\d+)", num, text)


def _cs():
    md = capstone.Cs(capstone.CS_ARCH_ARM64, capstone.CS_MODE_ARM)
    return md


def _cs_text(md, w, addr):
    for i in md.disasm(struct.pack("<I", w), addr):
        return i.mnemonic, i.op_str
    return None, None


@pytest.mark.parametrize("cls", T.CLASSES)
def test_disassembler_matches_capstone(cls):
    md = _cs()
    rng = random.Random(7)
    bad_mn, bad_full, n = [], [], 0
    for e in H.entries(cls):
        for _ in range(60):
            w = H.random_word(rng, e)
            if w is None:
                continue
            cmn, cops = _cs_text(md, w, 0x400000)
            if cmn is None:
                continue                # capstone does not know it (e.g. newer extensions)
            ours = disassemble_word(w, 0x400000)
            if ours.split(" ")[0] in ALIAS_OF and cops.endswith(", #0"):
                alias = ours.split(" ")[0]
                ours = f"{ALIAS_OF[alias]} {ours[len(alias) + 1:]}, #0"
            n += 1
            mn = ours.split(" ")[0]
            if mn != cmn and e.name not in KNOWN_MNEMONIC:
                bad_mn.append(f"{e.name} {w:#010x}: ours '{ours}' capstone '{cmn} {cops}'")
            if mn != cmn or cops.startswith(", "):
                continue                # known alias difference, or capstone's unnamed prefetch op
            if cls in FULL_TEXT and e.name not in FULL_TEXT_SKIP and _norm(ours) != _norm(f"{cmn} {cops}".strip()):
                bad_full.append(f"{e.name} {w:#010x}: ours '{ours}' capstone '{cmn} {cops}'")
    assert n > 0
    assert not bad_mn, f"{len(bad_mn)}/{n} mnemonic mismatches:\n" + "\n".join(bad_mn[:30])
    assert not bad_full, f"{len(bad_full)}/{n} text mismatches:\n" + "\n".join(bad_full[:30])
