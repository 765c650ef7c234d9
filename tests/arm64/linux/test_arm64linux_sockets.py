"""Networking inside the machine: sockets between guest processes, compared with qemu-aarch64
where its answer does not depend on the host, and BusyBox's httpd, wget and nc in one run."""

from __future__ import annotations

import shutil
from concurrent.futures import ThreadPoolExecutor

import arm64linux_harness as harness

ISOLATION = """\
connect 8.8.8.8:53 -> -1 Network is unreachable
connect 10.0.0.1:80 -> -1 Network is unreachable
connect 127.0.0.1:80 -> -1 Connection refused
connect 127.0.0.1:1 -> -1 Connection refused
udp sendto 192.168.1.1 -> -1 Network is unreachable
bind 192.168.1.1 -> -1 Cannot assign requested address
connect [2001:db8::1]:80 -> -1 Network is unreachable
unbound udp name port 0
first ephemeral port 32768
"""


def test_sockets_match_qemu_and_repeat(tools, tmp_path):
    """AF_UNIX (pairs, names, SCM_RIGHTS), TCP over v4 and v6 and UDP between processes,
    poll/select/epoll/eventfd: qemu's output, and the same instruction count twice."""
    binary = harness.compile_c("sockets", "-O2")
    with ThreadPoolExecutor(1) as pool:
        future = pool.submit(harness.run_qemu, binary, ["prog"], harness.make_tree(tmp_path / "q"))
        ours = harness.run_ncpu(binary, ["prog"], harness.make_tree(tmp_path / "n"))
        ref = future.result()
    assert ours.triple() == ref.triple()
    assert b"tcp6 server got 54 bytes" in ours.stdout and b"client status 0" in ours.stdout
    again = harness.run_ncpu(binary, ["prog"], harness.make_tree(tmp_path / "n2"))
    assert (again.stdout, again.instructions) == (ours.stdout, ours.instructions)


def test_no_host_address_is_reachable(tools, tmp_path):
    binary = harness.compile_c("net_isolation", "-O2")
    ours = harness.run_ncpu(binary, ["prog"], harness.make_tree(tmp_path / "n"))
    assert ours.stdout.decode() == ISOLATION
    assert ours.status == 0


WEB = """\
busybox httpd -f -p 127.0.0.1:8080 -h /www &
pid=$!
for i in 1 2 3 4 5; do
  busybox wget -q -O - http://127.0.0.1:8080/index.html && break
  sleep 1
done
busybox wget -O /dev/null http://127.0.0.1:8080/missing.html 2>&1; echo "wget status $?"
printf 'GET /index.html HTTP/1.0\\r\\n\\r\\n' | busybox nc 127.0.0.1 8080 | busybox head -n 1
busybox nc -l -p 9000 > /got.txt &
ncpid=$!
sleep 1
echo "through nc" | busybox nc 127.0.0.1 9000
wait $ncpid; cat /got.txt
kill $pid; wait $pid 2>/dev/null; echo "httpd ended: $?"
"""


def test_busybox_httpd_wget_nc_in_one_machine(busybox_path, tmp_path):
    tree = harness.make_tree(tmp_path / "t", {"www/index.html": "<h1>hello from the machine</h1>\n",
                                              "web.sh": WEB})
    (tree / "bin").mkdir()
    shutil.copy(busybox_path, tree / "bin" / "busybox")
    first = harness.run_ncpu(tree / "bin" / "busybox", ["busybox", "sh", "/web.sh"], tree)
    out = first.stdout.decode()
    assert out.splitlines() == [
        "<h1>hello from the machine</h1>",
        "Connecting to 127.0.0.1:8080 (127.0.0.1:8080)",
        "wget: server returned error: HTTP/1.1 404 Not Found",
        "wget status 1",
        "HTTP/1.1 200 OK",
        "through nc",
        "httpd ended: 143",
    ], out
    (tree / "got.txt").unlink()
    second = harness.run_ncpu(tree / "bin" / "busybox", ["busybox", "sh", "/web.sh"], tree)
    assert (second.stdout, second.instructions) == (first.stdout, first.instructions)


def test_socket_calls_at_their_edges_match_qemu(tools, tmp_path):
    """Error numbers and flags: unconnected and listening sockets, non-blocking connect and
    accept4, MSG_PEEK/MSG_WAITALL, FIONREAD, SO_ERROR/SO_ACCEPTCONN, autobind, bad arguments."""
    binary = harness.compile_c("sockets_edges", "-O2")
    with ThreadPoolExecutor(1) as pool:
        future = pool.submit(harness.run_qemu, binary, ["prog"], harness.make_tree(tmp_path / "q"))
        ours = harness.run_ncpu(binary, ["prog"], harness.make_tree(tmp_path / "n"))
        ref = future.result()
    assert ours.triple() == ref.triple()
    assert not ours.messages, ours.messages
