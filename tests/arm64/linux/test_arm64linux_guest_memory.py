"""Guest memory of the machine: lazy pages, copy-on-write fork, file mappings, limits.

Behaviour is compared with qemu-aarch64 where qemu is a reference (mmap_file,
fault_restart, big_mmap); the limits (--memory, --max-procs) are ours and are
checked against what Linux would give (ENOMEM, EAGAIN) and a bounded host
memory (peak RSS of the ncpu process, a generous bound: no timing).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

import pytest

import arm64linux_harness as harness
from ncpu import jitcache

GIB = 1 << 30


def _compare(name, tmp_path, flags=(), argv=("prog",)):
    binary = harness.compile_c(name, "-O2", flags)
    root_q = harness.make_tree(tmp_path / "q")
    root_n = harness.make_tree(tmp_path / "n")
    with ThreadPoolExecutor(1) as pool:
        future = pool.submit(harness.run_qemu, binary, list(argv), root_q)
        ours = harness.run_ncpu(binary, list(argv), root_n)
        ref = future.result()
    assert ours.stdout == ref.stdout
    assert (ours.stderr, ours.status) == (ref.stderr, ref.status)
    assert not ours.messages, ours.messages
    return ours, root_n, root_q


def test_file_mappings_match_qemu(tools, tmp_path):
    """MAP_PRIVATE/MAP_SHARED files, fork sharing, MAP_FIXED, mprotect (write, exec), madvise, mremap."""
    ours, root_n, root_q = _compare("mmap_file", tmp_path)
    assert b"call rw page: signal 11" in ours.stdout               # executing RW memory faults
    assert (root_n / "data.bin").read_bytes() == (root_q / "data.bin").read_bytes()   # written back alike


def test_faulting_instructions_restart_precisely(tools, tmp_path):
    """LDP whose base is a destination, STP/ST1 across two pages, SP-based stores, atomics and
    exclusives, each faulting on untouched or copy-on-write pages, run again exactly once."""
    _compare("fault_restart", tmp_path, flags=("-march=armv8.1-a",))


# Peak RSS through a small intermediate process: a child forked from the test
# process (hundreds of MiB after many tests) is charged that process's size
# at exec (Linux records the old address space's high-water mark in
# ru_maxrss), so the ncpu process is forked from a fresh, small Python.
_SHIM = """
import os, sys
pid = os.fork()
if pid == 0:
    os.execv(sys.executable, [sys.executable, "-m", "ncpu", "arm64", *sys.argv[2:]])
_, status, usage = os.wait4(pid, 0)
with open(sys.argv[1], "w") as out:
    out.write(f"{os.waitstatus_to_exitcode(status)} {usage.ru_maxrss}")
"""


def _peak_rss(*args, cwd=None):
    """Run `ncpu arm64 ARGS` as a child process; (status, stdout, stderr, its peak RSS in bytes).
    A first run of one instruction fills numba's cache: compiling the loop takes
    over 1 GiB of host memory by itself, which is not the guest's."""
    env = dict(harness.ENV, PYTHONPATH=os.environ.get("PYTHONPATH", ""), NUMBA_CACHE_DIR=str(jitcache.cache_root()))
    subprocess.run([sys.executable, "-m", "ncpu", "arm64", "--max-steps", "1", *map(str, args[-1:])], env=env,
                   capture_output=True, check=False)
    with tempfile.TemporaryDirectory() as scratch:
        report = os.path.join(scratch, "rss")
        done = subprocess.run([sys.executable, "-c", _SHIM, report, *map(str, args)], env=env, cwd=cwd,
                              stdin=subprocess.DEVNULL, capture_output=True, check=False)
        with open(report) as f:
            status, rss = map(int, f.read().split())
    return status, done.stdout, done.stderr, rss * 1024


def test_untouched_2000_mib_mapping_costs_no_host_memory(tools, tmp_path):
    binary = harness.compile_c("big_mmap", "-O2")
    ref = harness.run_qemu(binary, ["prog"], harness.make_tree(tmp_path / "q"))
    status, out, err, rss = _peak_rss("--root", harness.make_tree(tmp_path / "n"), binary)
    assert (status, out) == (ref.status, ref.stdout) == (0, b"1 2 3 0\n"), err
    assert rss < 1 * GIB, f"peak RSS {rss >> 20} MiB"


