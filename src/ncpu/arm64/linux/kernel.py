"""The kernel side of the machine: processes, exec, exit, signals, system call dispatch.

All guest processes live in one Kernel; `scheduler.run` drives their
threads.  `procs` holds processes (by the tid of their first thread, which is
the pid), `tasks` every live thread (by tid).  Nothing
here prints: diagnostics go through `Kernel.message` (the CLI passes a
callback that writes them to stderr).
"""

from __future__ import annotations

import errno
import os
import stat as stat_mod
import time

from ncpu.arm64.cpu import GuestFault
from ncpu.arm64.cpu.frames import DEFAULT_BUDGET, FramePool, OutOfMemory

from . import abi, elf, signals, stack, threads
from .clock import Clock
from .errors import ElfError, ExecError, InterpreterMissing, SyscallError, WouldBlock
from .files import FdTable, HostFile, read_host
from .fs import FileSystem
from .futex import FutexTable
from .hostio import HostIO
from .net import Network
from .terminal import TerminalFile
from .process import Process, SigAction, new_process
from .syscalls import NO_RESULT, TABLE

FIRST_PID = 1000            # the first guest process (its parent, 999, is outside the machine)
MAX_SHEBANG_DEPTH = 4
MAX_EXE_SIZE = 256 << 20
DEFAULT_MAX_PROCS = 256     # processes and threads alive at once (`ncpu arm64 --max-procs`)


