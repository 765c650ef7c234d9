"""A command whose reader goes away (`ncpu ... | head -1`, `python benchmarks/X.py | head`)
stops quietly, as Unix tools do on SIGPIPE, instead of printing a BrokenPipeError traceback."""

from __future__ import annotations

import os
import sys
from typing import Callable, NoReturn


def closed_pipe() -> int:
    """The reader of our output went away: point stdout at /dev/null, so that the interpreter's
    final flush does not complain about the pipe again, and give SIGPIPE's exit status."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
    return 128 + 13   # the shell's status for a process ended by SIGPIPE


def run_script(main: Callable[[], int | None]) -> NoReturn:
    """`raise SystemExit(main())` for a script (the benchmarks), quiet on a closed pipe."""
    try:
        status = main()
    except BrokenPipeError:
        status = closed_pipe()
    raise SystemExit(status)
