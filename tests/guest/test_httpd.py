"""The HTTP/1.1 server application (guest/apps/httpd.c), built by gcc and by ncc, on our machine:
fetched by BusyBox's wget and nc inside the same machine run, and by a host urllib client
through `ncpu arm64 --publish`."""

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

import guest_harness as gh

harness = gh.harness
BUILDS = ["gcc", "ncc"]
PAGES = {"www/index.html": "<h1>ncpu httpd</h1>\n", "www/docs/a.txt": "plain text\n",
         "www/docs/b.html": "b\n", "www/docs/sub/c.txt": "c\n", "www/big.bin": bytes(range(256)) * 400}

CLIENT = """\
/bin/$1 -p 8080 -r /www -n 7 &
pid=$!
for i in 1 2 3 4 5; do busybox wget -q -O - http://127.0.0.1:8080/ && break; sleep 1; done
busybox wget -q -O - http://127.0.0.1:8080/docs/
busybox wget -q -O - http://127.0.0.1:8080/nope.txt; echo "404 status $?"
busybox wget -q -O /got.bin http://127.0.0.1:8080/big.bin; busybox cmp /got.bin /www/big.bin && echo "big same"
printf 'HEAD /docs/a.txt HTTP/1.0\\r\\n\\r\\n' | busybox nc 127.0.0.1 8080
printf 'GET /docs/a.txt HTTP/1.1\\r\\nHost: x\\r\\n\\r\\nGET /docs/b.html HTTP/1.1\\r\\nConnection: close\\r\\n\\r\\n' \\
  | busybox nc 127.0.0.1 8080
printf 'GET /../etc/passwd HTTP/1.1\\r\\n\\r\\n' | busybox nc 127.0.0.1 8080 | busybox head -n 1
wait $pid; echo "server exit $?"
"""

EXPECTED = """\
<h1>ncpu httpd</h1>
<html><body><h1>Index of /docs/</h1>
<ul>
<li><a href="a.txt">a.txt</a></li>
<li><a href="b.html">b.html</a></li>
<li><a href="sub/">sub/</a></li>
</ul></body></html>
404 status 1
big same
HTTP/1.1 200 OK\r
Server: ncpu-httpd\r
Content-Type: text/plain\r
Content-Length: 11\r
Connection: close\r
\r
HTTP/1.1 200 OK\r
Server: ncpu-httpd\r
Content-Type: text/plain\r
Content-Length: 11\r
Connection: keep-alive\r
\r
plain text
HTTP/1.1 200 OK\r
Server: ncpu-httpd\r
Content-Type: text/html\r
Content-Length: 2\r
Connection: close\r
\r
b
HTTP/1.1 403 Forbidden\r
server exit 0
"""


@pytest.fixture(scope="module")
def web_root(tree, tmp_path_factory):
    """The built tree with BusyBox and a few pages under /www."""
    try:
        busybox = harness.busybox()
    except harness.ToolMissing as error:
        pytest.fail(str(error))
    path = tmp_path_factory.mktemp("httpd") / "root"
    shutil.copytree(tree, path, ignore=shutil.ignore_patterns(".done"))
    shutil.copy(busybox, path / "bin" / "busybox")
    harness.make_tree(path, PAGES)
    (path / "client.sh").write_text(CLIENT)
    return path


@pytest.mark.parametrize("build", BUILDS)
def test_httpd_with_guest_clients(web_root, build):
    name = "httpd" if build == "gcc" else "httpd.ncc"
    out = harness.run_ncpu(web_root / "bin" / "busybox", ["busybox", "sh", "/client.sh", name], web_root)
    assert out.stdout.decode() == EXPECTED
    assert out.stderr.decode() == ("httpd: serving /www on port 8080\n"
                                   "wget: server returned error: HTTP/1.1 404 Not Found\n")
    assert out.status == 0
    (web_root / "got.bin").unlink()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _get(url: str, deadline: float, method: str = "GET"):
    while True:
        try:
            request = urllib.request.Request(url, method=method)
            with urllib.request.urlopen(request, timeout=60) as reply:
                return reply.status, dict(reply.headers), reply.read()
        except urllib.error.HTTPError:
            raise
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.5)


def test_httpd_ncc_build_from_the_host_through_publish(web_root):
    """ncc's build of the server inside the machine, a host urllib client outside (--publish)."""
    port = _free_port()
    env = dict(os.environ)
    env["PYTHONPATH"] = str(harness.REPO / "src") + os.pathsep + env.get("PYTHONPATH", "")
    proc = subprocess.Popen([sys.executable, "-m", "ncpu", "arm64", "--root", str(web_root),
                             "--publish", f"{port}:8080", str(web_root / "bin" / "httpd.ncc"),
                             "-p", "8080", "-r", "/www", "-n", "4"],
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env=env, start_new_session=True)
    try:
        deadline = time.monotonic() + 120
        status, headers, body = _get(f"http://127.0.0.1:{port}/docs/a.txt", deadline)
        assert (status, headers["Content-Type"], body) == (200, "text/plain", b"plain text\n")
        status, headers, body = _get(f"http://127.0.0.1:{port}/big.bin", deadline)
        assert (status, body) == (200, bytes(range(256)) * 400)
        status, headers, body = _get(f"http://127.0.0.1:{port}/index.html", deadline, method="HEAD")
        assert (status, headers["Content-Length"], body) == (200, "20", b"")
        with pytest.raises(urllib.error.HTTPError) as missing:
            _get(f"http://127.0.0.1:{port}/missing", deadline)
        assert missing.value.code == 404
        _, err = proc.communicate(timeout=120)          # -n 4: the server ends by itself
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.communicate(timeout=60)
    assert proc.returncode == 0
    assert err.decode() == "httpd: serving /www on port 8080\n"
