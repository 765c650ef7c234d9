"""Every subcommand in ncpu.cli.COMMANDS (today's and any added later), with
hypothesis-generated arguments and hostile input files, never ends in a
Python traceback (see cli_fuzz.py)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

sys.path.insert(0, str(Path(__file__).resolve().parent))

import cli_fuzz  # noqa: E402

PARSERS = cli_fuzz.subcommands()
SECONDS = 3.0     # a run still busy then (training, benchmarking) is stopped: no traceback so far


def _fuzz(name, tmp_path_factory, examples):
    scratch = tmp_path_factory.mktemp(f"fuzz-{name}")
    paths = cli_fuzz.make_inputs(str(scratch))

    @settings(max_examples=examples, deadline=None, database=None, derandomize=True,
              suppress_health_check=list(HealthCheck))
    @given(cli_fuzz.command_lines(name, PARSERS[name], paths))
    def check(argv):
        outcome = cli_fuzz.run_forked(argv, SECONDS, str(scratch))
        assert not outcome.traceback, f"ncpu {' '.join(argv)[:300]}\n{outcome.stderr[-3000:]}"

    check()


@pytest.mark.parametrize("name", sorted(PARSERS))
def test_no_traceback(name, tmp_path_factory):
    _fuzz(name, tmp_path_factory, examples=6)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(PARSERS))
def test_no_traceback_long(name, tmp_path_factory):
    _fuzz(name, tmp_path_factory, examples=60)


def test_every_registered_command_is_fuzzed():
    from ncpu.cli import COMMANDS

    assert sorted(PARSERS) == sorted(module.replace("_", "-") for module in COMMANDS)
