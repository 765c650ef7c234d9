"""Benchmark: networking inside the ARM64 machine, and through --publish.

    python benchmarks/arm64_net.py [--megabytes N] [--requests N]

1. TCP on the machine's loopback: arm64_net.c's child streams N MiB to its
   parent; the same binary under qemu-aarch64 (the host's network stack).
   Guest instructions, wall and CPU time of each (ours: this process's CPU).
2. guest/apps/httpd.c (gcc and ncc builds) answering N requests for a
   100 KiB file from BusyBox's wget, all inside one machine run: guest
   instructions and CPU time per request.
3. A host urllib client fetching the same file N times through
   `ncpu arm64 --publish` from the gcc build: requests per second (wall).
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(REPO / "tests" / "guest"))

import guest_harness as gh  # noqa: E402

harness = gh.harness


def _children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run_machine(binary, argv, root) -> tuple[harness.Outcome, float, float]:
    cpu0, start = time.process_time(), time.perf_counter()
    out = harness.run_ncpu(binary, argv, root, max_steps=50_000_000_000)
    return out, time.perf_counter() - start, time.process_time() - cpu0


def tcp_stream(megabytes: int, tmp: Path) -> None:
    binary = tmp / "arm64_net"
    subprocess.run([harness.GCC, "-static", "-O2", "-o", str(binary), str(HERE / "arm64_net.c")], check=True)
    cpu0, start = _children_cpu(), time.perf_counter()
    qemu = subprocess.run([harness.QEMU, str(binary), str(megabytes)], capture_output=True, check=True)
    qemu_s, qemu_cpu = time.perf_counter() - start, _children_cpu() - cpu0
    ours, wall, cpu = run_machine(binary, ["arm64_net", str(megabytes)], tmp)
    print(f"TCP loopback, {megabytes} MiB between two guest processes (64 KiB writes):")
    print(f"  {'':8} {'wall s':>8} {'cpu s':>8} {'MiB/cpu-s':>10} {'guest instr':>14}  same output")
    print(f"  {'qemu':8} {qemu_s:8.2f} {qemu_cpu:8.2f} {megabytes / max(qemu_cpu, 1e-9):10.1f} {'':>14}")
    print(f"  {'ncpu':8} {wall:8.2f} {cpu:8.2f} {megabytes / cpu:10.1f} {ours.instructions:14,}  "
          f"{ours.stdout == qemu.stdout}")


CLIENT = """\
/bin/$1 -p 8080 -r /www -n $2 &
i=0
while [ $i -lt $2 ]; do busybox wget -q -O /dev/null http://127.0.0.1:8080/file.bin || sleep 1; i=$((i+1)); done
wait
"""


def web_root(tmp: Path) -> Path:
    root = tmp / "root"
    shutil.copytree(gh.build_tree(), root, ignore=shutil.ignore_patterns(".done"))
    shutil.copy(harness.busybox(), root / "bin" / "busybox")
    (root / "www").mkdir()
    (root / "www" / "file.bin").write_bytes(bytes(range(256)) * 400)
    (root / "client.sh").write_text(CLIENT)
    return root


def guest_requests(root: Path, requests: int) -> None:
    print(f"guest httpd, {requests} wget requests for a 100 KiB file inside one machine run:")
    print(f"  {'server':10} {'instr/request':>14} {'cpu ms/request':>15} {'wall s':>8}")
    for name in ("httpd", "httpd.ncc"):
        out, wall, cpu = run_machine(root / "bin" / "busybox", ["busybox", "sh", "/client.sh", name,
                                                                str(requests)], root)
        assert out.status == 0, out.stderr
        print(f"  {name:10} {out.instructions // requests:14,} {1000 * cpu / requests:15.1f} {wall:8.2f}")


def host_requests(root: Path, requests: int) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = dict(os.environ, PYTHONPATH=str(REPO / "src"))
    proc = subprocess.Popen([sys.executable, "-m", "ncpu", "arm64", "--no-native", "--root", str(root),
                             "--publish", f"{port}:8080", str(root / "bin" / "httpd"), "-p", "8080", "-r", "/www",
                             "-n", str(requests + 1)], stdin=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    url = f"http://127.0.0.1:{port}/file.bin"
    deadline = time.monotonic() + 120
    while True:                                  # the first request waits for the machine to start
        try:
            urllib.request.urlopen(url, timeout=60).read()
            break
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)
    start = time.perf_counter()
    for _ in range(requests):
        assert len(urllib.request.urlopen(url, timeout=60).read()) == 102400
    wall = time.perf_counter() - start
    proc.wait(timeout=120)
    print(f"host urllib through --publish, {requests} requests for the 100 KiB file (gcc build): "
          f"{requests / wall:.1f} requests/s wall")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--megabytes", type=int, default=16)
    parser.add_argument("--requests", type=int, default=20)
    args = parser.parse_args()
    from ncpu.arm64.cpu import native
    native.set_threshold(0)       # the interpreter's figures (native code is on by default;
                                  # arm64_vs_qemu.py --native measures it)
    with tempfile.TemporaryDirectory(prefix="ncpu-net-") as tmp:
        tmp = Path(tmp)
        tcp_stream(args.megabytes, tmp)
        root = web_root(tmp)
        guest_requests(root, args.requests)
        host_requests(root, args.requests)
    return 0


if __name__ == "__main__":
    from ncpu.pipes import run_script
    run_script(main)
