"""Numbers and binary layouts of the AArch64 Linux user ABI.

Everything here is fixed by the kernel's uapi headers (asm-generic/unistd.h,
asm-generic/stat.h, asm/sigcontext.h); the offsets were checked against
programs built with aarch64-linux-gnu-gcc.
"""

from __future__ import annotations

import struct

from ncpu.arm64.cpu.int_ops import sextn

PAGE = 4096
MASK64 = (1 << 64) - 1


def page_down(value: int) -> int:
    return value & ~(PAGE - 1)


def page_up(value: int) -> int:
    return (value + PAGE - 1) & ~(PAGE - 1)


def signed64(value: int) -> int:
    return sextn.py_func(value, 64)


def signed32(value: int) -> int:
    return sextn.py_func(value, 32)


# --- memory protection and mmap -------------------------------------------------
PROT_READ, PROT_WRITE, PROT_EXEC = 1, 2, 4
MAP_SHARED, MAP_PRIVATE, MAP_FIXED, MAP_ANONYMOUS = 0x01, 0x02, 0x10, 0x20
MAP_FIXED_NOREPLACE = 0x100000
MREMAP_MAYMOVE, MREMAP_FIXED = 1, 2

# --- open(2) flags: AArch64 differs from x86-64 for the four below --------------
O_ACCMODE = 0o3
O_RDONLY, O_WRONLY, O_RDWR = 0, 1, 2
O_CREAT, O_EXCL, O_NOCTTY, O_TRUNC, O_APPEND = 0o100, 0o200, 0o400, 0o1000, 0o2000
O_NONBLOCK, O_DSYNC = 0o4000, 0o10000
O_DIRECTORY, O_NOFOLLOW, O_DIRECT, O_LARGEFILE = 0o40000, 0o100000, 0o200000, 0o400000
O_NOATIME, O_CLOEXEC, O_PATH = 0o1000000, 0o2000000, 0o10000000
O_TMPFILE = 0o20000000

AT_FDCWD = -100
AT_SYMLINK_NOFOLLOW, AT_REMOVEDIR, AT_SYMLINK_FOLLOW = 0x100, 0x200, 0x400
AT_EACCESS, AT_EMPTY_PATH = 0x200, 0x1000
RENAME_NOREPLACE, RENAME_EXCHANGE = 1, 2
UTIME_NOW, UTIME_OMIT = (1 << 30) - 1, (1 << 30) - 2

F_DUPFD, F_GETFD, F_SETFD, F_GETFL, F_SETFL = 0, 1, 2, 3, 4
F_GETLK, F_SETLK, F_SETLKW = 5, 6, 7
F_DUPFD_CLOEXEC = 1030
FD_CLOEXEC = 1
SEEK_SET, SEEK_CUR, SEEK_END = 0, 1, 2

# --- ioctl requests (generic numbering, same as x86-64) ------------------------
TCGETS, TCSETS, TCSETSW, TCSETSF = 0x5401, 0x5402, 0x5403, 0x5404
TIOCSCTTY, TIOCGPGRP, TIOCSPGRP = 0x540E, 0x540F, 0x5410
TIOCGWINSZ, TIOCSWINSZ, FIONREAD, FIONBIO = 0x5413, 0x5414, 0x541B, 0x5421

# --- file types ----------------------------------------------------------------
S_IFMT, S_IFSOCK, S_IFLNK, S_IFREG = 0o170000, 0o140000, 0o120000, 0o100000
S_IFBLK, S_IFDIR, S_IFCHR, S_IFIFO = 0o60000, 0o40000, 0o20000, 0o10000
DT_UNKNOWN, DT_FIFO, DT_CHR, DT_DIR, DT_BLK, DT_REG, DT_LNK, DT_SOCK = 0, 1, 2, 4, 6, 8, 10, 12

