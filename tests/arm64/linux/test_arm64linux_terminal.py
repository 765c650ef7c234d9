"""The host terminal as the guest's terminal, driven through a pseudo-terminal with pexpect:
an interactive BusyBox shell and Debian's bash with line editing, the window size, the foreground process
group, and the host tty's modes restored on every way out (exit, crash, budget, Ctrl-C)."""

from __future__ import annotations

import os
import shutil
import sys

import pytest

import arm64linux_harness as harness

pexpect = pytest.importorskip("pexpect", reason="pexpect is in the test extras (pip install -e .[test])")

PROMPT = r"/ # "
TIMEOUT = 180          # a fresh interpreter starts the machine on a loaded host


def _env():
    env = dict(os.environ)
    env["PYTHONPATH"] = str(harness.REPO / "src") + os.pathsep + env.get("PYTHONPATH", "")
    env["TERM"] = "xterm"
    for name in ("LINES", "COLUMNS"):      # they would override the terminal's size for BusyBox
        env.pop(name, None)
    return env


def ncpu(*args) -> list[str]:
    return ["-m", "ncpu", "arm64", *args]


@pytest.fixture
def tree(busybox_path, tmp_path):
    root = harness.make_tree(tmp_path / "t")
    (root / "bin").mkdir()
    shutil.copy(busybox_path, root / "bin" / "busybox")
    return root


def test_interactive_shell_line_editing(tree):
    """Type a command with two typos, fix them with Ctrl-A, Ctrl-F, Ctrl-D and backspace, run it."""
    child = pexpect.spawn(sys.executable, ncpu("--root", str(tree), str(tree / "bin" / "busybox"), "sh", "-i"),
                          env=_env(), timeout=TIMEOUT, dimensions=(30, 100))
    try:
        child.expect(PROMPT)
        child.send("ehco $((6*7))x")            # typos: "ehco", and a stray "x"
        child.send("\x7f")                      # backspace: the "x"
        child.send("\x01\x06")                  # Ctrl-A: start of line; Ctrl-F: after "e"
        child.send("\x04")                      # Ctrl-D: delete the "h" under the cursor -> "eco"
        child.send("\x06h")                     # after "c", type "h" -> "echo"
        child.send("\r")
        child.expect(r"\r\n42\r\n")
        child.expect(PROMPT)
        child.send("stty size; echo status $?\r")
        child.expect(r"30 100\r\nstatus 0\r\n")
        child.expect(PROMPT)
        child.send("exit 3\r")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 3


def test_debian_bash_readline(debian_root):
    """Debian's bash (GNU readline) in the terminal: fix a typo with Emacs keys, recall the line
    from history with the Up arrow, see the window size."""
    prompt = r"bash\$ "
    child = pexpect.spawn(sys.executable, ncpu("--root", str(debian_root), "--clean-env", "-E", "PATH=/usr/bin:/bin",
                                               "-E", "HOME=/root", "-E", "TERM=xterm", "-E", "PS1=bash$ ",
                                               "/usr/bin/bash", "--norc", "--noprofile", "-i"),
                          env=_env(), timeout=TIMEOUT, dimensions=(30, 100))
    try:
        child.expect(prompt)
        child.send("ehco $((6*7))x")            # typos: "ehco", and a stray "x"
        child.send("\x7f")                      # backspace: the "x"
        child.send("\x01\x06")                  # Ctrl-A: start of line; Ctrl-F: after "e"
        child.send("\x04")                      # Ctrl-D: delete the "h" under the cursor -> "eco"
        child.send("\x06h")                     # after "c", type "h" -> "echo"
        child.send("\r")
        child.expect(r"\r\n42\r\n")
        child.expect(prompt)
        child.send("\x1b[A")                    # Up arrow: the last line again, "echo $((6*7))"
        child.send("\x1b[D" * 5 + "7+")          # five Left arrows, then "7+": "echo $((7+6*7))"
        child.send("\r")
        child.expect(r"\r\n49\r\n")
        child.expect(prompt)
        child.send("stty size; echo status $? ${BASH_VERSINFO[0]}\r")
        child.expect(r"30 100\r\nstatus 0 5\r\n")
        child.expect(prompt)
        child.send("exit 3\r")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 3


# A host program that owns the pseudo-terminal: it notes the tty's modes, runs the machine
# in it, and says whether the modes came back and how the machine ended.
WRAPPER = r"""
import signal, subprocess, sys, termios
signal.signal(signal.SIGINT, lambda *a: None)      # Ctrl-C is for the machine, not for us
before = termios.tcgetattr(0)
status = subprocess.call(sys.argv[1:])
after = termios.tcgetattr(0)
print("modes", "restored" if after == before else "CHANGED", "status", status, flush=True)
"""


def _wrapped(tree, binary, *args, max_steps=None):
    extra = ["--max-steps", str(max_steps)] if max_steps else []
    argv = ["-c", WRAPPER, sys.executable, *ncpu("--root", str(tree), *extra, str(binary), *args)]
    return pexpect.spawn(sys.executable, argv, env=_env(), timeout=TIMEOUT, dimensions=(25, 81))


@pytest.fixture(scope="module")
def tty_modes():
    return harness.compile_c("tty_modes", "-O2")


@pytest.mark.parametrize("mode,status", [("crash", 139), ("spin", 124), ("", 0)])
def test_raw_mode_is_restored(tree, tty_modes, mode, status):
    child = _wrapped(tree, tty_modes, mode, max_steps=5_000_000 if mode == "spin" else None)
    try:
        child.expect(r"isatty 1\r\n")
        child.expect(r"winsize 25 x 81\r\n")
        child.expect(r"foreground is my group: 1\r\n")
        child.expect(r"/dev/tty: isatty 1\r\nwritten to /dev/tty\r\n")
        child.expect(r"raw\r\n")
        child.expect(rf"modes restored status {status}\r\n")
        child.expect(pexpect.EOF)
    finally:
        child.close()


def test_raw_mode_key_reaches_the_guest(tree, tty_modes):
    """In raw mode a key arrives at once, without Enter (and Ctrl-C is a byte, not a signal)."""
    child = _wrapped(tree, tty_modes, "key")
    try:
        child.expect(r"raw\r\n")
        child.send("\x03")
        child.expect(r"key 3\r\n")
        child.expect(r"modes restored status 0\r\n")
    finally:
        child.close()


def test_ctrl_c_reaches_the_foreground_guest(tree, tty_modes):
    """In cbreak mode with ISIG, Ctrl-C is SIGINT for the guest's foreground group: it dies of it."""
    child = _wrapped(tree, tty_modes, "wait")
    try:
        child.expect(r"cbreak, waiting\r\n")
        child.sendintr()
        child.expect(r"modes restored status 130\r\n")
    finally:
        child.close()


def test_ctrl_c_ends_the_shells_foreground_job_not_the_shell(tree):
    """sh -i runs cat in its own process group and makes it the terminal's foreground:
    Ctrl-C ends cat (status 130), the shell goes on."""
    child = pexpect.spawn(sys.executable, ncpu("--root", str(tree), str(tree / "bin" / "busybox"), "sh", "-i"),
                          env=_env(), timeout=TIMEOUT)
    try:
        child.expect(PROMPT)
        child.send("busybox cat\r")
        child.expect("busybox cat\r\n")
        child.send("typed line\r")
        child.expect("typed line\r\ntyped line\r\n")        # the tty's echo, then cat's copy
        child.sendintr()
        child.expect(PROMPT)
        child.send("echo cat ended $?\r")
        child.expect(r"cat ended 130\r\n")
        child.expect(PROMPT)
        child.send("exit\r")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 0
