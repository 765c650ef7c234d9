"""Limits on what a program file or the command line may ask of the nCPU
machine, and numbers too long to convert: each a one-line error, or (pc)
a clean halt in every engine."""

from __future__ import annotations

import pytest
from machine_helpers import ENGINE_NAMES, engine

from ncpu.cli import main
from ncpu.isa import AssemblerError, assemble
from ncpu.machine.program_file import ProgramFileError, parse_program_file
from ncpu.machine.state import MAX_MEM_SIZE, MAX_PC, MAX_STEPS

HUGE = "1" + "0" * 5000     # past Python's 4,300-digit int/str conversion limit


def _error_line(capsys) -> str:
    err = capsys.readouterr().err.strip().splitlines()
    assert err and "Traceback" not in "\n".join(err)
    return err[-1]


@pytest.mark.parametrize("mode", [*ENGINE_NAMES, "neural"])
def test_largest_pc_halts_in_every_engine(mode):
    loaded = parse_program_file(f"; @init pc={MAX_PC}\nMOVI R0, 5\nHALT\n")
    final = engine(mode).run(loaded.program.words, loaded.fresh_state(), 1000)
    assert final.halted and final.steps == 0 and final.registers[0] == 0


def test_pc_past_the_limit_is_an_error():
    with pytest.raises(ProgramFileError, match="beyond the largest address"):
        parse_program_file(f"; @init pc={MAX_PC + 1}\nHALT\n")
    with pytest.raises(ProgramFileError, match="beyond the largest address"):
        parse_program_file(f"; @init pc={1 << 64}\nHALT\n")


def test_memory_and_steps_have_upper_bounds():
    parse_program_file(f"; @mem-size {MAX_MEM_SIZE}\nHALT\n")
    with pytest.raises(ProgramFileError, match="above the limit"):
        parse_program_file(f"; @mem-size {MAX_MEM_SIZE + 1}\nHALT\n")
    with pytest.raises(ProgramFileError, match="above the limit"):
        parse_program_file(f"; @max-steps {MAX_STEPS + 1}\nHALT\n")


def test_mem_size_option_has_an_upper_bound(tmp_path, capsys):
    program = tmp_path / "p.asm"
    program.write_text("HALT\n")
    with pytest.raises(SystemExit) as stop:
        main(["run", str(program), "--mem-size", str(MAX_MEM_SIZE + 1)])
    assert stop.value.code == 2
    assert "above the limit of 4,194,304" in _error_line(capsys)
    assert main(["run", str(program), "--mem-size", str(MAX_MEM_SIZE), "--mode", "reference"]) == 0


def test_huge_literals_are_one_line_errors(tmp_path, capsys):
    with pytest.raises(AssemblerError, match=r"found '1000.*\(5001 characters\)"):
        assemble(f"MOVI R0, {HUGE}\nHALT")
    with pytest.raises(ProgramFileError, match="5001 characters"):
        parse_program_file(f"; @init R0={HUGE}\nHALT\n")
    program = tmp_path / "p.asm"
    program.write_text(f"MOVI R0, {HUGE}\nHALT\n")
    assert main(["run", str(program)]) == 2
    assert "5001 characters" in _error_line(capsys)
    program.write_text("HALT\n")
    assert main(["run", str(program), "--reg", f"R0={HUGE}"]) == 2
    assert "--reg expects" in _error_line(capsys)
    spec = tmp_path / "s.json"
    spec.write_text('{"inputs": ["R0"], "outputs": ["R0"], "examples": [{"in": [%s], "out": [1]}]}' % HUGE)
    assert main(["discover", "--spec", str(spec)]) == 2
    assert "4300 digits" in _error_line(capsys)
    assert main(["discover", "--example", f"{HUGE}->1"]) == 2
    assert "expected integers" in _error_line(capsys)
