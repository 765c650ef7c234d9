"""The nCPU machine: state, the reference semantics, and the engines that run it."""
