"""--record logs the inputs a run consumed; --replay repeats the run exactly, also under gdb."""

from __future__ import annotations

import json
import re
import subprocess
import sys

from gdb_harness import ENV, REPO, compile_c, free_port, require

NCPU = [sys.executable, "-m", "ncpu", "arm64"]


def ncpu(*args, stdin: bytes = b"", cwd=None):
    return subprocess.run(NCPU + [str(a) for a in args], input=stdin, capture_output=True, cwd=cwd,
                          env=dict(ENV, PYTHONPATH=str(REPO / "src")), timeout=300)


def count(stderr: bytes) -> int:
    return int(re.search(rb"ncpu: (\d+) instructions", stderr).group(1))


def test_replay_repeats_stdin_time_and_entropy(tmp_path):
    binary = compile_c("stdin_sum")
    log = tmp_path / "run.json"
    first = ncpu("--host-time", "--record", log, "--stats", binary, stdin=b"1\n20\n300\n")
    assert first.returncode == 0, first.stderr
    assert first.stdout.startswith(b"total 321 seed ")
    events = json.loads(log.read_text())["events"]
    assert ["stdin", b"1\n20\n300\n".hex()] in events and any(e[0] == "random" for e in events)
    # host time and entropy differ from run to run, the replay's do not
    other = ncpu("--host-time", "--stats", binary, stdin=b"1\n20\n300\n")
    assert other.stdout != first.stdout
    again = ncpu("--replay", log, "--stats", binary)           # nothing on stdin this time
    assert (again.stdout, again.returncode) == (first.stdout, 0)
    assert count(again.stderr) == count(first.stderr)


def test_replay_refuses_another_binary(tmp_path):
    log = tmp_path / "run.json"
    assert ncpu("--record", log, compile_c("stdin_sum"), stdin=b"5\n").returncode == 0
    wrong = ncpu("--replay", log, compile_c("basic"))
    assert wrong.returncode == 2 and b"recorded with a different binary" in wrong.stderr


def test_gdb_on_a_replay_goes_backwards(tmp_path):
    require("gdb-multiarch")
    binary = compile_c("stdin_sum")
    log = tmp_path / "run.json"
    first = ncpu("--host-time", "--record", log, binary, stdin=b"7\n8\n")
    port = free_port()
    server = subprocess.Popen(NCPU + ["-g", str(port), "--replay", str(log), str(binary)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
                              env=dict(ENV, PYTHONPATH=str(REPO / "src")))
    script = ["set pagination off", "set tcp connect-timeout 120", f"target remote 127.0.0.1:{port}",
              "break stdin_sum.c:18", "continue", "p total", "watch total", "reverse-continue",
              "reverse-continue", "p total", "delete", "continue"]
    args = ["gdb-multiarch", "-nx", "-batch"] + [x for line in script for x in ("-ex", line)] + [str(binary)]
    gdb = subprocess.run(args, capture_output=True, text=True, timeout=300, cwd=REPO / "tests" / "debug" / "c")
    out, _ = server.communicate(timeout=300)
    assert "$1 = 15" in gdb.stdout
    # backwards through the replay: the last write made total 15 (from 7), the one before 7 (from 0)
    assert "Old value = 15\nNew value = 7" in gdb.stdout
    assert "Old value = 7\nNew value = 0" in gdb.stdout and "$2 = 0" in gdb.stdout
    assert out == first.stdout and server.returncode == 0


def test_going_back_rereads_the_same_stdin_clock_and_entropy(tmp_path):
    """Without a recording, stdin and host readings are kept as they are read, so
    re-executing the past sees them again."""
    require("gdb-multiarch")
    binary = compile_c("stdin_sum")
    port = free_port()
    (tmp_path / "input").write_bytes(b"7\n8\n")
    with open(tmp_path / "input", "rb") as stdin:
        server = subprocess.Popen(NCPU + ["--host-time", "-g", str(port), str(binary)], stdin=stdin,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                  env=dict(ENV, PYTHONPATH=str(REPO / "src")))
    script = ["set pagination off", "set tcp connect-timeout 120", f"target remote 127.0.0.1:{port}",
              "break stdin_sum.c:18", "continue", "p total", "reverse-stepi", "p total", "stepi", "p total",
              "p seed", "p now.tv_nsec", "reverse-stepi", "p seed", "p now.tv_nsec", "delete", "continue"]
    args = ["gdb-multiarch", "-nx", "-batch"] + [x for line in script for x in ("-ex", line)] + [str(binary)]
    gdb = subprocess.run(args, capture_output=True, text=True, timeout=300, cwd=REPO / "tests" / "debug" / "c")
    out, _ = server.communicate(timeout=300)
    # reverse-stepi re-executes from the start, through both fgets calls
    assert "$1 = 15" in gdb.stdout and "$2 = 15" in gdb.stdout and "$3 = 15" in gdb.stdout
    seed, ns = re.search(r"\$4 = (\d+)\n\$5 = (\d+)\n", gdb.stdout).groups()
    assert f"$6 = {seed}\n$7 = {ns}\n" in gdb.stdout          # the same host readings after going back
    assert out == f"total 15 seed {seed} ns {ns}\n".encode()
