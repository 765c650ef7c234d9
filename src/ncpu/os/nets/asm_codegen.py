"""The neural assembler's code generator: mnemonic, form, numbers and fields as networks.

* `MnemonicNet` — attention over the mnemonic table (every canonical
  mnemonic and every jump alias, 61 spellings). A mnemonic token is six
  letter positions, one-hot over 26 letters and "none"; an entry scores
  `scale * (matches / 6 - threshold)` and a null entry scores 0, so the
  token attends to the entry it spells or to nothing. The decision depends
  on the match count alone, and `verify` enumerates every entry, every
  string of one to three letters and every one-letter edit of every entry.
  Trained: the scale and the threshold.
* `FormNet` — (table entry, kind of operand 1, 2, 3) -> the instruction's
  form: reject, the opcode's 8 bits, which operand fills rd, rs1, rs2 and
  the immediate, whether the immediate is negated (`SUB Rd, Rs, imm`),
  range-checked as a shift amount, widened to MOVI+MOVT (`MOV Rd, imm`),
  and which immediate field it fills. Operand kinds: none, register,
  integer, memory `[Rb+imm]`, word (a label name), bad. Its whole input
  space is 62 x 6^3 = 13,392 cases; the labels come from the classical
  assembler (`form_oracle` assembles a probe line for each case) and
  `verify` enumerates all of them.
* Constructed layers (weights set by formula, not trained; exact by
  construction and enumerated in `assembler.verify`):
  `place_value` (digit values -> integer, a linear layer of base^j weights
  in float64) with a threshold unit for "every digit below the base";
  `range_unit` (two threshold units: lo <= v <= hi); `twos_complement_bits`
  (a chain of threshold units extracting the 32 bits of v mod 2^32); and
  `place_fields` (a linear layer of powers of two: opcode, rd, rs1, rs2
  and immediate bits -> the 32-bit word).
"""

from __future__ import annotations

import torch
from torch import nn

from ncpu.isa.opcodes import BY_MNEMONIC, JUMP_ALIASES
from ncpu.os.nets.asm_tokenizer import NO_LETTER

ENTRIES = tuple(BY_MNEMONIC) + tuple(JUMP_ALIASES)
NULL = len(ENTRIES)  # "no such mnemonic"
POSITIONS = 6  # the longest spelling is 5 letters; a sixth position must be empty
KINDS = ("none", "register", "integer", "memory", "word", "bad")
NONE, REG, IMM, MEM, WORD, BAD = range(len(KINDS))
SLOTS = 3
IMM_FIELDS = ("none", "imm15", "imm21", "imm16", "addr")


def spell(letters: list[int]) -> torch.Tensor:
    """Letter indices (0..25) -> one-hot [POSITIONS * 27], truncated/padded."""
    padded = (list(letters) + [NO_LETTER] * POSITIONS)[:POSITIONS]
    return nn.functional.one_hot(torch.tensor(padded), NO_LETTER + 1).flatten().float()


def letters_of(text: str) -> list[int]:
    return [ord(c) - 65 for c in text.upper()]


class MnemonicNet(nn.Module):
    def __init__(self):
        super().__init__()
        keys = torch.stack([spell(letters_of(name)) for name in ENTRIES])
        self.register_buffer("keys", keys, persistent=False)  # the table itself, from the ISA
        self.log_scale = nn.Parameter(torch.tensor(0.0))
        self.threshold = nn.Parameter(torch.tensor(0.5))  # trained into (5/6, 1)

    def forward(self, queries: torch.Tensor) -> torch.Tensor:
        """queries [Q, POSITIONS*27] -> attention logits [Q, entries + null]."""
        scores = self.log_scale.exp() * (queries @ self.keys.T / POSITIONS - self.threshold)
        return torch.cat([scores, torch.zeros(len(queries), 1, device=queries.device)], dim=1)

    @torch.no_grad()
    def lookup(self, queries: torch.Tensor) -> torch.Tensor:
        return self(queries).argmax(-1)


