"""The words nCPU's switches read, and the error for an environment variable of nCPU's whose
value cannot be used.

Settings are read where they are used (the ARM64 machine's NCPU_NATIVE and NCPU_NATIVE_BUDGET
when a CPU is made or a page translated), under any command that runs the machine; the
`ncpu` command prints this error as one line with exit status 2, as it does a bad option.
"""

import os

OFF = ("off", "no", "false", "0")      # what a switch's value may say to turn it off (lower case)
ON = ("on", "yes", "true", "")          # and on (an empty value: set, so on)


def switched_off(name: str) -> bool:
    """Whether environment variable `name` says off (OFF); unset or any other value is not."""
    return os.environ.get(name, "on").strip().lower() in OFF


class SettingError(ValueError):
    """An environment variable's value that nCPU cannot use (its name and value in the text)."""
