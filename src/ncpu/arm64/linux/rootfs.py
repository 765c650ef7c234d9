"""Build a Debian arm64 root tree for the machine: `ncpu arm64-root DIR PACKAGE...`.

apt resolves the dependency tree for the arm64 architecture against an empty
package status (so the host's installed packages do not count), downloads the
.debs into the user cache, and `dpkg -x` unpacks each one into DIR.  Maintainer
scripts are not run (they are arm64 programs); `finish` does what programs
need of them instead:

- the merged-/usr layout: /bin, /sbin and /lib are links into /usr, as on a
  bookworm system with usrmerge (packages still ship files under /bin and /lib);
- the alternatives that postinst scripts register with update-alternatives
  (awk -> gawk, cc -> gcc...), highest priority first;
- /bin/sh -> bash when no package gave one (dash is not pulled in);
- /etc/passwd, /etc/group, /etc/nsswitch.conf (root and nobody, files only);
- Python's standard library byte-compiled (py3compile's work), with a host
  Python of the same version when there is one: otherwise the guest's python
  writes each .pyc on its first run, and the second run of the same program
  executes fewer instructions than the first;
- no ld.so cache: Debian's ld.so searches its multiarch directories
  (/lib/aarch64-linux-gnu, /usr/lib/aarch64-linux-gnu) without one, as
  `qemu-aarch64 -L` relies on too.

Only the apt and dpkg of the host are used; apt runs with private lists,
cache and status files and leaves the host's apt state alone.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

from ncpu.cachedir import user_cache_dir

ARCH = "arm64"
MERGED = ("bin", "sbin", "lib")
PASSWD = "root:x:0:0:root:/root:/bin/bash\nnobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n"
GROUP = "root:x:0:\nnogroup:x:65534:\n"
NSSWITCH = ("passwd:         files\ngroup:          files\nshadow:         files\n"
            "hosts:          files\nnetworks:       files\nprotocols:      files\nservices:       files\n")


class RootError(RuntimeError):
    """A root cannot be built (bad package name, apt or dpkg missing or failing): one line."""


@dataclass(frozen=True)
class Package:
    name: str
    version: str
    arch: str

    @property
    def deb_name(self) -> str:
        # apt's archive file name: the epoch's ':' is written %3a
        return f"{self.name}_{quote(self.version, safe='+~.-')}_{self.arch}.deb".replace("%3A", "%3a")


def cache_dir() -> Path:
    return user_cache_dir("arm64-root")


def _apt_options(cache: Path) -> list[str]:
    return ["-oAPT::Architecture=arm64", "-oAPT::Architectures=arm64",
            f"-oDir::State::Lists={cache / 'lists'}", f"-oDir::State::status={cache / 'status'}",
            f"-oDir::Cache={cache / 'apt'}", f"-oDir::Cache::archives={cache / 'debs'}",
            "-oDebug::NoLocking=1", "-oAPT::Sandbox::User=root", "-oAPT::Install-Recommends=0",
            "-oAPT::Get::AllowUnauthenticated=0", "-q"]


def _tool(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        raise RootError(f"{name} not found: building a Debian root needs apt-get and dpkg (a Debian host)")
    return path


def _prepare(cache: Path, update: bool) -> None:
    for sub in ("lists/partial", "debs/partial", "apt"):
        (cache / sub).mkdir(parents=True, exist_ok=True)
    (cache / "status").touch()
    if update or not any((cache / "lists").glob("*_Packages*")):
        done = subprocess.run([_tool("apt-get"), *_apt_options(cache), "update"], capture_output=True, text=True)
        if done.returncode != 0:
            raise RootError(f"apt-get update failed: {_last_error(done.stderr)}")


def _last_error(text: str) -> str:
    lines = [l for l in text.strip().splitlines() if l.strip()]
    errors = [l for l in lines if l.startswith("E:")]
    return (errors[0] if errors else lines[-1] if lines else "no output").removeprefix("E: ")


_INST = re.compile(r"^Inst (\S+) (?:\[[^\]]*\] )?\((\S+) .*\[(\S+)\]\)", re.M)


def resolve(packages: list[str], *, cache: Path | None = None, update: bool = False) -> list[Package]:
    """The whole dependency tree of `packages` for arm64 (RootError names a bad package)."""
    if not packages:
        raise RootError("no packages given")
    for name in packages:
        if not re.fullmatch(r"[a-z0-9][a-z0-9+.-]+", name):
            raise RootError(f"{name!r} is not a Debian package name")
    cache = cache or cache_dir()
    _prepare(cache, update)
    done = subprocess.run([_tool("apt-get"), *_apt_options(cache), "-s", "install", *packages],
                          capture_output=True, text=True)
    if done.returncode != 0:
        message = _last_error(done.stderr)
        missing = re.search(r"Unable to locate package (\S+)", done.stderr)
        if missing:
            message = f"no package named {missing.group(1)!r} for {ARCH}"
        elif "has no installation candidate" in done.stderr:
            message = _last_error(done.stderr)
        raise RootError(message)
    found = [Package(n, v, a) for n, v, a in _INST.findall(done.stdout)]
    if not found:
        raise RootError("apt resolved no packages")
    return found


def download(packages: list[Package], *, cache: Path | None = None, progress=None) -> list[Path]:
    """The .deb files of `packages`, downloaded into the cache when missing.

    `progress(done_fraction, text)` is called as apt reports (APT::Status-Fd).
    """
    cache = cache or cache_dir()
    debs = cache / "debs"
    missing = [p for p in packages if not (debs / p.deb_name).exists()]
    if missing:
        read, write = os.pipe()
        command = [_tool("apt-get"), *_apt_options(cache), f"-oAPT::Status-Fd={write}", "-y",
                   "install", "--download-only", *[f"{p.name}={p.version}" for p in missing]]
        with tempfile.TemporaryFile() as err:
            child = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=err, pass_fds=(write,))
            os.close(write)
            with os.fdopen(read, "r", errors="replace") as status:
                for line in status:
                    parts = line.rstrip("\n").split(":", 3)
                    if parts[0] == "dlstatus" and len(parts) == 4 and progress is not None:
                        progress(float(parts[2]) / 100, parts[3])
            code = child.wait()
            err.seek(0)
            text = err.read().decode(errors="replace")
        if code != 0:
            raise RootError(f"apt-get download failed: {_last_error(text)}")
    files = [debs / p.deb_name for p in packages]
    absent = [f.name for f in files if not f.exists()]
    if absent:
        raise RootError(f"apt did not download {absent[0]}")
    return files


def unpack(deb: Path, dest: Path) -> None:
    done = subprocess.run([_tool("dpkg"), "-x", str(deb), str(dest)], capture_output=True, text=True)
    if done.returncode != 0:
        raise RootError(f"dpkg -x {deb.name} failed: {_last_error(done.stderr)}")


def alternatives(deb: Path) -> list[tuple[int, str, str]]:
    """(priority, link, target) of every `update-alternatives --install` in the package's postinst."""
    with tempfile.TemporaryDirectory() as control:
        done = subprocess.run([_tool("dpkg"), "-e", str(deb), control], capture_output=True)
        script = Path(control) / "postinst"
        if done.returncode != 0 or not script.exists():
            return []
        text = script.read_text(errors="replace").replace("\\\n", " ")
    found = []
    for match in re.finditer(r"update-alternatives\s+.*?--install\s+(\S+)\s+(\S+)\s+(\S+)\s+(\d+)(.*)", text):
        link, _name, target, priority, rest = match.groups()
        found.append((int(priority), link, target))
        # slaves: --slave LINK NAME TARGET (man pages mostly; kept for completeness)
        for slave in re.finditer(r"--slave\s+(\S+)\s+(\S+)\s+(\S+)", rest):
            found.append((int(priority), slave.group(1), slave.group(3)))
    return [(p, l, t) for p, l, t in found if l.startswith("/") and t.startswith("/") and "$" not in l + t]


