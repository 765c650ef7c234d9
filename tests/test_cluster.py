"""`ncpu.cluster` and the sharded jobs, on a local Ray cluster of 2 workers.

Every job run sharded on Ray must give exactly what it gives unsharded in
one process; a worker killed mid-job and an interrupted job must not change
the result. One small Ray session serves the whole module and is shut down
after it."""

from __future__ import annotations

import hashlib
import json
import os
import random
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from ncpu.cli import main
from ncpu.cluster import ClusterError, ClusterSpec, Job, run_job

ray = pytest.importorskip("ray", reason="ray is in the test extra (ncpu[cluster])")

ROOT = Path(__file__).resolve().parents[1]
TWO = ClusterSpec(workers=2)

# Workers cannot import this test module by name: ship its functions by value.
ray.cloudpickle.register_pickle_by_value(sys.modules[__name__])


@pytest.fixture(scope="module", autouse=True)
def local_ray():
    ray.init(num_cpus=2, include_dashboard=False, object_store_memory=80 * 1024 * 1024,
             log_to_driver=False, configure_logging=False)
    yield
    ray.shutdown()


# -- a toy job whose every shard leaves a trace --------------------------------

def digest(payload) -> str:
    return hashlib.sha256(repr(payload).encode()).hexdigest()[:12]


def traced(context, payload: dict) -> str:
    """Record (shard, pid) in the trace directory; on the shard named `stall`,
    write the pid and wait to be killed, the first time only."""
    trace = Path(payload["trace"])
    with open(trace / "runs.txt", "a") as runs:
        runs.write(f"{payload['i']} {os.getpid()}\n")
    if payload["i"] == payload.get("stall") and not (trace / "stalled.pid").exists():
        (trace / "stalled.pid.partial").write_text(str(os.getpid()))
        os.replace(trace / "stalled.pid.partial", trace / "stalled.pid")
        time.sleep(60)  # killed long before this ends
    time.sleep(payload.get("sleep", 0))
    return digest(payload)


def toy_job(trace: Path, count: int = 8, **extra) -> Job:
    return Job("toy", [{"i": i, "trace": str(trace), **extra} for i in range(count)], traced)


def runs(trace: Path) -> list[tuple[int, int]]:
    path = trace / "runs.txt"
    lines = path.read_text().split("\n") if path.exists() else []
    return [tuple(int(x) for x in line.split()) for line in lines if line]


def test_results_come_back_in_shard_order_from_two_workers(tmp_path):
    job = toy_job(tmp_path, sleep=0.05)
    assert run_job(job, TWO) == [digest(s) for s in job.shards]
    pids = {pid for _, pid in runs(tmp_path)}
    assert len(pids) == 2 and os.getpid() not in pids  # two worker processes, not this one


def test_a_killed_worker_gives_the_same_result(tmp_path):
    job = toy_job(tmp_path, stall=3)

    def kill_the_stalled_worker() -> None:
        pid_file = tmp_path / "stalled.pid"
        for _ in range(600):
            if pid_file.exists():
                os.kill(int(pid_file.read_text()), signal.SIGKILL)
                return
            time.sleep(0.05)
    killer = threading.Thread(target=kill_the_stalled_worker)
    killer.start()
    results = run_job(job, TWO)
    killer.join()
    assert results == [digest(s) for s in job.shards]
    attempts = [pid for i, pid in runs(tmp_path) if i == 3]
    assert len(attempts) == 2 and attempts[0] == int((tmp_path / "stalled.pid").read_text()) != attempts[1]


def test_a_shard_whose_worker_keeps_dying_is_an_error(tmp_path):
    def die(context, payload):
        os.kill(os.getpid(), signal.SIGKILL)
    with pytest.raises(ClusterError, match="shard 0 lost its worker 2 times"):
        run_job(Job("doomed", [0], die), ClusterSpec(workers=2, retries=1))


def test_a_shards_own_exception_is_raised_as_itself():
    def fail(context, payload):
        raise KeyError(payload)
    with pytest.raises(KeyError) as raised:
        run_job(Job("failing", ["x"], fail), TWO)
    assert str(raised.value) == "'x'"  # the shard's message, not a remote traceback


class Interrupt(Exception):
    pass


