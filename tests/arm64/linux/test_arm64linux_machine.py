"""Whole-machine behaviour: determinism, budgets, faults, exec, the CLI."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import arm64linux_harness as harness
from ncpu import jitcache


def _cli(*args, cwd=None, input=b""):
    # HOME=/ for the guest would also move the host's numba cache: keep this process's one
    env = dict(harness.ENV, PYTHONPATH=os.environ.get("PYTHONPATH", ""), NUMBA_CACHE_DIR=str(jitcache.cache_root()))
    return subprocess.run([sys.executable, "-m", "ncpu", "arm64", *map(str, args)], capture_output=True,
                          cwd=cwd, timeout=300, input=input, env=env)


def test_deterministic_output_and_instruction_count(tmp_path, busybox_path):
    root = harness.make_tree(tmp_path / "r", {"in.txt": "b\na\nc\n"})
    shutil.copy(busybox_path, root / "busybox")
    script = "sort in.txt | md5sum; date; echo $RANDOM; od -An -tx1 -N8 /dev/urandom; ls -l --full-time in.txt"
    runs = [harness.run_ncpu(root / "busybox", ["busybox", "sh", "-c", script], root) for _ in range(2)]
    assert runs[0].triple() == runs[1].triple()
    assert runs[0].instructions == runs[1].instructions > 0
    assert b"2024" in runs[0].stdout                           # the virtual epoch
    other_seed = harness.run_ncpu(root / "busybox", ["busybox", "sh", "-c", script], root, seed=1)
    assert other_seed.stdout != runs[0].stdout                 # randomness follows --seed


def test_file_times_the_host_stamps_do_not_reach_the_guest(tmp_path, busybox_path):
    # The host's kernel sets a file's change time (and the access time of a read) to the
    # host's clock when the guest writes or reads it; on virtual time the guest must not
    # see that clock, or `stat` prints something else on every run.
    root = harness.make_tree(tmp_path / "r", {"in.txt": "b\n"})
    shutil.copy(busybox_path, root / "busybox")
    script = ("echo hi > new.txt; cat new.txt in.txt > /dev/null; mkdir d; "
              "stat -c '%X %Y %Z %n' new.txt in.txt d; rm -r new.txt d")
    runs = [harness.run_ncpu(root / "busybox", ["busybox", "sh", "-c", script], root) for _ in range(2)]
    assert runs[0].triple() == runs[1].triple()
    assert runs[0].instructions == runs[1].instructions > 0
    new_times = runs[0].stdout.split(b"\n")[0].split()[:3]
    assert len(set(new_times)) == 1 and new_times[0].startswith(b"17040672")    # the virtual epoch


def test_cli_stats_and_exit_status(tmp_path):
    hello = harness.compile_c("hello", "-O2")
    first = _cli("--stats", hello)
    second = _cli("--stats", hello)
    assert first.returncode == second.returncode == 3
    assert first.stdout == b"hello, world\nsecond line\n"
    stats = [r.stderr.decode().splitlines()[-1] for r in (first, second)]
    assert stats[0].split(" instructions")[0] == stats[1].split(" instructions")[0]
    assert "MIPS" in stats[0] and "in native code" in stats[0]


def test_cli_passes_guest_options_and_root(tmp_path, busybox_path):
    root = harness.make_tree(tmp_path / "r", {"f.txt": "x\n"})
    shutil.copy(busybox_path, root / "busybox")
    result = _cli("--root", root, root / "busybox", "sh", "-c", "echo $0 $1; ls", "zero", "-x")
    assert result.stdout == b"zero -x\nbusybox\nf.txt\n"
    assert result.returncode == 0


def test_max_steps(tmp_path):
    result = _cli("--max-steps", 5000, harness.compile_c("primes", "-O2"))
    assert result.returncode != 0
    lines = result.stderr.decode().splitlines()
    assert len(lines) == 1 and "budget" in lines[0]


def test_fault_diagnostics(tmp_path):
    for name, status, words in (("segv_nohandler", 139, ["SIGSEGV", "pc=", "address=0x8"]),
                                ("udf", 132, ["SIGILL", "pc=", "0x00000000"]),
                                ("stack_overflow", 139, ["SIGSEGV", "address="])):
        result = _cli(harness.compile_c(name, "-O2"))
        err = result.stderr.decode()
        assert result.returncode == status, err
        assert err.count("\n") == 1 and "Traceback" not in err
        assert all(w in err for w in words), err


def test_execve_self_and_scripts(tmp_path, busybox_path):
    """qemu-user cannot exec an AArch64 binary here (no binfmt_misc), so these expect fixed output."""
    root = harness.make_tree(tmp_path / "r")
    (root / "bin").mkdir()
    shutil.copy(busybox_path, root / "bin" / "busybox")
    for applet in ("sh", "echo", "cat"):
        os.symlink("busybox", root / "bin" / applet)
    prog = harness.compile_c("execve_self", "-O2")
    out = harness.run_ncpu(prog, ["prog"], root)
    assert out.stdout == b"child argc 3 last [x y] env 42\nparent saw 5\nexec missing: -1\n"
    script = root / "script.sh"
    script.write_text("#!/bin/sh -e\necho script args: \"$@\"\nexit 6\n")
    script.chmod(0o755)
    out = harness.run_ncpu(root / "bin" / "busybox",
                           ["sh", "-c", "./script.sh a 'b c'; echo status $?; /bin/echo via exec | /bin/cat"], root)
    assert out.stdout == b"script args: a b c\nstatus 6\nvia exec\n"
    assert out.status == 0


def test_unknown_syscall_reported_once(tmp_path):
    src = tmp_path / "nosys.c"
    src.write_text('#include <unistd.h>\n#include <stdio.h>\n#include <sys/syscall.h>\n'
                   'int main(void){ long a = syscall(4000), b = syscall(4000); printf("%ld %ld\\n", a, b); return 0; }\n')
    out = tmp_path / "nosys"
    subprocess.run([harness.GCC, "-static", "-o", str(out), str(src)], check=True)
    result = _cli(out)
    assert result.stdout == b"-1 -1\n"
    assert result.stderr.decode().count("4000") == 1
