"""nCPU: a computer whose every layer is a neural network or a tensor program."""

__version__ = "0.1.0"
