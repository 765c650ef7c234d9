"""Benchmark: Debian's arm64 programs (dynamically linked) under ncpu and under qemu-aarch64.

    python benchmarks/arm64_userland.py [--only NAME ...] [--json]

Builds (once, cached) the Debian root of `ncpu arm64-root`, then runs each
workload under `qemu-aarch64 -L ROOT` and under our machine on the same root,
checks that stdout, stderr and exit status agree, and prints per workload our
guest instruction count, both wall times, both CPU times (qemu's from the
child's rusage, ours from this process) and the CPU-time ratio.  The first
workload also pays for loading the compiled CPU loop; it is run once before
timing.  gcc is measured as the three programs `gcc -O2 hello.c` runs (cc1,
as, ld), each under both machines, because qemu-user cannot run the gcc driver
itself on this host (see tests/arm64/linux/userland_harness.py).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PACKAGES = ["bash", "coreutils", "grep", "sed", "gawk", "findutils", "diffutils", "gzip", "xz-utils", "tar",
            "bc", "file", "python3-minimal", "libpython3-stdlib", "perl-base", "sqlite3", "make", "gcc", "libc6-dev"]
ENV = {"PATH": "/usr/bin:/bin", "HOME": "/root", "TZ": "UTC", "LC_ALL": "C"}

HELLO_C = '#include <stdio.h>\nint main(void) { printf("hello %d\\n", 6 * 7); return 0; }\n'
PY_WORK = r'''
import json, re, hashlib, decimal
rows = [{"id": i, "name": f"item{i}", "tags": ["a", "b"][: i % 3]} for i in range(2000)]
text = json.dumps(rows)
assert json.loads(text) == rows
print(len(re.findall(r"item(\d+)7", text)), hashlib.sha256(text.encode()).hexdigest()[:16])
decimal.getcontext().prec = 50
print(sum(decimal.Decimal(1) / decimal.Decimal(k) for k in range(1, 300)))
'''
SQL = ("create table t(id integer primary key, v integer, g text);\n"
       "with recursive c(x) as (select 1 union all select x + 1 from c where x < 10000) "
       "insert into t(v, g) select x * 7 % 1000, char(97 + x % 5) from c;\n"
       "select count(*), sum(v), avg(v) from t;\nselect g, count(*), max(v) from t group by g order by g;\n")
BASH_LOOP = 's=0; for ((i = 0; i < 3000; i++)); do s=$(( (s + i * i) % 1000003 )); done; echo $s; a=(); ' \
            'for i in {1..500}; do a+=("x$i"); done; echo ${#a[@]} ${a[499]}'
GCC = "/usr/lib/gcc/aarch64-linux-gnu/12"
LIB = "/usr/lib/aarch64-linux-gnu"

# name -> (argv, stdin)
WORKLOADS = {
    "true": (["true"], b""),
    "bash loop": (["bash", "-c", BASH_LOOP], b""),
    "sort -n 20k": (["sort", "-n", "nums.txt"], b""),
    "sha256sum 1M": (["sha256sum", "big.bin"], b""),
    "gzip -9 1M": (["gzip", "-9", "-n", "-c", "big.txt"], b""),
    "xz 1M": (["xz", "-c", "big.txt"], b""),
    "grep -E": (["grep", "-c", "-E", "(12|34)5[0-9]$", "nums.txt"], b""),
    "gawk assoc": (["awk", "{ c[$1 % 97]++ } END { n = 0; for (k in c) n += c[k]; print n, length(c) }",
                    "nums.txt"], b""),
    "perl regex": (["perl", "-ne", "$n{$1}++ while /(\\d\\d)/g; END { print scalar(keys %n), \"\\n\" }",
                    "nums.txt"], b""),
    "bc 2^5000": (["bc"], b"2^5000 % 1000007\nscale=200; 4*a(1)\n"),
    "python3 start-up": (["python3", "-c", "pass"], b""),
    "python3 json/re/decimal": (["python3", "work.py"], b""),
    "sqlite3 10k rows": (["sqlite3", ":memory:"], SQL.encode()),
    "gcc: cc1 -O2 hello.c": ([f"{GCC}/cc1", "-quiet", "-imultiarch", "aarch64-linux-gnu", "hello.c", "-quiet",
                              "-dumpbase", "hello.c", "-dumpbase-ext", ".c", "-mlittle-endian", "-mabi=lp64",
                              "-O2", "-fasynchronous-unwind-tables", "-o", "hello.s"], b""),
    "gcc: as": (["/usr/bin/as", "-EL", "-mabi=lp64", "-o", "hello.o", "hello.s"], b""),
    "gcc: ld": (["/usr/bin/ld", "--build-id", "--eh-frame-hdr", "--hash-style=gnu", "--as-needed",
                 "-dynamic-linker", "/lib/ld-linux-aarch64.so.1", "-X", "-EL", "-maarch64linux", "-pie", "-o",
                 "hello", f"{LIB}/Scrt1.o", f"{LIB}/crti.o", f"{GCC}/crtbeginS.o", f"-L{GCC}", f"-L{LIB}",
                 "hello.o", "-lgcc", "--push-state", "--as-needed", "-lgcc_s", "--pop-state", "-lc", "-lgcc",
                 f"{GCC}/crtendS.o", f"{LIB}/crtn.o"], b""),
}


def _files(work: Path) -> None:
    work.mkdir(parents=True, exist_ok=True)
    (work / "nums.txt").write_text("".join(f"{(i * 7919) % 100003}\n" for i in range(20000)))
    (work / "big.bin").write_bytes(bytes((i * 31 + (i >> 8)) & 0xFF for i in range(1 << 20)))
    (work / "big.txt").write_text("".join(f"line {i} of the text, {i * i % 977}\n" for i in range(30000))[:1 << 20])
    (work / "hello.c").write_text(HELLO_C)
    (work / "work.py").write_text(PY_WORK)
    for dirpath, _dirs, files in os.walk(work):
        for name in files:
            os.utime(os.path.join(dirpath, name), (1_600_000_000, 1_600_000_000))


def _children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def _program(argv0: str) -> str:
    return argv0 if argv0.startswith("/") else f"/usr/bin/{argv0}"


def run_qemu(root: Path, work: Path, argv: list[str], stdin: bytes):
    cpu0, start = _children_cpu(), time.perf_counter()
    done = subprocess.run(["qemu-aarch64", "-L", str(root), "-0", argv[0], f"{root}{_program(argv[0])}",
                           *argv[1:]], cwd=work, input=stdin, capture_output=True, env=ENV, timeout=600)
    return (done.stdout, done.stderr, done.returncode), time.perf_counter() - start, _children_cpu() - cpu0


def run_ncpu(root: Path, work: Path, argv: list[str], stdin: bytes):
    from ncpu.arm64.linux import Machine
    from ncpu.arm64.linux.fs import FileSystem

    host = FileSystem(str(root)).resolve(_program(argv[0]), "/").host_path
    with tempfile.TemporaryFile() as fin, tempfile.TemporaryFile() as fout, tempfile.TemporaryFile() as ferr:
        fin.write(stdin)
        fin.seek(0)
        machine = Machine(root=str(root), cwd="/" + str(work.relative_to(root)), env=ENV,
                          stdio=(fin.fileno(), fout.fileno(), ferr.fileno()))
        cpu0, start = time.process_time(), time.perf_counter()
        result = machine.run(host, list(argv))
        wall, cpu = time.perf_counter() - start, time.process_time() - cpu0
        fout.seek(0)
        ferr.seek(0)
        return (fout.read(), ferr.read(), result.status), wall, cpu, result.instructions


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", action="append", choices=sorted(WORKLOADS), help="run only these workloads")
    parser.add_argument("--json", action="store_true", help="print the rows as JSON")
    args = parser.parse_args()
    from ncpu.arm64.cpu import native
    native.set_threshold(0)       # the interpreter's figures (native code is on by default;
                                  # arm64_vs_qemu.py --native measures it)
    if shutil.which("qemu-aarch64") is None:
        print("qemu-aarch64 is not installed (apt-get install qemu-user)", file=sys.stderr)
        return 2
    from ncpu.arm64.linux.rootfs import cached_root

    root = cached_root(PACKAGES)
    work = root / "bench"
    shutil.rmtree(work, ignore_errors=True)
    _files(work)
    run_ncpu(root, work, ["true"], b"")           # load the compiled loop before timing
    rows = []
    for name, (argv, stdin) in WORKLOADS.items():
        if args.only and name not in args.only:
            continue
        ref, q_wall, q_cpu = run_qemu(root, work, argv, stdin)
        ours, wall, cpu, count = run_ncpu(root, work, argv, stdin)
        rows.append({"name": name, "instructions": count, "ours_s": wall, "ours_cpu": cpu, "qemu_s": q_wall,
                     "qemu_cpu": q_cpu, "same": ours == ref})
    if args.json:
        print(json.dumps(rows, indent=1))
        return 0
    print(f"{'workload':<26} {'instructions':>14} {'ncpu s':>8} {'ncpu cpu':>9} {'qemu s':>7} {'qemu cpu':>9} "
          f"{'cpu ratio':>9}  same")
    for r in rows:
        ratio = r["ours_cpu"] / r["qemu_cpu"] if r["qemu_cpu"] > 0 else float("inf")
        print(f"{r['name']:<26} {r['instructions']:>14,} {r['ours_s']:>8.2f} {r['ours_cpu']:>9.2f} "
              f"{r['qemu_s']:>7.2f} {r['qemu_cpu']:>9.2f} {ratio:>8.1f}x  {'yes' if r['same'] else 'NO'}")
    return 0 if all(r["same"] for r in rows) else 1


if __name__ == "__main__":
    from ncpu.pipes import run_script
    run_script(main)
