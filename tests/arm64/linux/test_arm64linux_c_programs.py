"""Our C programs, built at -O0 and -O2, give byte-identical results under qemu-aarch64 and ncpu."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest

import arm64linux_harness as harness

# name -> argv (argv[0] is the same for both runs)
PROGRAMS = {
    "hello": ["prog"], "int_arith": ["prog"], "fp_arith": ["prog"], "int128": ["prog"], "bits": ["prog"],
    "strings": ["prog"], "qsort": ["prog"], "malloc_churn": ["prog"], "printf_int": ["prog"],
    "printf_float": ["prog"], "setjmp_test": ["prog"], "recursion": ["prog"], "fileio": ["prog"],
    "argv_env": ["prog", "one", "two words", ""], "sigsegv": ["prog"], "fork_pipe": ["prog"],
    "fork_many": ["prog"], "sort_algos": ["prog"], "sha256": ["prog"], "crc32": ["prog"], "matrix": ["prog"],
    "primes": ["prog"], "strtol_conv": ["prog"], "ctype_test": ["prog"], "math_funcs": ["prog"],
    "structs": ["prog"], "varargs": ["prog"], "switch_goto": ["prog"], "linked": ["prog"],
    "hashtable": ["prog"], "raise_signal": ["prog"], "exit_code": ["prog", "7"], "stdio_buf": ["prog"],
    "memops_big": ["prog"], "time_fixed": ["prog"], "dup_fcntl": ["prog"],
    "unaligned_atomic": ["prog"], "fenv_flags": ["prog"], "fd_calls": ["prog"], "proc_maps": ["prog"],
    "vector_shifts": ["prog"], "vector_moves": ["prog"],
    # faults without a handler: compared on stdout and status (stderr differs by design)
    "segv_nohandler": ["prog"], "stack_overflow": ["prog"], "udf": ["prog"],
}
FAULTS = {"segv_nohandler": 139, "stack_overflow": 139, "udf": 132}
# The heaviest at -O0 only run with -m slow; -O2 always runs.
SLOW_O0 = {"malloc_churn", "linked", "hashtable", "sha256", "memops_big"}


def cases():
    for name in PROGRAMS:
        for opt in ("-O0", "-O2"):
            marks = [pytest.mark.slow] if opt == "-O0" and name in SLOW_O0 else []
            yield pytest.param(name, opt, id=f"{name}{opt}", marks=marks)


@pytest.mark.parametrize("name,opt", list(cases()))
def test_matches_qemu(name, opt, tools, tmp_path):
    binary = harness.compile_c(name, opt)
    argv = PROGRAMS[name]
    root_q = harness.make_tree(tmp_path / "q")
    root_n = harness.make_tree(tmp_path / "n")
    with ThreadPoolExecutor(1) as pool:
        future = pool.submit(harness.run_qemu, binary, argv, root_q)
        ours = harness.run_ncpu(binary, argv, root_n)
        ref = future.result()
    if name in FAULTS:
        assert (ours.stdout, ours.status) == (ref.stdout, ref.status) == (ref.stdout, FAULTS[name])
        assert len(ours.messages) == 1 and "pc=" in ours.messages[0]
        return
    assert ours.stdout == ref.stdout
    assert ours.stderr == ref.stderr
    assert ours.status == ref.status
    assert not ours.messages, ours.messages
