"""Sharding heavy jobs: one process by default, a Ray cluster when asked.

A `Job` is a list of deterministic shards (picklable payloads, in merge
order) and a module-level function `run(context, payload) -> result`.
`run_job` returns the results in shard order, whatever ran where and in
which order it finished, so a job's merge is the same for 1 or 100 workers:

    job = Job("squares", shards=list(range(100)), run=square)
    results = run_job(job, ClusterSpec(workers=2), checkpoint="ckpt/")

Where shards run (`ClusterSpec`):
  workers=1, address="local"   in this process, no Ray needed (the default)
  workers=N, address="local"   a local Ray cluster of N CPUs, started here
  address="auto"               the running cluster (`ray start --head`)
  address="ray://HOST:PORT"    a remote cluster through the Ray client

On Ray, each worker is an actor that holds the job's `context` (made once
per worker by `job.context()`: loaded weights, a solver portfolio, compiled
numba functions) and runs one shard at a time. An actor whose process dies
is replaced and its shard resubmitted, up to `retries` times per shard; an
exception raised by `run` itself is the job's error and is re-raised here.

A checkpoint directory holds `job.json` (what job it belongs to) and one
pickle per finished shard, written as each shard finishes; running the same
job with the same directory again loads those and runs only the rest.
"""

from __future__ import annotations

import hashlib
import json
import os
import pickle
import re
import socket
from collections import deque
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Sequence

LOCAL_OBJECT_STORE_BYTES = 128 * 1024 * 1024  # results are small; Ray's default is 30% of RAM
_ADDRESS = re.compile(r"local|auto|ray://[^\s:/]+:\d+")


class ClusterError(Exception):
    """The cluster could not run the job (unreachable, missing resources, shard lost)."""


@dataclass
class Job:
    """Deterministic shards and the function that runs one.

    name: part of the checkpoint's identity. shards: payloads that pickle the
    same way every time (tuples, dicts, numbers, strings, dataclasses, numpy
    arrays; no sets), in merge order: their pickle is the checkpoint's key.
    run(context, payload) -> result: a module-level function (workers import
    it by name). context: optional factory of per-worker state; if the state
    is a context manager, it is entered once and exited when the job ends.
    """

    name: str
    shards: Sequence[Any]
    run: Callable[[Any, Any], Any]
    context: Callable[[], Any] | None = None

    def fingerprint(self) -> str:
        identity = (self.name, getattr(self.run, "__module__", ""), getattr(self.run, "__qualname__", ""),
                    list(self.shards))
        return hashlib.sha256(pickle.dumps(identity, protocol=4)).hexdigest()


@dataclass(frozen=True)
class ClusterSpec:
    """Where a job's shards run. workers: actors (for `auto`/`ray://`, 0 means
    one per CPU of the cluster). gpus_per_shard: Ray's `num_gpus` of each
    actor, so that its shards run the torch paths on CUDA."""

    workers: int = 1
    address: str = "local"
    gpus_per_shard: float = 0.0
    retries: int = 3

    def __post_init__(self) -> None:
        if not _ADDRESS.fullmatch(self.address):
            raise ValueError(f"cluster address {self.address!r}: expected local, auto or ray://HOST:PORT")
        if self.workers < 0 or (self.address == "local" and self.workers < 1):
            raise ValueError(f"workers must be at least 1, got {self.workers}")
        if self.gpus_per_shard < 0 or self.retries < 0:
            raise ValueError("gpus_per_shard and retries must be >= 0")

    @property
    def uses_ray(self) -> bool:
        return self.address != "local" or self.workers > 1

    @property
    def shard_gpus(self) -> float:
        """GPUs each Ray worker asks for (none in one process: torch uses what it sees)."""
        return self.gpus_per_shard if self.uses_ray else 0.0


def ray_available() -> bool:
    try:
        import ray  # noqa: F401
    except ImportError:
        return False
    return True


