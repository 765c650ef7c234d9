"""`NeuralPolicies`: the kernel's decisions made by the trained networks, each
checked by a counted safety guard.

The guard computes the classical answer beside the network's and keeps the
classical one wherever they differ, counting an override; the exact parts
(interrupt controller, MMU) are proven by enumeration to need none on their
domains, and the count shows whether a run left those domains. Parts with
no trained network yet stay classical and say so in `decisions`. The
scheduler's guard is a starvation bound, not an oracle (nets/scheduler.py).

The learned memory-hierarchy parts (TLB and cache replacement, the
prefetcher) make choices where no answer is right or wrong, only better or
worse; their guard checks that a choice can be carried out (the victim is
resident in its set, the prefetched line lies in the address space) and
otherwise takes the classical one (LRU) or drops the prefetch, counting an
override.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import torch

from ncpu.os.hierarchy import HierarchyConfig
from ncpu.os.memory import UNMAPPED
from ncpu.os.nets import allocator, prefetch, scheduler, watchdog
from ncpu.os.nets.assembler import NeuralAssembler
from ncpu.os.nets.cache import CacheNet
from ncpu.os.nets.interrupts import InterruptNet
from ncpu.os.nets.mmu import MMUNet
from ncpu.os.nets.prefetch import PrefetchNet
from ncpu.os.nets.reuse import ReuseTracker, choose_victim
from ncpu.os.nets.tlb import TLBNet
from ncpu.os.policies import ClassicalPolicies, lowest_line
from ncpu.os.replacement import lru_victim
from ncpu.os.stride import DeltaHistory

WEIGHTS = Path(__file__).resolve().parent / "weights"
NETS = {"interrupts": InterruptNet, "mmu": MMUNet, "assembler": NeuralAssembler, "tlb": TLBNet,
        "cache": CacheNet, "prefetch": PrefetchNet, "scheduler": scheduler.SchedulerNet,
        "watchdog": watchdog.WatchdogNet, "allocator": allocator.AllocatorNet}


class WeightsMissing(Exception):
    """A trained part's weights file is absent or unreadable."""


def load_net(name: str, directory: Path = WEIGHTS, device=None) -> torch.nn.Module:
    path = Path(directory) / f"{name}.pt"
    try:
        state = torch.load(path, map_location=device or "cpu", weights_only=True)
        net = NETS[name]().to(device)
        net.load_state_dict(state)
    except Exception as error:  # a missing, truncated or foreign file, whatever torch says about it
        reason = str(error).splitlines()[0] if str(error) else type(error).__name__
        raise WeightsMissing(f"neurOS {name} weights {path}: {reason[:200]}; run `ncpu os train`") from None
    net.eval()
    return net


