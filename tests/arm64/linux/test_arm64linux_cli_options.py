"""`ncpu arm64`'s qemu-like options (-E, -U, --clean-env, -0, --cwd, --stats --json) and `ncpu arm64-root`'s errors."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import pytest

import arm64linux_harness as harness


def _cli(*args, env=None):
    run_env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path), **(env or {}))
    return subprocess.run([sys.executable, "-m", "ncpu", *map(str, args)], capture_output=True, timeout=300,
                          env=run_env)


@pytest.fixture
def tree(tmp_path, busybox_path):
    root = harness.make_tree(tmp_path / "root", {"home/user/note.txt": "note\n"})
    (root / "bin").mkdir()
    shutil.copy(busybox_path, root / "bin" / "busybox")
    return root


def test_environment_options(tree):
    # -0 sh: BusyBox picks its applet by argv[0] (without it, argv[0] would be /bin/busybox and "-c" the applet)
    script = "echo $0; pwd; env | sort"
    done = _cli("arm64", "--root", tree, "--clean-env", "-E", "B=2", "-E", "A=x=y", "-0", "sh",
                "--cwd", "/home/user", "/bin/busybox", "-c", script, "zero")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.decode().splitlines()
    assert lines[:2] == ["zero", "/home/user"]
    assert "A=x=y" in lines and "B=2" in lines and not any(l.startswith("HOME=") for l in lines)
    kept = _cli("arm64", "--root", tree, "-U", "NCPU_T1", "-E", "NCPU_T3=c", "/bin/busybox", "sh", "-c",
                "echo ${NCPU_T1-unset} $NCPU_T2 $NCPU_T3", env={"NCPU_T1": "a", "NCPU_T2": "b"})
    assert kept.stdout == b"unset b c\n"


def test_guest_environment_is_the_hosts_despite_one_blas_thread(tree):
    """`ncpu arm64` imports numpy with OPENBLAS_NUM_THREADS=1 (commands._startup.one_blas_thread) and
    then removes it: the guest gets the host's environment as it was, set or not."""
    script = "echo ${OPENBLAS_NUM_THREADS-unset}"
    host = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    host["PYTHONPATH"] = os.pathsep.join(sys.path)
    for value, seen in ((None, b"unset\n"), ("3", b"3\n")):
        env = host if value is None else dict(host, OPENBLAS_NUM_THREADS=value)
        done = subprocess.run([sys.executable, "-m", "ncpu", "arm64", "--root", str(tree), "/bin/busybox", "sh", "-c",
                               script], capture_output=True, timeout=300, env=env)
        assert (done.returncode, done.stdout) == (0, seen), done.stderr


def test_same_environment_same_count(tree):
    """With --clean-env the instruction count no longer depends on the host's environment."""
    counts = set()
    for extra in ({}, {"NCPU_NOISE": "x" * 300}):
        done = _cli("arm64", "--root", tree, "--clean-env", "-E", "PATH=/bin", "--stats", "--json",
                    "/bin/busybox", "sh", "-c", "env | wc -c", env=extra)
        stats = json.loads(done.stderr.decode().strip().splitlines()[-1])
        assert stats["status"] == 0 and stats["reason"] == "exit" and stats["instructions"] > 0
        counts.add((done.stdout, stats["instructions"]))
    assert len(counts) == 1


