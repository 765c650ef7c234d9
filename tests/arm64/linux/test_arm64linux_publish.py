"""`ncpu arm64 --publish HOSTPORT:GUESTPORT`: a host HTTP client (urllib) fetches pages from
BusyBox's httpd running inside the machine; bad --publish values are one-line errors."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request

import pytest

import arm64linux_harness as harness

STARTUP_S = 120          # the machine starts in a fresh interpreter on a loaded host


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def ncpu_cmd(*args) -> list[str]:
    return [sys.executable, "-m", "ncpu", "arm64", *args]


def _env():
    env = dict(os.environ)
    env["PYTHONPATH"] = str(harness.REPO / "src") + os.pathsep + env.get("PYTHONPATH", "")
    return env


def fetch(url: str, deadline: float):
    """GET url, retrying while the guest server is not up yet."""
    while True:
        try:
            with urllib.request.urlopen(url, timeout=60) as reply:
                return reply.status, reply.read()
        except urllib.error.HTTPError:
            raise
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.5)


def serve(tree, host_port: int, guest_args: list[str]):
    return subprocess.Popen(ncpu_cmd("--root", str(tree), "--publish", f"{host_port}:8080",
                                     str(tree / "bin" / guest_args[0]), *guest_args[1:]),
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env=_env(), start_new_session=True)


def stop(proc) -> bytes:
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGTERM)
    _, err = proc.communicate(timeout=60)
    return err


def test_host_urllib_fetches_from_guest_httpd(busybox_path, tmp_path):
    tree = harness.make_tree(tmp_path / "t", {"www/index.html": "<h1>served by the guest</h1>\n",
                                              "www/sub/data.txt": "x" * 100_000})
    (tree / "bin").mkdir()
    shutil.copy(busybox_path, tree / "bin" / "busybox")
    port = free_port()
    proc = serve(tree, port, ["busybox", "httpd", "-f", "-p", "8080", "-h", "/www"])
    try:
        deadline = time.monotonic() + STARTUP_S
        assert fetch(f"http://127.0.0.1:{port}/index.html", deadline) == (200, b"<h1>served by the guest</h1>\n")
        status, body = fetch(f"http://127.0.0.1:{port}/sub/data.txt", deadline)
        assert (status, body) == (200, b"x" * 100_000)
        with pytest.raises(urllib.error.HTTPError) as missing:
            fetch(f"http://127.0.0.1:{port}/missing.html", deadline)
        assert missing.value.code == 404
    finally:
        err = stop(proc)
    assert b"Traceback" not in err, err


def test_publish_bad_values_are_one_line_errors(tmp_path):
    binary = tmp_path / "prog"
    binary.write_bytes(b"\x7fELF")
    for spec in ("8080", "80:70000"):
        run = subprocess.run(ncpu_cmd("--publish", spec, str(binary)), capture_output=True, env=_env(),
                             timeout=120)
        assert run.returncode != 0
        assert b"--publish" in run.stderr and b"Traceback" not in run.stderr, run.stderr
