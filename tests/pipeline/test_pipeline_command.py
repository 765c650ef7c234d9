"""`ncpu pipeline`: one command from nsl source to a PNG."""

from __future__ import annotations

import json
from pathlib import Path

import ncpu.nsl
from ncpu.cli import main

OCTAL = str(Path(ncpu.nsl.__file__).parent / "examples" / "octal.nsl")


def test_pipeline_writes_the_png_and_reports_equal_pixels(tmp_path, capsys):
    png = tmp_path / "out.png"
    assert main(["pipeline", OCTAL, "--png", str(png), "--args", "4321", "--soft", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["output"] == "012663\n" and report["exit_status"] == 0
    assert report["same_pixels"] and report["same_output"] and report["soft_same_pixels"]
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_pipeline_descent_finds_and_verifies(tmp_path, capsys):
    png = tmp_path / "found.png"
    assert main(["pipeline", OCTAL, "--png", str(png), "--target", "012663", "--start", str(4321 ^ 1),
                 "--steps", "5"]) == 0
    out = capsys.readouterr().out
    assert "descent: R1 = 4321 prints '012663\\n'" in out and "verified" in out and png.exists()


def test_compile_errors_are_one_line_with_status_1(tmp_path, capsys):
    bad = tmp_path / "bad.nsl"
    bad.write_text("int main() { return; ")
    assert main(["pipeline", str(bad)]) == 1
    assert capsys.readouterr().err == f"{bad}:1:22: expected '}}', found end of file\n"
