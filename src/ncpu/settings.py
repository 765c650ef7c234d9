"""The error for an environment variable of nCPU's whose value cannot be used.

Settings are read where they are used (the ARM64 machine's NCPU_NATIVE and NCPU_NATIVE_BUDGET
when a CPU is made or a page translated), under any command that runs the machine; the
`ncpu` command prints this error as one line with exit status 2, as it does a bad option.
"""


class SettingError(ValueError):
    """An environment variable's value that nCPU cannot use (its name and value in the text)."""
