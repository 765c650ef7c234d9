"""The application suite, each built by gcc (-static -O2) and by ncc, run on our machine."""

from __future__ import annotations

import hashlib
import hmac
import random
import shutil

import pytest

import guest_harness as gh

BUILDS = ["gcc", "ncc"]


@pytest.fixture(scope="module")
def root(tree, tmp_path_factory):
    """A copy of the built tree, as the guest's root."""
    path = tmp_path_factory.mktemp("apps") / "root"
    shutil.copytree(tree, path, ignore=shutil.ignore_patterns(".done"))
    return path


def run(root, app, build, args=(), stdin=b"", max_steps=4_000_000_000):
    name = app if build == "gcc" else f"{app}.ncc"
    return gh.harness.run_ncpu(root / "bin" / name, [f"/bin/{name}", *args], root, stdin=stdin, max_steps=max_steps)


# ---------------------------------------------------------------- SHA-256, HMAC

FIPS_MESSAGES = [b"abc", b"", b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
                 b"abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrs"
                 b"mnopqrstnopqrstu"]
FIPS_DIGESTS = ["ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
                "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
                "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
                "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"]


@pytest.mark.parametrize("build", BUILDS)
def test_sha256_fips_vectors(root, build):
    lines = b"".join(m.hex().encode() + b"\n" for m in FIPS_MESSAGES)
    out = run(root, "sha256", build, ["-lines"], stdin=lines)
    got = out.stdout.decode().split()
    assert got == FIPS_DIGESTS


@pytest.mark.parametrize("build", BUILDS)
def test_sha256_every_length_against_hashlib(root, build):
    rng = random.Random(256)
    messages = [rng.randbytes(n) for n in range(301)]
    out = run(root, "sha256", build, ["-lines"], stdin=b"".join(m.hex().encode() + b"\n" for m in messages))
    assert out.status == 0
    assert out.stdout.decode().split() == [hashlib.sha256(m).hexdigest() for m in messages]


@pytest.mark.parametrize("build", BUILDS)
def test_hmac_sha256_against_python(root, build):
    rng = random.Random(2104)
    pairs = [(rng.randbytes(rng.choice([0, 1, 16, 32, 63, 64, 65, 100, 131])), rng.randbytes(n)) for n in range(0, 301, 3)]
    # RFC 4231 test case 2
    pairs.append((b"Jefe", b"what do ya want for nothing?"))
    stdin = b"".join(k.hex().encode() + b":" + m.hex().encode() + b"\n" for k, m in pairs)
    out = run(root, "sha256", build, ["-lines"], stdin=stdin)
    got = out.stdout.decode().split()
    assert got == [hmac.new(k, m, hashlib.sha256).hexdigest() for k, m in pairs]
    assert got[-1] == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"


@pytest.mark.parametrize("build", BUILDS)
def test_sha256_stdin_mode(root, build):
    out = run(root, "sha256", build, stdin=b"hello, machine\n")
    assert out.stdout.decode().strip() == hashlib.sha256(b"hello, machine\n").hexdigest()


# ---------------------------------------------------------------- Brainfuck

@pytest.mark.parametrize("build", BUILDS)
def test_bf_hello_world(root, build):
    out = run(root, "bf", build, ["/share/hello.bf"])
    assert (out.stdout, out.status) == (b"Hello World!\n", 0)


@pytest.mark.parametrize("build", BUILDS)
def test_bf_squares(root, build):
    out = run(root, "bf", build, ["/share/squares.bf"])
    assert list(out.stdout) == [n * n for n in range(16)]


@pytest.mark.parametrize("build", BUILDS)
def test_bf_deep_nesting_and_input(root, build):
    # 500 nested loops that each run once, then echo input shifted by one
    depth = 500
    prog = "+" + "[" * depth + "-" + "]" * depth + ",[+.[-],]"
    (root / "deep.bf").write_text(prog)
    out = run(root, "bf", build, ["/deep.bf"], stdin=b"HAL")
    assert (out.stdout, out.status) == (b"IBM", 0)


@pytest.mark.parametrize("build", BUILDS)
@pytest.mark.parametrize("prog,message", [("+[[-]", b"unmatched '[' at offset 1"), ("+]", b"unmatched ']' at offset 1"),
                                          ("[]][", b"unmatched ']' at offset 2")])
def test_bf_unbalanced(root, build, prog, message):
    (root / "bad.bf").write_text(prog)
    out = run(root, "bf", build, ["/bad.bf"])
    assert out.status == 1 and message in out.stderr and out.stdout == b""


