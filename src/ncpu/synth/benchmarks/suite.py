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

from ncpu.isa.semantics import wrap
from ncpu.synth.benchmarks.problems import DEFS, Def
from ncpu.synth.spec import Spec, parse_spec

EXAMPLES = 10
INT_MIN, INT_MAX = -(1 << 31), (1 << 31) - 1


# Edge values per input distribution: where wrong programs that fit random
# examples usually part ways with the right one (sign changes, overflow,
# powers of two and their neighbours, all-ones and alternating patterns).
_POW2 = [1 << k for k in range(31)]
EDGES = {
    "any": [0, 1, -1, 2, -2, 3, INT_MIN, INT_MAX, INT_MIN + 1, INT_MAX - 1, 0x55555555, -0x55555556,
            0x7F, 0x80, 0xFF, 0x100, 0xFFFF, 0x10000, -256, -0x10000]
           + _POW2[4::3] + [-(p) for p in _POW2[5::4]] + [p - 1 for p in _POW2[6::5]],
    "small": [0, 1, -1, 2, -2, 1000, -1000, 999, -999, 512, -512, 7, -8],
    "positive": [1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 1023, 1024, 1025, (1 << 19) - 1, 1 << 19,
                 (1 << 19) + 1, 999_999, 1_000_000],
    "positive_small": [1, 2, 3, 4, 7, 8, 27, 30],
    "nat": [0, 1, 2, 3, 59, 60],
    "tiny": [0, 1, 2, 3, 11, 12],
    "pow2mix": [0, 1, 2, 3, 4, 5, 6, 7, 8, 12, 16, 17, (1 << 20) - 1, 1 << 20, 1 << 30, (1 << 30) + 1],
}
EDGES["anyzero"] = EDGES["pairs"] = EDGES["any"]


def _value(rng: random.Random, kind: str, sharp: bool = False) -> int:
    if sharp and kind in EDGES and rng.random() < 0.5:
        return rng.choice(EDGES[kind])
    if kind == "any":
        pick = rng.random()
        if pick < 0.15:
            return rng.choice([0, 1, -1, 2, INT_MIN, INT_MAX, 0x55555555, -256])
        if pick < 0.5:
            return rng.randint(-1000, 1000)
        return wrap(rng.getrandbits(32))
    if kind == "anyzero":
        return 0 if rng.random() < 0.3 else _value(rng, "any", sharp)
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
    if kind == "hd_positive":  # positive words whose results still fit
        return rng.randint(1, 64) if rng.random() < 0.2 else rng.randint(1, 1 << 30)
    if kind == "pow2mix":
        return 1 << rng.randint(0, 30) if rng.random() < 0.4 else rng.randint(0, 1 << 20)
    raise ValueError(kind)


def _magnitude(rng: random.Random) -> int:
    """A word with a random number of leading zeros (an edge value some of the time)."""
    if rng.random() < 0.15:
        return rng.choice([0, 1, -1, 2, INT_MIN, INT_MAX])
    return wrap(rng.getrandbits(32) >> rng.randint(0, 31))


def _inputs(rng: random.Random, d: Def, sharp: bool = False) -> list[int]:
    kind = d.gen
    if kind == "pairs":
        a = _value(rng, "any", sharp)
        return [a, a if rng.random() < 0.4 else _value(rng, "any", sharp)]
    if kind == "gcdpairs":
        return [rng.randint(1, 300), rng.randint(0, 300)]
    if kind == "powpairs":
        return [rng.randint(-6, 6), rng.randint(0, 10)]
    if kind == "mulpairs":
        return [rng.randint(-1000, 1000), rng.randint(0, 50)]
    if kind == "dblpairs":
        return [rng.randint(1, 10), rng.randint(1, 10_000)]
    if kind == "hd_fields":  # x, a mask m and a shift k with m and m << k disjoint, inside the word
        k = rng.randint(1, 16)
        m = 0
        for bit in range(32 - k):
            if not (m >> (bit - k)) & 1 if bit >= k else True:
                m |= rng.getrandbits(1) << bit
        return [_value(rng, "any"), m, k]
    if kind == "hd_magnitudes":  # leading-zero problems: words of every length, pairs often of one length
        x = _magnitude(rng)
        if rng.random() < 0.5:
            length = (x & 0xFFFFFFFF).bit_length()
            y = wrap((1 << (length - 1)) | rng.getrandbits(length - 1)) if length > 1 else x
        else:
            y = _magnitude(rng)
        return [x, y]
    if kind == "hd_cycle3":  # x is one of three distinct values a, b, c
        values = []
        while len(values) < 3:
            v = _value(rng, "any")
            values += [v] if v not in values else []
        return [rng.choice(values), *values]
    xs = [_value(rng, kind, sharp) for _ in range(d.arity)]
    if sharp and d.arity >= 2 and rng.random() < 0.3:  # equal and adjacent operands
        xs[1] = wrap(xs[0] + rng.choice([0, 1, -1]))
    return xs


