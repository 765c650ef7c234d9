"""The `ncpu` command line: output shapes, round trips and one-line errors."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from ncpu.cli import main

ROOT = Path(__file__).resolve().parents[1]
FIB = str(ROOT / "programs" / "fibonacci.asm")


def ncpu(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "ncpu", *args], capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize("mode", ["reference", "compute", "fast", "neural"])
def test_run_json_is_one_object_with_the_final_state(mode, capsys):
    assert main(["run", FIB, "--mode", mode, "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert set(result) >= {"registers", "flags", "pc", "steps", "halted", "mode"}
    assert result["registers"]["R0"] == 832040 and list(result["registers"]) == [f"R{i}" for i in range(8)]
    assert result["flags"] == {"N": False, "Z": True, "C": True, "V": False}
    assert (result["steps"], result["halted"], result["mode"], result["pc"]) == (215, True, mode, 9)


def test_run_options_override_the_header(capsys):
    assert main(["run", FIB, "--reg", "R1=10", "--json", "--mode", "reference"]) == 0
    assert json.loads(capsys.readouterr().out)["registers"]["R0"] == 55
    assert main(["run", FIB, "--max-steps", "20", "--json", "--mode", "reference"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["halted"] is False and result["steps"] == 20


def test_readable_summary_names_outcome_registers_and_flags(capsys):
    assert main(["run", FIB, "--mode", "reference"]) == 0
    out = capsys.readouterr().out
    assert "halted after 215 steps" in out and "R0=832040" in out and "Z=1" in out


def test_run_reports_start_up_apart_from_the_run(capsys):
    assert main(["run", FIB, "--mode", "compute"]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert "compute mode: run " in first and "instructions/s" in first and "plus start-up" in first
    assert main(["run", FIB, "--mode", "compute", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["startup_seconds"] >= 0 and result["run_seconds"] >= 0


def test_asm_then_disasm_round_trips(tmp_path, capsys):
    binary = tmp_path / "fib.bin"
    assert main(["asm", FIB, "-o", str(binary)]) == 0
    assert main(["disasm", str(binary)]) == 0
    text = capsys.readouterr().out
    source = tmp_path / "again.asm"
    source.write_text(text)
    again = tmp_path / "again.bin"
    assert main(["asm", str(source), "-o", str(again)]) == 0
    assert again.read_bytes() == binary.read_bytes()
    assert main(["run", str(binary), "--reg", "R1=30", "--json"]) == 0
    assert json.loads(capsys.readouterr().out.splitlines()[-1])["registers"]["R0"] == 832040


def test_assembler_errors_print_file_line_column(tmp_path):
    bad = tmp_path / "bad.asm"
    bad.write_text("NOP\n  ADD R1, R9, R2\n")
    result = ncpu("run", str(bad))
    assert result.returncode != 0 and result.stdout == ""
    assert result.stderr.strip() == f"ncpu: error: {bad}:2:11: expected a register R0-R7, found 'R9'"


@pytest.mark.parametrize(
    "args, fragment",
    [
        (["run", "no/such/file.asm"], "cannot read no/such/file.asm"),
        (["run", FIB, "--reg", "R9=1"], "--reg expects RN=VALUE"),
        (["disasm", FIB], "not a multiple of 4 bytes"),
    ],
)
def test_bad_input_gives_one_line_and_nonzero_exit(args, fragment):
    result = ncpu(*args)
    assert result.returncode != 0
    assert fragment in result.stderr and len(result.stderr.strip().splitlines()) == 1
    assert "Traceback" not in result.stderr


def test_bad_option_values_are_rejected_by_argparse():
    result = ncpu("run", FIB, "--max-steps", "0")
    assert result.returncode == 2 and "positive integer" in result.stderr


def test_help_lists_the_commands():
    result = ncpu("--help")
    assert result.returncode == 0
    for command in ("run", "asm", "disasm", "bench", "arm64"):
        assert command in result.stdout


def _help_of(parser, words: list[str]) -> str:
    import contextlib
    import io

    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        try:
            parser.parse_args([*words, "--help"])
        except SystemExit as stop:
            return f"{stop.code}: {out.getvalue()}"
    return f"parsed: {out.getvalue()}"      # a command whose trailing words are its guest's (arm64)


def test_a_named_command_gets_the_same_parser_from_its_module_alone():
    """`ncpu NAME ...` imports only NAME's module (start-up): its help, with every
    nested subcommand's, is the one the whole parser gives."""
    from ncpu.cli import COMMANDS, _named_command, build_parser

    whole = build_parser()
    for module in COMMANDS:
        name = module.replace("_", "-")
        assert _named_command([name, "x"]) == module
        alone = build_parser(module)
        assert _help_of(alone, [name]) == _help_of(whole, [name])
        for nested in ("strace", "trace", "train", "run", "eval"):
            assert _help_of(alone, [name, nested]) == _help_of(whole, [name, nested])
    for word in ("--help", "-h", "arm64_root", "nosuch", "--version"):
        assert _named_command([word]) is None
    assert _named_command([]) is None