@pytest.mark.parametrize("spec", [ClusterSpec(), TWO], ids=["in-process", "ray"])
def test_an_interrupted_job_resumes_without_redoing_finished_shards(tmp_path, spec):
    trace, checkpoint = tmp_path / "trace", tmp_path / "checkpoint"
    trace.mkdir()
    job = toy_job(trace, count=10, sleep=0.05)
    done = []

    def interrupt_after_three(index: int) -> None:
        done.append(index)
        if len(done) == 3:
            raise Interrupt  # as a Ctrl-C would, in the middle of the job

    with pytest.raises(Interrupt):
        run_job(job, spec, checkpoint, interrupt_after_three)
    kept = {int(p.stem.split("-")[1]) for p in checkpoint.glob("shard-*.pkl")}
    assert len(kept) >= 3 and len(kept) < 10
    first_runs = len(runs(trace))
    resumed = []
    assert run_job(job, spec, checkpoint, resumed.append) == [digest(s) for s in job.shards]
    redone = {i for i, _ in runs(trace)[first_runs:]}
    assert redone == set(range(10)) - kept
    assert sorted(resumed) == list(range(10))  # progress counts the loaded shards too
    again = len(runs(trace))
    assert run_job(job, spec, checkpoint) == [digest(s) for s in job.shards] and len(runs(trace)) == again


def test_a_checkpoint_of_another_job_is_refused(tmp_path):
    run_job(toy_job(tmp_path, count=2), checkpoint=tmp_path / "c")
    with pytest.raises(ClusterError, match="belongs to another job"):
        run_job(toy_job(tmp_path, count=3), checkpoint=tmp_path / "c")


def test_a_gpu_request_without_gpus_is_an_error_not_a_hang(tmp_path):
    # This machine has no GPU: the request path is checked up to Ray's
    # resources; running shards on CUDA is not.
    assert ray.cluster_resources().get("GPU", 0) == 0
    with pytest.raises(ClusterError, match="each shard asks for 1 GPU but the Ray cluster has 0"):
        run_job(toy_job(tmp_path, count=2), ClusterSpec(workers=2, gpus_per_shard=1))


