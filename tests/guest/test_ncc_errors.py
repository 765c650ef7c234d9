"""ncc's diagnostics: `file:line:col: error: message`, exit status 1, never a crash.

The fuzzing runs a host build of ncc's source with AddressSanitizer (many cases,
fast) when a host C compiler is present, and the AArch64 stage 0 under
qemu-aarch64 on a smaller number of cases in every run.
"""

from __future__ import annotations

import os
import random
import re
import shutil
import subprocess

import pytest

import guest_harness as gh

ERROR_LINE = re.compile(rb"^(?P<file>[^:\n]+):(?P<line>\d+):(?P<col>\d+): error: (?P<msg>[^\n]+)\n$")

CASES = [  # (source, line, col, message fragment)
    ("int main(void) { return 1 + ; }\n", 1, 29, "expected expression"),
    ("int main(void) {\n    int x = 1\n    return x;\n}\n", 3, 5, "expected ';'"),
    ("int main(void) { return y; }\n", 1, 25, "undeclared identifier 'y'"),
    ('int main(void) { char *s = "abc;\n return 0; }\n', 1, 28, "unterminated string"),
    ("/* never closed\nint main(void) { return 0; }\n", 1, 1, "unterminated comment"),
    ("int main(void) { return 1.5; }\n", 1, 25, "floating point"),
    ('#include "no_such_header.h"\nint main(void) { return 0; }\n', 1, 10, "cannot open include file"),
    ("#if 1\nint main(void) { return 0; }\n", 3, 1, "unterminated conditional"),
    ("#error stop here\n", 1, 2, "#error"),
    ("int main(void) { break; }\n", 1, 18, "not in loop or switch"),
    ("int main(void) { int x; return x(1); }\n", 1, 33, "not a function"),
    ("int f(int a, int b) { return a; }\nint main(void) { return f(1); }\n", 2, 26, "too few arguments"),
    ("struct s { int a; };\nint main(void) { struct s v; return v.b; }\n", 2, 38, "no member named 'b'"),
    ("int main(void) { goto nowhere; }\n", 1, 23, "undeclared label 'nowhere'"),
    ("int f(void) { return 1; }\nint f(void) { return 2; }\n", 2, 5, "redefinition of 'f'"),
    ("int main(void) { int a @ 3; }\n", 1, 24, "stray character"),
    ("int main(void) { 1 = 2; return 0; }\n", 1, 20, "lvalue required"),
    ("long char x;\n", 1, 1, "invalid type"),
    ("struct opaque;\nint main(void) { struct opaque v; return 0; }\n", 2, 32, "incomplete type"),
    ("int missing(void);\nint main(void) { return missing(); }\n", 2, 25, "undefined reference to 'missing'"),
    ("int main(void) { int a[2]; a = 0; }\n", 1, 30, "not assignable"),
    ("#define F(a, b) a\nint main(void) { return F(1); }\n", 2, 25, "wrong number of arguments"),
    ("int main(void) { switch (1) { case 1: case 2: ; } default: ; }\n", 1, 51, "'default' statement not in switch"),
    ("int x = y;\n", 1, 9, "undeclared identifier"),
    ("int main(void) { int x; x = *x; }\n", 1, 29, "indirection requires a pointer"),
    # outside the subset
    ("int main(void) { double d = 1; return 0; }\n", 1, 18, "floating point types are not supported"),
    ("struct s { int a : 3; };\n", 1, 18, "bit-fields are not supported"),
    ("int a[3] = {[1] = 2};\n", 1, 13, "designated initializers are not supported"),
    ("#define CAT(a, b) a ## b\nint CAT(x, y);\n", 1, 21, "token pasting (##) is not supported"),
    ("#define V(...) __VA_ARGS__\n", 1, 11, "variadic macros are not supported"),
    ("struct p { int x; };\nint main(void) { struct p v = (struct p){1}; return 0; }\n", 2, 41,
     "compound literals are not supported"),
]


