"""docs/isa.md documents every instruction with its opcode."""

from pathlib import Path

from ncpu.isa import OPCODES

DOC = Path(__file__).resolve().parents[2] / "docs" / "isa.md"


def test_every_opcode_is_documented_with_its_encoding():
    rows = {line.split("|")[2].strip(): line for line in DOC.read_text().splitlines()
            if line.startswith("| `0x")}
    for op in OPCODES:
        assert op.mnemonic in rows, f"{op.mnemonic} missing from docs/isa.md"
        assert f"`0x{op.code:02X}`" in rows[op.mnemonic]
        assert f"| {op.format} |" in rows[op.mnemonic]
    assert len(rows) == len(OPCODES)