def _mnemonic_samples(generator: torch.Generator):
    """Every entry, and near misses: one letter changed, dropped or added."""
    words, target = [], []
    for index, name in enumerate(ENTRIES):
        words.append(letters_of(name))
        target.append(index)
        letters = letters_of(name)
        position = int(torch.randint(0, len(letters) + 1, (1,), generator=generator))
        other = int(torch.randint(0, 26, (1,), generator=generator))
        for variant in (letters[:position] + [other] + letters[position + 1:], letters[:-1],
                        letters + [other]):
            words.append(variant)
            target.append(ENTRIES.index(_name(variant)) if _name(variant) in ENTRIES else NULL)
    return torch.stack([spell(w) for w in words]), torch.tensor(target)


def _name(letters: list[int]) -> str:
    return "".join(chr(65 + i) for i in letters)


def train_mnemonics(seed: int, steps: int = 400, device=None, log=None) -> MnemonicNet:
    torch.manual_seed(seed)
    generator = torch.Generator().manual_seed(seed)
    net = MnemonicNet().to(device)
    optimizer = torch.optim.Adam(net.parameters(), lr=0.05)
    for step in range(steps):
        queries, target = _mnemonic_samples(generator)
        loss = nn.functional.cross_entropy(net(queries.to(device)), target.to(device))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if log and (step % 100 == 0 or step == steps - 1):
            log(f"assembler mnemonics step {step}: loss {loss.item():.5f}, threshold {net.threshold.item():.4f}")
    return net


def every_mnemonic_case():
    """Every entry, every string of 1..3 letters, every one-letter edit of
    every entry (substitution, deletion, insertion at each position), each
    entry with a letter appended: (queries, oracle targets)."""
    words: set[str] = set(ENTRIES)
    alphabet = [chr(65 + i) for i in range(26)]
    words.update(alphabet)
    words.update(a + b for a in alphabet for b in alphabet)
    words.update(a + b + c for a in alphabet for b in alphabet for c in alphabet)
    for name in ENTRIES:
        for i in range(len(name) + 1):
            words.add(name[:i] + name[i + 1:])
            for letter in alphabet:
                words.add(name[:i] + letter + name[i + 1:])
                words.add(name[:i] + letter + name[i:])
    words.discard("")
    ordered = sorted(words)
    target = torch.tensor([ENTRIES.index(w) if w in ENTRIES else NULL for w in ordered])
    return ordered, target


def verify_mnemonics(net: MnemonicNet, device=None) -> dict:
    words, target = every_mnemonic_case()
    queries = torch.stack([spell(letters_of(w)) for w in words]).to(device)
    got = net.lookup(queries).cpu()
    return {"cases": len(words), "wrong": int((got != target).sum())}


# -- the form network -------------------------------------------------------------

HEADS = {"reject": 2, "rd": SLOTS + 1, "rs1": SLOTS + 1, "rs2": SLOTS + 1, "imm": SLOTS + 1,
         "negate": 2, "shift": 2, "widen": 2, "field": len(IMM_FIELDS)}
OPCODE_BITS = 8


def form_input(entries: torch.Tensor, kinds: torch.Tensor) -> torch.Tensor:
    """entries [N] (0..NULL), kinds [N, SLOTS] -> one-hot features [N, 62 + 18]."""
    parts = [nn.functional.one_hot(entries, NULL + 1)]
    parts += [nn.functional.one_hot(kinds[:, s], len(KINDS)) for s in range(SLOTS)]
    return torch.cat(parts, 1).float()