# --- clone / wait --------------------------------------------------------------
CLONE_VM, CLONE_FS, CLONE_FILES, CLONE_SIGHAND = 0x100, 0x200, 0x400, 0x800
CLONE_VFORK, CLONE_PARENT, CLONE_THREAD = 0x4000, 0x8000, 0x10000
CLONE_SETTLS, CLONE_PARENT_SETTID, CLONE_CHILD_CLEARTID = 0x80000, 0x100000, 0x200000
CLONE_CHILD_SETTID = 0x1000000
WNOHANG, WUNTRACED = 1, 2

# --- signals -------------------------------------------------------------------
SIGHUP, SIGINT, SIGQUIT, SIGILL, SIGTRAP, SIGABRT, SIGBUS, SIGFPE = 1, 2, 3, 4, 5, 6, 7, 8
SIGKILL, SIGUSR1, SIGSEGV, SIGUSR2, SIGPIPE, SIGALRM, SIGTERM = 9, 10, 11, 12, 13, 14, 15
SIGCHLD, SIGCONT, SIGSTOP, SIGTSTP, SIGTTIN, SIGTTOU, SIGURG = 17, 18, 19, 20, 21, 22, 23
SIGXCPU, SIGXFSZ, SIGVTALRM, SIGPROF, SIGWINCH, SIGIO, SIGPWR, SIGSYS = 24, 25, 26, 27, 28, 29, 30, 31
NSIG = 64
SIG_DFL, SIG_IGN = 0, 1
SA_SIGINFO, SA_ONSTACK, SA_RESTART = 0x4, 0x08000000, 0x10000000
SA_NODEFER, SA_RESETHAND, SA_RESTORER = 0x40000000, 0x80000000, 0x04000000
SIG_BLOCK, SIG_UNBLOCK, SIG_SETMASK = 0, 1, 2
SS_ONSTACK, SS_DISABLE = 1, 2
SI_USER, SI_TKILL, SI_KERNEL = 0, -6, 0x80
SEGV_MAPERR, SEGV_ACCERR, ILL_ILLOPC, TRAP_BRKPT, BUS_ADRALN = 1, 2, 1, 1, 1
CLD_EXITED, CLD_KILLED = 1, 2

SIGNAL_NAMES = {
    1: "SIGHUP", 2: "SIGINT", 3: "SIGQUIT", 4: "SIGILL", 5: "SIGTRAP", 6: "SIGABRT",
    7: "SIGBUS", 8: "SIGFPE", 9: "SIGKILL", 10: "SIGUSR1", 11: "SIGSEGV", 12: "SIGUSR2",
    13: "SIGPIPE", 14: "SIGALRM", 15: "SIGTERM", 16: "SIGSTKFLT", 17: "SIGCHLD",
    18: "SIGCONT", 19: "SIGSTOP", 20: "SIGTSTP", 21: "SIGTTIN", 22: "SIGTTOU",
    23: "SIGURG", 24: "SIGXCPU", 25: "SIGXFSZ", 26: "SIGVTALRM", 27: "SIGPROF",
    28: "SIGWINCH", 29: "SIGIO", 30: "SIGPWR", 31: "SIGSYS",
}

# --- auxiliary vector ----------------------------------------------------------
AT_NULL, AT_PHDR, AT_PHENT, AT_PHNUM, AT_PAGESZ, AT_BASE, AT_FLAGS, AT_ENTRY = 0, 3, 4, 5, 6, 7, 8, 9
AT_UID, AT_EUID, AT_GID, AT_EGID, AT_PLATFORM, AT_HWCAP, AT_CLKTCK = 11, 12, 13, 14, 15, 16, 17
AT_SECURE, AT_RANDOM, AT_HWCAP2, AT_EXECFN, AT_MINSIGSTKSZ = 23, 25, 26, 31, 51

# --- clocks, limits ------------------------------------------------------------
CLOCK_REALTIME, CLOCK_MONOTONIC, CLOCK_PROCESS_CPUTIME_ID, CLOCK_THREAD_CPUTIME_ID = 0, 1, 2, 3
CLOCK_MONOTONIC_RAW, CLOCK_REALTIME_COARSE, CLOCK_MONOTONIC_COARSE, CLOCK_BOOTTIME = 4, 5, 6, 7
TIMER_ABSTIME = 1
RLIM_INFINITY = MASK64
RLIMIT_STACK, RLIMIT_NOFILE, RLIMIT_AS = 3, 7, 9

