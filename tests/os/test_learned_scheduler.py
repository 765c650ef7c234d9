"""The learned scheduler: the simulator it trains on schedules exactly as the
kernel does; with the shipped weights it beats round robin on mean turnaround
on held-out mixes (programs it never saw); results do not depend on it."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from ncpu.os.jobs import all_jobs, held_out
from ncpu.os.kernel import Kernel
from ncpu.os.nets import scheduler
from ncpu.os.neural import NeuralPolicies, load_net
from ncpu.os.policies import ClassicalPolicies


@pytest.fixture(scope="module")
def held_jobs():
    jobs = [job for job in all_jobs() if held_out(job.program)]
    traced = [(job, scheduler.solo_trace(job.image)) for job in jobs]
    return [(job, points) for job, points in traced if points is not None]


def test_the_split_is_by_program():
    programs = {job.program for job in all_jobs()}
    held = {p for p in programs if held_out(p)}
    assert 10 < len(held) < len(programs) - 20


def test_simulator_schedules_as_the_kernel_does(held_jobs):
    rng = random.Random(5)
    short = [(job, points) for job, points in held_jobs if len(points) <= 40]  # the kernel's ticks cost ms
    for trial in range(2):
        picked = rng.sample(short, 6)
        arrivals = sorted(rng.randint(0, 30) for _ in picked)
        images = [replace(job.image, arrival=a) for (job, _), a in zip(picked, arrivals)]
        sims = [scheduler.Job(scheduler.static_features(job.image), points, a)
                for (job, points), a in zip(picked, arrivals)]
        for policies, name in ((ClassicalPolicies(), "rr"), (NeuralPolicies(), "neural")):
            kernel = Kernel(images, policies).run()
            turnaround = [p["turnaround_ticks"] for p in kernel.report()["processes"]]
            simulated = scheduler.simulate(sims, name, load_net("scheduler").cpu())
            assert turnaround == simulated["turnaround"], (trial, name)
            assert policies.overrides.get("schedule", 0) == simulated["overrides"]


def test_shipped_scheduler_beats_round_robin_on_held_out_mixes(held_jobs):
    pool = [scheduler.Job(scheduler.static_features(job.image), points) for job, points in held_jobs]
    figures = scheduler.evaluate(load_net("scheduler").cpu(), pool, count=120, seed=11)
    rr, srpt, neural = figures["rr"], figures["srpt"], figures["neural"]
    assert srpt["mean_turnaround"] <= neural["mean_turnaround"] < rr["mean_turnaround"]


def test_results_do_not_depend_on_the_scheduler(held_jobs):
    images = [replace(job.image, arrival=3 * i) for i, (job, _) in enumerate(held_jobs[:8])]
    outcome = {}
    for policies in (ClassicalPolicies(), NeuralPolicies()):
        report = Kernel(images, policies).run().report()
        outcome[policies.name] = [(p["program"], p["exit_status"], p["stdout"], p["steps"])
                                  for p in report["processes"]]
    assert outcome["classical"] == outcome["neural"]


def test_starvation_guard_counts_an_override():
    class Always:  # a network that always wants the first process
        def predict(self, rows):
            return [0.0] + [1.0] * (len(rows) - 1)

    rows = [[0.0] * scheduler.FEATURES] * 3
    assert scheduler.choose(Always(), rows, [0, scheduler.STARVE + 5, 2]) == (1, True)
    assert scheduler.choose(Always(), rows, [0, 1, 2]) == (0, False)
