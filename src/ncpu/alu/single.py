"""The dense circuits for one operand pair at a time, on bit vectors, in numpy.

A single machine runs one instruction after another: each operation is a
chain of [1, 2n] @ [2n, 2n] products. At that size torch's per-call cost
(2-4 us a call, ~12 calls an ADD with the encoding) is the whole cost, and
numpy's is a fraction of it. `BitCircuits(dense)` evaluates the *same*
matrices as `DenseALU` (numpy views of its CPU tensors, nothing re-derived)
layer by layer, with three re-layouts that change no neuron:

* the layers that read only the operand bits are one product: for the
  adder, layer 1 and layer 3's operand part (X @ [W1 | W3x]); for XOR, its
  AND neuron and its second layer's operand part;
* operands and results stay bits (`[n]` float32 / bool vectors): a machine
  that keeps its registers as bits never encodes or decodes between two
  operations (`encode` / `decode` are the interface, used for constants,
  memory and addresses);
* Z and N are a separate call (`zero_negative`), so an engine may evaluate
  the flag neurons when a branch reads them rather than after every write.

MUL, DIV and MOD end in value read-outs over integer operands (the product
table lookup, the divider's steps): they run `DenseALU.value_zn` in torch.

Every method is checked against `DenseALU` and against `ncpu.isa.semantics`
(tests/alu/test_single.py) over random operands and every edge value.
"""

from __future__ import annotations

import numpy as np
import torch

from ncpu.alu.alu import UNARY_OPS, VALUE_OPS
from ncpu.alu.dense import DenseALU


def _np(t: torch.Tensor) -> np.ndarray:
    return t.detach().cpu().numpy()


