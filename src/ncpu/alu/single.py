"""The dense circuits for one operand pair at a time, on bit vectors, in numpy.

A single machine runs one instruction after another: each operation is a
chain of [1, 2n] @ [2n, 2n] products. At that size torch's per-call cost
(2-4 us a call, ~12 calls an ADD with the encoding) is the whole cost, and
numpy's is a fraction of it. `BitCircuits(dense)` evaluates the *same*
matrices as `DenseALU` (numpy views of its CPU tensors, nothing re-derived)
layer by layer, with three re-layouts that change no neuron:

* the layers that read only the operand bits are one product: for the
  adder, layer 1 and layer 3's operand part (X @ [W1 | W3x]); for XOR, its
  AND neuron and its second layer's operand part; the biases are a last
  row of that product (the input ends in a constant 1), and a layer that
  also reads a later layer compares that product with the negated
  remainder (h @ W > -(x @ W' + b) is h @ W + x @ W' + b > 0);
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
        self.one = np.ones(1, f)  # the bias unit appended to every input
        self.byte_bits = ((np.arange(256)[:, None] >> np.arange(8)) & 1).astype(f)  # [256, 8]
        self.powers = _np(dense.powers_v).astype(np.float64)  # [n], signed powers of two
        self.zn_W, self.zn_t = _np(dense.zn_W), -_np(dense.zn_b)  # float64 [n, 2], thresholds [2]

        def first(*pairs):
            # Neurons that read only the input, one product over [input | 1]:
            # columns [W_a | -W_b | ...] with the biases as the last row. A
            # column of a layer that also reads a later layer is negated, so
            # that (later @ W > this) is its threshold test.
            return np.concatenate([np.concatenate([sign * W, sign * b[None, :]], 0) for sign, W, b in pairs], 1)

        def adder(M, rows=slice(None)):
            # [layer 1 (2n) | -(layer 3's input part) (n)] over [X | 1]; then W2, -b2, W3c.
            return (first((1, _np(M.W1)[rows], _np(M.b1)), (-1, _np(M.W3x)[rows], _np(M.b3))),
                    _np(M.W2), -_np(M.b2), _np(M.W3c))
        self.add_m, self.sub_m = adder(dense.add_m), adder(dense.sub_m)
        self.neg_m = adder(dense.sub_m, slice(n, None))  # NEG = 0 + NOT a + 1: the b rows of the subtractor
        S = dense.sub_m
        self.cmp_X = first((1, _np(S.W1), _np(S.b1)), (-1, _np(dense.cmp_W3x), _np(dense.cmp_b3)))
        self.cmp_W3c = _np(dense.cmp_W3c)
        self.cmp_W4 = np.concatenate([_np(dense.cmp_W4s), _np(dense.cmp_W4c)], 0)  # over [S | C]
        self.cmp_t4 = -_np(dense.cmp_b4)
        self.and_W = first((1, _np(dense.and_W), _np(dense.and_b)))
        self.or_W = first((1, _np(dense.or_W), _np(dense.or_b)))
        self.xor_W = first((1, _np(dense.and_W), _np(dense.and_b)), (-1, _np(dense.xor_W), _np(dense.xor_b)))
        self.xor_Wh = _np(dense.xor_Wh)
        self.not_W = first((1, _np(dense.not_W), _np(dense.not_b)))
        # Shifter over [amount | 1]: the "amount >= n" neuron, then the decoder.
        self.sh_high = first((1, _np(dense.sh_Wh), _np(dense.sh_bh)))
        self.sh_dec = first((1, _np(dense.sh_Wd), _np(dense.sh_bd)))
        self.sh_Wdh = _np(dense.sh_Wdh)[0]
        self.sh_query_index = _np(dense.sh_query_index)[:, 0]
        self.sh_src = {d: _np(s) for d, s in dense.sh_src.items()}  # [n+1, n] source of each output bit
        self.zero_fill = np.zeros(1, f)
        self._hidden, self._carries = np.empty(2 * n, f), np.empty(n, f)  # scratch: not thread-safe
        self._binary = {"ADD": lambda a, b: self.add(np.concatenate((a, b, self.one)), self.add_m),
                        "SUB": lambda a, b: self.add(np.concatenate((a, b, self.one)), self.sub_m),
                        "AND": lambda a, b: np.concatenate((a, b, self.one)) @ self.and_W > 0,
                        "OR": lambda a, b: np.concatenate((a, b, self.one)) @ self.or_W > 0,
                        "XOR": self.xor,
                        "SHL": lambda a, b: self.shift(a, b, "left", False),
                        "SHR": lambda a, b: self.shift(a, b, "right", False),
                        "SAR": lambda a, b: self.shift(a, b, "right", True)}

    # -- the interface: integers <-> bits -------------------------------------

    def encode(self, value: int) -> np.ndarray:
        """A signed (or unsigned) n-bit integer -> bits [n], LSB first."""
        value &= (1 << self.width) - 1
        return self.byte_bits[[(value >> s) & 0xFF for s in range(0, self.width, 8)]].reshape(-1)

    def decode(self, bits: np.ndarray) -> int:
        """Bits [n] -> the signed integer (a dot with the signed powers of two; exact)."""
        return int(bits @ self.powers)

    # -- the circuits ----------------------------------------------------------

    def binary_fn(self, op: str):
        """The circuit of ADD SUB AND OR XOR SHL SHR SAR as a function of two bit vectors [n]."""
        if op not in self._binary:
            raise ValueError(f"{op} is not a bit-level binary circuit")
        return self._binary[op]

    def binary(self, op: str, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """ADD SUB AND OR XOR SHL SHR SAR on bits [n], [n] -> result bits [n]."""
        return self.binary_fn(op)(a, b)

    def unary(self, op: str, a: np.ndarray) -> np.ndarray:
        if op == "NOT":
            return np.concatenate((a, self.one)) @ self.not_W > 0
        if op == "NEG":
            return self.add(np.concatenate((a, self.one)), self.neg_m)
        raise ValueError(f"{op} is not a unary circuit; expected one of {', '.join(UNARY_OPS)}")

    def add(self, X: np.ndarray, mats) -> np.ndarray:
        """The adder's three layers on [X | 1]; layer 1 and layer 3's input part in one product."""
        WX, W2, t2, W3c = mats
        m = W2.shape[0]
        pre = X @ WX  # [layer-1 pre-activations (2n) | -(layer 3's input part) (n)]
        # Hidden layers as 0/1 floats in reused buffers (a float product is
        # the fast path; a bool one is cast first).
        c = np.greater(pre[:m], 0, out=self._hidden[:m])
        C = np.greater(c @ W2, t2, out=self._carries)  # the carries [n]
        return C @ W3c > pre[m:]

    def xor(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        n = self.width
        pre = np.concatenate((a, b, self.one)) @ self.xor_W  # [AND neurons | -(layer 2's input part)]
        return np.greater(pre[:n], 0, out=self._carries) @ self.xor_Wh > pre[n:]

    def shift(self, x: np.ndarray, amount: np.ndarray, direction: str, arithmetic: bool) -> np.ndarray:
        """Attention routing: the 'amount >= n' neuron, the one-hot decoder,
        then each output bit copies the source its query row names."""
        A = np.concatenate((amount, self.one))
        high = A @ self.sh_high > 0  # [1]
        query = A @ self.sh_dec + high * self.sh_Wdh > 0  # [n+1], one-hot
        row = int(query @ self.sh_query_index)
        fill = x[-1:] if arithmetic else self.zero_fill
        return np.concatenate((x, fill))[self.sh_src[direction][row]]

    def compare(self, a: np.ndarray, b: np.ndarray) -> tuple[bool, bool, bool, bool]:
        """N, Z, C, V of a - b: the subtractor, V's AND neuron in layer 3, one flag layer."""
        _, W2, t2, _ = self.sub_m
        m, n = W2.shape[0], self.width
        pre = np.concatenate((a, b, self.one)) @ self.cmp_X
        C = np.greater(np.greater(pre[:m], 0, out=self._hidden[:m]) @ W2, t2, out=self._carries)  # [n]
        S = C @ self.cmp_W3c > pre[m:]  # [n + 1]: the difference, V's AND neuron
        nzv = np.concatenate((S, C)) @ self.cmp_W4 > self.cmp_t4
        return bool(nzv[0]), bool(nzv[1]), bool(C[n - 1]), bool(nzv[2])

    def zero_negative(self, bits: np.ndarray) -> tuple[bool, bool]:
        """(Z, N) of a value's bits: the flag neurons."""
        z, n = (bits @ self.zn_W > self.zn_t).tolist()
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
