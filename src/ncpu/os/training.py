"""`ncpu os train` and `ncpu os eval`: every trained part, its oracle, its figures.

Each part trains reproducibly from a seed on CPU (or the given device) and
is judged against its oracle; `evaluate` also runs the sample workload
under both policies to count the guard's overrides at run time.
"""

from __future__ import annotations

from pathlib import Path

import torch

from ncpu.os.nets import allocator, interrupts, mmu, scheduler, watchdog
from ncpu.os.neural import WEIGHTS, load_net

PARTS = ("interrupts", "mmu", "scheduler", "watchdog", "allocator")


def train_all(directory: Path = WEIGHTS, device=None, log=print, seed: int = 0) -> dict:
    """Train every part, keep it only if it passes its enumeration, save it."""
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    results = {}
    for name, module, steps in (("interrupts", interrupts, 3000), ("mmu", mmu, 600)):
        net = module.train(seed=seed, steps=steps, device=device, log=log)
        check = module.verify(net, device=device)
        results[name] = check
        if check["wrong"]:
            log(f"{name}: {check['wrong']} wrong answers in {check['cases']:,}: not saved")
            continue
        torch.save(net.state_dict(), directory / f"{name}.pt")
        log(f"{name}: exact on {check['cases']:,} enumerated cases; saved {name}.pt")
    for name, fit in LEARNED.items():
        net, figures = fit(seed, log)
        torch.save(net.state_dict(), directory / f"{name}.pt")
        results[name] = {"wrong": 0, **figures}  # not exact parts: judged by their held-out figures
        log(f"{name}: held-out {figures}; saved {name}.pt")
    return results


# -- learned parts: not exact, judged on held-out workloads against classical and oracle --

def fit_scheduler(seed: int, log) -> tuple[torch.nn.Module, dict]:
    train, held = scheduler.pools()
    net = scheduler.train(train, seed=seed, log=log)
    return net, scheduler.evaluate(net, held, count=100)


def scheduler_row(directory: Path, decisions: dict, overrides: dict) -> dict:
    _, held = scheduler.pools()
    net = load_net("scheduler", directory).cpu()
    figures = scheduler.evaluate(net, held)
    rr, srpt, neural = (figures[p] for p in ("rr", "srpt", "neural"))
    return {"part": "scheduler", "metric": "mean turnaround ticks, held-out mixes",
            "cases": 300, "classical": rr["mean_turnaround"], "oracle": srpt["mean_turnaround"],
            "neural": neural["mean_turnaround"], "run_decisions": decisions.get("schedule", 0),
            "overrides": overrides.get("schedule", 0), "details": figures}


def fit_watchdog(seed: int, log) -> tuple[torch.nn.Module, dict]:
    train, held = watchdog.split()
    net = watchdog.train(train, seed=seed, log=log)
    return net, watchdog.judge(net, held)


def watchdog_row(directory: Path, decisions: dict, overrides: dict) -> dict:
    _, held = watchdog.split()
    figures = {"neural": watchdog.judge(load_net("watchdog", directory).cpu(), held),
               "budget": watchdog.baseline(held)}
    return {"part": "watchdog", "metric": "AUROC endless vs ending, held-out programs",
            "cases": figures["neural"]["programs"], "classical": figures["budget"]["auroc"], "oracle": 1.0,
            "neural": figures["neural"]["auroc"], "run_decisions": decisions.get("watchdog", 0),
            "overrides": overrides.get("watchdog", 0), "details": figures}


def fit_allocator(seed: int, log) -> tuple[torch.nn.Module, dict]:
    net = allocator.train(seed=seed, log=log)
    return net, allocator.evaluate(net, count=10)


def allocator_row(directory: Path, decisions: dict, overrides: dict) -> dict:
    figures = allocator.evaluate(load_net("allocator", directory).cpu())
    return {"part": "block allocator", "metric": "failed allocations per held-out trace",
            "cases": figures["neural"]["allocations"], "classical": figures["first_fit"]["failures"],
            "oracle": figures["oracle"]["failures"], "neural": figures["neural"]["failures"],
            "run_decisions": decisions.get("heap", 0), "overrides": overrides.get("heap", 0), "details": figures}


LEARNED = {"scheduler": fit_scheduler, "watchdog": fit_watchdog, "allocator": fit_allocator}
LEARNED_ROWS = (scheduler_row, watchdog_row, allocator_row)


def evaluate(directory: Path = WEIGHTS, device=None, workload: list | None = None) -> list[dict]:
    """One row per part: metric, classical, oracle, neural, run-time overrides."""
    from ncpu.os.kernel import Kernel
    from ncpu.os.neural import NeuralPolicies

    rows = []
    inter = interrupts.verify(load_net("interrupts", directory, device), device=device)
    table = mmu.verify(load_net("mmu", directory, device), device=device)
    overrides = {}
    if workload:
        kernel = Kernel(workload, NeuralPolicies(directory, device)).run()
        overrides = dict(kernel.policies.overrides)
        decisions = dict(kernel.policies.decisions)
    else:
        decisions = {}
    for name, check, metric in (("interrupt controller", inter, "exact on every pending/mask pair"),
                                ("MMU", table, "exact on every virtual page of random tables")):
        key = "interrupt" if name.startswith("interrupt") else "mmu"
        rows.append({
            "part": name, "metric": metric, "cases": check["cases"],
            "classical": 1.0, "oracle": 1.0, "neural": 1 - check["wrong"] / check["cases"],
            "run_decisions": decisions.get(key, 0), "overrides": overrides.get(key, 0),
        })
    rows.extend(row(directory, decisions, overrides) for row in LEARNED_ROWS)
    return rows
