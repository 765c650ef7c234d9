"""`ncpu debug` analyses on purpose-built C programs whose right answers are known from the source."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest
from gdb_harness import C_DIR, ENV, REPO, compile_c

from ncpu.debug import ct, difference, fuzz, sanitize
from ncpu.debug.coverage import Coverage
from ncpu.debug.profile import Profile
from ncpu.debug.symbols import Program
from ncpu.debug.tracing import run_traced


def ncpu_debug(*args, stdin=None):
    return subprocess.run([sys.executable, "-m", "ncpu", "debug", *map(str, args)], capture_output=True,
                          env=dict(ENV, PYTHONPATH=str(REPO / "src")), timeout=600, input=stdin)


def source_line(name: str, marker: str) -> int:
    """Line number of the first line of tests/debug/c/NAME.c containing marker."""
    for k, line in enumerate((C_DIR / f"{name}.c").read_text().splitlines(), 1):
        if marker in line:
            return k
    raise AssertionError(marker)


def test_profile_counts_calls_and_self_instructions():
    binary = str(compile_c("hot"))
    prof = Profile(Program.load(binary))
    result = run_traced(binary, [binary], on_rows=lambda tid, rows: prof.add(rows), regs=False)
    assert result.status == 0
    calls = {(c["caller"], c["callee"]): c["calls"] for c in prof.calls()}
    assert calls[("main", "hot")] == 10 and calls[("main", "cold")] == 1
    assert not any("never" in pair for pair in calls)
    flat = {f["function"]: f for f in prof.flat()}
    assert prof.flat()[0]["function"] == "hot"                    # the hottest function
    assert flat["hot"]["self"] % 10 == 0 and flat["hot"]["self"] > 10 * 100 * 5
    assert flat["main"]["inclusive"] >= flat["hot"]["self"] + flat["cold"]["self"]
    collapsed = dict(line.rsplit(" ", 1) for line in prof.collapsed())
    assert [int(n) for k, n in collapsed.items() if k.endswith(";main;hot")] == [flat["hot"]["self"]]
    assert sum(map(int, collapsed.values())) == prof.total == result.instructions


def test_coverage_lines_and_lcov():
    binary = str(compile_c("hot"))
    runs = {}
    for args in ([], ["5"]):
        cov = Coverage(Program.load(binary))
        run_traced(binary, [binary, *args], on_rows=lambda tid, rows: cov.add(rows), regs=False)
        lines = next(v for k, v in cov.lines().items() if k.endswith("hot.c"))
        runs[len(args)] = (cov, lines)
    cov, lines = runs[0]
    assert lines[source_line("hot", "s += i * 3")] == 1000
    assert lines[source_line("hot", "return n * 7")] == 0
    assert lines[source_line("hot", "return n + 1")] == 1
    assert runs[1][1][source_line("hot", "return n * 7")] == 1
    info = cov.lcov("t")
    assert f"DA:{source_line('hot', 'return n * 7')},0" in info and "FNDA:10,hot" in info and "FNDA:0,never" in info
    assert info.count("end_of_record") == info.count("SF:") and "LH:" in info
    assert cov.summary()["blocks_hit"] > 0


SECRET_KEY = b"0123456789abcdef"


def test_ct_flags_the_early_exit_and_passes_the_constant_time_compare():
    binary = str(compile_c("secret_cmp"))
    secrets = [SECRET_KEY, b"\0" * 16, b"01234X6789abcdef"]
    early = ct.check(binary, [binary, "early"], secrets)
    assert not early["constant_time"]
    d = early["divergence"]
    assert d["kind"] == "branch" and d["where"].startswith("compare_early") and d["inputs"] == [0, 1]
    assert d["line"].endswith(f"secret_cmp.c:{source_line('secret_cmp', 'if (a[i] != b[i])')}")
    good = ct.check(binary, [binary], secrets)
    assert good["constant_time"] and good["divergence"] is None and len(set(good["instructions"])) == 1


def test_diff_reports_the_first_data_and_control_divergence():
    binary = str(compile_c("secret_cmp"))
    runs = [([binary, "early"], SECRET_KEY, 0), ([binary, "early"], b"01X" + b"\0" * 13, 0)]
    report = difference.compare(binary, runs)
    assert report["status"] == [0, 1]
    control = report["control"]
    assert control["where"].startswith("compare_early")
    assert control["next_pc"][0] != control["next_pc"][1]
    data = report["data"]
    assert data["count"] < control["count"]
    assert any(a != b for a, b in data["registers"].values())


def test_fuzz_finds_the_crash_behind_a_four_byte_magic():
    binary = str(compile_c("magic"))
    state = fuzz.fuzz(binary, [binary], seeds=[b"hello world!"], executions=300, seed=1, stop_on_crash=True)
    assert len(state.crashes) == 1
    crash = next(iter(state.crashes.values()))
    assert crash.key[0] == 11 and Program.load(binary).where(crash.key[1]).startswith("parse")
    assert crash.minimized[:5] == b"NUM!x" and len(crash.minimized) == 8     # the length check: n >= 8
    again = fuzz.fuzz(binary, [binary], seeds=[b"hello world!"], executions=300, seed=1, stop_on_crash=True)
    assert again.executions == state.executions and again.corpus == state.corpus    # deterministic


@pytest.mark.parametrize("bug, kind, marker", [
    ("overflow-write", "heap-buffer-overflow write", "p[16] = 'x'"),
    ("overflow-read", "heap-buffer-overflow read", "c = p[-1]"),
    ("use-after-free", "heap-use-after-free read", "c = p[3]"),
    ("double-free", "double-free", "free(p);\n        free(p)"),
    ("invalid-free", "invalid-free", "free(p + 4)"),
    ("uninit", "uninitialised read", "c = (char)q[5]"),
])
def test_sanitize_names_each_bug_class(bug, kind, marker):
    binary = str(compile_c("heap_bugs", "-Wno-free-nonheap-object"))
    rep = sanitize.sanitize(binary, [binary, bug])
    assert [e["kind"] for e in rep["errors"]] == [kind], rep["errors"]
    error = rep["errors"][0]
    text = (C_DIR / "heap_bugs.c").read_text()
    line = text[:text.index(marker)].count("\n") + 1 + marker.count("\n")
    assert error["at"]["line"].endswith(f"heap_bugs.c:{line}")
    if kind != "invalid-free":
        assert error["block"]["allocated"]["line"].endswith(f"heap_bugs.c:{source_line('heap_bugs', 'malloc(')}") \
            or bug == "uninit"
    if bug in ("use-after-free", "double-free"):
        assert error["block"]["freed"]["where"].startswith("main")


def test_sanitize_leaks_and_a_clean_run():
    binary = str(compile_c("heap_bugs", "-Wno-free-nonheap-object"))
    leak = sanitize.sanitize(binary, [binary, "leak"])
    assert leak["errors"] == [] and [x["size"] for x in leak["leaks"]] == [40]
    assert leak["leaks"][0]["allocated"]["line"].endswith(f"heap_bugs.c:{source_line('heap_bugs', 'malloc(40)')}")
    clean = sanitize.sanitize(binary, [binary, "clean"])
    assert clean["errors"] == [] and clean["leaks"] == [] and clean["stdout"] == "clean heap use 14\n"


def test_sanitize_reports_nothing_on_the_debugger_programs():
    for name in ("basic", "syscalls"):
        binary = str(compile_c(name))
        rep = sanitize.sanitize(binary, [binary])
        assert rep["errors"] == [] and rep["leaks"] == [], (name, rep)


def test_cli_trace_json_and_text():
    binary = compile_c("hot")
    run = ncpu_debug("trace", "--function", "cold", "--json", "--", binary)
    assert run.returncode == 0, run.stderr
    recs = [json.loads(line) for line in run.stdout.decode().splitlines()]
    assert recs and all(r["where"].startswith("cold") for r in recs)
    add = next(r for r in recs if r["text"].startswith("add x0"))
    assert add["regs"] == {"x0": 2}                         # cold(1) returns n + 1
    assert any(r.get("mem", {}).get("access") == "w" for r in recs)   # the frame's stores
    text = ncpu_debug("trace", "--function", "cold", "--limit", "3", "--", binary)
    lines = text.stdout.decode().splitlines()
    assert len(lines) == 3 and re.match(r"\s*\d+ 0x[0-9a-f]+ cold\s", lines[0])


def test_cli_profile_and_a_bad_binary(tmp_path):
    binary = compile_c("hot")
    prof = ncpu_debug("profile", "--json", "--", binary)
    assert prof.returncode == 0 and json.loads(prof.stdout)["functions"][0]["function"] == "hot"
    missing = ncpu_debug("profile", "--", tmp_path / "nope")
    assert missing.returncode == 2 and b"no such file" in missing.stderr and b"Traceback" not in missing.stderr


@pytest.mark.slow
def test_cli_tools_report_and_exit_status(tmp_path):
    binary = compile_c("hot")
    info = tmp_path / "hot.info"
    cov = ncpu_debug("coverage", "-o", info, "--", binary)
    assert cov.returncode == 0 and "lines" in cov.stdout.decode() and "end_of_record" in info.read_text()
    secret = tmp_path / "s"
    secret.write_bytes(SECRET_KEY)
    cmp_binary = compile_c("secret_cmp")
    bad = ncpu_debug("ct", "--secret", secret, "--random", "2", "--", cmp_binary, "early")
    assert bad.returncode == 1 and b"NOT constant time" in bad.stdout and b"compare_early" in bad.stdout
    assert ncpu_debug("ct", "--random", "3", "--", cmp_binary).returncode == 0
    assert ncpu_debug("ct", "--", cmp_binary).stderr.decode().count("\n") == 1          # one-line error
    san = ncpu_debug("sanitize", "--", compile_c("heap_bugs", "-Wno-free-nonheap-object"), "use-after-free")
    assert san.returncode == 1 and b"heap-use-after-free read" in san.stderr
    fuzzed = ncpu_debug("fuzz", "--executions", "300", "--stop-on-crash", "--corpus", tmp_path / "corpus", "--",
                        compile_c("magic"))
    assert fuzzed.returncode == 1 and b"signal 11" in fuzzed.stdout and b"parse" in fuzzed.stdout
    assert list((tmp_path / "corpus" / "crashes").iterdir())
    flow = tmp_path / "flow.in"
    flow.write_bytes(FLOW_INPUT)
    rev = ncpu_debug("reverse", "--stdin", flow, "--at-pc", "exit", "--", compile_c("flow"))
    assert rev.returncode == 0 and b"input bytes: stdin[2] stdin[5]" in rev.stdout
    taint = ncpu_debug("taint", "--stdin", flow, "--json", "--", compile_c("flow"))
    assert json.loads(taint.stdout)["summary"]["branch"] >= 1
    diff = ncpu_debug("diff", "--stdin", flow, "--stdin", secret, "--", compile_c("flow"))
    assert diff.returncode == 0 and b"first control divergence" in diff.stdout


FLOW_INPUT = b"Q\x02ab\x00cXY"


def test_taint_finds_the_branch_the_table_index_and_the_write():
    from ncpu.debug import taint
    binary = str(compile_c("flow"))
    rep = taint.run(binary, [binary], stdin=FLOW_INPUT)
    assert rep["status"] == (((ord("a") * 3 + ord("c")) ^ 0x55) & 0x7F)
    branch_line = "flow.c:%d" % source_line("flow", "if (buf[0] == 'Q')")
    table_line = f"flow.c:{source_line('flow', 'sink = table[buf[1]]')}"
    branch = [s for s in rep["sinks"] if s["kind"] == "branch" and s["line"] and s["line"].endswith(branch_line)]
    assert branch and branch[0]["labels"] == ["stdin:0"]
    index = [s for s in rep["sinks"] if s["kind"] == "address" and s["line"] and s["line"].endswith(table_line)]
    assert index and index[0]["labels"] == ["stdin:1"]
    write = [s for s in rep["sinks"] if s["kind"] == "syscall" and s["detail"] == "write"]
    assert write and write[0]["labels"] == ["stdin:6", "stdin:7"]
    exit_call = [s for s in rep["sinks"] if s["kind"] == "syscall" and s["detail"] == "exit_group"]
    assert exit_call and exit_call[0]["labels"] == ["stdin:2", "stdin:5"]
    only_byte_1 = taint.run(binary, [binary], stdin=FLOW_INPUT, stdin_range=(1, 2))
    assert {label for s in only_byte_1["sinks"] for label in s["labels"]} == {"stdin:1"}


def test_reverse_traces_the_exit_status_to_its_input_bytes():
    from ncpu.debug import reverse
    binary = str(compile_c("flow"))
    program = Program.load(binary)
    rep = reverse.slice_back(binary, [binary], stdin=FLOW_INPUT, register="x0", at_pc=program.aliases["exit"])
    assert rep["inputs"] == ["stdin[2]", "stdin[5]"]
    wheres = [e["where"] for e in rep["chain"]]
    assert any(w.startswith("mix") for w in wheres) and any(w.startswith("main") for w in wheres)
    assert rep["chain"][-1]["instruction"].startswith("read(")


@pytest.mark.slow
def test_fuzz_in_parallel_gives_the_same_campaign():
    binary = str(compile_c("magic"))
    one = fuzz.fuzz(binary, [binary], seeds=[b"hello world!"], executions=40, seed=3, jobs=1)
    two = fuzz.fuzz(binary, [binary], seeds=[b"hello world!"], executions=40, seed=3, jobs=2)
    assert one.corpus == two.corpus and one.edges == two.edges and list(one.crashes) == list(two.crashes)


@pytest.mark.parametrize("case, stdin, kind, marker", [
    ("clean", b"abcdefgh", None, None),
    ("read-overflow", b"0123456789ab", "heap-buffer-overflow write", "read(0, p, 12)"),
    ("write-overflow", b"", "heap-buffer-overflow read", "write(1, p, 10)"),
    ("write-freed", b"", "heap-use-after-free read", "write(1, p, 4)"),
])
def test_sanitize_checks_what_system_calls_read_and_write(case, stdin, kind, marker):
    binary = str(compile_c("heap_syscalls", "-Wno-stringop-overflow", "-Wno-stringop-overread"))
    rep = sanitize.sanitize(binary, [binary, case], stdin=stdin)
    if kind is None:        # read(2) initialised the block: the loads of it are no uninitialised reads
        assert rep["errors"] == [] and rep["leaks"] == [] and rep["status"] == sum(stdin) & 0x7F
        return
    assert [(e["kind"], e["syscall"]) for e in rep["errors"]] == [(kind, marker[:marker.index("(")])]
    error = rep["errors"][0]
    assert error["caller"]["line"].endswith(f"heap_syscalls.c:{source_line('heap_syscalls', marker)}")
    assert error["block"]["size"] == 8


def test_trace_follows_children_only_when_asked():
    binary = compile_c("forkexec")
    alone = ncpu_debug("trace", "--function", "child_work", "--", binary)
    assert alone.returncode == 0 and alone.stdout == b""         # only the child runs child_work
    both = ncpu_debug("trace", "-f", "--function", "child_work", "--", binary)
    lines = both.stdout.decode().splitlines()
    assert lines and all(x.startswith("[pid 1001] ") and " child_work" in x for x in lines)
    assert "ret" in lines[-1]
    records = [json.loads(x) for x in ncpu_debug("trace", "-f", "--json", "--function", "main", "--",
                                                 binary).stdout.splitlines()]
    assert {r["tid"] for r in records} == {1000, 1001}
    # the exec'd image's main runs too (argc > 1 path): its records are named from its own image
    assert sum(r["where"] == "main" for r in records if r["tid"] == 1001) == 1    # the exec'd image starts


def test_taint_follows_bytes_into_and_out_of_system_calls():
    from ncpu.debug import taint
    binary = str(compile_c("taint_calls"))
    rep = taint.run(binary, [binary], stdin=b"abcWXYZ")
    calls = {s["detail"]: s["labels"] for s in rep["sinks"] if s["kind"] == "syscall"}
    assert calls["openat"] == ["stdin:0", "stdin:1", "stdin:2"]     # the path, read by the kernel
    assert calls["write"] == ["stdin:4", "stdin:5"]
    assert rep["status"] == 0