def run_job(job: Job, spec: ClusterSpec = ClusterSpec(), checkpoint: str | Path | None = None,
            progress: Callable[[int], None] | None = None) -> list:
    """Every shard's result, in shard order. `progress(i)` is called once per
    finished shard i (also for shards loaded from the checkpoint).

    Without Ray installed, a local job runs in this process whatever
    `workers` says; `auto` and `ray://` then raise ClusterError."""
    store = Checkpoint(checkpoint, job) if checkpoint is not None else None
    missing = object()
    results: list = [missing] * len(job.shards)
    for index, result in (store.load() if store else {}).items():
        results[index] = result
        if progress:
            progress(index)

    def finished(index: int, result: Any) -> None:
        results[index] = result
        if store:
            store.save(index, result)
        if progress:
            progress(index)

    pending = [i for i, r in enumerate(results) if r is missing]
    if pending:
        if spec.uses_ray and (ray_available() or spec.address != "local"):
            _run_on_ray(job, pending, spec, finished)
        else:
            _run_in_process(job, pending, finished)
    return results


# -- in this process ------------------------------------------------------------

def _run_in_process(job: Job, pending: list[int], finished: Callable[[int, Any], None]) -> None:
    worker = _ShardWorker(job.run, job.context)
    try:
        for index in pending:
            finished(index, worker.run(index, job.shards[index]))
    finally:
        worker.close()


class _ShardWorker:
    """One worker: the job's context, made on first use, and its shards run
    one by one. On Ray it is the body of an actor."""

    def __init__(self, run: Callable[[Any, Any], Any], context: Callable[[], Any] | None):
        self._run, self._factory = run, context
        self._context, self._made = None, False

    def run(self, index: int, payload: Any) -> Any:
        if not self._made:
            self._context = self._factory() if self._factory else None
            if hasattr(self._context, "__enter__"):
                self._context = self._context.__enter__()
            self._made = True
        return self._run(self._context, payload)

    def close(self) -> None:
        if self._made and hasattr(self._context, "__exit__"):
            self._context.__exit__(None, None, None)
        self._made = False


# -- on Ray ---------------------------------------------------------------------

def connect(spec: ClusterSpec) -> bool:
    """Join or start the cluster `spec` names; True when this call started
    the Ray session (so the caller should shut it down). An already running
    session (a test's, or an application's) is used as it is."""
    try:
        import ray
    except ImportError:
        raise ClusterError(f"--cluster {spec.address} needs ray: pip install 'ncpu[cluster]'") from None
    if ray.is_initialized():
        return False
    check_reachable(spec)
    options = dict(include_dashboard=False, log_to_driver=False, configure_logging=False)
    try:
        if spec.address == "local":
            ray.init(num_cpus=spec.workers, object_store_memory=LOCAL_OBJECT_STORE_BYTES, **options)
        else:
            ray.init(address=spec.address, **options)
    except Exception as error:  # Ray raises ConnectionError, RuntimeError, ValueError... by cause
        raise ClusterError(f"cannot reach a Ray cluster at {spec.address}: {_first_line(error)}") from None
    return True


def check_reachable(spec: ClusterSpec) -> None:
    """For ray://HOST:PORT, fail in seconds when nothing answers there (the
    Ray client itself retries for 30 s); a CLI calls it before any work."""
    if not spec.address.startswith("ray://"):
        return
    host, port = spec.address.removeprefix("ray://").rsplit(":", 1)
    try:
        socket.create_connection((host, int(port)), timeout=5).close()
    except OSError as error:
        reason = error.strerror or str(error) or type(error).__name__
        raise ClusterError(f"cannot reach a Ray cluster at {spec.address}: {reason}") from None