def test_arm64_imports_no_other_command_module():
    """(helpers such as ncpu.commands._startup aside)"""
    code = ("import sys\nfrom ncpu.cli import main\ntry:\n    main(['arm64', '--help'])\n"
            "except SystemExit:\n    pass\n"
            "print(sorted(m for m in sys.modules if m.startswith('ncpu.commands.') and '._' not in m), "
            "file=sys.stderr)")
    probe = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert "usage: ncpu arm64" in probe.stdout
    assert probe.stderr.strip() == "['ncpu.commands.arm64']"


def test_heavy_imports_freeze_only_in_a_process_of_its_own():
    import gc

    from ncpu.commands._startup import heavy_imports

    frozen = gc.get_freeze_count()
    with heavy_imports():
        assert not gc.isenabled()
        import ncpu.commands.run  # noqa: F401
    assert gc.isenabled() and gc.get_freeze_count() == frozen      # called from tests: nothing frozen
    code = ("import gc\nfrom ncpu.commands._startup import heavy_imports, own_process\nown_process()\n"
            "with heavy_imports():\n    import json\nprint(gc.isenabled(), gc.get_freeze_count() > 1000)")
    probe = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert probe.stdout.split() == ["True", "True"]


def test_one_blas_thread_sets_the_variable_for_numpys_import_only():
    code = ("import os, sys\nfrom ncpu.commands._startup import one_blas_thread\n"
            "with one_blas_thread():\n    inside = os.environ.get('OPENBLAS_NUM_THREADS')\n    import numpy\n"
            "print(inside, os.environ.get('OPENBLAS_NUM_THREADS'))")
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    probe = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, env=env)
    assert probe.stdout.split() == ["1", "None"], probe.stderr
    kept = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                          env=dict(env, OPENBLAS_NUM_THREADS="2"))
    assert kept.stdout.split() == ["2", "2"], kept.stderr        # the user's own setting is left alone


def test_verify_json_restricted_to_some_ops(capsys):
    assert main(["verify", "--json", "--ops", "div,MOD", "--samples", "1000"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["ok"] is True
    composite = [c for c in result["checks"] if c["kind"] != "cell" and c["name"] != "reference vs semantics"]
    assert {c["name"].split()[0] for c in composite} == {"DIV", "MOD"}
    assert all(c["ok"] and c["failures"] == 0 for c in result["checks"])
    exhaustive = [c for c in composite if c["kind"] == "exhaustive"]
    assert exhaustive and all(c["inputs"] == 1 << 16 for c in exhaustive)
    cells = {c["name"] for c in result["checks"] if c["kind"] == "cell"}
    assert {"adder.carry", "multiplier.wrap", "divider.compare (radix 2^2)"} <= cells


def test_verify_rejects_unknown_ops_in_one_line():
    done = ncpu("verify", "--ops", "ADD,FOO")
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.strip().count("\n") == 0 and "FOO" in done.stderr
