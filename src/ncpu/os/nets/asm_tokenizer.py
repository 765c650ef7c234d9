"""The neural assembler's tokenizer: characters -> classes and values -> tokens.

Two networks, each exact over its whole (finite) input space:

* `CharNet` maps a character code 0..255 (its 8 bits) to its class (space,
  letter, digit, `_`, `.`, `,`, `[`, `]`, `+`, `-`, `;`, `:`, other), its
  letter (A..Z, case folded, or none) and its hexadecimal digit value
  (0..15 or none). Enumerated on all 256 codes against `char_oracle`
  (Python's own `str.isspace`, ASCII letters and digits: what the classical
  assembler's regular expressions accept).
* `BoundaryNet` maps (class of the previous character, class of this one)
  to "a token starts here": a word token is a run of letters, digits, `_`
  and `.`; a run of spaces is one token; every other character is a token
  of its own. Enumerated on all 14 x 13 class pairs (the previous class
  may be "start of line").

Characters above 255 are "other" without asking the network (the only
ones the classical assembler reads differently are Unicode spaces such as
U+2003; a line holding one is rejected here and the guard counts it).
Cutting the line at the token starts is array slicing (classical glue).
"""

from __future__ import annotations

from dataclasses import dataclass

import torch
from torch import nn

CLASSES = ("space", "letter", "digit", "underscore", "dot", "comma", "lbrack", "rbrack", "plus", "minus",
           "semi", "colon", "other")
SPACE, LETTER, DIGIT, UNDERSCORE, DOT, COMMA, LBRACK, RBRACK, PLUS, MINUS, SEMI, COLON, OTHER = range(len(CLASSES))
START = len(CLASSES)  # the "previous class" at the start of a line
NO_LETTER = 26
NO_DIGIT = 16
WORD_CLASSES = (LETTER, DIGIT, UNDERSCORE, DOT)
_PUNCT = {"_": UNDERSCORE, ".": DOT, ",": COMMA, "[": LBRACK, "]": RBRACK, "+": PLUS, "-": MINUS, ";": SEMI,
          ":": COLON}


def char_oracle(code: int) -> tuple[int, int, int]:
    """(class, letter 0..25 or NO_LETTER, hex digit value or NO_DIGIT) of a character code."""
    ch = chr(code)
    letter = ord(ch.upper()) - 65 if ("A" <= ch <= "Z" or "a" <= ch <= "z") else NO_LETTER
    digit = int(ch, 16) if ch in "0123456789abcdefABCDEF" else NO_DIGIT
    if ch.isspace():
        return SPACE, letter, digit
    if letter != NO_LETTER:
        return LETTER, letter, digit
    if "0" <= ch <= "9":
        return DIGIT, letter, digit
    return _PUNCT.get(ch, OTHER), letter, digit


def boundary_oracle(previous: int, current: int) -> int:
    """1 where a token starts: not inside a word run, not inside a space run."""
    if previous == START:
        return 1
    if previous in WORD_CLASSES and current in WORD_CLASSES:
        return 0
    return int(not (previous == SPACE and current == SPACE))


def _bits(values: torch.Tensor, width: int) -> torch.Tensor:
    shifts = torch.arange(width, device=values.device)
    return ((values[:, None] >> shifts) & 1).float() * 2 - 1