class BitCircuits:
    """One row of the dense circuits: bits [n] in, bits [n] (or flags) out."""

    def __init__(self, dense: DenseALU):
        self.dense = dense
        self.width = n = dense.width
        if n % 8:
            raise ValueError(f"width must be a multiple of 8, not {n}")
        f = np.float32 if dense.zero.dtype == torch.float32 else np.float64
        self.float = f
        self.byte_bits = ((np.arange(256)[:, None] >> np.arange(8)) & 1).astype(f)  # [256, 8]
        self.powers = _np(dense.powers_v).astype(np.float64)  # [n], signed powers of two
        self.zn_W, self.zn_b = _np(dense.zn_W), _np(dense.zn_b)  # float64 [n, 2], [2]

        def adder(M):
            # [X @ W1 + b1 | X @ W3x + b3]: every neuron that reads only X, one product.
            return (np.concatenate([_np(M.W1), _np(M.W3x)], 1), np.concatenate([_np(M.b1), _np(M.b3)]),
                    _np(M.W2), _np(M.b2), _np(M.W3c))
        self.add_m, self.sub_m = adder(dense.add_m), adder(dense.sub_m)
        S = dense.sub_m
        self.neg_m = (np.concatenate([_np(S.W1)[n:], _np(S.W3x)[n:]], 1), self.sub_m[1], *self.sub_m[2:])
        self.cmp_X = (np.concatenate([_np(S.W1), _np(dense.cmp_W3x)], 1),
                      np.concatenate([_np(S.b1), _np(dense.cmp_b3)]))
        self.cmp_W3c = _np(dense.cmp_W3c)
        self.cmp_W4 = np.concatenate([_np(dense.cmp_W4s), _np(dense.cmp_W4c)], 0)  # over [S | C]
        self.cmp_b4 = _np(dense.cmp_b4)
        self.and_ = (_np(dense.and_W), _np(dense.and_b))
        self.or_ = (_np(dense.or_W), _np(dense.or_b))
        self.xor_X = (np.concatenate([_np(dense.and_W), _np(dense.xor_W)], 1),
                      np.concatenate([_np(dense.and_b), _np(dense.xor_b)]))
        self.xor_Wh = _np(dense.xor_Wh)
        self.not_ = (_np(dense.not_W), _np(dense.not_b))
        self.sh_Wh, self.sh_bh = _np(dense.sh_Wh), _np(dense.sh_bh)
        self.sh_Wd, self.sh_Wdh, self.sh_bd = _np(dense.sh_Wd), _np(dense.sh_Wdh), _np(dense.sh_bd)
        self.sh_query_index = _np(dense.sh_query_index)[:, 0]
        self.sh_src = {d: _np(s) for d, s in dense.sh_src.items()}  # [n+1, n] source of each output bit
        self.zero_fill = np.zeros(1, f)

    # -- the interface: integers <-> bits -------------------------------------

    def encode(self, value: int) -> np.ndarray:
        """A signed (or unsigned) n-bit integer -> bits [n], LSB first."""
        value &= (1 << self.width) - 1
        return self.byte_bits[[(value >> s) & 0xFF for s in range(0, self.width, 8)]].reshape(-1)

    def decode(self, bits: np.ndarray) -> int:
        """Bits [n] -> the signed integer (a dot with the signed powers of two; exact)."""
        return int(bits @ self.powers)

    # -- the circuits ----------------------------------------------------------

    def binary(self, op: str, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """ADD SUB AND OR XOR SHL SHR SAR on bits [n], [n] -> result bits [n]."""
        if op == "SHL":
            return self.shift(a, b, "left", False)
        if op == "SHR":
            return self.shift(a, b, "right", False)
        if op == "SAR":
            return self.shift(a, b, "right", True)
        X = np.concatenate((a, b))  # [2n]
        if op == "ADD":
            return self.add(X, self.add_m)
        if op == "SUB":
            return self.add(X, self.sub_m)
        if op == "AND":
            W, bias = self.and_
            return X @ W + bias > 0
        if op == "OR":
            W, bias = self.or_
            return X @ W + bias > 0
        if op == "XOR":
            W, bias = self.xor_X
            n = self.width
            pre = X @ W + bias  # [AND neurons | XOR layer 2's operand part]
            return pre[n:] + (pre[:n] > 0) @ self.xor_Wh > 0
        raise ValueError(f"{op} is not a bit-level binary circuit")

    def unary(self, op: str, a: np.ndarray) -> np.ndarray:
        if op == "NOT":
            W, bias = self.not_
            return a @ W + bias > 0
        if op == "NEG":  # 0 + NOT a + 1: the b rows of the subtractor
            return self.add(a, self.neg_m)
        raise ValueError(f"{op} is not a unary circuit; expected one of {', '.join(UNARY_OPS)}")

    def add(self, X: np.ndarray, mats) -> np.ndarray:
        """The adder's three layers; layer 1 and layer 3's operand part in one product."""
        WX, bX, W2, b2, W3c = mats
        m = W2.shape[0]
        pre = X @ WX + bX  # [layer-1 pre (2n) | layer-3 operand part (n)]
        C = (pre[:m] > 0) @ W2 + b2 > 0  # the carries [n]
        return pre[m:] + C @ W3c > 0

    def shift(self, x: np.ndarray, amount: np.ndarray, direction: str, arithmetic: bool) -> np.ndarray:
        """Attention routing: the 'amount >= n' neuron, the one-hot decoder,
        then each output bit copies the source its query row names."""
        high = amount @ self.sh_Wh + self.sh_bh > 0  # [1]
        query = amount @ self.sh_Wd + high @ self.sh_Wdh + self.sh_bd > 0  # [n+1], one-hot
        row = int(query @ self.sh_query_index)
        fill = x[-1:] if arithmetic else self.zero_fill
        return np.concatenate((x, fill))[self.sh_src[direction][row]]

    def compare(self, a: np.ndarray, b: np.ndarray) -> tuple[bool, bool, bool, bool]:
        """N, Z, C, V of a - b: the subtractor, V's AND neuron in layer 3, one flag layer."""
        X = np.concatenate((a, b))
        WX, bX = self.cmp_X
        _, _, W2, b2, _ = self.sub_m
        m, n = W2.shape[0], self.width
        pre = X @ WX + bX
        C = (pre[:m] > 0) @ W2 + b2 > 0  # [n]
        S = pre[m:] + C @ self.cmp_W3c > 0  # [n + 1]: the difference, V's AND neuron
        nzv = np.concatenate((S, C)) @ self.cmp_W4 + self.cmp_b4 > 0
        return bool(nzv[0]), bool(nzv[1]), bool(C[n - 1]), bool(nzv[2])

    def zero_negative(self, bits: np.ndarray) -> tuple[bool, bool]:
        """(Z, N) of a value's bits: the flag neurons."""
        z, n = (bits @ self.zn_W + self.zn_b > 0).tolist()
        return z, n

    def value_zn(self, op: str, a: int, b: int) -> tuple[int, bool, bool]:
        """MUL, DIV, MOD on integers: the dense circuits' value read-out with its Z and N."""
        if op not in VALUE_OPS:
            raise ValueError(f"{op} has no value read-out; expected one of {', '.join(VALUE_OPS)}")
        device = self.dense.zero.device
        with torch.inference_mode():
            value, z, n = self.dense.value_zn(op, torch.tensor([[a, b]], device=device))[0].tolist()
        return int(value), z > 0, n > 0


__all__ = ["BitCircuits"]
