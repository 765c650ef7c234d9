"""BusyBox applets and shell scripts: byte-identical to qemu-aarch64 on identical trees."""

from __future__ import annotations

import shutil
from concurrent.futures import ThreadPoolExecutor

import pytest

import arm64linux_harness as harness

TEXT = "line one 10\nline two 20\nthird line 5\nfourth: 40\nlast line 7\n"
WORDS = "pear\napple\nfig\napple\nbanana\nfig\napple\ncherry\n"
NUMS = "10\n9\n100\n-3\n42\n7\n"
PASSWD = "root:x:0:0:root:/root:/bin/sh\ndaemon:x:1:1:daemon:/usr/sbin:/bin/false\nuser:x:1000:1000::/home/user:/bin/sh\n"
FILES = {"input.txt": TEXT, "words.txt": WORDS, "nums.txt": NUMS, "data/passwd": PASSWD,
         "data/sub/a.txt": "alpha\n", "data/sub/b.txt": "beta\n", "data/c.log": "log\n",
         "bin.dat": bytes(range(256)) * 2}

# (argv after "busybox", stdin)
CASES = [
    (["echo", "hello", "world"], ""),
    (["echo", "-n", "no newline"], ""),
    (["printf", "%s-%d-%x-%5.2f|\\n", "a", "42", "255", "3.14159"], ""),
    (["cat", "input.txt", "words.txt"], ""),
    (["cat"], "from stdin\n"),
    (["wc", "input.txt"], ""),
    (["wc", "-l", "-w", "words.txt"], ""),
    (["sort", "words.txt"], ""),
    (["sort", "-n", "-r", "nums.txt"], ""),
    (["sort", "-u", "words.txt"], ""),
    (["uniq", "-c"], "a\na\nb\nc\nc\nc\na\n"),
    (["head", "-n", "3", "input.txt"], ""),
    (["tail", "-n", "2", "input.txt"], ""),
    (["cut", "-d:", "-f1,3", "data/passwd"], ""),
    (["cut", "-c", "2-5", "input.txt"], ""),
    (["tr", "a-z", "A-Z"], "Hello World\n"),
    (["tr", "-d", "aeiou"], "delete the vowels\n"),
    (["sed", "s/line/LINE/g;s/[0-9]\\+/<&>/", "input.txt"], ""),
    (["sed", "-n", "2,4p", "input.txt"], ""),
    (["awk", "{ s += $NF } END { print s, NR, s / NR }", "input.txt"], ""),
    (["awk", "-F:", "$3 >= 1 { printf \"%s=%d\\n\", $1, $3 * 2 }", "data/passwd"], ""),
    (["grep", "-E", "^(line|last) [a-z]+ [0-9]+$", "input.txt"], ""),
    (["grep", "-c", "-v", "-i", "LINE", "input.txt"], ""),
    (["grep", "-n", "-o", "[0-9][0-9]*", "input.txt"], ""),
    (["expr", "3", "*", "7", "+", "1"], ""),
    (["expr", "length", "hello"], ""),
    (["seq", "1", "3", "20"], ""),
    (["basename", "/a/b/c.txt", ".txt"], ""),
    (["dirname", "/a/b/c.txt"], ""),
    (["ls"], ""),
    (["ls", "-ln", "data"], ""),
    (["ls", "-a", "-R", "data"], ""),
    (["md5sum", "input.txt", "bin.dat"], ""),
    (["sha256sum", "input.txt"], ""),
    (["sha1sum", "words.txt"], ""),
    (["base64", "input.txt"], ""),
    (["od", "-A", "x", "-t", "x1z", "input.txt"], ""),
    (["hexdump", "-C", "bin.dat"], ""),
    (["date", "-u", "-d", "@0"], ""),
    (["date", "-u", "-d", "@1234567890", "+%Y-%m-%d %H:%M:%S %A"], ""),
    (["test", "-f", "input.txt"], ""),
    (["test", "-d", "input.txt"], ""),
    (["true"], ""),
    (["false"], ""),
    (["rev"], "abc\nhello\n"),
    (["fold", "-w", "7", "input.txt"], ""),
    (["sh", "-c", "yes | head -n 5"], ""),
    (["sh", "-c", "echo a b c | tr ' ' '\\n' | sort -r"], ""),
    (["sh", "-c", "for i in 1 2 3; do echo item $i; done; i=0; while [ $i -lt 3 ]; do i=$((i+1)); echo w$i; done"], ""),
    (["sh", "-c", "f() { echo \"f:$1:$#\"; return 3; }; f x; echo $?; f y z"], ""),
    (["sh", "-c", "x=$(echo hi | tr a-z A-Z); y=$(wc -l < input.txt); echo \"$x $y $((y * 2))\""], ""),
    (["sh", "-c", "case abc in a*) echo starts-a;; *) echo other;; esac; if [ -e input.txt ]; then echo yes; fi"], ""),
    (["sh", "-c", "cat input.txt | grep line | sed 's/ /_/g' | sort | head -n 2"], ""),
    (["sh", "-c", "find . -name '*.txt' | sort"], ""),
    (["sh", "-c", "echo a b c | xargs -n1 echo arg"], ""),
    (["sh", "-c", "read a b; echo \"[$b][$a]\"; cat"], "first second\nrest\n"),
    (["sh", "-c", "cat <<EOF\nhere $((1+2))\nEOF\nexit 3"], ""),
    (["sh", "-c", "mkdir -p t/u && echo x > t/u/f && cat t/u/f && rm -r t && ls"], ""),
    (["sh", "-c", "set -- a b c; shift; echo $# $@; echo ${#1} ${1:-d} ${9:-default}"], ""),
    (["sh", "-c", "false | true; echo $?; (exit 4); echo $?; sh -c 'exit 5'; echo $?"], ""),
    # Both once "diverged" only because qemu's sh ran the host's GNU od and cksum: this BusyBox's od
    # rejects x1z (bb_strtou("1z") is ERANGE) and it has no cksum applet (see run_qemu's guard).
    (["sh", "-c", "od -A x -t x1z input.txt"], ""),
    (["sh", "-c", "base64 input.txt | base64 -d | cksum"], ""),
    (["sh", "-c", "base64 input.txt | base64 -d | md5sum; od -A x -t x1 input.txt | tail -n 2"], ""),
]