def _check_error(result, src_name, line=None, col=None, fragment=None):
    assert result.returncode == 1, (result.returncode, result.stderr)
    m = ERROR_LINE.match(result.stderr)
    assert m, result.stderr
    assert m["file"].decode().endswith(src_name)
    if line is not None:
        assert (int(m["line"]), int(m["col"])) == (line, col), result.stderr
        assert fragment.encode() in m["msg"], result.stderr


@pytest.mark.parametrize("source,line,col,fragment", CASES, ids=[c[3] for c in CASES])
def test_error_message(source, line, col, fragment, tree, tmp_path):
    src = tmp_path / "bad.c"
    src.write_text(source)
    result = gh.ncc_qemu(tree / "bin" / "ncc", src, tmp_path / "bad")
    _check_error(result, "bad.c", line, col, fragment)
    assert not (tmp_path / "bad").exists()


# ---------------------------------------------------------------- fuzzing

VOCAB = ("int char short long unsigned signed void struct union enum typedef static extern const "
         "if else while do for switch case default break continue return goto sizeof "
         "x y z main f g s t p a b "
         "0 1 42 0x1f 077 'a' '\\n' \"str\" \"a\\tb\" "
         "( ) [ ] { } ; , . -> ++ -- + - * / % & | ^ ~ ! < > <= >= == != && || ? : = += -= <<= >>= "
         "<< >> ... # ## #define #if #ifdef #endif #else #include defined \\").split()


def random_stream(rng: random.Random) -> str:
    n = rng.randint(1, 60)
    return "".join(rng.choice(VOCAB) + rng.choice([" ", " ", "\n"]) for _ in range(n))


def truncated_program(rng: random.Random) -> str:
    text = rng.choice(gh.corpus()).read_text()
    return text[:rng.randint(0, len(text))]


def _cases(seed: int, count: int) -> list[str]:
    rng = random.Random(seed)
    return [random_stream(rng) if i % 2 else truncated_program(rng) for i in range(count)]


def _check_no_crash(result, name):
    assert result.returncode in (0, 1), (result.returncode, result.stderr[-2000:])
    if result.returncode == 1:
        _check_error(result, name)
    else:
        assert result.stderr == b""


@pytest.fixture(scope="module")
def asan_ncc(tmp_path_factory):
    """ncc's source built for this host with AddressSanitizer (None without a host compiler)."""
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        return None
    out = tmp_path_factory.mktemp("asan") / "ncc-asan"
    result = subprocess.run([cc, "-g", "-O1", "-fwrapv", "-fsanitize=address", "-o", str(out), str(gh.NCC_SRC)],
                            capture_output=True)
    return out if result.returncode == 0 else None


def test_fuzz_under_qemu(tree, tmp_path):
    for i, text in enumerate(_cases(1, 40)):
        src = tmp_path / f"fuzz{i}.c"
        src.write_text(text)
        result = gh.ncc_qemu(tree / "bin" / "ncc", src, tmp_path / "out")
        _check_no_crash(result, src.name)


def test_fuzz_host_asan(asan_ncc, tree, tmp_path):
    cases = _cases(2, 300)
    if asan_ncc is None:  # no host compiler: the same cases through qemu, fewer of them
        cases = cases[:40]
    env = dict(os.environ, ASAN_OPTIONS="detect_leaks=0")
    for i, text in enumerate(cases):
        src = tmp_path / f"fuzz{i}.c"
        src.write_text(text)
        if asan_ncc is None:
            result = gh.ncc_qemu(tree / "bin" / "ncc", src, tmp_path / "out")
        else:
            result = subprocess.run([str(asan_ncc), "-L", str(gh.LIBDIR), "-o", str(tmp_path / "out"), str(src)],
                                    capture_output=True, env=env, timeout=60)
        _check_no_crash(result, src.name)