class CharNet(nn.Module):
    """8 bits -> (class logits [13], letter logits [27], digit-value logits [17])."""

    def __init__(self, hidden: int = 96):
        super().__init__()
        self.layers = nn.Sequential(nn.Linear(8, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU(),
                                    nn.Linear(hidden, len(CLASSES) + NO_LETTER + 1 + NO_DIGIT + 1))

    def forward(self, codes: torch.Tensor):
        out = self.layers(_bits(codes, 8))
        return out[:, :len(CLASSES)], out[:, len(CLASSES):len(CLASSES) + 27], out[:, len(CLASSES) + 27:]

    @torch.no_grad()
    def classify(self, codes: torch.Tensor) -> torch.Tensor:
        """[N, 3] int64: class, letter, digit value; codes above 255 are OTHER."""
        wide = codes > 255
        classes, letters, digits = self(codes.clamp(max=255))
        out = torch.stack([classes.argmax(-1), letters.argmax(-1), digits.argmax(-1)], dim=1)
        out[wide] = torch.tensor([OTHER, NO_LETTER, NO_DIGIT], device=codes.device)
        return out


class BoundaryNet(nn.Module):
    """(previous class one-hot [14], current class one-hot [13]) -> token-start logit."""

    def __init__(self, hidden: int = 24):
        super().__init__()
        self.layers = nn.Sequential(nn.Linear(START + 1 + len(CLASSES), hidden), nn.ReLU(), nn.Linear(hidden, 1))

    def forward(self, previous: torch.Tensor, current: torch.Tensor) -> torch.Tensor:
        x = torch.cat([nn.functional.one_hot(previous, START + 1), nn.functional.one_hot(current, len(CLASSES))], 1)
        return self.layers(x.float())[:, 0]

    @torch.no_grad()
    def starts(self, previous: torch.Tensor, current: torch.Tensor) -> torch.Tensor:
        return self(previous, current) > 0


def every_char(device=None):
    codes = torch.arange(256, device=device)
    target = torch.tensor([char_oracle(c) for c in range(256)], device=device)
    return codes, target


def every_pair(device=None):
    prev, cur = torch.meshgrid(torch.arange(START + 1), torch.arange(len(CLASSES)), indexing="ij")
    prev, cur = prev.flatten().to(device), cur.flatten().to(device)
    target = torch.tensor([boundary_oracle(int(p), int(c)) for p, c in zip(prev, cur)], device=device)
    return prev, cur, target


def train_chars(seed: int, steps: int = 4000, device=None, log=None) -> CharNet:
    torch.manual_seed(seed)
    net = CharNet().to(device)
    codes, target = every_char(device)
    optimizer = torch.optim.Adam(net.parameters(), lr=0.01)
    for step in range(steps):
        heads = net(codes)
        loss = sum(nn.functional.cross_entropy(h, target[:, i]) for i, h in enumerate(heads))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if step % 250 == 0 or step == steps - 1:
            wrong = verify_chars(net, device)["wrong"]
            if log:
                log(f"assembler chars step {step}: loss {loss.item():.5f}, wrong {wrong}")
            if wrong == 0 and loss.item() < 1e-3:
                break
    return net


def train_boundaries(seed: int, steps: int = 3000, device=None, log=None) -> BoundaryNet:
    torch.manual_seed(seed)
    net = BoundaryNet().to(device)
    prev, cur, target = every_pair(device)
    optimizer = torch.optim.Adam(net.parameters(), lr=0.02)
    for step in range(steps):
        loss = nn.functional.binary_cross_entropy_with_logits(net(prev, cur), target.float())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if step % 250 == 0 or step == steps - 1:
            wrong = verify_boundaries(net, device)["wrong"]
            if log:
                log(f"assembler boundaries step {step}: loss {loss.item():.5f}, wrong {wrong}")
            if wrong == 0 and loss.item() < 1e-3:
                break
    return net


def verify_chars(net: CharNet, device=None) -> dict:
    """Every code 0..255: class, letter and digit value against the oracle."""
    codes, target = every_char(device)
    got = net.classify(codes)
    return {"cases": 256, "wrong": int((got != target).any(1).sum())}


def verify_boundaries(net: BoundaryNet, device=None) -> dict:
    prev, cur, target = every_pair(device)
    return {"cases": len(target), "wrong": int((net.starts(prev, cur).long() != target).sum())}


@dataclass
class Token:
    """A run of characters: its kind (the class of its first character, or
    `letter` for a word run), its text, its per-character classes, letters and
    digit values, and its column (1-based)."""

    kind: int
    text: str
    classes: list[int]
    letters: list[int]
    digits: list[int]
    column: int


class CharTables:
    """The two networks' answers for one batch of lines: the networks run on
    every code and every pair once (their whole input spaces are that small),
    so a batch of lines reads their outputs by index."""

    def __init__(self, chars: CharNet, boundaries: BoundaryNet, device=None):
        codes = torch.arange(257, device=device)  # 256 stands for "any code above 255"
        self.chars = chars.classify(torch.where(codes == 256, 1000, codes)).cpu()
        prev, cur, _ = every_pair(device)
        self.starts = boundaries.starts(prev, cur).reshape(START + 1, len(CLASSES)).cpu()

    def tokens(self, line: str) -> list[Token]:
        if not line:
            return []
        codes = torch.tensor([min(ord(c), 256) for c in line])
        info = self.chars[codes]
        classes = info[:, 0]
        previous = torch.cat([torch.tensor([START]), classes[:-1]])
        starts = self.starts[previous, classes].nonzero()[:, 0].tolist() + [len(line)]
        cls, let, dig = info.T.tolist()
        out = []
        for begin, end in zip(starts, starts[1:]):
            kind = LETTER if cls[begin] in WORD_CLASSES else cls[begin]
            out.append(Token(kind, line[begin:end], cls[begin:end], let[begin:end], dig[begin:end], begin + 1))
        return out
