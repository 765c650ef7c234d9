"""The options every sharded command shares: --workers, --cluster, --checkpoint.

A command adds them with `add_cluster_arguments(parser)` and runs its job
through `shard_runner(args)`, which turns cluster failures into one-line
errors. See docs/cluster.md."""

from __future__ import annotations

import argparse
import sys
from typing import Callable

from ncpu.cli import CommandError


def add_cluster_arguments(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("cluster (see docs/cluster.md)")
    group.add_argument("--workers", type=_count, default=None, metavar="N",
                       help="run the job's shards on N workers: a local Ray cluster of N CPUs unless "
                            "--cluster names another (default: 1, this process and no Ray; with "
                            "--cluster auto or ray://..., one per CPU of that cluster)")
    group.add_argument("--cluster", default="local", metavar="ADDRESS",
                       help="local (default), auto (the cluster `ray start --head` runs on this machine) "
                            "or ray://HOST:PORT (a remote head's Ray client port)")
    group.add_argument("--checkpoint", metavar="DIR",
                       help="keep finished shards in DIR; running the same job again resumes there")


def _count(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got '{text}'") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected a whole number >= 0, got '{text}'")
    return value


def cluster_spec(args: argparse.Namespace, gpus_per_shard: float = 0.0):
    """The ClusterSpec the options name; a one-line note on stderr when Ray
    was asked for but is not installed (the job then runs in one process)."""
    from ncpu.cluster import ClusterError, ClusterSpec, check_reachable, ray_available

    workers = args.workers if args.workers is not None else (1 if args.cluster == "local" else 0)
    try:
        spec = ClusterSpec(workers=workers, address=args.cluster, gpus_per_shard=gpus_per_shard)
    except ValueError as error:
        raise CommandError(f"--cluster/--workers: {error}") from None
    if spec.uses_ray and spec.address == "local" and not ray_available():
        print("ncpu: note: ray is not installed, running in one process (pip install 'ncpu[cluster]')",
              file=sys.stderr)
    try:
        check_reachable(spec)  # before any work, not after the job's first hour
    except ClusterError as error:
        raise CommandError(str(error)) from None
    return spec


def shard_runner(args: argparse.Namespace, gpus_per_shard: float = 0.0) -> Callable[..., list]:
    """run(job, progress=None) -> results in shard order, on the cluster the
    options name, with their checkpoint directory."""
    from ncpu.cluster import ClusterError, run_job

    spec = cluster_spec(args, gpus_per_shard)

    def run(job, progress=None) -> list:
        try:
            return run_job(job, spec, args.checkpoint, progress)
        except ClusterError as error:
            raise CommandError(str(error)) from None
    return run