def test_reference_that_runs_a_host_program_is_refused(busybox_path, tools, tmp_path):
    """qemu-user would run the host's /bin/cat here; the harness must not take that as the guest's output."""
    root = harness.make_tree(tmp_path / "q", FILES)
    (root / "bin").mkdir()
    shutil.copy(busybox_path, root / "bin" / "busybox")
    with pytest.raises(harness.ReferenceEscaped, match="/bin/cat"):
        harness.run_qemu(root / "bin" / "busybox", ["busybox", "sh", "-c", "/bin/cat input.txt"], root,
                         applets=True)


def _id(case):
    argv, _ = case
    return "-".join(argv)[:40]


@pytest.mark.parametrize("argv,stdin", CASES, ids=[_id(c) for c in CASES])
def test_busybox_matches_qemu(argv, stdin, busybox_path, tools, tmp_path):
    roots = []
    for side in ("q", "n"):
        root = tmp_path / side
        (root / "bin").mkdir(parents=True)
        shutil.copy(busybox_path, root / "bin" / "busybox")
        harness.make_tree(root, FILES)
        roots.append(root)
    full = ["busybox", *argv]
    with ThreadPoolExecutor(1) as pool:
        future = pool.submit(harness.run_qemu, roots[0] / "bin" / "busybox", full, roots[0],
                             stdin=stdin.encode(), applets=True)
        ours = harness.run_ncpu(roots[1] / "bin" / "busybox", full, roots[1], stdin=stdin.encode())
        ref = future.result()
    assert ours.stdout.decode(errors="replace") == ref.stdout.decode(errors="replace")
    assert ours.stderr == ref.stderr
    assert ours.status == ref.status
    assert not ours.messages, ours.messages