def test_native_same_output_and_count(tree, tmp_path):
    """Native code (on by default) changes neither the output nor the count.  A shell loop long
    enough for pages to get hot: --no-native and NCPU_NATIVE=off compile nothing; the first
    default run compiles page functions (their objects appear; the build limit lifted, since a
    fresh cache compiles the row functions first, within the limit); the next loads them (none
    is written again), and may compile a page whose functions it loaded as one function
    (native.LOADED_DEPTH) or a run its samples found hot; then the runs settle: the fourth
    compiles nothing.  (Which runs a run's samples find depends on where its slices of time
    ended: with the shell alone on the machine, its turns are scheduler.ALONE_QUANTA quanta
    long, and this script's pages settle a run later than with one-quantum turns, where the
    third compiled nothing.)  All run part of the loop as native code (--stats --json says how
    much)."""
    script = "i=0; s=0; while [ $i -lt 4000 ]; do i=$((i+1)); s=$((s+i*i%7)); done; echo $i $s"
    objects = tmp_path / "objects"
    unlimited = {"NCPU_NATIVE_BUDGET": "inf,0"}
    runs, written, native = [], [], []
    for flags, env in ((["--no-native"], unlimited), ([], {**unlimited, "NCPU_NATIVE": "off"}),
                       ([], unlimited), ([], unlimited), ([], unlimited), ([], unlimited)):
        done = _cli("arm64", "--root", tree, "--clean-env", *flags, "--stats", "--json",
                    "/bin/busybox", "sh", "-c", script, env={"NCPU_NATIVE_OBJECTS": str(objects), **env})
        stats = json.loads(done.stderr.decode().strip().splitlines()[-1])
        runs.append((done.returncode, done.stdout, stats["instructions"]))
        native.append(stats["native_instructions"])
        written.append({p.name: p.stat().st_mtime_ns for p in objects.glob("*.o")})
    assert runs[0][:2] == (0, b"4000 8001\n")
    assert all(run == runs[0] for run in runs)
    assert not written[0] and not written[1] and written[2]     # only native code translates
    assert all(written[3].get(name) == when for name, when in written[2].items())   # loaded, kept
    assert written[5] == written[4]
    assert native[0] == native[1] == 0 < native[3] <= runs[3][2]   # --stats: what ran as native code
    assert 0 < native[5] <= runs[5][2]


@pytest.mark.parametrize("name, value", [("NCPU_NATIVE", "sometimes"), ("NCPU_NATIVE_BUDGET", "1"),
                                         ("NCPU_NATIVE_BUDGET", "1,-2"), ("NCPU_NATIVE_BUDGET", "nan,1")])
def test_bad_native_settings_one_line(tree, name, value):
    done = _cli("arm64", "--root", tree, "/bin/busybox", "true", env={name: value})
    err = done.stderr.decode()
    assert done.returncode == 2 and err.count("\n") == 1 and f"{name}={value!r}" in err, err


def test_bad_native_setting_one_line_under_another_command(tree):
    """Any command that runs the machine reads the setting (here when its CPU is made): the
    same one line, not a traceback."""
    done = _cli("debug", "strace", "--root", tree, tree / "bin" / "busybox", "true", env={"NCPU_NATIVE": "sometimes"})
    err = done.stderr.decode()
    assert done.returncode == 2 and err.count("\n") == 1 and "NCPU_NATIVE='sometimes'" in err, err


@pytest.mark.parametrize("args, fragment", [
    (["--cwd", "/nowhere"], "/nowhere: no such directory in the root"),
    (["-E", "NOEQUALS"], "expected VAR=VALUE"),
    (["-U", "A=B"], "not a variable name"),
    (["--json"], "--json goes with --stats"),
])
def test_bad_options_one_line(tree, args, fragment):
    done = _cli("arm64", "--root", tree, *args, "/bin/busybox", "true")
    err = done.stderr.decode()
    assert done.returncode == 2 and err.count("\n") == 1 and fragment in err, err


def test_help_documents_exit_statuses():
    text = _cli("arm64", "--help").stdout.decode()
    for status in ("124", "137"):
        assert status in text
    assert "--clean-env" in text and "-0 ARGV0" in text and "--native" in text


def test_budget_exit_status(tree):
    done = _cli("arm64", "--root", tree, "--max-steps", "1000", "/bin/busybox", "sh", "-c", "while :; do :; done")
    assert done.returncode == 124 and b"budget" in done.stderr


def test_arm64_root_bad_package_one_line(tmp_path):
    if shutil.which("apt-get") is None:
        pytest.fail("apt-get is needed to build Debian roots")
    done = _cli("arm64-root", tmp_path / "r", "bash", "no-such-package-ncpu")
    err = done.stderr.decode()
    assert done.returncode == 2 and err.count("\n") == 1 and "no-such-package-ncpu" in err, err
    bad = _cli("arm64-root", tmp_path / "r", "Bad_Name")
    assert bad.returncode == 2 and b"not a Debian package name" in bad.stderr
