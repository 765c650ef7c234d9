"""`ncpu bench` / benchmarks/machine_bench.py: runs, prints a table, fails cleanly."""

from __future__ import annotations

import argparse

import pytest

from ncpu.commands import bench


def test_small_table(capsys):
    status = bench.main(["--engines", "reference,compute,fast", "--batches", "1,3,100", "--steps", "40",
                         "--no-cold-compile"])
    out = capsys.readouterr().out
    assert status == 0
    assert "compute start-up" in out
    rows = [line.split() for line in out.splitlines()
            if line.split()[:1] in (["reference"], ["compute"], ["fast"]) and line.split()[1].isdigit()]
    assert [(r[0], r[1]) for r in rows] == [("reference", "1"), ("reference", "3"), ("compute", "1"),
                                            ("compute", "3"), ("compute", "100"), ("fast", "1"), ("fast", "3"),
                                            ("fast", "100")]
    assert "not run (too slow for this engine): reference B=100" in out
    assert all(r[3] == f"{40 * int(r[1]):,}" for r in rows)  # every machine ran exactly its budget


@pytest.mark.parametrize("argv, message", [
    (["--engines", "warp"], "unknown engine 'warp'"),
    (["--steps", "0"], "--steps must be at least 1"),
])
def test_user_errors_are_one_line(capsys, argv, message):
    assert bench.main(argv + ["--no-cold-compile"]) == 2
    assert message in capsys.readouterr().err


def test_registers_a_helpful_subcommand():
    parser = argparse.ArgumentParser(prog="ncpu")
    bench.register(parser.add_subparsers())
    help_text = parser._subparsers._group_actions[0].choices["bench"].format_help()
    for option in ("--engines", "--batches", "--steps", "--device", "--no-cold-compile"):
        assert option in help_text
