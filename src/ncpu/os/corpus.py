"""The programs the memory-hierarchy parts learn from and are judged on,
split BY PROGRAM into training and held-out sets.

Three sources, all run for real on the machine (their traces come from the
kernel's replay of each slice, `ncpu.os.trace`):
- the assembly corpus (`programs/*.asm`, `programs/os/*.asm`);
- the nsl examples (`src/ncpu/nsl/examples/*.nsl`), compiled by `ncpu.nsl`;
- synthetic nsl programs with the access patterns caches meet (strided
  sweeps, pointer chasing, blocked matrix walks, hashed table updates,
  recursion on the stack), one program per (pattern, parameters, seed).

A program is held out when a hash of its name says so (one in three), never
by chance at run time, so `ncpu os train` and `ncpu os eval` agree on the
split. A workload is a mix of a few programs run together as processes
(time slices interleave their accesses); training mixes draw only training
programs, held-out mixes only held-out ones.
"""

from __future__ import annotations

import random
import re
import zlib
from pathlib import Path

from ncpu.isa import assemble
from ncpu.isa.semantics import wrap
from ncpu.machine.state import MachineState
from ncpu.os.kernel import Image
from ncpu.os.workload import load_images

ROOT = Path(__file__).resolve().parents[3]
NSL_EXAMPLES = Path(__file__).resolve().parents[1] / "nsl" / "examples"
MAX_STEPS = 60_000  # per program: enough for the loops to repeat, small enough for CPU minutes


def held_out(name: str) -> bool:
    return zlib.crc32(name.encode()) % 3 == 0


def _nsl_image(name: str, source: str, args: tuple[int, ...] = ()) -> Image:
    from ncpu.nsl import compile_source

    compiled = compile_source(source, name + ".nsl")
    state = MachineState(memory=[0] * compiled.mem_size)
    for index, value in enumerate(args):
        state.registers[1 + index] = wrap(value)
    return Image(name, assemble(compiled.assembly).words, state, MAX_STEPS)


def _asm_images() -> list[Image]:
    paths = sorted((ROOT / "programs").glob("*.asm")) + sorted((ROOT / "programs" / "os").glob("*.asm"))
    images = load_images(paths) if paths else []
    for image, path in zip(images, paths):
        image.name = ("os_" if path.parent.name == "os" else "") + image.name
        image.max_steps = min(image.max_steps, MAX_STEPS)
    return images


def _example_images() -> list[Image]:
    images = []
    for path in sorted(NSL_EXAMPLES.glob("*.nsl")):
        source = path.read_text()
        args = re.search(r"//\s*@args\s+(.*)", source)
        images.append(_nsl_image("nsl_" + path.stem, source,
                                 tuple(int(a) for a in args.group(1).split()) if args else ()))
    return images


# Synthetic access patterns: nsl templates filled from a seeded generator.
PATTERNS = {
    "sweep": """int a[{n}];
int main() {{
    int s = 0;
    for (int r = 0; r < {reps}; r++)
        for (int i = 0; i < {n}; i += {stride}) {{ a[i] = a[i] + i; s += a[i]; }}
    print(s, "\\n");
    return 0;
}}""",
    "chase": """int next[{n}];
int main() {{
    int x = {seed};
    for (int i = 0; i < {n}; i++) next[i] = i;
    for (int i = {n} - 1; i > 0; i--) {{
        x = x * 1103515245 + 12345;
        int j = ((x >> 8) & 65535) % (i + 1);
        int t = next[i]; next[i] = next[j]; next[j] = t;
    }}
    int p = 0; int s = 0;
    for (int k = 0; k < {steps}; k++) {{ p = next[p]; s += p; }}
    print(s, "\\n");
    return 0;
}}""",
    "matrix": """int m[{nn}];
int t[{nn}];
int main() {{
    for (int i = 0; i < {nn}; i++) m[i] = i * 7 + {seed};
    for (int r = 0; r < {reps}; r++)
        for (int i = 0; i < {n}; i++)
            for (int j = 0; j < {n}; j++) t[j * {n} + i] = m[i * {n} + j] + r;
    print(t[{n} + 1], "\\n");
    return 0;
}}""",
    "hashed": """int table[{n}];
int hot[{h}];
int main() {{
    int x = {seed};
    for (int k = 0; k < {steps}; k++) {{
        x = x ^ (x << 13); x = x ^ (x >>> 17); x = x ^ (x << 5);
        int i = (x >>> 4) % {n};
        table[i] += 1;
        hot[k % {h}] += table[i];
    }}
    print(table[3] + hot[1], "\\n");
    return 0;
}}""",
    "recurse": """int memo[{n}];
int walk(int d, int i) {{
    if (d == 0) return memo[i % {n}];
    memo[(i * {stride}) % {n}] += d;
    return walk(d - 1, i + 1) + walk(d - 1, i + {stride});
}}
int main() {{
    int s = 0;
    for (int r = 0; r < {reps}; r++) s += walk({depth}, r);
    print(s, "\\n");
    return 0;
}}""",
}


def _synthetic_images(count_per_pattern: int = 6, seed: int = 7) -> list[Image]:
    rng = random.Random(seed)
    images = []
    for pattern, template in PATTERNS.items():
        for index in range(count_per_pattern):
            n = rng.choice((48, 96, 160, 256, 400))
            params = dict(n=n, stride=rng.choice((1, 2, 3, 5, 8)), reps=rng.randint(2, 6), seed=rng.randint(1, 999),
                          steps=rng.randint(300, 1500), h=rng.choice((8, 16, 32)), depth=rng.randint(5, 8))
            if pattern == "matrix":
                params["n"] = rng.choice((6, 8, 12, 16))
                params["nn"] = params["n"] ** 2
            images.append(_nsl_image(f"syn_{pattern}{index}", template.format(**params)))
    return images


def all_images() -> list[Image]:
    """Every program of the three sources, by name."""
    return _asm_images() + _example_images() + _synthetic_images()


def split(images: list[Image]) -> tuple[list[Image], list[Image]]:
    """(training programs, held-out programs)."""
    return [i for i in images if not held_out(i.name)], [i for i in images if held_out(i.name)]


def mixes(images: list[Image], size: int = 3, seed: int = 0) -> list[list[Image]]:
    """The programs in shuffled groups of `size`: each group one workload."""
    order = list(images)
    random.Random(seed).shuffle(order)
    return [order[start:start + size] for start in range(0, len(order), size)]