class Kernel:
    def __init__(self, root: str, *, clock: Clock, cpu_api, on_message=None,
                 stdio: tuple[int, int, int] = (0, 1, 2), memory: int = DEFAULT_BUDGET,
                 max_procs: int = DEFAULT_MAX_PROCS):
        self.fs = FileSystem(root)
        self.fs.is_live_pid = lambda pid: pid in self.tasks      # /proc/PID exists while PID runs
        self.pool = FramePool(memory)           # the machine's physical memory, shared by every process
        self.max_procs = max_procs
        self.oom: str | None = None             # set when the machine ran out of memory (it stops)
        self.clock = clock
        if not clock.host:                      # file times the host stamps during the run (fs.py)
            self.fs.run_began_ns, self.fs.guest_now_ns = time.time_ns(), clock.realtime_ns
        self.api = cpu_api                      # module with Memory, CpuState, Cpu
        self.on_message = on_message
        self.stdio = stdio
        self.procs: dict[int, Process] = {}     # pid -> first thread of the process
        self.tasks: dict[int, Process] = {}     # tid -> live thread
        self.futex = FutexTable()
        self.net = Network(self)                # sockets: names, ports, connections
        self.host = HostIO(self)                # --publish and the terminal
        self.next_pid = FIRST_PID
        self.uid, self.gid = os.getuid(), os.getgid()
        self.rlimits = {abi.RLIMIT_STACK: (stack.STACK_SIZE, abi.RLIM_INFINITY),
                        abi.RLIMIT_NOFILE: (1024, 1024)}
        self.reported: set[int] = set()
        self.init: Process | None = None
        self.current: Process | None = None
        self.yielded = False                    # the running process gave up its slice
        self.native_instructions = 0            # of the instructions retired, those in native code
        self.native_entries = 0                 # and the times the loop entered it (Stop.native, .entered)
        self.pause = False                      # a debugger wants to look now: the slice goes on later
        # None, or a debugger's object told of each system call and of the guest memory it
        # reads and writes: enter(proc, nr, args), access(proc, addr, data, write), leave(proc, nr, args)
        self.watcher = None
        self.procs_to_drop: list[int] = []

    # --- diagnostics ----------------------------------------------------------
    def message(self, text: str) -> None:
        if self.on_message is not None:
            self.on_message(text)

    # --- process creation -------------------------------------------------------
    def spawn(self, host_path: str, argv: list[bytes], envp: list[bytes], cwd: str = "/") -> Process:
        """Create the first process running the host file `host_path`, in guest directory `cwd`."""
        fds = FdTable()
        for fd, host in enumerate(self.stdio):
            try:
                acc = _host_accmode(host)
            except OSError:
                continue                       # a closed host descriptor stays closed in the guest
            if os.isatty(host):                  # the guest's terminal is the host's (terminal.py)
                fds.install(TerminalFile(host, acc, f"/dev/fd{fd}", self.host), at=fd)
                if self.host.terminal_fd is None:
                    self.host.terminal_fd = host
            else:
                fds.install(HostFile(host, acc, f"/dev/fd{fd}", owned=False), at=fd)
        guest = self.fs.guest_of_host(host_path) or os.path.abspath(host_path)
        try:
            node = self.fs.resolve(cwd, "/")
        except SyscallError:
            node = None
        if node is None or node.kind != "host" or not os.path.isdir(node.host_path):
            raise ElfError(f"{cwd}: no such directory in the root")
        proc = new_process(self.new_pid(), FIRST_PID - 1, mem=None, state=None, cpu=None,
                           fds=fds, exe_host=host_path, exe_guest=guest, cwd=node.guest)
        proc.pgid = proc.sid = proc.pid
        try:
            data = read_host(host_path, MAX_EXE_SIZE)
        except OSError as error:
            raise ElfError(f"{host_path}: {error.strerror}") from None
        execfn = argv[0] if argv else os.fsencode(guest)
        try:
            self._load(proc, data, host_path, argv, envp, execfn)
        except OutOfMemory as error:
            raise ElfError(f"{host_path}: {error}") from None
        self.procs[proc.pid] = proc
        self.tasks[proc.pid] = proc
        self.init = proc
        return proc

    def new_pid(self) -> int:
        pid = self.next_pid
        self.next_pid += 1
        return pid

    def _load(self, proc: Process, data: bytes, name: str, argv, envp, execfn: bytes) -> None:
        """Replace proc's address space and registers with a fresh image (ElfError on bad files)."""
        mem = self.api.Memory(pool=self.pool)
        try:
            image = elf.load(mem, data, name)
            start, interp_base = image.entry, 0
            if image.interp is not None:
                interp = self._load_interpreter(mem, image.interp, name)
                start, interp_base = interp.entry, interp.bias
            signals.map_trampoline(mem)
            sp = stack.build(mem, image, argv, envp, execfn=execfn, random16=self.clock.random_bytes(16),
                             uid=self.uid, gid=self.gid, interp_base=interp_base)
        except ValueError:
            mem.release()
            raise ExecError(errno.E2BIG) from None
        except BaseException:
            mem.release()                       # the frames it took go back to the pool
            raise
        state = self.api.CpuState()
        state.sp, state.pc = sp, start
        proc.mem, proc.state = mem, state
        proc.cpu = self.api.Cpu(mem, state)
        proc.brk_start = proc.brk = image.brk

    def _load_interpreter(self, mem, path: bytes, name: str) -> elf.Image:
        """Load a dynamic program's interpreter, found inside the root, at elf.INTERP_BASE."""
        shown = path.decode(errors="replace")
        try:
            node = self.fs.resolve(path, "/")
        except SyscallError:
            node = None
        if node is None or node.kind != "host" or not node.exists or not os.path.isfile(node.host_path):
            raise InterpreterMissing(f"{name}: its interpreter {shown} is not in the root "
                                     "(build one: ncpu arm64-root)")
        data = read_host(node.host_path, MAX_EXE_SIZE)
        image = elf.load(mem, data, shown, base=elf.INTERP_BASE)
        if image.interp is not None:
            raise ElfError(f"{name}: its interpreter {shown} itself names an interpreter")
        return image

    def fork(self, parent: Process, *, stack: int = 0) -> Process:
        """A new process running a copy of the calling thread only (POSIX fork).
        The address space is shared copy-on-write; EAGAIN beyond max_procs, ENOMEM
        when the free memory could not back a copy of every private page."""
        if len(self.tasks) >= self.max_procs:
            raise SyscallError(errno.EAGAIN)
        if parent.mem.private_resident() > self.pool.free_frames:
            raise SyscallError(errno.ENOMEM)
        state = parent.state.copy()
        state.x[0] = 0
        if stack:
            state.sp = stack
        mem = parent.mem.fork()
        child = new_process(self.new_pid(), parent.tgid, mem=mem, state=state,
                            cpu=self.api.Cpu(mem, state), fds=parent.fds.fork(),
                            exe_host=parent.exe_host, exe_guest=parent.exe_guest, cwd=parent.cwd,
                            pgid=parent.pgid, sid=parent.sid, umask=parent.umask,
                            brk_start=parent.brk_start, brk=parent.brk,
                            actions={s: SigAction(a.handler, a.flags, a.restorer, a.mask)
                                     for s, a in parent.actions.items()})
        child.sigmask, child.altstack = parent.sigmask, parent.altstack
        # fork returns in the child just after its svc, with x0 = 0
        self.procs[child.pid] = child
        self.tasks[child.pid] = child
        return child

    def execve(self, proc: Process, path: bytes, argv: list[bytes], envp: list[bytes]) -> None:
        """Replace proc's program; raises SyscallError if it cannot (the old image stays)."""
        host, guest, data = self._read_executable(proc, path)
        execfn = path
        for _ in range(MAX_SHEBANG_DEPTH):
            if not data.startswith(b"#!"):
                break
            line = data[2:].split(b"\n", 1)[0].strip()
            if not line:
                raise SyscallError(errno.ENOEXEC)
            interp, _, arg = line.partition(b" ")
            arg = arg.strip()
            argv = [interp] + ([arg] if arg else []) + [path] + argv[1:]
            path = interp
            host, guest, data = self._read_executable(proc, interp)
        else:
            raise SyscallError(errno.ELOOP)
        old = (proc.mem, proc.state, proc.cpu, proc.brk_start, proc.brk)
        try:
            self._load(proc, data, os.path.basename(host), argv, envp, execfn)
        except ElfError as error:
            proc.mem, proc.state, proc.cpu, proc.brk_start, proc.brk = old
            raise SyscallError(error.errno) from None
        except ExecError as error:
            proc.mem, proc.state, proc.cpu, proc.brk_start, proc.brk = old
            raise SyscallError(error.errno) from None
        except OutOfMemory:
            proc.mem, proc.state, proc.cpu, proc.brk_start, proc.brk = old
            raise SyscallError(errno.ENOMEM) from None
        old[0].release()                         # the old image's frames (and shared file pages written back)
        proc.exe_host, proc.exe_guest = host, guest
        proc.fds.close_on_exec()
        for action in proc.actions.values():
            if action.handler != abi.SIG_IGN:
                action.handler, action.flags, action.restorer, action.mask = abi.SIG_DFL, 0, 0, 0
        proc.altstack = (0, abi.SS_DISABLE, 0)
        proc.tid_address = 0
        threads.after_exec(self, proc)

    def _read_executable(self, proc: Process, path: bytes) -> tuple[str, str, bytes]:
        node = self.fs.resolve(path, proc.cwd, fd_links=proc.fds.files)
        if node.kind == "exe":
            host, guest = proc.exe_host, proc.exe_guest
        elif node.kind == "host":
            if not node.exists:
                raise SyscallError(errno.ENOENT)
            host, guest = node.host_path, node.guest
            st = os.stat(host)
            if not stat_mod.S_ISREG(st.st_mode) or not st.st_mode & 0o111:
                raise SyscallError(errno.EACCES)
        else:
            raise SyscallError(errno.EACCES)
        try:
            data = read_host(host, MAX_EXE_SIZE)
        except OSError as error:
            raise SyscallError(error.errno or errno.EIO) from None
        return host, guest, data

    # --- process end --------------------------------------------------------------
    def exit(self, proc: Process, wait_status: int) -> None:
        """proc's whole process (every thread) becomes a zombie with wait status `wait_status`."""
        if not proc.alive:
            return
        group = proc.group
        group.exit_status = wait_status
        for task in list(group.threads):
            threads.retire(self, task)
        proc.fds.close_all()
        if proc.mem is not None:
            proc.mem.release()                   # frames back to the pool, shared file pages written back
        proc.mem = None
        proc = self.procs[group.tgid]            # the parent sees the process, by its pid
        for child in self.procs.values():
            if child.ppid == proc.pid:
                child.ppid = FIRST_PID - 1       # orphans: nobody will wait for them
                if not child.alive:
                    self.procs_to_drop.append(child.pid)
        parent = self.procs.get(proc.ppid)
        if parent is None or not parent.alive:
            if proc is not self.init:
                self.procs_to_drop.append(proc.pid)
            return
        action = parent.action(abi.SIGCHLD)
        if action.handler == abi.SIG_IGN:
            self.procs_to_drop.append(proc.pid)    # SIG_IGN for SIGCHLD: auto-reap
            return
        code, value = (abi.CLD_EXITED, wait_status >> 8) if wait_status & 0x7F == 0 else (abi.CLD_KILLED, wait_status & 0x7F)
        self.send_signal(parent, abi.SIGCHLD, signals.siginfo(abi.SIGCHLD, code, pid=proc.pid, uid=self.uid, status=value))

    def drop_orphans(self) -> None:
        for pid in self.procs_to_drop:
            proc = self.procs.get(pid)
            if proc is not None and not proc.alive and proc is not self.init:
                del self.procs[pid]
        self.procs_to_drop.clear()

    def children(self, proc: Process) -> list[Process]:
        return [c for c in self.procs.values() if c.ppid == proc.tgid]

    def reap(self, parent: Process, child: Process) -> None:
        parent.children_instructions += child.instructions + child.children_instructions
        self.procs.pop(child.pid, None)

    def is_init(self, proc: Process) -> bool:
        """proc is a thread of the first process (whose faults are reported)."""
        return self.init is not None and proc.group is self.init.group

    def _debug_exit(self, proc, why):
        # child processes die silently, as on Linux; NCPU_DEBUG=1 says why
        if os.environ.get("NCPU_DEBUG"):
            self.message(f"[{proc.pid}] {why}")

    def kill_by_signal(self, proc: Process, signo: int, why: str = "") -> None:
        if why and self.is_init(proc):
            self.message(f"{why}: killed by {abi.SIGNAL_NAMES.get(signo, signo)}")
        self.exit(proc, signo)

    # --- signals ------------------------------------------------------------------
    def send_signal(self, proc: Process, signo: int, info: bytes | None = None, *,
                    thread: bool = False) -> None:
        """Signal proc's process, or (thread=True, tgkill) the thread proc itself."""
        if not proc.alive:
            return
        if info is None:
            info = signals.siginfo(signo, abi.SI_KERNEL)
        action = proc.action(signo)
        if action.handler == abi.SIG_IGN and signo != abi.SIGKILL:
            return
        if action.handler == abi.SIG_DFL and signo in signals.DEFAULT_IGNORE:
            return
        if signo == abi.SIGKILL:
            self.exit(proc, signo)
            return
        if thread:
            if not proc.running:
                return
        else:
            proc = _receiver(proc.group, signo)
        if any(s == signo for s, _ in proc.pending) and signo < 32:
            return                                  # standard signals do not queue
        proc.pending.append((signo, info))

    def deliver(self, proc: Process) -> None:
        """Act on the first pending signal proc does not block (before it runs again)."""
        for i, (signo, info) in enumerate(proc.pending):
            if proc.sigmask & signals.bit(signo):
                continue
            del proc.pending[i]
            action = proc.action(signo)
            if action.handler == abi.SIG_IGN or (action.handler == abi.SIG_DFL and signo in signals.DEFAULT_IGNORE):
                return self.deliver(proc)
            if action.handler == abi.SIG_DFL:
                self._debug_exit(proc, f"killed by pending signal {signo}")
                self.exit(proc, signo)
                return
            saved = None
            if proc.blocked_call is not None:
                nr, args = proc.blocked_call
                proc.blocked_call = None
                woken = proc.futex_waiter is not None and proc.futex_waiter.woken
                self.futex.cancel(proc)
                if woken:                              # the wake-up came first: keep it
                    proc.state.x[0] = 0
                elif nr == 133:                        # rt_sigsuspend: always -EINTR
                    saved, proc.suspend_mask = proc.suspend_mask, None
                    proc.state.x[0] = (-errno.EINTR) & abi.MASK64
                elif action.flags & abi.SA_RESTART:
                    proc.state.pc = proc.state.pc - 4    # run the svc again after the handler
                else:
                    proc.state.x[0] = (-errno.EINTR) & abi.MASK64
            try:
                signals.setup_frame(proc, signo, info, action, saved_mask=saved)
            except GuestFault:
                self.kill_by_signal(proc, abi.SIGSEGV, "cannot push signal frame")
            return

    def fault(self, proc: Process, signo: int, code: int, address: int, why: str) -> None:
        """A synchronous fault: run the guest handler, or end the process."""
        action = proc.action(signo)
        blocked = proc.sigmask & signals.bit(signo)
        if action.handler in (abi.SIG_DFL, abi.SIG_IGN) or blocked:
            if self.is_init(proc):
                self.message(why)
            else:
                self._debug_exit(proc, why)
            self.exit(proc, signo)
            return
        self._debug_exit(proc, f"{why} (to the guest's handler)")
        info = signals.siginfo(signo, code, addr=address)
        try:
            signals.setup_frame(proc, signo, info, action, fault_address=address)
        except GuestFault:
            if self.is_init(proc):
                self.message(why)
            self.exit(proc, signo)

    def out_of_memory(self, error: OutOfMemory) -> None:
        """A page the guest needs has no frame left: the machine stops (scheduler: reason "oom")."""
        if self.oom is None:
            self.oom = str(error)
            self.message(f"out of memory: {error} (--memory)")

    def yield_now(self, proc: Process) -> None:
        self.yielded = True

    # --- system calls -----------------------------------------------------------------
    def syscall(self, proc: Process, nr: int | None = None, args: tuple | None = None) -> bool:
        """Run one system call for proc; False if it blocked (to be retried)."""
        x = proc.state.x
        if nr is None:
            nr = int(x[8])
            args = tuple(int(v) for v in x[:6])
        entry = TABLE.get(nr)
        if entry is None:
            if nr not in self.reported:
                self.reported.add(nr)
                self.message(f"unknown system call {nr} (returning -ENOSYS)")
            x[0] = (-errno.ENOSYS) & abi.MASK64
            return True
        try:
            if self.watcher is None:
                result = entry[1](self, proc, *args)
            else:
                result = self._watched(entry[1], proc, nr, args)
        except OutOfMemory as error:
            self.out_of_memory(error)
            return True
        except WouldBlock:
            proc.blocked_call = (nr, args)
            return False
        except SyscallError as error:
            result = -error.errno
        proc.blocked_call = None
        if result is not NO_RESULT and proc.alive:
            proc.state.x[0] = int(result) & abi.MASK64
        return True

    def _watched(self, handler, proc: Process, nr: int, args: tuple):
        """Run a handler with the watcher told of its guest memory copies (syscalls.observe)."""
        from . import syscalls
        watcher = self.watcher
        watcher.enter(proc, nr, args)
        syscalls.observe = watcher.access
        try:
            return handler(self, proc, *args)
        finally:
            syscalls.observe = None
            watcher.leave(proc, nr, args)

    def stamp_fd(self, fd: int) -> None:
        now = self.clock.realtime_ns()
        try:
            os.utime(fd, ns=(now, now))
        except OSError:
            pass


def _receiver(group, signo: int) -> Process:
    """The thread that takes a process-directed signal: the first (by age) not blocking it."""
    live = group.threads
    for task in live:
        if not task.sigmask & signals.bit(signo):
            return task
    return live[0]


def _host_accmode(fd: int) -> int:
    import fcntl
    flags = fcntl.fcntl(fd, fcntl.F_GETFL)
    acc = flags & os.O_ACCMODE
    return acc | (abi.O_APPEND if flags & os.O_APPEND else 0)
