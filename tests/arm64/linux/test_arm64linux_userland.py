"""Debian's arm64 programs, dynamically linked, byte-identical to qemu-aarch64 on the same root.

The root is built by `ncpu arm64-root` (userland_harness.root: once, cached;
the debian_root fixture in conftest.py);
the invocations are userland_cases.CASES.  The default run compares a few
(QUICK); `-m slow` runs them all, each twice under our machine (same output,
same instruction count) and gcc compiling a C program that both machines then run.
"""

from __future__ import annotations

import pytest

import userland_cases as cases
import userland_harness as harness


def _compare(root, case_id, argv, stdin, *, twice=False):
    ref = harness.run_qemu(root, argv, harness.workdir(root, case_id, cases.FILES), stdin=stdin.encode())
    ours = harness.run_ncpu(root, argv, harness.workdir(root, case_id, cases.FILES), stdin=stdin.encode())
    assert ours.triple() == ref.triple(), (case_id, ours.messages)
    if twice:
        again = harness.run_ncpu(root, argv, harness.workdir(root, case_id, cases.FILES), stdin=stdin.encode())
        assert (again.triple(), again.instructions) == (ours.triple(), ours.instructions), case_id
    return ours


QUICK = [c for c in cases.CASES if c[0] in cases.QUICK]
SLOW = [c for c in cases.CASES if c[0] not in cases.QUICK]


@pytest.mark.parametrize("case_id, argv, stdin", QUICK, ids=[c[0] for c in QUICK])
def test_quick_invocations(debian_root, case_id, argv, stdin):
    _compare(debian_root, case_id, argv, stdin)


@pytest.mark.slow
@pytest.mark.parametrize("case_id, argv, stdin", SLOW + QUICK, ids=[c[0] for c in SLOW + QUICK])
def test_invocations_deterministic(debian_root, case_id, argv, stdin):
    _compare(debian_root, case_id, argv, stdin, twice=True)


def test_dynamic_aux_vector(debian_root):
    """ld.so's own view of the aux vector: where it and the program were placed."""
    env = dict(harness.ENV, LD_SHOW_AUXV="1")
    out = harness.run_ncpu(debian_root, ["true"], harness.workdir(debian_root, "auxv"), env=env)
    shown = dict(line.split(":", 1) for line in out.stdout.decode().splitlines())
    shown = {k: v.strip() for k, v in shown.items()}
    from ncpu.arm64.linux import elf
    assert int(shown["AT_BASE"], 16) == elf.INTERP_BASE
    assert int(shown["AT_ENTRY"], 16) >= elf.PIE_BASE and int(shown["AT_PHDR"], 16) == elf.PIE_BASE + 64
    assert shown["AT_EXECFN"] == "true" and shown["AT_SECURE"] == "0" and shown["AT_PHENT"] == "56"
    from ncpu.arm64.linux.hwcap import HWCAP
    assert int(shown["AT_HWCAP"], 16) == HWCAP and "AT_SYSINFO_EHDR" not in shown
    assert out.status == 0


def test_missing_interpreter_is_one_line(tmp_path, debian_root):
    from ncpu.arm64.linux import ElfError, Machine
    with pytest.raises(ElfError, match="interpreter /lib/ld-linux-aarch64.so.1 is not in the root"):
        Machine(root=str(tmp_path)).run(str(debian_root / "usr/bin/true"), ["true"])


@pytest.mark.slow
def test_gcc_compiles_and_runs(debian_root):
    """Debian's gcc inside our machine compiles a C program that both machines then run the same.

    The reference: cc1, as and ld, each run under qemu-aarch64 on the same files (see
    userland_harness.GCC_STAGES), give byte for byte the same assembly, object and executable as
    under our machine; and our machine's `gcc -O2 hello.c -o hello` (the driver running all of
    them) gives that same executable."""
    harness.hide_host_toolchain(debian_root)
    made = {}
    for name, run in (("qemu", harness.run_qemu), ("ncpu", harness.run_ncpu)):
        work = harness.workdir(debian_root, "gcc", cases.FILES)
        for stage in harness.GCC_STAGES:
            result = run(debian_root, stage, work)
            assert result.triple() == (b"", b"", 0), (name, stage[0], result.triple())
        made[name] = {f: (work / f).read_bytes() for f in ("hello.s", "hello.o", "hello")}
    assert made["ncpu"] == made["qemu"]
    work = harness.workdir(debian_root, "gcc", cases.FILES)
    driver = harness.run_ncpu(debian_root, ["gcc", "-O2", "hello.c", "-o", "hello"], work)
    assert driver.triple() == (b"", b"", 0), driver.messages
    assert (work / "hello").read_bytes() == made["qemu"]["hello"]
    program = [f"/{harness.WORK}/gcc/hello", "x"]
    ran, ran_q = harness.run_ncpu(debian_root, program, work), harness.run_qemu(debian_root, program, work)
    assert ran.triple() == ran_q.triple() == (f"hello 64 /{harness.WORK}/gcc/hello\n".encode(), b"", 5)


# A web server and its client, both Debian's python3, in one machine run: bash starts
# `python3 -m http.server` in the background, the client retries until it listens.
HTTP_SCRIPT = r"""
python3 -m http.server 8000 --bind 127.0.0.1 2>server.log &
python3 - <<'PY'
import time, urllib.request
for attempt in range(200):
    try:
        reply = urllib.request.urlopen("http://127.0.0.1:8000/page.txt")
        break
    except OSError:
        time.sleep(0.05)
print(reply.status, reply.headers["Content-Type"], reply.headers["Content-Length"])
print(reply.read().decode(), end="")
listing = urllib.request.urlopen("http://127.0.0.1:8000/").read().decode()
print([line for line in listing.splitlines() if "href" in line])
PY
kill $!
wait $!
echo "server ended: $?"
grep -c '"GET /' server.log
"""
HTTP_PAGE = "served by python inside the machine\n"


def _http_run(debian_root):
    work = harness.workdir(debian_root, "http-server", {"page.txt": HTTP_PAGE})
    return harness.run_ncpu(debian_root, ["bash", "-c", HTTP_SCRIPT], work)


HTTP_EXPECTED = (b"200 text/plain 36\n" + HTTP_PAGE.encode()
                 + b"['<li><a href=\"page.txt\">page.txt</a></li>', '<li><a href=\"server.log\">server.log</a></li>']\n"
                 + b"server ended: 143\n2\n", b"", 0)


def test_python_http_server_and_client(debian_root):
    """Sockets between two guest processes through Python's standard library."""
    first = _http_run(debian_root)
    assert first.triple() == HTTP_EXPECTED, first.messages


@pytest.mark.slow
def test_python_http_server_and_client_is_deterministic(debian_root):
    """The same bytes and the same instruction count twice. KNOWN TO FAIL at times: two outcomes
    have been seen, 331,789,136 and 346,252,762 instructions (at loads 2 and 18), so host timing
    leaks into the guests' scheduling somewhere; an open defect, kept out of the default run so
    that it does not fail CI at random until it is found."""
    first, second = _http_run(debian_root), _http_run(debian_root)
    assert first.triple() == HTTP_EXPECTED, first.messages
    assert (second.triple(), second.instructions) == (first.triple(), first.instructions)
