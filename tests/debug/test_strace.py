"""`ncpu debug strace`: every system call, decoded as strace prints it."""

from __future__ import annotations

import json
import subprocess
import sys

from gdb_harness import ENV, REPO, compile_c


def strace(*args):
    return subprocess.run([sys.executable, "-m", "ncpu", "debug", "strace", *map(str, args)],
                          capture_output=True, env=dict(ENV, PYTHONPATH=str(REPO / "src")), timeout=300)


def test_strace_lines():
    run = strace("--", compile_c("syscalls"))
    assert run.returncode == 7 and run.stdout == b"hi\n"
    lines = run.stderr.decode().splitlines()
    expected = ['openat(AT_FDCWD, "/no/such/file", O_RDONLY) = -1 ENOENT (No such file or directory)',
                'write(1, "hi\\n", 3) = 3',
                'pipe2([3, 4], 0) = 0', 'write(4, "abc", 3) = 3', 'read(3, "abc", 8) = 3', "close(3) = 0",
                "exit_group(7) = ?", "+++ exited with 7 +++"]
    # in this order, each once, at the end of the trace
    tail = lines[-len(expected):]
    assert [line.startswith(e) for line, e in zip(tail, expected)] == [True] * len(expected), tail
    assert lines[0] == "brk(NULL) = " + lines[0].split(" = ")[1] and lines[0].split(" = ")[1].startswith("0x")


def test_strace_json_to_a_file(tmp_path):
    out = tmp_path / "trace.jsonl"
    run = strace("-o", out, "--json", "--", compile_c("syscalls"))
    assert run.returncode == 7 and run.stderr == b""
    calls = [json.loads(line) for line in out.read_text().splitlines()]
    write = next(c for c in calls if c["name"] == "write")
    assert write["nr"] == 64 and write["args"] == ["1", '"hi\\n"', "3"] and write["result"] == 3
    assert calls[-1]["name"] == "exit_group" and calls[-1]["result"] is None


def test_strace_decodes_structures():
    run = strace("--", compile_c("structs"))
    assert run.returncode == 0 and run.stdout == b"abcde\n"
    lines = run.stderr.decode().splitlines()

    def line(prefix):
        found = [x for x in lines if x.split("] ")[-1].startswith(prefix)]
        assert len(found) == 1, (prefix, lines)
        return found[0].split("] ")[-1]
    assert line("newfstatat(1, ").startswith('newfstatat(1, "", {st_mode=S_IF')
    assert line("clock_nanosleep(") == "clock_nanosleep(0, 0, {tv_sec=0, tv_nsec=1000}, NULL) = 0"
    assert line("uname(") == 'uname({sysname="Linux", nodename="ncpu", ...}) = 0'
    assert line("pipe2(") == "pipe2([3, 4], 0) = 0"
    assert line("writev(") == 'writev(1, [{iov_base="ab", iov_len=2}, {iov_base="cde\\n", iov_len=4}], 2) = 6'
    assert line("wait4(").startswith("wait4(") and "[{WIFEXITED(s) && WEXITSTATUS(s) == 3}]" in line("wait4(")


def test_strace_decodes_signal_actions_masks_and_limits():
    run = strace("--", compile_c("signals_limits"))
    assert run.returncode == 0
    lines = run.stderr.decode().splitlines()
    start = next(k for k, x in enumerate(lines) if x.startswith("rt_sigaction(SIGINT"))
    assert lines[start:start + 11] == [
        "rt_sigaction(SIGINT, {sa_handler=%s, sa_mask=[TERM], sa_flags=SA_RESTART}, "
        "{sa_handler=SIG_DFL, sa_mask=[], sa_flags=0}, 8) = 0" % lines[start].split("sa_handler=")[1].split(",")[0],
        "rt_sigaction(SIGPIPE, {sa_handler=SIG_IGN, sa_mask=[PIPE], sa_flags=SA_RESTART}, "
        "{sa_handler=SIG_DFL, sa_mask=[], sa_flags=0}, 8) = 0",
        "rt_sigprocmask(SIG_BLOCK, [INT USR1], [], 8) = 0",
        "rt_sigprocmask(SIG_SETMASK, ~[RTMIN RT_1], NULL, 8) = 0",      # glibc's sigfillset leaves 32, 33 out
        "rt_sigprocmask(SIG_SETMASK, [], NULL, 8) = 0",
        "prlimit64(0, RLIMIT_NOFILE, NULL, {rlim_cur=1024, rlim_max=1024}) = 0",
        "prlimit64(0, RLIMIT_NOFILE, {rlim_cur=512, rlim_max=1024}, NULL) = 0",
        "prlimit64(0, RLIMIT_STACK, NULL, {rlim_cur=8192*1024, rlim_max=RLIM64_INFINITY}) = 0",
        "getrlimit(RLIMIT_CORE, {rlim_cur=RLIM_INFINITY, rlim_max=RLIM_INFINITY}) = 0",
        "setrlimit(RLIMIT_CORE, {rlim_cur=RLIM_INFINITY, rlim_max=RLIM_INFINITY}) = 0",
        "exit_group(0) = ?",
    ]
    assert lines[start].split("sa_handler=")[1].startswith("0x4")


def test_strace_follows_forked_and_execd_children_with_pids():
    run = strace("--", compile_c("forkexec"))
    assert run.returncode == 0 and run.stdout == b"exec'd: again\nparent: child exited with 5, counter 0\n"
    lines = run.stderr.decode().splitlines()
    clone = next(k for k, x in enumerate(lines) if x.startswith("clone("))
    assert lines[clone].endswith(" = 1001")
    child = [x for x in lines if x.startswith("[pid 1001] ")]
    execve = next(x for x in child if "execve(" in x)
    assert execve.startswith('[pid 1001] execve("/proc/self/exe", ["') and ', "again"], 0x' in execve
    assert execve.endswith(" vars */) = 0")
    assert '[pid 1001] write(1, "exec\'d: again\\n", 14) = 14' in child
    assert child[-1] == "[pid 1001] exit_group(5) = ?"
    assert "[pid 1000] wait4(1001, [{WIFEXITED(s) && WEXITSTATUS(s) == 5}], 0x0, NULL) = 1001" in lines
    assert lines[-1] == "+++ exited with 0 +++"
