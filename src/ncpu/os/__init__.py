"""neurOS: an operating system for the nCPU machine (docs/neuros.md).

Processes run on the existing engines in time slices; system calls reach the
kernel through the SYS trap (`ncpu.machine.traps`). Decisions the kernel
makes (which interrupt first, where a virtual page lives, ...) go through a
`Policies` object: classical code, or trained networks checked by a counted
safety guard. Policies change performance figures, never results.
"""