def test_without_ray_a_local_job_runs_in_this_process(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` now fails
    job = toy_job(tmp_path, count=4)
    assert run_job(job, TWO) == [digest(s) for s in job.shards]
    assert {pid for _, pid in runs(tmp_path)} == {os.getpid()}
    with pytest.raises(ClusterError, match=r"needs ray: pip install 'ncpu\[cluster\]'"):
        run_job(job, ClusterSpec(address="auto"))


# -- the jobs: sharded == unsharded ----------------------------------------------

def test_exhaustive_check_sharded_on_ray_equals_the_unsharded_check():
    from ncpu.alu.dense import DenseALU
    from ncpu.alu.verify import exhaustive_checks, exhaustive_job, exhaustive_shards, merge_exhaustive
    from ncpu.alu.weights import build_alu

    ops = ("ADD", "DIV", "CMP", "NOT")
    shards = exhaustive_shards(8, ops, shard_inputs=1 << 13)
    assert len(shards) == 3 * 8 + 1  # NOT over its 256 values: one shard
    merged = merge_exhaustive(shards, run_job(exhaustive_job(shards), TWO))
    whole = list(exhaustive_checks(DenseALU(build_alu(8)), ops=ops, unary_values_only=True))
    fields = lambda c: (c.name, c.width, c.kind, c.inputs, c.failures, c.example)  # noqa: E731
    assert [fields(c) for c in merged] == [fields(c) for c in whole]


def test_merge_keeps_the_first_failure_of_the_enumeration():
    from ncpu.alu.verify import exhaustive_shards, merge_exhaustive

    shards = exhaustive_shards(8, ("ADD", "SUB"), shard_inputs=1 << 14)  # 4 shards per op
    results = [(0, [], 1.0), (2, [5, 7], 1.0), (1, [9, 9], 1.0), (0, [], 1.0),
               (0, [], 1.0), (0, [], 1.0), (0, [], 1.0), (3, [-1, 2], 1.0)]
    add, sub = merge_exhaustive(shards, results)
    assert (add.name, add.inputs, add.failures, add.example, add.seconds) == ("ADD (dense)", 1 << 16, 3, [5, 7], 4.0)
    assert (sub.failures, sub.example, sub.ok, add.ok) == (3, [-1, 2], False, False)


@pytest.mark.slow
def test_verify_exhaustive16_report_is_the_same_on_two_workers(capsys):
    """The CLI path, on the ops whose 16-bit enumeration takes seconds (the
    rest of `ncpu verify`, run twice, makes it slow)."""
    reports = []
    for workers in ("1", "2"):
        argv = ["verify", "--exhaustive16", "--ops", "NOT,ZN", "--samples", "1000", "--json", "--workers", workers]
        assert main(argv) == 0
        reports.append(json.loads(capsys.readouterr().out))
    strip = lambda r: [{k: v for k, v in c.items() if k != "seconds"} for c in r["checks"]]  # noqa: E731
    assert strip(reports[0]) == strip(reports[1])
    assert [c["inputs"] for c in reports[1]["checks"] if c["width"] == 16 and c["kind"] == "exhaustive"] == [1 << 16] * 2


def test_bench_synth_rows_are_the_same_on_two_workers(tmp_path, capsys):
    rows = []
    for workers in ("1", "2"):
        report = tmp_path / f"synth{workers}.json"
        argv = ["bench", "synth", "--solvers", "enumerative", "--problem", "add", "--problem", "mul",
                "--problem", "sub", "--timeout", "20", "--no-cvc5", "--report", str(report), "--workers", workers]
        assert main(argv) == 0
        rows.append([{k: r.get(k) for k in ("name", "family", "solved", "solver", "asm", "generalisation")}
                     for r in json.loads(report.read_text())["problems"]])
    capsys.readouterr()
    assert rows[0] == rows[1] and [r["name"] for r in rows[0]] == ["add", "sub", "mul"]
    assert all(r["solved"] for r in rows[0])


def test_run_batch_on_two_workers_equals_one_run_per_state(tmp_path, capsys):
    """A sweep of gcd inputs, in shards of 3 machines: each output line is
    what `ncpu run --json` prints for that state alone."""
    rng = random.Random(17)
    lines = [{"R0": rng.randrange(1, 10_000), "R1": rng.randrange(1, 10_000)} for _ in range(10)]
    lines[4]["mem"] = {"0x10": [1, -2, 3]}
    states = tmp_path / "states.jsonl"
    states.write_text("\n".join(json.dumps(line) for line in lines) + "\n")
    program = str(ROOT / "programs" / "gcd.asm")
    assert main(["run", program, "--mode", "fast", "--batch", str(states), "--batch-size", "3", "--workers", "2"]) == 0
    batched = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    singles = []
    for line in lines:
        assert main(["run", program, "--mode", "fast", "--json", "--reg", f"R0={line['R0']}",
                     "--reg", f"R1={line['R1']}"]) == 0
        single = json.loads(capsys.readouterr().out)
        del single["startup_seconds"], single["run_seconds"]     # timings of that process, not results
        singles.append(single)
    assert batched == singles


# -- the command line's cluster errors --------------------------------------------

def test_a_bad_cluster_address_is_a_one_line_error(tmp_path):
    with socket.socket() as probe:  # a port that nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    states = tmp_path / "states.jsonl"
    states.write_text('{"R0": 1}\n')
    program = str(ROOT / "programs" / "gcd.asm")
    for address, message in ((f"ray://127.0.0.1:{port}", f"cannot reach a Ray cluster at ray://127.0.0.1:{port}: "),
                             ("head-node:6379", "expected local, auto or ray://HOST:PORT")):
        done = subprocess.run([sys.executable, "-m", "ncpu", "run", program, "--batch", str(states),
                               "--cluster", address], capture_output=True, text=True, timeout=120,
                              env=os.environ | {"PYTHONPATH": str(ROOT / "src")})
        assert done.returncode == 2 and done.stdout == ""
        assert done.stderr.count("\n") == 1 and done.stderr.startswith("ncpu: error: ") and message in done.stderr


def test_cluster_options_without_batch_are_a_one_line_error(capsys):
    assert main(["run", str(ROOT / "programs" / "gcd.asm"), "--workers", "2"]) == 2
    assert capsys.readouterr().err == ("ncpu: error: --workers, --cluster and --checkpoint shard a --batch run; "
                                       "give --batch STATES.jsonl\n")
