"""`ncpu os train` and `ncpu os eval`: every trained part, its oracle, its figures.

Each part trains reproducibly from a seed on CPU (or the given device) and
is judged against its oracle; `evaluate` also runs the sample workload
under both policies to count the guard's overrides at run time. The
memory-hierarchy parts (TLB, data cache, prefetcher: `ncpu.os.memory_parts`)
train on traces of training programs and are judged on held-out ones.
"""

from __future__ import annotations

from pathlib import Path

import torch

from ncpu.os.nets import allocator, assembler, interrupts, mmu, scheduler, watchdog
from ncpu.os.neural import WEIGHTS, load_net

PARTS = ("interrupts", "mmu", "assembler", "tlb", "cache", "prefetch", "scheduler", "watchdog", "allocator")


def train_all(directory: Path = WEIGHTS, device=None, log=print, seed: int = 0) -> dict:
    """Train every part, keep it only if it passes its enumeration, save it."""
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    results = {}
    for name, module, steps in (("interrupts", interrupts, 3000), ("mmu", mmu, 600), ("assembler", assembler, 3000)):
        net = module.train(seed=seed, steps=steps, device=device, log=log)
        check = module.verify(net, device=device)
        results[name] = {k: v for k, v in check.items() if k != "parts"}
        if check["wrong"]:
            log(f"{name}: {check['wrong']} wrong answers in {check['cases']:,}: not saved")
            continue
        torch.save(net.state_dict(), directory / f"{name}.pt")
        log(f"{name}: exact on {check['cases']:,} enumerated cases; saved {name}.pt")
    results.update(train_optimizer(directory, seed, log))
    for name, fit in LEARNED.items():
        net, figures = fit(seed, log)
        torch.save(net.state_dict(), directory / f"{name}.pt")
        results[name] = {"wrong": 0, **figures}  # not exact parts: judged by their held-out figures
        log(f"{name}: held-out {figures}; saved {name}.pt")
    # last: the memory parts are judged inside NeuralPolicies, which loads every part's weights
    # (in a fresh directory the learned parts' did not exist yet: WeightsMissing)
    results.update(_memory_parts(directory, seed, log))
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


def _memory_parts(directory: Path, seed: int, log) -> dict:
    """TLB, cache and prefetcher: trained on training traces, judged on held-out ones (always saved)."""
    from ncpu.os import memory_parts

    memory_parts.train(directory, seed=seed, log=log)
    rows = memory_parts.judge(memory_parts.traces(held_out=True), directory)
    for row in rows:
        log(f"{row['part']}: {row['metric']}: classical {row['classical']:.4f}, "
            f"oracle {row['oracle']:.4f}, neural {row['neural']:.4f}")
    return dict(zip(memory_parts.PARTS, rows))


def train_optimizer(directory: Path, seed: int = 0, log=print) -> dict:
    """The compiler optimizer's network (needs cvc5 for its labels); judged on
    held-out programs, which must still print their expected output."""
    from ncpu.nsl.equivalence import solver_available

    if not solver_available():
        log("optimizer: needs the SMT solver cvc5 (pip install cvc5); not trained")
        return {}
    from ncpu.os import compiler_opt

    net = compiler_opt.train(seed=seed, log=log)
    figures = compiler_opt.evaluate(net, log=log)
    wrong = sum(not p["neural"]["correct"] for p in figures["programs"])
    if not wrong:
        torch.save(net.state_dict(), directory / "optimizer.pt")
        log(f"optimizer: held-out steps {figures['totals']['steps']:,} -> {figures['totals']['neural_steps']:,}; "
            f"saved optimizer.pt")
    return {"optimizer": {"cases": len(figures["programs"]), "wrong": wrong}}


def optimizer_row(directory: Path = WEIGHTS) -> dict | None:
    """The compiler optimizer's row: steps saved on held-out nsl programs."""
    from ncpu.nsl.equivalence import solver_available

    if not solver_available():
        return None
    from ncpu.os import compiler_opt

    figures = compiler_opt.evaluate(compiler_opt.load(Path(directory) / "optimizer.pt"))
    t = figures["totals"]
    saved = lambda who: 1 - t[f"{who}_steps"] / t["steps"]  # noqa: E731
    return {"part": "compiler optimizer", "metric": "steps saved on held-out nsl programs",
            "cases": len(figures["programs"]), "classical": saved("classical"), "oracle": saved("oracle"),
            "neural": saved("neural"), "run_decisions": t["neural_guard_calls"], "overrides": t["neural_overrides"]}


def evaluate(directory: Path = WEIGHTS, device=None, workload: list | None = None,
             sources: list[str] | None = None, log=lambda line: None) -> list[dict]:
    """One row per part: metric, classical, oracle, neural, run-time overrides
    (`sources`: the workload's texts, loaded through the neural assembler);
    `log` hears each stage as it starts (the whole takes about a CPU-minute)."""
    from ncpu.os.kernel import Kernel
    from ncpu.os.neural import NeuralPolicies

    rows = []
    log("enumerating the interrupt controller and the MMU")
    inter = interrupts.verify(load_net("interrupts", directory, device), device=device)
    table = mmu.verify(load_net("mmu", directory, device), device=device)
    overrides = {}
    if workload:
        log("running the sample workload under the neural policy")
        policies = NeuralPolicies(directory, device)
        for source in sources or ():
            policies.assemble(source)
        kernel = Kernel(workload, policies).run()
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
    log("enumerating the assembler")
    words = assembler.verify(load_net("assembler", directory))
    rows.append({"part": "assembler", "metric": "exact words on enumerated lines and part inputs",
                 "cases": words["cases"], "classical": 1.0, "oracle": 1.0,
                 "neural": 1 - words["wrong"] / words["cases"], "run_decisions": decisions.get("assemble", 0),
                 "overrides": overrides.get("assemble", 0)})
    from ncpu.os import memory_parts

    log("replaying held-out traces through the TLB, cache and prefetcher")
    rows.extend(memory_parts.judge(memory_parts.traces(held_out=True), directory))
    log("optimizing held-out nsl programs")
    optimizer = optimizer_row(directory)
    if optimizer is not None:
        rows.append(optimizer)
    for part_row in LEARNED_ROWS:
        log(f"judging the {part_row.__name__.removesuffix('_row')} on held-out workloads")
        rows.append(part_row(directory, decisions, overrides))
    return rows