def test_fork_bomb_ends_with_its_budget_and_bounded_memory(tmp_path):
    binary = harness.compile_c("fork_bomb", "-O2")
    status, out, err, rss = _peak_rss("--max-steps", 20_000_000, "--max-procs", 256,
                                      "--root", harness.make_tree(tmp_path / "n"), binary)
    assert status == 124, err                                    # the instruction budget, not a crash
    assert b"instruction budget" in err and b"Traceback" not in err
    assert rss < 1 * GIB, f"peak RSS {rss >> 20} MiB"


def test_max_procs_gives_eagain(tmp_path):
    binary = harness.compile_c("fork_limit", "-O2")
    out = _run(binary, ["prog"], tmp_path, max_procs=5)
    assert out.stdout == (b"forked 4, then: Resource temporarily unavailable\nall reaped: 1\n"
                          b"fork after reaping: 3\n")
    assert out.status == 0


def _run(binary, argv, tmp_path, **machine):
    """run_ncpu with Machine options (memory=, max_procs=)."""
    import tempfile

    from ncpu.arm64.linux import Machine
    root = harness.make_tree(tmp_path / "n")
    with tempfile.TemporaryFile() as fout, tempfile.TemporaryFile() as ferr, open(os.devnull, "rb") as fin:
        m = Machine(root=str(root), stdio=(fin.fileno(), fout.fileno(), ferr.fileno()), **machine)
        result = m.run(str(binary), argv, env=harness.ENV)
        fout.seek(0)
        ferr.seek(0)
        return harness.Outcome(fout.read(), ferr.read(), result.status, result.instructions,
                               tuple(result.messages + [result.reason]))


def test_memory_budget_gives_enomem(tmp_path):
    binary = harness.compile_c("mem_hog", "-O2")
    out = _run(binary, ["prog", "map"], tmp_path, memory=64 << 20)
    assert out.stdout == (b"mmap 100 MiB: Cannot allocate memory\nsbrk 100 MiB: Cannot allocate memory\n"
                          b"heap unchanged: 1\nmmap 8 MiB: ok\n")
    out = _run(binary, ["prog", "fork"], tmp_path, memory=64 << 20)
    assert out.stdout == b"fork holding 40 MiB: Cannot allocate memory\n"


def test_out_of_memory_ends_the_machine_with_a_report(tmp_path):
    binary = harness.compile_c("mem_hog", "-O2")
    out = _run(binary, ["prog", "touch"], tmp_path, memory=64 << 20)
    assert out.stdout == b"two mappings of 40 MiB: 1\n"
    assert out.status == 137 and out.messages[-1] == "oom"
    assert any(m.startswith("out of memory") for m in out.messages)


def test_cli_memory_option_and_oversized_elf(tmp_path):
    hello = harness.compile_c("hello", "-O2")
    env = dict(harness.ENV, PYTHONPATH=os.environ.get("PYTHONPATH", ""), NUMBA_CACHE_DIR=str(jitcache.cache_root()))

    def cli(*args):
        return subprocess.run([sys.executable, "-m", "ncpu", "arm64", *map(str, args)], capture_output=True,
                              timeout=300, env=env)
    small = cli("--memory", "64K", hello)
    assert small.returncode == 2 and b"Traceback" not in small.stderr
    assert b"more than the machine's memory" in small.stderr and len(small.stderr.splitlines()) == 1
    for bad in ("lots", "0", "9" * 30, "2T"):
        r = cli("--memory", bad, hello)
        assert r.returncode == 2 and len(r.stderr.splitlines()) == 1 and b"--memory" in r.stderr
    assert cli("--max-procs", "0", hello).returncode == 2
    ok = cli("--memory", "16M", "--max-procs", "2", hello)
    assert ok.returncode == 3 and ok.stdout == b"hello, world\nsecond line\n"
