"""`ncpu compile`: files in, assembly out, one-line errors with status 1."""

from __future__ import annotations

from nsl_examples import EXAMPLES

from ncpu.cli import main


def test_compile_then_run_prints_the_program_output(tmp_path, capsys):
    output = tmp_path / "fib.asm"
    assert main(["compile", str(EXAMPLES / "fib_rec.nsl"), "-o", str(output)]) == 0
    assert output.read_text().startswith("; compiled from fib_rec.nsl")
    assert main(["run", str(output), "--reg", "R1=11", "--mode", "reference"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("fib(11) = 89\n") and "exited with status 0" in out


def test_default_output_sits_beside_the_source_and_dash_prints(tmp_path, capsys):
    source = tmp_path / "hello.nsl"
    source.write_text((EXAMPLES / "hello.nsl").read_text())
    assert main(["compile", str(source)]) == 0
    assert (tmp_path / "hello.asm").read_text().count("SYS") >= 2
    assert main(["compile", str(source), "-o", "-"]) == 0
    assert capsys.readouterr().out == (tmp_path / "hello.asm").read_text()


def test_errors_are_one_line_with_file_line_column_and_status_1(tmp_path, capsys):
    source = tmp_path / "bad.nsl"
    source.write_text("int main() {\n    int x = 1;\n    return x +* 2;\n}\n")
    assert main(["compile", str(source), "-o", str(tmp_path / "bad.asm")]) == 1
    err = capsys.readouterr().err
    assert err == f"{source}:3:15: expected an expression, found '*'\n"
    assert not (tmp_path / "bad.asm").exists()


def test_a_missing_file_is_a_one_line_error(tmp_path, capsys):
    assert main(["compile", str(tmp_path / "nope.nsl")]) == 2
    assert capsys.readouterr().err.startswith("ncpu: error: cannot read")


def test_optimize_classical_writes_a_shorter_program_that_still_runs(tmp_path, capsys):
    import pytest

    pytest.importorskip("cvc5")
    plain, optimized = tmp_path / "plain.asm", tmp_path / "opt.asm"
    source = str(EXAMPLES / "compound.nsl")
    assert main(["compile", source, "-o", str(plain)]) == 0
    assert main(["compile", source, "-o", str(optimized), "--optimize", "classical", "--stats"]) == 0
    err = capsys.readouterr().err
    assert "rewrites proven" in err and "live after" in err
    assert len(optimized.read_text().splitlines()) < len(plain.read_text().splitlines())
    outputs = []
    for path in (plain, optimized):
        assert main(["run", str(path), "--mode", "reference"]) == 0
        outputs.append(capsys.readouterr().out.split(f"{path}: exited")[0])
    assert outputs[0] == outputs[1]