# --- binary layouts ------------------------------------------------------------
# struct stat (asm-generic, 128 bytes)
STAT = struct.Struct("<QQIIIIQQqiiqqQqQqQII")
# struct statx (256 bytes): header, then 4 timestamps, then device numbers
STATX_HEAD = struct.Struct("<IIQIIIHHQQQQ")
STATX_TS = struct.Struct("<qIi")
STATX_BASIC_STATS = 0x7FF
TIMESPEC = struct.Struct("<qq")
IOVEC = struct.Struct("<QQ")
RLIMIT = struct.Struct("<QQ")
WINSIZE = struct.Struct("<HHHH")
SIGACTION = struct.Struct("<QQQQ")  # handler, flags, restorer, mask
STACK_T = struct.Struct("<QiiQ")  # ss_sp, ss_flags, pad, ss_size
DIRENT64_HEAD = struct.Struct("<QqHB")
UTSNAME_FIELD = 65
SYSINFO = struct.Struct("<q3QQQQQQQHH4xQQI4x")
TMS = struct.Struct("<qqqq")
RUSAGE_SIZE = 144

# signal frame (struct rt_sigframe: siginfo, then ucontext)
SIGINFO_SIZE = 128
UC_STACK, UC_SIGMASK, UC_MCONTEXT = 16, 40, 176
MC_FAULT, MC_REGS, MC_SP, MC_PC, MC_PSTATE, MC_RESERVED = 0, 8, 256, 264, 272, 288
MC_RESERVED_SIZE = 4096
UCONTEXT_SIZE = UC_MCONTEXT + MC_RESERVED + MC_RESERVED_SIZE  # 4560
FPSIMD_MAGIC, FPSIMD_SIZE = 0x46508001, 528
SIGFRAME_SIZE = SIGINFO_SIZE + UCONTEXT_SIZE  # 4688, then a 16-byte frame record


def pack_stat(st, *, rdev: int = 0) -> bytes:
    """Pack a host os.stat_result into the guest's struct stat."""
    return STAT.pack(
        st.st_dev & MASK64, st.st_ino & MASK64, st.st_mode, st.st_nlink & 0xFFFFFFFF,
        st.st_uid, st.st_gid, rdev or getattr(st, "st_rdev", 0), 0, st.st_size,
        getattr(st, "st_blksize", 4096), 0, getattr(st, "st_blocks", 0),
        int(st.st_atime_ns // 10**9), st.st_atime_ns % 10**9,
        int(st.st_mtime_ns // 10**9), st.st_mtime_ns % 10**9,
        int(st.st_ctime_ns // 10**9), st.st_ctime_ns % 10**9, 0, 0,
    )


def pack_statx(st, *, rdev: int = 0) -> bytes:
    """Pack a host os.stat_result into the guest's struct statx."""
    rdev = rdev or getattr(st, "st_rdev", 0)
    head = STATX_HEAD.pack(
        STATX_BASIC_STATS, getattr(st, "st_blksize", 4096), 0, st.st_nlink & 0xFFFFFFFF,
        st.st_uid, st.st_gid, st.st_mode & 0xFFFF, 0, st.st_ino & MASK64, st.st_size,
        getattr(st, "st_blocks", 0), 0,
    )
    def ts(ns: int) -> bytes:
        return STATX_TS.pack(ns // 10**9, ns % 10**9, 0)
    times = ts(st.st_atime_ns) + ts(st.st_ctime_ns) + ts(st.st_ctime_ns) + ts(st.st_mtime_ns)
    devs = struct.pack("<IIII", (rdev >> 8) & 0xFFF, rdev & 0xFF,
                       (st.st_dev >> 8) & 0xFFF, st.st_dev & 0xFF)
    data = head + times + devs
    return data + bytes(256 - len(data))


def makedev(major: int, minor: int) -> int:
    return (major << 8) | minor