class FormNet(nn.Module):
    def __init__(self, hidden: int = 160):
        super().__init__()
        width = NULL + 1 + SLOTS * len(KINDS)
        self.layers = nn.Sequential(nn.Linear(width, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU(),
                                    nn.Linear(hidden, OPCODE_BITS + sum(HEADS.values())))

    def forward(self, x: torch.Tensor) -> dict[str, torch.Tensor]:
        out = self.layers(x)
        heads = {"opcode": out[:, :OPCODE_BITS]}
        start = OPCODE_BITS
        for name, size in HEADS.items():
            heads[name] = out[:, start:start + size]
            start += size
        return heads

    @torch.no_grad()
    def decide(self, entries: torch.Tensor, kinds: torch.Tensor) -> dict[str, torch.Tensor]:
        heads = self(form_input(entries, kinds))
        out = {name: h.argmax(-1) for name, h in heads.items() if name != "opcode"}
        out["opcode"] = ((heads["opcode"] > 0).long() << torch.arange(OPCODE_BITS, device=entries.device)).sum(-1)
        return out


def form_oracle(entry: int, kinds: tuple[int, ...]) -> dict[str, int] | None:
    """The classical assembler's form for a mnemonic and operand kinds, found
    by assembling probe lines; None where it rejects the combination."""
    from ncpu.isa.assembler import AssemblerError, assemble
    from ncpu.isa.encoding import decode
    from ncpu.isa.opcodes import FORMATS

    if entry == NULL:
        return None
    count = next((i for i, k in enumerate(kinds) if k == NONE), SLOTS)
    if any(k != NONE for k in kinds[count:]):
        return None  # a gap in the operand list: the tokenizer never produces it

    def probe(integer) -> list[int] | None:
        texts = {REG: "R{k}", IMM: "{v}", MEM: "[R{k}+{m}]", WORD: "L{k}", BAD: "?{k}"}
        operands = [texts[kind].format(k=k + 1, v=integer(k + 1), m=20 + k + 1) for k, kind in enumerate(kinds[:count])]
        line = f"{ENTRIES[entry]} {', '.join(operands)}".strip()
        try:
            words = assemble(line + "\n" + "\n".join(f"L{k}: NOP" for k in range(1, SLOTS + 1))).words
        except AssemblerError:
            return None
        return words[:len(words) - SLOTS]

    small = probe(lambda k: 10 + k)
    if small is None:
        return None
    wide = probe(lambda k: (1 << 22) + 10 + k)
    shift_probe = probe(lambda k: 40)
    instruction = decode(small[0])
    fields = FORMATS[instruction.op.format].fields
    field = next((f for f in fields if f not in ("rd", "rs1", "rs2")), "none")
    form = {"reject": 0, "opcode": instruction.op.code, "negate": 0, "imm": 0,
            "shift": int(IMM in kinds and shift_probe is None), "widen": int(wide is not None and len(wide) == 2),
            "field": IMM_FIELDS.index(field)}
    for name in ("rd", "rs1", "rs2"):
        form[name] = getattr(instruction, name)  # probe registers: operand k is Rk (0: field unused)
    if field != "none":
        value = instruction.imm
        if -SLOTS - 10 <= value <= -11:
            form["imm"], form["negate"] = -value - 10, 1
        elif 11 <= value <= 10 + SLOTS:
            form["imm"] = value - 10
        elif 21 <= value <= 20 + SLOTS:
            form["imm"] = value - 20
        elif 1 <= value <= SLOTS:  # a label's address
            form["imm"] = value
    return form


def every_form_case():
    entries, kinds = [], []
    for entry in range(NULL + 1):
        for a in range(len(KINDS)):
            for b in range(len(KINDS)):
                for c in range(len(KINDS)):
                    entries.append(entry)
                    kinds.append((a, b, c))
    return torch.tensor(entries), torch.tensor(kinds)


def form_targets(entries: torch.Tensor, kinds: torch.Tensor) -> dict[str, torch.Tensor]:
    forms = [form_oracle(int(e), tuple(k.tolist())) for e, k in zip(entries, kinds)]
    names = ("reject", "opcode", *[h for h in HEADS if h != "reject"])
    return {name: torch.tensor([(f or {"reject": 1}).get(name, 0) for f in forms]) for name in names}


def train_forms(seed: int, steps: int = 3000, device=None, log=None, cases=None) -> FormNet:
    torch.manual_seed(seed)
    net = FormNet().to(device)
    entries, kinds = cases or every_form_case()
    targets = {k: v.to(device) for k, v in form_targets(entries, kinds).items()}
    x = form_input(entries.to(device), kinds.to(device))
    live = targets["reject"] == 0
    opcode_bits = ((targets["opcode"][:, None] >> torch.arange(OPCODE_BITS, device=device)) & 1).float()
    optimizer = torch.optim.Adam(net.parameters(), lr=0.005)
    for step in range(steps):
        heads = net(x)
        loss = nn.functional.cross_entropy(heads["reject"], targets["reject"])
        loss = loss + nn.functional.binary_cross_entropy_with_logits(heads["opcode"][live], opcode_bits[live])
        for name in HEADS:
            if name != "reject":
                loss = loss + nn.functional.cross_entropy(heads[name][live], targets[name][live])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if step % 250 == 0 or step == steps - 1:
            wrong = _form_wrong(net, entries.to(device), kinds.to(device), targets)
            if log:
                log(f"assembler forms step {step}: loss {loss.item():.5f}, wrong {wrong}")
            if wrong == 0 and loss.item() < 1e-3:
                break
    return net


def _form_wrong(net: FormNet, entries, kinds, targets) -> int:
    got = net.decide(entries, kinds)
    bad = got["reject"] != targets["reject"]
    live = targets["reject"] == 0
    for name in targets:
        if name != "reject":
            bad |= live & (got[name] != targets[name])
    return int(bad.sum())


def verify_forms(net: FormNet, device=None, cases=None) -> dict:
    entries, kinds = cases or every_form_case()
    targets = {k: v.to(device) for k, v in form_targets(entries, kinds).items()}
    return {"cases": len(entries), "wrong": _form_wrong(net, entries.to(device), kinds.to(device), targets)}


# -- constructed layers -------------------------------------------------------------


def heaviside(x: torch.Tensor) -> torch.Tensor:
    """A threshold unit: 1 where x > 0."""
    return (x > 0).to(x.dtype)


def place_value(digits: torch.Tensor, base: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """digits [N, W] right-aligned digit values (pad 0), base [N] -> (value, valid).
    value = sum_j digit_j * base^j (float64: exact below 2^53, and any value this
    machine can use is below 2^33); valid = no digit >= its base."""
    width = digits.shape[1]
    powers = base.double()[:, None] ** torch.arange(width - 1, -1, -1, dtype=torch.float64)
    value = (digits.double() * powers).sum(1)
    too_big = heaviside(digits.double() - base.double()[:, None] + 0.5).sum(1)
    return value, heaviside(0.5 - too_big)


def range_unit(value: torch.Tensor, lo, hi) -> torch.Tensor:
    """1 where lo <= value <= hi (two threshold units and an AND)."""
    return heaviside(value - lo + 0.5) * heaviside(hi + 0.5 - value)


def twos_complement_bits(value: torch.Tensor, width: int = 32) -> torch.Tensor:
    """[N] integers in [-2^31, 2^32) (float64) -> [N, width] bits of value mod 2^width,
    least significant first: one threshold unit adds 2^32 to a negative value, then
    a chain of threshold units takes the bits from the top."""
    rest = value + heaviside(-value - 0.5) * 2.0 ** 32
    bits = []
    for k in range(31, -1, -1):
        bit = heaviside(rest - 2.0 ** k + 0.5)
        rest = rest - bit * 2.0 ** k
        bits.append(bit)
    return torch.stack(bits[::-1], 1)[:, :width]


def place_fields(opcode: torch.Tensor, rd: torch.Tensor, rs1: torch.Tensor, rs2: torch.Tensor,
                 imm_bits: torch.Tensor) -> torch.Tensor:
    """Field bits -> the word: a linear layer whose weights are powers of two.
    opcode [N] 0..255, registers [N] 0..7, imm_bits [N, 21] (already cut to the
    field's width). Returns int64 words."""
    parts = [twos_complement_bits(opcode.double(), 8), twos_complement_bits(rd.double(), 3),
             twos_complement_bits(rs1.double(), 3), twos_complement_bits(rs2.double(), 3), imm_bits]
    bits = torch.cat(parts[::-1], 1)  # imm 0..20, rs2 15.., rs1 18.., rd 21.., opcode 24..
    positions = list(range(21)) + [15, 16, 17] + [18, 19, 20] + [21, 22, 23] + list(range(24, 32))
    weights = 2.0 ** torch.tensor(positions, dtype=torch.float64)
    return (bits @ weights).long()