def _array(rng: random.Random, d: Def) -> list[int]:
    n = 4 if d.gen == "array4" else rng.randint(1, 8)
    bound = 5 if d.gen == "smallarray" else 1000
    return [rng.randint(-bound, bound) for _ in range(n)]


def make_example(rng: random.Random, d: Def, sharp: bool = False, edge: int | None = None) -> dict:
    """One example in spec JSON form; `edge` = j forces the inputs to the
    j-th edge value (first input) and a shifted one (the others)."""
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
        a, b = _value(rng, d.gen, sharp), _value(rng, d.gen, sharp)
        address = rng.randint(100, 900)
        return {"in": [a, b, address], "out": [], "memory_out": {"base": address, "values": [d.ref(a, b)]}}
    xs = _inputs(rng, d, sharp)
    if edge is not None:
        edges = EDGES[d.gen]
        # Two passes over the edges with several inputs: partners that are
        # equal, adjacent or other edges, then random partners.
        second, edge = divmod(edge, len(edges))
        xs = [edges[(edge + 5 * i) % len(edges)] if i == 0 or (not second and rng.random() < 0.5) else x
              for i, x in enumerate(xs)]
        if len(xs) >= 2 and not second and edge % 3 < 2:  # an equal pair, or an adjacent one
            xs[1] = xs[0] if edge % 3 == 0 else wrap(xs[0] + (1 if edge % 2 else -1))
    out = d.ref(*xs)
    return {"in": xs, "out": list(out) if isinstance(out, tuple) else [out]}


def make_spec_json(d: Def, seed: int, count: int | None = None, sharp: bool | None = None) -> dict:
    """`count` examples (default: the problem's own), drawn with edge values
    mixed in when `sharp` (default: the problem's own setting)."""
    count = d.examples if count is None else count
    sharp = d.sharp if sharp is None else sharp
    rng = random.Random(f"{d.name}:{seed}" + (":sharp" if sharp else ""))
    # Sharp sets start with every edge value once, then random (sharp) draws.
    forced = len(EDGES[d.gen]) * min(d.arity, 2) if sharp and d.gen in EDGES and not d.memory else 0
    count = max(count, forced + 8) if forced else count
    examples, seen = [], set()
    for attempt in range(count * 20):
        example = make_example(rng, d, sharp, attempt if attempt < forced else None)
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
        """Unseen inputs for generalisation: `count` from the problem's
        distribution plus `count` with edge values mixed in."""
        plain = make_spec_json(self.definition, seed=1000 + seed, count=count, sharp=False)
        edges = make_spec_json(self.definition, seed=2000 + seed, count=count, sharp=True)
        keys = {json.dumps([e["in"], e.get("memory_in")]) for e in plain["examples"]}
        plain["examples"] += [e for e in edges["examples"] if json.dumps([e["in"], e.get("memory_in")]) not in keys]
        return parse_spec(plain)


def load_suite() -> list[Problem]:
    data = json.loads(resources.files("ncpu.synth.benchmarks").joinpath("suite.json").read_text())
    by_name = {d.name: d for d in DEFS}
    return [Problem(by_name[item["name"]], parse_spec(item)) for item in data["problems"]]
