"""The public entry point: run an AArch64 Linux binary (static or dynamic) on a sandboxed tree.

    result = Machine(root="/tmp/tree").run("/tmp/tree/bin/busybox", ["busybox", "echo", "hi"])
"""

from __future__ import annotations

import os
import shutil
import tempfile
import threading
import time
from dataclasses import dataclass, field

from . import scheduler
from .clock import Clock
from .kernel import DEFAULT_MAX_PROCS, Kernel
from .terminal import saved_modes

DEFAULT_MAX_STEPS = 10_000_000_000
DEFAULT_MEMORY = 4 << 30           # bytes of guest memory, all processes together


@dataclass
class Result:
    status: int              # exit code, or 128+signal (what `ncpu arm64` exits with)
    wait_status: int
    instructions: int
    wall_s: float
    reason: str              # exit, signal, budget, deadlock, oom
    messages: list[str] = field(default_factory=list)
    native_instructions: int = 0     # of `instructions`, those retired in native code (native.py)
    native_entries: int = 0          # times the loop entered native code

    @property
    def mips(self) -> float:
        return self.instructions / self.wall_s / 1e6 if self.wall_s > 0 else 0.0


class Machine:
    """One run of one guest program (and the processes it starts)."""

    def __init__(self, root: str | None = None, *, max_steps: int = DEFAULT_MAX_STEPS, seed: int = 0,
                 host_time: bool = False, stdio: tuple[int, int, int] = (0, 1, 2), on_message=None,
                 cpu_api=None, publish: tuple = (), memory: int = DEFAULT_MEMORY,
                 max_procs: int = DEFAULT_MAX_PROCS, cwd: str = "/", env: dict | list | None = None):
        self.root = root
        self.publish = tuple(publish)      # (host port, guest port): --publish, not deterministic
        self.max_steps = max_steps
        self.seed = seed
        self.host_time = host_time
        self.stdio = stdio
        self.on_message = on_message
        self.cpu_api = cpu_api
        self.memory = memory               # the memory budget (bytes) of the whole machine
        self.max_procs = max_procs         # processes and threads alive at once
        self.cwd = cwd                     # the first process's working directory, a guest path
        self.env = env                     # the guest's environment when run/boot get none (None: the host's)

    def run(self, binary: str, argv: list[str | bytes] | None = None, env: dict | list | None = None) -> Result:
        """Load `binary` (a host path) and run it to the end.

        argv defaults to [binary's guest path]; env to Machine's env, else the host's environment.
        Raises ElfError when the file cannot be loaded, hostio.PublishError
        when a published host port cannot be listened on.
        """
        messages: list[str] = []

        def message(text: str) -> None:
            messages.append(text)
            if self.on_message is not None:
                self.on_message(text)

        temp = None
        root = self.root
        if root is None:
            temp = root = tempfile.mkdtemp(prefix="ncpu-root-")
        try:
            start = time.perf_counter()
            kernel = self.boot(root, binary, argv, env, message)
            # the host tty's modes come back however the run ends (exit, crash, budget, Ctrl-C)
            with saved_modes(self.stdio[0]) as tty:
                try:
                    for host_port, guest_port in self.publish:
                        kernel.host.publish(host_port, guest_port)
                    if tty and threading.current_thread() is threading.main_thread():
                        kernel.host.forward_signals()
                    outcome = scheduler.run(kernel, self.max_steps)
                finally:
                    kernel.host.close()
            wall = time.perf_counter() - start
        finally:
            if temp is not None:
                shutil.rmtree(temp, ignore_errors=True)
        return Result(status=outcome.status, wait_status=outcome.wait_status,
                      instructions=outcome.instructions, wall_s=wall, reason=outcome.reason,
                      messages=messages, native_instructions=outcome.native_instructions,
                      native_entries=outcome.native_entries)

    def boot(self, root: str, binary: str, argv=None, env=None, on_message=None, clock=None) -> Kernel:
        """A kernel with `binary` loaded as its first process, not yet run.

        `run` drives it with scheduler.run; a debugger drives it with
        scheduler.Scheduler.  `clock` replaces the Clock made from seed and
        host_time (record and replay pass theirs).  Raises ElfError when the
        file cannot be loaded.
        """
        api = self.cpu_api
        if api is None:
            from ncpu.arm64 import cpu as api
        if clock is None:
            clock = Clock(seed=self.seed, host=self.host_time)
        kernel = Kernel(root, clock=clock, cpu_api=api,
                        on_message=on_message, stdio=self.stdio, memory=self.memory,
                        max_procs=self.max_procs)
        if argv is None:
            argv = [kernel.fs.guest_of_host(binary) or binary]
        if env is None:
            env = self.env
        kernel.spawn(binary, [os.fsencode(a) for a in argv], _environment(env), cwd=self.cwd)
        return kernel


def _environment(env) -> list[bytes]:
    if env is None:
        env = os.environ
    if isinstance(env, dict) or hasattr(env, "items"):
        return [os.fsencode(k) + b"=" + os.fsencode(v) for k, v in env.items()]
    return [os.fsencode(e) for e in env]