def _run_on_ray(job: Job, pending: list[int], spec: ClusterSpec,
                finished: Callable[[int, Any], None]) -> None:
    started = connect(spec)
    import ray
    from ray.exceptions import ActorUnavailableError, RayActorError, RayTaskError, WorkerCrashedError

    try:
        resources = ray.cluster_resources()
        if spec.shard_gpus and resources.get("GPU", 0) < spec.shard_gpus:
            # Ray would wait forever for a GPU that no node has.
            raise ClusterError(f"each shard asks for {spec.shard_gpus:g} GPU but the Ray cluster has "
                               f"{resources.get('GPU', 0):g}; run without a GPU device or add GPU nodes")
        workers = spec.workers or max(1, int(resources.get("CPU", 1)))
        actor_class = ray.remote(_ShardWorker).options(num_cpus=1, num_gpus=spec.shard_gpus or None)
        queue = deque(pending)
        attempts: dict[int, int] = {}
        actors: list = []
        running: dict = {}  # ObjectRef -> (actor slot, shard index)

        def submit(slot: int) -> None:
            index = queue.popleft()
            running[actors[slot].run.remote(index, job.shards[index])] = (slot, index)

        try:
            for slot in range(min(workers, len(queue))):
                actors.append(actor_class.remote(job.run, job.context))
                submit(slot)
            while running:
                [ref], _ = ray.wait(list(running), num_returns=1)
                slot, index = running.pop(ref)
                try:
                    result = ray.get(ref)
                except RayTaskError as error:  # the shard's own exception: the job's error, as itself
                    cause = error.cause if isinstance(error.cause, Exception) else error.as_instanceof_cause()
                    raise cause from None
                except (RayActorError, ActorUnavailableError, WorkerCrashedError) as error:
                    if getattr(error, "actor_init_failed", False):  # would fail the same way again
                        raise ClusterError(f"{job.name}: a worker could not load the job (the same ncpu "
                                           f"on every node?): {_first_line(error)}") from None
                    attempts[index] = attempts.get(index, 0) + 1
                    if attempts[index] > spec.retries:
                        raise ClusterError(f"{job.name}: shard {index} lost its worker {attempts[index]} times; "
                                           f"last: {_first_line(error)}") from None
                    ray.kill(actors[slot])
                    actors[slot] = actor_class.remote(job.run, job.context)
                    queue.appendleft(index)
                else:
                    finished(index, result)
                if queue:
                    submit(slot)
        finally:
            for ref in running:  # an interrupted job: what is in flight is dropped
                ray.cancel(ref)
            _close(ray, actors)
    finally:
        if started:
            ray.shutdown()


def _first_line(error: Exception) -> str:
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__


def _close(ray, actors: list) -> None:
    """Let each actor exit its context (a portfolio's solver processes), then
    end it; an actor that does not answer in time is killed all the same."""
    closing = [actor.close.remote() for actor in actors]
    if closing:
        ray.wait(closing, num_returns=len(closing), timeout=10)
    for actor in actors:
        ray.kill(actor)


# -- checkpoints ----------------------------------------------------------------

class Checkpoint:
    """A directory of finished shards of one job: `job.json` and
    `shard-NNNNNN.pkl`, each written whole (to a temporary name, then renamed)."""

    def __init__(self, directory: str | Path, job: Job):
        self.directory, self.job = Path(directory), job
        self.fingerprint = job.fingerprint()
        manifest = self.directory / "job.json"
        if manifest.exists():
            try:
                found = json.loads(manifest.read_text())
            except (OSError, ValueError) as error:
                raise ClusterError(f"checkpoint {manifest}: unreadable ({error})") from None
            if found.get("fingerprint") != self.fingerprint:
                raise ClusterError(f"checkpoint {self.directory} belongs to another job "
                                   f"({found.get('job')!r}, other shards); use a new directory")
        else:
            self.directory.mkdir(parents=True, exist_ok=True)
            _write_atomically(manifest, json.dumps({"job": job.name, "shards": len(job.shards),
                                                    "fingerprint": self.fingerprint}, indent=1).encode())

    def path(self, index: int) -> Path:
        return self.directory / f"shard-{index:06d}.pkl"

    def load(self) -> dict[int, Any]:
        done = {}
        for index in range(len(self.job.shards)):
            path = self.path(index)
            if path.exists():
                done[index] = pickle.loads(path.read_bytes())
        return done

    def save(self, index: int, result: Any) -> None:
        _write_atomically(self.path(index), pickle.dumps(result))


def _write_atomically(path: Path, data: bytes) -> None:
    partial = path.with_name(path.name + ".partial")
    partial.write_bytes(data)
    os.replace(partial, path)
