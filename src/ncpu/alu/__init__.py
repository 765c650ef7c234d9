"""The neural ALU: exact neural circuits for every nCPU operation.

    adder.py       carry-select threshold adder (ADD SUB NEG INC DEC CMP)
    logic.py       threshold cells (AND OR NOT XOR, the multiplexer)
    flags.py       Z and N neurons
    shifter.py     shifts as attention routing (SHL SHR SAR)
    multiplier.py  digit-pair product table + wrap neurons (MUL)
    divider.py     radix-2^k restoring division, a digit per layer (DIV MOD)
    alu.py         NeuralALU: all of the above, on bits and on int64
    dense.py       DenseALU: the same weights laid out as dense layers (what the engine runs)
    weights.py     analytic construction / shipped trained weights
    train.py       training every cell from its complete truth table
    verify.py      enumeration, sampling and margins
"""

from ncpu.alu.alu import OPS, NeuralALU
from ncpu.alu.weights import build_alu

__all__ = ["OPS", "NeuralALU", "build_alu"]
