"""Encoding round-trips, and no text makes the assembler crash."""

from hypothesis import given, settings
from hypothesis import strategies as st

from ncpu.isa import AssemblerError, Instruction, OPCODES, assemble, decode, disassemble, encode
from ncpu.isa.encoding import DecodeError, field_range
from ncpu.isa.opcodes import FORMATS


@st.composite
def instructions(draw):
    op = draw(st.sampled_from(OPCODES))
    values = {}
    for name in FORMATS[op.format].fields:
        lo, hi = field_range(name)
        key = "imm" if name.startswith("imm") or name == "addr" else name
        if key == "imm" and op.mnemonic in ("SHLI", "SHRI", "SARI"):
            lo, hi = 0, 31  # the assembler accepts only meaningful shift amounts
        values[key] = draw(st.integers(lo, hi))
    return Instruction(op, **values)


@given(st.lists(instructions(), min_size=1, max_size=40))
@settings(max_examples=300, deadline=None)
def test_assemble_disassemble_assemble_gives_the_same_words(program):
    words = [encode(i) for i in program]
    assert [decode(w) for w in words] == program
    text = disassemble(words)
    assert assemble(text).words == words
    # Without labels (numeric jump targets) as well.
    assert assemble(disassemble(words, with_labels=False)).words == words


@given(st.integers(0, 0xFFFFFFFF))
@settings(max_examples=2000, deadline=None)
def test_decode_accepts_only_canonical_words(word):
    try:
        instruction = decode(word)
    except DecodeError:
        return
    assert encode(instruction) == word


_ASM_ALPHABET = st.sampled_from(list("RrMOVADDJMPZNSHLTCXIU0123456789x,[]+-:; \n\t_.#") + ["R1", "MOV", "[R2+", "0x", "loop:", "JMP loop"])


@given(st.one_of(st.text(max_size=200), st.lists(_ASM_ALPHABET, max_size=60).map("".join)))
@settings(max_examples=1500, deadline=None)
def test_no_text_crashes_the_assembler(source):
    try:
        program = assemble(source)
    except AssemblerError as error:
        assert error.line >= 1 and error.column >= 1 and error.reason
        return
    for word in program.words:
        decode(word)
