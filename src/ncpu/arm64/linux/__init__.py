"""Linux user mode for the ARM64 machine: ELF loading, system calls, files, processes.

    from ncpu.arm64.linux import Machine
    result = Machine(root="tree").run("tree/bin/busybox", ["busybox", "echo", "hi"])

Layers: `elf` and `stack` build a process image; `fs` and `files` are the
sandboxed file tree and descriptors; `syscalls/` the system calls by area;
`kernel` holds processes, exec, exit and signals (`signals` builds frames);
`scheduler` runs them round-robin; `machine` is the entry point.
"""

from .errors import ElfError, LinuxError
from .machine import Machine, Result

__all__ = ["Machine", "Result", "ElfError", "LinuxError"]
