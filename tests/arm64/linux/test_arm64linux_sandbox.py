"""Guest paths never leave the root: `..`, absolute paths and symlinks are resolved inside it."""

from __future__ import annotations

import errno
import os

import pytest

from ncpu.arm64.linux.errors import SyscallError
from ncpu.arm64.linux.fs import FileSystem


@pytest.fixture
def tree(tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret").write_text("host secret")
    root = tmp_path / "root"
    (root / "etc").mkdir(parents=True)
    (root / "etc" / "passwd").write_text("guest passwd\n")
    (root / "dir").mkdir()
    os.symlink("/etc/passwd", root / "abs_link")                 # absolute: means the guest's /etc
    os.symlink("../../../../outside/secret", root / "dir" / "up_link")
    os.symlink(str(outside / "secret"), root / "host_abs_link")  # a host path, seen from the guest
    os.symlink("loop2", root / "loop1")
    os.symlink("loop1", root / "loop2")
    os.symlink("dir", root / "dirlink")
    return FileSystem(str(root)), root, outside


def test_dotdot_stops_at_root(tree):
    fs, root, _ = tree
    node = fs.resolve("/../../../etc/passwd", "/")
    assert node.host_path == str(root / "etc" / "passwd")
    assert fs.resolve("../../etc/passwd", "/dir").host_path == str(root / "etc" / "passwd")
    assert fs.resolve("..", "/").host_path == str(root)


def test_absolute_symlink_is_inside_root(tree):
    fs, root, _ = tree
    assert fs.resolve("/abs_link", "/").host_path == str(root / "etc" / "passwd")


def test_relative_symlink_escape_is_clamped(tree):
    fs, root, outside = tree
    # ../../../../outside/secret from /dir climbs to the guest's / and looks for /outside there
    with pytest.raises(SyscallError) as info:
        fs.resolve("/dir/up_link", "/")
    assert info.value.errno == errno.ENOENT
    (root / "outside").mkdir()
    (root / "outside" / "secret").write_text("guest file")
    assert fs.resolve("/dir/up_link", "/").host_path == str(root / "outside" / "secret")


def test_host_absolute_symlink_is_reinterpreted(tree):
    fs, root, outside = tree
    # the host path in the link is read as a guest path: nothing there
    with pytest.raises(SyscallError) as info:
        fs.resolve("host_abs_link", "/")
    assert info.value.errno == errno.ENOENT


def test_symlink_loop_is_eloop(tree):
    fs, *_ = tree
    with pytest.raises(SyscallError) as info:
        fs.resolve("/loop1", "/")
    assert info.value.errno == errno.ELOOP


def test_nofollow_keeps_last_link(tree):
    fs, root, _ = tree
    assert fs.resolve("/dirlink", "/", follow=False).host_path == str(root / "dirlink")
    assert fs.resolve("/dirlink/", "/", follow=False).host_path == str(root / "dir")


def test_missing_intermediate_is_enoent_and_file_is_enotdir(tree):
    fs, *_ = tree
    with pytest.raises(SyscallError) as info:
        fs.resolve("/nope/x", "/")
    assert info.value.errno == errno.ENOENT
    with pytest.raises(SyscallError) as info:
        fs.resolve("/etc/passwd/x", "/")
    assert info.value.errno == errno.ENOTDIR


def test_virtual_nodes(tree):
    fs, *_ = tree
    assert fs.resolve("/dev/null", "/").kind == "dev"
    assert fs.resolve("/proc/self/exe", "/").kind == "exe"
    assert fs.resolve("/dev/stdout", "/", fd_links={1: None}).kind == "fdlink"


def test_proc_pid_exists_while_the_pid_lives(tree):
    """/proc/PID holds the per-process files of a live task; any other number is ENOENT."""
    fs, *_ = tree
    fs.is_live_pid = lambda pid: pid == 1000
    assert (fs.resolve("/proc/1000/maps", "/").kind, fs.resolve("/proc/1000/maps", "/").name) == ("vfile", "1000/maps")
    assert fs.resolve("/proc/1000", "/").kind == "vdir"
    assert sorted(fs.list_virtual("/proc/1000", [])) == [("maps", 8), ("status", 8)]
    for path in ("/proc/1001/maps", "/proc/01000/maps", "/proc/1000/maps/x"):
        with pytest.raises(SyscallError) as info:
            fs.resolve(path, "/")
        assert info.value.errno in (errno.ENOENT, errno.ENOTDIR), path
    for path in ("/proc/1001", "/proc/1000/environ"):                 # a missing last component
        assert fs.resolve(path, "/").exists is False, path


def test_guest_program_cannot_read_outside(tree, tmp_path):
    """End to end: busybox cat through every escape route finds nothing of the host's."""
    import shutil
    import arm64linux_harness as harness
    fs, root, outside = tree
    (root / "bin").mkdir()
    shutil.copy(harness.busybox(), root / "bin" / "busybox")
    script = ("cat /../outside/secret ../../outside/secret dir/up_link host_abs_link "
              f"{outside}/secret 2>/dev/null; cat /abs_link; cd /../..; pwd; ls")
    out = harness.run_ncpu(root / "bin" / "busybox", ["busybox", "sh", "-c", script], root)
    assert b"host secret" not in out.stdout
    assert out.stdout.splitlines() == [b"guest passwd", b"/", b"abs_link", b"bin", b"dir", b"dirlink",
                                       b"etc", b"host_abs_link", b"loop1", b"loop2"]