def _merge_usr(dest: Path) -> None:
    """Move /bin, /sbin, /lib into /usr and leave links behind (what usrmerge does)."""
    for name in MERGED:
        top, usr = dest / name, dest / "usr" / name
        if top.is_symlink():
            continue
        usr.mkdir(parents=True, exist_ok=True)
        if top.is_dir():
            _move_tree(top, usr)
            shutil.rmtree(top)
        top.symlink_to(f"usr/{name}")


def _move_tree(src: Path, dst: Path) -> None:
    for entry in os.scandir(src):
        target = dst / entry.name
        if entry.is_dir(follow_symlinks=False) and target.is_dir() and not target.is_symlink():
            _move_tree(Path(entry.path), target)
            continue
        if target.is_symlink() or target.exists():
            if target.is_dir() and not target.is_symlink():
                shutil.rmtree(target)
            else:
                target.unlink()
        os.replace(entry.path, target)


def _link(dest: Path, link: str, target: str) -> None:
    path = dest / link.lstrip("/")
    if not (dest / target.lstrip("/")).exists():
        return
    if path.is_symlink() or path.exists():
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    path.symlink_to(os.path.relpath(target, os.path.dirname(link)))


def byte_compile(dest: Path) -> list[str]:
    """Compile each usr/lib/python3.X with a host python3.X (the versions that had one)."""
    done = []
    for lib in sorted((dest / "usr" / "lib").glob("python3.*")):
        version = lib.name.removeprefix("python")
        mine = f"{sys.version_info.major}.{sys.version_info.minor}"
        python = sys.executable if version == mine else shutil.which(f"python{version}")
        if python is None or not lib.is_dir():
            continue
        result = subprocess.run([python, "-m", "compileall", "-q", "-j0", "-d", f"/usr/lib/{lib.name}", str(lib)],
                                capture_output=True)
        if result.returncode == 0:
            done.append(version)
    return done


