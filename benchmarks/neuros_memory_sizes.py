"""How the simulated TLB and data cache sizes were chosen: LRU and Belady's
MIN hit rates at several sizes on the TRAINING traces (docs/neuros.md).

    python benchmarks/neuros_memory_sizes.py

A size is useful for judging a replacement policy when MIN beats LRU by a
clear share of LRU's misses; at large sizes every policy hits.
"""

from __future__ import annotations

from ncpu.os.hierarchy import cache_keys, tlb_keys
from ncpu.os.memory_parts import traces
from ncpu.os.replacement import belady_hits, simulate


def rates(streams, keys_of, sets, ways) -> tuple[float, float]:
    lru = best = total = 0
    for stream in streams:
        keys = keys_of(stream)
        lru += int(simulate(keys, sets, ways).sum())
        best += int(belady_hits(keys, sets, ways).sum())
        total += len(keys)
    return lru / total, best / total


def main() -> None:
    streams = [s for s in traces(held_out=False) if len(s)]
    print("| structure | LRU hit rate | MIN hit rate | share of LRU misses MIN avoids |")
    print("|---|---:|---:|---:|")
    rows = [(f"TLB {n} entries", lambda s: tlb_keys(0, s[:, 3]) | (s[:, 0] << 16), 1, n) for n in (2, 4, 8)]
    rows += [(f"cache {sets} x {ways} x {words}-word lines",
              lambda s, w=words: cache_keys(0, s[:, 3], w) | (s[:, 0] << 22), sets, ways)
             for sets, ways, words in ((4, 4, 4), (8, 4, 4), (16, 4, 4), (8, 8, 4))]
    for name, keys_of, sets, ways in rows:
        lru, best = rates(streams, keys_of, sets, ways)
        print(f"| {name} | {lru:.4f} | {best:.4f} | {(best - lru) / max(1 - lru, 1e-9):.1%} |")


if __name__ == "__main__":
    from ncpu.pipes import run_script
    run_script(main)
