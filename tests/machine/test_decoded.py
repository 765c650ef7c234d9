"""The decoded-program arrays the compiled and tensor engines share."""

from __future__ import annotations

import pytest

from ncpu.isa.encoding import DecodeError, decode
from ncpu.machine.decoded import CODE, decode_words
from ncpu.machine.random_programs import random_program


def test_columns_match_the_decoder():
    words = random_program(42, segments=12)
    program = decode_words(words)
    assert len(program) == len(words)
    for i, word in enumerate(words):
        ins = decode(word)
        assert (program.op[i], program.rd[i], program.rs1[i], program.rs2[i], program.imm[i]) == \
            (ins.op.code, ins.rd, ins.rs1, ins.rs2, ins.imm)
        assert program.mnemonic(i) == ins.op.mnemonic


def test_codes_come_from_the_table():
    assert decode(CODE["ADD"] << 24).op.mnemonic == "ADD"


def test_invalid_word_is_rejected_like_the_reference():
    with pytest.raises(DecodeError):
        decode_words([0xFF000000])


def test_empty_program():
    assert len(decode_words([])) == 0
