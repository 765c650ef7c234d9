"""`ncpu os train` and `ncpu os eval`: every trained part, its oracle, its figures.

Each part trains reproducibly from a seed on CPU (or the given device) and
is judged against its oracle; `evaluate` also runs the sample workload
under both policies to count the guard's overrides at run time.
"""

from __future__ import annotations

from pathlib import Path

import torch

from ncpu.os.nets import assembler, interrupts, mmu
from ncpu.os.neural import WEIGHTS, load_net

PARTS = ("interrupts", "mmu", "assembler")


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
    return results


def evaluate(directory: Path = WEIGHTS, device=None, workload: list | None = None,
             sources: list[str] | None = None) -> list[dict]:
    """One row per part: metric, classical, oracle, neural, run-time overrides
    (`sources`: the workload's texts, loaded through the neural assembler)."""
    from ncpu.os.kernel import Kernel
    from ncpu.os.neural import NeuralPolicies

    rows = []
    inter = interrupts.verify(load_net("interrupts", directory, device), device=device)
    table = mmu.verify(load_net("mmu", directory, device), device=device)
    overrides = {}
    if workload:
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
    words = assembler.verify(load_net("assembler", directory))
    rows.append({"part": "assembler", "metric": "exact words on enumerated lines and part inputs",
                 "cases": words["cases"], "classical": 1.0, "oracle": 1.0,
                 "neural": 1 - words["wrong"] / words["cases"], "run_decisions": decisions.get("assemble", 0),
                 "overrides": overrides.get("assemble", 0)})
    return rows
