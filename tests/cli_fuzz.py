"""Random command lines for every `ncpu` subcommand, run in a forked child.

The subcommands and their options are read from the argument parser that
`ncpu.cli.build_parser()` builds from `ncpu.cli.COMMANDS`, so a subcommand
added later is fuzzed without touching this file. Arguments are drawn from
the parser's own choices plus hostile values (huge, NaN, negative, unicode,
4,300+ digit integers) and paths to hostile input files (empty, binary,
huge, deeply nested JSON, non-UTF-8, a valid program). A run passes when it
ends without a Python traceback: any exit status, or still busy when its
time is up (then it is killed and counted).
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
import tempfile
import time
import traceback
from dataclasses import dataclass

from hypothesis import strategies as st

HUGE_DIGITS = "9" * 5000

# name -> bytes of a file the fuzzer may pass wherever a path goes
INPUT_FILES = {
    "empty.asm": b"",
    "binary.bin": bytes(range(256)) * 16,
    "nonutf8.asm": b"MOVI R0, 1\n\xff\xfe\xfd\nHALT\n",
    "deep.json": b"[" * 100_000 + b"]" * 100_000,
    "huge.asm": b"MOVI R0, 1\n" * 200_000 + b"HALT\n",
    "hugeint.asm": b"MOVI R0, " + HUGE_DIGITS.encode() + b"\nHALT\n",
    "valid.asm": b"; @init R0=5\nMOVI R1, 7\nADD R0, R0, R1\nHALT\n",
    "spec.json": b'{"inputs": ["R0"], "outputs": ["R0"], "examples": [{"in": [1], "out": [2]}]}',
    "badspec.json": b'{"inputs": ["R\xc2\xb2"], "outputs": 5, "examples": "x"}',
    "words.bin": (0x03000001).to_bytes(4, "little") * 3,
}


def make_inputs(directory: str) -> dict[str, str]:
    paths = {}
    for name, data in INPUT_FILES.items():
        path = os.path.join(directory, name)
        with open(path, "wb") as handle:
            handle.write(data)
        paths[name] = path
    paths["missing"] = os.path.join(directory, "does-not-exist.asm")
    paths["directory"] = directory
    return paths


def subcommands() -> dict[str, argparse.ArgumentParser]:
    """Every subcommand's parser, as the CLI builds it."""
    from ncpu.cli import COMMANDS, build_parser

    parser = build_parser()
    (action,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    names = [module.replace("_", "-") for module in COMMANDS]   # module arm64_root: `ncpu arm64-root`
    found = {name: action.choices[name] for name in names}
    assert set(found) == set(names)
    return found


def _values(paths: dict[str, str]):
    return st.one_of(
        st.sampled_from(sorted(paths.values())),
        st.integers(-(1 << 70), 1 << 70).map(str),
        st.sampled_from(["0", "-1", "nan", "inf", "-inf", "1e309", HUGE_DIGITS, "0x" + "f" * 100, "R²", "",
                         "-", "R0=1", "R9=1", "3,5->8", "1->" + HUGE_DIGITS, "cuda", "ADD,FOO", "/dev/null"]),
        st.text(max_size=20),
    )


@st.composite
def command_lines(draw, name: str, parser: argparse.ArgumentParser, paths: dict[str, str]):
    """argv for `ncpu NAME ...` (recursing into nested subcommands)."""
    argv = [name]
    values = _values(paths)
    for action in parser._actions:
        if isinstance(action, argparse._HelpAction):
            continue
        if isinstance(action, argparse._SubParsersAction):
            if draw(st.booleans()):
                sub = draw(st.sampled_from(sorted(action.choices)))
                argv += draw(command_lines(sub, action.choices[sub], paths))[0:]
                return argv
            continue
        if action.option_strings:
            if not draw(st.booleans()):
                continue
            argv.append(draw(st.sampled_from(action.option_strings)))
            if action.nargs == 0:
                continue
        choices = sorted(action.choices) if action.choices else []
        value = draw(st.sampled_from(choices) | values) if choices else draw(values)
        if action.nargs in ("*", "+", argparse.REMAINDER):
            argv += [value] + draw(st.lists(values, max_size=2))
        else:
            argv.append(value)
    return argv


@dataclass
class Outcome:
    argv: list[str]
    status: int | None      # None: killed when its time was up
    stderr: str

    @property
    def traceback(self) -> bool:
        return "Traceback (most recent call last)" in self.stderr or self.status == UNCAUGHT


UNCAUGHT = 99   # the child's status when main() let an exception out


def run_forked(argv: list[str], timeout: float, scratch: str) -> Outcome:
    """`ncpu.cli.main(argv)` in a forked child (no interpreter start-up per
    run), with stdout discarded, stderr captured, and the working directory
    and the user directories pointed at `scratch`."""
    with tempfile.TemporaryFile() as err:
        pid = os.fork()
        if pid == 0:  # child
            status = UNCAUGHT
            try:
                os.setpgid(0, 0)      # its own group: worker processes it starts die with it
                os.chdir(scratch)     # outputs named by relative paths (asm -o 17) land there
                for variable in ("XDG_DATA_HOME", "XDG_CACHE_HOME", "NCPU_CACHE_DIR"):
                    os.environ[variable] = scratch   # nothing lands in the user's directories
                devnull = os.open(os.devnull, os.O_RDWR)
                os.dup2(devnull, 0)
                os.dup2(devnull, 1)
                os.dup2(err.fileno(), 2)
                sys.stdout = open(1, "w", closefd=False)
                sys.stderr = open(2, "w", closefd=False)
                from ncpu.cli import main

                try:
                    status = main(argv)
                except SystemExit as stop:    # argparse's usage errors
                    status = stop.code if isinstance(stop.code, int) else 2
                sys.stdout.flush()
            except BaseException:  # noqa: BLE001 - report what escaped, then leave
                traceback.print_exc()
                status = UNCAUGHT
            finally:
                try:
                    sys.stderr.flush()
                finally:
                    os._exit(status if isinstance(status, int) and 0 <= status < 256 else UNCAUGHT)
        until = time.monotonic() + timeout
        status = None
        while time.monotonic() < until:
            done, raw = os.waitpid(pid, os.WNOHANG)
            if done:
                status = os.waitstatus_to_exitcode(raw)
                break
            time.sleep(0.02)
        else:
            _kill_group(pid)
            os.waitpid(pid, 0)
        _kill_group(pid)              # whatever it started and left behind
        err.seek(0)
        return Outcome(argv, status, err.read().decode(errors="replace"))


def _kill_group(pid: int) -> None:
    try:
        os.killpg(pid, signal.SIGKILL)
    except OSError:
        pass