# ---------------------------------------------------------------- life, Mandelbrot

def life_python(grid: list[str], gens: int) -> list[str]:
    h, w = len(grid), len(grid[0])
    cells = [[c == "#" for c in row] for row in grid]
    for _ in range(gens):
        cells = [[(n := sum(cells[(y + dy) % h][(x + dx) % w] for dy in (-1, 0, 1) for dx in (-1, 0, 1)
                           if dy or dx)) == 3 or (n == 2 and cells[y][x]) for x in range(w)] for y in range(h)]
    return ["".join("#" if c else "." for c in row) for row in cells]


@pytest.mark.parametrize("build", BUILDS)
def test_life_glider_moves_after_four_generations(root, build):
    glider = [".#......", "..#.....", "###.....", "........", "........", "........"]
    out = run(root, "life", build, ["4"], stdin="\n".join(glider).encode() + b"\n")
    moved = ["........", "..#.....", "...#....", ".###....", "........", "........"]
    assert out.stdout.decode().split() == moved


@pytest.mark.parametrize("build", BUILDS)
def test_life_blinker_oscillates(root, build):
    blinker = [".....", ".....", ".###.", ".....", "....."]
    for gens, want in ((1, [".....", "..#..", "..#..", "..#..", "....."]), (2, blinker)):
        out = run(root, "life", build, [str(gens)], stdin="\n".join(blinker).encode() + b"\n")
        assert out.stdout.decode().split() == want


@pytest.mark.parametrize("build", BUILDS)
def test_life_random_grid_against_python(root, build):
    rng = random.Random(1970)
    grid = ["".join(rng.choice(".#") for _ in range(23)) for _ in range(17)]
    out = run(root, "life", build, ["9"], stdin="\n".join(grid).encode() + b"\n")
    assert out.stdout.decode().split() == life_python(grid, 9)


def mandelbrot_python(w: int, h: int, maxit: int) -> bytes:
    """The same 16.16 fixed-point arithmetic as guest/apps/mandelbrot.c."""
    out = bytearray(f"P6\n{w} {h}\n255\n".encode())
    for py in range(h):
        for px in range(w):
            cx = -163840 + px * 229376 // w
            cy = -81920 + py * 163840 // h
            x = y = 0
            i = 0
            while i < maxit:
                x2, y2 = (x * x) >> 16, (y * y) >> 16
                if x2 + y2 > (4 << 16):
                    break
                y = ((x * y) >> 15) + cy
                x = x2 - y2 + cx
                i += 1
            out += b"\0\0\0" if i == maxit else bytes([i * 7 % 256, i * 13 % 256, i * 29 % 256])
    return bytes(out)


@pytest.mark.parametrize("build", BUILDS)
def test_mandelbrot_ppm_hash(root, build):
    out = run(root, "mandelbrot", build, ["48", "32", "48"])
    assert out.status == 0
    assert hashlib.sha256(out.stdout).hexdigest() == hashlib.sha256(mandelbrot_python(48, 32, 48)).hexdigest()


# ---------------------------------------------------------------- Forth

FORTH_SESSION = b""": FACT ( n -- n! ) DUP 1 > IF DUP 1 - RECURSE * ELSE DROP 1 THEN ;
10 FACT .
20 FACT .
: SQUARES 6 0 DO I I * . LOOP ;
SQUARES
VARIABLE TOTAL 0 TOTAL !
: ADDUP 11 1 DO I TOTAL @ + TOTAL ! LOOP ;
ADDUP TOTAL @ .
: COUNTDOWN BEGIN DUP . 1 - DUP 0 = UNTIL DROP ;
3 COUNTDOWN
1 2 3 .S
nosuchword 5
.S
: GRADE 50 > IF 80 ELSE 70 THEN EMIT ;
60 GRADE 40 GRADE CR
"""

FORTH_OUTPUT = b""" ok
3628800  ok
2432902008176640000  ok
 ok
0 1 4 9 16 25  ok
 ok
 ok
55  ok
 ok
3 2 1  ok
<3> 1 2 3  ok
NOSUCHWORD ? 
<0>  ok
 ok
PF
 ok
"""


@pytest.mark.parametrize("build", BUILDS)
def test_forth_session(root, build):
    out = run(root, "forth", build, stdin=FORTH_SESSION)
    assert (out.stdout, out.status) == (FORTH_OUTPUT, 0)