def finish(dest: Path, alts: list[tuple[int, str, str]]) -> None:
    """Do what the maintainer scripts would have done that programs need (see module docstring)."""
    _merge_usr(dest)
    for _priority, link, target in sorted(alts, key=lambda a: -a[0]):
        _link(dest, link, target)
    _link(dest, "/usr/bin/sh", "/usr/bin/bash")
    etc = dest / "etc"
    etc.mkdir(exist_ok=True)
    for name, text in (("passwd", PASSWD), ("group", GROUP), ("nsswitch.conf", NSSWITCH)):
        if not (etc / name).exists():
            (etc / name).write_text(text)
    byte_compile(dest)
    for name in ("tmp", "root", "proc", "dev", "home"):
        (dest / name).mkdir(exist_ok=True)
    os.chmod(dest / "tmp", 0o1777)


def build(dest: str | os.PathLike, packages: list[str], *, update: bool = False, progress=None) -> list[Package]:
    """Build (or add to) the root at `dest`; returns the packages it holds.

    `progress(stage, done_fraction, text)`: stage is "download" or "unpack".
    """
    dest = Path(dest)
    if dest.exists() and not dest.is_dir():
        raise RootError(f"{dest}: not a directory")
    cache = cache_dir()
    found = resolve(packages, cache=cache, update=update)
    report = (lambda stage: (lambda f, t: progress(stage, f, t))) if progress else (lambda stage: None)
    files = download(found, cache=cache, progress=report("download"))
    dest.mkdir(parents=True, exist_ok=True)
    alts = []
    unpacked = report("unpack")
    for i, deb in enumerate(files):
        unpack(deb, dest)
        alts += alternatives(deb)
        if unpacked:
            unpacked((i + 1) / len(files), found[i].name)
    finish(dest, alts)
    return found


def cached_root(packages: list[str], *, progress=None) -> Path:
    """A root holding `packages`, built once into the cache (several processes may ask at once)."""
    import fcntl
    import hashlib

    key = hashlib.sha256(" ".join(sorted(packages)).encode()).hexdigest()[:12]
    path = cache_dir() / "roots" / key
    done = path / ".ncpu-root-complete"
    if done.exists():
        return path
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path.parent / f"{key}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not done.exists():
            shutil.rmtree(path, ignore_errors=True)
            build(path, packages, progress=progress)
            done.touch()
    return path