class NeuralPolicies(ClassicalPolicies):
    name = "neural"

    def __init__(self, directory: Path = WEIGHTS, device=None, config: HierarchyConfig = HierarchyConfig(),
                 parts=("tlb", "cache", "prefetch")) -> None:
        """`parts`: which memory-hierarchy parts the networks decide (the others stay classical)."""
        super().__init__()
        self.parts = set(parts)
        self.decides_memory = bool(self.parts)
        self.device = device
        self.interrupt_net = load_net("interrupts", directory, device)
        self.mmu_net = load_net("mmu", directory, device)
        # The memory-hierarchy nets are small MLPs called once per slice on a
        # batch of accesses: they stay on the CPU whatever `device` says.
        self.tlb_net = load_net("tlb", directory)
        self.cache_net = load_net("cache", directory)
        self.prefetch_net = load_net("prefetch", directory)
        self.thresholds = {"tlb": float(self.tlb_net.threshold), "cache": float(self.cache_net.threshold)}
        self.tlb_tracker = ReuseTracker(1, config.tlb_entries)
        self.cache_tracker = ReuseTracker(config.cache_sets, config.cache_ways)
        self.history = DeltaHistory()
        self.assembler_net = load_net("assembler", directory)  # small batches: it runs on the CPU
        self.scheduler_net = load_net("scheduler", directory, device).cpu()
        self.watchdog_net = load_net("watchdog", directory, device).cpu()
        self._snapshots: dict[int, list] = {}  # pid -> its last watchdog.WINDOW slice snapshots
        self.allocator_net = load_net("allocator", directory, device).cpu()
        self.kernel = None
        self._static: dict[int, np.ndarray] = {}  # program index -> its static features
        self._last_run: dict[int, int] = {}  # pid -> tick it last ran (or arrived)

    def assemble(self, source: str):
        """The loader's assembler: the neural assembler, checked word by word
        against the classical one (an override per differing word, or per
        program where only one of them accepts the text)."""
        from ncpu.isa.assembler import AssemblerError
        from ncpu.os.nets.assembler import guarded

        try:
            program, overrides = guarded(self.assembler_net, source)
        except AssemblerError as error:
            self.overrides["assemble"] += error.overrides
            raise
        self.decisions["assemble"] += len(program.words)
        if overrides:
            self.overrides["assemble"] += overrides
        return program

    def attach(self, kernel) -> None:
        """The kernel whose processes these policies decide for (ticks, images)."""
        self.kernel = kernel

    def pick(self, ready: list) -> int:
        """Least predicted remaining run time; a process starving past
        scheduler.STARVE ticks runs instead (an override)."""
        self.decisions["schedule"] += 1
        tick = self.kernel.tick
        rows = []
        for p in ready:
            if p.program not in self._static:
                self._static[p.program] = scheduler.static_features(self.kernel.images[p.program])
            rows.append(scheduler.features(self._static[p.program], p.state.steps, p.slices, p.syscalls))
        waited = [tick - self._last_run.get(p.pid, p.created_tick) for p in ready]
        index, guarded = scheduler.choose(self.scheduler_net, np.stack(rows), waited)
        if guarded:
            self.overrides["schedule"] += 1
        self._last_run[ready[index].pid] = tick
        return index

    def interrupt(self, pending: int, mask: int) -> int:
        self.decisions["interrupt"] += 1
        tensor = lambda v: torch.tensor([v], device=self.device)  # noqa: E731
        line = int(self.interrupt_net.decide(tensor(pending), tensor(mask))[0])
        classical = lowest_line(pending, mask)
        if line != classical:
            self.overrides["interrupt"] += 1
            return classical
        return line

    def translate(self, table: np.ndarray, vpns: np.ndarray) -> np.ndarray:
        self.decisions["mmu"] += len(vpns)
        mapped = np.nonzero(table != UNMAPPED)[0]
        as_tensor = lambda a: torch.as_tensor(np.asarray(a, np.int64), device=self.device)  # noqa: E731
        frames = self.mmu_net.translate(as_tensor(vpns), as_tensor(mapped), as_tensor(table[mapped]))
        frames = frames.cpu().numpy()
        classical = table[vpns]
        wrong = frames != classical
        if wrong.any():
            self.overrides["mmu"] += int(wrong.sum())
            frames = np.where(wrong, classical, frames)
        return frames

    # -- the memory hierarchy ------------------------------------------------

    def tlb_scores(self, keys: np.ndarray, pcs: list, kinds: list) -> np.ndarray:
        if "tlb" not in self.parts:
            return super().tlb_scores(keys, pcs, kinds)
        return self.tlb_net.friendly(self.tlb_tracker.batch(keys.tolist(), pcs, kinds))

    def cache_scores(self, keys: np.ndarray, pcs: list, kinds: list) -> np.ndarray:
        if "cache" not in self.parts:
            return super().cache_scores(keys, pcs, kinds)
        return self.cache_net.friendly(self.cache_tracker.batch(keys.tolist(), pcs, kinds))

    def _victim(self, part: str, entries) -> int:
        self.decisions[part] += 1
        victim = choose_victim(entries, self.thresholds[part])
        if victim not in entries:
            self.overrides[part] += 1
            return lru_victim(entries)
        return victim

    def tlb_victim(self, entries) -> int:
        return self._victim("tlb", entries) if "tlb" in self.parts else super().tlb_victim(entries)

    def cache_victim(self, entries) -> int:
        return self._victim("cache", entries) if "cache" in self.parts else super().cache_victim(entries)

    def prefetch(self, pid: int, pcs: list, lines: np.ndarray, kinds: list, line_limit: int) -> np.ndarray:
        if "prefetch" not in self.parts:
            return super().prefetch(pid, pcs, lines, kinds, line_limit)
        rows, where = [], []
        for index, (pc, line, kind) in enumerate(zip(pcs, lines.tolist(), kinds)):
            inputs = self.history.observe(pid, pc, line, kind)
            if inputs is not None:
                rows.append(inputs)
                where.append(index)
        wanted = np.full(len(pcs), -1, np.int64)
        proposed = np.zeros(len(pcs), np.bool_)
        if rows:
            classes, confidence = self.prefetch_net.predict(np.array(rows, np.int64))
            wanted[where], proposed[where] = prefetch.proposals(classes, confidence, lines[where])
        invalid = proposed & ((wanted < 0) | (wanted >= line_limit))
        self.decisions["prefetch"] += int(proposed.sum())
        if invalid.any():
            self.overrides["prefetch"] += int(invalid.sum())
        wanted[~proposed | invalid] = -1
        return wanted

    def watch(self, process, memory: np.ndarray) -> None:
        """Score the process's window of slices; flag it once when the score
        passes the shipped threshold. A flag is reported, never acted on."""
        self.decisions["watchdog"] += 1
        snaps = self._snapshots.setdefault(process.pid, [])
        snaps.append(watchdog.snapshot(process.state, memory, process.syscalls,
                                       len(process.stdout) + len(process.stderr)))
        del snaps[:-watchdog.WINDOW]
        if process.pid in self.flagged:
            return
        score = self.watchdog_net.score(watchdog.window_features(snaps)[None])[0]
        if score > float(self.watchdog_net.threshold):
            self.flagged[process.pid] = process.state.steps

    def place(self, heap, fitting: list, length: int) -> int:
        """The fitting hole the allocator network scores highest; an answer that
        is not a fitting hole (none can be, by construction) falls back to first fit."""
        index = int(np.argmax(self.allocator_net.scores(allocator.candidate_features(heap, fitting, length))))
        if not (0 <= index < len(fitting) and fitting[index][1] >= length):
            self.overrides["heap"] += 1
            return 0
        return index
