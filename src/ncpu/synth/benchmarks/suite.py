"""Problems as specs: input distributions, the conversion of a reference
function into examples, and the frozen suite in `suite.json`.

Register convention (the same as `ncpu discover`'s default): inputs in
R0, R1, ..., outputs in R0, R1, ... Memory problems: a fold reads
(base R0, length R1) and returns in R0; a map reads (src R0, dst R1,
length R2) and writes dst; an in-place map reads (base R0, length R1);
`fixed4` reads four words at R0; `store` writes f(R0, R1) to [R2].
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from importlib import resources

from ncpu.machine.semantics import wrap
from ncpu.synth.benchmarks.problems import DEFS, Def
from ncpu.synth.spec import Spec, parse_spec

EXAMPLES = 10
INT_MIN, INT_MAX = -(1 << 31), (1 << 31) - 1


def _value(rng: random.Random, kind: str) -> int:
    if kind == "any":
        pick = rng.random()
        if pick < 0.15:
            return rng.choice([0, 1, -1, 2, INT_MIN, INT_MAX, 0x55555555, -256])
        if pick < 0.5:
            return rng.randint(-1000, 1000)
        return wrap(rng.getrandbits(32))
    if kind == "anyzero":
        return 0 if rng.random() < 0.3 else _value(rng, "any")
    if kind == "small":
        return rng.randint(-1000, 1000)
    if kind == "positive":
        return rng.randint(1, 20) if rng.random() < 0.3 else rng.randint(1, 1_000_000)
    if kind == "positive_small":
        return rng.randint(1, 30)
    if kind == "nat":
        return rng.randint(0, 60)
    if kind == "tiny":
        return rng.randint(0, 12)
    if kind == "pow2mix":
        return 1 << rng.randint(0, 30) if rng.random() < 0.4 else rng.randint(0, 1 << 20)
    raise ValueError(kind)


def _inputs(rng: random.Random, d: Def) -> list[int]:
    kind = d.gen
    if kind == "pairs":
        a = _value(rng, "any")
        return [a, a if rng.random() < 0.4 else _value(rng, "any")]
    if kind == "gcdpairs":
        return [rng.randint(1, 300), rng.randint(0, 300)]
    if kind == "powpairs":
        return [rng.randint(-6, 6), rng.randint(0, 10)]
    if kind == "mulpairs":
        return [rng.randint(-1000, 1000), rng.randint(0, 50)]
    if kind == "dblpairs":
        return [rng.randint(1, 10), rng.randint(1, 10_000)]
    return [_value(rng, kind) for _ in range(d.arity)]


def _array(rng: random.Random, d: Def) -> list[int]:
    n = 4 if d.gen == "array4" else rng.randint(1, 8)
    bound = 5 if d.gen == "smallarray" else 1000
    return [rng.randint(-bound, bound) for _ in range(n)]


def make_example(rng: random.Random, d: Def) -> dict:
    """One example in spec JSON form."""
    if d.memory in ("fold", "map", "inplace", "fixed4"):
        xs = _array(rng, d)
        base = rng.randint(100, 400)
        out = d.ref(xs)
        if d.memory == "fold":
            return {"in": [base, len(xs)], "out": [out], "memory_in": {"base": base, "values": xs}}
        if d.memory == "fixed4":
            return {"in": [base], "out": [out], "memory_in": {"base": base, "values": xs}}
        if d.memory == "inplace":
            return {"in": [base, len(xs)], "out": [], "memory_in": {"base": base, "values": xs},
                    "memory_out": {"base": base, "values": out}}
        dst = rng.randint(500, 900)
        return {"in": [base, dst, len(xs)], "out": [], "memory_in": {"base": base, "values": xs},
                "memory_out": {"base": dst, "values": out}}
    if d.memory == "store":
        a, b = _value(rng, d.gen), _value(rng, d.gen)
        address = rng.randint(100, 900)
        return {"in": [a, b, address], "out": [], "memory_out": {"base": address, "values": [d.ref(a, b)]}}
    xs = _inputs(rng, d)
    out = d.ref(*xs)
    return {"in": xs, "out": list(out) if isinstance(out, tuple) else [out]}


def make_spec_json(d: Def, seed: int, count: int = EXAMPLES) -> dict:
    rng = random.Random(f"{d.name}:{seed}")
    examples, seen = [], set()
    for _ in range(count * 20):
        example = make_example(rng, d)
        key = json.dumps([example["in"], example.get("memory_in")])
        if key not in seen:
            seen.add(key)
            examples.append(example)
        if len(examples) == count:
            break
    n_in = len(examples[0]["in"])
    n_out = len(examples[0]["out"])
    return {"name": d.name, "family": d.family, "inputs": [f"R{i}" for i in range(n_in)],
            "outputs": [f"R{i}" for i in range(n_out)], "examples": examples}


@dataclass
class Problem:
    definition: Def
    spec: Spec

    @property
    def name(self) -> str:
        return self.definition.name

    @property
    def family(self) -> str:
        return self.definition.family

    def fresh_spec(self, count: int = 50, seed: int = 1) -> Spec:
        """Unseen inputs from the same distribution (for generalisation)."""
        return parse_spec(make_spec_json(self.definition, seed=1000 + seed, count=count))


def load_suite() -> list[Problem]:
    data = json.loads(resources.files("ncpu.synth.benchmarks").joinpath("suite.json").read_text())
    by_name = {d.name: d for d in DEFS}
    return [Problem(by_name[item["name"]], parse_spec(item)) for item in data["problems"]]
